/**
 * What the sandbox's journal costs: throughput of the production bundle with the journal on (the
 * default) and off (`--no-journal`), 16 connections, rounds alternated so both see the same machine.
 * Three loads of GetCurrency in SOAP 1.1: served from the answer cache (the cheapest request, where the
 * journal's share is largest), the same with `--no-answer-cache` (every request runs in full), and each
 * body different (a comment with a new number), so the journal redacts every request anew.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fmt, median, table, type Section } from './common';
import { requestFor, startSandbox, type Sandbox } from './server';

const ROOT = join(__dirname, '..', '..');
const CONNECTIONS = 16;
const ROUNDS = 3;

async function load(sandbox: Sandbox, seconds: number, distinct: boolean): Promise<number> {
	const spec = requestFor('soap11', 'GetCurrency', { sCultureID: 'en-GB', sAPIKey: sandbox.demo.apiKey });
	let sent = 0;
	const result = await autocannon({
		url: sandbox.baseUrl + spec.path,
		method: spec.method,
		headers: spec.headers,
		body: spec.body,
		// A comment with a new number in each body: no request repeats an earlier one byte for byte.
		requests: distinct
			? [
					{
						setupRequest: (request) => ({
							...request,
							body: spec.body.replace('</soap:Envelope>', `<!-- ${++sent} --></soap:Envelope>`),
						}),
					},
				]
			: undefined,
		connections: CONNECTIONS,
		duration: seconds,
		timeout: 30,
	});
	if (result.errors + result.timeouts + result.non2xx > 0) {
		throw new Error('the journal benchmark saw failed requests');
	}
	return result.requests.total / Math.max(0.001, result.duration);
}

export async function runJournalBenchmark(seconds: number, log: (line: string) => void): Promise<Section> {
	execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
	const bundle = join(ROOT, 'dist', 'sandbox.js');
	const dir = mkdtempSync(join(tmpdir(), 'mp-bench-journal-'));
	const rows: string[][] = [];
	try {
		for (const [label, extra, distinct] of [
			['answer cache on (default)', [], false],
			['--no-answer-cache', ['--no-answer-cache'], false],
			['a different body each time', [], true],
		] as const) {
			const on: number[] = [];
			const off: number[] = [];
			for (let round = 0; round < ROUNDS; round++) {
				for (const [journal, into] of [
					[true, on],
					[false, off],
				] as const) {
					const sandbox = await startSandbox(
						bundle,
						join(dir, 'data'),
						[],
						['--size', 'small', ...extra, ...(journal ? [] : ['--no-journal'])],
					);
					try {
						await load(sandbox, 1, distinct); // warm-up
						into.push(await load(sandbox, seconds, distinct));
					} finally {
						await sandbox.stop();
					}
				}
			}
			const ratios = on.map((value, i) => value / off[i]);
			log(`  journal ${label}: on ${fmt(median(on), 0)} req/s, off ${fmt(median(off), 0)} req/s`);
			rows.push([label, fmt(median(on), 0), fmt(median(off), 0), `${fmt((1 - median(ratios)) * 100, 1)} %`]);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	return {
		title: 'Journal: throughput with the journal on and off',
		body:
			`GetCurrency in SOAP 1.1, ${CONNECTIONS} connections; "a different body each time" adds a comment with a new number to each request, so no request repeats an earlier one (the journal redacts each anew; the answer cache, keyed by the body, answers none). ${CONNECTIONS} connections, ${seconds} s per round after a 1 s warm-up, the median of ${ROUNDS} rounds alternating on and off (production bundle, --size small). The cost is the median of the rounds' on ÷ off ratios.\n\n` +
			table(['Sandbox', 'journal on (req/s)', 'journal off (req/s)', 'cost'], rows),
	};
}
