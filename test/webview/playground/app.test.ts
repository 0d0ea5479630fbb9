import * as assert from 'node:assert/strict';
import { newForm } from '../../../src/shared/playgroundForms';
import type { ComparisonView } from '../../../src/shared/playgroundMessages';
import { CONNECTION, openPage, response } from './harness';

describe('playground page', function () {
	it('starts with a GetCurrency form whose credentials are placeholders, and says ready', function () {
		const page = openPage();
		assert.deepEqual(page.posted, [{ type: 'ready', requestId: 1 }]);
		assert.equal(page.$<HTMLSelectElement>('#operation').value, 'GetCurrency');
		assert.equal(page.$<HTMLInputElement>('#param-sAPIKey').value, '{{connection.apiKey}}');
		assert.equal(page.$<HTMLInputElement>('#binding-soap11').checked, true);
		assert.equal(page.$<HTMLInputElement>('#timeout').value, '30000');
		assert.equal(
			page.$('#response-empty').textContent,
			'Nothing sent yet for GetCurrency. Send it (Ctrl+Enter) to see the answer.',
		);
	});

	it('lays out one primary Send with its shortcut, and the other actions in a menu', function () {
		const page = openPage();
		const bar = page.$('.pg-requestbar');
		assert.deepEqual(
			[...bar.querySelectorAll('button:not([role="menuitem"])')].map((b) => b.id),
			['send', 'cancel', 'more'],
		);
		assert.equal(page.$('#send').textContent, 'SendCtrl+Enter');
		assert.equal(page.$('#send').getAttribute('aria-keyshortcuts'), 'Control+Enter');
		assert.equal(page.$('#send').className.includes('mp-secondary'), false);
		// Request and response are two panes of one workbench.
		assert.deepEqual(
			[...page.doc.querySelectorAll('.pg-workbench > .pg-pane')].map((pane) =>
				pane.getAttribute('aria-labelledby'),
			),
			['request-heading', 'response-heading'],
		);
	});

	it('runs a menu action from the keyboard and gives the focus back to the button', function () {
		const page = openPage();
		const more = page.$<HTMLButtonElement>('#more');
		const key = (target: Element, k: string) =>
			target.dispatchEvent(new page.dom.window.KeyboardEvent('keydown', { key: k, bubbles: true }));
		assert.equal(page.$('#more-menu').hidden, true);
		key(more, 'ArrowDown');
		assert.equal(page.$('#more-menu').hidden, false);
		assert.equal(more.getAttribute('aria-expanded'), 'true');
		assert.equal(page.doc.activeElement?.id, 'more-compare');
		key(page.$('#more-menu'), 'ArrowDown');
		key(page.$('#more-menu'), 'ArrowDown');
		key(page.$('#more-menu'), 'ArrowDown');
		assert.equal(page.doc.activeElement?.id, 'more-copy-curl');
		page.$<HTMLButtonElement>('#more-copy-curl').click();
		assert.equal(page.posted.at(-1)?.type, 'copyCurl');
		assert.equal(page.$('#more-menu').hidden, true);
		assert.equal(page.doc.activeElement, more);
		more.click();
		key(page.$('#more-menu'), 'Escape');
		assert.equal(page.$('#more-menu').hidden, true);
	});

	it('shows the form the host loads and asks for its preview', async function () {
		const page = openPage();
		const form = { ...newForm('UserList'), binding: 'httpPost' as const };
		page.receive({ type: 'init', connection: CONNECTION, form, placeholders: {} });
		await page.settle();
		assert.equal(page.$<HTMLSelectElement>('#operation').value, 'UserList');
		assert.equal(page.$<HTMLInputElement>('#binding-httpPost').checked, true);
		assert.equal(page.$('#connection').textContent, 'Sandbox · http://127.0.0.1:8099 · demo.admin');
		assert.deepEqual(page.posted.at(-1), { type: 'formChanged', form, requestId: 2 });
	});

	it('follows the active connection in the header and asks for a new preview', async function () {
		const page = openPage();
		page.receive({ type: 'init', connection: CONNECTION, placeholders: {} });
		await page.settle();
		const before = page.posted.length;
		page.receive({
			type: 'connection',
			connection: { ...CONNECTION, label: 'Production', baseUrl: 'https://api.example.com' },
		});
		await page.settle();
		assert.equal(page.$('#connection').textContent, 'Production · https://api.example.com · demo.admin');
		assert.equal(page.posted.slice(before).at(-1)?.type, 'formChanged');
	});

	it('records an edit in the form, the webview state and the next preview request', async function () {
		const page = openPage();
		page.type('#param-sCultureID', 'fr-FR');
		await page.settle();
		assert.equal(page.app.currentForm.params.sCultureID, 'fr-FR');
		assert.equal(page.state()?.form.params.sCultureID, 'fr-FR');
		const last = page.posted.at(-1);
		assert.equal(last?.type === 'formChanged' && last.form.params.sCultureID, 'fr-FR');
	});

	it('keeps a form per operation and restores it when you come back', function () {
		const page = openPage();
		page.type('#param-sCultureID', 'de-DE');
		page.choose('#binding-soap12');
		page.type('#operation', 'UserList');
		assert.equal(page.app.currentForm.operation, 'UserList');
		assert.equal(page.app.currentForm.binding, 'soap12', 'a new operation keeps the binding');
		page.type('#operation', 'GetCurrency');
		assert.equal(page.$<HTMLInputElement>('#param-sCultureID').value, 'de-DE');
		// And it survives the page being re-created.
		const again = openPage(page.state());
		again.type('#operation', 'UserList');
		again.type('#operation', 'GetCurrency');
		assert.equal(again.$<HTMLInputElement>('#param-sCultureID').value, 'de-DE');
	});

	it('names the chosen operation in the empty response pane, also when nothing was sent for either', function () {
		const page = openPage();
		page.type('#operation', 'ApplicationScore');
		assert.equal(
			page.$('#response-empty').textContent,
			'Nothing sent yet for ApplicationScore. Send it (Ctrl+Enter) to see the answer.',
		);
	});

	it('clears the response when the request changes, and shows it again when it is the same request', function () {
		const page = openPage();
		page.$<HTMLButtonElement>('#send').click();
		const sent = page.posted.at(-1)!;
		page.receive({ type: 'response', response: response(), requestId: sent.requestId });
		page.receive({ type: 'done', requestId: sent.requestId });
		assert.match(page.$('#status-line').textContent ?? '', /^HTTP 200/);
		page.type('#param-sCultureID', 'nl-NL');
		assert.equal(page.doc.querySelector('#status-line'), null);
		assert.match(
			page.$('#response-empty').textContent ?? '',
			/^The request changed since the last response of GetCurrency/,
		);
		page.type('#param-sCultureID', '{{connection.culture}}');
		assert.match(page.$('#status-line').textContent ?? '', /^HTTP 200/);
		// Another operation never shows this operation's response.
		page.type('#operation', 'UserList');
		assert.equal(page.doc.querySelector('#status-line'), null);
		assert.equal(
			page.$('#response-empty').textContent,
			'Nothing sent yet for UserList. Send it (Ctrl+Enter) to see the answer.',
		);
		page.type('#operation', 'GetCurrency');
		assert.match(page.$('#status-line').textContent ?? '', /^HTTP 200/);
	});

	it('ties a reply to the form that was sent, not to the form edited meanwhile', function () {
		const page = openPage();
		page.$<HTMLButtonElement>('#send').click();
		const sent = page.posted.at(-1)!;
		page.type('#param-sCultureID', 'it-IT');
		page.receive({ type: 'response', response: response(), requestId: sent.requestId });
		assert.equal(page.doc.querySelector('#status-line'), null, 'the answer is to the request as it was');
		page.type('#param-sCultureID', '{{connection.culture}}');
		assert.match(page.$('#status-line').textContent ?? '', /^HTTP 200/);
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

	it('renders a response: status with content type, the result first, the pretty body one tab away', function () {
		const page = openPage();
		page.receive({ type: 'response', response: response() });
		assert.match(
			page.$('#status-line').textContent ?? '',
			/^HTTP 200 · text\/xml · 120 bytes · 7 ms \(headers after 3 ms\) · /,
		);
		assert.equal(page.$('#status-line time').getAttribute('title'), '2026-01-02T03:04:05Z');
		assert.equal(page.$('#pg-response-tab-result').getAttribute('aria-selected'), 'true');
		assert.equal(page.doc.querySelectorAll('.pg-result-table tbody tr[data-row]').length, 2);
		page.$<HTMLButtonElement>('#pg-response-tab-pretty').click();
		assert.equal(page.$('#body-pretty').textContent, '<r/>');
		assert.equal(page.$('#notice').textContent, 'HTTP 200 received.');
	});

	it('shows an HTTP GET/POST error as what came over the wire, not as a SOAP fault', function () {
		const page = openPage();
		page.receive({
			type: 'response',
			response: response({
				status: 500,
				headers: [['content-type', 'text/plain; charset=utf-8']],
				bodyText: 'RowsPerPage must be between 1 and 500.',
				pretty: undefined,
				result: undefined,
				httpError: {
					status: 500,
					contentType: 'text/plain; charset=utf-8',
					text: 'RowsPerPage must be between 1 and 500.',
					verdict: 'caller',
					explanation: 'The text names the parameter RowsPerPage: most likely a mistake in the request.',
				},
			}),
		});
		assert.equal(page.doc.querySelector('#fault'), null);
		const error = page.$('#http-error').textContent ?? '';
		assert.match(
			error,
			/^HTTP 500 error answer \(text\/plain; charset=utf-8\)RowsPerPage must be between 1 and 500\./,
		);
		assert.match(error, /Whose mistakeMistake in the request\. The text names the parameter RowsPerPage/);
		assert.match(page.$('#status-line').textContent ?? '', /^HTTP 500 · text\/plain ·/);
		assert.equal(page.$('#notice').textContent, 'HTTP 500: RowsPerPage must be between 1 and 500.');
	});

	it('renders hostile service text as text', function () {
		const page = openPage();
		const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
		page.receive({
			type: 'response',
			response: response({ bodyText: hostile, pretty: undefined, result: [{ Name: hostile }] }),
		});
		assert.equal(page.doc.querySelectorAll('#response img, #response script').length, 0);
		assert.ok((page.$('#response').textContent ?? '').includes(hostile));
	});

	it('shows the leniency warnings of a loose-mode sandbox, one per X-Sandbox-Warning, as text', function () {
		const page = openPage();
		page.receive({ type: 'response', response: response() });
		assert.equal(page.doc.querySelector('#sandbox-warnings'), null);
		const first = 'production would refuse this request: parameter sCultureID is missing (taken as empty)';
		const second = 'production would refuse this request: <b>unknown</b> parameter Extra ignored';
		const third = 'production would refuse this request: element order differs';
		page.receive({
			type: 'response',
			response: response({
				headers: [
					['content-type', 'text/xml'],
					['X-Sandbox-Warning', first],
					['x-sandbox-warning', `${second}, ${third}`],
				],
			}),
		});
		const items = [...page.doc.querySelectorAll('#sandbox-warnings li')].map((li) => li.textContent);
		assert.deepEqual(items, [first, second, third]);
		assert.equal(page.doc.querySelectorAll('#sandbox-warnings b').length, 0);
		assert.match(page.$('#sandbox-warnings').textContent ?? '', /loose mode/);
	});

	it('opens the response in an editor, pretty when it is XML, at the parse error when it is not well-formed', function () {
		const page = openPage();
		page.receive({ type: 'response', response: response({ pretty: '<r>\n  <a/>\n</r>' }) });
		page.$<HTMLButtonElement>('#open-response').click();
		assert.deepEqual(page.posted.at(-1), {
			type: 'openDocument',
			document: { title: 'GetCurrency response (SOAP 1.1)', text: '<r>\n  <a/>\n</r>', language: 'xml' },
			requestId: page.posted.at(-1)?.requestId,
		});
		page.receive({
			type: 'response',
			response: response({
				bodyText: '<r><a></r>',
				pretty: undefined,
				result: undefined,
				prettyError: { message: 'Mismatched end tag', line: 1, column: 7 },
			}),
		});
		page.$<HTMLButtonElement>('#open-response').click();
		const last = page.posted.at(-1);
		assert.deepEqual(last?.type === 'openDocument' && last.document, {
			title: 'GetCurrency response (SOAP 1.1)',
			text: '<r><a></r>',
			language: 'xml',
			position: { line: 1, column: 7 },
		});
		page.$<HTMLButtonElement>('#open-sent-request').click();
		const sent = page.posted.at(-1);
		assert.deepEqual(sent?.type === 'openDocument' && sent.document.language, 'xml');
	});

	it('opens the request preview in an editor from the menu', function () {
		const page = openPage();
		page.receive({
			type: 'preview',
			issues: [],
			request: {
				method: 'GET',
				url: 'http://h/SOAP/Posting.asmx/GetCurrency?sAPIKey=***',
				headers: [],
				body: '',
			},
		});
		page.$<HTMLButtonElement>('#more-open-request').click();
		const last = page.posted.at(-1);
		assert.deepEqual(last?.type === 'openDocument' && last.document, {
			title: 'GetCurrency request (SOAP 1.1)',
			text: 'GET http://h/SOAP/Posting.asmx/GetCurrency?sAPIKey=***\n\n',
			language: 'plaintext',
		});
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
		const big = 'x'.repeat(2 * 1024 * 1024 + 1);
		page.receive({ type: 'response', response: response({ bodyText: big, pretty: undefined }) });
		assert.deepEqual(page.state()?.exchanges, {});
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

	it('compares with another connection: the host picks it, the page shows the masked comparison', function () {
		const page = openPage();
		page.$<HTMLButtonElement>('#more-compare-connection').click();
		const sent = page.posted.at(-1)!;
		assert.equal(sent.type, 'compareConnection');
		assert.match(page.$('#notice').textContent ?? '', /Choose the connection to compare with/);
		const column = (key: string, label: string, payload: string) => ({
			key,
			label,
			status: 200,
			summary: '2 record(s)',
			pretty: '<x/>',
			payload,
		});
		const comparison: ComparisonView = {
			kind: 'connections',
			operation: 'UserFeedsAndQuotaWithDestinations',
			columns: [
				column('sandbox', 'Sandbox', '<FeedID>[id]</FeedID>\n<PostingsUsed>0</PostingsUsed>'),
				column('live', 'Live', '<FeedID>[id]</FeedID>\n<PostingsUsed>5</PostingsUsed>'),
			],
			results: [{ key: 'live', equal: false, differences: ['[0].PostingsUsed: "0" vs "5"'] }],
			payloads: [
				{
					key: 'live',
					lines: [
						{ kind: 'same', text: '<FeedID>[id]</FeedID>' },
						{ kind: 'removed', text: '<PostingsUsed>0</PostingsUsed>' },
						{ kind: 'added', text: '<PostingsUsed>5</PostingsUsed>' },
					],
				},
			],
		};
		page.receive({ type: 'comparison', comparison, requestId: sent.requestId });
		const output = page.$('#comparison');
		assert.match(
			output.querySelector('h3')?.textContent ?? '',
			/^Connection comparison: UserFeedsAndQuotaWithDestinations$/,
		);
		assert.match(output.textContent ?? '', /dates \(\[date\]\) and the namespace \(\[namespace\]\) are left out/);
		assert.deepEqual(
			[...output.querySelectorAll('tbody tr')].map((row) => row.textContent),
			['Sandbox2002 record(s)baselinebaseline', 'Live2002 record(s)1 difference(s)2 line(s) differ'],
		);
		assert.equal(output.querySelector('.pg-differences li')?.textContent, '[0].PostingsUsed: "0" vs "5"');
		assert.equal(page.$('#notice').textContent, 'Compared Sandbox with Live.');
	});

	it('shows a comparison with its payload diffs and opens any two bindings in the diff editor', function () {
		const page = openPage();
		page.$<HTMLButtonElement>('#more-compare').click();
		const sent = page.posted.at(-1)!;
		assert.equal(sent.type, 'compare');
		const column = (key: 'soap11' | 'soap12' | 'httpGet' | 'httpPost', label: string, payload: string) => ({
			key,
			label,
			status: 200,
			summary: '1 record(s)',
			pretty: `<${key}/>`,
			payload,
		});
		const comparison: ComparisonView = {
			kind: 'bindings',
			operation: 'GetCurrency',
			columns: [
				column('soap11', 'SOAP 1.1', '<GetValue>\n  <Value>GBP</Value>\n</GetValue>'),
				column('soap12', 'SOAP 1.2', '<GetValue>\n  <Value>GBP</Value>\n</GetValue>'),
				column('httpGet', 'HTTP GET', '<GetValue>\n  <Value>EUR</Value>\n</GetValue>'),
				column('httpPost', 'HTTP POST', '<GetValue>\n  <Value>GBP</Value>\n</GetValue>'),
			],
			results: [
				{ key: 'soap12', equal: true, differences: [] },
				{ key: 'httpGet', equal: false, differences: ['[0].Value: "GBP" → "EUR"'] },
				{ key: 'httpPost', equal: true, differences: [] },
			],
			payloads: [
				{ key: 'soap12', lines: [{ kind: 'same', text: '<GetValue>' }] },
				{
					key: 'httpGet',
					lines: [
						{ kind: 'removed', text: '  <Value>GBP</Value>' },
						{ kind: 'added', text: '  <Value>EUR</Value>' },
					],
				},
				{ key: 'httpPost', lines: [{ kind: 'same', text: '<GetValue>' }] },
			],
		};
		page.receive({ type: 'comparison', comparison, requestId: sent.requestId });
		const rows = [...page.doc.querySelectorAll('#comparison tbody tr')].map((row) => row.textContent);
		assert.deepEqual(rows, [
			'SOAP 1.1200' + '1 record(s)baselinebaseline',
			'SOAP 1.2200' + '1 record(s)identicalidentical',
			'HTTP GET200' + '1 record(s)1 difference(s)2 line(s) differ',
			'HTTP POST200' + '1 record(s)identicalidentical',
		]);
		assert.equal(page.doc.querySelectorAll('.pg-payload-diff').length, 1);
		assert.equal(page.$<HTMLSelectElement>('#diff-right').value, '2', 'the first binding that differs');
		page.type('#diff-left', '1');
		page.$<HTMLButtonElement>('#open-diff').click();
		const last = page.posted.at(-1);
		assert.deepEqual(last?.type === 'openDiff' && [last.left.title, last.right.title, last.right.text], [
			'GetCurrency payload (SOAP 1.2)',
			'GetCurrency payload (HTTP GET)',
			'<GetValue>\n  <Value>EUR</Value>\n</GetValue>\n',
		]);
		// The comparison answers this call: another call hides it.
		page.type('#param-sCultureID', 'x');
		assert.equal(page.$('#comparison').hidden, true);
	});

	it('lists the history with times in the locale and ISO in the tooltip', function () {
		const page = openPage();
		page.receive({
			type: 'history',
			query: '',
			entries: [
				{
					id: 'a',
					time: Date.UTC(2026, 0, 2, 3, 4, 5),
					operation: 'GetCurrency',
					binding: 'soap12',
					mode: 'form',
					status: 200,
					totalMs: 12,
				},
			],
		});
		const entry = page.$<HTMLButtonElement>('#history button');
		assert.match(entry.textContent ?? '', / · GetCurrency · SOAP 1\.2 · HTTP 200 · 12 ms$/);
		assert.equal(entry.title, '2026-01-02T03:04:05Z');
		entry.click();
		assert.deepEqual(page.posted.at(-1), {
			type: 'historyOpen',
			id: 'a',
			requestId: page.posted.at(-1)?.requestId,
		});
	});
});
