import * as assert from 'node:assert/strict';
import { checkDrift, type DriftItem, type DriftTarget } from '../../src/client/driftCheck';
import type { RunningEmulator } from '../../src/emulator';
import { parseRecording, type Recording } from '../../src/protocol/recordings/format';
import { advertPage, LIVE_NAMESPACE, weeksWithUnqualifiedKey } from '../builders/liveRequests';
import { soap11Headers, startSandbox } from '../integration/support';

const usersEnvelope = (apiKey: string, username: string, password: string) => `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body>
    <UserList xmlns="${LIVE_NAMESPACE}">
      <sAPIKey>${apiKey}</sAPIKey>
      <sUsername>${username}</sUsername>
      <sPassword>${password}</sPassword>
    </UserList>
  </soap:Body>
</soap:Envelope>`;

function targetOf(sandbox: RunningEmulator): DriftTarget {
	return { baseUrl: sandbox.baseUrl, namespace: sandbox.namespace, paths: sandbox.serviceContext(undefined)!.paths };
}

function connectionOf(sandbox: RunningEmulator) {
	return { apiKey: sandbox.demo.apiKey, username: sandbox.demo.username, password: sandbox.demo.password };
}

const sentTo = (sandbox: RunningEmulator, operation: string): number =>
	sandbox.journal!.list({}).filter((entry) => entry.operation === operation).length;

const byOperation = (items: DriftItem[]): Record<string, DriftItem> =>
	Object.fromEntries(items.map((item) => [item.operation, item]));

describe('checkDrift', function () {
	this.timeout(120_000);
	/** The stand-in of the live service: loose, as the live service reads what a strict sandbox refuses. */
	let live: RunningEmulator;
	/** The same loose service: nothing drifts. */
	let identical: RunningEmulator;
	/** A strict sandbox in its own namespace: the unqualified sAPIKey drifts. */
	let strict: RunningEmulator;
	let recording: Recording;

	before(async () => {
		const options = { size: 'small' as const, passwordCost: 1024, seed: 3 };
		[live, identical, strict] = await Promise.all([
			startSandbox({ ...options, namespace: LIVE_NAMESPACE, loose: true }),
			startSandbox({ ...options, namespace: LIVE_NAMESPACE, loose: true }),
			startSandbox(options),
		]);
		const { apiKey, username, password } = live.demo;
		const soap = (path: string, body: string, headers: Record<string, string>) =>
			fetch(`${live.baseUrl}${path}`, { method: 'POST', headers, body });
		const calls: [string, () => Promise<Response>][] = [
			[
				'GetCurrency',
				() => fetch(`${live.baseUrl}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${apiKey}`),
			],
			[
				'GetWeeksToAdvertise',
				() =>
					soap(
						'/SOAP/Administration.asmx',
						weeksWithUnqualifiedKey(apiKey),
						soap11Headers(LIVE_NAMESPACE, 'GetWeeksToAdvertise'),
					),
			],
			[
				'GetAdvertPaged',
				() =>
					soap('/SOAP/Posting.asmx', advertPage(apiKey, '1.2'), {
						'content-type': `application/soap+xml; charset=utf-8; action="${LIVE_NAMESPACE}GetAdvertPaged"`,
					}),
			],
			[
				'UserList',
				() =>
					soap(
						'/SOAP/Administration.asmx',
						usersEnvelope(apiKey, username, password),
						soap11Headers(LIVE_NAMESPACE, 'UserList'),
					),
			],
			[
				'CandidateTag',
				() =>
					fetch(
						`${live.baseUrl}/SOAP/Posting.asmx/CandidateTag?sAPIKey=${apiKey}&sCandidateEmail=ada%40example.com&sCandidateFirstName=Ada&sCandidateLastName=Lovelace&Tag=drift-check`,
					),
			],
		];
		const ids: number[] = [];
		for (const [operation, call] of calls) {
			const answer = await call();
			await answer.arrayBuffer();
			if (operation !== 'CandidateTag') assert.equal(answer.status, 200, operation);
			const [newest] = live.journal!.list({ limit: 1 });
			assert.equal(newest.operation, operation);
			ids.push(newest.id);
		}
		const saved = await fetch(`${live.baseUrl}/__admin/recordings`, {
			method: 'POST',
			body: JSON.stringify({ ids }),
		});
		assert.equal(saved.status, 200);
		const text = ((await saved.json()) as { text: string }).text;
		assert.ok(!text.includes(apiKey) && !text.includes(password));
		recording = parseRecording(text, 'live.mprec.json');
		assert.equal(recording.exchanges.length, 5);
	});
	after(async () => {
		await Promise.all([live, identical, strict].map((sandbox) => sandbox?.stop()));
	});

	it('a recording checked against an identical sandbox has no drift; the write is not sent', async () => {
		const tagsBefore = sentTo(identical, 'CandidateTag');
		const progress: number[] = [];
		const report = await checkDrift(recording, targetOf(identical), connectionOf(identical), {
			onExchange: (_item, index, total) => progress.push(index, total),
		});
		assert.equal(report.target, identical.baseUrl);
		assert.deepEqual(report.counts, { compared: 4, drifted: 0, notSent: 1, errors: 0 });
		const items = byOperation(report.items);
		for (const operation of ['GetCurrency', 'GetWeeksToAdvertise', 'GetAdvertPaged', 'UserList']) {
			assert.equal(items[operation].outcome, 'same', `${operation}: ${JSON.stringify(items[operation].drift)}`);
			assert.deepEqual(items[operation].drift, []);
			assert.equal(items[operation].sandbox?.status, 200, operation);
		}
		assert.equal(items.CandidateTag.outcome, 'notSent');
		assert.match(items.CandidateTag.reason ?? '', /CandidateTag changes data: not sent/);
		assert.equal(items.CandidateTag.sandbox, undefined);
		assert.equal(sentTo(identical, 'CandidateTag'), tagsBefore);
		assert.deepEqual(progress, [0, 5, 1, 5, 2, 5, 3, 5, 4, 5]);
		// The recorded requests were sent with the target's own credentials, and are shown without them.
		for (const item of report.items.filter((one) => one.sent)) {
			assert.ok(!item.sent!.includes(identical.demo.apiKey), item.sent);
			assert.ok(!JSON.stringify(item.sandbox).includes(identical.demo.password));
		}
		assert.match(
			items.GetCurrency.sent ?? '',
			/^GET http:\/\/127\.0\.0\.1:\d+\/SOAP\/Posting\.asmx\/GetCurrency\?/,
		);
	});

	it('against a strict sandbox: the unqualified sAPIKey drifts (200 loose, 500 strict), there and only there', async () => {
		const report = await checkDrift(recording, targetOf(strict), connectionOf(strict));
		assert.deepEqual(report.counts, { compared: 4, drifted: 1, notSent: 1, errors: 0 });
		const items = byOperation(report.items);
		const weeks = items.GetWeeksToAdvertise;
		assert.equal(weeks.outcome, 'drift');
		assert.equal(weeks.recorded.status, 200);
		assert.equal(weeks.sandbox?.status, 500);
		assert.deepEqual(weeks.drift[0], { aspect: 'status', recorded: '200', sandbox: '500' });
		const outcome = weeks.drift.find((drift) => drift.aspect === 'outcome');
		assert.equal(outcome?.recorded, 'a result');
		assert.match(outcome?.sandbox ?? '', /^a fault/);
		for (const operation of ['GetCurrency', 'GetAdvertPaged', 'UserList']) {
			assert.equal(items[operation].outcome, 'same', `${operation}: ${JSON.stringify(items[operation].drift)}`);
		}
		// Sent in the strict sandbox's own namespace, which is not the recording's.
		assert.notEqual(strict.namespace, LIVE_NAMESPACE);
		assert.equal(items.CandidateTag.outcome, 'notSent');
	});

	it('writes are sent to the sandbox only when asked', async () => {
		const tagsBefore = sentTo(identical, 'CandidateTag');
		const liveTags = sentTo(live, 'CandidateTag');
		const report = await checkDrift(recording, targetOf(identical), connectionOf(identical), { writes: true });
		const tag = byOperation(report.items).CandidateTag;
		assert.notEqual(tag.outcome, 'notSent');
		assert.notEqual(tag.outcome, 'error');
		assert.ok(tag.sandbox);
		assert.equal(report.counts.notSent, 0);
		assert.equal(sentTo(identical, 'CandidateTag'), tagsBefore + 1);
		assert.equal(sentTo(live, 'CandidateTag'), liveTags);
	});

	it('a sandbox that does not answer: every read is an error, named', async () => {
		const stopped = await startSandbox({ size: 'small', passwordCost: 1024 });
		const target = targetOf(stopped);
		await stopped.stop();
		const report = await checkDrift(recording, target, connectionOf(identical), { timeoutMs: 10_000 });
		assert.deepEqual(report.counts, { compared: 0, drifted: 0, notSent: 1, errors: 4 });
		for (const item of report.items.filter((one) => one.outcome === 'error')) {
			assert.ok(item.reason && item.reason.length > 0);
			assert.equal(item.sandbox, undefined);
		}
	});

	it('stops when its signal aborts', async () => {
		const controller = new AbortController();
		controller.abort();
		const report = await checkDrift(recording, targetOf(identical), connectionOf(identical), {
			signal: controller.signal,
		});
		assert.deepEqual(report.items, []);
	});
});
