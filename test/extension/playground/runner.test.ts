import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MultipostingClient } from '../../../src/client';
import { startEmulator, type RunningEmulator } from '../../../src/emulator';
import type { ConnectionInfo, WorkbenchServices } from '../../../src/extension/services';
import { secretValues, type OtherConnection } from '../../../src/extension/playground/connection';
import { libraryScenario } from '../../../src/emulator/scenarios/library';
import { newForm } from '../../../src/extension/playground/documents';
import { PlaygroundHistory, type HistoryStorage } from '../../../src/extension/playground/history';
import { PlaygroundRunner } from '../../../src/extension/playground/runner';
import { clientFor } from '../../integration/support';

/** Just enough of WorkbenchServices for the runner. */
function fakeServices(
	emulator: RunningEmulator,
	client: MultipostingClient,
	extra: Record<string, unknown> = {},
): WorkbenchServices {
	const info: ConnectionInfo = {
		id: 'sandbox',
		label: 'Sandbox',
		kind: 'sandbox',
		baseUrl: emulator.baseUrl,
		namespace: emulator.namespace,
		postingPath: '/SOAP/Posting.asmx',
		binding: 'soap11',
		culture: 'en-GB',
		username: emulator.demo.username,
	};
	const warnings: string[] = [];
	return {
		log: { warn: (message: string) => warnings.push(message), error: () => undefined, info: () => undefined },
		activeConnection: () => info,
		activeClient: async () => client,
		activeCredentials: async () => ({ ...emulator.demo, culture: 'en-GB' }),
		secretsForRedaction: async () => [emulator.demo.apiKey, emulator.demo.password],
		...extra,
	} as unknown as WorkbenchServices;
}

describe('playground runner against the sandbox', function () {
	this.timeout(60_000);
	let emulator: RunningEmulator;
	let client: MultipostingClient;
	let stored: string | undefined;
	const storage: HistoryStorage = { read: async () => stored, write: async (text) => void (stored = text) };

	before(async () => {
		emulator = await startEmulator({ host: '127.0.0.1', port: 0, dataDir: ':memory:' });
		client = clientFor(emulator, { credentials: { culture: 'en-GB' } });
	});
	after(async () => {
		await client?.close();
		await emulator?.stop();
	});

	it('takes the secrets from the services, with the connection username and culture as fallbacks', async () => {
		const values = await secretValues(fakeServices(emulator, client));
		assert.equal(values.apiKey, emulator.demo.apiKey);
		assert.equal(values.password, emulator.demo.password);
		const other = await secretValues(
			fakeServices(emulator, client, { activeCredentials: async () => ({ apiKey: 'other' }) }),
		);
		assert.deepEqual(
			{ apiKey: other.apiKey, username: other.username, culture: other.culture },
			{ apiKey: 'other', username: emulator.demo.username, culture: 'en-GB' },
		);
	});

	it('sends a form with the real credentials and keeps them out of the view and the history', async () => {
		const runner = new PlaygroundRunner(fakeServices(emulator, client), new PlaygroundHistory(storage));
		const outcome = await runner.send({ ...newForm('UserList'), binding: 'httpPost' });
		assert.deepEqual(outcome.problems, []);
		const response = outcome.response!;
		assert.equal(response.status, 200, response.bodyText.slice(0, 300));
		assert.ok(Array.isArray(response.result) && response.result.length > 0);
		for (const secret of [emulator.demo.apiKey, emulator.demo.password]) {
			assert.ok(!JSON.stringify(response).includes(secret), `the view contains ${secret}`);
			assert.ok(!(stored ?? '').includes(secret), `the history contains ${secret}`);
		}
		assert.match(response.request.body, /sAPIKey=\*\*\*/);
		const [latest] = await runner.history.search('UserList');
		assert.equal(latest.status, 200);
	});

	it('refuses to send a form that does not validate', async () => {
		const runner = new PlaygroundRunner(fakeServices(emulator, client), new PlaygroundHistory(storage));
		const outcome = await runner.send({ ...newForm('QueryJobTitle'), params: { q: 'a' } });
		assert.equal(outcome.response, undefined);
		assert.ok(
			outcome.problems.some((problem) => /q/.test(problem)),
			outcome.problems.join(' '),
		);
	});

	it('compares the four bindings and fetches the WSDL of both endpoints', async () => {
		const runner = new PlaygroundRunner(fakeServices(emulator, client), new PlaygroundHistory(storage));
		const { comparison } = await runner.compare(newForm('GetWeeksToAdvertise'));
		assert.deepEqual(
			comparison?.columns.map((column) => column.status),
			[200, 200, 200, 200],
		);
		assert.ok(comparison?.results.every((entry) => entry.equal));
		for (const endpoint of ['posting', 'administration'] as const) {
			const wsdl = await runner.fetchWsdl(endpoint);
			assert.match(wsdl, /<(wsdl:)?definitions/);
		}
	});

	it('compares a call with another connection (a second sandbox standing in for the live service)', async () => {
		const live = await startEmulator({
			host: '127.0.0.1',
			port: 0,
			dataDir: ':memory:',
			namespace: 'https://live.example.com/',
		});
		const liveClient = clientFor(live, { credentials: { culture: 'en-GB' } });
		const other: OtherConnection = {
			info: { ...fakeServices(live, liveClient).activeConnection(), id: 'live', label: 'Live' },
			target: { baseUrl: live.baseUrl, namespace: live.namespace, paths: liveClient.paths },
			values: { ...live.demo, apiKey: 'live-key-0123456789', culture: 'en-GB' },
			secrets: ['live-key-0123456789', live.demo.password],
			dispatcher: liveClient.dispatcher,
			close: async () => undefined,
		};
		live.scenarios.activate(libraryScenario('quota-exhausted-on-one-board')!);
		try {
			// The live key is its own: the sandbox's demo key is refused there.
			const runner = new PlaygroundRunner(fakeServices(emulator, client), new PlaygroundHistory(storage));
			const refused = await runner.compareWithConnection(newForm('UserFeedsAndQuotaWithDestinations'), other);
			assert.deepEqual(
				refused.comparison?.columns.map((column) => [column.key, column.label]),
				[
					['sandbox', 'Sandbox'],
					['live', 'Live'],
				],
			);
			assert.match(refused.comparison!.columns[1].summary, /^Fault /);
			assert.ok(!JSON.stringify(refused).includes('live-key-0123456789'), 'the other key is hidden');

			other.values.apiKey = live.demo.apiKey;
			const form = newForm('UserFeedsAndQuotaWithDestinations');
			const { comparison } = await runner.compareWithConnection(form, other);
			assert.equal(comparison?.kind, 'connections');
			const [result] = comparison!.results;
			assert.equal(result.equal, false);
			assert.ok(
				result.differences.some((line) => /^\[\d+\]\.PostingsUsed: "\d+" vs "\d+"$/.test(line)),
				result.differences.join('\n'),
			);
			assert.ok(!result.differences.some((line) => /FeedID|Date/.test(line)), 'identifiers and dates masked');
			assert.match(comparison!.columns[1].payload, /<FeedID>\[id\]<\/FeedID>/);
			assert.ok(comparison!.payloads[0].lines.some((line) => line.kind !== 'same'));

			live.scenarios.deactivate();
			const same = await runner.compareWithConnection(form, other);
			assert.deepEqual(same.comparison?.results[0].differences, []);
			assert.ok(same.comparison?.payloads[0].lines.every((line) => line.kind === 'same'));

			// A write's question comes once the call can be sent; declined, nothing is sent anywhere.
			const asked: string[] = [];
			const proceed = (answer: boolean) => async (): Promise<boolean> => {
				asked.push('asked');
				return answer;
			};
			const unsendable = await runner.compareWithConnection(newForm('ApplicationScore'), other, proceed(true));
			assert.deepEqual(asked, [], 'a form with an error is not questioned');
			assert.ok(unsendable.problems.length > 0 && !unsendable.comparison);
			const score = newForm('ApplicationScore');
			score.params = { ...score.params, sAdvertID: '999999', sAdvertCandidateID: '1', sScore: 'S' };
			const scores = (server: RunningEmulator): number =>
				server.journal?.list({ operation: 'ApplicationScore' }).length ?? 0;
			const declined = await runner.compareWithConnection(score, other, proceed(false));
			assert.deepEqual([asked, declined.declined, declined.comparison], [['asked'], true, undefined]);
			assert.deepEqual([scores(emulator), scores(live)], [0, 0], 'declined: sent to neither');
		} finally {
			live.scenarios.deactivate();
			await liveClient.close();
			await live.stop();
		}
	});

	it('fetches the WSDL within the connection time budget (multiposting.requestTimeoutMs)', async () => {
		// A service that accepts the connection and never answers.
		const sockets = new Set<Socket>();
		const silent = http.createServer(() => undefined);
		silent.on('connection', (socket) => sockets.add(socket));
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		const { port } = silent.address() as AddressInfo;
		const slow = new MultipostingClient({
			baseUrl: `http://127.0.0.1:${port}`,
			credentials: { apiKey: 'k' },
			timeoutMs: 1_000,
		});
		try {
			const runner = new PlaygroundRunner(fakeServices(emulator, slow), new PlaygroundHistory(storage));
			const started = Date.now();
			await assert.rejects(runner.fetchWsdl('posting'), /Timed out after 1000 ms/);
			assert.ok(Date.now() - started < 20_000);
			assert.equal(sockets.size, 1);
		} finally {
			await slow.close().catch(() => undefined);
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => silent.close(() => resolve()));
		}
	});
});
