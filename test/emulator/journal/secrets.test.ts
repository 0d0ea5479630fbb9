import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeJournalFile } from '../../../src/emulator/journal/file';
import { SANDBOX_NAMESPACE } from '../../../src/emulator/endpoint';
import type { RunningEmulator } from '../../../src/emulator/server';
import { echoedSecretForms, secretForms } from '../../../src/protocol/secretForms';
import { allFields, envelope, send } from '../server/helpers';
import { detailed, listed, newest, startJournaled } from './support';

// Every character some encoding changes: & < > " ' space + % / and a non-ASCII letter.
const API_KEY = `Zk9&<key>"q'+ /é%2Fend`;
const PASSWORD = `pw&<"x'> +%sé`;
const NS = SANDBOX_NAMESPACE;

function xmlForms(secret: string): string[] {
	return secretForms(secret).filter((form) => !/%|\+/.test(form) || form.includes('&'));
}

function percentForms(secret: string): string[] {
	return [
		encodeURIComponent(secret),
		encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
		new URLSearchParams({ v: secret }).toString().slice(2),
		new URLSearchParams({ v: secret }).toString().slice(2).replace(/\+/g, '%20'),
	];
}

/** Every text the journal can hand out: the list, each exchange with its verdict, the journal file. */
async function everythingServed(emulator: RunningEmulator, file: string): Promise<string> {
	const entries = await listed(emulator, 'limit=1000');
	const details = await Promise.all(entries.map((entry) => detailed(emulator, entry.id)));
	return JSON.stringify(entries) + JSON.stringify(details) + readFileSync(file, 'utf8');
}

describe('journal: secrets', () => {
	let emulator: RunningEmulator;
	let dir: string;
	let file: string;
	let journalFile: ReturnType<typeof writeJournalFile>;

	beforeEach(async () => {
		emulator = await startJournaled();
		dir = mkdtempSync(join(tmpdir(), 'mp-journal-'));
		file = join(dir, 'journal.jsonl');
		journalFile = writeJournalFile(file, emulator.journal!, emulator.verdictOf, (error) => {
			throw error;
		});
	});
	afterEach(async () => {
		await emulator.stop();
		rmSync(dir, { recursive: true, force: true });
	});

	async function assertNoSecret(count: number): Promise<void> {
		const [first] = await listed(emulator, 'limit=1');
		await detailed(emulator, first.id);
		await journalFile.close();
		const served = await everythingServed(emulator, file);
		assert.equal(readFileSync(file, 'utf8').trim().split('\n').length, count, 'one line per exchange');
		for (const secret of [API_KEY, PASSWORD]) {
			for (const form of secretForms(secret)) {
				assert.ok(!served.includes(form), `${JSON.stringify(form)} is served: ${served.slice(0, 2000)}`);
			}
		}
		assert.match(served, /\{\{connection\.apiKey\}\}/);
	}

	for (const form of xmlForms(API_KEY)) {
		it(`hides a key sent XML-escaped as ${JSON.stringify(form)} in SOAP 1.1 and SOAP 1.2, also echoed in another element`, async () => {
			const inner = `<sCultureID>${form}</sCultureID><sAPIKey>${form}</sAPIKey>`;
			await send(emulator.postingUrl, {
				method: 'POST',
				headers: { 'content-type': 'text/xml; charset=utf-8' },
				body: envelope('1.1', 'GetCurrency', NS, inner),
			});
			await send(emulator.postingUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/soap+xml; charset=utf-8' },
				body: envelope(
					'1.2',
					'GetCurrency',
					NS,
					inner
						.replace(/sAPIKey>/g, 'm:sAPIKey xmlns:m="urn:other">')
						.replace('</m:sAPIKey xmlns:m="urn:other">', '</m:sAPIKey>'),
				),
			});
			await assertNoSecret(2);
		});
	}

	for (const form of percentForms(API_KEY)) {
		it(`hides a key and a password sent percent-encoded as ${JSON.stringify(form)} in a GET query and a POST form`, async () => {
			const fields = allFields('GetCurrency')
				.replace('sAPIKey=', `sAPIKey=${form}`)
				.replace('sCultureID=', `sCultureID=${form}`);
			await send(`${emulator.postingUrl}/GetCurrency?${fields}`);
			const passwordForm = percentForms(PASSWORD)[percentForms(API_KEY).indexOf(form)];
			await send(`${emulator.adminUrl}/UserList`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: allFields('UserList')
					.replace('sAPIKey=', `sAPIKey=${form}`)
					.replace('sPassword=', `sPassword=${passwordForm}`),
			});
			await assertNoSecret(2);
		});
	}

	it('hides credentials in a request that cannot be decoded, in headers and in a password element', async () => {
		await send(emulator.postingUrl, {
			method: 'POST',
			headers: { 'content-type': 'text/xml; charset=utf-8' },
			// Not well-formed: the key is found in its element all the same.
			body: `<soap:Envelope><sAPIKey>${API_KEY.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</sAPIKey><sPassword>${PASSWORD.replace(/&/g, '&#38;').replace(/</g, '&#60;')}</sPassword>`,
		});
		await send(`${emulator.postingUrl}/GetCurrency?${allFields('GetCurrency', { sAPIKey: API_KEY })}`, {
			headers: {
				authorization: `Basic ${Buffer.from(`user:${PASSWORD}`).toString('base64')}`,
				'x-api-key': encodeURIComponent(API_KEY),
				cookie: 'session=abc',
			},
		});
		await assertNoSecret(2);
		const [withHeaders] = await listed(emulator, 'limit=1');
		assert.equal(withHeaders.request.headers.authorization, '[redacted]');
		assert.equal(withHeaders.request.headers.cookie, '[redacted]');
		assert.equal(withHeaders.request.headers['x-api-key'], '{{connection.apiKey}}');
	});
});

describe('journal: secrets echoed, short, many and beside a NUL', () => {
	let emulator: RunningEmulator;

	beforeEach(async () => {
		emulator = await startJournaled();
	});
	afterEach(() => emulator.stop());

	async function served(): Promise<string> {
		const entries = await listed(emulator, 'limit=1000');
		const details = await Promise.all(entries.map((entry) => detailed(emulator, entry.id)));
		return JSON.stringify(entries) + JSON.stringify(details);
	}

	function soap(inner: string): Promise<unknown> {
		return send(emulator.postingUrl, {
			method: 'POST',
			headers: { 'content-type': 'text/xml; charset=utf-8' },
			body: envelope('1.1', 'GetCurrency', NS, inner),
		});
	}

	it('hides a key echoed JSON-escaped, escaped twice and in base64 at every alignment, as [redacted]', async () => {
		const key = API_KEY.replace(/&/g, '&amp;').replace(/</g, '&lt;');
		for (const form of echoedSecretForms(API_KEY)) {
			await soap(`<sAPIKey>${key}</sAPIKey><sCultureID><![CDATA[${form}]]></sCultureID>`);
		}
		for (const offset of [0, 1, 2]) {
			const base64 = Buffer.from(`${'u'.repeat(offset)}:${API_KEY}:tail`).toString('base64');
			await soap(`<sAPIKey>${key}</sAPIKey><sCultureID>${base64}</sCultureID>`);
		}
		const text = await served();
		for (const form of [...secretForms(API_KEY), ...echoedSecretForms(API_KEY)]) {
			assert.ok(!text.includes(form), `${JSON.stringify(form)} is served`);
		}
		assert.match(text, /\[redacted\]/);
	});

	it('hides a short key where it stands as a whole token, not inside other words', async () => {
		await soap('<sAPIKey>k9x</sAPIKey><sCultureID>k9x ak9xb</sCultureID>');
		const entry = await newest(emulator);
		assert.match(entry.request.body.text, /<sCultureID>\{\{connection\.apiKey\}\} ak9xb<\/sCultureID>/);
		assert.doesNotMatch(JSON.stringify(entry), /[^a]k9x[^b]/);
	});

	it('hides every one of many different keys sent one after another', async () => {
		const keys = Array.from({ length: 80 }, (_, i) => `rotating-key-${i}-${(i * 7919).toString(36)}`);
		for (const key of keys) await soap(`<sAPIKey>${key}</sAPIKey><sCultureID>${key}</sCultureID>`);
		const text = await served();
		for (const key of keys) assert.ok(!text.includes(key), `${key} is served`);
	});

	it('keeps a body with a NUL whole, its secrets hidden, and the fields beside it in their places', async () => {
		await send(`${emulator.postingUrl}/GetCurrency?marker=query-side`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-note': 'header-side' },
			body: `sAPIKey=${encodeURIComponent(API_KEY)}&sCultureID=a\0b`,
		});
		const entry = await newest(emulator);
		assert.equal(entry.request.body.text, 'sAPIKey={{connection.apiKey}}&sCultureID=a\0b');
		assert.equal(entry.query, 'marker=query-side');
		assert.equal(entry.request.headers['x-note'], 'header-side');
		assert.equal(entry.contentType, 'application/x-www-form-urlencoded');
	});
});
