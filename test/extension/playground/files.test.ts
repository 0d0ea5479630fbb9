import * as assert from 'node:assert/strict';
import { documentToForm, formToDocument, newForm } from '../../../src/extension/playground/documents';
import { PlaygroundHistory, HISTORY_BODY_LIMIT, type HistoryStorage } from '../../../src/extension/playground/history';
import { defaultFormParams, type Target } from '../../../src/extension/playground/request';
import { clientCallSnippet, curlForForm, curlForRaw, shellQuote } from '../../../src/extension/playground/snippets';
import { DEFAULT_ENDPOINT_PATHS } from '../../../src/protocol/catalogue';
import { parseRequestFile, serializeRequestFile } from '../../../src/protocol/requestFile';
import { parseWebviewMessage, type PlaygroundForm, type ResponseView } from '../../../src/shared/playgroundMessages';

const API_KEY = "key'with$pecial";
const PASSWORD = 'pass word&<x>';
const VALUES = { apiKey: API_KEY, password: PASSWORD, username: 'demo.admin', culture: 'en-GB' };
const TARGET: Target = { baseUrl: 'http://127.0.0.1:8080', namespace: 'urn:mp/', paths: DEFAULT_ENDPOINT_PATHS };

function assertNoSecret(text: string, where: string): void {
	for (const form of [
		API_KEY,
		PASSWORD,
		encodeURIComponent(API_KEY),
		encodeURIComponent(PASSWORD),
		'pass+word',
		'pass word',
		'key&#39;with',
		"key'\\''with",
	]) {
		assert.ok(!text.includes(form), `${where} contains ${form}:\n${text}`);
	}
}

function memoryStorage(): HistoryStorage & { text?: string } {
	const storage: HistoryStorage & { text?: string } = {
		read: async () => storage.text,
		write: async (text) => {
			storage.text = text;
		},
	};
	return storage;
}

function response(body: string, status = 200): ResponseView {
	return {
		request: {
			method: 'GET',
			url: `http://h/SOAP/Posting.asmx/GetCurrency?sAPIKey=${encodeURIComponent(API_KEY)}`,
			headers: [['x-key', API_KEY]],
			body: `<sPassword>${PASSWORD}</sPassword>`,
		},
		status,
		headers: [['content-type', 'text/xml']],
		timings: { startedAt: 1, totalMs: 12 },
		size: body.length,
		bodyText: body,
		pretty: body,
		result: [{ Value: API_KEY }],
	};
}

describe('playground files, snippets and history', () => {
	describe('request files from the playground', () => {
		it('round-trips a form through a saved file', () => {
			const form: PlaygroundForm = { ...newForm('AdvertTrackingResponseLog'), binding: 'httpPost' };
			form.params = { ...form.params, sAdvertID: '42', Destinations: ['108', 'Totaljobs'] };
			const { document, problems } = formToDocument(form);
			assert.deepEqual(problems, []);
			const text = serializeRequestFile(document!);
			assert.match(text, /param\.Destinations: 108\nparam\.Destinations: Totaljobs/);
			const back = documentToForm(parseRequestFile(text));
			assert.deepEqual(back.params, form.params);
			assert.equal(back.binding, 'httpPost');
			assert.equal(back.mode, 'form');
		});

		it('saves raw mode as a --- separated HTTP request and never a typed secret', () => {
			const form: PlaygroundForm = {
				...newForm('GetCurrency'),
				mode: 'raw',
				params: { ...defaultFormParams('GetCurrency'), sAPIKey: API_KEY },
				raw: {
					method: 'POST',
					target: '/SOAP/Posting.asmx',
					headersText: `Content-Type: text/xml\nX-Key: ${API_KEY}`,
					body: `<sAPIKey>${API_KEY}</sAPIKey><broken`,
				},
			};
			const text = serializeRequestFile(formToDocument(form).document!, VALUES);
			assertNoSecret(text, 'the saved file');
			assert.match(
				text,
				/\n---\nPOST \/SOAP\/Posting\.asmx HTTP\/1\.1\nContent-Type: text\/xml\nX-Key: \{\{connection\.apiKey\}\}\n\n<sAPIKey>\{\{connection\.apiKey\}\}<\/sAPIKey><broken\n$/,
			);
			const back = documentToForm(parseRequestFile(text));
			assert.equal(back.mode, 'raw');
			assert.equal(back.raw.body, '<sAPIKey>{{connection.apiKey}}</sAPIKey><broken');
		});

		it('reports values that cannot be saved with their type', () => {
			const form = {
				...newForm('GetAdvertPaged'),
				params: { ...defaultFormParams('GetAdvertPaged'), CurrentPage: 'first' },
			};
			const { problems } = formToDocument(form);
			assert.equal(problems.length, 1);
			assert.match(problems[0], /CurrentPage/);
		});
	});

	describe('snippets', () => {
		it('copies curl with $MP_API_KEY / $MP_PASSWORD references by default', () => {
			const params = {
				sAPIKey: '{{connection.apiKey}}',
				sPassword: '{{connection.password}}',
				sUsername: '{{connection.username}}',
				sCultureID: 'en',
			};
			for (const binding of ['soap11', 'soap12', 'httpGet', 'httpPost'] as const) {
				const curl = curlForForm({ operation: 'UserList', binding, params, target: TARGET, values: VALUES });
				assertNoSecret(curl, `curl ${binding}`);
				assert.ok(curl.includes(`'"$MP_API_KEY"'`), curl);
				assert.ok(curl.includes(`'"$MP_PASSWORD"'`), curl);
				assert.ok(curl.includes('demo.admin'), curl);
			}
			const raw = curlForRaw(
				{
					method: 'POST',
					target: '/x',
					headersText: 'X-Key: {{connection.apiKey}}',
					body: 'p={{connection.password}}',
				},
				TARGET,
				VALUES,
			);
			assertNoSecret(raw, 'raw curl');
			assert.match(raw, /-H 'X-Key: '"\$MP_API_KEY"''/);
		});

		it('includes the secrets only when asked to, shell-quoted', () => {
			const curl = curlForForm(
				{
					operation: 'GetCurrency',
					binding: 'httpGet',
					params: { sAPIKey: '{{connection.apiKey}}' },
					target: TARGET,
					values: VALUES,
				},
				true,
			);
			assert.ok(
				curl.includes(
					shellQuote(
						'http://127.0.0.1:8080/SOAP/Posting.asmx/GetCurrency?sCultureID=&sAPIKey=key%27with%24pecial',
					),
				),
				curl,
			);
			assert.ok(!curl.includes('MP_API_KEY'), curl);
			assert.equal(shellQuote("a'b"), `'a'\\''b'`);
		});

		it('copies a client call without credentials', () => {
			assert.equal(
				clientCallSnippet('GetCurrency', 'soap11', { sCultureID: 'en-GB', sAPIKey: API_KEY }),
				"const result = await client.getCurrency({ sCultureID: 'en-GB' });",
			);
			const call = clientCallSnippet('ApplicationScore', 'httpGet', {
				sAPIKey: '{{connection.apiKey}}',
				sPassword: PASSWORD,
				sUsername: '{{connection.username}}',
				sAdvertID: '1',
				sScoreAsJobOwner: true,
			});
			assert.equal(
				call,
				"const result = await client.applicationScore({ sAdvertID: '1', sScoreAsJobOwner: true }, { binding: 'httpGet' });",
			);
			assert.equal(
				clientCallSnippet('UserFeedsAndQuotaWithDestinations', 'soap11', { Destinations: ["it's", 'b'] }),
				"const result = await client.userFeedsAndQuotaWithDestinations({ Destinations: ['it\\'s', 'b'] });",
			);
		});
	});

	describe('history', () => {
		it('keeps the newest entries up to the limit, persisted and searchable', async () => {
			const storage = memoryStorage();
			const history = new PlaygroundHistory(storage, 3);
			for (let i = 0; i < 5; i += 1) {
				await history.add(
					{ ...newForm(i % 2 === 0 ? 'GetCurrency' : 'UserList') },
					response(`<r>body ${i}</r>`, 200 + i),
					VALUES,
					1000 + i,
				);
			}
			const all = await history.search();
			assert.deepEqual(
				all.map((entry) => entry.status),
				[204, 203, 202],
			);
			assert.deepEqual(
				(await history.search('userlist')).map((entry) => entry.status),
				[203],
			);
			assert.deepEqual(
				(await history.search('body 4')).map((entry) => entry.status),
				[204],
			);
			const reloaded = new PlaygroundHistory(storage, 3);
			assert.equal((await reloaded.search()).length, 3);
			const entry = await reloaded.get(all[0].id);
			assert.equal(entry?.response?.bodyText, '<r>body 4</r>');
			await reloaded.clear();
			assert.deepEqual(await reloaded.search(), []);
		});

		it('stores no secret and cuts long bodies', async () => {
			const storage = memoryStorage();
			const history = new PlaygroundHistory(storage);
			const form = { ...newForm('GetCurrency'), params: { sAPIKey: API_KEY, sCultureID: 'en' } };
			await history.add(form, response(`<x>${API_KEY}</x>${'y'.repeat(HISTORY_BODY_LIMIT + 10)}`), VALUES);
			assertNoSecret(storage.text ?? '', 'the stored history');
			const [summary] = await history.search();
			const entry = await history.get(summary.id);
			assert.equal(entry?.form.params.sAPIKey, '{{connection.apiKey}}');
			assert.ok((entry?.response?.bodyText.length ?? 0) < HISTORY_BODY_LIMIT + 100);
			assert.deepEqual(entry?.response?.result, [{ Value: '***' }]);
		});

		it('starts empty when the stored file is damaged', async () => {
			const storage = memoryStorage();
			storage.text = '{not json';
			assert.deepEqual(await new PlaygroundHistory(storage).search(), []);
		});
	});

	describe('webview messages', () => {
		it('accepts well-formed messages and rejects anything else', () => {
			const form = newForm('GetCurrency');
			assert.deepEqual(parseWebviewMessage({ type: 'send', form }), { type: 'send', form });
			assert.deepEqual(parseWebviewMessage({ type: 'openWsdl', endpoint: 'posting' }), {
				type: 'openWsdl',
				endpoint: 'posting',
			});
			for (const bad of [
				null,
				'send',
				{ type: 'eval', code: '1' },
				{ type: 'send' },
				{ type: 'send', form: { ...form, binding: 'soap13' } },
				{ type: 'send', form: { ...form, timeoutMs: 1e9 } },
				{ type: 'send', form: { ...form, params: { a: 1 } } },
				{ type: 'openWsdl', endpoint: '../etc' },
				{ type: 'historyOpen', id: 5 },
			]) {
				assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
			}
		});
	});
});
