import * as assert from 'node:assert/strict';
import { Database } from '../../../src/emulator/store/engine';
import type { AnyParams } from '../../../src/protocol/catalogue';
import { FaultError } from '../../../src/protocol/faults';
import type { RequestContext } from '../../../src/emulator/domain/context';
import { hashPassword } from '../../../src/emulator/domain/passwords';
import { DEMO_CREDENTIALS, NORTH_API_KEY, OTHER_TREE_API_KEY } from '../../../src/emulator/domain/seed';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { jsonRow, StatementCache } from '../../../src/emulator/store/statements';
import { hashSecret } from '../../../src/emulator/store/secrets';
import type { ApplicationSearch } from '../../../src/emulator/store/applications';
import type { Store } from '../../../src/emulator/store/store';
import type { SqlValue } from '../../../src/emulator/store/database';

/** A write through the store's own statement path, as any store method makes it (no method changes keys, users or organisations today). */
function write(store: Store, sql: string, values: SqlValue[]): void {
	(store as unknown as { sql: StatementCache }).sql.run(sql, values);
}

/** The first applications of the demo tree matching a filter, in the default order. */
function applicationsOf(store: Store, filter: Partial<ApplicationSearch>, limit: number) {
	return store.applications.search({ organisationIds: store.accounts.subtreeIds(1), ...filter }, [], {
		limit,
		offset: 0,
	}).rows;
}

/** The subcode of the FaultError a call throws, or undefined when it succeeds. */
function faultOf(run: () => unknown): string | undefined {
	try {
		run();
	} catch (error) {
		if (error instanceof FaultError) return error.fault.subcode;
		throw error;
	}
	return undefined;
}

/** Rows as plain objects, to compare with literals (node:sqlite's rows have no prototype). */
function plain<T extends object>(rows: T | T[] | undefined): unknown {
	return Array.isArray(rows) ? rows.map((row) => ({ ...row })) : rows === undefined ? undefined : { ...rows };
}

describe('emulator store caches', () => {
	describe('StatementCache', () => {
		let db: Database;
		beforeEach(() => {
			db = new Database(':memory:');
			db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)');
		});
		afterEach(() => db.close());

		it('keeps one statement per SQL text and answers with fresh rows each time', () => {
			const cache = new StatementCache(db);
			cache.run('INSERT INTO t (name) VALUES (?)', ['a']);
			cache.run('INSERT INTO t (name) VALUES (?)', ['b']);
			assert.deepEqual(plain(cache.all('SELECT name FROM t ORDER BY id')), [{ name: 'a' }, { name: 'b' }]);
			cache.run('INSERT INTO t (name) VALUES (?)', ['c']);
			assert.deepEqual(plain(cache.all('SELECT name FROM t ORDER BY id')), [
				{ name: 'a' },
				{ name: 'b' },
				{ name: 'c' },
			]);
			assert.deepEqual(plain(cache.one('SELECT name FROM t WHERE id = ?', [2])), { name: 'b' });
			assert.equal(cache.one('SELECT name FROM t WHERE id = ?', [99]), undefined);
			assert.equal(cache.size, 3);
			assert.equal(cache.writes, 3);
			cache.clear();
			assert.equal(cache.size, 0);
		});

		it('evicts the least recently used statement beyond its capacity', () => {
			const cache = new StatementCache(db, 2);
			cache.all('SELECT 1 AS one');
			cache.all('SELECT 2 AS two');
			cache.all('SELECT 1 AS one'); // now the most recent
			cache.all('SELECT 3 AS three');
			assert.equal(cache.size, 2);
			assert.deepEqual(plain(cache.all('SELECT 1 AS one')), [{ one: 1 }]);
			assert.deepEqual(plain(cache.all('SELECT 2 AS two')), [{ two: 2 }]);
		});

		it('recovers after a failing statement: the same SQL works again', () => {
			const cache = new StatementCache(db);
			const insert = 'INSERT INTO t (name) VALUES (?)';
			cache.run(insert, ['x']);
			assert.throws(() => cache.run(insert, ['x']), /UNIQUE/);
			cache.run(insert, ['y']);
			assert.deepEqual(plain(cache.all('SELECT name FROM t ORDER BY id')), [{ name: 'x' }, { name: 'y' }]);
		});

		it('refuses numbered parameters, which Node 22 cannot bind by position', () => {
			const cache = new StatementCache(db);
			assert.throws(() => cache.one('SELECT ?1 AS one', [1]), /Numbered parameters \(\?1\) cannot be bound/);
			assert.throws(() => db.get('SELECT name FROM t WHERE id = ?2 OR id = ?1', [1, 2]), /Numbered parameters/);
		});

		it('reads rows as JSON exactly as the plain columns: integers, reals of 15 digits, text, NULL, escapes and non-ASCII', () => {
			db.exec('CREATE TABLE v (id INTEGER PRIMARY KEY, n INTEGER, r REAL, s TEXT, z TEXT)');
			const cache = new StatementCache(db);
			const insert = 'INSERT INTO v (n, r, s, z) VALUES (?, ?, ?, ?)';
			cache.run(insert, [
				9007199254740991,
				0.123456789012345,
				'quote " backslash \\ newline \n tab \t <b>&amp;</b>',
				null,
			]);
			cache.run(insert, [-5, 1e-300, 'é€😀 \u0001', 'x']);
			cache.run(insert, [0, -0.5, '', '']);
			const columns = "v.id, v.n AS number, v.r AS ratio, v.s AS text, coalesce(v.z, 'none') AS z";
			const columnsAsRead = cache.all(`SELECT ${columns} FROM v ORDER BY id`);
			const viaJson = cache.allJson(`SELECT ${jsonRow(columns)} FROM v ORDER BY id`);
			assert.deepEqual(viaJson, plain(columnsAsRead));
			assert.equal(columnsAsRead.length, 3);
		});

		it('counts writes that name a watched table, also in a subquery, and no others', () => {
			db.exec('CREATE TABLE other (id INTEGER PRIMARY KEY, t_id INTEGER)');
			const cache = new StatementCache(db, 8, /\bt\b/i);
			cache.run('INSERT INTO t (name) VALUES (?)', ['a']);
			assert.equal(cache.watchedWrites, 1);
			cache.run('INSERT INTO other (t_id) VALUES (?)', [1]);
			cache.run('UPDATE other SET t_id = 1');
			assert.equal(cache.watchedWrites, 1, 'a column named t_id is not the table t');
			cache.run('DELETE FROM other WHERE t_id IN (SELECT id FROM T)');
			assert.equal(cache.watchedWrites, 2);
			cache.control('BEGIN IMMEDIATE');
			cache.control('COMMIT');
			assert.equal(cache.writes, 4, 'BEGIN and COMMIT are not writes');
			cache.invalidate();
			assert.deepEqual([cache.writes, cache.watchedWrites], [5, 3]);
		});

		it('counts only statements that changed rows as writes', () => {
			const cache = new StatementCache(db, 8, /\bt\b/i);
			cache.run('INSERT INTO t (name) VALUES (?)', ['a']);
			cache.run('UPDATE t SET name = ? WHERE id = ?', ['b', 99]);
			cache.run('DELETE FROM t WHERE name = ?', ['nobody']);
			cache.run("UPDATE t SET name = 'a' WHERE name = 'a' AND name IS NOT 'a'");
			assert.deepEqual([cache.writes, cache.watchedWrites], [1, 1]);
			cache.run('UPDATE t SET name = ? WHERE id = ?', ['b', 1]);
			assert.deepEqual([cache.writes, cache.watchedWrites], [2, 2]);
		});

		it('releases a read at once, so a write in a new transaction is not blocked', () => {
			const cache = new StatementCache(db);
			cache.run('INSERT INTO t (name) VALUES (?)', ['a']);
			cache.run('INSERT INTO t (name) VALUES (?)', ['b']);
			cache.one('SELECT name FROM t ORDER BY id');
			db.exec('BEGIN IMMEDIATE');
			cache.run('DELETE FROM t');
			db.exec('COMMIT');
			assert.deepEqual(cache.all('SELECT name FROM t'), []);
		});
	});

	describe('derived data kept by the store', () => {
		let sandbox: Sandbox;
		beforeEach(() => {
			sandbox = openSandbox({
				dataDir: ':memory:',
				passwordCost: 1024,
				demoSize: { adverts: 20, applications: 300 },
			});
		});
		afterEach(() => sandbox.close());

		it('shows advert counters changed by a write on the very next read', () => {
			const store = sandbox.store;
			const page = store.applications.search({ organisationIds: store.accounts.subtreeIds(1) }, [], {
				limit: 1,
				offset: 0,
			}).rows[0];
			const before = store.adverts.stats([page.advertId]).get(page.advertId);
			assert.ok(before);
			const newRanking = before.suitable > 0 && page.ranking === 4 ? 1 : 4;
			// Later than any seeded score (the seed dates scores up to now), so it is the advert's latest.
			const scoredAt = new Date(Date.now() + 86_400_000).toISOString().slice(0, 19) + 'Z';
			store.applications.score(page.id, newRanking, false, 1, scoredAt);
			const after = store.adverts.stats([page.advertId]).get(page.advertId);
			assert.ok(after);
			assert.notDeepEqual(after, before);
			assert.equal(after.lastScoreDate, scoredAt);
			const fresh = sandbox.store.adverts.stats([page.advertId]).get(page.advertId);
			assert.deepEqual(after, fresh);
		});

		it('shows an advert changed by a write on the very next search and lookup, in the order the query gives', () => {
			const store = sandbox.store;
			const organisationIds = store.accounts.subtreeIds(1);
			const page = store.adverts.search({ organisationIds }, [], { limit: 5, offset: 0 });
			assert.equal(page.rows.length, 5);
			const again = store.adverts.search({ organisationIds }, [], { limit: 5, offset: 0 });
			assert.deepEqual(
				again.rows.map((r) => r.id),
				page.rows.map((r) => r.id),
			);
			assert.equal(again.rows[0], page.rows[0], 'a kept row is served until a write');
			assert.ok(Object.isFrozen(page.rows[0]));
			const target = page.rows[2];
			store.adverts.update(target.id, { title: 'Renamed by a write' });
			const after = store.adverts.search({ organisationIds }, [], { limit: 5, offset: 0 });
			assert.equal(after.rows.find((r) => r.id === target.id)?.title, 'Renamed by a write');
			assert.equal(store.adverts.byId(target.id)?.title, 'Renamed by a write');
			assert.equal(store.adverts.byId(-1), undefined);
		});

		it('keeps key, user and tree lookups frozen, and forgets them when the data is cleared and seeded again', () => {
			const store = sandbox.store;
			const org = store.accounts.organisationForApiKey(DEMO_CREDENTIALS.apiKey);
			assert.ok(org);
			assert.ok(Object.isFrozen(org), 'a kept row cannot be changed by a caller');
			assert.ok(Object.isFrozen(store.accounts.subtreeIds(org.id)));
			assert.equal(
				store.accounts.organisationForApiKey(DEMO_CREDENTIALS.apiKey),
				org,
				'the second lookup is the kept one',
			);
			assert.ok(store.accounts.findUserByUsername(DEMO_CREDENTIALS.username));
			assert.ok(store.accounts.organisationForApiKey(OTHER_TREE_API_KEY));

			store.clearAll();
			assert.equal(
				store.accounts.organisationForApiKey(DEMO_CREDENTIALS.apiKey),
				undefined,
				'a revoked key is refused on the next request',
			);
			assert.equal(store.accounts.findUserByUsername(DEMO_CREDENTIALS.username), undefined);
			assert.deepEqual(store.accounts.subtreeIds(org.id), []);

			sandbox.reseed();
			assert.deepEqual(sandbox.store.accounts.organisationForApiKey(DEMO_CREDENTIALS.apiKey), org);
		});

		it('leaves nothing kept from inside a transaction that rolled back', () => {
			const store = sandbox.store;
			const organisationIds = store.accounts.subtreeIds(1);
			const target = store.adverts.search({ organisationIds }, [], { limit: 1, offset: 0 }).rows[0];
			assert.throws(
				() =>
					store.transaction(() => {
						store.adverts.update(target.id, { title: 'Never committed' });
						assert.equal(
							store.adverts.byId(target.id)?.title,
							'Never committed',
							'read inside the transaction',
						);
						throw new Error('rolled back');
					}),
				/rolled back/,
			);
			assert.equal(store.adverts.byId(target.id)?.title, target.title);
			assert.equal(
				store.adverts.search({ organisationIds, advertId: target.id }, []).rows[0].title,
				target.title,
			);
		});

		it('gives page totals equal to counting, on full, partial, empty and past-the-end pages', () => {
			const store = sandbox.store;
			const organisationIds = store.accounts.subtreeIds(1);
			const adverts = store.adverts.search({ organisationIds }, []).rows.length;
			const applications = store.applications.search({ organisationIds }, [], { limit: 100_000, offset: 0 }).rows
				.length;
			assert.ok(adverts > 7 && applications > 7);
			for (const [total, search] of [
				[
					adverts,
					(window: { limit: number; offset: number }) =>
						store.adverts.search({ organisationIds }, [], window),
				],
				[
					applications,
					(window: { limit: number; offset: number }) =>
						store.applications.search({ organisationIds }, [], window),
				],
			] as const) {
				for (const window of [
					{ limit: 1, offset: 0 },
					{ limit: 5, offset: 0 },
					{ limit: total, offset: 0 },
					{ limit: total + 10, offset: 0 },
					{ limit: 7, offset: total - 3 },
					{ limit: 5, offset: total },
					{ limit: 5, offset: total + 10 },
				]) {
					const page = search(window);
					assert.equal(page.total, total, JSON.stringify(window));
					assert.equal(
						page.rows.length,
						Math.max(0, Math.min(window.limit, total - window.offset)),
						JSON.stringify(window),
					);
				}
			}
			const none = store.adverts.search({ organisationIds, identifier: 'no such identifier' }, [], {
				limit: 5,
				offset: 10,
			});
			assert.deepEqual([none.total, none.rows.length], [0, 0]);
		});

		it('finds the same rows for a subtree of consecutive ids (BETWEEN) as for the same ids in a list (IN)', () => {
			const store = sandbox.store;
			const consecutive = store.accounts.subtreeIds(1);
			assert.ok(consecutive.length > 2 && consecutive.every((id, i) => id === consecutive[0] + i));
			// An id without rows breaks the run, so the list form is used for the same organisations.
			const listed = [...consecutive, 999_999];
			const window = { limit: 100_000, offset: 0 };
			assert.deepEqual(
				store.adverts.search({ organisationIds: consecutive }, [], window),
				store.adverts.search({ organisationIds: listed }, [], window),
			);
			assert.deepEqual(
				store.applications.search({ organisationIds: consecutive }, [], window),
				store.applications.search({ organisationIds: listed }, [], window),
			);
			const outside = [
				consecutive[consecutive.length - 1] + 1,
				consecutive[consecutive.length - 1] + 2,
				consecutive[consecutive.length - 1] + 3,
			];
			const other = store.adverts.search({ organisationIds: outside }, [], window).rows;
			assert.ok(other.every((row) => outside.includes(row.organisationId)));
		});

		it('does not keep misses: a key that appears later is found', () => {
			const store = sandbox.store;
			store.clearAll();
			assert.equal(store.accounts.organisationForApiKey(DEMO_CREDENTIALS.apiKey), undefined);
			sandbox.reseed();
			assert.ok(sandbox.store.accounts.organisationForApiKey(DEMO_CREDENTIALS.apiKey));
		});
	});

	describe('what the very next request sees after a write', () => {
		let sandbox: Sandbox;
		const ctx = (): RequestContext => ({
			endpoint: 'posting',
			binding: 'soap11',
			baseUrl: 'http://127.0.0.1:5123',
			now: new Date(),
		});
		let login: AnyParams;
		beforeEach(() => {
			sandbox = openSandbox({
				dataDir: ':memory:',
				passwordCost: 1024,
				demoSize: { adverts: 20, applications: 300 },
			});
			login = {
				sAPIKey: DEMO_CREDENTIALS.apiKey,
				sUsername: DEMO_CREDENTIALS.username,
				sPassword: DEMO_CREDENTIALS.password,
			};
		});
		afterEach(() => sandbox.close());

		it('refuses a revoked API key', () => {
			const h = sandbox.handlers;
			assert.equal(
				faultOf(() => h.GetCurrency({ sAPIKey: NORTH_API_KEY }, ctx())),
				undefined,
			);
			write(sandbox.store, 'DELETE FROM api_key WHERE key_hash = ?', [hashSecret(NORTH_API_KEY)]);
			assert.equal(
				faultOf(() => h.GetCurrency({ sAPIKey: NORTH_API_KEY }, ctx())),
				'AuthenticationFailed',
			);
			assert.equal(
				faultOf(() => h.GetCurrency({ sAPIKey: DEMO_CREDENTIALS.apiKey }, ctx())),
				undefined,
			);
		});

		it("refuses the old password once the user's password changed, and accepts the new one", () => {
			const h = sandbox.handlers;
			assert.equal(
				faultOf(() => h.UserFeedsAndQuotaWithDestinations(login, ctx())),
				undefined,
			);
			write(sandbox.store, 'UPDATE app_user SET password_hash = ? WHERE username = ?', [
				hashPassword('changed-password', new Uint8Array(16), 1024),
				DEMO_CREDENTIALS.username,
			]);
			assert.equal(
				faultOf(() => h.UserFeedsAndQuotaWithDestinations(login, ctx())),
				'AuthenticationFailed',
			);
			assert.equal(
				faultOf(() => h.UserFeedsAndQuotaWithDestinations({ ...login, sPassword: 'changed-password' }, ctx())),
				undefined,
			);
		});

		it('refuses a deactivated user', () => {
			const h = sandbox.handlers;
			assert.equal(
				faultOf(() => h.UserFeedsAndQuotaWithDestinations(login, ctx())),
				undefined,
			);
			write(sandbox.store, 'UPDATE app_user SET active = 0 WHERE username = ?', [DEMO_CREDENTIALS.username]);
			assert.equal(
				faultOf(() => h.UserFeedsAndQuotaWithDestinations(login, ctx())),
				'AuthenticationFailed',
			);
		});

		it('moves the scope of every key when an organisation moves to another tree', () => {
			const store = sandbox.store;
			const h = sandbox.handlers;
			const north = store.accounts.organisationForApiKey(NORTH_API_KEY)!;
			const globex = store.accounts.organisationForApiKey(OTHER_TREE_API_KEY)!;
			const moved = store.accounts.subtreeIds(north.id).find((id) => id !== north.id)!;
			const search = (apiKey: string) => () =>
				h.GetAdvertPaged(
					{ sAPIKey: apiKey, sStartOrganisation: String(moved), CurrentPage: 1, RowsPerPage: 5 },
					ctx(),
				);
			assert.equal(faultOf(search(NORTH_API_KEY)), undefined);
			assert.equal(faultOf(search(OTHER_TREE_API_KEY)), 'NotFound', 'outside the key: as unknown');
			write(store, 'UPDATE organisation SET parent_id = ? WHERE id = ?', [globex.id, moved]);
			assert.equal(faultOf(search(NORTH_API_KEY)), 'NotFound', 'outside the key: as unknown');
			assert.equal(faultOf(search(OTHER_TREE_API_KEY)), undefined);
			assert.ok(!store.accounts.subtreeIds(north.id).includes(moved));
			assert.ok(store.accounts.subtreeIds(globex.id).includes(moved));
		});

		it('shows a changed advert and a new score in the next GetAdvertPaged, and reuses records only until then', () => {
			const store = sandbox.store;
			const h = sandbox.handlers;
			const params = { ...login, sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 50 };
			const adverts = () => h.GetAdvertPaged(params, ctx()).Adverts ?? [];
			const first = adverts();
			const again = adverts();
			assert.deepEqual(again, first);
			const advert = first.find((a) => (a.Applications ?? 0) > 0)!;
			assert.ok(advert);
			const advertId = advert.AdvertID!;
			assert.equal(
				again.find((a) => a.AdvertID === advertId),
				advert,
				'a record is reused while nothing was written',
			);

			store.adverts.update(advertId, { title: 'Renamed between two requests' });
			const renamed = adverts().find((a) => a.AdvertID === advertId)!;
			assert.equal(renamed.AdvertTitle, 'Renamed between two requests');

			const application = store.applications
				.search({ organisationIds: store.accounts.subtreeIds(1), advertId }, [], { limit: 100, offset: 0 })
				.rows.find((a) => a.ranking !== 4)!;
			assert.ok(application);
			h.ApplicationScore(
				{ ...login, sAdvertID: String(advertId), sAdvertCandidateID: String(application.id), sScore: 'S' },
				ctx(),
			);
			const scored = adverts().find((a) => a.AdvertID === advertId)!;
			assert.equal(scored.Suitable, (renamed.Suitable ?? 0) + 1);
			assert.ok(scored.LastScoreDate !== undefined && scored.LastScoreDate >= (renamed.LastScoreDate ?? ''));
		});

		it('changes nothing for the same score or progress again in the same second, and shows every real change', () => {
			const store = sandbox.store;
			const h = sandbox.handlers;
			const application = applicationsOf(store, {}, 1)[0];
			const target = {
				...login,
				sAdvertID: String(application.advertId),
				sAdvertCandidateID: String(application.id),
			};
			const at = (iso: string): RequestContext => ({ ...ctx(), now: new Date(iso) });
			const rowOf = () => applicationsOf(store, { applicationIds: [application.id] }, 1)[0];

			h.ApplicationScore({ ...target, sScore: 'U' }, at('2026-11-24T10:00:00.100Z'));
			const count = store.changeCount;
			h.ApplicationScore({ ...target, sScore: 'U' }, at('2026-11-24T10:00:00.900Z'));
			assert.equal(store.changeCount, count, 'the same score in the same second');
			h.ApplicationScore({ ...target, sScore: 'U' }, at('2026-11-24T10:00:01.000Z'));
			assert.ok(store.changeCount > count, 'a new second is a new last score date');
			assert.equal(rowOf().lastScoreDate, '2026-11-24T10:00:01Z');
			const afterSecond = store.changeCount;
			h.ApplicationScore({ ...target, sScore: 'S' }, at('2026-11-24T10:00:01.500Z'));
			assert.ok(store.changeCount > afterSecond, 'another score');
			assert.equal(rowOf().ranking, 4);

			h.ApplicationProgress({ ...target, sProgressID: '2' }, at('2026-11-24T10:00:02.000Z'));
			const progressed = store.changeCount;
			h.ApplicationProgress({ ...target, sProgressID: '2' }, at('2026-11-24T10:00:02.500Z'));
			assert.equal(store.changeCount, progressed, 'the same progress in the same second');
			h.ApplicationProgress({ ...target, sProgressID: '3' }, at('2026-11-24T10:00:02.600Z'));
			assert.ok(store.changeCount > progressed);
			assert.equal(rowOf().progressId, 3);
		});

		it('words the faults of an application action as before when advert and application do not match', () => {
			const store = sandbox.store;
			const h = sandbox.handlers;
			const applications = applicationsOf(store, {}, 300);
			const application = applications[0];
			const other = applications.find((a) => a.advertId !== application.advertId)!;
			const score = (advertId: number, applicationId: number) => () =>
				h.ApplicationScore(
					{ ...login, sAdvertID: String(advertId), sAdvertCandidateID: String(applicationId), sScore: 'M' },
					ctx(),
				);
			assert.throws(score(other.advertId, application.id), /is not an application to sAdvertID/);
			assert.throws(score(999_999, application.id), /is not an advert of your organisation/);
			assert.throws(score(application.advertId, 999_999), /is not an application to sAdvertID/);
			assert.equal(faultOf(score(application.advertId, application.id)), undefined);
		});
	});
});
