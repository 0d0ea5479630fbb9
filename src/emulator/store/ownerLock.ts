/**
 * One owner per data folder: `<dataDir>/owner.lock` names the process that has the sandbox open, for
 * as long as it has it open. A second sandbox on the same folder is refused with the owner's pid and
 * what it is; a lock whose process is gone (killed, crashed, machine restarted) is taken over.
 *
 * Liveness: the pid answers `kill(pid, 0)` and, where the system says (Linux /proc), it is still the
 * same process (same boot, same start time), so a pid reused by an unrelated process does not keep a
 * dead owner's lock alive. A lock from another host is never taken over (its process cannot be asked).
 * Within one process the owner is also named by thread: a lock of this thread that this thread no
 * longer holds is stale; a lock of another thread counts as alive (a worker's host can release it
 * with {@link releaseAbandonedLock} after the worker ended without closing).
 *
 * Creating the lock is atomic (link of a complete file, or exclusive create); taking over a stale
 * lock happens under a short second lock (`owner.lock.break`), so two starters can never both take
 * the same stale lock over, nor one remove the lock the other just made.
 */
import { randomBytes } from 'node:crypto';
import {
	closeSync,
	fsyncSync,
	linkSync,
	mkdirSync,
	openSync,
	readFileSync,
	rmdirSync,
	statSync,
	unlinkSync,
	writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { StorageError } from './storageError';

/** The lock file inside the data folder. */
export const OWNER_LOCK_NAME = 'owner.lock';

/** What the lock file says about its owner. */
export interface OwnerRecord {
	pid: number;
	/** Worker thread id inside the process (0: the main thread). */
	thread: number;
	hostname: string;
	/** Linux: `<boot id>/<start time in clock ticks>` of the process; absent elsewhere. */
	identity?: string;
	/** What the owner is, for people: "the multiposting-sandbox command", "VS Code (extension host)", … */
	description: string;
	/** When the lock was taken (ISO 8601). */
	since: string;
	/** Random, to tell one holder from another (same pid, same thread). */
	token: string;
}

/** A held lock; `release()` is idempotent. */
export interface OwnerLock {
	readonly path: string;
	readonly record: OwnerRecord;
	/** The record of a dead owner's lock that was taken over, if any (the previous run ended without closing). */
	readonly tookOverFrom?: OwnerRecord;
	release(): void;
}

/** Tokens of the locks this thread holds. */
const held = new Map<string, string>();
let exitHookInstalled = false;

/** A lock younger than this without a readable record is being written by its owner: wait for it. */
const UNREADABLE_GRACE_MS = 2_000;
/** A takeover lock older than this was left by a starter that died while taking over. */
const BREAK_LOCK_STALE_MS = 10_000;
/** How long a start keeps trying while the lock is being written or taken over by someone else. */
const TAKE_TIMEOUT_MS = 5_000;

/**
 * Takes the data folder's owner lock, or throws a StorageError ('in-use') naming the live owner.
 * `description` says what this process is (shown to a second starter).
 */
export function acquireOwnerLock(dataDir: string, description: string): OwnerLock {
	const path = join(dataDir, OWNER_LOCK_NAME);
	const record: OwnerRecord = {
		pid: process.pid,
		thread: threadId,
		hostname: hostname(),
		identity: processIdentity(process.pid),
		description,
		since: new Date().toISOString(),
		token: randomBytes(12).toString('hex'),
	};
	const text = `${JSON.stringify(record, null, '\t')}\n`;
	let tookOverFrom: OwnerRecord | undefined;
	const deadline = Date.now() + TAKE_TIMEOUT_MS;
	while (Date.now() < deadline) {
		if (createExclusive(path, text)) {
			held.set(path, record.token);
			installExitHook();
			let released = false;
			return {
				path,
				record,
				tookOverFrom,
				release: () => {
					if (released) return;
					released = true;
					releaseIfOurs(path, record.token);
				},
			};
		}
		const existing = readLock(path);
		if (existing === 'missing') continue;
		if (existing === 'unreadable') {
			if (ageMs(path) < UNREADABLE_GRACE_MS) {
				sleep(20);
				continue;
			}
		} else if (ownerAlive(existing.record, path)) {
			throw inUse(dataDir, existing.record);
		}
		const stale = existing === 'unreadable' ? undefined : existing;
		if (takeOver(path, stale?.text)) tookOverFrom = stale?.record ?? tookOverFrom;
	}
	throw new StorageError(
		'in-use',
		`Could not take the sandbox data folder ${dataDir}: its owner lock keeps changing.`,
	);
}

/**
 * Removes the lock of a thread of this process that ended without closing its sandbox (a terminated
 * worker). Does nothing when the lock belongs to anyone else. Returns whether a lock was removed.
 */
export function releaseAbandonedLock(dataDir: string, thread: number): boolean {
	const path = join(dataDir, OWNER_LOCK_NAME);
	const existing = readLock(path);
	if (typeof existing === 'string') return false;
	const { record } = existing;
	if (record.pid !== process.pid || record.thread !== thread || thread === threadId) return false;
	return takeOver(path, existing.text);
}

function inUse(dataDir: string, owner: OwnerRecord): StorageError {
	const where =
		owner.pid === process.pid
			? owner.thread === threadId
				? 'this process'
				: `another thread of this process (pid ${owner.pid})`
			: `process ${owner.pid}`;
	const host = owner.hostname !== hostname() ? ` on host ${owner.hostname}` : '';
	const hint =
		owner.hostname !== hostname()
			? ` If no sandbox runs there any more, delete ${join(dataDir, OWNER_LOCK_NAME)}.`
			: ' Stop that sandbox first, or use another data folder.';
	return new StorageError(
		'in-use',
		`The sandbox data folder ${dataDir} is in use by ${where}${host} (${owner.description}, since ${owner.since}).${hint}`,
	);
}

/** When this process started (ms since the epoch), to tell our own lock from one of an earlier process with our pid. */
const PROCESS_START_MS = Date.now() - process.uptime() * 1000;

/** Whether the owner named by a lock still runs. */
function ownerAlive(owner: OwnerRecord, path: string): boolean {
	// Another host (a shared folder, or a container under another name) cannot be asked: never taken over.
	if (owner.hostname !== hostname()) return true;
	if (owner.pid === process.pid) {
		const mine = processIdentity(process.pid);
		const thisProcess =
			owner.identity !== undefined && mine !== undefined
				? owner.identity === mine
				: Date.parse(owner.since) >= PROCESS_START_MS - 1_000;
		// An earlier process that had our pid is gone.
		if (!thisProcess) return false;
		if (owner.thread !== threadId) return true;
		return held.get(path) === owner.token;
	}
	if (!pidAlive(owner.pid)) return false;
	if (owner.identity === undefined) return true;
	const now = processIdentity(owner.pid);
	// Where the system cannot tell (not Linux), a pid that answers counts as alive.
	return now === undefined || now === owner.identity;
}

function pidAlive(pid: number): boolean {
	if (!Number.isSafeInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

let bootIdValue: string | null | undefined;
function bootId(): string | undefined {
	if (bootIdValue === undefined) {
		try {
			bootIdValue = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
		} catch {
			bootIdValue = null;
		}
	}
	return bootIdValue ?? undefined;
}

/** `<boot id>/<start time>` of a process on Linux (field 22 of /proc/<pid>/stat); undefined elsewhere. */
export function processIdentity(pid: number): string | undefined {
	const boot = bootId();
	if (boot === undefined) return undefined;
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name (field 2) is in parentheses and may hold spaces: count fields after it.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const startTime = fields[19];
		return startTime === undefined ? undefined : `${boot}/${startTime}`;
	} catch {
		return undefined;
	}
}

type ReadResult = { record: OwnerRecord; text: string } | 'missing' | 'unreadable';

function readLock(path: string): ReadResult {
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
	}
	try {
		const record = JSON.parse(text) as OwnerRecord;
		if (typeof record.pid !== 'number' || typeof record.token !== 'string') return 'unreadable';
		return { record, text };
	} catch {
		return 'unreadable';
	}
}

/**
 * Creates the lock with its whole content at once: a complete temporary file hard-linked to the lock's
 * name (link fails when the name exists). Where hard links are not supported, an exclusive create.
 */
function createExclusive(path: string, text: string): boolean {
	const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
	writeDurably(temporary, text, 'wx');
	try {
		linkSync(temporary, path);
		return true;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'EEXIST') return false;
		if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
	} finally {
		unlinkQuietly(temporary);
	}
	try {
		writeDurably(path, text, 'wx');
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	}
}

function writeDurably(path: string, text: string, flag: 'wx'): void {
	const fd = openSync(path, flag, 0o644);
	try {
		writeSync(fd, text);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
}

/**
 * Removes a stale lock, under the takeover lock, only if it still holds exactly the text judged
 * stale (undefined: an unreadable lock that stayed unreadable). Returns whether it removed it.
 */
function takeOver(path: string, staleText: string | undefined): boolean {
	const breaker = `${path}.break`;
	try {
		mkdirSync(breaker);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		if (ageMs(breaker) > BREAK_LOCK_STALE_MS) {
			try {
				rmdirSync(breaker);
			} catch {
				// Another starter removed it first.
			}
		} else {
			sleep(20);
		}
		return false;
	}
	try {
		let current: string;
		try {
			current = readFileSync(path, 'utf8');
		} catch {
			return false;
		}
		const stillStale = staleText === undefined ? readLock(path) === 'unreadable' : current === staleText;
		if (!stillStale) return false;
		unlinkSync(path);
		return true;
	} finally {
		try {
			rmdirSync(breaker);
		} catch {
			// Already gone: nothing to release.
		}
	}
}

function releaseIfOurs(path: string, token: string): void {
	if (held.get(path) === token) held.delete(path);
	const existing = readLock(path);
	if (typeof existing !== 'string' && existing.record.token === token) unlinkQuietly(path);
}

/** A process that exits without closing its sandbox (process.exit, an uncaught error) still leaves no lock. */
function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on('exit', () => {
		for (const [path, token] of [...held]) releaseIfOurs(path, token);
	});
}

function ageMs(path: string): number {
	try {
		return Date.now() - statSync(path).mtimeMs;
	} catch {
		return 0;
	}
}

function unlinkQuietly(path: string): void {
	try {
		unlinkSync(path);
	} catch {
		// Already gone.
	}
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
	Atomics.wait(sleeper, 0, 0, ms);
}
