import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../../src/emulator/store/engine';
import { DETAILED_ADVERTS, DOCUMENTED_APPLICATIONS, seedSandbox } from '../../../src/emulator/domain/seed';
import { openSandbox, SANDBOX_FILE_NAME } from '../../../src/emulator/sandbox';
import { openDatabase } from '../../../src/emulator/store/database';
import { Store } from '../../../src/emulator/store/store';

const NOW = new Date('2026-11-22T12:00:00Z');
/** Past the detailed adverts and applications, so the set-based generator (bulkSeed.ts) makes the rest. */
const SIZE = { adverts: DETAILED_ADVERTS + 60, applications: DOCUMENTED_APPLICATIONS + 1_500 };
/** What differs between two seedings by design: when they ran. */
const WHEN_SEEDED = new Set(['sandbox_meta', 'schema_version']);

/** Row count and a hash of every row of every table, in rowid order. */
function fingerprint(db: Database): Map<string, string> {
	const tables = db.all(
		"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
	) as { name: string }[];
	const result = new Map<string, string>();
	for (const { name } of tables) {
		if (WHEN_SEEDED.has(name)) continue;
		const rows = db.all(`SELECT * FROM "${name}" ORDER BY rowid`) as Record<string, unknown>[];
		const hash = createHash('sha256');
		for (const row of rows) {
			hash.update(
				JSON.stringify(row, (_key, value: unknown) =>
					value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value,
				),
			);
		}
		result.set(name, `${rows.length} ${hash.digest('hex')}`);
	}
	return result;
}

function indexNames(db: Database): string[] {
	return (db.all("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name") as { name: string }[]).map(
		(row) => row.name,
	);
}

/**
 * A new data folder is seeded into a scratch file without foreign-key checks and with its secondary
 * indexes built once at the end; these tests hold that to the same rows as seeding with every check
 * and index in place.
 */
describe('seeding a new database file', function () {
	this.timeout(120_000);
	let dir: string;
	let seededFile: Database;
	let checkedFile: Database;

	before(() => {
		dir = mkdtempSync(join(tmpdir(), 'mp-seed-file-'));
		// As the product does it: a new data folder, seeded through the scratch file.
		openSandbox({ dataDir: join(dir, 'new'), now: NOW, demoSize: SIZE, passwordCost: 1024 }).close();
		// The same seeding on a file opened for serving: foreign keys on, every index kept up to date row by row.
		mkdirSync(join(dir, 'checked'));
		const store = Store.open(join(dir, 'checked', SANDBOX_FILE_NAME));
		try {
			seedSandbox(store, { seed: 1, now: NOW, passwordCost: 1024, ...SIZE });
		} finally {
			store.close();
		}
		seededFile = openDatabase(join(dir, 'new', SANDBOX_FILE_NAME));
		checkedFile = openDatabase(join(dir, 'checked', SANDBOX_FILE_NAME));
	});
	after(() => {
		seededFile?.close();
		checkedFile?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('makes the documented counts, past the detailed part', () => {
		const count = (table: string) => (seededFile.get(`SELECT count(*) AS n FROM ${table}`) as { n: number }).n;
		assert.equal(count('advert'), SIZE.adverts);
		assert.equal(count('application'), SIZE.applications);
		assert.equal(count('application_document'), DOCUMENTED_APPLICATIONS * 4);
	});

	it('makes the same rows as seeding with foreign keys checked and every index in place', () => {
		assert.deepEqual(fingerprint(seededFile), fingerprint(checkedFile));
	});

	it('leaves no row referring to a missing one, and serves with foreign keys on', () => {
		assert.deepEqual(seededFile.all('PRAGMA foreign_key_check'), []);
		assert.equal((seededFile.get('PRAGMA foreign_keys') as { foreign_keys: number }).foreign_keys, 1);
	});

	it("has every trigger of the schema, and gives every application its advert's organisation", () => {
		const triggers = (db: Database) =>
			(db.all("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name") as { name: string }[]).map(
				(row) => row.name,
			);
		assert.deepEqual(triggers(seededFile), triggers(checkedFile));
		assert.ok(triggers(seededFile).includes('application_organisation_insert'));
		const mismatched = seededFile.get(
			'SELECT count(*) AS n FROM application ap JOIN advert a ON a.id = ap.advert_id WHERE ap.organisation_id IS NOT a.organisation_id',
		) as { n: number };
		assert.equal(mismatched.n, 0);
	});

	it('has every index of the schema, intact, and the planner statistics', () => {
		assert.deepEqual(indexNames(seededFile), indexNames(checkedFile));
		assert.ok(indexNames(seededFile).includes('application_page_order'));
		assert.equal(seededFile.get('PRAGMA integrity_check')?.integrity_check, 'ok');
		const analysed = seededFile.get("SELECT count(*) AS n FROM sqlite_stat1 WHERE tbl = 'application'") as {
			n: number;
		};
		assert.ok(analysed.n > 10, `statistics of the application indexes: ${analysed.n}`);
	});
});
