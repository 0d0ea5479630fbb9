import * as assert from 'node:assert/strict';
import { createRedactor } from '../../../src/client/exchange';
import { PlaygroundHistory, type HistoryStorage } from '../../../src/extension/playground/history';
import { serializeRequestFile, type RequestDocument } from '../../../src/protocol/requestFile';
import { newForm } from '../../../src/shared/playgroundForms';
import type { PlaygroundForm } from '../../../src/shared/playgroundMessages';

const API_KEY = "k'ey/é";
const PASSWORD = 'pa ss&<x>"y';
const VALUES = { apiKey: API_KEY, password: PASSWORD, username: 'demo.admin', culture: 'en-GB' };
const FOREIGN_KEY = 'someone-elses-key-0042';

/** Every encoding of the password that the client's redactor knows (issue 15 item 11). */
const ENCODINGS: [string, string][] = [
	['as it is', PASSWORD],
	['upper-case %XX', encodeURIComponent(PASSWORD)],
	['lower-case %xx', encodeURIComponent(PASSWORD).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
	['form encoding with +', new URLSearchParams({ v: PASSWORD }).toString().slice(2)],
	[
		'lower-case form encoding',
		new URLSearchParams({ v: PASSWORD })
			.toString()
			.slice(2)
			.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
	],
	['named XML references', 'pa ss&amp;&lt;x&gt;&quot;y'],
	['&#38;-style decimal references', 'pa ss&#38;&#60;x&#62;&#34;y'],
	['&#x26;-style hex references', 'pa ss&#x26;&#x3c;x&#x3e;&#x22;y'],
	['hex references with upper-case digits', 'pa ss&#x26;&#x3C;x&#x3E;&#x22;y'],
];

function memoryStorage(): HistoryStorage & { text?: string } {
	const storage: HistoryStorage & { text?: string } = {
		read: async () => storage.text,
		write: async (text) => {
			storage.text = text;
		},
	};
	return storage;
}

function rawForm(target: string, body: string): PlaygroundForm {
	const form = newForm('GetCurrency');
	return { ...form, mode: 'raw', raw: { method: 'POST', target, headersText: 'X-Note: none', body } };
}

function rawDocument(target: string, body: string): RequestDocument {
	return {
		operation: 'GetCurrency',
		binding: 'soap11',
		endpoint: 'posting',
		params: {},
		raw: { method: 'POST', target, headers: [['Content-Type', 'text/xml']], body },
	};
}

async function storedHistory(form: PlaygroundForm): Promise<string> {
	const storage = memoryStorage();
	await new PlaygroundHistory(storage).add(form, undefined, VALUES);
	return storage.text ?? '';
}

describe('credentials in the history and in request files (one placeholder redactor)', () => {
	for (const [encoding, text] of ENCODINGS) {
		it(`the history stores a password written ${encoding} as its placeholder`, async () => {
			const stored = await storedHistory(rawForm(`/x?note=${text}`, `<Note>${text}</Note>`));
			assert.ok(!stored.includes(text), `${encoding} survives in the history:\n${stored}`);
			assert.ok(stored.includes('{{connection.password}}'), stored);
		});

		it(`a saved .mpreq holds a password written ${encoding} as its placeholder`, () => {
			const saved = serializeRequestFile(rawDocument(`/x?note=${text}`, `<Note>${text}</Note>`), VALUES);
			assert.ok(!saved.includes(text), `${encoding} survives in the request file:\n${saved}`);
			assert.ok(saved.includes('{{connection.password}}'), saved);
		});

		it(`the client's redactor hides a password written ${encoding}`, () => {
			const redacted = createRedactor([PASSWORD]).text(`<Note>${text}</Note>`);
			assert.equal(redacted, '<Note>***</Note>');
		});
	}

	it('the history stores a typed API key that is not the connection’s as the placeholder, in form and raw mode', async () => {
		const form = { ...newForm('GetCurrency'), params: { sAPIKey: FOREIGN_KEY, sCultureID: 'en-GB' } };
		const raw = rawForm(
			`/SOAP/Posting.asmx/GetCurrency?sAPIKey=${FOREIGN_KEY}&sCultureID=en-GB`,
			`<s:Body><tns:sAPIKey xmlns:tns="urn:x">${FOREIGN_KEY}</tns:sAPIKey><sPassword>other</sPassword></s:Body>`,
		);
		for (const stored of [await storedHistory(form), await storedHistory(raw)]) {
			assert.ok(!stored.includes(FOREIGN_KEY), stored);
			assert.ok(!stored.includes('>other<'), stored);
			assert.ok(stored.includes('{{connection.apiKey}}'), stored);
		}
		const storage = memoryStorage();
		const history = new PlaygroundHistory(storage);
		await history.add(form, undefined, VALUES);
		const [summary] = await history.search();
		assert.equal((await history.get(summary.id))?.form.params.sAPIKey, '{{connection.apiKey}}');
		assert.equal((await history.get(summary.id))?.form.params.sCultureID, 'en-GB');
	});

	it('a saved .mpreq holds a typed foreign key in a raw query or element as the placeholder', () => {
		const saved = serializeRequestFile(
			rawDocument(`/p?sAPIKey=${FOREIGN_KEY}`, `<sAPIKey>${FOREIGN_KEY}</sAPIKey><sCultureID>en</sCultureID>`),
			{},
		);
		assert.ok(!saved.includes(FOREIGN_KEY), saved);
		assert.ok(saved.includes('sAPIKey={{connection.apiKey}}'), saved);
		assert.ok(saved.includes('<sAPIKey>{{connection.apiKey}}</sAPIKey>'), saved);
		assert.ok(saved.includes('<sCultureID>en</sCultureID>'), saved);
	});
});
