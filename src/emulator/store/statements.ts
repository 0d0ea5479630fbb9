/**
 * Prepared statements kept by SQL text. Preparing (parsing and planning) is the costliest step of a
 * small query, and the store runs the same few dozen statements over and over. SQLite re-prepares a
 * kept statement by itself after a schema change (sqlite3_prepare_v2), so a kept statement is never
 * stale; node:sqlite resets a statement after each call, failed or not, so it can always be used again.
 */
import type { SqlValue } from './database';
import type { Database, Statement } from './engine';

/** Distinct statements kept; searches build their WHERE from the filters given, so the set is bounded but not tiny. */
const DEFAULT_CAPACITY = 256;

export class StatementCache {
	/** Insertion order is recency order: a hit moves its statement to the end. */
	private readonly statements = new Map<string, Statement>();
	/** Counts calls of run(): a cache of derived data is valid while this has not moved. */
	writes = 0;
	/** Counts calls of run() whose SQL names a watched table: a cache of those tables is valid while this has not moved. */
	watchedWrites = 0;
	/** Whether a write's SQL names a watched table, by SQL text (the texts are few and fixed). */
	private readonly namesWatched = new Map<string, boolean>();

	constructor(
		private readonly db: Database,
		private readonly capacity = DEFAULT_CAPACITY,
		/** Tables whose writes move `watchedWrites`; matched as whole words anywhere in the SQL, so a mention errs on the safe side. */
		private readonly watchedTables?: RegExp,
	) {}

	/** Every row of a query, as the caller's row type (the SQL's column aliases are its field names). */
	all<T = Record<string, unknown>>(sql: string, values?: SqlValue[]): T[] {
		return this.use(sql, (statement) => (values === undefined ? statement.all() : statement.all(...values)) as T[]);
	}

	/**
	 * The first row of a query, or undefined. Reads every row so that the statement finishes and releases
	 * its read lock at once; the store's single-row queries select by key or aggregate.
	 */
	one<T = Record<string, unknown>>(sql: string, values?: SqlValue[]): T | undefined {
		return this.all<T>(sql, values)[0];
	}

	/**
	 * Rows of a query whose only column is `row_json`, one JSON object per row (see jsonRow): one
	 * value per row crosses into JavaScript instead of one per cell, which is most of the cost of a
	 * wide row.
	 */
	allJson<T>(sql: string, values?: SqlValue[]): T[] {
		const rows = this.all<{ row_json: string }>(sql, values);
		const out = new Array<T>(rows.length);
		for (let i = 0; i < rows.length; i++) out[i] = JSON.parse(rows[i].row_json) as T;
		return out;
	}

	/**
	 * An INSERT, UPDATE or DELETE. It counts as a write only when it changed rows: a statement that
	 * matched nothing (or an update that found the row already so, see ApplicationRepository.score)
	 * leaves every cache of derived data true.
	 */
	run(sql: string, values?: SqlValue[]): { changes: number; lastInsertRowid: number | bigint } {
		const result = this.use(sql, (statement) =>
			values === undefined ? statement.run() : statement.run(...values),
		);
		if (result.changes > 0) this.countWrite(sql);
		return { changes: Number(result.changes), lastInsertRowid: result.lastInsertRowid };
	}

	private countWrite(sql: string): void {
		this.writes++;
		if (this.watchedTables === undefined) return;
		let watched = this.namesWatched.get(sql);
		if (watched === undefined) {
			watched = this.watchedTables.test(sql);
			if (this.namesWatched.size < DEFAULT_CAPACITY * 4) this.namesWatched.set(sql, watched);
		}
		if (watched) this.watchedWrites++;
	}

	/** A statement that changes no rows itself (BEGIN, COMMIT, ROLLBACK), kept like the others but not counted as a write. */
	control(sql: string): void {
		this.use(sql, (statement) => statement.run());
	}

	/** Counts a change made around run() (bulk loading, a rollback): every cache of derived data becomes invalid. */
	invalidate(): void {
		this.writes++;
		this.watchedWrites++;
	}

	/** Forgets every kept statement (before the database closes, which finalizes them). */
	clear(): void {
		this.statements.clear();
	}

	get size(): number {
		return this.statements.size;
	}

	private use<T>(sql: string, work: (statement: Statement) => T): T {
		let statement = this.statements.get(sql);
		if (statement === undefined) {
			statement = this.db.prepare(sql);
			if (this.statements.size >= this.capacity) this.evictOldest();
		} else {
			this.statements.delete(sql);
		}
		this.statements.set(sql, statement);
		return work(statement);
	}

	/** Drops the least recently used statement (node:sqlite finalizes it when it is collected). */
	private evictOldest(): void {
		const oldest = this.statements.keys().next();
		if (oldest.done !== true) this.statements.delete(oldest.value);
	}
}

/**
 * `expr AS alias, table.column, ...` as `json_object('alias', expr, 'column', table.column, ...) AS row_json`,
 * for {@link StatementCache.allJson}. Integers, text and NULL come back as the plain columns would, and
 * reals too where 15 significant digits hold them (the SQLite of Node 22, 3.50, writes no more in JSON;
 * the store selects no real this way); a BLOB column cannot be selected this way (SQLite refuses it).
 */
export function jsonRow(columns: string): string {
	const pairs = splitTopLevel(columns).map((column) => {
		const as = /^(.*?)\s+AS\s+(\w+)$/is.exec(column);
		const expression = as ? as[1].trim() : column;
		const name = as ? as[2] : column.slice(column.lastIndexOf('.') + 1);
		if (!/^\w+$/.test(name)) throw new Error(`jsonRow: cannot name the column ${column}`);
		return `'${name}', ${expression}`;
	});
	return `json_object(${pairs.join(', ')}) AS row_json`;
}

/** Splits a column list at the commas outside parentheses. */
function splitTopLevel(columns: string): string[] {
	const parts: string[] = [];
	let depth = 0;
	let start = 0;
	for (let i = 0; i < columns.length; i++) {
		const c = columns[i];
		if (c === '(') depth++;
		else if (c === ')') depth--;
		else if (c === ',' && depth === 0) {
			parts.push(columns.slice(start, i).trim());
			start = i + 1;
		}
	}
	parts.push(columns.slice(start).trim());
	return parts.filter((part) => part !== '');
}
