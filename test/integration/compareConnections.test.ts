import * as assert from 'node:assert/strict';
import { runRequestEntries, type RunOptions } from '../../src/client/requestFileRunner';
import type { RunningEmulator } from '../../src/emulator';
import { libraryScenario } from '../../src/emulator/scenarios/library';
import { DEFAULT_ENDPOINT_PATHS } from '../../src/protocol/catalogue';
import { formatDifference, withoutVaryingValues } from '../../src/protocol/compare';
import { parseRequestFileEntries } from '../../src/protocol/requestFile';
import { SANDBOX_START_TIMEOUT_MS, startSandbox } from './support';

const FILE = `# Multiposting request

### Currencies
operation: GetCurrency
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}

### Feeds and quota
operation: UserFeedsAndQuotaWithDestinations
binding: httpGet
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
param.sUsername: {{connection.username}}
param.sPassword: {{connection.password}}

### A wrong key
operation: GetCurrency
binding: soap12
param.sCultureID: en-GB
param.sAPIKey: not-a-key
`;

describe('request files: comparing two connections (a second sandbox stands in for the live service)', function () {
	this.timeout(SANDBOX_START_TIMEOUT_MS);
	let sandbox: RunningEmulator;
	let live: RunningEmulator;
	const connectionOf = (emulator: RunningEmulator) => ({
		target: { baseUrl: emulator.baseUrl, namespace: emulator.namespace, paths: DEFAULT_ENDPOINT_PATHS },
		connection: { ...emulator.demo },
	});

	before(async () => {
		sandbox = await startSandbox({ size: 'small', passwordCost: 1024 });
		live = await startSandbox({ size: 'small', passwordCost: 1024, namespace: 'https://live.example.com/' });
	});
	after(async () => {
		await sandbox?.stop();
		await live?.stop();
	});

	it('finds no difference where only identifiers, dates and the namespace differ', async () => {
		const options: RunOptions = { ...connectionOf(sandbox), compareWith: connectionOf(live) };
		const results = await runRequestEntries(parseRequestFileEntries(FILE).entries, options);
		assert.deepEqual(
			results.map((result) => [result.label, result.comparison?.differences.map(formatDifference)]),
			[
				['Currencies', []],
				['Feeds and quota', []],
				['A wrong key', []],
			],
		);
	});

	it('shows what the other service answers differently', async () => {
		live.scenarios.activate(libraryScenario('quota-exhausted-on-one-board')!);
		try {
			const options: RunOptions = { ...connectionOf(sandbox), compareWith: connectionOf(live) };
			const results = await runRequestEntries(parseRequestFileEntries(FILE).entries, options);
			const feeds = results[1].comparison?.differences.map(formatDifference) ?? [];
			assert.ok(
				feeds.some((line) => /^result\[\d+\]\.PostingsUsed: "\d+" vs "\d+"$/.test(line)),
				feeds.join('\n'),
			);
		} finally {
			live.scenarios.deactivate();
		}
	});

	it('masks identifiers, links and dates, and keeps the rest', () => {
		assert.deepEqual(
			withoutVaryingValues({
				AdvertID: 12,
				RedirectUrl: 'http://127.0.0.1:1/complete-posting/x',
				PostedDate: '2026-11-02T09:00:00Z',
				AdvertTitle: 'Nurse',
				Postings: [{ FeedID: 101, Status: 'Delivered' }],
			}),
			{
				AdvertID: '<id>',
				RedirectUrl: '<id>',
				PostedDate: '<date>',
				AdvertTitle: 'Nurse',
				Postings: [{ FeedID: '<id>', Status: 'Delivered' }],
			},
		);
	});
});
