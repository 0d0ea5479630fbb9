/** The sandbox: a seeded SQLite store and the operation handlers over it. */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createOperationHandlers, type OperationHandlers, type OperationOptions } from './domain/operations';
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
	}
	const store = Store.open(path);
	try {
		if (store.isEmpty()) {
			seedDemoData(store, { seed: options.seed ?? 1, now: options.now ?? new Date(), passwordCost: options.passwordCost, ...options.demoSize });
		}
	} catch (error) {
		store.close();
		throw error;
	}
	return {
		store,
		handlers: createOperationHandlers(store, { maxPageSize: options.maxPageSize, loginUrlTtlMs: options.loginUrlTtlMs }),
		demo: { ...DEMO_CREDENTIALS },
		close: () => store.close(),
	};
}
