/** JUnit XML of a test run, as CI servers read it (one testsuite per file, one testcase per request). */
import { formatExchange, type RequestRunResult } from '../client/requestFileRunner';
import { formatDifference } from '../protocol/compare';
import { escapeAttr, escapeText } from '../protocol/codecs/xml';
import { tries, type FileRun } from './report';

/** An attribute value of the report; characters XML 1.0 cannot hold become U+FFFD. */
const xmlAttr = (text: string): string => escapeAttr(text, 'replace');
/** Element content of the report (line breaks kept as they are), likewise. */
const xmlText = (value: string): string => escapeText(value, 'replace');

function seconds(ms: number): string {
	return (ms / 1000).toFixed(3);
}

/** The JUnit XML report of the files run. */
export function junitReport(files: readonly FileRun[], totalMs: number): string {
	const count = (status: string): number =>
		files.reduce((sum, file) => sum + file.results.filter((result) => junitStatus(result) === status).length, 0);
	const tests = files.reduce((sum, file) => sum + file.results.length, 0);
	const lines = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<testsuites name="multiposting-test" tests="${tests}" failures="${count('failed')}" errors="${count('errored')}" skipped="${count('skipped')}" time="${seconds(totalMs)}">`,
	];
	for (const file of files) {
		const of = (status: string): number => file.results.filter((result) => junitStatus(result) === status).length;
		lines.push(
			`  <testsuite name="${xmlAttr(file.name)}" tests="${file.results.length}" failures="${of('failed')}" errors="${of('errored')}" skipped="${of('skipped')}" time="${seconds(file.ms)}" timestamp="${file.startedAt}">`,
		);
		for (const problem of file.fileProblems) {
			lines.push(
				`    <testcase classname="${xmlAttr(className(file.name))}" name="(file)" time="0">`,
				`      <error message="${xmlAttr(problem)}" type="file"/>`,
				'    </testcase>',
			);
		}
		for (const result of file.results) {
			const time = seconds(result.exchange?.timeMs ?? 0);
			const line = file.lines[result.index];
			lines.push(
				`    <testcase classname="${xmlAttr(className(file.name))}" name="${xmlAttr(result.label)}" time="${time}" file="${xmlAttr(file.path)}"${line ? ` line="${line}"` : ''}>`,
			);
			if (result.tries !== undefined) {
				lines.push(`      <properties><property name="tries" value="${result.tries}"/></properties>`);
			}
			const failed = result.outcomes.filter((outcome) => !outcome.passed);
			const details = [
				...failed.map(
					(outcome) =>
						`${lineOf(outcome.line)}expect: ${outcome.text}\n  expected: ${outcome.expected}\n  actual:   ${outcome.actual}`,
				),
				...result.problems,
				...(result.tries !== undefined && result.status !== 'passed'
					? [`(the last of ${tries(result.tries)})`]
					: []),
			].join('\n');
			const comparison = comparisonFailure(result);
			if (result.status === 'passed' && comparison) {
				lines.push(
					`      <failure message="${xmlAttr(comparison.message)}" type="comparison">${xmlText(comparison.details)}</failure>`,
				);
			} else if (result.status === 'failed') {
				const message = failed[0]
					? `${lineOf(failed[0].line)}${failed[0].message}`
					: (result.problems[0] ?? 'failed');
				lines.push(
					`      <failure message="${xmlAttr(message)}" type="expectation">${xmlText(details)}</failure>`,
				);
			} else if (result.status === 'errored') {
				lines.push(
					`      <error message="${xmlAttr(result.problems[0] ?? 'error')}" type="request">${xmlText(details)}</error>`,
				);
			} else if (result.status === 'skipped') {
				lines.push(`      <skipped message="${xmlAttr(result.problems[0] ?? 'skipped')}"/>`);
			}
			if (result.exchange && result.status !== 'passed') {
				lines.push(`      <system-out>${xmlText(formatExchange(result.exchange))}</system-out>`);
			}
			lines.push('    </testcase>');
		}
		lines.push('  </testsuite>');
	}
	lines.push('</testsuites>', '');
	return lines.join('\n');
}

/** The request's status as JUnit counts it: a passed request that compared badly is a failure. */
function junitStatus(result: RequestRunResult): RequestRunResult['status'] {
	return result.status === 'passed' && comparisonFailure(result) ? 'failed' : result.status;
}

/** A passed request the second service (--compare-with) answered differently fails as a comparison. */
function comparisonFailure(result: RequestRunResult): { message: string; details: string } | undefined {
	const comparison = result.comparison;
	if (!comparison || comparison.notSent !== undefined) return undefined;
	if (comparison.problem !== undefined) {
		return { message: `not compared: ${comparison.problem}`, details: comparison.problem };
	}
	if (comparison.differences.length === 0) return undefined;
	return {
		message: `the second service answers differently (${comparison.differences.length} difference(s))`,
		details: comparison.differences.map(formatDifference).join('\n'),
	};
}

/** `line 12: `, or nothing when the line is not known. */
function lineOf(line: number | undefined): string {
	return line === undefined ? '' : `line ${line}: `;
}

/** `examples/sub/a.mpreq` → `examples.sub.a`: the name under the folder given, never a `..` path. */
function className(name: string): string {
	return name.replace(/\.mpreq$/, '').replace(/[\\/]/g, '.');
}
