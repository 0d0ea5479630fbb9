/**
 * A child process for the storage hardening tests (test/hardening/crashRecovery.test.ts and
 * storageSafety.test.ts): it opens a sandbox the way the product does and then writes, seeds or
 * holds the data folder, and it can be made to die (SIGKILL) or to meet a full disk at an exact
 * file write or sync of SQLite's, through the fault shim (faultShim.c, loaded by storageSupport.ts).
 * Its acknowledgements go to stdout with a synchronous write, so a line printed before the kill is
 * never lost. Run as `node storageChild.js '<json>'`.
 */
import { readFileSync, writeFileSync, writeSync } from 'node:fs';
import { openSandbox, type Sandbox } from '../../src/emulator/sandbox';

export interface ChildTask {
	mode: 'writer' | 'seed' | 'reseed' | 'hold';
	dataDir: string;
	/** writer: transactions to run (numbered from `firstTx`). */
	transactions?: number;
	firstTx?: number;
	/** The fault: after this many counted file writes and syncs (of the armed part), die or fail. */
	faultAfter?: number;
	fault?: 'kill' | 'enospc' | 'short-then-enospc';
	/** writer: count toward the fault from this transaction on (default: from the start). */
	armTx?: number;
	/** writer: transactions per group commit (Store.groupCommit; default 1: each commits alone). */
	groupSize?: number;
	/** writer: page cache in pages (tiny: the transaction spills pages before COMMIT). */
	cacheSize?: number;
	/** seed/reseed: the size and time of the demo data. */
	demoSize?: { adverts: number; applications: number };
	now?: string;
}

/** The fault shim's counters: file writes and syncs in all, syncs among them, calls since arming. */
interface ShimReport {
	total: number;
	syncs: number;
	counted: number;
}

/** Sends a command to the fault shim and reads its counters back. */
function shim(command: string): ShimReport {
	const control = process.env.MP_FAULT_CONTROL;
	if (control === undefined) throw new Error('MP_FAULT_CONTROL is not set: run this child through storageSupport.ts');
	writeFileSync(control, command);
	const answer = /^total (\d+) syncs (\d+) counted (\d+)$/.exec(readFileSync(control, 'utf8').trim());
	if (answer === null) throw new Error('The fault shim is not loaded (LD_PRELOAD)');
	return { total: Number(answer[1]), syncs: Number(answer[2]), counted: Number(answer[3]) };
}

/** Arms the shim's fault, if the task has one. */
function arm(task: ChildTask): void {
	if (task.faultAfter === undefined) return;
	shim(`arm ${task.faultAfter} ${task.fault === 'short-then-enospc' ? 'short' : (task.fault ?? 'kill')}`);
}

/** An error as one line of JSON: its name, its message and its problem (StorageError). */
function describe(error: unknown): string {
	const { name, message, problem } = error as { name: string; message: string; problem?: string };
	return JSON.stringify({ name, message, problem });
}

/** Prints one line on stdout synchronously (not counted: only files of the data folder are). */
function say(line: string): void {
	writeSync(1, `${line}\n`);
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
			const group = task.groupSize ?? 1;
			try {
				for (let k = first; k < first + (task.transactions ?? 1); k += group) {
					if (k === (task.armTx ?? first)) arm(task);
					const before = shim('report');
					const last = k + group - 1;
					if (group === 1) {
						writeTransaction(sandbox, k);
					} else {
						// Transactions k..last as the units of one group commit, as the pipeline runs writes.
						const units = Array.from({ length: group }, (_, i) => () => writeTransaction(sandbox, k + i));
						const failed = sandbox.store.groupCommit(units).find((outcome) => !outcome.ok);
						if (failed !== undefined && !failed.ok) throw failed.error;
					}
					const after = shim('report');
					say(`ack ${last} ${after.total - before.total} ${after.syncs - before.syncs}`);
				}
			} catch (error) {
				say(`error ${describe(error)}`);
			}
			shim('disarm');
			sandbox.close();
			say('closed');
			return;
		}
		case 'seed': {
			arm(task);
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
			say(`writes ${shim('report').total}`);
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
			arm(task);
			const before = shim('report').total;
			sandbox.reseed();
			say(`reseeded ${shim('report').total - before}`);
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
	}
}

run(JSON.parse(process.argv[2]) as ChildTask);
