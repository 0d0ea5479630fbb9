/**
 * The sandbox store: one SQLite database, one statement cache, and a repository per group of tables.
 * Every value is bound as a parameter; ORDER BY comes only from the whitelist in ordering.ts. The store
 * itself owns what spans the tables: transactions, bulk loading, clearing and diagnostics.
 */
import type { Database } from 'node-sqlite3-wasm';
import { AccountRepository, IDENTITY_TABLES } from './accounts';
import { AdvertRepository } from './adverts';
import { ApplicationRepository } from './applications';
import { CandidateRepository } from './candidates';
import { isDiskFull, openDatabase, schemaVersion, storageError, type OpenOptions, type SqlValue } from './database';
import { FeedRepository } from './feeds';
import { LoginTokenRepository } from './loginTokens';
import { LookupRepository } from './lookups';
import { PostingRepository } from './postings';
import { SEEDED_KEY } from './schema';
import { StatementCache } from './statements';
import { StorageError } from './storageError';

/** Every table, children before parents (the order clearAll deletes in). */
const TABLES = [
	// First: a reset that does not finish leaves a database that is seeded again at the next start.
	'sandbox_meta',
	'login_token',
	'candidate_tag',
	'note',
	'application_document',
	'application',
	'candidate',
	'tracking_log',
	'posting',
	'advert_value',
	'advert_destination',
	'advert',
	'feed_quota',
	'feed',
	'api_key',
	'app_user',
	'organisation',
	'progress',
	'lookup_value',
	'job_title',
] as const;

/** The tables counted by counts() (diagnostics and tests). */
const COUNTED_TABLES = [
	'organisation',
	'app_user',
	'api_key',
	'feed',
	'feed_quota',
	'advert',
	'posting',
	'tracking_log',
	'candidate',
	'application',
	'application_document',
	'note',
	'candidate_tag',
	'advert_value',
] as const;

/** Writes after which the planner's statistics are refreshed (see refreshStatisticsAfterWrites). */
const STATISTICS_WRITES = 2_000;
/** Least time between two refreshes. */
const STATISTICS_INTERVAL_MS = 30_000;

export class Store {
	/** Prepared statements reused across calls, shared by every repository (see statements.ts). */
	private readonly sql: StatementCache;
	/** sql.writes when the planner's statistics were last refreshed, and when (never since opening: undefined). */
	private writesAtStatistics = 0;
	private statisticsAt: number | undefined;
	/** Changes of state kept outside the database (noteChange). */
	private outsideChanges = 0;
	/** Organisations, API keys and users (identity lookups kept until those tables are written). */
	readonly accounts: AccountRepository;
	/** Job boards and quota rows. */
	readonly feeds: FeedRepository;
	/** Adverts (rows and counters kept until the next write). */
	readonly adverts: AdvertRepository;
	/** Postings, tracking log, quota use and the delivery queue. */
	readonly postings: PostingRepository;
	/** Applications, their actions, documents and the progress list. */
	readonly applications: ApplicationRepository;
	/** Candidates and tags. */
	readonly candidates: CandidateRepository;
	/** Currencies, weeks and job titles. */
	readonly lookups: LookupRepository;
	/** One-time login tokens of GetLoginURL. */
	readonly loginTokens: LoginTokenRepository;

	private constructor(
		private readonly db: Database,
		private readonly path: string,
	) {
		this.sql = new StatementCache(db, undefined, IDENTITY_TABLES);
		const transaction = <T>(work: () => T): T => this.transaction(work);
		this.accounts = new AccountRepository(this.sql);
		this.feeds = new FeedRepository(this.sql, this.accounts);
		this.adverts = new AdvertRepository(this.sql);
		this.postings = new PostingRepository(this.sql, transaction);
		this.applications = new ApplicationRepository(this.sql);
		this.candidates = new CandidateRepository(this.sql);
		this.lookups = new LookupRepository(this.sql);
		this.loginTokens = new LoginTokenRepository(this.sql, transaction);
	}

	/** Opens (creating, checking and migrating) a database file, or an in-memory database for ':memory:'. */
	static open(path: string | ':memory:', options?: OpenOptions): Store {
		return new Store(openDatabase(path, options), path);
	}

	close(): void {
		this.accounts.forget();
		this.sql.clear();
		if (this.db.isOpen) this.db.close();
	}

	get isOpen(): boolean {
		return this.db.isOpen;
	}

	/**
	 * Moves with every change of the sandbox's state: each write, each rollback, each bulk load, and
	 * each change noted with noteChange(). Anything derived from the state at one value (the answer
	 * cache) stays true while it has not moved.
	 */
	get changeCount(): number {
		return this.sql.writes + this.outsideChanges;
	}

	/**
	 * After many writes, PRAGMA optimize refreshes the query planner's statistics, which SQLite does
	 * not keep up to date by itself: a search planned on the statistics of the seeded data goes on
	 * walking the advert table first once thousands of new adverts (with no applications) joined it,
	 * and an application search over a date range took 4× as long. At most every 30 s, after 2,000
	 * writes; the statistics change no answer, only the plans.
	 */
	private refreshStatisticsAfterWrites(): void {
		if (this.sql.writes - this.writesAtStatistics < STATISTICS_WRITES) return;
		const now = Date.now();
		if (this.statisticsAt !== undefined && now - this.statisticsAt < STATISTICS_INTERVAL_MS) return;
		this.writesAtStatistics = this.sql.writes;
		this.statisticsAt = now;
		try {
			// Every table (0x10000), not only those this connection queried; each analysis bounded.
			this.db.exec('PRAGMA analysis_limit = 1000; PRAGMA optimize = 0x10002; PRAGMA analysis_limit = 0');
		} catch {
			// Statistics are an optimisation: a failure leaves the old plans, never an error for the caller.
		}
	}

	/**
	 * Counts a change of state kept outside the database (the login throttle). Only changeCount moves:
	 * the statement cache's derived data (identities, advert rows) does not depend on it.
	 */
	noteChange(): void {
		this.outsideChanges++;
	}

	schemaVersion(): number {
		return schemaVersion(this.db);
	}

	/**
	 * Runs work in one BEGIN IMMEDIATE transaction; an exception rolls back every write in it. Nested
	 * calls join the outer transaction. BEGIN/COMMIT are kept statements (exec would compile them each time).
	 */
	transaction<T>(work: () => T): T {
		if (this.db.inTransaction) return work();
		const writesBefore = this.sql.writes;
		this.sql.control('BEGIN IMMEDIATE');
		try {
			const result = work();
			this.sql.control('COMMIT');
			this.refreshStatisticsAfterWrites();
			return result;
		} catch (error) {
			// A read after a write inside the transaction may have kept rows that the rollback undoes.
			if (this.sql.writes !== writesBefore) this.sql.invalidate();
			if (this.db.inTransaction) this.sql.control('ROLLBACK');
			// A full disk says so (in the log and at start-up), not as a generic SQLite error.
			throw isDiskFull(error) ? storageError(error, this.path) : error;
		}
	}

	/**
	 * Bulk loading with prepared statements (seeding). The callback gets a factory of statements that
	 * are finalized afterwards, and a query function; everything runs in one transaction.
	 */
	bulkLoad(
		work: (
			prepare: (sql: string) => (values: readonly SqlValue[]) => number,
			query: (sql: string, values?: readonly SqlValue[]) => Record<string, unknown>[],
		) => void,
	): void {
		const statements: ReturnType<Database['prepare']>[] = [];
		try {
			this.transaction(() =>
				work(
					(sql) => {
						const statement = this.db.prepare(sql);
						statements.push(statement);
						return (values) => Number(statement.run(values as SqlValue[]).lastInsertRowid);
					},
					(sql, values) => this.db.all(sql, values as SqlValue[]) as Record<string, unknown>[],
				),
			);
		} finally {
			for (const statement of statements) {
				try {
					statement.finalize();
				} catch {
					// finalize repeats the statement's last error, which the transaction has already thrown.
				}
			}
			// Seeding writes around the statement cache: forget what was derived before.
			this.accounts.forget();
			this.sql.invalidate();
		}
	}

	/**
	 * Runs work with the non-unique indexes and the triggers dropped, then makes them again: filling a
	 * new database (seeding into a scratch file) is several times faster that way than keeping every
	 * index up to date row by row. Unique indexes stay, so constraints hold throughout. The triggers only
	 * refuse inconsistent rows, like the foreign keys a scratch file does not check: the generators
	 * make none (test/emulator/domain/seedFile.test.ts compares with seeding with every check in place).
	 */
	withoutSecondaryIndexesAndTriggers(work: () => void): void {
		const dropped = this.db.all(
			"SELECT type, name, sql FROM sqlite_master WHERE ((type = 'index' AND sql NOT LIKE 'CREATE UNIQUE%') OR type = 'trigger') AND sql IS NOT NULL ORDER BY type, name",
		) as { type: 'index' | 'trigger'; name: string; sql: string }[];
		this.transaction(() => {
			for (const { type, name } of dropped) {
				this.db.exec(`DROP ${type === 'index' ? 'INDEX' : 'TRIGGER'} "${name.replace(/"/g, '""')}"`);
			}
		});
		work();
		this.transaction(() => {
			for (const { sql } of dropped) this.db.exec(sql);
		});
		this.sql.invalidate();
	}

	/**
	 * What seeding recorded in its last transaction, or undefined when seeding never finished. A marker
	 * that is not a JSON object is refused as damage (StorageError 'damaged'), never taken for "not seeded":
	 * seeding again would delete the data.
	 */
	seedingRecord(): Record<string, unknown> | undefined {
		const row = this.sql.one<{ value: string }>('SELECT value FROM sandbox_meta WHERE key = ?', [SEEDED_KEY]);
		if (row === undefined) return undefined;
		let record: unknown;
		try {
			record = JSON.parse(row.value);
		} catch (error) {
			throw damagedMarker(this.path, `it is not valid JSON: ${(error as Error).message}`);
		}
		if (typeof record !== 'object' || record === null || Array.isArray(record)) {
			throw damagedMarker(this.path, 'it is not a JSON object');
		}
		return record as Record<string, unknown>;
	}

	/** Records that seeding finished; call it in seeding's last transaction. */
	markSeeded(record: Record<string, unknown>): void {
		this.sql.run('INSERT OR REPLACE INTO sandbox_meta (key, value) VALUES (?, ?)', [
			SEEDED_KEY,
			JSON.stringify(record),
		]);
	}

	isEmpty(): boolean {
		return this.sql.one('SELECT 1 AS present FROM organisation LIMIT 1') === undefined;
	}

	/** Deletes every row of every table (reset before seeding again); the schema stays. */
	clearAll(): void {
		this.accounts.forget();
		this.transaction(() => {
			for (const table of TABLES) this.sql.run(`DELETE FROM ${table}`);
		});
	}

	/** Refreshes the planner's statistics (after seeding), so selective indexes win on large accounts. */
	analyze(): void {
		this.db.exec('ANALYZE');
	}

	/** Row counts per table (diagnostics and tests). */
	counts(): Record<string, number> {
		const result: Record<string, number> = {};
		for (const table of COUNTED_TABLES) {
			result[table] = this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)?.n ?? 0;
		}
		return result;
	}
}

/** The seeding marker of sandbox_meta cannot be read: say which file, what is wrong and what to do. */
function damagedMarker(path: string, what: string): StorageError {
	return new StorageError(
		'damaged',
		`The sandbox database ${path} is damaged: its seeding marker (table sandbox_meta, key '${SEEDED_KEY}') cannot be read (${what.slice(0, 200)}). ` +
			'Reset the sandbox (--reset, or "Reset Sandbox" in VS Code) to start again with fresh demo data; this deletes its data.',
	);
}
