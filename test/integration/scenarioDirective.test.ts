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
import { SANDBOX_START_TIMEOUT_MS, startSandbox } from './support';

const CURRENCY = `operation: GetCurrency
binding: httpGet
param.sCultureID: en
param.sAPIKey: {{connection.apiKey}}`;
/** The same call as plain HTTP: a 503 page is neither a result nor a fault, so it is checked as HTTP. */
const RAW_CURRENCY = '---\nGET /SOAP/Posting.asmx/GetCurrency?sCultureID=en&sAPIKey={{connection.apiKey}} HTTP/1.1';

describe('request files: the scenario directive', function () {
	this.timeout(SANDBOX_START_TIMEOUT_MS);
	let emulator: RunningEmulator;
	let options: RunOptions;
	let folder: string;

	before(async () => {
		emulator = await startSandbox({ size: 'small', passwordCost: 1024 });
		folder = mkdtempSync(join(tmpdir(), 'mp-scenario-directive-'));
		options = {
			target: { baseUrl: emulator.baseUrl, namespace: emulator.namespace, paths: DEFAULT_ENDPOINT_PATHS },
			connection: { apiKey: emulator.demo.apiKey },
			folder,
		};
	});
	after(async () => {
		rmSync(folder, { recursive: true, force: true });
		await emulator?.stop();
	});

	const run = async (text: string, selected?: number[], target = options) =>
		runRequestEntries(parseRequestFileEntries(text).entries, target, selected);

	it('turns a scenario on for the requests that follow, off with "off", and off at the end of the file', async () => {
		const results = await run(`# Multiposting request

### Healthy first
${CURRENCY}
expect: status == 200

### Service down
scenario: service-down
expect: status == 503
expect: header.Retry-After == "120"
expect: header.X-Sandbox-Injected == "service-down/unavailable"
${RAW_CURRENCY}

### Still down
expect: status == 503
${RAW_CURRENCY}

### Back
scenario: off
${CURRENCY}
expect: status == 200

### Down to the end
scenario: service-down
expect: status == 503
${RAW_CURRENCY}
`);
		assert.deepEqual(
			results.map((result) => [result.label, result.status, result.problems]),
			[
				['Healthy first', 'passed', []],
				['Service down', 'passed', []],
				['Still down', 'passed', []],
				['Back', 'passed', []],
				['Down to the end', 'passed', []],
			],
		);
		assert.deepEqual(emulator.scenarios.list(), [], 'the file turned its scenario off at the end');
	});

	it('reads a scenario file next to the request file, and a selected request meets the scenarios above it', async () => {
		writeFileSync(
			join(folder, 'third-call-fails.json'),
			JSON.stringify({
				name: 'weeks-fail',
				rules: [
					{
						name: 'server',
						match: { operations: ['GetWeeksToAdvertise'] },
						effect: { kind: 'fault', code: 'Server', message: 'Server was unable to process request.' },
					},
				],
			}),
		);
		const text = `# Multiposting request

### Set up
scenario: third-call-fails.json
${CURRENCY}

### Weeks
operation: GetWeeksToAdvertise
param.sCultureID: en
param.sAPIKey: {{connection.apiKey}}
expect: fault.message == "Server was unable to process request."
expect: header.X-Sandbox-Injected == "weeks-fail/server"
`;
		const results = await run(text, [1]);
		assert.deepEqual(
			results.map((result) => [result.label, result.status, result.problems]),
			[['Weeks', 'passed', []]],
		);
		assert.deepEqual(emulator.scenarios.list(), []);
	});

	it('says what is wrong: an unknown scenario, a bad file, a service without the control endpoint', async () => {
		writeFileSync(join(folder, 'bad.json'), JSON.stringify({ name: 'bad', rules: [{ name: 'x' }] }));
		const unknown = await run(`### Unknown\nscenario: no-such-scenario\n${CURRENCY}\n`);
		assert.equal(unknown[0].status, 'errored');
		assert.match(
			unknown[0].problems[0],
			/^scenario: No library scenario "no-such-scenario"; the library has slow-service, /,
		);
		const bad = await run(`### Bad file\nscenario: bad.json\n${CURRENCY}\n`);
		assert.equal(bad[0].status, 'errored');
		assert.equal(
			bad[0].problems[0],
			'scenario: bad.json: rule "x" (rules[0]), field effect: a rule needs an effect, a latency or both.',
		);

		const service: Server = createServer((_req, res) =>
			res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'),
		);
		await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
		try {
			const baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
			const elsewhere = await run(`### Down\nscenario: service-down\n${CURRENCY}\n`, undefined, {
				...options,
				target: { ...options.target, baseUrl },
			});
			assert.equal(elsewhere[0].status, 'errored');
			assert.match(elsewhere[0].problems[0], /answered 404: scenarios need the Multiposting sandbox/);
		} finally {
			service.close();
		}
	});

	it('reads and writes the scenario line', () => {
		const parsed = parseRequestFileEntries(
			`### A\nscenario: service-down\n${CURRENCY}\n\n### B\nscenario: "x"\n${CURRENCY}\n`,
		);
		assert.equal(parsed.entries[0].scenario, 'service-down');
		assert.match(parsed.issues[0].message, /scenario needs a library name/);
	});
});
