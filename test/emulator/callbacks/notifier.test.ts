import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	applicationCreatedPayload,
	CallbackNotifier,
	type CallbackEvent,
} from '../../../src/emulator/callbacks/notifier';
import { startEmulator, type EmulatorEvent, type RunningEmulator } from '../../../src/emulator';
import { callGet, demoLogin, field } from '../web/helpers';

interface Receiver {
	url: string;
	received: { headers: IncomingMessage['headers']; body: string }[];
	close(): Promise<void>;
}

/** A loopback receiver; `answer` decides what to do with each request (never answering = slow). */
async function startReceiver(answer: (res: ServerResponse, count: number) => void): Promise<Receiver> {
	const received: Receiver['received'] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
			answer(res, received.length);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hooks/applications?token=secret-token`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

const PAYLOAD = applicationCreatedPayload({
	advertId: 12,
	advertCandidateId: 345,
	advertIdentifier: 'ACME-1',
	appliedAt: '2026-11-02T09:00:00Z',
	feedId: 108,
});

describe('emulator application callbacks', function () {
	this.timeout(20_000);
	const receivers: Receiver[] = [];
	afterEach(async () => {
		await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
	});

	it('POSTs the documented JSON payload once when the receiver answers 2xx', async () => {
		const receiver = await startReceiver((res) => res.writeHead(204).end());
		receivers.push(receiver);
		const events: CallbackEvent[] = [];
		const notifier = new CallbackNotifier({ onEvent: (event) => events.push(event) });
		notifier.notify(receiver.url, PAYLOAD);
		await notifier.idle();
		assert.equal(receiver.received.length, 1);
		assert.match(receiver.received[0].headers['content-type'] ?? '', /^application\/json/);
		assert.deepEqual(JSON.parse(receiver.received[0].body), {
			event: 'application.created',
			AdvertID: 12,
			AdvertCandidateID: 345,
			AdvertIdentifier: 'ACME-1',
			ApplicationDate: '2026-11-02T09:00:00Z',
			FeedID: 108,
			fetch: {
				operation: 'GetApplicationsPaged',
				parameters: { sAdvertID: '12', AdvertCandidateIDAsCSV: '345', CurrentPage: 1, RowsPerPage: 1 },
			},
		});
		assert.deepEqual(
			events.map((event) => [event.outcome, event.attempt, event.status]),
			[['delivered', 1, 204]],
		);
		assert.ok(
			events.every((event) => !event.target.includes('secret-token')),
			'query strings are not logged',
		);
	});

	it('retries a failing receiver a bounded number of times, then gives up', async () => {
		const receiver = await startReceiver((res, count) => res.writeHead(count < 3 ? 503 : 500).end('busy'));
		receivers.push(receiver);
		const events: CallbackEvent[] = [];
		const notifier = new CallbackNotifier({ retryDelaysMs: [20, 40], onEvent: (event) => events.push(event) });
		notifier.notify(receiver.url, PAYLOAD);
		await notifier.idle();
		assert.equal(receiver.received.length, 3);
		assert.deepEqual(
			events.map((event) => [event.outcome, event.attempt, event.status]),
			[
				['failed', 1, 503],
				['failed', 2, 503],
				['gave-up', 3, 500],
			],
		);
	});

	it('gives up on a receiver that is down', async () => {
		const receiver = await startReceiver((res) => res.end());
		await receiver.close();
		const events: CallbackEvent[] = [];
		const notifier = new CallbackNotifier({ retryDelaysMs: [10, 10], onEvent: (event) => events.push(event) });
		notifier.notify(receiver.url, PAYLOAD);
		await notifier.idle();
		assert.deepEqual(
			events.map((event) => event.outcome),
			['failed', 'failed', 'gave-up'],
		);
		assert.ok(events.every((event) => /ECONNREFUSED/.test(event.error ?? '')));
	});

	it('refuses URLs that are not http(s) and cancels waiting retries on stop', async () => {
		const events: CallbackEvent[] = [];
		const notifier = new CallbackNotifier({ retryDelaysMs: [60_000], onEvent: (event) => events.push(event) });
		notifier.notify('file:///etc/passwd', PAYLOAD);
		assert.deepEqual(
			events.map((event) => event.outcome),
			['refused'],
		);
		const receiver = await startReceiver((res) => res.writeHead(500).end());
		receivers.push(receiver);
		notifier.notify(receiver.url, PAYLOAD);
		for (let wait = 0; wait < 500 && events.length < 2; wait++) {
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		assert.deepEqual(
			events.map((event) => event.outcome),
			['refused', 'failed'],
		);
		notifier.stop();
		await notifier.idle();
		assert.equal(receiver.received.length, 1, 'no retry after stop');
	});

	describe('from the running emulator', () => {
		let emulator: RunningEmulator;
		const events: EmulatorEvent[] = [];
		before(async () => {
			emulator = await startEmulator({
				size: 'small',
				clock: 'manual',
				deliveryDelayMs: 1_000,
				passwordCost: 1024,
				callbackTimeoutMs: 300,
				callbackRetryDelaysMs: [50, 100],
				onEvent: (event) => events.push(event),
			});
		});
		after(() => emulator.stop());

		/** AddAdvert with a callback URL, completion through the form, delivery on the clock. */
		async function liveAdvertWithCallback(url: string, identifier: string): Promise<string> {
			const added = await callGet(emulator, 'posting', 'AddAdvert', {
				...demoLogin(emulator),
				sAdvertIdentifier: identifier,
				sJobTitle: 'Courier',
				sJobDescription: 'Deliver parcels around Leeds. '.repeat(12),
				DestinationsAsCSV: '101',
				sApplicationCallbackURL: url,
			});
			const page = await (await fetch(field(added, 'RedirectUrl')!)).text();
			const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
			const completed = await fetch(field(added, 'RedirectUrl')!, {
				method: 'POST',
				redirect: 'manual',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ csrf, feed: '101' }).toString(),
			});
			assert.equal(completed.status, 303);
			emulator.advance(1_000);
			return field(added, 'AdvertID')!;
		}

		it('notifies a receiver about a new application, which can then be fetched with the hinted call', async () => {
			const receiver = await startReceiver((res) => res.writeHead(200).end('ok'));
			receivers.push(receiver);
			const advertId = await liveAdvertWithCallback(receiver.url, 'CB-1');
			const arrived = emulator.simulateApplication(Number(advertId))!;
			await emulator.callbacksIdle();
			// The 300 ms attempt timeout (kept short for the slow-receiver test) can expire on a loaded
			// machine before the answer is read; a retry then carries the same payload. "Once on 2xx" is
			// the unit test's above.
			assert.ok(receiver.received.length >= 1);
			assert.ok(
				receiver.received.every((request) => request.body === receiver.received[0].body),
				'a retry repeats the payload',
			);
			const payload = JSON.parse(receiver.received[0].body) as typeof PAYLOAD;
			assert.equal(payload.AdvertID, Number(advertId));
			assert.equal(payload.AdvertCandidateID, arrived.advertCandidateId);
			assert.equal(payload.AdvertIdentifier, 'CB-1');
			assert.equal(payload.FeedID, arrived.feedId);
			assert.equal(payload.ApplicationDate, arrived.appliedAt);
			assert.ok(!/@|firstName|lastName/i.test(receiver.received[0].body), 'no personal data');
			const fetched = await callGet(emulator, 'posting', payload.fetch.operation, {
				sAPIKey: emulator.demo.apiKey,
				...Object.fromEntries(Object.entries(payload.fetch.parameters).map(([k, v]) => [k, String(v)])),
			});
			assert.equal(field(fetched, 'AdvertCandidateID'), String(arrived.advertCandidateId));
		});

		it('keeps answering while a slow receiver times out, and stops after the bounded retries', async () => {
			const receiver = await startReceiver(() => undefined);
			receivers.push(receiver);
			const advertId = await liveAdvertWithCallback(receiver.url, 'CB-2');
			const before = events.length;
			emulator.simulateApplication(Number(advertId));
			const currency = await callGet(emulator, 'posting', 'GetCurrency', { sAPIKey: emulator.demo.apiKey });
			assert.ok(currency.children.length > 0, 'the emulator answers while the callback waits');
			await emulator.callbacksIdle();
			const attempts = events.slice(before).filter((event): event is CallbackEvent => event.kind === 'callback');
			assert.deepEqual(
				attempts.map((event) => event.outcome),
				['failed', 'failed', 'gave-up'],
			);
			assert.ok(attempts.every((event) => /timed out after 300 ms/.test(event.error ?? '')));
			// An attempt aborted before the receiver read its body never shows there, so at most three.
			assert.ok(receiver.received.length <= 3, `${receiver.received.length} requests received`);
		});

		it('refuses a callback to the cloud metadata address without a connection, and logs why', async () => {
			const advertId = await liveAdvertWithCallback('http://169.254.169.254/latest/meta-data/', 'CB-3');
			const before = events.length;
			emulator.simulateApplication(Number(advertId));
			await emulator.callbacksIdle();
			const attempts = events.slice(before).filter((event): event is CallbackEvent => event.kind === 'callback');
			assert.deepEqual(
				attempts.map((event) => [event.outcome, event.attempt, event.target]),
				[['refused', 0, 'http://169.254.169.254/latest/meta-data/']],
			);
			assert.match(attempts[0].error ?? '', /--allow-link-local-callbacks/);
		});
	});
});
