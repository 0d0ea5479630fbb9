import * as assert from 'node:assert/strict';
import { Journal } from '../../../src/emulator/journal/journal';
import { RECENT_PARTS, REPEAT_HELD_BYTES, REPEAT_MAX_BYTES } from '../../../src/emulator/journal/repeats';
import type { ExchangeCapture, JournalEntry } from '../../../src/emulator/journal/types';

const KEY_ONE = 'first-api-key-7Hq2';
const KEY_TWO = 'second-api-key-9Wx4';
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

function soap(inner: string): string {
	return `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetCurrency xmlns="https://api.example.com/">${inner}</GetCurrency></soap:Body></soap:Envelope>`;
}

function capture(overrides: Partial<ExchangeCapture> = {}): ExchangeCapture {
	const body = soap(`<sCultureID>en-GB</sCultureID><sAPIKey>${KEY_ONE}</sAPIKey>`);
	return {
		startedAt: Date.parse('2026-11-27T10:00:00Z'),
		durationMs: 2,
		client: '127.0.0.1',
		method: 'POST',
		path: '/SOAP/Posting.asmx',
		query: '',
		requestHeaders: {
			'content-type': 'text/xml; charset=utf-8',
			soapaction: '"https://api.example.com/GetCurrency"',
		},
		requestBody: encode(body),
		binding: 'soap11',
		operation: 'GetCurrency',
		params: { sCultureID: 'en-GB', sAPIKey: KEY_ONE },
		status: 200,
		responseHeaders: { 'content-type': 'text/xml; charset=utf-8' },
		responseBody: encode(soap('<GetCurrencyResult>GBP</GetCurrencyResult>')),
		...overrides,
	};
}

/** Every captured exchange, through one journal. */
function journaled(captures: ExchangeCapture[]): JournalEntry[] {
	const journal = new Journal();
	for (const item of captures) journal.record(item);
	return journal.list().reverse();
}

/** What the exchange redacts to alone, in a journal that has seen nothing before. */
function alone(item: ExchangeCapture): Omit<JournalEntry, 'id'> {
	const { id: _id, ...rest } = journaled([item])[0];
	return rest;
}

function withoutId({ id: _id, ...rest }: JournalEntry): Omit<JournalEntry, 'id'> {
	return rest;
}

describe('journal: exchanges that repeat recent ones', () => {
	it('share the redacted parts of the first, frozen, with their own ids and times', () => {
		const [first, second] = journaled([capture(), capture({ startedAt: Date.parse('2026-11-27T10:00:01Z') })]);
		assert.equal(second.request, first.request, 'the request side is shared');
		assert.equal(second.response, first.response, 'the answer side is shared');
		assert.notEqual(second.id, first.id);
		assert.equal(second.time, '2026-11-27T10:00:01.000Z');
		assert.ok(Object.isFrozen(first.request) && Object.isFrozen(first.request.headers));
		assert.ok(Object.isFrozen(first.request.body) && Object.isFrozen(first.response.body));
		assert.ok(!first.request.body.text.includes(KEY_ONE));
	});

	it('do not share with a request whose decoded credentials differ, though its bytes are the same', () => {
		// The same bytes decoded to another key (another binding's rules): that key must be hidden too.
		const body = soap(`<sCultureID>${KEY_TWO}</sCultureID><sAPIKey>${KEY_ONE}</sAPIKey>`);
		const first = capture({ requestBody: encode(body) });
		const second = capture({ requestBody: encode(body), params: { sCultureID: 'en-GB', sAPIKey: KEY_TWO } });
		const [, entry] = journaled([first, second]);
		assert.ok(!JSON.stringify(entry).includes(KEY_TWO), 'the second exchange hides its own key');
		assert.deepEqual(withoutId(entry), alone(second));
	});

	it('do not share an answer redacted for other credentials', () => {
		// The answer echoes the second key: only the second exchange's redactor knows it.
		const echo = encode(soap(`<GetCurrencyResult>${KEY_TWO}</GetCurrencyResult>`));
		const first = capture({ responseBody: echo });
		const second = capture({
			requestBody: encode(soap(`<sCultureID>en-GB</sCultureID><sAPIKey>${KEY_TWO}</sAPIKey>`)),
			params: { sCultureID: 'en-GB', sAPIKey: KEY_TWO },
			responseBody: echo,
		});
		const [one, two] = journaled([first, second]);
		assert.ok(one.response.body.text.includes(KEY_TWO), 'not a secret of the first exchange');
		assert.ok(!two.response.body.text.includes(KEY_TWO), 'a secret of the second');
	});

	it('compare bytes, not buffers: a buffer written again after it was journaled is not taken for the same', () => {
		const journal = new Journal();
		const buffer = Buffer.from(soap(`<sCultureID>en-GB</sCultureID><sAPIKey>${KEY_ONE}</sAPIKey>`));
		journal.record(capture({ requestBody: buffer }));
		journal.flush();
		const other = soap(`<sCultureID>fr-FR</sCultureID><sAPIKey>${KEY_ONE}</sAPIKey>`);
		assert.equal(other.length, buffer.length);
		buffer.write(other, 'utf8');
		journal.record(capture({ requestBody: buffer, params: { sCultureID: 'fr-FR', sAPIKey: KEY_ONE } }));
		const [latest, earlier] = journal.list();
		assert.match(latest.request.body.text, /fr-FR/);
		assert.match(earlier.request.body.text, /en-GB/);
	});

	it('do not share when a header (name or value), the query or the binding differs', () => {
		const base = capture();
		const variants = [
			capture({ requestHeaders: { ...base.requestHeaders, 'x-trace': KEY_ONE } }),
			capture({
				requestHeaders: {
					'content-type': 'text/xml; charset=utf-8',
					'x-soapaction': '"https://api.example.com/GetCurrency"',
				},
			}),
			capture({ query: `sAPIKey=${KEY_ONE}` }),
			capture({ binding: 'soap12' }),
			capture({ responseHeaders: { 'content-type': 'text/xml; charset=utf-8', 'x-echo': KEY_ONE } }),
		];
		const entries = journaled([base, ...variants]);
		for (const [i, variant] of variants.entries()) {
			assert.deepEqual(withoutId(entries[i + 1]), alone(variant), `variant ${i}`);
			assert.ok(!JSON.stringify(entries[i + 1]).includes(KEY_ONE), `variant ${i} hides the key`);
		}
	});

	it('hold a bounded number of bytes for the comparison: large answers past the bound are redacted again', () => {
		const size = Math.floor(REPEAT_MAX_BYTES * 0.8);
		const count = Math.ceil(REPEAT_HELD_BYTES / size) + 1;
		assert.ok(count < RECENT_PARTS, 'the bytes, not the count, are the bound here');
		const answers = Array.from({ length: count }, (_, i) => encode(`${i}`.padEnd(size, 'x')));
		const journal = new Journal();
		for (const answer of [...answers, answers[count - 1], answers[0]]) {
			journal.record(capture({ responseBody: answer }));
		}
		const entries = journal.list().reverse();
		assert.equal(entries[count].response, entries[count - 1].response, 'the latest large answer is remembered');
		assert.notEqual(entries[count + 1].response, entries[0].response, 'the first was forgotten for its bytes');
		assert.deepEqual(entries[count + 1].response, entries[0].response);
	});

	it('give, in any order and beyond the remembered few, exactly what redacting each alone gives', () => {
		// A seeded mix of bodies, queries, headers, credentials and answers, more kinds than are remembered.
		let seed = 7;
		const pick = <T>(items: readonly T[]): T => {
			seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
			return items[seed % items.length];
		};
		const keys = [KEY_ONE, KEY_TWO, 'k3y', ''];
		const cultures = Array.from({ length: RECENT_PARTS + 4 }, (_, i) => `c${i}`);
		const captures = Array.from({ length: 400 }, () => {
			const key = pick(keys);
			const culture = pick(cultures);
			const body = soap(`<sCultureID>${culture}</sCultureID><sAPIKey>${key}</sAPIKey>`);
			return capture({
				requestBody: encode(body),
				params: pick([true, false]) ? { sCultureID: culture, sAPIKey: key } : undefined,
				query: pick(['', `sAPIKey=${pick(keys)}`]),
				requestHeaders: { 'content-type': 'text/xml', 'x-echo': pick(['plain', KEY_ONE, KEY_TWO]) },
				responseBody: encode(soap(`<GetCurrencyResult>${pick(['GBP', KEY_ONE, KEY_TWO])}</GetCurrencyResult>`)),
				responseHeaders: { 'content-length': pick([10, 20]) },
			});
		});
		const entries = journaled(captures);
		assert.equal(entries.length, captures.length);
		const shared = entries.filter(
			(entry, i) => i > 0 && entries.slice(0, i).some((e) => e.request === entry.request),
		);
		assert.ok(shared.length > 0, 'some requests repeated a recent one');
		for (const [i, entry] of entries.entries()) {
			assert.deepEqual(withoutId(entry), alone(captures[i]), `exchange ${i}`);
		}
	});
});
