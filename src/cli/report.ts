/** The console report of multiposting-test: a line per request, details of failures, a summary. */
import { formatExchange, type RequestRunResult } from '../client/requestFileRunner';
import { formatDifference } from '../protocol/compare';

/** The run of one file. */
export interface FileRun {
	/** Relative to the working folder when it is inside it, else absolute. */
	path: string;
	/** Readable and independent of the working folder: under the folder given (`examples/a.mpreq`). */
	name: string;
	startedAt: string;
	ms: number;
	results: RequestRunResult[];
	/** 1-based line of each entry, by entry index. */
	lines: Record<number, number>;
	/** Problems that stopped the whole file (unreadable). */
	fileProblems: string[];
	/** Warnings about the file's text (nothing stopped). */
	warnings: string[];
}

const MARK: Record<RequestRunResult['status'], string> = {
	passed: '✓',
	failed: '✗',
	errored: '!',
	skipped: '-',
};

/** The lines printed for one file. */
export function fileReport(file: FileRun, verbose: boolean): string {
	const lines = [file.path];
	for (const problem of file.fileProblems) lines.push(`  ! ${problem}`);
	for (const warning of file.warnings) lines.push(`  warning: ${warning}`);
	for (const result of file.results) {
		const facts = [
			...(result.exchange ? [`${Math.round(result.exchange.timeMs)} ms`] : []),
			...(result.tries !== undefined ? [tries(result.tries)] : []),
		];
		const time = facts.length > 0 ? ` (${facts.join(', ')})` : '';
		lines.push(`  ${MARK[result.status]} ${result.label}${time}${result.status === 'skipped' ? ' skipped' : ''}`);
		if (result.status === 'passed' && !verbose) {
			lines.push(...comparisonLines(result));
			continue;
		}
		for (const outcome of result.outcomes) {
			if (outcome.passed && !verbose) continue;
			lines.push(`      ${outcome.passed ? 'ok' : 'failed'}${atLine(outcome.line)}: expect: ${outcome.text}`);
			if (!outcome.passed) {
				lines.push(`        expected: ${outcome.expected}`, `        actual:   ${outcome.actual}`);
			}
		}
		for (const problem of result.problems) lines.push(`      ${problem}`);
		lines.push(...comparisonLines(result));
		if (result.exchange && (result.status !== 'passed' || verbose)) {
			lines.push(...indent(formatExchange(result.exchange, 1500), '      | '));
		}
	}
	return lines.join('\n');
}

/** At most this many differences of one request are printed (the JSON report has them all). */
const PRINTED_DIFFERENCES = 20;

/** How the second connection answered differently (--compare-with); nothing when it answered the same. */
function comparisonLines(result: RequestRunResult): string[] {
	const comparison = result.comparison;
	if (!comparison) return [];
	if (comparison.notSent !== undefined) return [`      – not sent to the second service: ${comparison.notSent}`];
	if (comparison.problem !== undefined) return [`      ≠ not compared: ${comparison.problem}`];
	const { differences } = comparison;
	if (differences.length === 0) return [];
	const more = differences.length - PRINTED_DIFFERENCES;
	return [
		`      ≠ the second service answers differently (${differences.length} difference(s)):`,
		...differences.slice(0, PRINTED_DIFFERENCES).map((difference) => `        ${formatDifference(difference)}`),
		...(more > 0 ? [`        … and ${more} more (see --json)`] : []),
	];
}

/**
 * Requests the second connection answered differently, those it could not be compared on, and those
 * not sent there (writes, unless --compare-writes; counted apart, as no difference).
 */
export function countComparisons(files: readonly FileRun[]): {
	compared: number;
	differ: number;
	notCompared: number;
	notSent: number;
} {
	const counts = { compared: 0, differ: 0, notCompared: 0, notSent: 0 };
	for (const result of files.flatMap((file) => file.results)) {
		if (!result.comparison) continue;
		if (result.comparison.notSent !== undefined) {
			counts.notSent += 1;
			continue;
		}
		counts.compared += 1;
		if (result.comparison.problem !== undefined) counts.notCompared += 1;
		else if (result.comparison.differences.length > 0) counts.differ += 1;
	}
	return counts;
}

/** `Compared with …: 5 request(s), 1 differ, 0 not compared, 2 not sent there (they change data; --compare-writes sends them)`. */
export function comparisonLine(files: readonly FileRun[], comparedWith: string): string {
	const counts = countComparisons(files);
	const notSent =
		counts.notSent === 0
			? ''
			: `, ${counts.notSent} not sent there (they change data or need what such a request captures; --compare-writes sends them)`;
	return `Compared with ${comparedWith}: ${counts.compared} request(s), ${counts.differ} differ, ${counts.notCompared} not compared${notSent}`;
}

/** `1 try`, `3 tries`. */
export function tries(count: number): string {
	return count === 1 ? '1 try' : `${count} tries`;
}

/** ` at line 12`, or nothing when the line is not known. */
export function atLine(line: number | undefined): string {
	return line === undefined ? '' : ` at line ${line}`;
}

function indent(text: string, prefix: string): string[] {
	return text.split('\n').map((line) => `${prefix}${line}`);
}

/** Totals by status. */
export function totals(files: readonly FileRun[]): Record<RequestRunResult['status'] | 'fileErrors', number> {
	const counts = { passed: 0, failed: 0, errored: 0, skipped: 0, fileErrors: 0 };
	for (const file of files) {
		counts.fileErrors += file.fileProblems.length;
		for (const result of file.results) counts[result.status] += 1;
	}
	return counts;
}

/** The closing line: `N passed, N failed, N errored, N skipped` (an unreadable file counts as errored). */
export function summaryLine(files: readonly FileRun[]): string {
	const counts = totals(files);
	return `${counts.passed} passed, ${counts.failed} failed, ${counts.errored + counts.fileErrors} errored, ${counts.skipped} skipped`;
}
