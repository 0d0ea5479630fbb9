/**
 * "Compare with connection…" on a request of a file: the texts shown for a run whose requests also
 * went to a second connection (the differences per request, and the two payloads as compared).
 * Free of the VS Code API.
 */
import type { RequestRunResult } from '../../client/requestFileRunner';
import { formatDifference, payloadWithoutVaryingValues } from '../../protocol/compare';
import { payloadOf } from '../playground/payload';

/** The two connections of a comparison, as the texts name them. */
export interface ComparedConnections {
	first: { label: string; namespace: string };
	second: { label: string; namespace: string };
}

/** One line for a notification: how the second connection answered the request. */
export function comparisonHeadline(result: RequestRunResult, connections: ComparedConnections): string {
	const comparison = result.comparison;
	const { first, second } = connections;
	if (!comparison) return `${result.label}: not sent to ${second.label} (${result.problems[0] ?? result.status}).`;
	if (comparison.notSent !== undefined) return `${result.label}: not sent to ${second.label}: ${comparison.notSent}`;
	if (comparison.problem !== undefined) return `${result.label}: not compared: ${comparison.problem}`;
	const count = comparison.differences.length;
	return count === 0
		? `${result.label}: ${second.label} answers as ${first.label} does (identifiers, dates and the namespace aside).`
		: `${result.label}: ${second.label} answers differently from ${first.label} (${count} difference(s)).`;
}

/** The differences of every request compared, as text for the output channel. */
export function describeComparison(
	fileName: string,
	results: readonly RequestRunResult[],
	connections: ComparedConnections,
): string {
	const lines = [`${fileName}: ${connections.first.label} compared with ${connections.second.label}`];
	for (const result of results) {
		lines.push('', `${result.setup ? '(needed first) ' : ''}${comparisonHeadline(result, connections)}`);
		for (const difference of result.comparison?.differences ?? []) {
			lines.push(`  ${formatDifference(difference)}`);
		}
	}
	return `${lines.join('\n')}\n`;
}

/** The payloads of both answers with identifiers, dates and each namespace masked, for a diff editor. */
export function comparedPayloads(
	result: RequestRunResult,
	connections: ComparedConnections,
): { first: string; second: string } | undefined {
	const first = result.exchange?.response?.body;
	const second = result.comparison?.exchange?.response?.body;
	if (first === undefined || second === undefined) return undefined;
	return {
		first: payloadWithoutVaryingValues(payloadOf(first), connections.first.namespace),
		second: payloadWithoutVaryingValues(payloadOf(second), connections.second.namespace),
	};
}
