import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../../src/emulator/store/engine';
import { openSandbox } from '../../../src/emulator/sandbox';
import type { ApplicationSearch } from '../../../src/emulator/store/applications';
import { openDatabase } from '../../../src/emulator/store/database';
import { LATEST_SCHEMA_VERSION } from '../../../src/emulator/store/schema';
import { backToSchema6 } from './schemaHistory';

const NOW = new Date('2026-11-22T12:00:00Z');
const SMALL = { adverts: 60, applications: 600 };

/** Applications whose copy of the organisation is not their advert's. */
function mismatches(db: Database): number {
	return (
		db.get(
			'SELECT count(*) AS n FROM application ap JOIN advert a ON a.id = ap.advert_id WHERE ap.organisation_id IS NOT a.organisation_id',
		) as { n: number }
	).n;
}

describe("emulator store: applications carry their advert's organisation (schema 7)", function () {
	this.timeout(60_000);
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'mp-apporg-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	const open = () => openSandbox({ dataDir: dir, now: NOW, demoSize: SMALL, passwordCost: 1024 });
	const file = () => join(dir, 'sandbox.sqlite');

	it("gives every seeded and every new application its advert's organisation", () => {
		const sandbox = open();
		try {
			const advert = sandbox.store.adverts.byId(7);
			assert.ok(advert);
			const application = sandbox.store.applications
				.search({ organisationIds: sandbox.store.accounts.subtreeIds(1), advertId: 7 }, [], {
					limit: 50,
					offset: 0,
				})
				.rows.find((row) => row.postingId !== null);
			assert.ok(application?.postingId, 'advert 7 has an application through a posting');
			sandbox.store.applications.insert({
				advertId: 7,
				organisationId: advert.organisationId,
				candidateId: application.candidateId,
				postingId: application.postingId,
				feedId: application.feedId,
				appliedAt: '2026-11-22T11:00:00Z',
				scoreExtra: 10,
			});
		} finally {
			sandbox.close();
		}
		const db = openDatabase(file());
		try {
			assert.equal(mismatches(db), 0);
			assert.equal((db.get('SELECT count(*) AS n FROM application') as { n: number }).n, SMALL.applications + 1);
		} finally {
			db.close();
		}
	});

	it("refuses an application whose organisation is not its advert's, and an advert that changes organisation", () => {
		open().close();
		const db = openDatabase(file());
		try {
			const copy = (organisation: string) =>
				db.run(`INSERT INTO application (advert_id, organisation_id, candidate_id, feed_id, applied_at)
					SELECT advert_id, ${organisation}, candidate_id, feed_id, applied_at FROM application ORDER BY id LIMIT 1`);
			assert.throws(() => copy('organisation_id % 9 + 1'), /must be its advert's organisation/);
			assert.throws(() => copy('NULL'), /must be its advert's organisation/);
			assert.doesNotThrow(() => copy('organisation_id'));
			const other = db.get(
				`SELECT a.id FROM advert a WHERE a.organisation_id <> (SELECT organisation_id FROM application ORDER BY id LIMIT 1) LIMIT 1`,
			) as { id: number };
			assert.throws(
				() =>
					db.run('UPDATE application SET advert_id = ? WHERE id = (SELECT min(id) FROM application)', [
						other.id,
					]),
				/must be its advert's organisation/,
			);
			assert.throws(
				() => db.run('UPDATE advert SET organisation_id = organisation_id % 9 + 1 WHERE id = 1'),
				/keeps its organisation/,
			);
			assert.equal(mismatches(db), 0);
		} finally {
			db.close();
		}
	});

	it('fills the organisation of every application when a database of schema 6 is opened, and searches count the same', () => {
		const searches: ApplicationSearch[] = [
			{ organisationIds: [1, 2, 3, 4, 5, 6, 7], appliedFrom: '2026-10-01T00:00:00Z' },
			{ organisationIds: [2, 4, 5], feedIds: [101, 102, 103] },
			{ organisationIds: [8, 9], rankings: [1, 2, 4] },
			{ organisationIds: [1, 2, 3, 4, 5, 6, 7], userId: 1 },
		];
		const before = open();
		const total = (sandbox: typeof before, search: ApplicationSearch) =>
			sandbox.store.applications.search(search, [], { limit: 1, offset: 0 }).total;
		const totals = searches.map((search) => total(before, search));
		before.close();
		assert.ok(
			totals.every((total) => total > 0),
			`every search matches some applications: ${totals.join(', ')}`,
		);

		const db = openDatabase(file());
		try {
			backToSchema6(db);
		} finally {
			db.close();
		}

		const after = open();
		try {
			assert.equal(after.store.schemaVersion(), LATEST_SCHEMA_VERSION);
			assert.match(after.notices.join('\n'), /was upgraded from schema 6 to 7 in \d+\.\d s/);
			assert.deepEqual(
				searches.map((search) => total(after, search)),
				totals,
			);
		} finally {
			after.close();
		}
		const upgraded = openDatabase(file());
		try {
			assert.equal(mismatches(upgraded), 0);
			assert.equal(
				(
					upgraded.get(
						"SELECT count(*) AS n FROM sqlite_stat1 WHERE idx = 'application_organisation_applied'",
					) as {
						n: number;
					}
				).n,
				1,
				'the new index has planner statistics',
			);
		} finally {
			upgraded.close();
		}
	});
});
