/** The sandbox: a seeded SQLite store and the operation handlers over it. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOperationHandlers, type OperationHandlers, type OperationOptions } from './domain/handlers';
import { DEMO_CREDENTIALS, seedDemoData } from './domain/seed';
import { Store } from './store/store';

/** Sandbox-only demo login: API key, username and password of the demo administrator. */
export interface DemoCredentials {
	apiKey: string;
	username: string;
	password: string;
}

export interface Sandbox {
	store: Store;
	handlers: OperationHandlers;
	demo: DemoCredentials;
	/** Deletes all data and seeds the demo data again (same seed and size; `now` is the current time). */
	reseed(): void;
	close(): void;
}

export interface SandboxOptions extends OperationOptions {
	/** Folder of sandbox.sqlite, or ':memory:'. */
	dataDir: string | ':memory:';
	/** Seed of the demo data (default 1). */
	seed?: number;
	/** Delete the database file first and seed again. */
	reset?: boolean;
	/** The time the demo data is generated around (default: now). */
	now?: Date;
	/** Smaller demo data (tests): number of adverts and applications. */
	demoSize?: { adverts?: number; applications?: number };
	/** scrypt cost of the seeded password hash (default 16384); tests lower it to run faster. */
	passwordCost?: number;
}

/** File name of the sandbox database inside dataDir. */
export const SANDBOX_FILE_NAME = 'sandbox.sqlite';

/**
 * Opens (creating, migrating and seeding on first use) the sandbox database at
 * <dataDir>/sandbox.sqlite, or in memory when dataDir is ':memory:'.
 */
export function openSandbox(options: SandboxOptions): Sandbox {
	let path: string | ':memory:' = ':memory:';
	if (options.dataDir !== ':memory:') {
		mkdirSync(options.dataDir, { recursive: true });
		path = join(options.dataDir, SANDBOX_FILE_NAME);
		if (options.reset) {
			rmSync(path, { force: true });
			rmSync(`${path}-journal`, { force: true });
		}
		releaseStaleLock(path);
		writeFileSync(ownerFile(path), String(process.pid));
	}
	const store = Store.open(path);
	const seed = (now: Date): void => {
		seedDemoData(store, { seed: options.seed ?? 1, now, passwordCost: options.passwordCost, ...options.demoSize });
		store.analyze();
	};
	try {
		if (store.isEmpty()) seed(options.now ?? new Date());
	} catch (error) {
		store.close();
		throw error;
	}
	return {
		store,
		handlers: createOperationHandlers(store, {
			maxPageSize: options.maxPageSize,
			loginUrlTtlMs: options.loginUrlTtlMs,
		}),
		demo: { ...DEMO_CREDENTIALS },
		reseed: () => {
			store.clearAll();
			seed(new Date());
		},
		close: () => store.close(),
	};
}

function ownerFile(databasePath: string): string {
	return `${databasePath}.owner`;
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * node-sqlite3-wasm locks with a `<file>.lock` folder held during a transaction. A process killed
 * mid-write leaves it behind, and every later open would fail with SQLITE_BUSY; the rollback journal
 * then restores the last committed state once the stale lock is gone. The lock is stale when the
 * process recorded in `<file>.owner` no longer runs.
 */
function releaseStaleLock(databasePath: string): void {
	const lock = `${databasePath}.lock`;
	if (!existsSync(lock)) return;
	let owner = NaN;
	try {
		owner = Number(readFileSync(ownerFile(databasePath), 'utf8').trim());
	} catch {
		// No owner recorded: the lock predates owner files or the owner file was removed with the process.
	}
	if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
		throw new Error(`The sandbox database ${databasePath} is in use by process ${owner}. Stop that sandbox first.`);
	}
	rmSync(lock, { recursive: true, force: true });
}
