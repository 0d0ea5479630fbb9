/**
 * A child process for the storage hardening tests (test/hardening/crashRecovery.test.ts and
 * storageSafety.test.ts): it opens a sandbox the way the product does and then writes, seeds or
 * holds the data folder, and it can be made to die (SIGKILL, sent to itself) or to meet a full disk
 * at an exact file-system call. Its acknowledgements go to stdout with a synchronous write, so a line
 * printed before the kill is never lost. Run as `node storageChild.js '<json>'`.
 */
import { createRequire } from 'node:module';
import { Database } from 'node-sqlite3-wasm';
import { openSandbox, type Sandbox } from '../../src/emulator/sandbox';

export interface ChildTask {
	mode: 'writer' | 'seed' | 'reseed' | 'hold' | 'legacySpill';
	dataDir: string;
	/** writer: transactions to run (numbered from `firstTx`). */
	transactions?: number;
	firstTx?: number;
	/** The fault: after this many counted file writes and fsyncs (of the armed part), die or fail. */
	faultAfter?: number;
	fault?: 'kill' | 'enospc' | 'short-then-enospc';
	/** writer: count toward the fault from this transaction on (default: from the start). */
	armTx?: number;
	/** writer: page cache in pages (tiny: the transaction spills pages before COMMIT). */
	cacheSize?: number;
	/** seed/reseed: the size and time of the demo data. */
	demoSize?: { adverts: number; applications: number };
	now?: string;
	/** legacySpill: the database file to write with the engine's default (rollback journal) settings. */
	file?: string;
}

const fs = createRequire(__filename)('node:fs') as {
	writeSync: (...args: unknown[]) => number;
	fsyncSync: (fd: number) => void;
};

/** An error as one line of JSON: its name, its message and its problem (StorageError). */
function describe(error: unknown): string {
	const { name, message, problem } = error as { name: string; message: string; problem?: string };
	return JSON.stringify({ name, message, problem });
}

/** Prints one line on stdout synchronously (not counted as a file write). */
function say(line: string): void {
	realWrite(1, `${line}\n`);
}

const realWrite = fs.writeSync.bind(fs);
const realFsync = fs.fsyncSync.bind(fs);
let armed = false;
/** File writes and fsyncs counted since arming. */
let counted = 0;
/** File writes and fsyncs in all. */
let total = 0;

/** Counts file writes and fsyncs once armed, and meets the fault at the chosen one. */
function installFault(task: ChildTask): void {
	const hit = (): boolean => {
		total++;
		return armed && task.faultAfter !== undefined && ++counted >= task.faultAfter;
	};
	const enospc = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
	fs.writeSync = (...args: unknown[]): number => {
		if (args[0] === 1 || args[0] === 2) return realWrite(...args);
		if (hit()) {
			if (task.fault === 'kill') process.kill(process.pid, 'SIGKILL');
			if (task.fault === 'short-then-enospc' && counted === task.faultAfter) {
				// The disk takes part of the write, then nothing more (what write(2) does when it fills up).
				const [fd, buffer, offset, length, position] = args as [number, Uint8Array, number, number, number];
				const half = Math.max(1, Math.floor(length / 2));
				return realWrite(fd, buffer, offset, half, position);
			}
			throw enospc();
		}
		return realWrite(...args);
	};
	fs.fsyncSync = (fd: number): void => {
		if (hit() && task.fault === 'kill') process.kill(process.pid, 'SIGKILL');
		realFsync(fd);
	};
}

/** The bookkeeping transaction k: many rows of one advert and a note, all or nothing. */
function writeTransaction(sandbox: Sandbox, k: number): void {
	sandbox.store.bulkLoad((prepare) => {
		// Every application gets a long text: dozens of pages change, so a tiny cache spills them before COMMIT.
		prepare("UPDATE application SET processing_messages = printf('tx %d %0400d', ?, ?), score_extra = ? % 100")([
			k,
			k,
			k,
		]);
		prepare(
			"INSERT INTO note (application_id, user_id, subject, body, created_at) VALUES (1, 1, 'crash test', ?, ?)",
		)([`tx ${k}`, new Date().toISOString()]);
	});
}

function run(task: ChildTask): void {
	installFault(task);
	switch (task.mode) {
		case 'writer': {
			const sandbox = openSandbox({ dataDir: task.dataDir, passwordCost: 1024, owner: 'crash test writer' });
			say('open');
			sandbox.store.bulkLoad((prepare) => {
				if (task.cacheSize !== undefined) prepare(`PRAGMA cache_size = ${task.cacheSize}`)([]);
				// Checkpoints often, so kills also land inside them.
				prepare('PRAGMA wal_autocheckpoint = 50')([]);
			});
			const first = task.firstTx ?? 1;
			try {
				for (let k = first; k < first + (task.transactions ?? 1); k++) {
					if (task.armTx === undefined || k >= task.armTx) armed = true;
					const before = total;
					writeTransaction(sandbox, k);
					say(`ack ${k} ${total - before}`);
				}
			} catch (error) {
				say(`error ${describe(error)}`);
			}
			armed = false;
			sandbox.close();
			say('closed');
			return;
		}
		case 'seed': {
			armed = true;
			try {
				const sandbox = openSandbox({
					dataDir: task.dataDir,
					passwordCost: 1024,
					demoSize: task.demoSize,
					now: task.now === undefined ? undefined : new Date(task.now),
				});
				say(`seeded ${JSON.stringify(sandbox.store.counts())}`);
				sandbox.close();
			} catch (error) {
				say(`error ${describe(error)}`);
			}
			say(`writes ${total}`);
			return;
		}
		case 'reseed': {
			const sandbox = openSandbox({
				dataDir: task.dataDir,
				passwordCost: 1024,
				demoSize: task.demoSize,
				now: task.now === undefined ? undefined : new Date(task.now),
			});
			say('open');
			armed = true;
			const before = total;
			sandbox.reseed();
			say(`reseeded ${total - before}`);
			sandbox.close();
			return;
		}
		case 'hold': {
			try {
				const sandbox = openSandbox({ dataDir: task.dataDir, passwordCost: 1024, owner: 'lock holder' });
				say(`holding ${process.pid}`);
				// Holds the folder until stdin closes (the test ends it) or for 30 s at most.
				const timer = setTimeout(() => sandbox.close(), 30_000);
				process.stdin.on('end', () => {
					clearTimeout(timer);
					sandbox.close();
				});
				process.stdin.resume();
			} catch (error) {
				say(`refused ${JSON.stringify((error as Error).message)}`);
			}
			return;
		}
		case 'legacySpill': {
			// What an earlier version did: rollback journal, a lock folder per transaction. A big UPDATE with
			// a tiny cache writes uncommitted pages into the database file before COMMIT; then the process dies.
			const db = new Database(task.file!);
			db.exec('PRAGMA cache_size = 5');
			db.exec('BEGIN IMMEDIATE');
			db.run("UPDATE application SET processing_messages = printf('uncommitted %0500d', id)");
			// Many more pages, so that a small database spills the updated ones too.
			db.run(
				"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO note (application_id, user_id, subject, body, created_at) SELECT 1, 1, 'uncommitted', printf('%0500d', i), '2026-03-01' FROM n",
			);
			say('spilled');
			process.kill(process.pid, 'SIGKILL');
		}
	}
}

run(JSON.parse(process.argv[2]) as ChildTask);
