import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
	acquireOwnerLock,
	OWNER_LOCK_NAME,
	processIdentity,
	releaseAbandonedLock,
	type OwnerRecord,
} from '../../../src/emulator/store/ownerLock';
import { StorageError } from '../../../src/emulator/store/storageError';

describe('emulator store: the owner lock of a data folder', () => {
	let dir: string;
	const lockFile = (): string => join(dir, OWNER_LOCK_NAME);
	const writeRecord = (record: Partial<OwnerRecord>): void =>
		writeFileSync(
			lockFile(),
			JSON.stringify({
				pid: process.pid,
				thread: 0,
				hostname: hostname(),
				description: 'someone',
				since: new Date().toISOString(),
				token: 'other',
				...record,
			}),
		);
	const inUse = (pattern: RegExp) => (error: unknown) =>
		error instanceof StorageError && error.problem === 'in-use' && pattern.test(error.message);

	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'mpw-owner-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('is held until released, names its owner to a second taker, and is gone after release', () => {
		const lock = acquireOwnerLock(dir, 'the first sandbox');
		const record = JSON.parse(readFileSync(lockFile(), 'utf8')) as OwnerRecord;
		assert.equal(record.pid, process.pid);
		assert.equal(record.description, 'the first sandbox');
		assert.throws(
			() => acquireOwnerLock(dir, 'the second sandbox'),
			inUse(/is in use by this process \(the first sandbox, since \d{4}-/),
		);
		lock.release();
		lock.release();
		assert.equal(existsSync(lockFile()), false);
		acquireOwnerLock(dir, 'the second sandbox').release();
	});

	it('takes over the lock of a process that is gone and says whose it was', async () => {
		const child = spawn(process.execPath, ['-e', '0']);
		await new Promise((resolve) => child.on('exit', resolve));
		writeRecord({ pid: child.pid!, description: 'a killed sandbox', identity: undefined });
		const lock = acquireOwnerLock(dir, 'me');
		try {
			assert.equal(lock.tookOverFrom?.pid, child.pid);
			assert.equal(lock.tookOverFrom?.description, 'a killed sandbox');
		} finally {
			lock.release();
		}
	});

	it('does not count a pid reused by another process as the owner (where the system tells start times)', async () => {
		const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
		try {
			// The pid runs, but it is not the process that wrote the lock: another start time.
			const identity = processIdentity(other.pid!);
			writeRecord({ pid: other.pid!, identity: identity === undefined ? undefined : `${identity}0` });
			if (identity === undefined) {
				assert.throws(() => acquireOwnerLock(dir, 'me'), inUse(new RegExp(`process ${other.pid}`)));
			} else {
				const lock = acquireOwnerLock(dir, 'me');
				assert.equal(lock.tookOverFrom?.pid, other.pid);
				lock.release();
				// The same pid with its real identity is the owner.
				writeRecord({ pid: other.pid!, identity, description: 'a live sandbox' });
				assert.throws(
					() => acquireOwnerLock(dir, 'me'),
					inUse(new RegExp(`process ${other.pid} \\(a live sandbox`)),
				);
			}
		} finally {
			other.kill('SIGKILL');
		}
	});

	it('never takes over a lock of another host, and says how to remove it', () => {
		writeRecord({ pid: 1, hostname: 'elsewhere.example', description: 'a sandbox there' });
		assert.throws(
			() => acquireOwnerLock(dir, 'me'),
			inUse(
				/in use by process 1 on host elsewhere\.example \(a sandbox there, .*If no sandbox runs there any more, delete /,
			),
		);
	});

	it('waits for a lock that is being written, and takes over one that stayed unreadable', async () => {
		// Half a record, completed 300 ms later by another process (as an exclusive create writes it).
		writeFileSync(lockFile(), '{"pid": 12');
		const record = {
			pid: 2 ** 22 + 3,
			thread: 0,
			hostname: hostname(),
			description: 'slow writer',
			since: new Date().toISOString(),
			token: 't',
		};
		const writer = spawn(process.execPath, [
			'-e',
			`setTimeout(() => require('node:fs').writeFileSync(${JSON.stringify(lockFile())}, ${JSON.stringify(JSON.stringify(record))}), 300)`,
		]);
		await new Promise((resolve) => writer.on('spawn', resolve));
		const waited = acquireOwnerLock(dir, 'me');
		assert.equal(waited.tookOverFrom?.description, 'slow writer', 'read the record once it was complete');
		waited.release();

		writeFileSync(lockFile(), '{"pid": 12');
		const old = new Date(Date.now() - 60_000);
		utimesSync(lockFile(), old, old);
		const lock = acquireOwnerLock(dir, 'me');
		assert.equal(lock.tookOverFrom, undefined);
		lock.release();
	});

	it('a lock of this thread that is not held any more is stale; a lock of another live thread is not', async () => {
		writeRecord({ token: 'left over by an earlier open in this thread' });
		acquireOwnerLock(dir, 'me').release();

		// A worker takes the folder and is terminated without closing: its lock names a thread of this process.
		const worker = new Worker(
			`const { acquireOwnerLock } = require(${JSON.stringify(require.resolve('../../../src/emulator/store/ownerLock'))});
			acquireOwnerLock(${JSON.stringify(dir)}, 'a worker');
			require('node:worker_threads').parentPort.postMessage('held');
			setInterval(() => {}, 1000);`,
			{ eval: true },
		);
		const threadId = worker.threadId;
		await new Promise((resolve) => worker.once('message', resolve));
		await worker.terminate();
		assert.throws(
			() => acquireOwnerLock(dir, 'me'),
			inUse(/another thread of this process \(pid \d+\) \(a worker,/),
		);
		assert.equal(releaseAbandonedLock(dir, threadId + 1), false, 'another thread’s lock is left alone');
		assert.equal(releaseAbandonedLock(dir, threadId), true);
		acquireOwnerLock(dir, 'me').release();
	});
});
