/**
 * Crash recovery of the sandbox database: a writer is killed with SIGKILL at chosen instants (every
 * kind of file write and sync of a transaction: spilled pages, the commit, checkpoints), repeatedly,
 * with our own bookkeeping of what was acknowledged; and the files a killed earlier release left
 * (its write-ahead log, an older version's hot rollback journal; test/fixtures/storage) are recovered.
 * Afterwards the sandbox must serve exactly the last committed state and `PRAGMA integrity_check`
 * must be `ok`.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openSandbox, SANDBOX_FILE_NAME } from '../../src/emulator/sandbox';
import { Database } from '../../src/emulator/store/engine';
import { LATEST_SCHEMA_VERSION } from '../../src/emulator/store/schema';
import { assertLastCommitted, runChild } from './storageSupport';

const SMALL = { adverts: 20, applications: 600 };
const FIXTURES = join(__dirname, '../../../test/fixtures/storage');

/** Puts the files of a fixture (test/fixtures/storage/<name>) into the data folder; returns its expected.json. */
function restoreFixture<T>(name: string, dataDir: string): T & { files: string[] } {
	const folder = join(FIXTURES, name);
	const expected = JSON.parse(readFileSync(join(folder, 'expected.json'), 'utf8')) as T & { files: string[] };
	for (const file of expected.files) {
		writeFileSync(join(dataDir, file), gunzipSync(readFileSync(join(folder, `${file}.gz`))));
	}
	return expected;
}

/** What a query reads from a copy of the data folder's database file alone (without its log or journal), or its error. */
function withoutItsLog(dataDir: string, sql: string): Record<string, unknown> | Error {
	const copy = mkdtempSync(join(tmpdir(), 'mp-alone-'));
	try {
		copyFileSync(join(dataDir, SANDBOX_FILE_NAME), join(copy, SANDBOX_FILE_NAME));
		const db = new Database(join(copy, SANDBOX_FILE_NAME));
		try {
			db.exec('PRAGMA locking_mode = EXCLUSIVE');
			return db.get(sql) ?? {};
		} catch (error) {
			return error as Error;
		} finally {
			db.close();
		}
	} finally {
		rmSync(copy, { recursive: true, force: true });
	}
}

const APPLICATION_TEXTS =
	"SELECT count(*) AS n, total(length(coalesce(processing_messages, ''))) AS text, group_concat(coalesce(processing_messages, '-'), '|') AS all_text FROM application";

/**
 * Kills a writer at file writes and syncs spread over one commit of `group` bookkeeping transactions
 * (1: a transaction alone; more: a group commit), repeatedly; after each kill exactly the acknowledged
 * commits are kept, and the one in flight whole or not at all.
 */
async function killAcrossCommits(dataDir: string, group: number): Promise<void> {
	// A dry run counts the file writes and syncs of one commit with a tiny page cache.
	const dry = await runChild({
		mode: 'writer',
		dataDir,
		transactions: 2 * group,
		groupSize: group,
		cacheSize: 8,
		faultAfter: 1e9,
		fault: 'kill',
	});
	assert.equal(dry.code, 0, dry.stderr);
	const [, , writes, syncs] = dry.lines
		.find((line) => line.startsWith(`ack ${2 * group} `))!
		.split(' ')
		.map(Number);
	assert.ok(writes > 20, `a commit makes ${writes} file writes`);
	assert.ok(syncs >= 2, `its checkpoint syncs the log and the database (${syncs} syncs): kill points among them`);
	let committed = assertLastCommitted(dataDir, 2 * group, undefined);

	// Kill points spread over the whole commit: the first spilled pages, the middle, the commit at the end.
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
			transactions: 3 * group,
			groupSize: group,
			armTx: first + group,
			cacheSize: 8,
			faultAfter: point,
			fault: 'kill',
		});
		const acknowledged = Math.max(
			committed,
			...result.lines.filter((line) => line.startsWith('ack ')).map((line) => Number(line.split(' ')[1])),
		);
		assert.equal(result.signal, 'SIGKILL', `killed at write ${point} of ${writes}: ${result.stderr}`);
		assert.ok(acknowledged >= first + group - 1, 'the commit before the armed one was acknowledged');
		assert.equal((acknowledged - first + 1) % group, 0, 'a group commit is acknowledged whole');
		committed = assertLastCommitted(dataDir, acknowledged, acknowledged + group);
	}
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
		await killAcrossCommits(dataDir, 1);
	});

	it('keeps a group commit whole or not at all when killed at file writes across its batch (spilled pages, commit, checkpoint)', async () => {
		await killAcrossCommits(dataDir, 4);
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
});

describe('hardening: files left by earlier releases', function () {
	this.timeout(120_000);
	let dataDir: string;

	beforeEach(() => {
		dataDir = mkdtempSync(join(tmpdir(), 'mp-earlier-'));
	});
	afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

	it('opens the write-ahead log of the release before node:sqlite, killed mid-transaction: its commits are served, and writing goes on', async () => {
		const { acknowledged } = restoreFixture<{ acknowledged: number }>('previous-release-wal', dataDir);
		assert.equal(acknowledged, 3);
		// The committed transactions are in the log only: the database file alone has none of them.
		assert.deepEqual(
			{ ...withoutItsLog(dataDir, "SELECT count(*) AS n FROM note WHERE subject = 'crash test'") },
			{
				n: 0,
			},
		);

		const sandbox = openSandbox({ dataDir, passwordCost: 1024 });
		try {
			assert.deepEqual(sandbox.notices, [], 'the same schema: nothing to upgrade, nothing to seed');
			assert.equal(sandbox.store.schemaVersion(), LATEST_SCHEMA_VERSION);
		} finally {
			sandbox.close();
		}
		assertLastCommitted(dataDir, acknowledged, undefined);
		const more = await runChild({ mode: 'writer', dataDir, firstTx: acknowledged + 1, transactions: 2 });
		assert.equal(more.code, 0, more.stderr);
		assertLastCommitted(dataDir, acknowledged + 2, undefined);
	});

	it('rolls back the hot journal a crashed earlier version left, with uncommitted pages already in the database file', () => {
		const { before } = restoreFixture<{ before: { n: number; text: number; all_text: string } }>(
			'earlier-version-hot-journal',
			dataDir,
		);
		const file = join(dataDir, SANDBOX_FILE_NAME);
		assert.ok(existsSync(`${file}-journal`), 'a hot journal is left');
		// Without its journal the file holds half a transaction: its application rows point to pages it lacks.
		const alone = withoutItsLog(dataDir, APPLICATION_TEXTS);
		assert.ok(
			alone instanceof Error && /database disk image is malformed/.test(alone.message),
			'uncommitted pages reached the database file',
		);
		// What the earlier version's killed process left beside them: its lock folder and its pid.
		mkdirSync(`${file}.lock`);
		writeFileSync(`${file}.owner`, '999999999');

		const sandbox = openSandbox({ dataDir, passwordCost: 1024 });
		try {
			sandbox.store.bulkLoad((_prepare, query) => {
				assert.equal(query('PRAGMA integrity_check')[0].integrity_check, 'ok');
				const after = query(APPLICATION_TEXTS)[0] as typeof before;
				assert.equal(after.n, before.n);
				assert.equal(after.text, before.text, 'no uncommitted text is served');
				assert.equal(after.all_text, before.all_text);
			});
		} finally {
			sandbox.close();
		}
		assert.equal(existsSync(`${file}-journal`), false, 'the journal was rolled back and removed');
		assert.equal(existsSync(`${file}.lock`), false, 'the dead process’s lock folder is gone');
	});
});
