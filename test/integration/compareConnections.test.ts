import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runRequestEntries, type RunOptions } from '../../src/client/requestFileRunner';
import type { RunningEmulator } from '../../src/emulator';
import { libraryScenario } from '../../src/emulator/scenarios/library';
import { DEFAULT_ENDPOINT_PATHS } from '../../src/protocol/catalogue';
import { formatDifference, payloadWithoutVaryingValues, withoutVaryingValues } from '../../src/protocol/compare';
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

	it('sends the second connection the values captured from its own answers when writes are asked for, plain HTTP requests included', async () => {
		// The live service has numbered an advert already: its AdvertIDs differ from the sandbox's.
		const file = readFileSync(
			join(__dirname, '..', '..', '..', 'examples', 'post-advert-and-complete.mpreq'),
			'utf8',
		);
		const entries = parseRequestFileEntries(file).entries;
		const [earlier] = await runRequestEntries(entries, connectionOf(live), [0]);
		assert.equal(earlier.status, 'passed', earlier.problems.join('\n'));

		const options: RunOptions = { ...connectionOf(sandbox), compareWith: { ...connectionOf(live), writes: true } };
		const results = await runRequestEntries(entries, options);
		const liveAdvertId = results[0].comparison?.exchange?.response?.body.match(/<AdvertID>(\d+)</)?.[1];
		assert.ok(liveAdvertId && liveAdvertId !== results[0].captured.advertId, 'the two services numbered apart');
		assert.deepEqual(
			results.map((result) => [
				result.label,
				result.status,
				result.comparison?.problem ?? result.comparison?.differences.map(formatDifference),
			]),
			[
				['Post an advert', 'passed', []],
				['Open the completion page', 'passed', []],
				['Choose a job board and confirm', 'passed', []],
				['The advert is waiting for delivery', 'passed', []],
				['Wait until the job board has answered', 'passed', []],
				['Completing it twice is refused', 'passed', []],
			],
		);
	});

	it('sends no write to the second connection unless asked, nor what needs what a write captured', async () => {
		const file = readFileSync(
			join(__dirname, '..', '..', '..', 'examples', 'post-advert-and-complete.mpreq'),
			'utf8',
		);
		const entries = parseRequestFileEntries(file).entries;
		const addAdverts = (): number => live.journal?.list({ operation: 'AddAdvert' }).length ?? 0;
		const before = addAdverts();
		const options: RunOptions = { ...connectionOf(sandbox), compareWith: connectionOf(live) };
		const results = await runRequestEntries(entries, options);
		assert.equal(addAdverts(), before, 'no AddAdvert reached the second connection');
		assert.deepEqual(
			results.map((result) => [result.label, result.status, result.comparison?.notSent?.replace(/ .*/, '')]),
			[
				['Post an advert', 'passed', 'AddAdvert'],
				['Open the completion page', 'passed', 'it'],
				['Choose a job board and confirm', 'passed', 'it'],
				['The advert is waiting for delivery', 'passed', 'it'],
				['Wait until the job board has answered', 'passed', 'it'],
				['Completing it twice is refused', 'passed', 'it'],
			],
		);
		assert.match(results[0].comparison?.notSent ?? '', /^AddAdvert changes data, and writes are not sent/);
		assert.match(results[3].comparison?.notSent ?? '', /needs \{\{advertId\}\}, which AddAdvert captures/);
		assert.ok(results.every((result) => result.comparison?.differences.length === 0 && !result.comparison.problem));
	});

	it('does not send a read that uses a name a write not sent would have captured again', async () => {
		const file = `# Multiposting request

### Currencies
operation: GetCurrency
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
capture: advertId = result.length

### Post an advert
operation: AddAdvert
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
param.sUsername: {{connection.username}}
param.sPassword: {{connection.password}}
param.sAdvertIdentifier: COMPARE-STALE
param.sOnDuplicate: duplicate
param.sJobTitle: Staff Nurse
param.sJobType: P
param.sJobHours: F
param.sPrimaryLocation: Leeds
param.sContactEmail: jobs@example.com
param.sJobDescription: "A ward nurse for a friendly surgical team, full training and a clear path to promotion, shifts planned ahead."
capture: advertId = result.AdvertID

### The advert
operation: GetAdvertPaged
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
param.sAdvertID: {{advertId}}
param.sSearchDays: -1
param.CurrentPage: 1
param.RowsPerPage: 10
`;
		const options: RunOptions = { ...connectionOf(sandbox), compareWith: connectionOf(live) };
		const results = await runRequestEntries(parseRequestFileEntries(file).entries, options);
		assert.equal(results[1].status, 'passed', results[1].problems.join('\n'));
		assert.equal(results[0].comparison?.notSent, undefined, 'the read went to both');
		assert.match(results[1].comparison?.notSent ?? '', /^AddAdvert changes data/);
		// The second connection holds the read's advertId, but the write would have replaced it.
		assert.match(results[2].comparison?.notSent ?? '', /needs \{\{advertId\}\}, which AddAdvert captures/);
	});

	it('masks identifiers, links and dates, and keeps codes, texts and counts', () => {
		assert.deepEqual(
			withoutVaryingValues({
				AdvertID: 12,
				AdvertStatusID: 3,
				CultureID: 'en-GB',
				ProgressID: 4,
				RedirectUrl: 'http://127.0.0.1:1/complete-posting/x',
				PostedDate: '2026-11-02T09:00:00Z',
				sLastPostDate: '27/11/2026 12:41:52',
				AdvertTitle: 'Nurse',
				Postings: [{ FeedID: 101, Status: 'Delivered', FeedTypeID: 1 }],
			}),
			{
				AdvertID: '<id>',
				AdvertStatusID: 3,
				CultureID: 'en-GB',
				ProgressID: 4,
				RedirectUrl: '<id>',
				PostedDate: '<date>',
				sLastPostDate: '<date>',
				AdvertTitle: 'Nurse',
				Postings: [{ FeedID: '<id>', Status: 'Delivered', FeedTypeID: 1 }],
			},
		);
	});

	it('masks the same values in a payload, and the namespace', () => {
		const payload = [
			'<Advert>',
			'  <AdvertID>12</AdvertID>',
			'  <AdvertStatusID>3</AdvertStatusID>',
			'  <LastPostDate>2026-11-02T09:00:00Z</LastPostDate>',
			'  <sLastPostDate>27/11/2026 12:41:52</sLastPostDate>',
			'  <LastDeliveryDate xsi:nil="true" />',
			'  <AdvertTitle>Nurse</AdvertTitle>',
			'  <Detail>see https://live.example.com/ for more</Detail>',
			'</Advert>',
		].join('\n');
		assert.equal(
			payloadWithoutVaryingValues(payload, 'https://live.example.com/'),
			[
				'<Advert>',
				'  <AdvertID>[id]</AdvertID>',
				'  <AdvertStatusID>3</AdvertStatusID>',
				'  <LastPostDate>[date]</LastPostDate>',
				'  <sLastPostDate>[date]</sLastPostDate>',
				'  <LastDeliveryDate xsi:nil="true" />',
				'  <AdvertTitle>Nurse</AdvertTitle>',
				'  <Detail>see [namespace] for more</Detail>',
				'</Advert>',
			].join('\n'),
		);
	});
});
