import * as assert from 'node:assert/strict';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { descriptionLength, validateChoice } from '../../../src/emulator/web/completion';
import { safeReturnPath } from '../../../src/emulator/web/account';
import type { AdvertRow, FeedQuotaRow } from '../../../src/emulator/store/types';

describe('emulator web: completion rules and return paths', () => {
	let sandbox: Sandbox;
	let feeds: FeedQuotaRow[];
	let advert: AdvertRow;

	before(() => {
		sandbox = openSandbox({ dataDir: ':memory:', passwordCost: 1024, demoSize: { adverts: 10, applications: 20 } });
		feeds = sandbox.store.feeds.userQuotas(sandbox.store.accounts.userById(1)!);
		advert = sandbox.store.adverts.byId(1)!;
	});
	after(() => sandbox.close());

	const offer = (feed: FeedQuotaRow, used: number, quota: number) => ({
		feed,
		used,
		quota,
		forced: false,
		preselected: false,
	});

	it('refuses an empty choice', () => {
		assert.deepEqual(validateChoice(advert, []), [{ message: 'Choose at least one job board.' }]);
	});

	it('refuses a feed whose quota is used up, and accepts it with one posting left', () => {
		const feed = { ...feeds[0], descriptionMinLength: 0, descriptionMaxLength: 100_000 };
		const problems = validateChoice(advert, [offer(feed, 5, 5)]);
		assert.equal(problems.length, 1);
		assert.equal(problems[0].feedId, feed.id);
		assert.match(problems[0].message, /the posting quota is used up \(5 of 5\)/);
		assert.deepEqual(validateChoice(advert, [offer(feed, 4, 5)]), []);
	});

	it('checks the description against each feed, counting text only where HTML is not fully supported', () => {
		assert.equal(descriptionLength('<p>Hello &amp; bye</p>', 'None'), 11);
		assert.equal(descriptionLength('<p>Hi</p>', 'Full'), 9);
		const short = { ...advert, jobDescription: 'x'.repeat(50) };
		const strict = { ...feeds[0], descriptionMinLength: 100, descriptionMaxLength: 200 };
		assert.match(
			validateChoice(short, [offer(strict, 0, 10)])[0].message,
			/too short \(50 characters; at least 100\)/,
		);
		const long = { ...advert, jobDescription: 'x'.repeat(201) };
		assert.match(
			validateChoice(long, [offer(strict, 0, 10)])[0].message,
			/too long \(201 characters; at most 200\)/,
		);
	});

	it('follows only same-origin return paths', () => {
		assert.equal(safeReturnPath('/web/applications?page=2'), '/web/applications?page=2');
		assert.equal(safeReturnPath('/web/./adverts/../postings'), '/web/postings');
		for (const hostile of [
			'//evil.example/x',
			'https://evil.example/',
			'/\\evil.example',
			'javascript:alert(1)',
			'',
			null,
			'/web/ x',
			'/.//evil.example/x',
			'/..//evil.example/',
			'/%2e//evil.example/',
			'/a/../..//evil.example/',
		]) {
			assert.equal(safeReturnPath(hostile), '/web/', String(hostile));
		}
	});
});
