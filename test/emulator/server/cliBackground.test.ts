import * as assert from 'node:assert/strict';
import { formatEvent, parseCliArgs } from '../../../src/emulator/cli';
import { eventLogLine } from '../../../src/emulator/logFormat';
import type { ProxyInfo } from '../../../src/emulator/proxy/proxy';

describe('emulator CLI: background options and event log', () => {
	it('parses size, clock, delivery, flaky feeds and live mode', () => {
		const command = parseCliArgs([
			'--size',
			'large',
			'--clock',
			'manual',
			'--clock-speed',
			'60',
			'--delivery-delay',
			'1500',
			'--flaky-feeds',
			'104,110',
			'--live',
			'--live-rate',
			'12',
		]);
		assert.equal(command.kind, 'start');
		if (command.kind !== 'start') return;
		assert.equal(command.options.size, 'large');
		assert.equal(command.options.clock, 'manual');
		assert.equal(command.options.clockSpeed, 60);
		assert.equal(command.options.deliveryDelayMs, 1500);
		assert.deepEqual(command.options.flakyFeedIds, [104, 110]);
		assert.equal(command.options.live, true);
		assert.equal(command.options.liveRatePerMinute, 12);
	});

	it('refuses bad values with a message', () => {
		for (const args of [
			['--clock', 'fast'],
			['--clock-speed', '0'],
			['--live-rate', '-1'],
			['--size', 'huge'],
			['--flaky-feeds', '104;x'],
			['--delivery-delay', '1.5'],
		]) {
			const command = parseCliArgs(args);
			assert.equal(command.kind, 'error', args.join(' '));
		}
	});

	it('logs events on one line each, with callback targets but never their query strings', () => {
		assert.equal(
			formatEvent({
				kind: 'delivery',
				postingId: 3,
				advertId: 2,
				feedId: 108,
				statusId: 2,
				response: 'Delivered: job board reference 123456.',
			}),
			'delivery posting=3 advert=2 feed=108 status=2 Delivered: job board reference 123456.',
		);
		assert.equal(
			formatEvent({
				kind: 'callback',
				target: 'http://127.0.0.1:9/hook',
				advertCandidateId: 7,
				attempt: 3,
				outcome: 'gave-up',
				error: 'connect ECONNREFUSED',
			}),
			'callback gave-up http://127.0.0.1:9/hook application=7 attempt=3 error=connect ECONNREFUSED',
		);
		assert.equal(
			formatEvent({
				kind: 'application',
				advertCandidateId: 9,
				advertId: 2,
				advertIdentifier: 'A-1',
				feedId: 101,
				appliedAt: '2026-11-02T09:00:00Z',
			}),
			'application 9 advert=2 feed=101',
		);
	});

	it('logs the proxy on and off, and a namespace it guessed as a warning with the note', () => {
		const info: ProxyInfo = {
			url: 'http://127.0.0.1:24818',
			postingUrl: 'http://127.0.0.1:24818/SOAP/Posting.asmx',
			adminUrl: 'http://127.0.0.1:24818/SOAP/Administration.asmx',
			upstream: 'https://api.example.com',
			namespace: 'https://api.example.com/ns/',
			namespaceFrom: 'wsdl',
			paths: { posting: '/SOAP/Posting.asmx', administration: '/SOAP/Administration.asmx' },
			timeoutMs: 60_000,
			startedAt: '2026-12-07T16:00:00.000Z',
		};
		assert.deepEqual(eventLogLine({ kind: 'proxy', info }), {
			level: 'info',
			text: 'proxy on: http://127.0.0.1:24818 forwards to https://api.example.com (namespace https://api.example.com/ns/, from its WSDL)',
		});
		const guessed = {
			...info,
			namespace: 'https://api.example.com/',
			namespaceFrom: 'base-url' as const,
			namespaceNote: 'the WSDL could not be read',
		};
		assert.deepEqual(eventLogLine({ kind: 'proxy', info: guessed }), {
			level: 'warn',
			text: "proxy on: http://127.0.0.1:24818 forwards to https://api.example.com (namespace https://api.example.com/, base URL + '/')\n  note: the WSDL could not be read",
		});
		assert.equal(
			formatEvent({ kind: 'proxy', info: { ...info, namespaceFrom: 'option' } }),
			'proxy on: http://127.0.0.1:24818 forwards to https://api.example.com (namespace https://api.example.com/ns/, as given)',
		);
		assert.deepEqual(eventLogLine({ kind: 'proxy', info: undefined }), {
			level: 'info',
			text: 'proxy off: requests to the live service no longer go through the sandbox',
		});
	});
});
