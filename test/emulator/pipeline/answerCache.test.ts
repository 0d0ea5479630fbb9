/** Kept answers of reads: served again only while nothing changed, never for faults, writes or leniencies. */
import * as assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/server';
import { AnswerCache, endOfSecond, type KeptAnswer } from '../../../src/emulator/pipeline/answerCache';
import { asmxQuery, demoLogin } from '../web/helpers';

function kept(bytes: number, changeCount = 1, validUntil = Infinity): KeptAnswer {
	return {
		operation: 'GetCurrency',
		answer: { status: 200, headers: { 'content-type': 'text/xml' }, body: new Uint8Array(bytes) },
		changeCount,
		validUntil,
	};
}

describe('AnswerCache', () => {
	it('holds an answer while the change count and the time allow, and drops it after', () => {
		const cache = new AnswerCache();
		cache.set('a', kept(10, 5, 2_000));
		assert.ok(cache.get('a', 5, 1_999));
		assert.equal(cache.get('a', 6, 1_999), undefined, 'a change of state makes it untrue');
		cache.set('b', kept(10, 5, 2_000));
		assert.equal(cache.get('b', 5, 2_000), undefined, 'its second is over');
		assert.deepEqual(cache.stats(), { entries: 0, bytes: 0, hits: 1, misses: 2 });
	});

	it('keeps at most its byte budget, forgetting the least recently used first', () => {
		const cache = new AnswerCache(100);
		cache.set('a', kept(40));
		cache.set('b', kept(40));
		assert.ok(cache.get('a', 1, 0), 'a is now the most recently used');
		cache.set('c', kept(40));
		assert.equal(cache.get('b', 1, 0), undefined);
		assert.ok(cache.get('a', 1, 0));
		assert.ok(cache.get('c', 1, 0));
		cache.set('huge', kept(101));
		assert.equal(cache.get('huge', 1, 0), undefined, 'an answer larger than the budget is not kept');
		assert.equal(cache.stats().bytes, 80);
	});

	it('keys a request by everything a binding decodes it from, and never by plain text', () => {
		const cache = new AnswerCache();
		const base = {
			method: 'POST',
			url: '/SOAP/Posting.asmx',
			contentType: 'text/xml; charset=utf-8',
			soapAction: '"https://api.example.com/GetCurrency"',
			body: new TextEncoder().encode('<sPassword>secret-password</sPassword>'),
		};
		const key = cache.keyOf(base);
		assert.equal(cache.keyOf({ ...base }), key);
		for (const change of [
			{ method: 'GET' },
			{ url: '/SOAP/Posting.asmx?x' },
			{ contentType: 'application/soap+xml' },
			{ soapAction: '"https://api.example.com/GetFeeds"' },
			{ body: new TextEncoder().encode('<sPassword>secret-passwore</sPassword>') },
		]) {
			assert.notEqual(cache.keyOf({ ...base, ...change }), key, JSON.stringify(Object.keys(change)));
		}
		assert.doesNotMatch(key, /secret/);
	});

	it('ends a clock-dependent answer at the end of its second', () => {
		assert.equal(endOfSecond(1_700_000_000_000), 1_700_000_001_000);
		assert.equal(endOfSecond(1_700_000_000_999), 1_700_000_001_000);
	});
});

describe('the sandbox with kept answers', () => {
	let emulator: RunningEmulator;

	beforeEach(async () => {
		emulator = await startEmulator({ dataDir: ':memory:', seed: 11, passwordCost: 1024 });
	});

	afterEach(() => emulator.stop());

	const get = async (operation: Parameters<typeof asmxQuery>[0], params: Record<string, string>) => {
		const response = await fetch(`${emulator.postingUrl}/${operation}?${asmxQuery(operation, params)}`);
		return { status: response.status, headers: response.headers, text: await response.text() };
	};

	it('answers the same read again from the cache, byte for byte', async () => {
		const params = { sAPIKey: emulator.demo.apiKey, sCultureID: 'en-GB' };
		const first = await get('GetCurrency', params);
		const hitsBefore = emulator.answerCacheStats()!.hits;
		const second = await get('GetCurrency', params);
		assert.equal(second.status, 200);
		assert.equal(second.text, first.text);
		assert.equal(emulator.answerCacheStats()!.hits, hitsBefore + 1);
	});

	it('runs a read in full after a write and shows what the write did', async () => {
		const login = demoLogin(emulator);
		const scope = { sAPIKey: login.sAPIKey, sUsername: login.sUsername };
		const one = { ...scope, sApplicationStartDateTime: '2000-01-01T00:00:00', CurrentPage: '1', RowsPerPage: '1' };
		const page = await get('GetApplicationsPaged', one);
		const advertId = /<AdvertID>(\d+)</.exec(page.text)![1];
		const candidateId = /<AdvertCandidateID>(\d+)</.exec(page.text)![1];
		const byId = { ...scope, AdvertCandidateIDAsCSV: candidateId, CurrentPage: '1', RowsPerPage: '1' };
		for (const [letter, ranking] of [
			['U', 'Unsuitable'],
			['S', 'Suitable'],
		]) {
			const score = await get('ApplicationScore', {
				...login,
				sAdvertID: advertId,
				sAdvertCandidateID: candidateId,
				sScore: letter,
			});
			assert.equal(score.status, 200, score.text);
			const read = await get('GetApplicationsPaged', byId);
			assert.match(read.text, new RegExp(`<Ranking>${ranking}</Ranking>`));
			const again = await get('GetApplicationsPaged', byId);
			assert.equal(again.text, read.text);
		}
	});

	it('never keeps a fault: failed logins are counted each time, up to the throttle', async () => {
		const wrong = { ...demoLogin(emulator), sPassword: 'not-the-password' };
		const answers = [];
		for (let i = 0; i < 4; i++) answers.push(await get('UserFeedsAndQuotaWithDestinations', wrong));
		assert.ok(answers.every((answer) => answer.status === 500));
		assert.doesNotMatch(answers[0].text, /Too many failed logins/);
		assert.match(answers[3].text, /Too many failed logins/);
		assert.equal(emulator.answerCacheStats()!.hits, 0);
	});

	it('runs a kept read in full again after a failed login changed the throttle', async () => {
		const good = demoLogin(emulator);
		await get('UserFeedsAndQuotaWithDestinations', good);
		await get('UserFeedsAndQuotaWithDestinations', good);
		const { hits, misses } = emulator.answerCacheStats()!;
		assert.equal(hits, 1);
		await get('UserFeedsAndQuotaWithDestinations', { ...good, sPassword: 'wrong' });
		const after = await get('UserFeedsAndQuotaWithDestinations', good);
		assert.equal(after.status, 200);
		assert.equal(emulator.answerCacheStats()!.hits, hits, 'not served from the cache');
		assert.equal(emulator.answerCacheStats()!.misses, misses + 2);
	});

	it('keeps an answer that read the clock only until the end of its second', async () => {
		// The default search window (sSearchDays) is counted back from now.
		const windowed = {
			sAPIKey: emulator.demo.apiKey,
			sUsername: emulator.demo.username,
			CurrentPage: '1',
			RowsPerPage: '1',
		};
		const timeless = { sAPIKey: emulator.demo.apiKey, sCultureID: 'en-GB' };
		await get('GetAdvertPaged', windowed);
		await get('GetCurrency', timeless);
		await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
		const { hits } = emulator.answerCacheStats()!;
		await get('GetAdvertPaged', windowed);
		assert.equal(emulator.answerCacheStats()!.hits, hits, 'the windowed search ran again');
		await get('GetCurrency', timeless);
		assert.equal(emulator.answerCacheStats()!.hits, hits + 1, 'the currency list did not read the clock');
	});

	it('forgets every kept answer on reset', async () => {
		await get('GetCurrency', { sAPIKey: emulator.demo.apiKey, sCultureID: 'en-GB' });
		assert.ok(emulator.answerCacheStats()!.entries > 0);
		await emulator.reset();
		assert.equal(emulator.answerCacheStats()!.entries, 0);
	});
});

describe('the sandbox without kept answers', () => {
	it('runs every request when the cache is off', async () => {
		const emulator = await startEmulator({ dataDir: ':memory:', seed: 11, passwordCost: 1024, answerCache: false });
		try {
			const url = `${emulator.postingUrl}/GetCurrency?${asmxQuery('GetCurrency', { sAPIKey: emulator.demo.apiKey })}`;
			assert.equal((await fetch(url)).status, 200);
			assert.equal(emulator.answerCacheStats(), undefined);
		} finally {
			await emulator.stop();
		}
	});

	it('never keeps an answer given with a leniency, so every one carries its warning', async () => {
		const emulator = await startEmulator({ dataDir: ':memory:', seed: 11, passwordCost: 1024, loose: true });
		try {
			// sCultureID missing: ASMX refuses it, loose mode accepts it with a warning.
			const url = `${emulator.postingUrl}/GetCurrency?sAPIKey=${encodeURIComponent(emulator.demo.apiKey)}`;
			for (let i = 0; i < 2; i++) {
				const response = await fetch(url);
				assert.equal(response.status, 200);
				assert.match(response.headers.get('x-sandbox-warning') ?? '', /production would refuse/);
			}
			assert.equal(emulator.answerCacheStats()!.hits, 0);
		} finally {
			await emulator.stop();
		}
	});
});
