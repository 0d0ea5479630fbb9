import * as assert from 'node:assert/strict';
import { DOCUMENT_TYPE } from '../../../src/protocol/catalogue';
import { DOCUMENTED_APPLICATIONS } from '../../../src/emulator/domain/seed';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { parseSize, resolveSize } from '../../../src/emulator/size';
import type { AdvertSearch } from '../../../src/emulator/store/adverts';
import type { ApplicationSearch } from '../../../src/emulator/store/applications';
import type { SqlValue } from '../../../src/emulator/store/database';
import type { StatementCache } from '../../../src/emulator/store/statements';

/** A full scan of the big tables; lookups of small tables by rowid are fine. */
const FULL_SCAN = /^SCAN (a|ap|advert|application|c|candidate)\b/;

describe('emulator scale: bounded seeding and indexed searches', function () {
	this.timeout(120_000);
	let sandbox: Sandbox;
	let organisations: readonly number[];

	before(() => {
		sandbox = openSandbox({
			dataDir: ':memory:',
			passwordCost: 1024,
			demoSize: { adverts: 1_000, applications: 12_000 },
		});
		organisations = sandbox.store.accounts.subtreeIds(1);
	});
	after(() => sandbox.close());

	it('seeds across several batches, with documents only for the first applications', () => {
		const counts = sandbox.store.counts();
		assert.equal(counts.application, 12_000);
		assert.equal(counts.advert, 1_000);
		assert.equal(
			sandbox.store.applications.documents([DOCUMENTED_APPLICATIONS], [DOCUMENT_TYPE.Attachment]).length,
			1,
		);
		assert.equal(
			sandbox.store.applications.documents(
				[DOCUMENTED_APPLICATIONS + 1, 11_000],
				[DOCUMENT_TYPE.Attachment, DOCUMENT_TYPE.EmailBody],
			).length,
			0,
		);
		assert.equal(counts.application_document, DOCUMENTED_APPLICATIONS * 4);
	});

	it('answers every documented advert filter without a full scan', () => {
		const searches: AdvertSearch[] = [
			{ organisationIds: organisations, advertId: 5 },
			{ organisationIds: organisations, identifier: 'ACME-1005' },
			{ organisationIds: organisations, reference: 'REF/2026/0005' },
			{ organisationIds: organisations, since: '2026-11-01T00:00:00Z', statusIds: [0, 16] },
			{ organisationIds: organisations, userId: 4, since: '2026-11-01T00:00:00Z' },
			{ organisationIds: organisations, lastScoreSince: '2026-11-20T00:00:00Z' },
			{ organisationIds: organisations, lastProgressSince: '2026-11-20T00:00:00Z' },
		];
		for (const search of searches) {
			const plan = sandbox.store.adverts.explainSearch(search);
			assert.ok(
				plan.every((line) => !FULL_SCAN.test(line)),
				`${JSON.stringify(search)}: ${plan.join(' | ')}`,
			);
		}
	});

	it('answers every documented application filter without a full scan, using the filter column index', () => {
		const searches: [ApplicationSearch, RegExp][] = [
			[{ organisationIds: organisations, advertId: 5 }, /application_advert/],
			[{ organisationIds: organisations, advertIdentifier: 'ACME-1005' }, /advert_identifier/],
			[{ organisationIds: organisations, advertReference: 'REF/2026/0005' }, /advert_reference/],
			[
				{ organisationIds: organisations, appliedFrom: '2026-11-20T00:00:00Z' },
				/COVERING INDEX application_organisation_applied/,
			],
			// Feed, ranking and progress, alone or with a date range: counted inside their index (migration 7).
			[{ organisationIds: organisations, feedIds: [101, 102] }, /COVERING INDEX application_feed/],
			[
				{ organisationIds: organisations, feedIds: [101, 102], appliedFrom: '2026-11-20T00:00:00Z' },
				/COVERING INDEX application_(feed|organisation_applied)/,
			],
			[{ organisationIds: organisations, rankings: [1, 2] }, /COVERING INDEX application_ranking/],
			[{ organisationIds: organisations, progressIds: [2] }, /COVERING INDEX application_progress/],
			// "All time": a start date before every application is left out, so the index range is counted as is.
			[
				{
					organisationIds: organisations,
					lastScoreSince: '2026-10-01T00:00:00Z',
					appliedFrom: '2000-01-01T00:00:00Z',
				},
				/COVERING INDEX application_last_score \(organisation_id=\? AND last_score_date>\?\)$/,
			],
			[{ organisationIds: organisations, applicationIds: [1, 2, 3] }, /SEARCH ap USING INTEGER PRIMARY KEY/],
			[{ organisationIds: organisations, lastScoreSince: '2026-11-20T00:00:00Z' }, /application_last_score/],
			[
				{ organisationIds: organisations, lastProgressSince: '2026-11-20T00:00:00Z' },
				/application_last_progress/,
			],
			[{ organisationIds: organisations, userId: 4 }, /advert_user/],
		];
		for (const [search, index] of searches) {
			const plan = sandbox.store.applications.explainSearch(search);
			assert.ok(
				plan.every((line) => !FULL_SCAN.test(line)),
				`${JSON.stringify(search)}: ${plan.join(' | ')}`,
			);
			assert.ok(
				plan.some((line) => index.test(line)),
				`${JSON.stringify(search)} uses ${index}: ${plan.join(' | ')}`,
			);
		}
	});

	it('leaves out a date bound that every application of the scope meets, and keeps one that some do not', () => {
		const sql = (sandbox.store.applications as unknown as { sql: StatementCache }).sql;
		const counts: string[] = [];
		const one = sql.one.bind(sql);
		sql.one = ((text: string, values?: SqlValue[]) => {
			if (/count\(\*\)/.test(text)) counts.push(text);
			return one(text, values);
		}) as typeof sql.one;
		try {
			const countSql = (search: ApplicationSearch): string => {
				counts.length = 0;
				sandbox.store.applications.search(search, [], { limit: 10, offset: 0 });
				return counts.join(' ');
			};
			const allTime = countSql({
				organisationIds: organisations,
				appliedFrom: '2000-01-01T00:00:00Z',
				rankings: [4],
			});
			assert.match(allTime, /ap\.ranking IN/);
			assert.doesNotMatch(allTime, /applied_at/);
			const recent = countSql({
				organisationIds: organisations,
				appliedFrom: '2026-11-20T00:00:00Z',
				rankings: [4],
			});
			assert.match(recent, /ap\.applied_at >= \?/);
			// A user's applications keep their bounds: the advert's index orders them by date anyway.
			const user = countSql({ organisationIds: organisations, appliedFrom: '2000-01-01T00:00:00Z', userId: 1 });
			assert.match(user, /ap\.applied_at >= \?/);
		} finally {
			sql.one = one;
		}
	});

	it('pages a date range over the whole account by walking the page-order index, without sorting every match', () => {
		const search: ApplicationSearch = { organisationIds: organisations, appliedFrom: '2000-01-01T00:00:00Z' };
		for (const window of [
			{ limit: 50, offset: 0 },
			{ limit: 50, offset: 500 },
		]) {
			const plan = sandbox.store.applications.explainPage(search, [], window);
			assert.ok(
				plan.some((line) => /application_page_order/.test(line)),
				`uses application_page_order: ${plan.join(' | ')}`,
			);
			assert.ok(
				plan.every((line) => !/TEMP B-TREE/.test(line)),
				`no temporary b-tree for the order: ${plan.join(' | ')}`,
			);
		}
		// A part of the account: the scope is checked on each application's advert, still in page order.
		const part = sandbox.store.accounts.subtreeIds(organisations[1]);
		const partPlan = sandbox.store.applications.explainPage(
			{ organisationIds: part, appliedFrom: '2000-01-01T00:00:00Z' },
			[],
			{ limit: 50, offset: 0 },
		);
		assert.ok(
			partPlan.some((line) => /application_page_order/.test(line)) &&
				partPlan.every((line) => !/TEMP B-TREE/.test(line)),
			partPlan.join(' | '),
		);
	});

	it("walks one owner's date range in page order, reading the owner's adverts once rather than looking each up", () => {
		const search: ApplicationSearch = {
			organisationIds: organisations,
			userId: 1,
			appliedFrom: '2000-01-01T00:00:00Z',
		};
		const plan = sandbox.store.applications.explainPage(search, [], { limit: 50, offset: 0 });
		assert.ok(
			plan.some((line) => /application_page_order/.test(line)) &&
				plan.some((line) => /LIST SUBQUERY/.test(line)) &&
				plan.every((line) => !/CORRELATED/.test(line)),
			plan.join(' | '),
		);
		// The walk gives the page a sort of every match gives (a window this wide is sorted).
		const page = sandbox.store.applications.search(search, [], { limit: 50, offset: 0 });
		const all = sandbox.store.applications.search(search, [], { limit: 12_000, offset: 0 });
		assert.ok(page.total > 50 && page.total < 12_000, `a part of the account: ${page.total}`);
		assert.equal(page.total, all.total);
		assert.deepEqual(
			page.rows.map((row) => row.id),
			all.rows.slice(0, 50).map((row) => row.id),
		);
	});

	it('sorts the matches of a narrow date range rather than walking past every other application', () => {
		const one = sandbox.store.applications.search(
			{ organisationIds: organisations, appliedFrom: '2000-01-01T00:00:00Z' },
			[],
			{ limit: 1, offset: 0 },
		).rows[0];
		const search: ApplicationSearch = {
			organisationIds: organisations,
			appliedFrom: one.appliedAt,
			appliedTo: one.appliedAt,
		};
		const plan = sandbox.store.applications.explainPage(search, [], { limit: 50, offset: 0 });
		assert.ok(
			plan.every((line) => !/application_page_order/.test(line) && !FULL_SCAN.test(line)),
			plan.join(' | '),
		);
		assert.ok(
			sandbox.store.applications
				.search(search, [], { limit: 50, offset: 0 })
				.rows.some((row) => row.id === one.id),
		);
	});

	it('parses and resolves the size option', () => {
		assert.deepEqual(resolveSize('large'), { adverts: 50_000, applications: 1_000_000 });
		assert.equal(resolveSize(undefined), undefined);
		assert.deepEqual(parseSize('2000000'), { adverts: 100_000, applications: 2_000_000 });
		assert.deepEqual(parseSize('300x9000'), { adverts: 300, applications: 9_000 });
		assert.equal(parseSize(' Large '), 'large');
		assert.throws(() => parseSize('huge'), /--size must be/);
	});
});

describe('emulator planner statistics after many writes', function () {
	this.timeout(120_000);

	it('plans an application search from the applications once thousands of adverts without any were added', () => {
		const sandbox = openSandbox({
			dataDir: ':memory:',
			passwordCost: 1024,
			demoSize: { adverts: 20, applications: 300 },
		});
		try {
			const { apiKey, username, password } = sandbox.demo;
			const ctx = {
				endpoint: 'posting' as const,
				binding: 'soap11' as const,
				baseUrl: 'http://127.0.0.1:1',
				now: new Date(),
			};
			for (let i = 0; i < 2_100; i++) {
				sandbox.handlers.AddAdvert(
					{
						sAPIKey: apiKey,
						sUsername: username,
						sPassword: password,
						sJobTitle: `Engineer ${i}`,
						sPrimaryLocation: 'London',
						sContactName: 'Jane Doe',
						sContactEmail: 'jane@example.com',
						sJobDescription: 'A description long enough for every board. '.repeat(8),
					},
					ctx,
				);
			}
			const search: ApplicationSearch = {
				organisationIds: sandbox.store.accounts.subtreeIds(1),
				appliedFrom: '2000-01-01T00:00:00Z',
			};
			const plan = sandbox.store.applications.explainSearch(search);
			assert.match(plan[0], /^(SCAN|SEARCH) ap\b/, plan.join('\n'));
		} finally {
			sandbox.close();
		}
	});
});
