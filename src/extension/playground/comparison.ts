/**
 * Builds the comparison views of the playground from responses to one call: over the four bindings
 * ("Compare bindings", against SOAP 1.1) or over two connections ("Compare with connection…",
 * against the active one, what must differ between two services masked). Both show structural
 * differences of the decoded results and line diffs of the payloads (the result element without
 * its envelope).
 */
import { BINDING_LABELS, type BindingName } from '../../protocol/bindings/types';
import {
	compareOutcomes,
	diffLines,
	formatDifference,
	normaliseResult,
	payloadWithoutVaryingValues,
	withoutVaryingValues,
	type BindingOutcome,
} from '../../protocol/compare';
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

/** One column of a comparison: what came back, its structural outcome and its payload as compared. */
interface Side {
	key: string;
	label: string;
	response: ResponseView;
	outcome: BindingOutcome;
	payload: string;
}

function comparisonOf(kind: ComparisonView['kind'], operation: string, sides: readonly Side[]): ComparisonView {
	const comparison = compareOutcomes(sides.map((side) => [side.key, side.outcome] as const));
	return {
		kind,
		operation,
		columns: sides.map((side) => ({
			key: side.key,
			label: side.label,
			status: side.response.status,
			summary: summaryOf(side.response),
			pretty: side.response.pretty ?? side.response.bodyText,
			payload: side.payload,
		})),
		results: comparison.differences.map((entry) => ({
			key: entry.key,
			equal: entry.equal,
			differences: entry.differences.map(formatDifference),
		})),
		payloads: sides.slice(1).map((side) => ({ key: side.key, lines: diffLines(sides[0].payload, side.payload) })),
	};
}

/** The comparison of responses given in binding order; the first is the baseline. */
export function buildComparison(
	operation: string,
	responses: readonly (readonly [BindingName, ResponseView])[],
): ComparisonView {
	return comparisonOf(
		'bindings',
		operation,
		responses.map(([binding, response]) => ({
			key: binding,
			label: BINDING_LABELS[binding],
			response,
			outcome: outcomeOf(response),
			payload: payloadOf(response.bodyText),
		})),
	);
}

/** One connection's answer to the call. */
export interface ConnectionResponse {
	id: string;
	label: string;
	/** The connection's service namespace, masked in its payload. */
	namespace: string;
	response: ResponseView;
}

/**
 * The comparison of the same call over two connections (the active one first): identifiers, links,
 * dates and the namespace are masked in the results and the payloads, so what is left differs only
 * where the two services disagree.
 */
export function buildConnectionComparison(
	operation: string,
	connections: readonly [ConnectionResponse, ConnectionResponse],
): ComparisonView {
	return comparisonOf(
		'connections',
		operation,
		connections.map(({ id, label, namespace, response }) => {
			const outcome = outcomeOf(response);
			return {
				key: id,
				label,
				response,
				outcome:
					outcome.kind === 'result'
						? { kind: 'result', result: withoutVaryingValues(normaliseResult(outcome.result)) }
						: outcome,
				payload: payloadWithoutVaryingValues(payloadOf(response.bodyText), namespace),
			};
		}),
	);
}
