/**
 * Secrets never leak: not in the client's exchanges, the emulator's access log, the CLI's stderr,
 * UserList results, saved request files or curl snippets.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exchange } from '../../src/client';
import type { AccessLogEntry, RunningEmulator } from '../../src/emulator';
import { formatAccessLog } from '../../src/emulator/cli';
import { curlForForm } from '../../src/extension/playground/snippets';
import { BINDING_NAMES } from '../../src/protocol/bindings/types';
import { CONNECTION_PLACEHOLDERS, serializeRequestFile } from '../../src/protocol/requestFile';
import { clientFor, delay, SANDBOX_START_TIMEOUT_MS, startSandbox } from '../integration/support';

const decoder = new TextDecoder();

/** Every text form of an exchange that a log or a panel could show. */
function exchangeText(exchange: Exchange): string {
	return [
		exchange.request.url,
		JSON.stringify(exchange.request.headers),
		decoder.decode(exchange.request.body),
		JSON.stringify(exchange.response?.headers ?? {}),
		decoder.decode(exchange.response?.body ?? new Uint8Array()),
		exchange.error ?? '',
	].join('\n');
}

function assertNoSecret(text: string, secrets: readonly string[], where: string): void {
	for (const secret of secrets) {
		assert.ok(!text.includes(secret), `${where} contains a secret`);
		assert.ok(!text.includes(encodeURIComponent(secret)), `${where} contains an encoded secret`);
	}
}

describe('hardening: secrets stay secret', function () {
	this.timeout(60_000);
	let emulator: RunningEmulator;
	const log: AccessLogEntry[] = [];
	const secrets = ['sandbox-api-key', 'sandbox-password'];

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		emulator = await startSandbox({ logger: (entry) => log.push(entry) });
	});

	after(async () => {
		await emulator?.stop();
	});

	it('onExchange and errors get exchanges without the API key or password, in every binding', async () => {
		const exchanges: Exchange[] = [];
		const client = clientFor(emulator, { onExchange: (exchange) => exchanges.push(exchange) });
		const wrongPassword = clientFor(emulator, {
			credentials: { password: 'wrong-secret-password' },
			onExchange: (exchange) => exchanges.push(exchange),
		});
		try {
			for (const binding of BINDING_NAMES) {
				await client.userList({}, { binding });
				await client.getCurrency({}, { binding });
				const failed = await wrongPassword.userList({}, { binding }).then(
					() => assert.fail('a wrong password must fail'),
					(error: { exchange?: Exchange; message: string }) => error,
				);
				assertNoSecret(failed.message, [...secrets, 'wrong-secret-password'], `${binding} error message`);
				assert.ok(failed.exchange);
				assertNoSecret(
					exchangeText(failed.exchange),
					[...secrets, 'wrong-secret-password'],
					`${binding} error exchange`,
				);
			}
		} finally {
			await client.close();
			await wrongPassword.close();
		}
		assert.equal(exchanges.length, 12);
		for (const exchange of exchanges) {
			assertNoSecret(
				exchangeText(exchange),
				[...secrets, 'wrong-secret-password'],
				`${exchange.binding} ${exchange.operation} exchange`,
			);
		}
	});

	it('answers carrying a login token (GetLoginURL, AddAdvert) are sent with Cache-Control: no-store, in every binding', async () => {
		const exchanges: Exchange[] = [];
		const client = clientFor(emulator, { onExchange: (exchange) => exchanges.push(exchange) });
		try {
			for (const binding of BINDING_NAMES) {
				const login = await client.getLoginURL({}, { binding });
				assert.ok(login.RedirectUrl, `${binding}: GetLoginURL gave a link`);
				const created = await client.addAdvert(
					{ sAdvertIdentifier: `no-store-${binding}`, sJobTitle: 'Cache tester', sPrimaryLocation: 'Leeds' },
					{ binding },
				);
				assert.ok(created.RedirectUrl, `${binding}: AddAdvert gave a completion link`);
			}
		} finally {
			await client.close();
		}
		assert.equal(exchanges.length, 8);
		for (const exchange of exchanges) {
			assert.equal(
				exchange.response?.headers['cache-control'],
				'no-store',
				`${exchange.binding} ${exchange.operation}: Cache-Control`,
			);
		}
	});

	it('the access log entries and their formatted lines carry no parameters', async () => {
		const client = clientFor(emulator);
		try {
			for (const binding of BINDING_NAMES) await client.userList({}, { binding });
		} finally {
			await client.close();
		}
		assert.ok(log.length >= 4);
		for (const entry of log) {
			assertNoSecret(JSON.stringify(entry), secrets, 'access log entry');
			assertNoSecret(formatAccessLog(entry), secrets, 'access log line');
		}
	});

	it('UserList returns no password field', async () => {
		const client = clientFor(emulator);
		try {
			for (const binding of BINDING_NAMES) {
				const { result, exchange } = await client.callWithExchange('UserList', {}, { binding, redact: false });
				assert.ok(result.length > 5);
				for (const user of result) {
					assert.ok(user.Password === undefined || user.Password === '', `${user.Username} has no password`);
				}
				assertNoSecret(
					decoder.decode(exchange.response!.body),
					['sandbox-password', 'scrypt$'],
					`${binding} UserList response`,
				);
			}
		} finally {
			await client.close();
		}
	});

	it('the CLI writes no secret to stderr, even for GET requests with credentials in the query', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'mp-secrets-'));
		const child = spawn(
			process.execPath,
			[join(__dirname, '../../src/emulator/cli.js'), '--port', '0', '--data', dataDir],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		try {
			for (let i = 0; i < 600 && !stdout.includes('\n'); i++) await delay(100);
			const ready = JSON.parse(stdout.split('\n')[0]) as {
				postingUrl: string;
				adminUrl: string;
				apiKey: string;
				password: string;
			};
			const query = `sAPIKey=${ready.apiKey}&sUsername=demo.admin&sPassword=${ready.password}`;
			await fetch(`${ready.adminUrl}/UserList?${query}&sStartOrganisation=&sUserIdentifier=&sCultureID=`).then(
				(r) => r.text(),
			);
			await fetch(`${ready.postingUrl}/GetCurrency?sAPIKey=${ready.apiKey}&sCultureID=`).then((r) => r.text());
			await fetch(
				`${ready.adminUrl}/UserList?sAPIKey=${ready.apiKey}&sUsername=demo.admin&sPassword=wrong-secret-password`,
			).then((r) => r.text());
			for (let i = 0; i < 50 && stderr.split('\n').filter(Boolean).length < 3; i++) await delay(100);
			assert.ok(stderr.split('\n').filter(Boolean).length >= 3, `three access log lines: ${stderr}`);
			assertNoSecret(stderr, [...secrets, 'wrong-secret-password'], 'CLI stderr');
		} finally {
			child.kill('SIGTERM');
			await new Promise((resolve) => child.once('exit', resolve));
			rmSync(dataDir, { recursive: true, force: true });
		}
	});

	it('saved request files and curl snippets refer to secrets by placeholder', () => {
		const values = {
			apiKey: 'sandbox-api-key',
			username: 'demo.admin',
			password: 'sandbox-password',
			culture: 'en-GB',
		};
		const file = serializeRequestFile(
			{
				operation: 'UserList',
				binding: 'soap11',
				params: { sAPIKey: values.apiKey, sUsername: values.username, sPassword: values.password },
			} as never,
			values,
		);
		assertNoSecret(file, secrets, 'request file');
		const target = {
			baseUrl: 'http://127.0.0.1:1',
			namespace: 'http://127.0.0.1:1/',
			paths: { posting: '/SOAP/Posting.asmx', administration: '/SOAP/Administration.asmx' },
		};
		for (const binding of BINDING_NAMES) {
			const params = {
				sAPIKey: CONNECTION_PLACEHOLDERS.apiKey,
				sUsername: CONNECTION_PLACEHOLDERS.username,
				sPassword: CONNECTION_PLACEHOLDERS.password,
			};
			const curl = curlForForm({ operation: 'UserList', binding, params, target: target as never, values });
			assertNoSecret(curl, secrets, `${binding} curl snippet`);
			assert.match(curl, /\$MP_API_KEY/);
			assert.match(curl, /\$MP_PASSWORD/);
		}
	});
});
