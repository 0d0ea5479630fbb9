import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator';
import { parseRecording, type Recording } from '../../src/protocol/recordings/format';
import { advertPage, LIVE_NAMESPACE, weeksWithUnqualifiedKey } from '../builders/liveRequests';
import { soap11Headers, startSandbox } from '../integration/support';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'multiposting-test.js');
interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

interface JsonReport {
	tool: string;
	kind: string;
	version: number;
	recording: string;
	recordedAt: string;
	target: string;
	items: {
		id: number;
		operation?: string;
		binding?: string;
		outcome: string;
		drift: unknown[];
		reason?: string;
		recorded: { status: number; body: string };
		sandbox?: { status: number; body: string };
		sent?: string;
	}[];
	counts: { compared: number; drifted: number; notSent: number; errors: number };
}

describe('multiposting-test --drift (dist/multiposting-test.js)', function () {
	this.timeout(180_000);
	let live: RunningEmulator;
	let recorder: RunningEmulator;
	/** The same loose service as the live one: nothing drifts. */
	let identical: RunningEmulator;
	/** A strict sandbox: the unqualified sAPIKey drifts. */
	let drifting: RunningEmulator;
	let folder: string;
	let recording: Recording;
	const ids: Record<string, number> = {};

	before(async () => {
		const options = { size: 'small' as const, passwordCost: 1024, seed: 3, namespace: LIVE_NAMESPACE };
		[live, recorder, identical, drifting] = await Promise.all([
			startSandbox({ ...options, loose: true }),
			startSandbox({ size: 'small', passwordCost: 1024 }),
			startSandbox({ ...options, loose: true }),
			startSandbox(options),
		]);
		folder = mkdtempSync(join(tmpdir(), 'mp-drift-cli-'));

		// The recording: four exchanges with the live stand-in through the recorder's proxy, one a write.
		const proxy = await recorder.proxy.start({ upstream: live.baseUrl, port: 0 });
		const key = live.demo.apiKey;
		const soap = (path: string, operation: string, body: string) =>
			fetch(`${proxy.url}${path}`, {
				method: 'POST',
				headers: soap11Headers(LIVE_NAMESPACE, operation),
				body,
			});
		const exchanges: [string, () => Promise<Response>][] = [
			['GetCurrency', () => fetch(`${proxy.url}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${key}`)],
			[
				'GetWeeksToAdvertise',
				() => soap('/SOAP/Administration.asmx', 'GetWeeksToAdvertise', weeksWithUnqualifiedKey(key)),
			],
			['GetAdvertPaged', () => soap('/SOAP/Posting.asmx', 'GetAdvertPaged', advertPage(key))],
			[
				'CandidateTag',
				() =>
					fetch(
						`${proxy.url}/SOAP/Posting.asmx/CandidateTag?sAPIKey=${key}&sCandidateEmail=ada%40example.com&sCandidateFirstName=Ada&sCandidateLastName=Lovelace&Tag=drift-check`,
					),
			],
		];
		for (const [operation, call] of exchanges) {
			const answer = await call();
			await answer.arrayBuffer();
			if (operation !== 'CandidateTag') assert.equal(answer.status, 200, operation);
			ids[operation] = recorder.journal!.list({})[0].id;
		}
		await recorder.proxy.stop();
		const saved = await fetch(`${recorder.baseUrl}/__admin/recordings`, {
			method: 'POST',
			body: JSON.stringify({ ids: Object.values(ids) }),
		});
		assert.equal(saved.status, 200);
		const text = ((await saved.json()) as { text: string }).text;
		writeFileSync(join(folder, 'live.mprec.json'), text);
		recording = parseRecording(text, 'live.mprec.json');
	});
	after(async () => {
		await Promise.all([live, recorder, identical, drifting].map((emulator) => emulator?.stop()));
		if (folder) rmSync(folder, { recursive: true, force: true });
	});

	/** Runs the CLI in the folder with the target's credentials in the environment. */
	function drift(target: RunningEmulator, ...more: string[]): Promise<Run> {
		return new Promise((resolve) => {
			const child = execFile(
				process.execPath,
				[CLI, '--drift', 'live.mprec.json', '--url', target.baseUrl, ...more],
				{
					cwd: folder,
					timeout: 120_000,
					env: {
						...process.env,
						MP_API_KEY: target.demo.apiKey,
						MP_USERNAME: target.demo.username,
						MP_PASSWORD: target.demo.password,
					},
				},
				(_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
			);
		});
	}

	const sentTo = (target: RunningEmulator, operation: string): number =>
		target.journal!.list({}).filter((entry) => entry.operation === operation).length;

	it('records the four exchanges it is checked with', () => {
		assert.deepEqual(
			recording.exchanges.map((exchange) => exchange.operation),
			['GetCurrency', 'GetWeeksToAdvertise', 'GetAdvertPaged', 'CandidateTag'],
		);
	});

	it('exits 0 and reports no drift against a sandbox that answers like the live service', async () => {
		const run = await drift(identical);
		assert.equal(run.code, 0, run.stdout + run.stderr);
		assert.match(run.stdout, /Drift of live\.mprec\.json \(recorded at http:\/\/127\.0\.0\.1:\d+\) against /);
		assert.ok(run.stdout.includes(identical.baseUrl), run.stdout);
		assert.match(run.stdout, new RegExp(`✓ #${ids.GetCurrency} GetCurrency \\(httpGet\\): same shape`));
		assert.match(
			run.stdout,
			new RegExp(`✓ #${ids.GetWeeksToAdvertise} GetWeeksToAdvertise \\(soap11\\): same shape`),
		);
		assert.match(run.stdout, new RegExp(`✓ #${ids.GetAdvertPaged} GetAdvertPaged \\(soap11\\): same shape`));
		assert.match(run.stdout, /3 compared, 0 drift, 1 not sent \(writes\), 0 without an answer/);
		assert.doesNotMatch(run.stdout, /≠/);
	});

	it("sends the requests in the sandbox's namespace when it differs from the recording's", async () => {
		const elsewhere = await startSandbox({ size: 'small', passwordCost: 1024, seed: 3, loose: true });
		try {
			assert.notEqual(elsewhere.namespace, LIVE_NAMESPACE);
			const run = await drift(elsewhere);
			assert.equal(run.code, 0, run.stdout + run.stderr);
			assert.ok(run.stdout.includes(`(namespace ${elsewhere.namespace})`), run.stdout);
			assert.match(run.stdout, /3 compared, 0 drift, 1 not sent \(writes\), 0 without an answer/);
		} finally {
			await elsewhere.stop();
		}
	});

	it('exits 3 and names the drifting exchange against a sandbox that answers in another shape', async () => {
		const run = await drift(drifting);
		assert.equal(run.code, 3, run.stdout + run.stderr);
		assert.match(
			run.stdout,
			new RegExp(`≠ #${ids.GetWeeksToAdvertise} GetWeeksToAdvertise \\(soap11\\): \\d+ difference\\(s\\)`),
		);
		assert.match(run.stdout, /200/);
		assert.match(run.stdout, /500/);
		assert.match(run.stdout, new RegExp(`✓ #${ids.GetCurrency} GetCurrency \\(httpGet\\): same shape`));
		assert.match(run.stdout, /3 compared, 1 drift, 1 not sent \(writes\), 0 without an answer/);
		assert.ok(!run.stdout.includes(drifting.demo.apiKey), 'no API key in the report');
	});

	it('writes the JSON report with --json', async () => {
		const run = await drift(drifting, '--json', 'out/drift.json');
		assert.equal(run.code, 3, run.stdout + run.stderr);
		assert.match(run.stdout, /JSON report: out\/drift\.json/);
		const text = readFileSync(join(folder, 'out', 'drift.json'), 'utf8');
		assert.ok(!text.includes(drifting.demo.apiKey), 'no API key in the JSON report');
		const report = JSON.parse(text) as JsonReport;
		assert.equal(report.tool, 'multiposting-test');
		assert.equal(report.kind, 'drift');
		assert.equal(report.version, 1);
		assert.equal(report.recording, 'live.mprec.json');
		assert.equal(report.recordedAt, live.baseUrl);
		assert.ok(report.target.includes(drifting.baseUrl), report.target);
		assert.deepEqual(report.counts, { compared: 3, drifted: 1, notSent: 1, errors: 0 });
		assert.deepEqual(
			report.items.map((item) => [item.id, item.operation, item.outcome]),
			[
				[ids.GetCurrency, 'GetCurrency', 'same'],
				[ids.GetWeeksToAdvertise, 'GetWeeksToAdvertise', 'drift'],
				[ids.GetAdvertPaged, 'GetAdvertPaged', 'same'],
				[ids.CandidateTag, 'CandidateTag', 'notSent'],
			],
		);
		const drifted = report.items[1];
		assert.equal(drifted.binding, 'soap11');
		assert.ok(drifted.drift.length > 0);
		assert.equal(drifted.recorded.status, 200);
		assert.equal(drifted.sandbox?.status, 500);
		assert.match(drifted.sent ?? '', /^POST http:\/\/127\.0\.0\.1:\d+\/SOAP\/Administration\.asmx$/);
		const write = report.items[3];
		assert.equal(write.sandbox, undefined);
		assert.equal(write.sent, undefined);
		assert.match(write.reason ?? '', /CandidateTag changes data: not sent/);
	});

	it('does not send the recorded writes without --drift-writes, and sends them with it', async () => {
		const before = sentTo(identical, 'CandidateTag');
		const reads = sentTo(identical, 'GetCurrency');
		const without = await drift(identical);
		assert.equal(without.code, 0, without.stdout + without.stderr);
		assert.match(
			without.stdout,
			new RegExp(`– #${ids.CandidateTag} CandidateTag \\(httpGet\\): CandidateTag changes data`),
		);
		assert.equal(sentTo(identical, 'CandidateTag'), before, 'the write was not sent');
		assert.equal(sentTo(identical, 'GetCurrency'), reads + 1, 'the reads were');

		const withWrites = await drift(identical, '--drift-writes', '--json', 'writes.json');
		assert.equal(sentTo(identical, 'CandidateTag'), before + 1, 'the write was sent with --drift-writes');
		const report = JSON.parse(readFileSync(join(folder, 'writes.json'), 'utf8')) as JsonReport;
		assert.equal(report.counts.notSent, 0, withWrites.stdout);
		assert.equal(report.counts.compared, 4);
		assert.notEqual(report.items[3].outcome, 'notSent');
	});

	it('says what is wrong with its arguments or the recording, and exits 2', async () => {
		const cases: [string[], RegExp][] = [
			[['--drift', 'missing.mprec.json'], /missing\.mprec\.json: cannot read it \(ENOENT\)/],
			[['--drift', 'live.mprec.json', 'a.mpreq'], /--drift checks recordings: name no request files with it/],
			[['--drift-writes', 'a.mpreq'], /--drift-writes goes with --drift/],
			[['--drift', 'live.mprec.json', '--junit', 'r.xml'], /not JUnit/],
		];
		writeFileSync(join(folder, 'broken.mprec.json'), '{"format": "multiposting-recording"}');
		cases.push([['--drift', 'broken.mprec.json'], /broken\.mprec\.json/]);
		for (const [args, message] of cases) {
			const run = await new Promise<Run>((resolve) => {
				const child = execFile(process.execPath, [CLI, ...args], { cwd: folder }, (_error, stdout, stderr) =>
					resolve({ code: child.exitCode, stdout, stderr }),
				);
			});
			assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
			assert.match(run.stderr, /^multiposting-test: /, args.join(' '));
			assert.match(run.stderr, message, args.join(' '));
			assert.doesNotMatch(run.stderr, /\n\s+at /, `${args.join(' ')}: no stack trace`);
		}
	});
});
