/**
 * The patched file layer combines the frames a transaction appends to the write-ahead log and writes
 * them when the transaction commits (scripts/sqlite-vfs-patch.cjs): one write call per commit and no
 * fsync, checkpoints still fsync, and every other file operation first writes what is pending.
 */
import * as assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'node-sqlite3-wasm';
import { openDatabase } from '../../../src/emulator/store/database';

// The same module object the engine's file layer calls (an ES import would give a frozen namespace).
const fs = createRequire(__filename)('node:fs') as {
	writeSync: (...args: unknown[]) => number;
	fsyncSync: (fd: number) => void;
};

interface FileCalls {
	writes: { fd: number; bytes: number }[];
	fsyncs: number;
}

/** Records the engine's write and fsync calls while `work` runs. */
function recordCalls(work: () => void): FileCalls {
	const calls: FileCalls = { writes: [], fsyncs: 0 };
	const realWrite = fs.writeSync;
	const realFsync = fs.fsyncSync;
	fs.writeSync = (...args: unknown[]): number => {
		calls.writes.push({ fd: args[0] as number, bytes: args[3] as number });
		return realWrite(...args);
	};
	fs.fsyncSync = (fd: number): void => {
		calls.fsyncs++;
		realFsync(fd);
	};
	try {
		work();
	} finally {
		fs.writeSync = realWrite;
		fs.fsyncSync = realFsync;
	}
	return calls;
}

describe('store: combined writes to the write-ahead log', () => {
	let dir: string;
	let db: Database;

	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'mp-wal-'));
		db = openDatabase(join(dir, 'test.sqlite'));
		db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, body TEXT)');
		db.exec('CREATE INDEX item_name ON item(name)');
		db.exec('CREATE INDEX item_body ON item(body)');
	});
	afterEach(() => {
		if (db.isOpen) db.close();
		rmSync(dir, { recursive: true, force: true });
	});

	function insertMany(count: number, tag: string): void {
		db.exec('BEGIN IMMEDIATE');
		for (let i = 0; i < count; i++) {
			db.run('INSERT INTO item (name, body) VALUES (?, ?)', [`${tag}${i}`, 'x'.repeat(900) + i]);
		}
		db.exec('COMMIT');
	}

	it('writes a commit of many pages in one write call, without fsync', () => {
		const calls = recordCalls(() => insertMany(60, 'a'));
		assert.equal(calls.writes.length, 1, `write calls: ${JSON.stringify(calls.writes)}`);
		// 60 rows of ~900 bytes in the table and in an index: dozens of 4 KiB pages, each with its frame header.
		assert.ok(calls.writes[0].bytes > 20 * 4096, `one write of ${calls.writes[0].bytes} bytes`);
		assert.equal(calls.fsyncs, 0);
	});

	it('still fsyncs the log and the database at a checkpoint', () => {
		insertMany(10, 'b');
		const calls = recordCalls(() => db.exec('PRAGMA wal_checkpoint(TRUNCATE)'));
		assert.ok(calls.fsyncs >= 2, `fsyncs at the checkpoint: ${calls.fsyncs}`);
	});

	it('keeps every commit and nothing of a rolled-back transaction that spilled pages, across a close and reopen', () => {
		insertMany(30, 'c');
		// A tiny page cache: the transaction spills pages into the log before its end, then rolls back.
		db.exec('PRAGMA cache_size = 4');
		db.exec('BEGIN IMMEDIATE');
		for (let i = 0; i < 200; i++) db.run('INSERT INTO item (name, body) VALUES (?, ?)', [`d${i}`, 'y'.repeat(900)]);
		db.exec('ROLLBACK');
		db.exec('PRAGMA cache_size = -65536');
		insertMany(5, 'e');
		db.close();
		db = openDatabase(join(dir, 'test.sqlite'));
		const counts = db.get(
			"SELECT count(*) AS n, sum(name LIKE 'c%') AS c, sum(name LIKE 'd%') AS d, sum(name LIKE 'e%') AS e FROM item",
		) as { n: number; c: number; d: number; e: number };
		assert.deepEqual({ ...counts }, { n: 35, c: 30, d: 0, e: 5 });
		assert.deepEqual(db.get('PRAGMA integrity_check'), { integrity_check: 'ok' });
	});

	it('reads its own spilled pages back inside a transaction (pending writes reach the file before any read)', () => {
		db.exec('PRAGMA cache_size = 4');
		db.exec('BEGIN IMMEDIATE');
		for (let i = 0; i < 300; i++) {
			db.run('INSERT INTO item (name, body) VALUES (?, ?)', [`s${i}`, 'z'.repeat(900) + i]);
		}
		const seen = db.get("SELECT count(*) AS n, max(body) AS last FROM item WHERE name LIKE 's%'") as {
			n: number;
			last: string;
		};
		db.exec('COMMIT');
		assert.equal(seen.n, 300);
		assert.equal(seen.last, 'z'.repeat(900) + 99);
	});
});
