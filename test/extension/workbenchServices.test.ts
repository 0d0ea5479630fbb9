import * as assert from 'node:assert/strict';
import { createTestWorkbench, type TestWorkbench } from './harness';

describe('workbench services (real emulator)', function () {
	this.timeout(60_000);
	let wb: TestWorkbench;
	before(function () {
		wb = createTestWorkbench();
	});
	after(async function () {
		await wb.dispose();
	});

	it('starts the sandbox only when a client is first asked for', async function () {
		assert.equal(wb.starts(), 0);
		assert.equal(wb.services.activeConnection().kind, 'sandbox');
		assert.equal(wb.starts(), 0, 'reading the connection does not start it');
		const client = await wb.services.activeClient();
		assert.equal(wb.starts(), 1);
		assert.equal(await wb.services.activeClient(), client, 'the client is cached');
		assert.equal(client.baseUrl, wb.sandbox.running!.baseUrl);
	});

	it('logs every exchange with operation, binding, status and duration, and the redacted bodies at trace level', async function () {
		const client = await wb.services.activeClient();
		await client.userList({});
		const summary = wb.log.lines.find(
			(l) => l.level === 'info' && l.message.startsWith('UserList via soap11: HTTP 200 in '),
		);
		assert.ok(summary, wb.log.text());
		const trace = wb.log.lines.filter((l) => l.level === 'trace').at(-1)!.message;
		assert.match(trace, /<sAPIKey>\*\*\*<\/sAPIKey>/);
		const demo = wb.sandbox.running!.demo;
		assert.ok(!wb.log.text().includes(demo.apiKey), 'the API key never reaches the log');
		assert.ok(!wb.log.text().includes(`>${demo.password}<`), 'the password never reaches the log');
		assert.ok(trace.length < 10_000, 'bodies are truncated');
	});

	it('rebuilds the client when the active connection changes', async function () {
		const before = await wb.services.activeClient();
		await wb.store.save(
			{
				id: 'other',
				label: 'Other',
				baseUrl: wb.sandbox.running!.baseUrl,
				namespace: wb.sandbox.running!.namespace,
				username: 'demo.admin',
			},
			{ apiKey: wb.sandbox.running!.demo.apiKey },
		);
		await wb.store.setActive('other');
		const after = await wb.services.activeClient();
		assert.notEqual(after, before);
		assert.equal((await after.getCurrency({})).length > 0, true);
		assert.deepEqual(await wb.services.secretsForRedaction(), [wb.sandbox.running!.demo.apiKey]);
		await wb.store.setActive('sandbox');
	});

	it('explains a connection without a stored API key', async function () {
		await wb.store.save({ id: 'nokey', label: 'No key', baseUrl: 'https://api.example.com' }, { apiKey: 'x' });
		await wb.secrets.delete('multiposting.connection.nokey.apiKey');
		await wb.store.setActive('nokey');
		await assert.rejects(wb.services.activeClient(), /No API key is stored for the connection "No key"/);
		await wb.store.setActive('sandbox');
	});
});
