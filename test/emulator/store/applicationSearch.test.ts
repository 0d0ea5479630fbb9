import * as assert from 'node:assert/strict';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import {
	APPLICATION_ORDER_FIELDS,
	DEFAULT_APPLICATION_ORDER,
	orderClause,
	type ApplicationOrderField,
	type OrderTerm,
} from '../../../src/emulator/store/ordering';
import type { StatementCache } from '../../../src/emulator/store/statements';
import type { ApplicationSearch } from '../../../src/emulator/store/applications';
import type { Store } from '../../../src/emulator/store/store';

/**
 * The search picks a page's ids over the application and advert tables only, then reads the joined
 * rows. These tests hold it to the plain query: every joined table in FROM, ordered and paged in one
 * statement, counted the same way.
 */
function reference(
	store: Store,
	search: ApplicationSearch,
	order: readonly OrderTerm<ApplicationOrderField>[],
	limit: number,
	offset: number,
): { ids: number[]; total: number } {
	const sql = (store as unknown as { sql: StatementCache }).sql;
	const from = `FROM application ap JOIN advert a ON a.id = ap.advert_id JOIN candidate c ON c.id = ap.candidate_id JOIN feed f ON f.id = ap.feed_id
		JOIN organisation o ON o.id = a.organisation_id JOIN progress p ON p.id = ap.progress_id`;
	const clauses = [`a.organisation_id IN (${search.organisationIds.map(() => '?').join(', ')})`];
	const values: (string | number)[] = [...search.organisationIds];
	const add = (clause: string, ...clauseValues: (string | number)[]): void => {
		clauses.push(clause);
		values.push(...clauseValues);
	};
	if (search.userId !== undefined) add('a.user_id = ?', search.userId);
	if (search.advertId !== undefined) add('ap.advert_id = ?', search.advertId);
	if (search.appliedFrom !== undefined) add('ap.applied_at >= ?', search.appliedFrom);
	if (search.appliedTo !== undefined) add('ap.applied_at <= ?', search.appliedTo);
	if (search.feedIds !== undefined) {
		add(`ap.feed_id IN (${search.feedIds.map(() => '?').join(', ')})`, ...search.feedIds);
	}
	if (search.progressIds !== undefined) {
		add(`ap.progress_id IN (${search.progressIds.map(() => '?').join(', ')})`, ...search.progressIds);
	}
	if (search.rankings !== undefined) {
		add(`ap.ranking IN (${search.rankings.map(() => '?').join(', ')})`, ...search.rankings);
	}
	const where = clauses.join(' AND ');
	const orderBy =
		order.length > 0 ? orderClause(order, APPLICATION_ORDER_FIELDS, 'ap.id DESC') : DEFAULT_APPLICATION_ORDER;
	const ids = sql
		.all<{
			id: number;
		}>(`SELECT ap.id ${from} WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [...values, limit, offset])
		.map((row) => row.id);
	const total = sql.one<{ total: number }>(`SELECT count(*) AS total ${from} WHERE ${where}`, values)!.total;
	return { ids, total };
}

function appliedEnd(store: Store, organisationIds: readonly number[], end: 'min' | 'max'): string {
	const sql = (store as unknown as { sql: StatementCache }).sql;
	return sql.one<{ at: string }>(
		`SELECT ${end}(applied_at) AS at FROM application WHERE organisation_id IN (${organisationIds.map(() => '?').join(', ')})`,
		[...organisationIds],
	)!.at;
}
const firstApplied = (store: Store, ids: readonly number[]) => appliedEnd(store, ids, 'min');
const lastApplied = (store: Store, ids: readonly number[]) => appliedEnd(store, ids, 'max');
const secondAfter = (at: string) => new Date(Date.parse(at) + 1000).toISOString().replace('.000Z', 'Z');
const secondBefore = (at: string) => new Date(Date.parse(at) - 1000).toISOString().replace('.000Z', 'Z');

describe('emulator store: application search', () => {
	let sandbox: Sandbox;
	before(() => {
		sandbox = openSandbox({
			dataDir: ':memory:',
			passwordCost: 1024,
			now: new Date('2026-11-22T12:00:00Z'),
			demoSize: { adverts: 30, applications: 600 },
		});
	});
	after(() => sandbox.close());

	const orders: [string, OrderTerm<ApplicationOrderField>[]][] = [
		['the default order', []],
		['LastName (a candidate column)', [{ field: 'LastName', descending: false }]],
		['EmailAddress descending', [{ field: 'EmailAddress', descending: true }]],
		[
			'AdvertTitle then ApplicationDate',
			[
				{ field: 'AdvertTitle', descending: false },
				{ field: 'ApplicationDate', descending: true },
			],
		],
		['Ranking', [{ field: 'Ranking', descending: true }]],
	];

	for (const [name, order] of orders) {
		it(`pages in ${name} exactly as the full join does, with the same total`, () => {
			const store = sandbox.store;
			const organisationIds = store.accounts.subtreeIds(1);
			const searches: ApplicationSearch[] = [
				{ organisationIds },
				{ organisationIds, userId: 1 },
				{ organisationIds, rankings: [2, 4] },
				{ organisationIds, appliedFrom: '2026-10-01T00:00:00Z' },
				// A part of the account: the scope is a condition on the advert.
				{ organisationIds: store.accounts.subtreeIds(organisationIds[1]), appliedFrom: '2026-10-01T00:00:00Z' },
				{ organisationIds: store.accounts.subtreeIds(organisationIds[1]), rankings: [0] },
				// Without ranking 0 the page-order walk starts after the unranked applications.
				{ organisationIds, rankings: [1] },
				{ organisationIds, rankings: [0, 4] },
				{
					organisationIds,
					feedIds: [101, 103],
					appliedFrom: '2026-10-01T00:00:00Z',
					appliedTo: '2026-11-15T00:00:00Z',
				},
				{ organisationIds, progressIds: [1, 2], rankings: [2, 4] },
				{ organisationIds: [8, 9], feedIds: [101, 102, 103, 104, 105] },
				// Date bounds every application of the scope meets are left out of the query ("all time").
				{ organisationIds, appliedFrom: '2000-01-01T00:00:00Z', progressIds: [2, 3] },
				{
					organisationIds,
					appliedFrom: '2000-01-01T00:00:00Z',
					appliedTo: '2099-01-01T00:00:00Z',
					rankings: [1, 4],
				},
				{ organisationIds, appliedFrom: firstApplied(store, organisationIds), feedIds: [101, 102] },
				{
					organisationIds,
					appliedFrom: secondAfter(firstApplied(store, organisationIds)),
					feedIds: [101, 102],
				},
				{ organisationIds, appliedTo: secondBefore(lastApplied(store, organisationIds)) },
			];
			for (const search of searches) {
				for (const [limit, offset] of [
					[1, 0],
					[7, 0],
					[7, 14],
					[50, 0],
					[500, 0],
					[5, 10_000],
				]) {
					const page = store.applications.search(search, order, { limit, offset });
					const expected = reference(store, search, order, limit, offset);
					assert.deepEqual(
						page.rows.map((row) => row.id),
						expected.ids,
						`ids of ${JSON.stringify(search)} at ${limit}/${offset}`,
					);
					assert.equal(
						page.total,
						expected.total,
						`total of ${JSON.stringify(search)} at ${limit}/${offset}`,
					);
				}
			}
		});
	}

	it('returns each row of a page whole, as a lookup by id gives it', () => {
		const store = sandbox.store;
		const page = store.applications.search(
			{ organisationIds: store.accounts.subtreeIds(1) },
			[{ field: 'LastName', descending: false }],
			{ limit: 40, offset: 3 },
		);
		assert.equal(page.rows.length, 40);
		for (const row of page.rows) assert.deepEqual(row, store.applications.byId(row.id));
	});

	it('reads a page larger than one IN list of ids in the order searched', () => {
		const store = sandbox.store;
		const search = { organisationIds: store.accounts.subtreeIds(1) };
		const order: OrderTerm<ApplicationOrderField>[] = [{ field: 'FirstName', descending: true }];
		const page = store.applications.search(search, order, { limit: 1200, offset: 0 });
		const expected = reference(store, search, order, 1200, 0);
		assert.ok(expected.ids.length > 500, 'the demo data has more applications than one IN list');
		assert.deepEqual(
			page.rows.map((row) => row.id),
			expected.ids,
		);
	});
});
