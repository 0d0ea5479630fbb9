/**
 * The SQLite engine: node:sqlite (built into Node from 22.13, into VS Code's extension host from 1.103),
 * behind the few calls the store makes. Synchronous, in the calling thread (the extension runs the
 * sandbox in a worker thread). Rows come back as objects without a prototype, keyed by column name.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** The values a statement can bind. */
export type SqlValue = number | string | Uint8Array | null;

/** A prepared statement: `run`, `get` and `all` take the values of its `?` in order. */
export type Statement = StatementSync;

/** A numbered parameter (`?1`) outside quotes, roughly: SQL of the store never has `?` followed by a digit otherwise. */
const NUMBERED_PARAMETER = /\?\d/;

type Sqlite = typeof import('node:sqlite');
let sqlite: Sqlite | undefined;

/**
 * node:sqlite, loaded on first use. Node 22 calls it experimental in a warning on stderr when it loads
 * (Node 24 no longer does); the module is what the sandbox is built on, and the warning tells a user
 * of the sandbox nothing they can act on, so that one warning is not shown. Every other warning is.
 */
function loadSqlite(): Sqlite {
	if (sqlite !== undefined) return sqlite;
	const emitWarning = process.emitWarning;
	process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]): void {
		const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
		if (type === 'ExperimentalWarning' && /\bSQLite\b/.test(String(warning))) return;
		Reflect.apply(emitWarning, process, [warning, ...rest]);
	} as typeof process.emitWarning;
	try {
		sqlite = process.getBuiltinModule('node:sqlite');
	} finally {
		process.emitWarning = emitWarning;
	}
	return sqlite;
}

/** A connection to one database file (created when missing) or to an in-memory database. */
export class Database {
	private readonly native: DatabaseSync;

	constructor(path: string) {
		this.native = new (loadSqlite().DatabaseSync)(path);
	}

	get isOpen(): boolean {
		return this.native.isOpen;
	}

	/** Whether a transaction is open (BEGIN without its COMMIT or ROLLBACK yet). */
	get inTransaction(): boolean {
		return this.native.isTransaction;
	}

	/** Runs one or more statements without values (schema, PRAGMA, BEGIN …). */
	exec(sql: string): void {
		this.native.exec(sql);
	}

	/**
	 * Prepares a statement whose values are bound by position, with `?` only: Node 22 does not bind a
	 * numbered `?1` by position ("column index out of range"), so one is refused on every Node.
	 */
	prepare(sql: string): Statement {
		if (NUMBERED_PARAMETER.test(sql)) {
			throw new Error(
				`Numbered parameters (?1) cannot be bound by position on Node 22; repeat the value: ${sql}`,
			);
		}
		return this.native.prepare(sql);
	}

	/** Runs one statement once (prepared for this call only; repeated statements go through StatementCache). */
	run(sql: string, values: readonly SqlValue[] = []): { changes: number; lastInsertRowid: number | bigint } {
		const result = this.prepare(sql).run(...values);
		return { changes: Number(result.changes), lastInsertRowid: result.lastInsertRowid };
	}

	/** The first row of a query, or undefined. */
	get(sql: string, values: readonly SqlValue[] = []): Record<string, unknown> | undefined {
		return this.prepare(sql).get(...values);
	}

	all(sql: string, values: readonly SqlValue[] = []): Record<string, unknown>[] {
		return this.prepare(sql).all(...values);
	}

	/** Closes the file; every statement prepared on it is finalized. */
	close(): void {
		this.native.close();
	}
}
