// Save as Request Test from the Traffic view, end to end without VS Code: exchanges a third-party
// client sent to a sandbox become a request file (status, fault, key result values), and the
// multiposting-test CLI passes that file against the same sandbox.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CREDENTIAL_ENV, main, type CliIo } from '../../src/cli/multipostingTest';
import type { RunningEmulator } from '../../src/emulator';
import { requestTestOf } from '../../src/extension/traffic/trafficModel';
import { appendRequestEntry } from '../../src/protocol/requestFile';
import { envelope, send } from '../emulator/server/helpers';
import { listed } from '../emulator/journal/support';
import { DEMO_CREDENTIALS, startSandbox } from '../integration/support';

describe('Save as Request Test, run by the multiposting-test CLI', function () {
	this.timeout(120_000);
	let sandbox: RunningEmulator;
	let folder: string;

	before(async () => {
		sandbox = await startSandbox({ size: 'small' });
		folder = mkdtempSync(join(tmpdir(), 'mp-traffic-'));
	});
	after(async () => {
		await sandbox.stop();
		rmSync(folder, { recursive: true, force: true });
	});

	async function runCli(file: string): Promise<{ code: number; output: string }> {
		const out: string[] = [];
		const io: CliIo = {
			stdout: (text) => out.push(text),
			stderr: (text) => out.push(text),
			env: {
				[CREDENTIAL_ENV.apiKey]: DEMO_CREDENTIALS.apiKey,
				[CREDENTIAL_ENV.username]: DEMO_CREDENTIALS.username,
				[CREDENTIAL_ENV.password]: DEMO_CREDENTIALS.password,
			},
			cwd: folder,
		};
		const code = await main([file, '--url', sandbox.baseUrl, '--namespace', sandbox.namespace], io);
		return { code, output: out.join('') };
	}

	it('expects the status, the fault and key result values, and the CLI passes the file', async () => {
		const { apiKey, username, password } = DEMO_CREDENTIALS;
		const ns = sandbox.namespace;
		// A list (HTTP GET), a list of records (SOAP 1.1, the administration endpoint) and a fault (SOAP 1.2).
		await send(`${sandbox.postingUrl}/GetCurrency?sCultureID=en-GB&sAPIKey=${apiKey}`);
		await send(sandbox.adminUrl, {
			method: 'POST',
			headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${ns}UserList"` },
			body: envelope(
				'1.1',
				'UserList',
				ns,
				`<sAPIKey>${apiKey}</sAPIKey><sUsername>${username}</sUsername><sPassword>${password}</sPassword>`,
			),
		});
		await send(sandbox.postingUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/soap+xml; charset=utf-8' },
			body: envelope('1.2', 'QueryJobTitle', ns, `<sAPIKey>${apiKey}</sAPIKey><q>a</q>`),
		});
		const exchanges = (await listed(sandbox, 'limit=3')).reverse();
		assert.deepEqual(
			exchanges.map((entry) => entry.operation),
			['GetCurrency', 'UserList', 'QueryJobTitle'],
		);
		let text = '';
		for (const entry of exchanges) text = appendRequestEntry(text, requestTestOf(entry, ns));

		assert.match(
			text,
			/expect: status == 200\nexpect: no fault\nexpect: result\.length == \d+\nexpect: result\[0\]\./,
		);
		assert.match(text, /expect: status == 500\nexpect: fault InvalidParameter\n/);
		assert.equal((text.match(/expect: result/g) ?? []).length >= 6, true, text);
		for (const secret of [apiKey, password]) assert.ok(!text.includes(secret), `the file holds ${secret}`);

		const file = join(folder, 'traffic.mpreq');
		writeFileSync(file, text);
		const { code, output } = await runCli(file);
		assert.equal(code, 0, output);
		assert.match(output, /^3 passed, 0 failed, /m);
	});

	it('fails the saved test when a key result value changes', async () => {
		await send(`${sandbox.postingUrl}/GetCurrency?sCultureID=en-GB&sAPIKey=${DEMO_CREDENTIALS.apiKey}`);
		const [entry] = await listed(sandbox, 'limit=1');
		const saved = appendRequestEntry('', requestTestOf(entry, sandbox.namespace));
		// The answer as if the service now listed one currency more.
		const changed = saved.replace(
			/result\.length == (\d+)/,
			(_all, count: string) => `result.length == ${Number(count) + 1}`,
		);
		assert.notEqual(changed, saved);
		const file = join(folder, 'changed.mpreq');
		writeFileSync(file, changed);
		const { code, output } = await runCli(file);
		assert.equal(code, 1, output);
		assert.match(output, /result\.length == \d+/);
	});
});
