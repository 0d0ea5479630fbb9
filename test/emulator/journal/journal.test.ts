import * as assert from 'node:assert/strict';
import { keptBody, Journal } from '../../../src/emulator/journal/journal';
import type { ExchangeCapture } from '../../../src/emulator/journal/types';
import type { RunningEmulator } from '../../../src/emulator/server';
import { SANDBOX_NAMESPACE } from '../../../src/emulator/endpoint';
import { allFields, API_KEY, envelope, fakeHandlers, send } from '../server/helpers';
import { detailed, listed, startJournaled } from './support';

function capture(overrides: Partial<ExchangeCapture> = {}): ExchangeCapture {
	return {
		startedAt: Date.parse('2026-11-25T10:00:00Z'),
		durationMs: 3,
		client: '127.0.0.1',
		method: 'GET',
		path: '/SOAP/Posting.asmx/GetCurrency',
		query: '',
		requestHeaders: {},
		status: 200,
		...overrides,
	};
}

describe('journal', () => {
	describe('the ring', () => {
		it('keeps the last N exchanges, newest first, with ids that keep counting after a clear', () => {
			const journal = new Journal({ capacity: 3 });
			for (let i = 0; i < 5; i++) journal.record(capture({ path: `/p${i}` }));
			assert.deepEqual(
				journal.list().map((entry) => [entry.id, entry.path]),
				[
					[3, '/p4'],
					[2, '/p3'],
					[1, '/p2'],
				],
			);
			assert.equal(journal.clear(), 3);
			journal.record(capture());
			assert.deepEqual(
				journal.list().map((entry) => entry.id),
				[4],
			);
		});

		it('drops the oldest exchanges once the kept text passes the byte cap', () => {
			const journal = new Journal({ capacity: 100, maxBytes: 64 * 1024, maxBodyChars: 20_000 });
			const body = new TextEncoder().encode('x'.repeat(10_000));
			for (let i = 0; i < 10; i++) journal.record(capture({ responseBody: body }));
			const stats = journal.stats();
			assert.ok(stats.bytes <= 64 * 1024, `kept ${stats.bytes} bytes`);
			assert.equal(stats.count, 3);
			assert.deepEqual(
				journal.list().map((entry) => entry.id),
				[10, 9, 8],
			);
		});

		it('keeps a large body as its head and tail, and says how much was cut', () => {
			const text = `HEAD${'m'.repeat(10_000)}TAIL`;
			const kept = keptBody(text, text.length, 1000);
			assert.ok(kept.text.startsWith('HEAD'));
			assert.ok(kept.text.endsWith('TAIL'));
			assert.match(
				kept.text,
				/… 9008 characters cut here: the journal keeps the head and the tail of a large body …/,
			);
			assert.deepEqual(kept.truncated, { headChars: 750, tailChars: 250, omittedChars: 9008 });
			assert.equal(kept.bytes, text.length);
			assert.deepEqual(keptBody('short', 5, 1000), { text: 'short', bytes: 5 });
		});

		it("keeps a cut body's characters as they were, a lone surrogate and non-Latin text included", () => {
			const text = `\uD800é€😀${'m'.repeat(10_000)}😀\uDC00`;
			const kept = keptBody(text, text.length, 1000);
			assert.ok(kept.text.startsWith('\uD800é€😀m'));
			assert.ok(kept.text.endsWith('m😀\uDC00'));
		});

		it('filters by operation, status (code or class), client, time, id and text', () => {
			const journal = new Journal();
			journal.record(capture({ operation: 'GetCurrency', status: 200, client: '127.0.0.1' }));
			journal.record(
				capture({
					operation: 'AddAdvert',
					status: 500,
					client: '::1',
					startedAt: Date.parse('2026-11-25T11:00:00Z'),
					responseBody: new TextEncoder().encode('Invalid API key.'),
				}),
			);
			const ids = (filter: Parameters<Journal['list']>[0]): number[] => journal.list(filter).map((e) => e.id);
			assert.deepEqual(ids({ operation: 'getcurrency' }), [1]);
			assert.deepEqual(ids({ status: '5xx' }), [2]);
			assert.deepEqual(ids({ status: '200' }), [1]);
			assert.deepEqual(ids({ client: '::1' }), [2]);
			assert.deepEqual(ids({ since: new Date('2026-11-25T10:30:00Z') }), [2]);
			assert.deepEqual(ids({ afterId: 1 }), [2]);
			assert.deepEqual(ids({ text: 'invalid api' }), [2]);
			assert.deepEqual(ids({ limit: 1 }), [2]);
		});
	});

	describe('in the sandbox', () => {
		let emulator: RunningEmulator;
		before(async () => {
			emulator = await startJournaled();
		});
		after(() => emulator.stop());
		beforeEach(() => send(`${emulator.baseUrl}/__admin/requests`, { method: 'DELETE' }));

		it('records a SOAP call with its client, binding, operation, SOAPAction, status, headers and bodies', async () => {
			const body = envelope(
				'1.1',
				'GetCurrency',
				SANDBOX_NAMESPACE,
				`<sCultureID>en-GB</sCultureID><sAPIKey>${API_KEY}</sAPIKey>`,
			);
			const answer = await send(emulator.postingUrl, {
				method: 'POST',
				headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${SANDBOX_NAMESPACE}GetCurrency"` },
				body,
			});
			assert.equal(answer.status, 200);
			const [entry] = await listed(emulator);
			assert.equal(entry.method, 'POST');
			assert.equal(entry.path, '/SOAP/Posting.asmx');
			assert.equal(entry.binding, 'soap11');
			assert.equal(entry.operation, 'GetCurrency');
			assert.equal(entry.soapAction, `${SANDBOX_NAMESPACE}GetCurrency`);
			assert.equal(entry.status, 200);
			assert.match(entry.client, /127\.0\.0\.1/);
			assert.ok(entry.request.body.text.includes('<sCultureID>en-GB</sCultureID>'));
			assert.equal(entry.response.body.text, answer.body);
			assert.match(entry.response.headers['content-type'], /text\/xml/);
			assert.equal(entry.fault, undefined);
		});

		it('records a fault with its code, subcode and message', async () => {
			await send(`${emulator.postingUrl}/GetCurrency?${allFields('GetCurrency', { sAPIKey: 'wrong-key' })}`);
			const [entry] = await listed(emulator);
			assert.equal(entry.status, 500);
			assert.deepEqual(
				{ code: entry.fault?.code, subcode: entry.fault?.subcode, message: entry.fault?.message },
				{ code: 'Client', subcode: 'AuthenticationFailed', message: 'Invalid API key.' },
			);
		});

		it('records an internal failure with its reason, which the client never sees', async () => {
			const failing = await startJournaled({
				handlers: {
					...fakeHandlers(),
					GetCurrency: () => {
						throw new Error('disk on fire');
					},
				},
			});
			try {
				const answer = await send(
					`${failing.postingUrl}/GetCurrency?${allFields('GetCurrency', { sAPIKey: API_KEY })}`,
				);
				assert.doesNotMatch(answer.body, /disk on fire/);
				const [entry] = await listed(failing);
				assert.equal(entry.internalReason, 'disk on fire');
				assert.equal(entry.fault?.code, 'Server');
			} finally {
				await failing.stop();
			}
		});

		it('answers one exchange by id, 404 for one it does not keep, and clears', async () => {
			await send(`${emulator.postingUrl}/GetCurrency?${allFields('GetCurrency', { sAPIKey: API_KEY })}`);
			const [entry] = await listed(emulator);
			assert.equal((await detailed(emulator, entry.id)).id, entry.id);
			const missing = await send(`${emulator.baseUrl}/__admin/requests/999999`);
			assert.equal(missing.status, 404);
			const cleared = await send(`${emulator.baseUrl}/__admin/requests`, { method: 'DELETE' });
			assert.deepEqual(JSON.parse(cleared.body), { cleared: 1 });
			assert.deepEqual(await listed(emulator), []);
		});

		it('filters the list through the query and refuses a bad filter with 400', async () => {
			await send(`${emulator.postingUrl}/GetCurrency?${allFields('GetCurrency', { sAPIKey: API_KEY })}`);
			await send(`${emulator.postingUrl}/GetCurrency?${allFields('GetCurrency', { sAPIKey: 'nope' })}`);
			assert.equal((await listed(emulator, 'status=500')).length, 1);
			assert.equal((await listed(emulator, 'operation=GetCurrency&limit=1')).length, 1);
			assert.equal((await listed(emulator, 'operation=AddAdvert')).length, 0);
			const bad = await send(`${emulator.baseUrl}/__admin/requests?status=teapot`);
			assert.equal(bad.status, 400);
			assert.match(bad.body, /status must be a status code/);
		});

		it('answers a long poll as soon as a newer exchange arrives', async () => {
			const meta = JSON.parse((await send(`${emulator.baseUrl}/__admin/requests`)).body) as {
				meta: { lastId: number };
			};
			const after = meta.meta.lastId;
			const poll = send(`${emulator.baseUrl}/__admin/requests?after=${after}&wait=20`);
			await send(`${emulator.postingUrl}/GetCurrency?${allFields('GetCurrency', { sAPIKey: API_KEY })}`);
			const answer = JSON.parse((await poll).body) as { requests: { id: number; operation: string }[] };
			assert.deepEqual(
				answer.requests.map((entry) => [entry.id, entry.operation]),
				[[after + 1, 'GetCurrency']],
			);
		});

		it('does not journal the control endpoint itself', async () => {
			await listed(emulator);
			await listed(emulator);
			assert.deepEqual(await listed(emulator), []);
		});
	});

	it('is not served when turned off', async () => {
		const emulator = await startJournaled({ journal: false });
		try {
			assert.equal(emulator.journal, undefined);
			assert.equal((await send(`${emulator.baseUrl}/__admin/requests`)).status, 404);
		} finally {
			await emulator.stop();
		}
	});
});
