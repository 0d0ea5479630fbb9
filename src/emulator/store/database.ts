/**
 * Opening, checking, migrating and transactions of the SQLite database (node:sqlite, see engine.ts).
 *
 * A database file is opened in exclusive locking mode with a write-ahead log: one process owns the
 * file for as long as it is open (the sandbox's owner lock makes sure of that), so SQLite keeps its
 * page cache across transactions, takes its file lock once instead of around every statement, and
 * keeps the WAL index in heap memory instead of a shared-memory file. synchronous=NORMAL: a commit
 * writes its pages to the log without fsync, and a checkpoint fsyncs the log, then the database. So a
 * killed process loses nothing it committed (its writes are the operating system's once the COMMIT
 * returns); a power cut or a crash of the operating system can lose the last commits before the next
 * checkpoint, never consistency. A failed write fails the COMMIT itself, and a full disk says so.
 */
import { dirname } from 'node:path';
import { Database, type SqlValue } from './engine';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './schema';
import { StorageError } from './storageError';

export type { SqlValue };

export interface OpenOptions {
	/**
	 * `serve` (default): exclusive lock, WAL, commits without fsync, checked with quick_check.
	 * `seed`: a new file being filled by seeding, without journal or fsync, and without foreign-key
	 * checks (the generators only refer to rows they made; tests check every seeded file with
	 * PRAGMA foreign_key_check); the caller throws the file away unless seeding finishes, then makes
	 * it durable (see sandbox.ts).
	 */
	purpose?: 'serve' | 'seed';
	/**
	 * Skip quick_check: the file was seeded by this process a moment ago and made durable before it
	 * took its name (quick_check reads every page: 2–3 s on a million applications).
	 */
	justSeeded?: boolean;
	/** Told when migrations brought a database of an earlier schema (not a new one) to the latest. */
	onUpgrade?: (upgrade: SchemaUpgrade) => void;
}

/** Migrations applied to an existing database when it was opened. */
export interface SchemaUpgrade {
	from: number;
	to: number;
	ms: number;
}

/** Largest write-ahead log kept after a checkpoint (it is truncated to this size). */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;
/**
 * Pages in the write-ahead log before it is copied back into the database (SQLite's default: 1000):
 * 64 MB, the size the log is kept to. Each checkpoint costs two fsyncs and rewrites the pages that
 * changed; with more commits between checkpoints, a page written by many of them (an index's last
 * leaf, say) is copied once. 6,000 advert inserts, one per commit: 167–289 µs each with 4,096 pages,
 * 127–153 µs with 16,384. A commit is durable once in the log, whenever the checkpoint comes.
 */
const WAL_AUTOCHECKPOINT_PAGES = 16384;

/**
 * Opens a database file (created when missing) or an in-memory database, checks it (integrity,
 * schema version), turns foreign keys on and applies every migration newer than the stored
 * schema_version, each in its own transaction. A hot journal or log left by a crash is rolled back
 * or recovered by SQLite on the first read.
 */
export function openDatabase(path: string | ':memory:', options: OpenOptions = {}): Database {
	const purpose = options.purpose ?? 'serve';
	const file = path !== ':memory:';
	let db: Database;
	try {
		db = new Database(path);
	} catch (error) {
		throw storageError(error, path);
	}
	try {
		if (file) {
			// Must come before the first read: it decides how the WAL index is kept (in heap memory).
			db.exec('PRAGMA locking_mode = EXCLUSIVE');
			if (purpose === 'seed') {
				db.exec('PRAGMA journal_mode = OFF');
				db.exec('PRAGMA synchronous = OFF');
			} else {
				const mode = (db.get('PRAGMA journal_mode = WAL') as { journal_mode: string }).journal_mode;
				if (mode !== 'wal') throw new Error(`SQLite refused the write-ahead log (journal mode ${mode})`);
				db.exec('PRAGMA synchronous = NORMAL');
				// macOS: a checkpoint flushes the drive's cache too (F_FULLFSYNC), so a power cut cannot reorder it.
				db.exec('PRAGMA checkpoint_fullfsync = ON');
				db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT}`);
				db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
			}
		}
		// Foreign keys are checked on every write the sandbox serves; seeding a new file checks none:
		// a lookup of each parent row was a fifth of the time of seeding a million applications.
		db.exec(purpose === 'seed' ? 'PRAGMA foreign_keys = OFF' : 'PRAGMA foreign_keys = ON');
		// A 64 MB page cache keeps large transactions (seeding) from spilling pages early.
		db.exec('PRAGMA cache_size = -65536');
		if (file && purpose === 'serve' && options.justSeeded !== true) quickCheck(db, path);
		refuseNewerSchema(db, path);
		migrate(db, options.onUpgrade);
		return db;
	} catch (error) {
		if (db.isOpen) closeQuietly(db);
		throw storageError(error, path);
	}
}

/** PRAGMA quick_check (the b-trees, their order and their pages; not the index contents): a damaged file is refused. */
function quickCheck(db: Database, path: string): void {
	const rows = db.all('PRAGMA quick_check(5)') as { quick_check: string }[];
	const problems = rows.map((row) => row.quick_check).filter((text) => text !== 'ok');
	if (problems.length > 0) {
		throw new StorageError(
			'damaged',
			`The sandbox database ${path} is damaged (${problems.join('; ')}). ` +
				'Reset the sandbox (--reset, or "Reset Sandbox" in VS Code) to start again with fresh demo data; this deletes its data.',
		);
	}
}

function refuseNewerSchema(db: Database, path: string): void {
	const version = schemaVersion(db);
	if (version > LATEST_SCHEMA_VERSION) {
		throw new StorageError(
			'newer-version',
			`The sandbox database ${path} was written by a newer version of Multiposting Workbench ` +
				`(schema ${version}; this version knows up to ${LATEST_SCHEMA_VERSION}). ` +
				'Update the extension (or the multiposting-sandbox command), or use another data folder; ' +
				'resetting the sandbox also works but deletes its data.',
		);
	}
}

/** The highest migration applied to this database (0 for a new file). */
export function schemaVersion(db: Database): number {
	db.exec(
		'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)',
	);
	const row = db.get('SELECT max(version) AS version FROM schema_version') as { version: number | null } | undefined;
	return row?.version ?? 0;
}

function migrate(db: Database, onUpgrade?: (upgrade: SchemaUpgrade) => void): void {
	const current = schemaVersion(db);
	const started = Date.now();
	for (const migration of MIGRATIONS) {
		if (migration.version <= current) continue;
		inTransaction(db, () => {
			db.exec(migration.sql);
			migration.after?.(db, current);
			db.run('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)', [
				migration.version,
				migration.description,
				new Date().toISOString(),
			]);
		});
	}
	if (current > 0 && current < LATEST_SCHEMA_VERSION) {
		onUpgrade?.({ from: current, to: LATEST_SCHEMA_VERSION, ms: Date.now() - started });
	}
}

/**
 * The error to show for a failure of the storage: a full disk says so (SQLITE_FULL), a damaged file
 * says how to start again; others pass unchanged.
 */
export function storageError(error: unknown, path: string): unknown {
	if (error instanceof StorageError || !(error instanceof Error)) return error;
	if (isDiskFull(error)) {
		return new StorageError(
			'disk-full',
			`The disk is full: the sandbox could not write its database in ${dirname(path)}. Free some space and start it again.`,
			{ cause: error },
		);
	}
	if (/file is not a database|database disk image is malformed/.test(error.message)) {
		return new StorageError(
			'damaged',
			`The sandbox database ${path} is damaged or is not a sandbox database (${error.message}). ` +
				'Reset the sandbox (--reset, or "Reset Sandbox" in VS Code) to start again with fresh demo data; this deletes its data.',
			{ cause: error },
		);
	}
	if (/database is locked/.test(error.message)) {
		return new StorageError(
			'in-use',
			`The sandbox database ${path} is in use by another program (${error.message}). Close it and start the sandbox again.`,
			{ cause: error },
		);
	}
	return error;
}

/** SQLite's message for SQLITE_FULL. */
export function isDiskFull(error: unknown): boolean {
	return error instanceof Error && /database or disk is full/.test(error.message);
}

function closeQuietly(db: Database): void {
	try {
		db.close();
	} catch {
		// Closing after a failed open reports the same failure again; the handle is released regardless.
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
