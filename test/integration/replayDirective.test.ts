import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runRequestEntries, type RunOptions } from '../../src/client/requestFileRunner';
import type { RunningEmulator } from '../../src/emulator';
import { DEFAULT_ENDPOINT_PATHS } from '../../src/protocol/catalogue';
import { parseRequestFileEntries } from '../../src/protocol/requestFile';
import { weeksWithUnqualifiedKey } from '../builders/liveRequests';
import { SANDBOX_START_TIMEOUT_MS, startSandbox } from './support';

const currency = (culture: string) => `operation: GetCurrency
binding: httpGet
param.sCultureID: ${culture}
param.sAPIKey: {{connection.apiKey}}`;

describe('request files: the replay directive', function () {
	this.timeout(SANDBOX_START_TIMEOUT_MS * 2);
	let live: RunningEmulator;
	let emulator: RunningEmulator;
	let options: RunOptions;
	let folder: string;
	let weeks: string;
	/** The live stand-in's answers, as recorded. */
	let recordedWeeks: string;
	let recordedCurrency: string;

	before(async () => {
		live = await startSandbox({ size: 'small', passwordCost: 1024, loose: true, seed: 3 });
		emulator = await startSandbox({ size: 'small', passwordCost: 1024 });
		folder = mkdtempSync(join(tmpdir(), 'mp-replay-directive-'));
		const raw = (apiKey: string) => `---
POST ${DEFAULT_ENDPOINT_PATHS.administration} HTTP/1.1
Content-Type: text/xml; charset=utf-8
SOAPAction: "${emulator.namespace}GetWeeksToAdvertise"

${weeksWithUnqualifiedKey(apiKey, emulator.namespace)}`;
		weeks = raw('{{connection.apiKey}}');

		// The recording: the two requests sent to the live stand-in through the sandbox's proxy.
		const proxy = await emulator.proxy.start({ upstream: live.baseUrl, port: 0 });
		const sent = await fetch(`${proxy.url}${DEFAULT_ENDPOINT_PATHS.administration}`, {
			method: 'POST',
			headers: {
				'content-type': 'text/xml; charset=utf-8',
				soapaction: `"${emulator.namespace}GetWeeksToAdvertise"`,
			},
			body: weeksWithUnqualifiedKey(live.demo.apiKey, emulator.namespace),
		});
		assert.equal(sent.status, 200, 'the loose live stand-in accepts the unqualified key');
		recordedWeeks = await sent.text();
		const got = await fetch(
			`${proxy.url}${DEFAULT_ENDPOINT_PATHS.posting}/GetCurrency?sCultureID=en&sAPIKey=${live.demo.apiKey}`,
		);
		recordedCurrency = await got.text();
		await emulator.proxy.stop();
		const ids = emulator.journal!.list({}).map((entry) => entry.id);
		const saved = await fetch(`${emulator.baseUrl}/__admin/recordings`, {
			method: 'POST',
			body: JSON.stringify({ ids }),
		});
		assert.equal(saved.status, 200);
		writeFileSync(join(folder, 'live.mprec.json'), ((await saved.json()) as { text: string }).text);
		writeFileSync(join(folder, 'broken.mprec.json'), '{"format": "multiposting-recording"}');
		options = {
			target: { baseUrl: emulator.baseUrl, namespace: emulator.namespace, paths: DEFAULT_ENDPOINT_PATHS },
			connection: { apiKey: emulator.demo.apiKey },
			folder,
		};
	});
	after(async () => {
		rmSync(folder, { recursive: true, force: true });
		await emulator?.stop();
		await live?.stop();
	});
	afterEach(() => emulator.replay.clear());

	const run = async (text: string, selected?: number[], target = options) =>
		runRequestEntries(parseRequestFileEntries(text).entries, target, selected);

	it('answers from the recording after "replay:", strict then fall-through, and from the sandbox after "replay: off"', async () => {
		const results = await run(`# Multiposting request

### Sandbox first
expect: status == 500
expect: header.X-Sandbox-Replayed absent
${weeks}

### Replayed
replay: live.mprec.json
expect: status == 200
expect: header.X-Sandbox-Replayed matches /^live\\.mprec\\.json#\\d+$/
${weeks}

### Replayed by operation
${currency('en')}
expect: no fault
expect: header.X-Sandbox-Replayed exists

### Not recorded
${currency('fr')}
expect: status == 500
expect: header.X-Sandbox-Replayed == "unmatched"
expect: fault.message contains "Not in the recording (strict replay); the closest recorded request is live.mprec.json #"

### Falls through
replay: live.mprec.json fall-through
${currency('fr')}
expect: no fault
expect: header.X-Sandbox-Replayed absent

### Still replayed
expect: status == 200
expect: header.X-Sandbox-Replayed exists
${weeks}

### Off
replay: off
expect: status == 500
expect: header.X-Sandbox-Replayed absent
${weeks}
`);
		assert.deepEqual(
			results.map((result) => [result.label, result.status, result.problems]),
			[
				['Sandbox first', 'passed', []],
				['Replayed', 'passed', []],
				['Replayed by operation', 'passed', []],
				['Not recorded', 'passed', []],
				['Falls through', 'passed', []],
				['Still replayed', 'passed', []],
				['Off', 'passed', []],
			],
		);
		assert.equal(results[1].exchange?.response?.body, recordedWeeks, 'the recorded answer, byte for byte');
		assert.equal(results[2].exchange?.response?.body, recordedCurrency);
		assert.equal(emulator.replay.info(), undefined);
	});

	it('turns replay off at the end of the file, and a selected request meets the replay line above it', async () => {
		const text = `### Set up
replay: live.mprec.json
${currency('en')}

### Weeks
expect: status == 200
expect: header.X-Sandbox-Replayed exists
${weeks}
`;
		const whole = await run(text);
		assert.deepEqual(
			whole.map((result) => result.status),
			['passed', 'passed'],
		);
		assert.equal(emulator.replay.info(), undefined, 'the file turned replay off at its end');
		const selected = await run(text, [1]);
		assert.deepEqual(
			selected.map((result) => [result.label, result.status, result.problems]),
			[['Weeks', 'passed', []]],
		);
		assert.equal(emulator.replay.info(), undefined);
	});

	it('says what is wrong: a missing recording, a bad one, a service without the control endpoint', async () => {
		const missing = await run(`### Missing\nreplay: nowhere.mprec.json\n${currency('en')}\n`);
		assert.equal(missing[0].status, 'errored');
		assert.match(missing[0].problems[0], /^replay: cannot read the recording .*nowhere\.mprec\.json: ENOENT/);
		const broken = await run(`### Broken\nreplay: broken.mprec.json\n${currency('en')}\n`);
		assert.equal(broken[0].status, 'errored');
		assert.match(broken[0].problems[0], /^replay: .*broken\.mprec\.json/);
		assert.equal(emulator.replay.info(), undefined);

		const service: Server = createServer((_req, res) =>
			res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'),
		);
		await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
		try {
			const baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
			const elsewhere = await run(`### Elsewhere\nreplay: live.mprec.json\n${currency('en')}\n`, undefined, {
				...options,
				target: { ...options.target, baseUrl },
			});
			assert.equal(elsewhere[0].status, 'errored');
			assert.match(elsewhere[0].problems[0], /^replay: .*404/);
		} finally {
			service.close();
		}
	});

	it('reads the replay line and says what is wrong with a bad one', () => {
		const parsed = parseRequestFileEntries(
			`### A\nreplay: live.mprec.json fall-through\n${currency('en')}\n\n### B\nreplay: off\n${currency('en')}\n\n### C\nreplay: live.txt\n${currency('en')}\n\n### D\nreplay: live.mprec.json sometimes\n${currency('en')}\n`,
		);
		assert.equal(parsed.entries[0].replay, 'live.mprec.json fall-through');
		assert.equal(parsed.entries[1].replay, 'off');
		assert.equal(parsed.entries[2].replay, undefined);
		assert.equal(parsed.entries[3].replay, undefined);
		assert.deepEqual(
			parsed.issues.map((issue) => issue.message),
			[
				'replay needs a recording (.mprec.json), optionally followed by strict or fall-through, or off.',
				'replay needs a recording (.mprec.json), optionally followed by strict or fall-through, or off.',
			],
		);
	});
});
