/** Opening, migrating and transactions of the SQLite database (node-sqlite3-wasm, synchronous). */
import { Database } from 'node-sqlite3-wasm';
import { MIGRATIONS } from './schema';

/** The values a statement can bind. */
export type SqlValue = number | string | Uint8Array | null;
export type SqlRow = Record<string, SqlValue | bigint>;

/**
 * Opens a database file (created when missing) or an in-memory database, turns foreign keys on and
 * applies every migration newer than the stored schema_version, each in its own transaction.
 */
export function openDatabase(path: string | ':memory:'): Database {
	const db = new Database(path);
	try {
		db.exec('PRAGMA foreign_keys = ON');
		// The wasm VFS has no shared memory, so WAL is unavailable; keep the rollback journal.
		db.exec('PRAGMA journal_mode = DELETE');
		// A 64 MB page cache keeps seeding (one large transaction) from spilling pages early.
		db.exec('PRAGMA cache_size = -65536');
		migrate(db);
		return db;
	} catch (error) {
		db.close();
		throw error;
	}
}

/** The highest migration applied to this database (0 for a new file). */
export function schemaVersion(db: Database): number {
	db.exec(
		'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)',
	);
	const row = db.get('SELECT max(version) AS version FROM schema_version') as { version: number | null } | null;
	return row?.version ?? 0;
}

function migrate(db: Database): void {
	const current = schemaVersion(db);
	for (const migration of MIGRATIONS) {
		if (migration.version <= current) continue;
		inTransaction(db, () => {
			db.exec(migration.sql);
			db.run('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)', [
				migration.version,
				migration.description,
				new Date().toISOString(),
			]);
		});
	}
}

/**
 * Runs work in BEGIN IMMEDIATE … COMMIT; any exception rolls everything back and is rethrown.
 * Nested calls join the outer transaction.
 */
export function inTransaction<T>(db: Database, work: () => T): T {
	if (db.inTransaction) return work();
	db.exec('BEGIN IMMEDIATE');
	try {
		const result = work();
		db.exec('COMMIT');
		return result;
	} catch (error) {
		if (db.inTransaction) db.exec('ROLLBACK');
		throw error;
	}
}

/** `?, ?, ?` for an IN list of n values (n ≥ 1). */
export function placeholders(count: number): string {
	return new Array<string>(Math.max(count, 1)).fill('?').join(', ');
}
