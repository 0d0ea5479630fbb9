/** JUnit XML of a test run, as CI servers read it (one testsuite per file, one testcase per request). */
import { formatExchange } from '../client/requestFileRunner';
import type { FileRun } from './report';

/** Characters XML 1.0 cannot hold, removed from reports. */
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function escape(text: string): string {
	return text
		.replace(INVALID_XML_CHARS, '\uFFFD')
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');
}

function seconds(ms: number): string {
	return (ms / 1000).toFixed(3);
}

/** The JUnit XML report of the files run. */
export function junitReport(files: readonly FileRun[], totalMs: number): string {
	const count = (status: string): number =>
		files.reduce((sum, file) => sum + file.results.filter((result) => result.status === status).length, 0);
	const tests = files.reduce((sum, file) => sum + file.results.length, 0);
	const lines = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<testsuites name="multiposting-test" tests="${tests}" failures="${count('failed')}" errors="${count('errored')}" skipped="${count('skipped')}" time="${seconds(totalMs)}">`,
	];
	for (const file of files) {
		const of = (status: string): number => file.results.filter((result) => result.status === status).length;
		lines.push(
			`  <testsuite name="${escape(file.path)}" tests="${file.results.length}" failures="${of('failed')}" errors="${of('errored')}" skipped="${of('skipped')}" time="${seconds(file.ms)}" timestamp="${file.startedAt}">`,
		);
		for (const problem of file.fileProblems) {
			lines.push(
				`    <testcase classname="${escape(className(file.path))}" name="(file)" time="0">`,
				`      <error message="${escape(problem)}" type="file"/>`,
				'    </testcase>',
			);
		}
		for (const result of file.results) {
			const time = seconds(result.exchange?.timeMs ?? 0);
			const line = file.lines[result.index];
			lines.push(
				`    <testcase classname="${escape(className(file.path))}" name="${escape(result.label)}" time="${time}" file="${escape(file.path)}"${line ? ` line="${line}"` : ''}>`,
			);
			const failed = result.outcomes.filter((outcome) => !outcome.passed);
			const details = [
				...failed.map(
					(outcome) =>
						`expect: ${outcome.text}\n  expected: ${outcome.expected}\n  actual:   ${outcome.actual}`,
				),
				...result.problems,
			].join('\n');
			if (result.status === 'failed') {
				const message = failed[0]?.message ?? result.problems[0] ?? 'failed';
				lines.push(
					`      <failure message="${escape(message)}" type="expectation">${escape(details)}</failure>`,
				);
			} else if (result.status === 'errored') {
				lines.push(
					`      <error message="${escape(result.problems[0] ?? 'error')}" type="request">${escape(details)}</error>`,
				);
			} else if (result.status === 'skipped') {
				lines.push(`      <skipped message="${escape(result.problems[0] ?? 'skipped')}"/>`);
			}
			if (result.exchange && result.status !== 'passed') {
				lines.push(`      <system-out>${escape(formatExchange(result.exchange))}</system-out>`);
			}
			lines.push('    </testcase>');
		}
		lines.push('  </testsuite>');
	}
	lines.push('</testsuites>', '');
	return lines.join('\n');
}

function className(path: string): string {
	return path.replace(/\.mpreq$/, '').replace(/[\\/]/g, '.');
}
