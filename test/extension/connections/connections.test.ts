import * as assert from 'node:assert/strict';
import { CONTINUE, connectionWizard, testConnection } from '../../../src/extension/connections/connectionFlow';
import {
	isInsecureRemoteUrl,
	newConnectionId,
	secretKey,
	toConnectionInfo,
	validateBaseUrl,
} from '../../../src/extension/connections/model';
import { FakeUi, pickValue } from '../fakes';
import { createTestWorkbench, type TestWorkbench } from '../harness';
import { clientFor } from '../../integration/support';

describe('connections', function () {
	this.timeout(60_000);

	describe('rules', function () {
		it('accepts only absolute http(s) host addresses', function () {
			assert.equal(validateBaseUrl('https://api.example.com'), undefined);
			assert.match(validateBaseUrl('api.example.com')!, /absolute/);
			assert.match(validateBaseUrl('ftp://x.example')!, /http/);
			assert.match(validateBaseUrl('https://user:pw@x.example')!, /host address only/);
		});

		it('flags plain http only when it leaves the machine', function () {
			assert.equal(isInsecureRemoteUrl('http://api.example.com'), true);
			assert.equal(isInsecureRemoteUrl('http://127.0.0.1:8080'), false);
			assert.equal(isInsecureRemoteUrl('http://localhost:3000'), false);
			assert.equal(isInsecureRemoteUrl('http://[::1]:3000'), false);
			assert.equal(isInsecureRemoteUrl('https://api.example.com'), false);
		});

		it('makes unique ids and fills defaults', function () {
			assert.equal(newConnectionId(['api-example-com'], 'api.example.com'), 'api-example-com-2');
			assert.equal(newConnectionId([], 'Sandbox'), 'sandbox-1');
			const info = toConnectionInfo({ id: 'a', label: 'A', baseUrl: 'https://api.example.com' });
			assert.equal(info.namespace, 'https://api.example.com/');
			assert.equal(info.postingPath, '/SOAP/Posting.asmx');
			assert.equal(info.binding, 'soap11');
		});
	});

	describe('guided input', function () {
		const steps = (ui: FakeUi) =>
			ui.calls.filter((c) => c.kind === 'input' || c.kind === 'pick').map((c) => c.options?.step);

		it('asks the eight steps and keeps secrets out of the stored connection', async function () {
			const ui = new FakeUi([
				{ input: 'https://api.example.com/' },
				{ input: '' },
				pickValue('soap12'),
				{ input: 'en-GB' },
				{ input: 'ORG-7' },
				{ input: 'jane' },
				{ input: 'key-123' },
				{ input: 'pw-456' },
			]);
			const draft = await connectionWizard(ui, []);
			assert.deepEqual(steps(ui), [1, 2, 3, 4, 5, 6, 7, 8]);
			assert.deepEqual(draft?.connection, {
				id: 'api-example-com',
				label: 'jane@api.example.com',
				baseUrl: 'https://api.example.com',
				namespace: undefined,
				postingPath: undefined,
				binding: 'soap12',
				culture: 'en-GB',
				username: 'jane',
				startOrganisation: 'ORG-7',
			});
			assert.deepEqual(draft?.secrets, { apiKey: 'key-123', password: 'pw-456' });
			assert.ok(!JSON.stringify(draft?.connection).includes('key-123'));
			const secretSteps = ui.calls.filter(
				(c) => c.kind === 'input' && (c.options as { password?: boolean }).password,
			);
			assert.equal(secretSteps.length, 2, 'API key and password are password inputs');
			assert.match(
				(ui.calls[1].options as { placeholder?: string }).placeholder!,
				/^https:\/\/api\.example\.com\/$/,
			);
		});

		it('warns before a non-loopback plain http:// address and stops on Cancel', async function () {
			const ui = new FakeUi([{ input: 'http://api.example.com' }, { modal: undefined }]);
			assert.equal(await connectionWizard(ui, []), undefined);
			assert.match(ui.messages('warnModal')[0], /plain http/);
		});

		it('does not warn for a loopback http:// address', async function () {
			const ui = new FakeUi([
				{ input: 'http://127.0.0.1:9000' },
				{ input: '' },
				pickValue('soap11'),
				{ input: 'en' },
				{ input: '' },
				{ input: '' },
				{ input: 'k' },
				{ input: '' },
			]);
			const draft = await connectionWizard(ui, []);
			assert.equal(ui.messages('warnModal').length, 0);
			assert.equal(draft?.connection.username, undefined);
			assert.equal(draft?.secrets.password, undefined);
		});

		it('warns before HTTP GET with a password, and continues on Continue', async function () {
			const ui = new FakeUi([
				{ input: 'https://api.example.com' },
				{ input: 'urn:fixed' },
				pickValue('httpGet'),
				{ input: 'en' },
				{ input: '' },
				{ input: 'jane' },
				{ input: 'k' },
				{ input: 'secret' },
				{ modal: CONTINUE },
			]);
			const draft = await connectionWizard(ui, []);
			assert.match(ui.messages('warnModal')[0], /HTTP GET puts every parameter in the URL/);
			assert.equal(draft?.connection.binding, 'httpGet');
			assert.equal(draft?.connection.namespace, 'urn:fixed');
		});

		it('keeps the stored secrets when editing with empty secret inputs', async function () {
			const existing = {
				connection: { id: 'x', label: 'X', baseUrl: 'https://x.example', username: 'u' },
				secrets: { apiKey: 'old-key', password: 'old-pw' },
			};
			const ui = new FakeUi([
				{ input: 'https://x.example' },
				{ input: '' },
				pickValue('soap11'),
				{ input: 'en' },
				{ input: '' },
				{ input: 'u' },
				{ input: '' },
				{ input: '' },
			]);
			const draft = await connectionWizard(ui, ['x'], existing);
			assert.equal(draft?.connection.id, 'x');
			assert.equal(draft?.connection.label, 'X');
			assert.deepEqual(draft?.secrets, { apiKey: 'old-key', password: 'old-pw' });
		});

		it('requires an API key for a new connection', async function () {
			const ui = new FakeUi([
				{ input: 'https://x.example' },
				{ input: '' },
				pickValue('soap11'),
				{ input: 'en' },
				{ input: '' },
				{ input: '' },
				{ input: '' },
			]);
			await assert.rejects(connectionWizard(ui, []), /The API key is required/);
		});
	});

	describe('store and test (real emulator)', function () {
		let wb: TestWorkbench;
		before(function () {
			wb = createTestWorkbench();
		});
		after(async function () {
			await wb.dispose();
		});

		it('stores secrets in SecretStorage only and removes them with the connection', async function () {
			await wb.store.save(
				{ id: 'prod', label: 'Prod', baseUrl: 'https://api.example.com', username: 'jane' },
				{ apiKey: 'k-1', password: 'p-1' },
			);
			assert.ok(!JSON.stringify([...wb.settings.values]).includes('k-1'));
			assert.ok(!JSON.stringify([...wb.settings.values]).includes('p-1'));
			assert.equal(await wb.secrets.get(secretKey('prod', 'apiKey')), 'k-1');
			assert.deepEqual(
				wb.store.list().map((c) => c.id),
				['sandbox', 'prod'],
			);
			await wb.store.setActive('prod');
			assert.equal(wb.store.active().id, 'prod');
			await wb.store.remove('prod');
			assert.equal(wb.secrets.values.size, 0);
			assert.equal(wb.store.active().id, 'sandbox', 'removing the active connection falls back to the sandbox');
		});

		it('tests a connection: success with the demo administrator, a plain-language failure with a wrong key', async function () {
			const emulator = await wb.sandbox.ensureRunning();
			const connection = wb.store.get('sandbox')!;
			const good = clientFor(emulator);
			const ok = await testConnection(good, connection);
			await good.close();
			assert.equal(ok.ok, true);
			assert.match(ok.lines.join(' '), /demo\.admin logged in as an administrator and sees \d+ users/);
			const bad = clientFor(emulator, { credentials: { apiKey: 'wrong-key' } });
			const failed = await testConnection(bad, connection);
			await bad.close();
			assert.equal(failed.ok, false);
			assert.match(failed.lines[0], /^Reaching the service failed: the service refused the request/);
			assert.ok(!failed.lines[0].includes('wrong-key'), 'the key is not echoed');
		});
	});
});
