import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatAccessLog, isLoopbackHost, parseCliArgs } from '../../../src/emulator/cli';
import { DEFAULT_SANDBOX_PORT, NAMESPACE_FROM_BASE_URL, SANDBOX_NAMESPACE } from '../../../src/emulator/endpoint';
import { send } from './helpers';

// Compiled next to this test by tsc: out/test/emulator/server -> out/src/emulator/cli.js.
const CLI = join(__dirname, '..', '..', '..', 'src', 'emulator', 'cli.js');

interface Exit {
	code: number | null;
	stdout: string;
	stderr: string;
}

function run(args: string[]): { child: ChildProcess; firstLine: Promise<string>; exit: Promise<Exit> } {
	const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	let resolveLine: (line: string) => void = () => undefined;
	const firstLine = new Promise<string>((resolve) => (resolveLine = resolve));
	child.stdout!.on('data', (chunk: Buffer) => {
		stdout += chunk.toString('utf8');
		const end = stdout.indexOf('\n');
		if (end >= 0) resolveLine(stdout.slice(0, end));
	});
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
	const exit = new Promise<Exit>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
	// If the process ends without a line, unblock the reader with what it printed.
	void exit.then((result) => resolveLine(`(exited ${result.code}) ${result.stderr}`));
	return { child, firstLine, exit };
}

describe('sandbox command line', () => {
	it('parses the options, with the documented defaults', () => {
		assert.deepEqual(parseCliArgs([]), {
			kind: 'start',
			options: {
				host: '127.0.0.1',
				port: DEFAULT_SANDBOX_PORT,
				dataDir: './.sandbox-data',
				seed: undefined,
				namespace: undefined,
				reset: false,
			},
		});
		assert.deepEqual(
			parseCliArgs([
				'--port',
				'8123',
				'--data',
				'/tmp/x',
				'--seed',
				'7',
				'--namespace',
				'https://example.com/',
				'--reset',
			]),
			{
				kind: 'start',
				options: {
					host: '127.0.0.1',
					port: 8123,
					dataDir: '/tmp/x',
					seed: 7,
					namespace: 'https://example.com/',
					reset: true,
				},
			},
		);
		assert.deepEqual(parseCliArgs(['--help']), { kind: 'help' });
		assert.equal(parseCliArgs(['--port', 'abc']).kind, 'error');
		assert.deepEqual(parseCliArgs(['--namespace', NAMESPACE_FROM_BASE_URL, '--port', '0']), {
			kind: 'start',
			options: {
				host: '127.0.0.1',
				port: 0,
				dataDir: './.sandbox-data',
				seed: undefined,
				namespace: NAMESPACE_FROM_BASE_URL,
				reset: false,
			},
		});
		assert.equal(parseCliArgs(['--bogus']).kind, 'error');
		assert.equal(parseCliArgs(['--namespace', 'not a uri']).kind, 'error');
	});

	it('refuses a non-loopback host unless --allow-remote is given', () => {
		const refused = parseCliArgs(['--host', '0.0.0.0']);
		assert.equal(refused.kind, 'error');
		assert.match(refused.kind === 'error' ? refused.message : '', /loopback only\. Pass --allow-remote/);
		const allowed = parseCliArgs(['--host', '0.0.0.0', '--allow-remote', '--allow-link-local-callbacks']);
		assert.equal(allowed.kind, 'start');
		// --allow-remote also lets other Host headers through; the callback rule has its own switch.
		assert.equal(allowed.kind === 'start' && allowed.options.allowRemote, true);
		assert.equal(allowed.kind === 'start' && allowed.options.callbackAllowLinkLocal, true);
		const local = parseCliArgs([]);
		assert.equal(local.kind === 'start' && local.options.allowRemote, undefined);
		const proxied = parseCliArgs([
			'--allowed-host',
			'code.example.com,[fd00::1]',
			'--allowed-host',
			'b.example:8443',
		]);
		assert.deepEqual(proxied.kind === 'start' && proxied.options.allowedHosts, [
			'code.example.com',
			'[fd00::1]',
			'b.example:8443',
		]);
		const bad = parseCliArgs(['--allowed-host', 'evil.example/x']);
		assert.match(bad.kind === 'error' ? bad.message : '', /--allowed-host must be host names/);
		assert.deepEqual(
			['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '10.0.0.1', '0.0.0.0', 'example.com'].map(
				isLoopbackHost,
			),
			[true, true, true, true, true, false, false, false],
		);
	});

	it('formats one access-log line without parameters, and the internal error below it', () => {
		const entry = {
			time: new Date(0),
			method: 'GET',
			path: '/SOAP/Posting.asmx/GetCurrency',
			binding: 'httpGet',
			operation: 'GetCurrency',
			status: 200,
			durationMs: 3,
		} as const;
		assert.equal(formatAccessLog(entry), 'GET /SOAP/Posting.asmx/GetCurrency httpGet GetCurrency 200 3ms');
		assert.equal(
			formatAccessLog({ method: 'GET', path: '/', status: 404, durationMs: 0, time: new Date(0) }),
			'GET / - - 404 0ms',
		);
		const failed = formatAccessLog({ ...entry, status: 500, error: new Error('boom') });
		assert.match(
			failed,
			/^GET \/SOAP\/Posting\.asmx\/GetCurrency httpGet GetCurrency 500 3ms\n {2}internal error: Error: boom\n/,
		);
	});

	it('exits with 2 and says why for a non-loopback host', async () => {
		const { exit } = run(['--host', '0.0.0.0']);
		const result = await exit;
		assert.equal(result.code, 2);
		assert.equal(result.stdout, '');
		assert.match(result.stderr, /Refusing to listen on 0\.0\.0\.0/);
	});

	it('prints usage for --help', async () => {
		const result = await run(['--help']).exit;
		assert.equal(result.code, 0);
		assert.match(result.stdout, /^Usage: multiposting-sandbox/);
		// Every option the parser knows is listed.
		for (const flag of ['--allow-remote', '--allowed-host N', '--allow-link-local-callbacks', '--loose']) {
			assert.ok(result.stdout.includes(`  ${flag} `), flag);
		}
	});

	describe('running', () => {
		let dataDir: string;
		before(() => {
			dataDir = mkdtempSync(join(tmpdir(), 'mp-sandbox-'));
		});
		after(() => rmSync(dataDir, { recursive: true, force: true }));

		it('names the process holding a taken port and suggests a free one, with exit code 1', async () => {
			const holder = createServer();
			await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
			const { port } = holder.address() as { port: number };
			try {
				const { exit } = run(['--port', String(port), '--data', dataDir]);
				const result = await exit;
				assert.equal(result.code, 1);
				assert.equal(result.stdout, '');
				const pidPart = process.platform === 'linux' ? `process ${process.pid} \\(node ` : '';
				assert.match(
					result.stderr,
					new RegExp(
						`^multiposting-sandbox: port ${port} on 127\\.0\\.0\\.1 is already in use by ${pidPart}`,
					),
				);
				assert.match(result.stderr, /--port \d+ is free, --port 0 takes any free port\.\n$/);
			} finally {
				holder.close();
			}
		});

		it('prints one JSON line when ready, logs requests to stderr and stops on SIGTERM with 0', async function () {
			this.timeout(120_000); // the first start seeds the sandbox
			const { child, firstLine, exit } = run(['--port', '0', '--data', dataDir, '--seed', '42']);
			try {
				const ready = JSON.parse(await firstLine) as Record<string, string>;
				assert.deepEqual(Object.keys(ready), [
					'baseUrl',
					'postingUrl',
					'adminUrl',
					'postingWsdl',
					'adminWsdl',
					'namespace',
					'apiKey',
					'username',
					'password',
				]);
				assert.match(ready.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
				assert.equal(ready.postingWsdl, `${ready.baseUrl}/SOAP/Posting.asmx?WSDL`);
				assert.equal(ready.namespace, SANDBOX_NAMESPACE);
				assert.ok(ready.apiKey.length > 0 && ready.username.length > 0 && ready.password.length > 0);

				const wsdl = await send(ready.adminWsdl);
				assert.equal(wsdl.status, 200);
				const currency = await send(
					`${ready.postingUrl}/GetCurrency?sCultureID=en&sAPIKey=${encodeURIComponent(ready.apiKey)}`,
				);
				assert.equal(currency.status, 200, currency.body);
				assert.match(currency.body, /<ArrayOfGetValue /);
			} finally {
				child.kill('SIGTERM');
			}
			const result = await exit;
			assert.equal(result.code, 0);
			assert.equal(result.stdout.trim().split('\n').length, 1, 'exactly one line on stdout');
			const lines = result.stderr.trim().split('\n');
			assert.match(lines[0], /^GET \/SOAP\/Administration\.asmx - - 200 \d+ms$/);
			assert.match(lines[1], /^GET \/SOAP\/Posting\.asmx\/GetCurrency httpGet GetCurrency 200 \d+ms$/);
			const ready = JSON.parse(result.stdout) as Record<string, string>;
			assert.ok(!result.stderr.includes(ready.apiKey), 'the API key is never logged');
		});

		it('writes the journal with verdicts to --journal FILE, without the API key', async function () {
			this.timeout(120_000); // seeds the sandbox if the test above did not
			const file = join(dataDir, 'journal.jsonl');
			const { child, firstLine, exit } = run([
				'--port',
				'0',
				'--data',
				dataDir,
				'--seed',
				'42',
				'--journal',
				file,
			]);
			let apiKey: string;
			try {
				const ready = JSON.parse(await firstLine) as Record<string, string>;
				apiKey = ready.apiKey;
				await send(`${ready.postingUrl}/GetCurency?sCultureID=en&sAPIKey=${encodeURIComponent(apiKey)}`);
				await send(`${ready.postingUrl}/GetCurrency?sCultureID=en&sAPIKey=${encodeURIComponent(apiKey)}`);
			} finally {
				child.kill('SIGTERM');
			}
			assert.equal((await exit).code, 0);
			const text = readFileSync(file, 'utf8');
			const lines = text
				.trim()
				.split('\n')
				.map(
					(line) =>
						JSON.parse(line) as {
							operation?: string;
							status: number;
							verdict: { nearMisses: { closest: string[] }[]; summary: string };
						},
				);
			assert.deepEqual(
				lines.map((line) => [line.status, line.operation]),
				[
					[500, undefined],
					[200, 'GetCurrency'],
				],
			);
			assert.equal(lines[0].verdict.nearMisses[0].closest[0], 'GetCurrency');
			assert.equal(lines[1].verdict.summary, 'Production accepts this request as it is.');
			assert.ok(!text.includes(apiKey), 'the API key is never in the journal file');
		});
	});

	describe('--scenario', () => {
		let folder: string;
		before(() => (folder = mkdtempSync(join(tmpdir(), 'mp-scenario-cli-'))));
		after(() => rmSync(folder, { recursive: true, force: true }));

		it('takes library names and files, repeatable, and names the file, rule and field of a bad one', () => {
			const file = join(folder, 'weeks.json');
			writeFileSync(file, JSON.stringify({ name: 'weeks', rules: [{ name: 'r', effect: { kind: 'empty' } }] }));
			const command = parseCliArgs(['--scenario', 'service-down', '--scenario', file]);
			assert.equal(command.kind, 'start');
			assert.deepEqual(
				command.kind === 'start' &&
					command.options.scenarios?.map((scenario) => [scenario.name, scenario.source]),
				[
					['service-down', 'library:service-down'],
					['weeks', file],
				],
			);
			const bad = join(folder, 'bad.json');
			writeFileSync(bad, JSON.stringify({ name: 'bad', rules: [{ name: 'slow', latency: { ms: -1 } }] }));
			assert.deepEqual(parseCliArgs(['--scenario', bad]), {
				kind: 'error',
				message: `${bad}: rule "slow" (rules[0]), field latency.ms: must be a number from 0 to 600000.`,
			});
		});

		it('starts with the scenarios on, says so, and marks what it injects', async function () {
			this.timeout(60_000);
			const file = join(folder, 'weeks-down.json');
			writeFileSync(
				file,
				JSON.stringify({
					name: 'weeks-down',
					rules: [
						{
							name: 'fault',
							match: { operations: ['GetWeeksToAdvertise'] },
							effect: { kind: 'fault', code: 'Server', message: 'Server was unable to process request.' },
						},
					],
				}),
			);
			const { child, firstLine, exit } = run([
				'--port',
				'0',
				'--data',
				':memory:',
				'--size',
				'small',
				'--scenario',
				file,
				'--scenario',
				'service-down',
			]);
			try {
				const ready = JSON.parse(await firstLine) as Record<string, string>;
				const key = encodeURIComponent(ready.apiKey);
				const weeks = await send(`${ready.adminUrl}/GetWeeksToAdvertise?sCultureID=en&sAPIKey=${key}`);
				assert.equal(weeks.status, 500);
				assert.equal(weeks.body, 'Server was unable to process request.');
				assert.equal(weeks.headers['x-sandbox-injected'], 'weeks-down/fault');
				const currency = await send(`${ready.postingUrl}/GetCurrency?sCultureID=en&sAPIKey=${key}`);
				assert.equal(currency.status, 503);
				assert.equal(currency.headers['retry-after'], '120');
			} finally {
				child.kill('SIGTERM');
			}
			const result = await exit;
			assert.match(result.stderr, /^scenarios on: weeks-down \(failures are injected on purpose\)$/m);
			assert.match(
				result.stderr,
				/^scenarios on: weeks-down, service-down \(failures are injected on purpose\)$/m,
			);
			assert.match(
				result.stderr,
				/GetWeeksToAdvertise 500 \d+ms\n {2}injected by scenario weeks-down\/fault: fault\n/,
			);
			assert.match(
				result.stderr,
				/GetCurrency 503 \d+ms\n {2}injected by scenario service-down\/unavailable: unavailable\n/,
			);
		});
	});
});
