import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	ForbiddenCallbackTargetError,
	forbiddenTarget,
	isForbiddenAddress,
	refusingLookup,
} from '../../../src/emulator/callbacks/addressPolicy';
import {
	applicationCreatedPayload,
	CallbackNotifier,
	type CallbackEvent,
} from '../../../src/emulator/callbacks/notifier';

const PAYLOAD = applicationCreatedPayload({
	advertId: 1,
	advertCandidateId: 2,
	advertIdentifier: null,
	appliedAt: '2026-11-02T09:00:00Z',
	feedId: 108,
});

describe('callback targets: link-local and metadata addresses', function () {
	this.timeout(20_000);

	it('knows link-local and metadata addresses in their usual spellings', () => {
		for (const address of [
			'169.254.169.254',
			'169.254.0.1',
			'fe80::1',
			'FEBF::abcd',
			'[fe80::1]',
			'::ffff:169.254.169.254',
			'::ffff:a9fe:a9fe',
			'fd00:ec2::254',
			'100.100.100.200',
		]) {
			assert.equal(isForbiddenAddress(address), true, address);
		}
		for (const address of ['127.0.0.1', '::1', '10.0.0.5', '192.168.1.2', '169.253.1.1', 'fec0::1', '8.8.8.8']) {
			assert.equal(isForbiddenAddress(address), false, address);
		}
		for (const url of [
			'http://169.254.169.254/latest/meta-data/',
			'http://[fe80::1]:8080/x',
			'http://metadata.google.internal/computeMetadata/v1/',
			'http://METADATA.google.internal./x',
			'http://instance-data/latest/',
			'http://2852039166/',
			'http://0xA9FEA9FE/',
			'http://[::ffff:169.254.169.254]/',
		]) {
			assert.ok(forbiddenTarget(new URL(url)), url);
		}
		for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost/x', 'https://hooks.example.com/a']) {
			assert.equal(forbiddenTarget(new URL(url)), undefined, url);
		}
	});

	it('refuses a name that resolves to a forbidden address, checked on what was resolved', async () => {
		const fakeDns = (name: string) => (_host: string, _options: object, callback: (...args: unknown[]) => void) =>
			callback(
				null,
				name === 'rebound.example'
					? [{ address: '169.254.169.254', family: 4 }]
					: [{ address: '93.184.216.34', family: 4 }],
				undefined,
			);
		const lookup = (name: string) =>
			new Promise<unknown>((resolve) =>
				refusingLookup(fakeDns(name) as never)(name, { all: true }, (error, address) =>
					resolve(error ?? address),
				),
			);
		const refused = await lookup('rebound.example');
		assert.ok(refused instanceof ForbiddenCallbackTargetError);
		assert.match(refused.message, /rebound\.example resolves to 169\.254\.169\.254/);
		assert.deepEqual(await lookup('fine.example'), [{ address: '93.184.216.34', family: 4 }]);
	});

	it('refuses such callbacks without a connection, and logs why', async () => {
		const events: CallbackEvent[] = [];
		const notifier = new CallbackNotifier({ onEvent: (e) => events.push(e), retryDelaysMs: [] });
		notifier.notify('http://169.254.169.254/latest/meta-data/iam/security-credentials/', PAYLOAD);
		notifier.notify('http://metadata.google.internal/computeMetadata/v1/?recursive=true', PAYLOAD);
		await notifier.idle();
		assert.deepEqual(
			events.map((e) => [e.outcome, e.target, e.attempt]),
			[
				['refused', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', 0],
				['refused', 'http://metadata.google.internal/computeMetadata/v1/', 0],
			],
		);
		assert.match(
			events[0].error ?? '',
			/link-local or metadata address \(allow with --allow-link-local-callbacks\)/,
		);
	});

	it('still calls loopback receivers by name (the resolved address is checked and allowed)', async () => {
		let hits = 0;
		const server: Server = createServer((_req, res) => {
			hits++;
			res.writeHead(204).end();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const events: CallbackEvent[] = [];
			const notifier = new CallbackNotifier({ onEvent: (e) => events.push(e), retryDelaysMs: [] });
			notifier.notify(`http://localhost:${(server.address() as AddressInfo).port}/hook`, PAYLOAD);
			await notifier.idle();
			// localhost may resolve to ::1 first where nothing listens; either way it was not refused.
			assert.ok(
				events.every((e) => e.outcome !== 'refused'),
				JSON.stringify(events),
			);
			assert.ok(hits === 1 || events[0]?.outcome === 'gave-up');
		} finally {
			server.close();
		}
	});

	it('calls link-local targets when allowed', async () => {
		const events: CallbackEvent[] = [];
		const notifier = new CallbackNotifier({
			allowLinkLocal: true,
			onEvent: (e) => events.push(e),
			retryDelaysMs: [],
			timeoutMs: 300,
		});
		// Nothing answers there: the attempt is made and fails, it is not refused.
		notifier.notify('http://169.254.1.1:9/hook', PAYLOAD);
		await notifier.idle();
		assert.equal(events.length, 1);
		assert.equal(events[0].outcome, 'gave-up');
		assert.equal(events[0].attempt, 1);
	});
});
