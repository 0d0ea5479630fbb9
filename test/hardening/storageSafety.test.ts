/**
 * Data safety around the database file: one owner per data folder (a second sandbox refused and told
 * who owns it, a dead owner's lock recovered, racing starters), all-or-nothing seeding (a killed
 * seeding or reset is seeded again), a full disk reported as such, and the checks at start (a
 * damaged file, a database from a newer version).
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { openSandbox, SANDBOX_FILE_NAME } from '../../src/emulator/sandbox';
import { OWNER_LOCK_NAME } from '../../src/emulator/store/ownerLock';
import { LATEST_SCHEMA_VERSION } from '../../src/emulator/store/schema';
import { StorageError } from '../../src/emulator/store/storageError';
import type { ChildTask } from './storageChild';
import { assertLastCommitted, runChild } from './storageSupport';
import { backToSchema6 } from '../emulator/store/schemaHistory';

const CLI = join(__dirname, '../../src/emulator/cli.js');
const SMALL = { adverts: 20, applications: 600 };
const NOW = '2026-03-01T12:00:00.000Z';

interface CliRun {
	child: ChildProcess;
	/** The ready line, or undefined when the CLI exited first. */
	ready: Promise<string | undefined>;
	exit: Promise<{ code: number | null; stderr: string }>;
}

function startCli(dataDir: string): CliRun {
	const child = spawn(process.execPath, [CLI, '--port', '0', '--data', dataDir, '--size', 'small'], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exit = new Promise<{ code: number | null; stderr: string }>((resolve) =>
		child.on('exit', (code) => resolve({ code, stderr })),
	);
	const ready = new Promise<string | undefined>((resolve) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			if (stdout.includes('\n')) resolve(stdout.split('\n')[0]);
		});
		void exit.then(() => resolve(undefined));
	});
	return { child, ready, exit };
}

function counts(dataDir: string): Record<string, number> {
	const sandbox = openSandbox({ dataDir, passwordCost: 1024 });
	try {
		return sandbox.store.counts();
	} finally {
		sandbox.close();
	}
}

describe('hardening: data safety of the sandbox folder', function () {
	this.timeout(600_000);
	let dataDir: string;
	const children: ChildProcess[] = [];
	const cleanup: string[] = [];

	beforeEach(() => {
		dataDir = mkdtempSync(join(tmpdir(), 'mp-safety-'));
	});
	afterEach(() => {
		for (const child of children.splice(0)) {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		}
		for (const dir of [dataDir, ...cleanup.splice(0)]) rmSync(dir, { recursive: true, force: true });
	});

	describe('one owner per data folder', () => {
		it('refuses a second sandbox on the folder, naming the running one, and starts once that one is killed', async () => {
			const first = startCli(dataDir);
			children.push(first.child);
			assert.ok(await first.ready, 'the first sandbox starts');

			const second = startCli(dataDir);
			children.push(second.child);
			assert.equal(await second.ready, undefined, 'the second sandbox does not start');
			const refused = await second.exit;
			assert.equal(refused.code, 1);
			assert.match(
				refused.stderr,
				new RegExp(`in use by process ${first.child.pid} \\(the multiposting-sandbox command, since `),
			);

			first.child.kill('SIGKILL');
			await first.exit;
			const third = startCli(dataDir);
			children.push(third.child);
			assert.ok(await third.ready, 'a sandbox starts on the folder of a killed one');
			third.child.kill('SIGTERM');
			const stopped = await third.exit;
			assert.equal(stopped.code, 0);
			assert.match(
				stopped.stderr,
				new RegExp(
					`storage The previous sandbox on this folder \\(process ${first.child.pid}, the multiposting-sandbox command\\) ended without closing`,
				),
			);
			assert.equal(existsSync(join(dataDir, OWNER_LOCK_NAME)), false, 'a sandbox that stops gives the folder up');
		});

		it('lets exactly one of several starters racing for a dead owner’s folder take it', async () => {
			openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL }).close();
			// The lock of a process that is gone (no process has this pid).
			writeFileSync(
				join(dataDir, OWNER_LOCK_NAME),
				JSON.stringify({
					pid: 2 ** 22 + 17,
					thread: 0,
					hostname: hostname(),
					description: 'dead',
					since: NOW,
					token: 'x',
				}),
			);
			const firstLines: string[] = [];
			let holder: ChildProcess | undefined;
			const starters = [0, 1, 2, 3].map(() =>
				runChild({ mode: 'hold', dataDir }, (line, child) => {
					firstLines.push(line);
					if (line.startsWith('holding')) holder = child;
					// Once everyone has answered, the holder lets go.
					if (firstLines.length === 4) holder?.stdin?.end();
				}),
			);
			const results = await Promise.all(starters);
			const holding = firstLines.filter((line) => line.startsWith('holding'));
			const refused = firstLines.filter((line) => line.startsWith('refused'));
			assert.equal(holding.length, 1, firstLines.join('\n'));
			assert.equal(refused.length, 3, firstLines.join('\n'));
			const pid = holding[0].split(' ')[1];
			for (const line of refused) {
				assert.match(line, new RegExp(`in use by process ${pid} \\(lock holder, since `));
			}
			assert.ok(results.every((result) => result.code === 0));
			assert.equal(existsSync(join(dataDir, OWNER_LOCK_NAME)), false);
		});
	});

	describe('all-or-nothing seeding', () => {
		/** The file writes a complete seeding of SMALL makes (the fault points are spread over them). */
		async function seedingWrites(): Promise<number> {
			const dir = mkdtempSync(join(tmpdir(), 'mp-safety-dry-'));
			try {
				const dry = await runChild({ mode: 'seed', dataDir: dir, demoSize: SMALL, now: NOW });
				return Number(dry.lines.find((line) => line.startsWith('writes '))!.split(' ')[1]);
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		}

		it('seeds again after a first seeding killed half-way; nothing of the half-seeded file is ever served', async () => {
			const expected = counts(await seededElsewhere());
			const writes = await seedingWrites();
			for (const share of [0.2, 0.6, 0.95]) {
				const killed = await runChild({
					mode: 'seed',
					dataDir,
					demoSize: SMALL,
					now: NOW,
					faultAfter: Math.floor(writes * share),
					fault: 'kill',
				});
				assert.equal(killed.signal, 'SIGKILL', killed.stderr);
				assert.equal(
					existsSync(join(dataDir, SANDBOX_FILE_NAME)),
					false,
					'no database until seeding is complete',
				);
			}
			const again = await runChild({ mode: 'seed', dataDir, demoSize: SMALL, now: NOW });
			assert.equal(again.code, 0, again.stderr);
			assert.deepEqual(JSON.parse(again.lines[0].slice('seeded '.length)), expected);
			assert.deepEqual(
				readdirSync(dataDir).filter((name) => name.includes('seeding')),
				[],
				'the scratch file is gone',
			);
		});

		it('seeds again at the next start after a reset killed half-way', async () => {
			const expected = counts(await seededElsewhere());
			openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL, now: new Date(NOW) }).close();
			const dry = await runChild({ mode: 'reseed', dataDir, demoSize: SMALL, now: NOW });
			const writes = Number(dry.lines.find((line) => line.startsWith('reseeded '))!.split(' ')[1]);
			const killed = await runChild({
				mode: 'reseed',
				dataDir,
				demoSize: SMALL,
				now: NOW,
				faultAfter: Math.floor(writes / 2),
				fault: 'kill',
			});
			assert.equal(killed.signal, 'SIGKILL', killed.stderr);
			const sandbox = openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL, now: new Date(NOW) });
			try {
				assert.equal(sandbox.notices.length, 2, sandbox.notices.join('\n'));
				assert.match(
					sandbox.notices[1],
					/was never completely seeded \(seeding was interrupted\); seeding it again/,
				);
				assert.deepEqual(sandbox.store.counts(), expected);
				assert.ok(sandbox.store.seedingRecord() !== undefined);
			} finally {
				sandbox.close();
			}
		});

		it('keeps a database an earlier version seeded completely, and seeds again one it left half-seeded', () => {
			const file = join(dataDir, SANDBOX_FILE_NAME);
			const asEarlierVersion = (halfSeeded: boolean): void => {
				const db = new Database(file);
				db.exec('PRAGMA locking_mode = EXCLUSIVE');
				backToSchema6(db);
				db.exec('DROP TABLE sandbox_meta');
				db.exec('DELETE FROM schema_version WHERE version >= 4');
				// Migration 5's index, which an earlier version did not have either.
				db.exec('DROP INDEX application_page_order');
				db.exec("UPDATE advert SET title = 'Kept by the user' WHERE id = 1");
				// An earlier version's seeding ended with ANALYZE; one that was cut short had only migration 3's statistics.
				if (halfSeeded) db.exec("DELETE FROM sqlite_stat1 WHERE tbl <> 'advert'");
				db.close();
			};
			openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL, now: new Date(NOW) }).close();
			asEarlierVersion(false);
			let sandbox = openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL, now: new Date(NOW) });
			try {
				// The upgrade is told, and nothing else: the database is kept.
				assert.equal(sandbox.notices.length, 1, sandbox.notices.join('\n'));
				assert.match(sandbox.notices[0], new RegExp(`upgraded from schema 3 to ${LATEST_SCHEMA_VERSION} in`));
				assert.equal(sandbox.store.schemaVersion(), LATEST_SCHEMA_VERSION);
				assert.equal(sandbox.store.adverts.byId(1)?.title, 'Kept by the user');
			} finally {
				sandbox.close();
			}
			asEarlierVersion(true);
			sandbox = openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL, now: new Date(NOW) });
			try {
				assert.match(sandbox.notices.join('\n'), /never completely seeded/);
				assert.notEqual(sandbox.store.adverts.byId(1)?.title, 'Kept by the user');
			} finally {
				sandbox.close();
			}
		});

		/** A complete seeding of SMALL at NOW in another folder, for its counts. */
		async function seededElsewhere(): Promise<string> {
			const dir = mkdtempSync(join(tmpdir(), 'mp-safety-ref-'));
			cleanup.push(dir);
			openSandbox({ dataDir: dir, passwordCost: 1024, demoSize: SMALL, now: new Date(NOW) }).close();
			return dir;
		}
	});

	describe('a full disk', () => {
		it('says the disk is full when seeding runs out of space, and keeps no half-seeded database', async () => {
			const dry = await runChild({ mode: 'seed', dataDir, demoSize: SMALL, now: NOW });
			const writes = Number(dry.lines.find((line) => line.startsWith('writes '))!.split(' ')[1]);
			rmSync(dataDir, { recursive: true, force: true });
			for (const fault of ['enospc', 'short-then-enospc'] as const) {
				const full = await runChild({
					mode: 'seed',
					dataDir,
					demoSize: SMALL,
					now: NOW,
					faultAfter: Math.floor(writes / 2),
					fault,
				});
				assert.equal(full.code, 0, full.stderr);
				const error = JSON.parse(full.lines[0].slice('error '.length)) as {
					name: string;
					message: string;
					problem: string;
				};
				assert.equal(error.problem, 'disk-full', full.lines[0]);
				assert.match(
					error.message,
					/^The disk is full: the sandbox could not write its database in \/.*\. Free some space and start it again\.$/,
				);
				assert.doesNotMatch(error.message, /I\/O/);
				assert.deepEqual(
					readdirSync(dataDir).filter((name) => name.startsWith(SANDBOX_FILE_NAME)),
					[],
					'neither a database nor a scratch file is left',
				);
			}
		});

		/** A writer whose third transaction meets a full disk: it says so, and the second stays the last committed. */
		async function assertWriterMeetsFullDisk(fault: Partial<ChildTask>): Promise<void> {
			openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL }).close();
			const full = await runChild({ mode: 'writer', dataDir, transactions: 4, armTx: 3, ...fault });
			const error = full.lines.find((line) => line.startsWith('error '));
			assert.ok(error, full.lines.join('\n') + full.stderr);
			const parsed = JSON.parse(error.slice('error '.length)) as { problem: string; message: string };
			assert.equal(parsed.problem, 'disk-full');
			assert.match(parsed.message, /^The disk is full/);
			assertLastCommitted(dataDir, 2, undefined);
		}

		it('says the disk is full when a write meets a full disk part-way, and keeps the last committed state', async () => {
			await assertWriterMeetsFullDisk({ cacheSize: 8, faultAfter: 5, fault: 'short-then-enospc' });
		});

		it('says the disk is full when the disk fills at the very write of a COMMIT, and keeps the last committed state', async () => {
			// A page cache large enough that nothing spills: the armed transaction's first write is its commit.
			await assertWriterMeetsFullDisk({ faultAfter: 1, fault: 'enospc' });
		});
	});

	describe('checks at start', () => {
		it('refuses a database written by a newer version of the product, with what to do', () => {
			openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL }).close();
			const db = new Database(join(dataDir, SANDBOX_FILE_NAME));
			db.exec('PRAGMA locking_mode = EXCLUSIVE');
			db.run(
				"INSERT INTO schema_version (version, description, applied_at) VALUES (99, 'from the future', '2030-01-01')",
			);
			db.close();
			assert.throws(
				() => openSandbox({ dataDir, passwordCost: 1024 }),
				(error: unknown) =>
					error instanceof StorageError &&
					error.problem === 'newer-version' &&
					/was written by a newer version of Multiposting Workbench \(schema 99; this version knows up to \d+\)\. Update the extension/.test(
						error.message,
					),
			);
			assert.equal(existsSync(join(dataDir, OWNER_LOCK_NAME)), false, 'a refused start gives the folder up');
		});

		it('refuses a damaged seeding marker, naming the file, what is wrong and what to do', () => {
			const file = join(dataDir, SANDBOX_FILE_NAME);
			for (const [value, what] of [
				['{"seed": 1, "size":', /is not valid JSON/],
				['42', /is not a JSON object/],
			] as const) {
				openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL, reset: true }).close();
				const db = new Database(file);
				db.exec('PRAGMA locking_mode = EXCLUSIVE');
				db.run("UPDATE sandbox_meta SET value = ? WHERE key = 'seeded'", [value]);
				db.close();
				assert.throws(
					() => openSandbox({ dataDir, passwordCost: 1024 }),
					(error: unknown) =>
						error instanceof StorageError &&
						error.problem === 'damaged' &&
						error.message.includes(file) &&
						/seeding marker \(table sandbox_meta, key 'seeded'\) cannot be read/.test(error.message) &&
						what.test(error.message) &&
						/Reset the sandbox \(--reset, or "Reset Sandbox" in VS Code\)/.test(error.message),
				);
				// The refused start gave the folder up: the next one may take it.
				assert.equal(existsSync(join(dataDir, OWNER_LOCK_NAME)), false);
			}
			openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL, reset: true }).close();
		});

		it('refuses a damaged database and says how to start again', () => {
			openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL }).close();
			const file = join(dataDir, SANDBOX_FILE_NAME);
			// Garbage over one page in the middle of the file (a b-tree page of some table or index).
			const fd = openSync(file, 'r+');
			try {
				writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * 20);
			} finally {
				closeSync(fd);
			}
			assert.throws(
				() => openSandbox({ dataDir, passwordCost: 1024 }),
				(error: unknown) =>
					error instanceof StorageError &&
					error.problem === 'damaged' &&
					/is damaged .*Reset the sandbox \(--reset, or "Reset Sandbox" in VS Code\)/s.test(error.message),
			);
			writeFileSync(file, 'this is not a database at all, just text that happens to be here '.repeat(100));
			assert.throws(
				() => openSandbox({ dataDir, passwordCost: 1024 }),
				(error: unknown) =>
					error instanceof StorageError &&
					error.problem === 'damaged' &&
					/is not a sandbox database/.test(error.message),
			);
			// --reset starts again.
			const sandbox = openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL, reset: true });
			sandbox.close();
		});
	});
});
