/** The sandbox: a seeded SQLite store and the operation handlers over it, owned by one process at a time. */
import {
	closeSync,
	existsSync,
	fsyncSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createOperationHandlers, type OperationHandlers, type OperationOptions } from './domain/handlers';
import { DEMO_CREDENTIALS, seedSandbox, type SeedOptions } from './domain/seed';
import { storageError } from './store/database';
import { StorageError } from './store/storageError';
import { acquireOwnerLock, type OwnerLock } from './store/ownerLock';
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
	/** What opening found and did that a person should know (a crash recovered, an unfinished seeding redone). */
	notices: readonly string[];
	/** Deletes all data and seeds the demo data again (same seed and size; `now` is the current time). */
	reseed(): void;
	/** Closes the database and gives the data folder up. */
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
	/** What this process is, shown to a second sandbox refused on the same folder (default: guessed). */
	owner?: string;
}

/** File name of the sandbox database inside dataDir. */
export const SANDBOX_FILE_NAME = 'sandbox.sqlite';
/** Suffix of the file a new database is seeded into before it takes the database's name. */
const SEEDING_SUFFIX = '.seeding';

/**
 * Opens (creating, migrating and seeding on first use) the sandbox database at
 * <dataDir>/sandbox.sqlite, or in memory when dataDir is ':memory:'. A data folder has one owner at a
 * time: a second sandbox on it is refused (StorageError 'in-use') until the first closes or dies.
 */
export function openSandbox(options: SandboxOptions): Sandbox {
	const seedOptions = (now: Date): SeedOptions => ({
		seed: options.seed ?? 1,
		now,
		passwordCost: options.passwordCost,
		...options.demoSize,
	});
	const notices: string[] = [];
	let store: Store;
	let lock: OwnerLock | undefined;
	if (options.dataDir === ':memory:') {
		store = Store.open(':memory:');
		seedSandbox(store, seedOptions(options.now ?? new Date()));
	} else {
		mkdirSync(options.dataDir, { recursive: true });
		lock = acquireOwnerLock(options.dataDir, options.owner ?? describeThisProcess());
		try {
			store = openOwned(options.dataDir, lock, options.reset === true, notices, () =>
				seedOptions(options.now ?? new Date()),
			);
		} catch (error) {
			removeLegacyOwner(join(options.dataDir, SANDBOX_FILE_NAME));
			lock.release();
			throw error;
		}
	}
	const databasePath = options.dataDir === ':memory:' ? undefined : join(options.dataDir, SANDBOX_FILE_NAME);
	return {
		store,
		handlers: createOperationHandlers(store, {
			maxPageSize: options.maxPageSize,
			loginUrlTtlMs: options.loginUrlTtlMs,
			hashingBudget: options.hashingBudget,
			quotaStates: options.quotaStates,
		}),
		demo: { ...DEMO_CREDENTIALS },
		notices,
		reseed: () => {
			// The marker goes first and comes back last: a reset cut short is seeded again at the next start.
			store.clearAll();
			seedSandbox(store, seedOptions(new Date()));
		},
		close: () => {
			try {
				store.close();
			} finally {
				if (databasePath !== undefined) removeLegacyOwner(databasePath);
				lock?.release();
			}
		},
	};
}

/** Opens the database of a data folder this process owns, recovering, checking and seeding as needed. */
function openOwned(
	dataDir: string,
	lock: OwnerLock,
	reset: boolean,
	notices: string[],
	seedOptions: () => SeedOptions,
): Store {
	const path = join(dataDir, SANDBOX_FILE_NAME);
	clearLegacyLock(path, lock);
	if (lock.tookOverFrom !== undefined) {
		notices.push(
			`The previous sandbox on this folder (process ${lock.tookOverFrom.pid}, ${lock.tookOverFrom.description}) ` +
				'ended without closing; its last committed state is kept.',
		);
	}
	// A seeding cut short leaves only its scratch file behind: nothing of it is ever used.
	for (const name of readdirSync(dataDir)) {
		if (name.startsWith(`${SANDBOX_FILE_NAME}${SEEDING_SUFFIX}`)) {
			rmSync(join(dataDir, name), { recursive: true, force: true });
		}
	}
	if (reset) removeDatabaseFiles(path);
	if (existsSync(path)) {
		const store = Store.open(path, {
			onUpgrade: ({ from, to, ms }) =>
				notices.push(
					`The sandbox database ${path} was upgraded from schema ${from} to ${to} in ${(ms / 1000).toFixed(1)} s (once; a million applications take about half a minute).`,
				),
		});
		let seeded: boolean;
		try {
			seeded = store.seedingRecord() !== undefined;
		} catch (error) {
			store.close();
			throw error;
		}
		if (seeded) return store;
		store.close();
		notices.push(
			`The sandbox database ${path} was never completely seeded (seeding was interrupted); seeding it again.`,
		);
		removeDatabaseFiles(path);
	}
	seedNewFile(path, seedOptions());
	return Store.open(path, { justSeeded: true });
}

/**
 * Seeds a new database into a scratch file (no journal, no fsync: it is thrown away unless seeding
 * finishes), makes it durable and only then gives it the database's name: all or nothing.
 */
function seedNewFile(path: string, options: SeedOptions): void {
	const scratch = `${path}${SEEDING_SUFFIX}`;
	removeDatabaseFiles(scratch);
	try {
		const store = Store.open(scratch, { purpose: 'seed' });
		try {
			seedSandbox(store, options, { newFile: true });
		} catch (error) {
			try {
				store.close();
			} catch {
				// The seeding error says what happened; the scratch file is removed below.
			}
			throw error;
		}
		store.close();
		fsyncPath(scratch);
		renameSync(scratch, path);
		fsyncPath(dirname(path));
	} catch (error) {
		removeDatabaseFiles(scratch);
		throw storageError(error, path);
	}
}

/** The database file and the files SQLite keeps beside it. */
function removeDatabaseFiles(path: string): void {
	for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
	rmSync(`${path}.lock`, { recursive: true, force: true });
}

function fsyncPath(path: string): void {
	let fd: number;
	try {
		fd = openSync(path, 'r');
	} catch {
		return;
	}
	try {
		fsyncSync(fd);
	} catch (error) {
		// Some systems cannot fsync a directory (EISDIR/EINVAL/EPERM); a file must be synced.
		if (!['EISDIR', 'EINVAL', 'EPERM', 'EBADF'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
	} finally {
		closeSync(fd);
	}
}

/**
 * Earlier versions (before the owner lock) locked with `<file>.lock` around each transaction and wrote
 * their pid in `<file>.owner`. A lock folder left beside the database is stale once we own the data
 * folder, unless an earlier version that does not know the owner lock still runs on it; and SQLite's
 * own `<file>.lock` left by a killed process is removed the same way. `<file>.owner` then names us, so
 * an earlier version started later refuses the folder.
 */
function clearLegacyLock(path: string, lock: OwnerLock): void {
	const lockFolder = `${path}.lock`;
	if (existsSync(lockFolder)) {
		const legacyOwner = readLegacyOwner(path);
		if (
			legacyOwner !== undefined &&
			legacyOwner !== process.pid &&
			legacyOwner !== lock.tookOverFrom?.pid &&
			pidAnswers(legacyOwner)
		) {
			throw new StorageError(
				'in-use',
				`The sandbox database ${path} is in use by process ${legacyOwner} (an earlier version of the sandbox). Stop that sandbox first.`,
			);
		}
		rmSync(lockFolder, { recursive: true, force: true });
	}
	writeFileSync(`${path}.owner`, String(process.pid));
}

function readLegacyOwner(path: string): number | undefined {
	try {
		const pid = Number(readFileSync(`${path}.owner`, 'utf8').trim());
		return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

function removeLegacyOwner(path: string): void {
	if (readLegacyOwner(path) === process.pid) rmSync(`${path}.owner`, { force: true });
}

function pidAnswers(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** A guess at what this process is, for the owner lock (callers that know say it with `owner`). */
function describeThisProcess(): string {
	if (
		process.env.VSCODE_PID !== undefined ||
		process.env.VSCODE_IPC_HOOK !== undefined ||
		process.versions.electron
	) {
		return 'VS Code (the Multiposting Workbench extension)';
	}
	const script = process.argv[1] ? basename(process.argv[1]) : 'node';
	return `node ${script}`;
}
