/**
 * Builds the "compare bindings" view from one response per binding: structural differences of the
 * decoded results and line diffs of the payloads (the result element without its envelope), both
 * against SOAP 1.1.
 */
import { BINDING_LABELS, type BindingName } from '../../protocol/bindings/types';
import { compareOutcomes, diffLines, formatDifference, type BindingOutcome } from '../../protocol/compare';
import type { ComparisonView, ResponseView } from '../../shared/playgroundMessages';
import { payloadOf } from './payload';

/** What one response amounts to, for the structural comparison. */
export function outcomeOf(response: ResponseView): BindingOutcome {
	if (response.httpError) {
		return { kind: 'fault', code: `HTTP ${response.httpError.status}`, message: response.httpError.text };
	}
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
	if (response.httpError) {
		return `HTTP ${response.httpError.status} ${response.httpError.contentType}: ${response.httpError.text}`;
	}
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
	const payloads = responses.map(([, response]) => payloadOf(response.bodyText));
	return {
		operation,
		columns: responses.map(([binding, response], index) => ({
			binding,
			label: BINDING_LABELS[binding],
			status: response.status,
			summary: summaryOf(response),
			pretty: prettyOf(response),
			payload: payloads[index],
		})),
		results: comparison.differences.map((entry) => ({
			binding: entry.key,
			equal: entry.equal,
			differences: entry.differences.map(formatDifference),
		})),
		payloads: responses
			.slice(1)
			.map(([binding], index) => ({ binding, lines: diffLines(payloads[0], payloads[index + 1]) })),
	};
}
