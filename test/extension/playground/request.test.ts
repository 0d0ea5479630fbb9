import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startEmulator, type RunningEmulator } from '../../../src/emulator';
import { buildComparison } from '../../../src/extension/playground/comparison';
import {
	buildResponseView,
	defaultFormParams,
	encodeFormRequest,
	httpErrorView,
	formToDraft,
	formToParams,
	prepareRawRequest,
	previewForm,
	sendPrepared,
	type Target,
} from '../../../src/extension/playground/request';
import { BINDING_NAMES, type BindingName } from '../../../src/protocol/bindings/types';
import { DEFAULT_ENDPOINT_PATHS } from '../../../src/protocol/catalogue';
import type { PlaygroundForm } from '../../../src/shared/playgroundMessages';

const VALUES = { apiKey: 'sandbox-api-key', username: 'demo.admin', password: 'sandbox-password', culture: 'en-GB' };
const SECRETS = ['sandbox-api-key', 'sandbox-password'];

function form(overrides: Partial<PlaygroundForm> = {}): PlaygroundForm {
	return {
		mode: 'form',
		operation: 'GetCurrency',
		binding: 'soap11',
		params: defaultFormParams('GetCurrency'),
		raw: { method: 'POST', target: '/', headersText: '', body: '' },
		timeoutMs: 10_000,
		...overrides,
	};
}

describe('playground requests', () => {
	describe('HTTP GET/POST error answers', () => {
		it('calls the fixed internal-failure text a failure of the service', () => {
			const view = httpErrorView('GetCurrency', 500, 'text/plain', 'Server was unable to process request.');
			assert.equal(view.verdict, 'service');
		});
		it('calls a text that names a parameter or the credentials a mistake in the request', () => {
			assert.equal(
				httpErrorView('GetAdvertPaged', 500, 'text/plain', 'sAdvertID must be a number.').verdict,
				'caller',
			);
			assert.match(
				httpErrorView('GetAdvertPaged', 500, 'text/plain', 'sAdvertID must be a number.').explanation,
				/names the parameter sAdvertID/,
			);
			assert.equal(
				httpErrorView('GetCurrency', 500, 'text/plain', 'The API key is not valid.').verdict,
				'caller',
			);
		});
		it('does not guess when the text does not say', () => {
			const view = httpErrorView('GetCurrency', 500, '', 'Something went wrong.');
			assert.deepEqual([view.verdict, view.contentType], ['unknown', 'none']);
			assert.match(view.explanation, /no fault code/);
		});
	});

	const offline: Target = { baseUrl: 'http://127.0.0.1:1/', namespace: 'urn:mp/', paths: DEFAULT_ENDPOINT_PATHS };

	describe('building from the form', () => {
		it('fills credential fields with placeholders and types values by the catalogue', () => {
			assert.deepEqual(defaultFormParams('GetCurrency'), {
				sCultureID: '{{connection.culture}}',
				sAPIKey: '{{connection.apiKey}}',
			});
			const { params, issues } = formToParams('GetApplicationsPaged', {
				sAdvertID: '12',
				CurrentPage: '2',
				RowsPerPage: '10',
				RankingAsCSV: '',
				sUsername: '',
			});
			assert.deepEqual(issues, []);
			assert.deepEqual(params, { sAdvertID: '12', CurrentPage: 2, RowsPerPage: 10 });
		});

		it('reports type, range and catalogue-rule problems before sending', () => {
			const { issues } = formToParams('GetApplicationsPaged', {
				CurrentPage: 'one',
				RowsPerPage: '99999999999',
				sAdvertID: 'x',
			});
			const messages = issues.map((issue) => `${issue.param}: ${issue.message}`);
			assert.ok(
				messages.some((m) => /^CurrentPage: .*whole number/.test(m)),
				messages.join('\n'),
			);
			assert.ok(
				messages.some((m) => /^RowsPerPage: .*whole number/.test(m)),
				messages.join('\n'),
			);
			assert.ok(
				messages.some((m) => /^sAdvertID: .*number/.test(m)),
				messages.join('\n'),
			);
			assert.ok(formToParams('QueryJobTitle', { q: 'a' }).issues.some((issue) => issue.param === 'q'));
			assert.ok(
				formToParams('ApplicationScore', { sScore: 'Q' }).issues.some((issue) => issue.param === 'sScore'),
			);
		});

		it('repeats list parameters and drops empty items', () => {
			const request = encodeFormRequest(
				'UserFeedsAndQuotaWithDestinations',
				'httpGet',
				formToParams('UserFeedsAndQuotaWithDestinations', { Destinations: ['108', '', 'Totaljobs'] }).params,
				offline,
				VALUES,
			);
			assert.match(request.url, /Destinations=108&Destinations=Totaljobs$/);
		});

		it('previews the exact request with secrets masked in every binding', () => {
			for (const binding of BINDING_NAMES) {
				const preview = previewForm(
					form({ binding, operation: 'UserList', params: defaultFormParams('UserList') }),
					offline,
					{ username: 'demo.admin', culture: 'en-GB' },
				);
				assert.ok(preview.request, binding);
				const text = JSON.stringify(preview.request);
				assert.ok(text.includes('***'), `${binding}: ${text}`);
				assert.ok(text.includes('demo.admin'), binding);
				assert.ok(!text.includes('{{connection.'), binding);
			}
			const soap = previewForm(form(), offline, { culture: 'en-GB' }).request!;
			assert.equal(soap.method, 'POST');
			assert.equal(soap.url, 'http://127.0.0.1:1/SOAP/Posting.asmx');
			assert.deepEqual(
				soap.headers.find(([name]) => name === 'soapaction'),
				['soapaction', '"urn:mp/GetCurrency"'],
			);
			assert.match(soap.body, /<sAPIKey>\*\*\*<\/sAPIKey>/);
		});
	});

	describe('raw mode', () => {
		it('substitutes placeholders per context and keeps everything else as written', () => {
			const values = { apiKey: 'a&b c', password: 'p<w>' };
			const query = prepareRawRequest(
				{
					method: 'GET',
					target: '/x?k={{connection.apiKey}}',
					headersText: 'X-Key: {{connection.apiKey}}\n\nX-Other:  spaced ',
					body: '',
				},
				'http://h/',
				values,
			).request!;
			assert.equal(query.url, 'http://h/x?k=a%26b%20c');
			assert.deepEqual(query.headers, [
				['X-Key', 'a&b c'],
				['X-Other', 'spaced'],
			]);
			const xml = prepareRawRequest(
				{
					method: 'POST',
					target: '/',
					headersText: 'Content-Type: text/xml',
					body: '<a>{{connection.password}}</a><unclosed>',
				},
				'http://h',
				values,
			).request!;
			assert.equal(Buffer.from(xml.body).toString(), '<a>p&lt;w&gt;</a><unclosed>');
			const formBody = prepareRawRequest(
				{
					method: 'POST',
					target: '/',
					headersText: 'content-type: application/x-www-form-urlencoded',
					body: 'k={{connection.apiKey}}',
				},
				'http://h',
				values,
			).request!;
			assert.equal(Buffer.from(formBody.body).toString(), 'k=a%26b+c');
		});

		it('refuses drafts without a path or with a header line that is not a header', () => {
			const result = prepareRawRequest(
				{ method: 'POST', target: 'SOAP', headersText: 'not a header', body: '' },
				'http://h',
				{},
			);
			assert.equal(result.request, undefined);
			assert.equal(result.issues.length, 2);
		});

		it('starts from the form request with placeholders, not secrets', () => {
			const draft = formToDraft(
				'GetCurrency',
				'httpGet',
				{ sAPIKey: '{{connection.apiKey}}', sCultureID: 'en' },
				offline,
			);
			assert.equal(draft.method, 'GET');
			assert.equal(draft.target, '/SOAP/Posting.asmx/GetCurrency?sCultureID=en&sAPIKey={{connection.apiKey}}');
			const soap = formToDraft('GetCurrency', 'soap12', { sAPIKey: '{{connection.apiKey}}' }, offline);
			assert.match(soap.body, /<sAPIKey>\{\{connection\.apiKey\}\}<\/sAPIKey>/);
			assert.match(soap.headersText, /content-type: application\/soap\+xml/);
		});
	});

	describe('against the sandbox', function () {
		this.timeout(60_000);
		let emulator: RunningEmulator;
		let target: Target;

		before(async () => {
			emulator = await startEmulator({ host: '127.0.0.1', port: 0, dataDir: ':memory:' });
			target = { baseUrl: emulator.baseUrl, namespace: emulator.namespace, paths: DEFAULT_ENDPOINT_PATHS };
		});
		after(async () => {
			await emulator?.stop();
		});

		async function sendForm(binding: BindingName) {
			const request = encodeFormRequest(
				'GetCurrency',
				binding,
				formToParams('GetCurrency', defaultFormParams('GetCurrency')).params,
				target,
				VALUES,
			);
			const captured = await sendPrepared(request, { timeoutMs: 10_000 });
			return buildResponseView(captured, { operation: 'GetCurrency', binding, target, secrets: SECRETS });
		}

		it('sends GetCurrency in every binding and decodes the same result', async () => {
			const responses: [BindingName, Awaited<ReturnType<typeof sendForm>>][] = [];
			for (const binding of BINDING_NAMES) {
				const view = await sendForm(binding);
				assert.equal(view.status, 200, `${binding}: ${view.bodyText.slice(0, 300)}`);
				assert.ok(Array.isArray(view.result) && view.result.length > 0, binding);
				assert.ok(view.pretty, binding);
				assert.equal(view.size, Buffer.byteLength(view.bodyText));
				assert.ok(!JSON.stringify(view).includes('sandbox-api-key'), `${binding} leaks the key`);
				responses.push([binding, view]);
			}
			const comparison = buildComparison('GetCurrency', responses);
			assert.deepEqual(
				comparison.results.map((entry) => entry.equal),
				[true, true, true],
			);
			assert.equal(comparison.columns.length, 4);
			// The envelopes differ, the payloads (the result element, whitespace-insensitive) do not.
			assert.notEqual(comparison.columns[0].pretty, comparison.columns[1].pretty);
			assert.match(comparison.columns[0].payload, /^<GetValue>\n {2}<CultureID>en-GB<\/CultureID>\n/);
			for (const entry of comparison.payloads) {
				assert.deepEqual(
					entry.lines.filter((line) => line.kind !== 'same'),
					[],
					`${entry.key} payload differs from SOAP 1.1`,
				);
			}
		});

		it('sends a malformed raw request as written and shows the fault', async () => {
			const prepared = prepareRawRequest(
				{
					method: 'POST',
					target: '/SOAP/Posting.asmx',
					headersText:
						'Content-Type: text/xml; charset=utf-8\nSOAPAction: "' + emulator.namespace + 'GetCurrency"',
					body: '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetCurrency><sAPIKey>{{connection.apiKey}}</sAPIKey></soap:Body>',
				},
				emulator.baseUrl,
				VALUES,
			);
			const captured = await sendPrepared(prepared.request!, { timeoutMs: 10_000 });
			assert.equal(
				Buffer.from(captured.request.body).toString().includes('<sAPIKey>sandbox-api-key</sAPIKey>'),
				true,
				'the real key is sent',
			);
			const view = buildResponseView(captured, {
				operation: 'GetCurrency',
				binding: 'soap11',
				target,
				secrets: SECRETS,
			});
			assert.ok((view.status ?? 0) >= 400, String(view.status));
			assert.ok(view.fault, view.bodyText);
			assert.equal(view.fault.code, 'Client');
			assert.ok(!JSON.stringify(view).includes('sandbox-api-key'), 'the view leaks the key');
			assert.match(view.request.body, /<sAPIKey>\*\*\*<\/sAPIKey>/);
			// The fault names a line and column of the sent body; the shown (redacted) body is shorter
			// by the key's length, and the position follows it to the same place.
			const named = /line (\d+), column (\d+)/.exec(view.fault.message);
			assert.ok(named, view.fault.message);
			const sent = Buffer.from(captured.request.body).toString('utf8');
			const at = sent.slice(Number(named[2]) - 1);
			assert.ok(view.requestErrorPosition, 'no position');
			assert.equal(view.requestErrorPosition.line, 1);
			assert.notEqual(view.requestErrorPosition.column, Number(named[2]));
			assert.equal(view.request.body.slice(view.requestErrorPosition.column - 1), at);
		});

		it('shows a fault for a wrong API key and the parse error of a malformed body', async () => {
			const request = encodeFormRequest('GetCurrency', 'soap12', { sAPIKey: 'wrong' }, target, VALUES);
			const view = buildResponseView(await sendPrepared(request, { timeoutMs: 10_000 }), {
				operation: 'GetCurrency',
				binding: 'soap12',
				target,
				secrets: SECRETS,
			});
			assert.ok(view.fault);
			assert.equal(view.fault.code, 'Client');
			assert.ok(view.fault.subcode);
			const malformed = buildResponseView(
				{
					request: request,
					response: {
						status: 200,
						headers: [['content-type', 'text/xml']],
						body: new Uint8Array(Buffer.from('<a>\n  <b></a>')),
					},
					timings: { startedAt: 0, totalMs: 1 },
				},
				{ operation: 'GetCurrency', binding: 'soap11', target, secrets: [] },
			);
			assert.equal(malformed.bodyText, '<a>\n  <b></a>');
			assert.equal(malformed.pretty, undefined);
			assert.equal(malformed.prettyError?.line, 2);
			assert.ok((malformed.prettyError?.column ?? 0) > 0);
			assert.ok(malformed.decodeError);
		});

		it('shows an HTTP GET/POST error as HTTP 500 text/plain with the text, not as a SOAP fault', async () => {
			for (const binding of ['httpGet', 'httpPost'] as const) {
				const request = encodeFormRequest(
					'GetAdvertPaged',
					binding,
					{
						...formToParams('GetAdvertPaged', defaultFormParams('GetAdvertPaged')).params,
						CurrentPage: 1,
						RowsPerPage: 501,
					},
					target,
					VALUES,
				);
				const view = buildResponseView(await sendPrepared(request, { timeoutMs: 10_000 }), {
					operation: 'GetAdvertPaged',
					binding,
					target,
					secrets: SECRETS,
				});
				assert.equal(view.status, 500, view.bodyText);
				assert.equal(view.fault, undefined, `${binding}: shown as a SOAP fault`);
				assert.ok(view.httpError, binding);
				assert.match(view.httpError.contentType, /^text\/plain/);
				assert.equal(view.httpError.text, view.bodyText);
				assert.match(view.httpError.text, /RowsPerPage/);
				assert.equal(view.httpError.verdict, 'caller');
			}
		});

		it('cancels and times out', async () => {
			const controller = new AbortController();
			controller.abort();
			const request = encodeFormRequest('GetCurrency', 'soap11', {}, target, VALUES);
			const cancelled = await sendPrepared(request, { timeoutMs: 10_000, signal: controller.signal });
			assert.equal(cancelled.error, 'Cancelled.');
			assert.equal(cancelled.response, undefined);

			// A server that accepts and never answers.
			const sockets = new Set<Socket>();
			const silent = http.createServer(() => undefined);
			silent.on('connection', (socket) => sockets.add(socket));
			await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
			try {
				const { port } = silent.address() as AddressInfo;
				const timedOut = await sendPrepared(
					{ ...request, url: `http://127.0.0.1:${port}/SOAP/Posting.asmx` },
					{ timeoutMs: 200 },
				);
				assert.equal(timedOut.error, 'Timed out after 200 ms.');
			} finally {
				for (const socket of sockets) socket.destroy();
				await new Promise<void>((resolve) => silent.close(() => resolve()));
			}
		});
	});
});
