/**
 * The JSON report of multiposting-test (`--json`): every file, request, expectation and problem, for
 * tools that read more than JUnit carries. Everything in it is redacted by the runner already.
 */
import { formatExchange, type RequestRunResult } from '../client/requestFileRunner';
import { countComparisons, totals, type FileRun } from './report';

/** The version of the report's shape; a reader checks it. */
export const JSON_REPORT_VERSION = 1;

/** What the run was, besides its files. */
export interface RunFacts {
	/** Where the requests went (a URL, or the sandbox started for the run). */
	target: string;
	/** The second service of --compare-with, if any. */
	comparedWith?: string;
	startedAt: Date;
	totalMs: number;
	/** Files left out by --bail. */
	filesNotRun: number;
}

/** The report as JSON text (two-space indented, ending with a line break). */
export function jsonReport(files: readonly FileRun[], facts: RunFacts): string {
	const counts = totals(files);
	const report = {
		tool: 'multiposting-test',
		version: JSON_REPORT_VERSION,
		target: facts.target,
		comparedWith: facts.comparedWith,
		startedAt: facts.startedAt.toISOString(),
		durationMs: Math.round(facts.totalMs),
		totals: {
			passed: counts.passed,
			failed: counts.failed,
			errored: counts.errored + counts.fileErrors,
			skipped: counts.skipped,
		},
		comparisons: facts.comparedWith === undefined ? undefined : countComparisons(files),
		filesNotRun: facts.filesNotRun,
		files: files.map((file) => ({
			name: file.name,
			path: file.path,
			durationMs: Math.round(file.ms),
			problems: file.fileProblems,
			warnings: file.warnings,
			requests: file.results.map((result) => requestReport(result, file.lines[result.index])),
		})),
	};
	return `${JSON.stringify(report, null, 2)}\n`;
}

function requestReport(result: RequestRunResult, line: number | undefined) {
	return {
		name: result.label,
		line,
		status: result.status,
		setup: result.setup,
		tries: result.tries,
		timeMs: result.exchange ? Math.round(result.exchange.timeMs) : undefined,
		expectations: result.outcomes.map((outcome) => ({
			line: outcome.line,
			text: outcome.text,
			passed: outcome.passed,
			expected: outcome.expected,
			actual: outcome.actual,
		})),
		problems: result.problems,
		captured: Object.keys(result.captured),
		exchange: result.exchange && result.status !== 'passed' ? formatExchange(result.exchange) : undefined,
		comparison: result.comparison && {
			differences: result.comparison.differences,
			problem: result.comparison.problem,
			notSent: result.comparison.notSent,
		},
	};
}
