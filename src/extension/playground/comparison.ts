/**
 * Builds the "compare bindings" view from one response per binding: structural differences of the
 * decoded results and line diffs of the pretty-printed bodies, both against SOAP 1.1.
 */
import { BINDING_LABELS, type BindingName } from '../../protocol/bindings/types';
import { compareOutcomes, diffLines, formatDifference, type BindingOutcome } from '../../protocol/compare';
import type { ComparisonView, ResponseView } from '../../shared/playgroundMessages';

/** What one response amounts to, for the structural comparison. */
export function outcomeOf(response: ResponseView): BindingOutcome {
	if (response.fault) {
		return {
			kind: 'fault',
			code: response.fault.code,
			subcode: response.fault.subcode,
			message: response.fault.message,
		};
	}
	if (response.error !== undefined) return { kind: 'error', message: response.error };
	if (response.decodeError !== undefined) return { kind: 'error', message: response.decodeError };
	return { kind: 'result', result: response.result };
}

function summaryOf(response: ResponseView): string {
	if (response.error !== undefined) return response.error;
	if (response.fault) {
		return `Fault ${response.fault.code}${response.fault.subcode ? `/${response.fault.subcode}` : ''}: ${response.fault.message}`;
	}
	if (response.decodeError !== undefined) return `Not decodable: ${response.decodeError}`;
	const result = response.result;
	return Array.isArray(result) ? `${result.length} record(s)` : 'One record';
}

/** The comparison of responses given in binding order; the first is the baseline. */
export function buildComparison(
	operation: string,
	responses: readonly (readonly [BindingName, ResponseView])[],
): ComparisonView {
	const comparison = compareOutcomes(responses.map(([binding, response]) => [binding, outcomeOf(response)] as const));
	const prettyOf = (response: ResponseView): string => response.pretty ?? response.bodyText;
	const base = responses[0]?.[1];
	return {
		operation,
		columns: responses.map(([binding, response]) => ({
			binding,
			label: BINDING_LABELS[binding],
			status: response.status,
			summary: summaryOf(response),
			pretty: prettyOf(response),
		})),
		results: comparison.differences.map((entry) => ({
			binding: entry.key,
			equal: entry.equal,
			differences: entry.differences.map(formatDifference),
		})),
		bodies: base
			? responses
					.slice(1)
					.map(([binding, response]) => ({ binding, lines: diffLines(prettyOf(base), prettyOf(response)) }))
			: [],
	};
}
