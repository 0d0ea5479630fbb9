/**
 * Posting under races, on a database file: a completion link completes exactly once however many
 * submissions race for it (bodies arriving 2-10 ms after their headers, as a double-click sends them),
 * and quota is checked and charged in the same transaction everywhere a posting is made, so racing
 * completions and express posts never spend more than the quota.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/emulator/store/engine';
import { MultipostingClient, SoapFaultError } from '../../src/client';
import type { OperationName, ParamsOf, ResultOf } from '../../src/protocol/catalogue';
import {
	clientFor,
	DEMO_CREDENTIALS,
	DEMO_PASSWORD,
	delay,
	rawRequest,
	SANDBOX_START_TIMEOUT_MS,
} from '../integration/support';

const CLI = join(__dirname, '../../src/emulator/cli.js');

/** The standalone sandbox in its own process, so its event loop is not the test's. */
async function startCli(dataDir: string): Promise<{ child: ChildProcess; baseUrl: string; namespace: string }> {
	const child = spawn(
		process.execPath,
		[CLI, '--port', '0', '--data', dataDir, '--size', 'small', '--clock', 'manual'],
		{
			stdio: ['ignore', 'pipe', 'ignore'],
		},
	);
	let stdout = '';
	child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	for (let i = 0; i < 600 && !stdout.includes('\n'); i++) {
		if (child.exitCode !== null) throw new Error(`the sandbox CLI exited with ${child.exitCode}`);
		await delay(100);
	}
	const ready = JSON.parse(stdout.split('\n')[0]) as { baseUrl: string; namespace: string };
	return { child, baseUrl: ready.baseUrl, namespace: ready.namespace };
}

async function stopCli(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.kill('SIGTERM');
	await exited;
}

/** Users whose own quota row for Totaljobs gets exactly one posting left; each races for it once. */
const LAST_UNIT = [
	{ userId: 7, username: 'london.recruiter', feedId: 108 },
	{ userId: 8, username: 'london.hiring', feedId: 108 },
	{ userId: 9, username: 'bristol.recruiter', feedId: 108 },
	{ userId: 10, username: 'group.user', feedId: 108 },
	{ userId: 6, username: 'leeds.recruiter', feedId: 108 },
	{ userId: 5, username: 'manchester.assistant', feedId: 108 },
] as const;
/** Body delays of the completions racing for the last unit, per user. */
const LAST_UNIT_DELAYS = [
	[2, 6, 10],
	[10, 2, 6],
	[2, 2, 2],
	[10, 10, 10],
	[30, 40, 50],
	[50, 30, 40],
] as const;
/** manchester.recruiter's own quota row for Reed gets exactly two postings left. */
const MANCHESTER = { userId: 4, username: 'manchester.recruiter', feedId: 103 };

const DESCRIPTION = 'A role with a clear description, long enough for every job board we post to. '.repeat(4);

describe('hardening: posting races and quota', function () {
	this.timeout(180_000);
	let dataDir: string;
	let sandbox: { child: ChildProcess; baseUrl: string; namespace: string } | undefined;
	const clients = new Map<string, MultipostingClient>();

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS * 2);
		dataDir = mkdtempSync(join(tmpdir(), 'mp-posting-races-'));
		// Seed the file, then give it known quota: generous everywhere, no forced feeds, no description limits,
		// and the few postings left that the quota tests race for.
		await stopCli((await startCli(dataDir)).child);
		const db = new Database(join(dataDir, 'sandbox.sqlite'));
		try {
			// The sandbox's file is in WAL mode without shared memory: only an exclusive connection opens it.
			db.exec('PRAGMA locking_mode = EXCLUSIVE');
			db.exec("UPDATE feed_quota SET effective_quota = '100000', force_selected = 0, restricted = 0");
			db.exec('UPDATE feed SET description_min_length = 0, description_max_length = 100000');
			// A user's own quota row for the feed (copied from the group's row) with `left` postings left.
			for (const [target, left] of [...LAST_UNIT.map((user) => [user, 1] as const), [MANCHESTER, 2] as const]) {
				db.run('DELETE FROM feed_quota WHERE user_id = ? AND feed_id = ?', [target.userId, target.feedId]);
				db.run(
					`INSERT INTO feed_quota (feed_id, organisation_id, user_id, currency_id, effective_quota, postings, slots, spend,
						postings_forward, default_selected, force_selected, restricted, auth1, auth2, auth3, auth4, auth5, auth_notes)
					SELECT feed_id, NULL, ?, currency_id, CAST((SELECT count(*) FROM posting WHERE user_id = ? AND feed_id = ?) + ? AS TEXT),
						postings, slots, spend, postings_forward, default_selected, 0, 0, auth1, auth2, auth3, auth4, auth5, auth_notes
					FROM feed_quota WHERE organisation_id = 1 AND feed_id = ?`,
					[target.userId, target.userId, target.feedId, left, target.feedId],
				);
			}
		} finally {
			db.close();
		}
		sandbox = await startCli(dataDir);
	});

	after(async () => {
		for (const client of clients.values()) await client.close();
		if (sandbox) await stopCli(sandbox.child);
		if (dataDir) rmSync(dataDir, { recursive: true, force: true });
	});

	/** A client logged in as a seeded user of the demo key (every seeded user shares the demo password). */
	function as(username: string): MultipostingClient {
		let client = clients.get(username);
		if (!client) {
			client = clientFor(
				{ ...sandbox!, demo: DEMO_CREDENTIALS },
				{ timeoutMs: 30_000, credentials: { username, password: DEMO_PASSWORD } },
			);
			clients.set(username, client);
		}
		return client;
	}

	function call<O extends OperationName>(
		operation: O,
		params: ParamsOf<O>,
		username: string = DEMO_CREDENTIALS.username,
	) {
		return as(username).call(operation, params) as Promise<ResultOf<O>>;
	}

	async function addAdvert(username: string, destinations: string): Promise<{ advertId: number; url: string }> {
		const result = await call(
			'AddAdvert',
			{ sJobTitle: 'Race condition analyst', sJobDescription: DESCRIPTION, DestinationsAsCSV: destinations },
			username,
		);
		return { advertId: result.AdvertID!, url: result.RedirectUrl! };
	}

	/** The form body that completes a posting to these feeds, with the page's CSRF token. */
	async function completionBody(url: string, feedIds: readonly number[]): Promise<string> {
		const page = await rawRequest(url);
		assert.equal(page.status, 200, page.body.slice(0, 300));
		const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1];
		assert.ok(csrf, 'the form carries a CSRF token');
		const form = new URLSearchParams({ csrf });
		for (const feedId of feedIds) form.append('feed', String(feedId));
		return form.toString();
	}

	/**
	 * POSTs forms concurrently as a browser does on a double-click: every request's headers are on the
	 * wire first, then each body follows after its `bodyDelayMs`. With `settled`, the bodies wait until
	 * a request sent after those headers has been answered: the sandbox reads ready connections in
	 * order, so by then it has read every submission's headers, and the race is certain rather than
	 * likely. Resolves with the statuses, in order.
	 */
	async function race(
		submissions: readonly { url: string; body: string; bodyDelayMs: number }[],
		settled = false,
	): Promise<number[]> {
		const started = submissions.map(({ url, body }) => {
			const req = httpRequest(url, {
				method: 'POST',
				agent: false,
				headers: {
					'content-type': 'application/x-www-form-urlencoded',
					'content-length': Buffer.byteLength(body),
				},
			});
			req.setTimeout(15_000, () => req.destroy(new Error('no answer within 15 s')));
			const status = new Promise<number>((resolve, reject) => {
				req.on('error', reject);
				req.on('response', (res) => {
					res.resume();
					res.on('end', () => resolve(res.statusCode ?? 0));
					res.on('error', reject);
				});
			});
			const onWire = new Promise<void>((resolve) =>
				req.once('socket', (socket) => (socket.connecting ? socket.once('connect', resolve) : resolve())),
			);
			req.flushHeaders();
			return { req, status, onWire };
		});
		await Promise.all(started.map((entry) => entry.onWire));
		if (settled) assert.equal((await rawRequest(`${sandbox!.baseUrl}/`)).status, 200);
		started.forEach(({ req }, i) => setTimeout(() => req.end(submissions[i].body), submissions[i].bodyDelayMs));
		return Promise.all(started.map((entry) => entry.status));
	}

	/** Postings of an advert (the manual clock delivers nothing, so each has one tracking row). */
	async function postings(advertId: number): Promise<{ postingId: number; feedId: number }[]> {
		const logs = await call('AdvertTrackingResponseLog', { sAdvertID: String(advertId) });
		const byPosting = new Map<number, number>();
		for (const log of logs) byPosting.set(log.PostingID!, log.FeedID!);
		return [...byPosting].map(([postingId, feedId]) => ({ postingId, feedId }));
	}

	async function quotaOf(target: { username: string; feedId: number }): Promise<{ used: number; quota: number }> {
		const feeds = await call(
			'UserFeedsAndQuotaWithDestinations',
			{ Destinations: [String(target.feedId)] },
			target.username,
		);
		assert.equal(feeds.length, 1);
		return { used: Number(feeds[0].PostingsUsed), quota: Number(feeds[0].EffectiveQuota) };
	}

	/** Body delays of each round: staggered and equal 2-10 ms, and a slow network (bodies 30-50 ms late). */
	const ROUNDS: readonly (readonly number[])[] = [
		[2, 6, 10],
		[6, 10, 2],
		[10, 2, 6],
		[2, 2, 2],
		[10, 10, 10],
		[30, 40, 50],
	];

	it('completes once when three submissions race, bodies 2-50 ms behind their headers; the others get 409', async () => {
		const feeds = [108, 101];
		const outcomes: string[] = [];
		let made = 0;
		for (const [round, delays] of [...ROUNDS, ...ROUNDS].entries()) {
			const { advertId, url } = await addAdvert(DEMO_CREDENTIALS.username, feeds.join(','));
			const body = await completionBody(url, feeds);
			const settled = round >= ROUNDS.length;
			const statuses = await race(
				delays.map((bodyDelayMs) => ({ url, body, bodyDelayMs })),
				settled,
			);
			const postingFeeds = (await postings(advertId)).map((posting) => posting.feedId).sort();
			made += postingFeeds.length;
			outcomes.push(
				`bodies ${delays.join('/')} ms${settled ? ', settled' : ''}: ${statuses.join(', ')} -> feeds ${postingFeeds.join(', ')}`,
			);
		}
		const expected = [...ROUNDS, ...ROUNDS].map(
			(delays, round) =>
				`bodies ${delays.join('/')} ms${round >= ROUNDS.length ? ', settled' : ''}: one 303, two 409 -> feeds ${[...feeds].sort().join(', ')}`,
		);
		const actual = outcomes.map((outcome) =>
			outcome.replace(/: ([\d, ]+) ->/, (_, list: string) => {
				const sorted = list.split(', ').sort().join(', ');
				return sorted === '303, 409, 409' ? ': one 303, two 409 ->' : `: ${list} ->`;
			}),
		);
		assert.deepEqual(actual, expected, `${made} postings for ${2 * ROUNDS.length * feeds.length} chosen`);
	});

	it('completes once on a double-click: two submissions, bodies 2-50 ms behind their headers', async () => {
		const pairs = [
			[2, 2],
			[10, 2],
			[2, 10],
			[5, 7],
			[30, 45],
			[45, 30],
		] as const;
		const outcomes: string[] = [];
		const expected: string[] = [];
		for (const settled of [false, true]) {
			for (const [first, second] of pairs) {
				const { advertId, url } = await addAdvert(DEMO_CREDENTIALS.username, '101');
				const body = await completionBody(url, [101]);
				const statuses = await race(
					[
						{ url, body, bodyDelayMs: first },
						{ url, body, bodyDelayMs: second },
					],
					settled,
				);
				const made = (await postings(advertId)).length;
				const label = `${first}/${second} ms${settled ? ', settled' : ''}`;
				outcomes.push(`${label}: ${[...statuses].sort().join(', ')}, ${made} posting(s)`);
				expected.push(`${label}: 303, 409, 1 posting(s)`);
			}
		}
		assert.deepEqual(outcomes, expected);
	});

	it('lets exactly one of three completions racing for the last unit of quota succeed', async () => {
		const outcomes: string[] = [];
		for (const [i, user] of LAST_UNIT.entries()) {
			const before = await quotaOf(user);
			assert.equal(before.quota - before.used, 1, `${user.username}: one posting left`);
			const adverts = await Promise.all([0, 1, 2].map(() => addAdvert(user.username, String(user.feedId))));
			const bodies = await Promise.all(adverts.map((advert) => completionBody(advert.url, [user.feedId])));
			const statuses = await race(
				adverts.map((advert, j) => ({ url: advert.url, body: bodies[j], bodyDelayMs: LAST_UNIT_DELAYS[i][j] })),
				i % 2 === 1,
			);
			const after = await quotaOf(user);
			outcomes.push(`${user.username}: ${[...statuses].sort().join(', ')}; ${after.used} of ${after.quota}`);
		}
		// One completion gets the unit; the others are told the quota is used up (422) and post nothing.
		const expected = await Promise.all(
			LAST_UNIT.map(async (user) => {
				const { quota } = await quotaOf(user);
				return `${user.username}: 303, 422, 422; ${quota} of ${quota}`;
			}),
		);
		assert.deepEqual(outcomes, expected);
	});

	it('charges ExpressPostAdvert against the owner quota and refuses it once the quota is spent', async () => {
		const before = await quotaOf(MANCHESTER);
		assert.equal(before.quota - before.used, 2, 'two postings left');
		const { advertId, url } = await addAdvert(MANCHESTER.username, String(MANCHESTER.feedId));
		assert.deepEqual(await race([{ url, body: await completionBody(url, [MANCHESTER.feedId]), bodyDelayMs: 2 }]), [
			303,
		]);
		const express = { sAdvertID: String(advertId) };
		await call('ExpressPostAdvert', express);
		assert.deepEqual(await quotaOf(MANCHESTER), { used: before.quota, quota: before.quota });
		const postedBefore = (await postings(advertId)).length;
		for (let i = 0; i < 3; i++) {
			await assert.rejects(call('ExpressPostAdvert', express), (error: unknown) => {
				assert.ok(error instanceof SoapFaultError, String(error));
				assert.equal(error.fault.subcode, 'QuotaExceeded', error.fault.message);
				assert.match(error.fault.message, /quota/i);
				return true;
			});
		}
		assert.equal((await postings(advertId)).length, postedBefore, 'a refused express post posts nothing');
		assert.deepEqual(await quotaOf(MANCHESTER), { used: before.quota, quota: before.quota });
	});
});
