import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectRequestFiles, main, parseTestArgs, type CliIo } from '../../src/cli/multipostingTest';
import { startSandbox } from '../integration/support';

const ROOT = join(__dirname, '..', '..', '..');
const EXAMPLES = join(ROOT, 'examples');

function capture(cwd = ROOT): CliIo & { out: string[]; err: string[] } {
	const out: string[] = [];
	const err: string[] = [];
	return {
		out,
		err,
		stdout: (text) => out.push(text),
		stderr: (text) => err.push(text),
		env: {},
		cwd,
	};
}

describe('multiposting-test (the CLI runner)', function () {
	this.timeout(120_000);
	let folder: string;

	beforeEach(() => {
		folder = mkdtempSync(join(tmpdir(), 'mptest-'));
	});
	afterEach(() => rmSync(folder, { recursive: true, force: true }));

	it('reads its arguments and refuses bad ones', () => {
		assert.equal(parseTestArgs(['--help']), 'help');
		assert.deepEqual(parseTestArgs(['a.mpreq', '--junit', 'r.xml', '--size', 'small', '--timeout', '500']), {
			paths: ['a.mpreq'],
			junit: 'r.xml',
			size: 'small',
			timeoutMs: 500,
			verbose: false,
		});
		assert.match(parseTestArgs([]) as string, /at least one/);
		assert.match(parseTestArgs(['--url', 'ftp://x', 'a']) as string, /http or https/);
		assert.match(parseTestArgs(['--url', 'http://x', '--sandbox', 'a']) as string, /not both/);
		assert.match(parseTestArgs(['--timeout', 'soon', 'a']) as string, /whole number/);
		assert.match(parseTestArgs(['--frobnicate', 'a']) as string, /unknown option/);
	});

	it('finds request files in folders, sorted', () => {
		const { files } = collectRequestFiles([EXAMPLES]);
		assert.deepEqual(
			files.map((file) => file.slice(EXAMPLES.length + 1)),
			[
				'failure-scenarios.mpreq',
				'feeds-and-quota.mpreq',
				'page-through-applications.mpreq',
				'post-advert-and-complete.mpreq',
				'score-and-progress.mpreq',
				'tag-candidates.mpreq',
			],
		);
		assert.deepEqual(collectRequestFiles([join(folder, 'none')]).problems, [
			`${join(folder, 'none')} does not exist.`,
		]);
	});

	it('runs the examples against a sandbox it starts, writes JUnit XML and exits 0', async () => {
		const io = capture();
		const junit = join(folder, 'reports', 'examples.xml');
		const code = await main(['examples', '--size', 'small', '--junit', junit], io);
		const output = io.out.join('');
		assert.equal(code, 0, output);
		assert.match(output, /against a sandbox at http:\/\/127\.0\.0\.1:\d+ \(temporary database\)/);
		assert.match(output, /✓ Confirm|✓ Choose a job board and confirm/);
		const summary = /^(\d+) passed, 0 failed, 0 skipped$/m.exec(output);
		assert.ok(summary && Number(summary[1]) >= 25, output);
		const xml = readFileSync(junit, 'utf8');
		assert.match(
			xml,
			new RegExp(
				`<testsuites name="multiposting-test" tests="${summary[1]}" failures="0" errors="0" skipped="0"`,
			),
		);
		assert.match(xml, /<testsuite name="examples\/post-advert-and-complete\.mpreq" tests="5"/);
		// A retry on 503 and a quota-exhausted board, through the scenario directive.
		assert.match(xml, /<testsuite name="examples\/failure-scenarios\.mpreq" tests="5" failures="0" errors="0"/);
		assert.match(xml, /<testcase classname="examples\.score-and-progress" name="Score it Suitable \(SOAP 1\.2\)"/);
	});

	it('reports failures with the expectation, the actual value and the exchange, and exits 1', async () => {
		writeFileSync(
			join(folder, 'failing.mpreq'),
			`### Currencies
operation: GetCurrency
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
expect: result.length == 0
capture: code = result[0].Value

### Uses the capture
operation: GetCurrency
binding: soap12
param.sCultureID: {{code}}
param.sAPIKey: {{connection.apiKey}}
expect: fault

### Not run
operation: GetCurrency
param.sCultureID: {{never}}
`,
		);
		const io = capture(folder);
		const junit = join(folder, 'junit.xml');
		const code = await main(['failing.mpreq', '--size', 'small', '--junit', junit], io);
		const output = io.out.join('');
		assert.equal(code, 1, output);
		assert.match(
			output,
			/✗ Currencies \(\d+ ms\)\n {6}failed expect: result\.length == 0\n {8}expected: == 0\n {8}actual: {3}\d+/,
		);
		assert.match(output, /\| POST http:\/\/127\.0\.0\.1:\d+\/SOAP\/Posting\.asmx/);
		assert.match(output, /<sAPIKey>\*\*\*<\/sAPIKey>/);
		assert.match(output, /✗ Uses the capture/);
		assert.match(output, /- Not run skipped\n {6}\{\{never\}\} has no value: no earlier request captures it\./);
		assert.match(output, /^0 passed, 2 failed, 1 skipped$/m);
		const xml = readFileSync(junit, 'utf8');
		assert.match(xml, /<failure message="result\.length == 0: got \d+" type="expectation">/);
		assert.match(xml, /<skipped message="\{\{never\}\} has no value/);
		assert.ok(!xml.includes('sandbox-api-key'), 'no API key in the report');
	});

	it('runs against a URL with credentials from the environment', async () => {
		const emulator = await startSandbox({ size: 'small' });
		try {
			writeFileSync(
				join(folder, 'url.mpreq'),
				`operation: UserList
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
param.sUsername: {{connection.username}}
param.sPassword: {{connection.password}}
expect: no fault
expect: result.length >= 1
`,
			);
			const io = capture(folder);
			io.env = {
				MP_API_KEY: emulator.demo.apiKey,
				MP_USERNAME: emulator.demo.username,
				MP_PASSWORD: emulator.demo.password,
			};
			const code = await main(['url.mpreq', '--url', emulator.baseUrl, '--namespace', emulator.namespace], io);
			assert.equal(code, 0, io.out.join(''));
			assert.match(io.out.join(''), /^1 passed, 0 failed, 0 skipped$/m);
			io.env = { MP_API_KEY: 'wrong' };
			assert.equal(
				await main(['url.mpreq', '--url', emulator.baseUrl, '--namespace', emulator.namespace], io),
				1,
			);
		} finally {
			await emulator.stop();
		}
	});

	it('--env takes variables and connection settings from the nearest multiposting.env.json', async () => {
		const emulator = await startSandbox({ size: 'small' });
		try {
			mkdirSync(join(folder, 'suite', 'adverts'), { recursive: true });
			writeFileSync(
				join(folder, 'suite', 'multiposting.env.json'),
				JSON.stringify({
					sandbox: { variables: { culture: 'en-GB', minimum: '1' } },
					staging: {
						connection: { url: emulator.baseUrl, namespace: emulator.namespace, culture: 'en-GB' },
						variables: { culture: 'en-GB', minimum: '1' },
					},
				}),
			);
			writeFileSync(
				join(folder, 'suite', 'adverts', 'users.mpreq'),
				`### Users
operation: UserList
param.sCultureID: {{culture}}
param.sAPIKey: {{connection.apiKey}}
param.sUsername: {{connection.username}}
param.sPassword: {{connection.password}}
expect: no fault
expect: result.length >= {{minimum}}
`,
			);
			const io = capture(folder);
			assert.equal(await main(['suite', '--env', 'sandbox', '--size', 'small'], io), 0, io.out.join(''));
			assert.match(
				io.out.join(''),
				/against a sandbox at .* \(environment sandbox of suite\/multiposting\.env\.json\)/,
			);
			assert.match(io.out.join(''), /^1 passed, 0 failed, 0 skipped$/m);

			// staging names the URL; the secrets come from the process environment only.
			const staging = capture(join(folder, 'suite', 'adverts'));
			staging.env = {
				MP_API_KEY: emulator.demo.apiKey,
				MP_USERNAME: emulator.demo.username,
				MP_PASSWORD: emulator.demo.password,
			};
			assert.equal(await main(['users.mpreq', '--env', 'staging'], staging), 0, staging.out.join(''));
			assert.match(
				staging.out.join(''),
				new RegExp(`against ${emulator.baseUrl.replace(/\./g, '\\.')} \\(environment staging`),
			);
		} finally {
			await emulator.stop();
		}
	});

	it('--env refuses an unknown environment, a missing file and a secret written in the file', async () => {
		writeFileSync(join(folder, 'a.mpreq'), 'operation: GetCurrency\nexpect: no fault\n');
		const missing = capture(folder);
		assert.equal(await main(['a.mpreq', '--env', 'staging'], missing), 2);
		assert.match(missing.err.join(''), /--env staging: no multiposting\.env\.json in \. or above it\./);

		writeFileSync(join(folder, 'multiposting.env.json'), JSON.stringify({ ci: { variables: { key: 's3cret!' } } }));
		const unknown = capture(folder);
		assert.equal(await main(['a.mpreq', '--env', 'staging'], unknown), 2);
		assert.match(unknown.err.join(''), /multiposting\.env\.json has no environment "staging"; it has ci\./);

		const secret = capture(folder);
		secret.env = { MP_API_KEY: 's3cret!' };
		assert.equal(await main(['a.mpreq', '--env', 'ci'], secret), 2);
		assert.match(
			secret.err.join(''),
			/multiposting\.env\.json: ci\.variables\.key: this value is a secret of the run \(the API key or password\)/,
		);
		assert.ok(!secret.err.join('').includes('s3cret!'), 'the secret is not repeated');
	});

	it('is a command: usage errors exit 2, help exits 0', async () => {
		const script = join(ROOT, 'out', 'src', 'cli', 'multipostingTest.js');
		const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
			new Promise((resolve) => {
				execFile(process.execPath, [script, ...args], { cwd: folder }, (error, stdout, stderr) => {
					resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
				});
			});
		const help = await run(['--help']);
		assert.equal(help.code, 0);
		assert.match(help.stdout, /Usage: multiposting-test/);
		const usage = await run(['missing.mpreq']);
		assert.equal(usage.code, 2);
		assert.match(usage.stderr, /missing\.mpreq does not exist/);
	});
});
