/**
 * Crash recovery of the sandbox database: a writer is killed with SIGKILL at chosen instants (every
 * kind of file write of a transaction: spilled pages, the commit, checkpoints), repeatedly, with our
 * own bookkeeping of what was acknowledged; and a crashed earlier version's hot rollback journal is
 * rolled back. Afterwards the sandbox must serve exactly the last committed state and
 * `PRAGMA integrity_check` must be `ok`.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { openSandbox, SANDBOX_FILE_NAME } from '../../src/emulator/sandbox';
import { assertLastCommitted, runChild } from './storageSupport';

const SMALL = { adverts: 20, applications: 600 };

function fileDigest(path: string): string {
	return createHash('sha256').update(readFileSync(path)).digest('hex');
}

describe('hardening: crash recovery of the sandbox database', function () {
	this.timeout(600_000);
	let dataDir: string;

	beforeEach(() => {
		dataDir = mkdtempSync(join(tmpdir(), 'mp-crash-'));
		openSandbox({ dataDir, passwordCost: 1024, demoSize: SMALL }).close();
	});
	afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

	it('keeps exactly the last committed transaction when killed at file writes across a transaction (spilled pages, commit, checkpoint), repeatedly', async () => {
		// A dry run counts the file writes and fsyncs of one transaction with a tiny page cache.
		const dry = await runChild({
			mode: 'writer',
			dataDir,
			transactions: 2,
			cacheSize: 8,
			faultAfter: 1e9,
			fault: 'kill',
		});
		assert.equal(dry.code, 0, dry.stderr);
		const writes = Number(dry.lines.find((line) => line.startsWith('ack 2 '))!.split(' ')[2]);
		assert.ok(writes > 20, `a transaction makes ${writes} file writes`);
		let committed = assertLastCommitted(dataDir, 2, undefined);

		// Kill points spread over the whole transaction: the first spilled pages, the middle, the commit at the end.
		const points = [
			1,
			2,
			3,
			5,
			8,
			13,
			Math.floor(writes / 4),
			Math.floor(writes / 2),
			Math.floor((3 * writes) / 4),
			writes - 3,
			writes - 2,
			writes - 1,
			writes,
		];
		for (const point of points) {
			const first = committed + 1;
			const result = await runChild({
				mode: 'writer',
				dataDir,
				firstTx: first,
				transactions: 3,
				armTx: first + 1,
				cacheSize: 8,
				faultAfter: point,
				fault: 'kill',
			});
			const acknowledged = Math.max(
				committed,
				...result.lines.filter((line) => line.startsWith('ack ')).map((line) => Number(line.split(' ')[1])),
			);
			assert.equal(result.signal, 'SIGKILL', `killed at write ${point} of ${writes}: ${result.stderr}`);
			assert.ok(acknowledged >= first, 'the transaction before the armed one was acknowledged');
			committed = assertLastCommitted(dataDir, acknowledged, acknowledged + 1);
		}
	});

	it('keeps every acknowledged transaction when killed at random moments of a stream of writes', async () => {
		let committed = 0;
		for (let round = 0; round < 5; round++) {
			const first = committed + 1;
			let seen = 0;
			// Killed from outside after a random number of acknowledged transactions (1 to 4).
			const killAfter = 1 + ((round * 7) % 4);
			const result = await runChild(
				{ mode: 'writer', dataDir, firstTx: first, transactions: 50, cacheSize: round % 2 === 0 ? 8 : 2000 },
				(line, child) => {
					if (line.startsWith('ack ') && ++seen === killAfter) {
						setTimeout(() => child.kill('SIGKILL'), round * 3);
					}
				},
			);
			assert.equal(result.signal, 'SIGKILL', result.stderr);
			const acknowledged = Math.max(
				committed,
				...result.lines.filter((line) => line.startsWith('ack ')).map((line) => Number(line.split(' ')[1])),
			);
			committed = assertLastCommitted(dataDir, acknowledged, acknowledged + 1);
			assert.ok(committed >= acknowledged);
		}
	});

	it('rolls back the hot journal a crashed earlier version left, with uncommitted pages already in the database file', async () => {
		const file = join(dataDir, SANDBOX_FILE_NAME);
		// The file as an earlier version kept it: rollback journal, no write-ahead log.
		const legacy = new Database(file);
		legacy.exec('PRAGMA locking_mode = EXCLUSIVE');
		legacy.exec('PRAGMA journal_mode = DELETE');
		const before = legacy.get(
			"SELECT count(*) AS n, total(length(coalesce(processing_messages, ''))) AS text, group_concat(coalesce(processing_messages, '-'), '|') AS all_text FROM application",
		) as { n: number; text: number; all_text: string };
		legacy.close();
		rmSync(join(dataDir, 'owner.lock'), { force: true });
		const digestBefore = fileDigest(file);

		const result = await runChild({ mode: 'legacySpill', dataDir, file });
		assert.equal(result.signal, 'SIGKILL', result.stderr);
		assert.deepEqual(result.lines, ['spilled']);
		// The crash left what the earlier version left: a hot journal, its lock folder, uncommitted pages in the file.
		assert.ok(existsSync(`${file}-journal`), 'a hot journal is left');
		assert.ok(existsSync(`${file}.lock`), 'the lock folder of the killed process is left');
		assert.notEqual(fileDigest(file), digestBefore, 'uncommitted pages reached the database file');
		writeFileSync(`${file}.owner`, '999999999');

		const sandbox = openSandbox({ dataDir, passwordCost: 1024 });
		try {
			sandbox.store.bulkLoad((_prepare, query) => {
				assert.deepEqual(query('PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);
				const after = query(
					"SELECT count(*) AS n, total(length(coalesce(processing_messages, ''))) AS text, group_concat(coalesce(processing_messages, '-'), '|') AS all_text FROM application",
				)[0] as typeof before;
				assert.equal(after.n, before.n);
				assert.equal(after.text, before.text, 'no uncommitted text is served');
				assert.equal(after.all_text, before.all_text);
			});
		} finally {
			sandbox.close();
		}
		assert.equal(existsSync(`${file}-journal`), false, 'the journal was rolled back and removed');
	});
});
