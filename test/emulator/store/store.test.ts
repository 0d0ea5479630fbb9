import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSandbox } from '../../../src/emulator/sandbox';
import { ADVERT_ORDER_FIELDS, APPLICATION_ORDER_FIELDS, parseOrderBy } from '../../../src/emulator/store/ordering';
import { LATEST_SCHEMA_VERSION } from '../../../src/emulator/store/schema';
import { hashSecret } from '../../../src/emulator/store/secrets';
import { Store } from '../../../src/emulator/store/store';

const NOW = new Date('2026-11-22T12:00:00Z');
const SMALL = { adverts: 30, applications: 300 };

describe('emulator store', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'mp-store-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('migrates a new database to the latest schema version and records it', () => {
		const store = Store.open(':memory:');
		try {
			assert.equal(store.schemaVersion(), LATEST_SCHEMA_VERSION);
			assert.ok(store.isEmpty());
		} finally {
			store.close();
		}
	});

	it('keeps data across close and reopen of a file database without seeding again', () => {
		const first = openSandbox({ dataDir: dir, now: NOW, demoSize: SMALL, passwordCost: 1024 });
		const advertId = first.store.adverts.insert({
			userId: 1,
			organisationId: 1,
			completionToken: 'persist-token',
			createdAt: '2026-11-22T12:00:00Z',
			source: 'API',
			title: 'Kept',
		});
		const counts = first.store.counts();
		first.close();
		const second = openSandbox({
			dataDir: dir,
			now: new Date('2027-01-01T00:00:00Z'),
			demoSize: SMALL,
			passwordCost: 1024,
		});
		try {
			assert.equal(second.store.adverts.byId(advertId)?.title, 'Kept');
			assert.deepEqual(second.store.counts(), counts);
			assert.equal(second.store.schemaVersion(), LATEST_SCHEMA_VERSION);
		} finally {
			second.close();
		}
	});

	it('reset deletes the file and seeds again', () => {
		const first = openSandbox({ dataDir: dir, now: NOW, demoSize: SMALL, passwordCost: 1024 });
		first.store.adverts.insert({
			userId: 1,
			organisationId: 1,
			completionToken: 'gone-token',
			createdAt: '2026-11-22T12:00:00Z',
			source: 'API',
		});
		first.close();
		const second = openSandbox({ dataDir: dir, now: NOW, demoSize: SMALL, passwordCost: 1024, reset: true });
		try {
			assert.equal(second.store.adverts.byCompletionToken('gone-token'), undefined);
			assert.equal(second.store.counts().advert, SMALL.adverts);
		} finally {
			second.close();
		}
	});

	it('generates the same data for the same seed and different data for another seed', () => {
		const snapshot = (seed: number) => {
			const sandbox = openSandbox({ dataDir: ':memory:', seed, now: NOW, demoSize: SMALL, passwordCost: 1024 });
			try {
				const adverts = sandbox.store.adverts.search(
					{ organisationIds: [1, 2, 3, 4, 5, 6, 7, 8, 9], statusIds: [0, 1, 16] },
					[{ field: 'AdvertID', descending: false }],
				).rows;
				const applications = sandbox.store.applications.search(
					{ organisationIds: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
					[{ field: 'AdvertCandidateID', descending: false }],
					{ offset: 0, limit: 1000 },
				).rows;
				return JSON.stringify({ adverts, applications, counts: sandbox.store.counts() });
			} finally {
				sandbox.close();
			}
		};
		const a = snapshot(7);
		assert.equal(snapshot(7), a);
		assert.notEqual(snapshot(8), a);
	});

	it('rolls back every write of a failed transaction', () => {
		const sandbox = openSandbox({ dataDir: ':memory:', now: NOW, demoSize: SMALL, passwordCost: 1024 });
		try {
			const before = sandbox.store.counts();
			assert.throws(() =>
				sandbox.store.transaction(() => {
					sandbox.store.adverts.insert({
						userId: 1,
						organisationId: 1,
						completionToken: 'rolled-back',
						createdAt: '2026-11-22T12:00:00Z',
						source: 'API',
					});
					sandbox.store.applications.addNote(1, 1, 'subject', 'body', '2026-11-22T12:00:00Z');
					throw new Error('fail after two writes');
				}),
			);
			assert.deepEqual(sandbox.store.counts(), before);
			assert.equal(sandbox.store.adverts.byCompletionToken('rolled-back'), undefined);
		} finally {
			sandbox.close();
		}
	});

	it('enforces foreign keys', () => {
		const store = Store.open(':memory:');
		try {
			assert.throws(
				() =>
					store.adverts.insert({
						userId: 999,
						organisationId: 999,
						completionToken: 't',
						createdAt: '2026-11-22T12:00:00Z',
						source: 'API',
					}),
				/FOREIGN KEY/,
			);
		} finally {
			store.close();
		}
	});

	it('stores API keys only as hashes', () => {
		const sandbox = openSandbox({ dataDir: ':memory:', now: NOW, demoSize: SMALL, passwordCost: 1024 });
		try {
			assert.equal(sandbox.store.accounts.organisationForApiKey(sandbox.demo.apiKey)?.identifier, 'acme-group');
			assert.equal(sandbox.store.accounts.organisationForApiKey(hashSecret(sandbox.demo.apiKey)), undefined);
			assert.match(sandbox.store.accounts.findUserByUsername('demo.admin')?.passwordHash ?? '', /^scrypt\$/);
		} finally {
			sandbox.close();
		}
	});

	it('parses OrderBy only against the whitelist', () => {
		assert.deepEqual(parseOrderBy('ApplicationDate desc, lastname ASC', APPLICATION_ORDER_FIELDS), [
			{ field: 'ApplicationDate', descending: true },
			{ field: 'LastName', descending: false },
		]);
		assert.deepEqual(parseOrderBy('AdvertTitle', ADVERT_ORDER_FIELDS), [
			{ field: 'AdvertTitle', descending: false },
		]);
		assert.equal(parseOrderBy('AdvertID; DROP TABLE advert', ADVERT_ORDER_FIELDS), undefined);
		assert.equal(parseOrderBy('AdvertID sideways', ADVERT_ORDER_FIELDS), undefined);
		assert.equal(parseOrderBy('password_hash desc', APPLICATION_ORDER_FIELDS), undefined);
	});
});
