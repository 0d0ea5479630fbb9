import * as assert from 'node:assert/strict';
import { newForm } from '../../../src/shared/playgroundForms';
import { CONNECTION, openPage, response } from './harness';

describe('playground page', function () {
	it('starts with a GetCurrency form whose credentials are placeholders, and says ready', function () {
		const page = openPage();
		assert.deepEqual(page.posted, [{ type: 'ready', requestId: 1 }]);
		assert.equal(page.$<HTMLSelectElement>('#operation').value, 'GetCurrency');
		assert.equal(page.$<HTMLInputElement>('#param-sAPIKey').value, '{{connection.apiKey}}');
		assert.equal(page.$<HTMLInputElement>('#binding-soap11').checked, true);
		assert.equal(page.$<HTMLInputElement>('#timeout').value, '30000');
	});

	it('shows the form the host loads and asks for its preview', async function () {
		const page = openPage();
		const form = { ...newForm('UserList'), binding: 'httpPost' as const };
		page.receive({ type: 'init', connection: CONNECTION, form, placeholders: {} });
		await page.settle();
		assert.equal(page.$<HTMLSelectElement>('#operation').value, 'UserList');
		assert.equal(page.$<HTMLInputElement>('#binding-httpPost').checked, true);
		assert.equal(page.$('#connection').textContent, 'Sandbox · http://127.0.0.1:8099');
		assert.deepEqual(page.posted.at(-1), { type: 'formChanged', form, requestId: 2 });
	});

	it('records an edit in the form, the webview state and the next preview request', async function () {
		const page = openPage();
		page.type('#param-sCultureID', 'fr-FR');
		await page.settle();
		assert.equal(page.app.currentForm.params.sCultureID, 'fr-FR');
		assert.equal(page.state()?.form.params.sCultureID, 'fr-FR');
		const last = page.posted.at(-1);
		assert.equal(last?.type, 'formChanged');
		assert.equal(last?.type === 'formChanged' && last.form.params.sCultureID, 'fr-FR');
	});

	it('shows the preview of the newest form only', async function () {
		const page = openPage();
		page.type('#param-sCultureID', 'a');
		await page.settle();
		page.type('#param-sCultureID', 'ab');
		await page.settle();
		const newest = page.posted.at(-1)?.requestId ?? 0;
		const request = { method: 'POST', url: 'u', headers: [], body: '' };
		page.receive({ type: 'preview', request: { ...request, body: 'new' }, issues: [], requestId: newest });
		page.receive({ type: 'preview', request: { ...request, body: 'old' }, issues: [], requestId: newest - 1 });
		assert.match(page.$('#preview').textContent ?? '', /new$/);
	});

	it('marks fields with problems and lists the problems', function () {
		const page = openPage();
		page.receive({
			type: 'preview',
			issues: [{ param: 'sCultureID', message: 'sCultureID is not a culture.' }],
			request: { method: 'POST', url: 'u', headers: [], body: '' },
		});
		assert.equal(page.$('[data-param="sCultureID"]').classList.contains('pg-invalid'), true);
		assert.equal(page.$('#issues').textContent, 'sCultureID is not a culture.');
	});

	it('sends with Ctrl+Enter, is busy until the host is done, and sends once while busy', function () {
		const page = openPage();
		const press = () =>
			page.doc.dispatchEvent(new page.dom.window.KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true }));
		press();
		press();
		assert.deepEqual(
			page.posted.filter((m) => m.type === 'send').map((m) => m.type),
			['send'],
		);
		assert.equal(page.$<HTMLButtonElement>('#send').disabled, true);
		assert.equal(page.$<HTMLButtonElement>('#cancel').disabled, false);
		page.receive({ type: 'done' });
		assert.equal(page.$<HTMLButtonElement>('#send').disabled, false);
	});

	it('renders a response: status, the pretty body, the result table', function () {
		const page = openPage();
		page.receive({ type: 'response', response: response() });
		assert.match(page.$('#status-line').textContent ?? '', /^HTTP 200 · 120 bytes · 7 ms \(headers after 3 ms\)/);
		assert.equal(page.$('#body-pretty').textContent, '<r/>');
		page.$<HTMLButtonElement>('#pg-response-tab-result').click();
		assert.equal(page.doc.querySelectorAll('.pg-result-table tbody tr').length, 2);
		assert.equal(page.$('#notice').textContent, 'HTTP 200 received.');
	});

	it('renders hostile service text as text', function () {
		const page = openPage();
		const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
		page.receive({
			type: 'response',
			response: response({ bodyText: hostile, pretty: undefined, result: [{ Name: hostile }] }),
		});
		page.$<HTMLButtonElement>('#pg-response-tab-result').click();
		assert.equal(page.doc.querySelectorAll('#response img, #response script').length, 0);
		assert.ok((page.$('#response').textContent ?? '').includes(hostile));
	});

	it('comes back as it was when VS Code re-creates the page (webview state)', function () {
		const first = openPage();
		first.type('#param-sCultureID', 'de-DE');
		first.receive({ type: 'response', response: response() });
		const second = openPage(first.state());
		assert.equal(second.$<HTMLInputElement>('#param-sCultureID').value, 'de-DE');
		assert.match(second.$('#status-line').textContent ?? '', /^HTTP 200/);
	});

	it('does not keep a very large response in the webview state', function () {
		const page = openPage();
		const big = 'x'.repeat(1024 * 1024 + 1);
		page.receive({ type: 'response', response: response({ bodyText: big, pretty: undefined }) });
		assert.equal(page.state()?.response, undefined);
		assert.ok(page.state()?.form);
	});

	it('refuses a timeout out of range and keeps the last accepted one', function () {
		const page = openPage();
		page.type('#timeout', '50');
		page.$('#timeout').dispatchEvent(new page.dom.window.Event('change'));
		assert.equal(page.$<HTMLInputElement>('#timeout').value, '30000');
		assert.match(page.$('#notice').textContent ?? '', /between 100 and 600000/);
		page.type('#timeout', '5000');
		page.$('#timeout').dispatchEvent(new page.dom.window.Event('change'));
		assert.equal(page.app.currentForm.timeoutMs, 5000);
	});

	it('asks the host for the raw request when raw mode starts empty', function () {
		const page = openPage();
		page.choose('#mode-raw');
		assert.equal(page.posted.at(-1)?.type, 'rawFromForm');
		const form = {
			...page.app.currentForm,
			mode: 'raw' as const,
			raw: { ...page.app.currentForm.raw, body: '<x/>' },
		};
		page.receive({ type: 'load', form });
		assert.equal(page.$<HTMLTextAreaElement>('#raw-body').value, '<x/>');
	});
});
