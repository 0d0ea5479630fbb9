import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectRequestFiles, main, parseTestArgs, type CliIo } from '../../src/cli/multipostingTest';
import { ScriptedServer } from '../client/helpers';
import type { RunningEmulator } from '../../src/emulator';
import { libraryScenario } from '../../src/emulator/scenarios/library';
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

/** The CLI's io for a comparison: the first connection's credentials, the second's in MP_COMPARE_*. */
function compareIo(folder: string, first: Sandboxed, second: Sandboxed): ReturnType<typeof capture> {
	const made = capture(folder);
	made.env = {
		MP_API_KEY: first.demo.apiKey,
		MP_USERNAME: first.demo.username,
		MP_PASSWORD: first.demo.password,
		MP_COMPARE_API_KEY: second.demo.apiKey,
		MP_COMPARE_USERNAME: second.demo.username,
		MP_COMPARE_PASSWORD: second.demo.password,
	};
	return made;
}

type Sandboxed = Pick<RunningEmulator, 'demo'>;

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
		assert.match(parseTestArgs(['a', '--json']) as string, /--json needs a value/);
		assert.match(parseTestArgs(['a', '--compare-writes']) as string, /goes with --compare-with or --compare-env/);
		assert.equal(
			(parseTestArgs(['a', '--compare-with', 'http://x', '--compare-writes']) as { compareWrites?: boolean })
				.compareWrites,
			true,
		);
		assert.deepEqual(parseTestArgs(['--bail', 'a', '--json', 'r.json', '--seed', '7']), {
			paths: ['a'],
			bail: true,
			json: 'r.json',
			seed: 7,
			timeoutMs: 30_000,
			verbose: false,
		});
	});

	it('finds request files in folders, sorted', () => {
		const { files } = collectRequestFiles([EXAMPLES]);
		assert.deepEqual(
			files.map((file) => file.path.slice(EXAMPLES.length + 1)),
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

	it('names JUnit classes and suites under the folder given, wherever the working folder is', async () => {
		const suite = join(folder, 'suite');
		mkdirSync(join(suite, 'sub'), { recursive: true });
		const wsdl = '### WSDL\nexpect: status == 200\n---\nGET /SOAP/Posting.asmx?WSDL HTTP/1.1\n';
		writeFileSync(join(suite, 'sub', 'a.mpreq'), wsdl);
		writeFileSync(join(suite, 'b.mpreq'), wsdl);
		const io = capture(ROOT);
		const junit = join(folder, 'junit.xml');
		const code = await main([suite, join(suite, 'b.mpreq'), '--size', 'small', '--junit', junit], io);
		assert.equal(code, 0, io.out.join(''));
		const xml = readFileSync(junit, 'utf8');
		const cases = [
			...xml.matchAll(/<testsuite name="([^"]*)"[^]*?<testcase classname="([^"]*)"[^>]* file="([^"]*)"/g),
		];
		assert.deepEqual(
			cases.map((found) => [found[1], found[2], found[3]]),
			[
				['suite/b.mpreq', 'suite.b', join(suite, 'b.mpreq')],
				['suite/sub/a.mpreq', 'suite.sub.a', join(suite, 'sub', 'a.mpreq')],
			],
		);
		assert.ok(!xml.includes('..'), xml);
	});

	it('runs the examples against a sandbox it starts, writes JUnit XML and exits 0', async () => {
		const io = capture();
		const junit = join(folder, 'reports', 'examples.xml');
		const code = await main(['examples', '--size', 'small', '--junit', junit], io);
		const output = io.out.join('');
		assert.equal(code, 0, output);
		assert.match(output, /against a sandbox at http:\/\/127\.0\.0\.1:\d+ \(temporary database\)/);
		assert.match(output, /✓ Confirm|✓ Choose a job board and confirm/);
		assert.match(output, /✓ Wait until the job board has answered \(\d+ ms, \d+ tries\)/);
		const summary = /^(\d+) passed, 0 failed, 0 errored, 0 skipped$/m.exec(output);
		assert.ok(summary && Number(summary[1]) >= 25, output);
		const xml = readFileSync(junit, 'utf8');
		assert.match(
			xml,
			new RegExp(
				`<testsuites name="multiposting-test" tests="${summary[1]}" failures="0" errors="0" skipped="0"`,
			),
		);
		assert.match(xml, /<testsuite name="examples\/post-advert-and-complete\.mpreq" tests="6"/);
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
expect: fault.message == {{code}}

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
			/✗ Currencies \(\d+ ms\)\n {6}failed at line 5: expect: result\.length == 0\n {8}expected: == 0\n {8}actual: {3}\d+/,
		);
		// The expectation's own line, and the value of the variable next to the template.
		assert.match(
			output,
			/✗ Uses the capture \(\d+ ms\)\n {6}failed at line 13: expect: fault\n[^]*?\n {6}failed at line 14: expect: fault\.message == \{\{code\}\}\n {8}expected: == \{\{code\}\} \(with \{\{code\}\} = "[A-Z]{3}"\)\n {8}actual: {3}absent/,
		);
		assert.match(output, /\| POST http:\/\/127\.0\.0\.1:\d+\/SOAP\/Posting\.asmx/);
		assert.match(output, /<sAPIKey>\*\*\*<\/sAPIKey>/);
		assert.match(output, /✗ Uses the capture/);
		assert.match(output, /! Not run\n {6}line 18: \{\{never\}\} is captured by no request of this file/);
		assert.match(output, /^0 passed, 2 failed, 1 errored, 0 skipped$/m);
		const xml = readFileSync(junit, 'utf8');
		assert.match(
			xml,
			/<failure message="line 5: result\.length == 0: got \d+" type="expectation">line 5: expect: result\.length == 0\n {2}expected: == 0\n/,
		);
		assert.match(
			xml,
			/line 14: expect: fault\.message == \{\{code\}\}\n {2}expected: == \{\{code\}\} \(with \{\{code\}\} = "[A-Z]{3}"\)/,
		);
		assert.match(xml, /<error message="line 18: \{\{never\}\} is captured by no request/);
		assert.ok(!xml.includes('sandbox-api-key'), 'no API key in the report');
	});

	it('fails a file that uses a variable no request captures, at its line; a request after a failure is a skip', async () => {
		writeFileSync(
			join(folder, 'typo.mpreq'),
			`### Currencies
operation: GetCurrency
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
expect: no fault
capture: code = result[0].Value

### Typo
operation: GetCurrency
param.sCultureID: {{cdoe}}
param.sAPIKey: {{connection.apiKey}}
expect: no fault

### A capture that fails
operation: GetCurrency
param.sCultureID: en-GB
param.sAPIKey: wrong
capture: other = result[0].Value

### Needs the failed capture
operation: GetCurrency
param.sCultureID: {{other}}
param.sAPIKey: {{connection.apiKey}}
expect: no fault
`,
		);
		const io = capture(folder);
		const junit = join(folder, 'junit.xml');
		const code = await main(['typo.mpreq', '--size', 'small', '--junit', junit], io);
		const output = io.out.join('');
		assert.equal(code, 1, output);
		assert.match(output, /✓ Currencies/);
		assert.match(
			output,
			/! Typo\n {6}line 10: \{\{cdoe\}\} is captured by no request of this file \(add "capture: cdoe = …" to an earlier one\)\. Did you mean \{\{code\}\}\?/,
		);
		assert.match(output, /✗ A capture that fails/);
		assert.match(
			output,
			/- Needs the failed capture skipped\n {6}\{\{other\}\} has no value: "A capture that fails" did not capture it\./,
		);
		assert.match(output, /^1 passed, 1 failed, 1 errored, 1 skipped$/m);
		const xml = readFileSync(junit, 'utf8');
		assert.match(xml, /<testsuites name="multiposting-test" tests="4" failures="1" errors="1" skipped="1"/);
		assert.match(xml, /<error message="line 10: \{\{cdoe\}\} is captured by no request of this file/);
	});

	it('makes a response cut off, broken off or unreadable an error of its request, in the console and JUnit', async () => {
		const server = await ScriptedServer.start();
		const MiB = Buffer.alloc(1024 * 1024, 'x');
		server.handler = (request, response) => {
			let closed = false;
			response.on('close', () => (closed = true));
			// Bounded streams: they end by themselves long after the runner has given up.
			const stream = (chunks: number, chunk: Buffer, everyMs: number): void => {
				response.writeHead(200, { 'content-type': 'text/plain' });
				let sent = 0;
				const next = (): void => {
					if (closed || sent === chunks) return void response.end();
					sent += 1;
					if (response.write(chunk)) setTimeout(next, everyMs);
					else response.once('drain', next);
				};
				next();
			};
			if (request.url === '/forever') stream(500, Buffer.from('tick\n'), 20);
			else if (request.url === '/huge') stream(40, MiB, 0);
			else if (request.url === '/broken') {
				response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
				response.write('0123456789', () => response.socket?.destroy());
			} else if (request.url === '/fine') response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
			else response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in</body></html>');
		};
		try {
			writeFileSync(
				join(folder, 'responses.mpreq'),
				['forever', 'broken', 'huge']
					.map((path) => `### ${path}\nexpect: status == 200\n---\nGET /${path} HTTP/1.1\n\n`)
					.join('') +
					`### A proxy's page\noperation: GetCurrency\nparam.sCultureID: en-GB\nexpect: status == 200\n\n` +
					`### fine\nexpect: status == 200\n---\nGET /fine HTTP/1.1\n`,
			);
			const io = capture(folder);
			const junit = join(folder, 'junit.xml');
			const code = await main(
				['responses.mpreq', '--url', server.baseUrl, '--timeout', '500', '--junit', junit],
				io,
			);
			const output = io.out.join('');
			assert.equal(code, 1, output);
			assert.match(output, /! forever \(\d+ ms\)\n {6}Timed out after 500 ms, \d+ bytes into the body\./);
			assert.match(output, /! broken \(\d+ ms\)\n {6}The response broke off, 10 bytes into the body: /);
			assert.match(output, /! huge \(\d+ ms\)\n {6}The body was cut off after 33554432 bytes\./);
			assert.match(
				output,
				/! A proxy's page \(\d+ ms\)\n {6}The response is neither a result of GetCurrency nor a fault: Expected text\/xml but the service answered with an HTML page\./,
			);
			assert.match(output, /✓ fine/);
			assert.match(output, /^1 passed, 0 failed, 4 errored, 0 skipped$/m);
			const xml = readFileSync(junit, 'utf8');
			assert.match(xml, /tests="5" failures="0" errors="4" skipped="0"/);
			assert.match(xml, /<error message="Timed out after 500 ms, \d+ bytes into the body\." type="request">/);
			assert.match(xml, /<error message="The body was cut off after 33554432 bytes\." type="request">/);
		} finally {
			await server.close();
		}
	});

	it('lets a test expect the fault code as each binding sends it, or who caused it on any binding', async () => {
		const request = (binding: string, checks: string[]): string =>
			`### ${binding}\noperation: GetApplicationsPaged\nbinding: ${binding}\nparam.sCultureID: en-GB\nparam.sAPIKey: {{connection.apiKey}}\nparam.CurrentPage: 1\nparam.RowsPerPage: 20\n${checks.map((check) => `expect: ${check}\n`).join('')}\n`;
		writeFileSync(
			join(folder, 'codes.mpreq'),
			request('soap12', ['fault MissingFilter', 'fault.code == Sender', 'fault.cause == caller']) +
				request('soap11', ['fault MissingFilter', 'fault.code == Client', 'fault.cause == caller']) +
				request('httpPost', ['fault', 'fault.code absent', 'status == 500']) +
				`### SOAP 1.2 is not SOAP 1.1\noperation: GetApplicationsPaged\nbinding: soap12\nparam.sAPIKey: {{connection.apiKey}}\nexpect: fault.code == Client\n`,
		);
		const io = capture(folder);
		const code = await main(['codes.mpreq', '--size', 'small'], io);
		const output = io.out.join('');
		assert.equal(code, 1, output);
		assert.match(output, /✓ soap12[^]*✓ soap11[^]*✓ httpPost/);
		assert.match(
			output,
			/✗ SOAP 1\.2 is not SOAP 1\.1 \(\d+ ms\)\n {6}failed at line \d+: expect: fault\.code == Client\n {8}expected: == Client\n {8}actual: {3}"Sender"/,
		);
		assert.match(output, /^3 passed, 1 failed, 0 errored, 0 skipped$/m);
	});

	it('stops at the first failure with --bail, and writes a JSON report of what ran', async () => {
		const currency = (name: string, check: string): string =>
			`### ${name}\noperation: GetCurrency\nparam.sCultureID: en-GB\nparam.sAPIKey: {{connection.apiKey}}\nexpect: ${check}\ncapture: code = result[0].Value\n\n`;
		writeFileSync(
			join(folder, 'a.mpreq'),
			currency('Passes', 'no fault') +
				currency('Fails', 'result.length == 0') +
				currency('Never sent', 'no fault'),
		);
		writeFileSync(join(folder, 'b.mpreq'), currency('Other file', 'no fault'));
		const io = capture(folder);
		const code = await main(['.', '--bail', '--json', 'reports/run.json', '--size', 'small'], io);
		const output = io.out.join('');
		assert.equal(code, 1, output);
		assert.match(output, /✓ Passes[^]*✗ Fails/);
		assert.doesNotMatch(output, /Never sent|Other file/);
		assert.match(output, /Stopped at the first failure \(--bail\): 1 more file\(s\) not run\./);
		assert.match(output, /JSON report: reports\/run\.json/);
		assert.match(output, /^1 passed, 1 failed, 0 errored, 0 skipped$/m);
		const report = JSON.parse(readFileSync(join(folder, 'reports', 'run.json'), 'utf8'));
		assert.equal(report.tool, 'multiposting-test');
		assert.deepEqual(report.totals, { passed: 1, failed: 1, errored: 0, skipped: 0 });
		assert.equal(report.filesNotRun, 1);
		assert.equal(report.files.length, 1);
		assert.equal(report.files[0].path, 'a.mpreq');
		const [passes, fails] = report.files[0].requests;
		assert.deepEqual([passes.name, passes.status, passes.line, passes.captured], ['Passes', 'passed', 2, ['code']]);
		assert.equal(passes.exchange, undefined);
		assert.deepEqual(
			[fails.status, fails.expectations[0].line, fails.expectations[0].text, fails.expectations[0].passed],
			['failed', 12, 'result.length == 0', false],
		);
		assert.match(fails.exchange, /^POST http:\/\/127\.0\.0\.1:\d+\/SOAP\/Posting\.asmx/);
		assert.ok(!JSON.stringify(report).includes('sandbox-api-key'), 'no API key in the report');
	});

	it('puts captured values into XPaths, patterns and XPath prefixes', async () => {
		writeFileSync(
			join(folder, 'variables.mpreq'),
			`### Currencies
operation: GetCurrency
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
capture: code = result[0].Value
capture: ns = xpath(namespace-uri(//mp:GetValue[1]))

### Find it again
operation: GetCurrency
binding: soap12
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
xmlns.svc: {{ns}}
expect: xpath(count(//svc:GetValue[svc:Value = {{code}}])) == 1
expect: body matches /<Value>{{code}}<\\/Value>/
capture: again = body match /<Value>({{code}})<\\/Value>/

### Not another one
operation: GetCurrency
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
expect: xpath(//mp:GetValue[mp:Value = {{again}}]/mp:Value) != {{code}}
`,
		);
		const io = capture(folder);
		const code = await main(['variables.mpreq', '--size', 'small'], io);
		const output = io.out.join('');
		assert.equal(code, 1, output);
		assert.match(output, /✓ Currencies[^]*✓ Find it again/);
		assert.match(
			output,
			/✗ Not another one \(\d+ ms\)\n {6}failed at line 22: expect: xpath\(\/\/mp:GetValue\[mp:Value = \{\{again\}\}\]\/mp:Value\) != \{\{code\}\}\n {8}expected: != \{\{code\}\} \(with \{\{again\}\} = "([A-Z]{3})", \{\{code\}\} = "\1"\)\n {8}actual: {3}"\1"/,
		);
	});

	it('sends a request with retry: again until its expectations hold, and says how many tries it took', async () => {
		const server = await ScriptedServer.start();
		const counts = new Map<string, number>();
		server.handler = (request, response) => {
			const count = (counts.get(request.url) ?? 0) + 1;
			counts.set(request.url, count);
			response.writeHead(200, { 'content-type': 'text/plain' }).end(String(count));
		};
		try {
			writeFileSync(
				join(folder, 'retry.mpreq'),
				`### Arrives on the third try
retry: 5 every 10ms
expect: body == 3
capture: seen = body
---
GET /third HTTP/1.1

### Never arrives
retry: 3 every 10ms
expect: body == never
---
GET /never HTTP/1.1

### Uses what the last try captured
expect: body == 1
---
GET /after/{{seen}} HTTP/1.1
`,
			);
			const io = capture(folder);
			const junit = join(folder, 'junit.xml');
			const json = join(folder, 'run.json');
			const code = await main(
				['retry.mpreq', '--url', server.baseUrl, '--namespace', 'urn:x', '--junit', junit, '--json', json],
				io,
			);
			const output = io.out.join('');
			assert.equal(code, 1, output);
			assert.match(output, /✓ Arrives on the third try \(\d+ ms, 3 tries\)/);
			assert.match(
				output,
				/✗ Never arrives \(\d+ ms, 3 tries\)\n {6}failed at line 10: expect: body == never\n {8}expected: == never\n {8}actual: {3}"3"/,
			);
			assert.match(output, /✓ Uses what the last try captured \(\d+ ms\)/);
			assert.deepEqual(
				[...counts],
				[
					['/third', 3],
					['/never', 3],
					['/after/3', 1],
				],
			);
			const xml = readFileSync(junit, 'utf8');
			assert.match(
				xml,
				/name="Arrives on the third try"[^>]*>\n {6}<properties><property name="tries" value="3"\/><\/properties>/,
			);
			assert.match(xml, /\(the last of 3 tries\)<\/failure>/);
			const report = JSON.parse(readFileSync(json, 'utf8'));
			assert.deepEqual(
				report.files[0].requests.map((request: { status: string; tries?: number }) => [
					request.status,
					request.tries,
				]),
				[
					['passed', 3],
					['failed', 3],
					['passed', undefined],
				],
			);
		} finally {
			await server.close();
		}
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
			assert.match(io.out.join(''), /^1 passed, 0 failed, 0 errored, 0 skipped$/m);
			io.env = { MP_API_KEY: 'wrong' };
			assert.equal(
				await main(['url.mpreq', '--url', emulator.baseUrl, '--namespace', emulator.namespace], io),
				1,
			);
		} finally {
			await emulator.stop();
		}
	});

	it('reads the namespace of a service given by URL from its WSDL, so --namespace is optional', async () => {
		const emulator = await startSandbox({ size: 'small', namespace: 'urn:example:fixed-namespace' });
		try {
			writeFileSync(
				join(folder, 'namespace.mpreq'),
				`operation: GetCurrency\nparam.sCultureID: en-GB\nparam.sAPIKey: {{connection.apiKey}}\nexpect: no fault\nexpect: xpath(count(//mp:GetValue)) >= 1\n`,
			);
			const io = capture(folder);
			io.env = { MP_API_KEY: emulator.demo.apiKey };
			const code = await main(['namespace.mpreq', '--url', emulator.baseUrl], io);
			const output = io.out.join('');
			assert.equal(code, 0, `${output}${io.err.join('')}`);
			assert.match(output, /against http:\/\/127\.0\.0\.1:\d+ \(namespace urn:example:fixed-namespace\)/);
			assert.deepEqual(io.err, []);
		} finally {
			await emulator.stop();
		}
		// No WSDL there: the namespace by the URL, with a warning that says how to choose it.
		const server = await ScriptedServer.start();
		try {
			server.answer(404, { 'content-type': 'text/plain' }, 'no');
			writeFileSync(join(folder, 'plain.mpreq'), '### Plain\nexpect: status == 404\n---\nGET /x HTTP/1.1\n');
			const io = capture(folder);
			io.env = { MP_API_KEY: 'k' };
			assert.equal(await main(['plain.mpreq', '--url', server.baseUrl], io), 0, io.out.join(''));
			assert.match(
				io.err.join(''),
				/the posting endpoint's WSDL could not be fetched \(HTTP 404\)\. Using the namespace http:\/\/127\.0\.0\.1:\d+\/; give --namespace to choose it\./,
			);
		} finally {
			await server.close();
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
			assert.match(io.out.join(''), /^1 passed, 0 failed, 0 errored, 0 skipped$/m);

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
				new RegExp(
					`against ${emulator.baseUrl.replace(/\./g, '\\.')} \\(namespace [^)]+\\) \\(environment staging`,
				),
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

	it('--compare-with sends every request to a second service too and exits 3 when it answers differently', async () => {
		const sandbox = await startSandbox({ size: 'small' });
		const live = await startSandbox({ size: 'small', namespace: 'https://live.example.com/' });
		try {
			writeFileSync(
				join(folder, 'compare.mpreq'),
				`### Currencies
operation: GetCurrency
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
expect: no fault

### Feeds and quota
operation: UserFeedsAndQuotaWithDestinations
binding: httpGet
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
param.sUsername: {{connection.username}}
param.sPassword: {{connection.password}}
expect: no fault
`,
			);
			const io = (): ReturnType<typeof capture> => compareIo(folder, sandbox, live);
			const args = ['compare.mpreq', '--url', sandbox.baseUrl, '--compare-with', live.baseUrl];
			const same = io();
			assert.equal(await main(args, same), 0, same.out.join('') + same.err.join(''));
			const sameText = same.out.join('');
			assert.match(
				sameText,
				/, compared with http:\/\/127\.0\.0\.1:\d+ \(namespace https:\/\/live\.example\.com\/\)/,
			);
			assert.match(sameText, /^Compared with .*: 2 request\(s\), 0 differ, 0 not compared$/m);
			assert.doesNotMatch(sameText, /≠/);

			live.scenarios.activate(libraryScenario('quota-exhausted-on-one-board')!);
			const differ = io();
			const code = await main([...args, '--json', 'report.json', '--junit', 'report.xml'], differ);
			const text = differ.out.join('');
			assert.equal(code, 3, text);
			assert.match(text, /^2 passed, 0 failed, 0 errored, 0 skipped$/m);
			assert.match(text, /^Compared with .*: 2 request\(s\), 1 differ, 0 not compared$/m);
			assert.match(
				text,
				/✓ Feeds and quota.*\n {6}≠ the second service answers differently \(\d+ difference\(s\)\):\n {8}result\[\d+\]\.PostingsUsed: "\d+" vs "\d+"/,
			);
			const json = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8'));
			assert.deepEqual(json.comparisons, { compared: 2, differ: 1, notCompared: 0, notSent: 0 });
			const feeds = json.files[0].requests[1];
			assert.equal(feeds.status, 'passed');
			assert.ok(feeds.comparison.differences.some((d: { path: string }) => /PostingsUsed$/.test(d.path)));
			const junit = readFileSync(join(folder, 'report.xml'), 'utf8');
			assert.match(junit, /<testsuites name="multiposting-test" tests="2" failures="1" errors="0"/);
			assert.match(
				junit,
				/<failure message="the second service answers differently \(\d+ difference\(s\)\)" type="comparison">/,
			);
			for (const written of [text, differ.err.join(''), JSON.stringify(json), junit]) {
				for (const secret of [live.demo.apiKey, live.demo.password, sandbox.demo.apiKey]) {
					assert.ok(!written.includes(secret), 'no credential is printed or written');
				}
			}
		} finally {
			await sandbox.stop();
			await live.stop();
		}
	});

	it('--compare-with sends a write to the second service only with --compare-writes', async () => {
		const sandbox = await startSandbox({ size: 'small' });
		const live = await startSandbox({ size: 'small', namespace: 'https://live.example.com/' });
		try {
			writeFileSync(
				join(folder, 'write.mpreq'),
				`### Currencies
operation: GetCurrency
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}

### Score an application of no advert of ours
operation: ApplicationScore
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
param.sUsername: {{connection.username}}
param.sPassword: {{connection.password}}
param.sAdvertID: 999999
param.sAdvertCandidateID: 1
param.sScore: S
expect: fault
`,
			);
			const io = (): ReturnType<typeof capture> => compareIo(folder, sandbox, live);
			const scores = (): number => live.journal?.list({ operation: 'ApplicationScore' }).length ?? 0;
			const args = ['write.mpreq', '--url', sandbox.baseUrl, '--compare-with', live.baseUrl];
			const readsOnly = io();
			assert.equal(await main(args, readsOnly), 0, readsOnly.out.join('') + readsOnly.err.join(''));
			const text = readsOnly.out.join('');
			assert.equal(scores(), 0, 'the write did not reach the second service');
			assert.match(
				text,
				/ {6}– not sent to the second service: ApplicationScore changes data, and writes are not sent to the second connection unless asked/,
			);
			assert.match(text, /^Compared with .*: 1 request\(s\), 0 differ, 0 not compared, 1 not sent there \(/m);

			const writes = io();
			assert.equal(await main([...args, '--compare-writes'], writes), 0, writes.out.join(''));
			assert.equal(scores(), 1, 'with --compare-writes the write reached it');
			assert.match(writes.out.join(''), /^Compared with .*: 2 request\(s\), 0 differ, 0 not compared$/m);
		} finally {
			await sandbox.stop();
			await live.stop();
		}
	});

	it('--compare-env takes the second service from an environment; its secrets only from MP_COMPARE_*', async () => {
		const live = await startSandbox({ size: 'small', namespace: 'https://live.example.com/' });
		try {
			writeFileSync(
				join(folder, 'users.mpreq'),
				`### Users
operation: UserList
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
param.sUsername: {{connection.username}}
param.sPassword: {{connection.password}}
expect: no fault
`,
			);
			writeFileSync(
				join(folder, 'multiposting.env.json'),
				JSON.stringify({
					live: { connection: { url: live.baseUrl, username: live.demo.username } },
					empty: {},
				}),
			);
			// The run's own sandbox beside the live service: the wrong key makes the second answer a fault.
			const wrong = capture(folder);
			wrong.env = { MP_COMPARE_API_KEY: 'not-the-key', MP_COMPARE_PASSWORD: live.demo.password };
			assert.equal(await main(['users.mpreq', '--size', 'small', '--compare-env', 'live'], wrong), 3);
			assert.match(
				wrong.out.join(''),
				/compared with http:\/\/127\.0\.0\.1:\d+ \(namespace https:\/\/live\.example\.com\/\)/,
			);
			assert.match(
				wrong.out.join(''),
				/≠ the second service answers differently[^\n]*\n {8}fault: absent vs record/,
			);

			const right = capture(folder);
			right.env = { MP_COMPARE_API_KEY: live.demo.apiKey, MP_COMPARE_PASSWORD: live.demo.password };
			assert.equal(
				await main(['users.mpreq', '--size', 'small', '--compare-env', 'live'], right),
				0,
				right.out.join(''),
			);

			const none = capture(folder);
			assert.equal(await main(['users.mpreq', '--compare-env', 'empty'], none), 2);
			assert.match(
				none.err.join(''),
				/--compare-env empty: the environment names no connection\.url to compare with\./,
			);
			assert.match(parseTestArgs(['a', '--compare-with', 'x']) as string, /--compare-with "x" is not a URL/);
			assert.match(
				parseTestArgs(['a', '--compare-with', 'http://x', '--compare-env', 'live']) as string,
				/not both/,
			);
		} finally {
			await live.stop();
		}
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
