import * as assert from 'node:assert/strict';
import { Database } from 'node-sqlite3-wasm';
import { DEMO_CREDENTIALS, OTHER_TREE_API_KEY } from '../../../src/emulator/domain/seed';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { jsonRow, StatementCache } from '../../../src/emulator/store/statements';

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
			assert.deepEqual(cache.all('SELECT name FROM t ORDER BY id'), [{ name: 'a' }, { name: 'b' }]);
			cache.run('INSERT INTO t (name) VALUES (?)', ['c']);
			assert.deepEqual(cache.all('SELECT name FROM t ORDER BY id'), [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
			assert.deepEqual(cache.get('SELECT name FROM t WHERE id = ?', [2]), { name: 'b' });
			assert.equal(cache.get('SELECT name FROM t WHERE id = ?', [99]), null);
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
			assert.deepEqual(cache.all('SELECT 1 AS one'), [{ one: 1 }]);
			assert.deepEqual(cache.all('SELECT 2 AS two'), [{ two: 2 }]);
		});

		it('recovers after a failing statement: the same SQL works again', () => {
			const cache = new StatementCache(db);
			const insert = 'INSERT INTO t (name) VALUES (?)';
			cache.run(insert, ['x']);
			assert.throws(() => cache.run(insert, ['x']), /UNIQUE/);
			cache.run(insert, ['y']);
			assert.deepEqual(cache.all('SELECT name FROM t ORDER BY id'), [{ name: 'x' }, { name: 'y' }]);
		});

		it('reads rows as JSON exactly as the plain columns: integers, reals, text, NULL, escapes and non-ASCII', () => {
			db.exec('CREATE TABLE v (id INTEGER PRIMARY KEY, n INTEGER, r REAL, s TEXT, z TEXT)');
			const cache = new StatementCache(db);
			const insert = 'INSERT INTO v (n, r, s, z) VALUES (?, ?, ?, ?)';
			cache.run(insert, [9007199254740991, 0.1 + 0.2, 'quote " backslash \\ newline \n tab \t <b>&amp;</b>', null]);
			cache.run(insert, [-5, 1e-300, 'é€😀 \u0001', 'x']);
			cache.run(insert, [0, -0.5, '', '']);
			const columns = 'v.id, v.n AS number, v.r AS ratio, v.s AS text, coalesce(v.z, \'none\') AS z';
			const plain = cache.all(`SELECT ${columns} FROM v ORDER BY id`);
			const viaJson = cache.allJson(`SELECT ${jsonRow(columns)} FROM v ORDER BY id`);
			assert.deepEqual(viaJson, plain);
			assert.equal(plain.length, 3);
		});

		it('releases a read at once, so a write in a new transaction is not blocked', () => {
			const cache = new StatementCache(db);
			cache.run('INSERT INTO t (name) VALUES (?)', ['a']);
			cache.run('INSERT INTO t (name) VALUES (?)', ['b']);
			cache.get('SELECT name FROM t ORDER BY id');
			db.exec('BEGIN IMMEDIATE');
			cache.run('DELETE FROM t');
			db.exec('COMMIT');
			assert.deepEqual(cache.all('SELECT name FROM t'), []);
		});
	});

	describe('derived data kept by the store', () => {
		let sandbox: Sandbox;
		beforeEach(() => {
			sandbox = openSandbox({ dataDir: ':memory:', passwordCost: 1024, demoSize: { adverts: 20, applications: 300 } });
		});
		afterEach(() => sandbox.close());

		it('shows advert counters changed by a write on the very next read', () => {
			const store = sandbox.store;
			const page = store.searchApplications({ organisationIds: store.subtreeIds(1) }, [], { limit: 1, offset: 0 }).rows[0];
			const before = store.advertStats([page.advertId]).get(page.advertId);
			assert.ok(before);
			const newRanking = before.suitable > 0 && page.ranking === 4 ? 1 : 4;
			store.scoreApplication(page.id, newRanking, false, 1, '2026-11-23T10:00:00Z');
			const after = store.advertStats([page.advertId]).get(page.advertId);
			assert.ok(after);
			assert.notDeepEqual(after, before);
			assert.equal(after.lastScoreDate, '2026-11-23T10:00:00Z');
			const fresh = sandbox.store.advertStats([page.advertId]).get(page.advertId);
			assert.deepEqual(after, fresh);
		});

		it('shows an advert changed by a write on the very next search and lookup, in the order the query gives', () => {
			const store = sandbox.store;
			const organisationIds = store.subtreeIds(1);
			const page = store.searchAdverts({ organisationIds }, [], { limit: 5, offset: 0 });
			assert.equal(page.rows.length, 5);
			const again = store.searchAdverts({ organisationIds }, [], { limit: 5, offset: 0 });
			assert.deepEqual(again.rows.map((r) => r.id), page.rows.map((r) => r.id));
			assert.equal(again.rows[0], page.rows[0], 'a kept row is served until a write');
			assert.ok(Object.isFrozen(page.rows[0]));
			const target = page.rows[2];
			store.updateAdvert(target.id, { title: 'Renamed by a write' });
			const after = store.searchAdverts({ organisationIds }, [], { limit: 5, offset: 0 });
			assert.equal(after.rows.find((r) => r.id === target.id)?.title, 'Renamed by a write');
			assert.equal(store.advertById(target.id)?.title, 'Renamed by a write');
			assert.equal(store.advertById(-1), undefined);
		});

		it('keeps key, user and tree lookups frozen, and forgets them when the data is cleared and seeded again', () => {
			const store = sandbox.store;
			const org = store.organisationForApiKey(DEMO_CREDENTIALS.apiKey);
			assert.ok(org);
			assert.ok(Object.isFrozen(org), 'a kept row cannot be changed by a caller');
			assert.ok(Object.isFrozen(store.subtreeIds(org.id)));
			assert.equal(store.organisationForApiKey(DEMO_CREDENTIALS.apiKey), org, 'the second lookup is the kept one');
			assert.ok(store.findUserByUsername(DEMO_CREDENTIALS.username));
			assert.ok(store.organisationForApiKey(OTHER_TREE_API_KEY));

			store.clearAll();
			assert.equal(store.organisationForApiKey(DEMO_CREDENTIALS.apiKey), undefined, 'a revoked key is refused on the next request');
			assert.equal(store.findUserByUsername(DEMO_CREDENTIALS.username), undefined);
			assert.deepEqual(store.subtreeIds(org.id), []);

			sandbox.reseed();
			assert.deepEqual(sandbox.store.organisationForApiKey(DEMO_CREDENTIALS.apiKey), org);
		});

		it('does not keep misses: a key that appears later is found', () => {
			const store = sandbox.store;
			store.clearAll();
			assert.equal(store.organisationForApiKey(DEMO_CREDENTIALS.apiKey), undefined);
			sandbox.reseed();
			assert.ok(sandbox.store.organisationForApiKey(DEMO_CREDENTIALS.apiKey));
		});
	});
});
