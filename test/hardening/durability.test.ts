/**
 * Durability: the standalone sandbox CLI is killed with SIGKILL in the middle of a stream of writes;
 * after a restart on the same data folder every acknowledged write is there and the database file
 * passes PRAGMA integrity_check.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { MultipostingClient } from '../../src/client';
import { delay } from '../integration/support';

interface Ready {
	baseUrl: string;
	namespace: string;
	apiKey: string;
	username: string;
	password: string;
}

const CLI = join(__dirname, '../../src/emulator/cli.js');
const STREAM_MS = 3_000;
const MAX_WRITES = 2_000;

/** Starts the CLI and resolves with its ready line (bounded wait). */
async function startCli(dataDir: string): Promise<{ child: ChildProcess; ready: Ready }> {
	const child = spawn(process.execPath, [CLI, '--port', '0', '--data', dataDir], {
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	let stdout = '';
	child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	for (let i = 0; i < 600 && !stdout.includes('\n'); i++) {
		if (child.exitCode !== null) throw new Error(`the CLI exited with ${child.exitCode}`);
		await delay(100);
	}
	return { child, ready: JSON.parse(stdout.split('\n')[0]) as Ready };
}

function exited(child: ChildProcess): Promise<void> {
	return child.exitCode !== null || child.signalCode !== null
		? Promise.resolve()
		: new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('hardening: durability across SIGKILL', function () {
	this.timeout(120_000);
	let dataDir: string;
	const children: ChildProcess[] = [];

	before(() => {
		dataDir = mkdtempSync(join(tmpdir(), 'mp-durability-'));
	});

	after(async () => {
		for (const child of children) {
			if (child.exitCode === null && child.signalCode === null) {
				child.kill('SIGKILL');
				await exited(child);
			}
		}
		rmSync(dataDir, { recursive: true, force: true });
	});

	it('keeps every acknowledged write and an intact database', async () => {
		const first = await startCli(dataDir);
		children.push(first.child);
		const clientOf = (ready: Ready): MultipostingClient =>
			new MultipostingClient({
				baseUrl: ready.baseUrl,
				namespace: ready.namespace,
				timeoutMs: 10_000,
				credentials: { apiKey: ready.apiKey, username: ready.username, password: ready.password },
			});
		let client = clientOf(first.ready);
		const adverts = await client.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 50 });
		const advert = adverts.Adverts!.find((a) => (a.Applications ?? 0) > 0)!;
		const applications = await client.getApplicationsPaged({
			sAdvertID: String(advert.AdvertID),
			CurrentPage: 1,
			RowsPerPage: 1,
		});
		const application = applications.Applications![0];

		const acknowledgedAdverts: { identifier: string; id: number }[] = [];
		const acknowledgedNotes: number[] = [];
		const started = Date.now();
		let killed = false;
		// Four writers in parallel; the kill lands while some writes are in flight.
		const writer = async (w: number): Promise<void> => {
			for (let i = 0; i < MAX_WRITES / 4 && !killed; i++) {
				try {
					if (i % 2 === 0) {
						const identifier = `DUR-${w}-${i}`;
						const created = await client.addAdvert({
							sAdvertIdentifier: identifier,
							sJobTitle: `Durable ${w}/${i}`,
						});
						acknowledgedAdverts.push({ identifier, id: created.AdvertID! });
					} else {
						const note = await client.addAdvertCandidateNote({
							sAdvertID: String(advert.AdvertID),
							sAdvertCandidateID: String(application.AdvertCandidateID),
							sBody: `durable ${w}/${i}`,
						});
						acknowledgedNotes.push(note.AdvertCandidateNoteID!);
					}
				} catch {
					// Calls cut off by the kill are not acknowledged; nothing is expected of them.
				}
			}
		};
		const writers = Promise.all([0, 1, 2, 3].map(writer));
		while (Date.now() - started < STREAM_MS) await delay(50);
		first.child.kill('SIGKILL');
		killed = true;
		await exited(first.child);
		await writers;
		await client.close();
		assert.ok(
			acknowledgedAdverts.length >= 5 && acknowledgedNotes.length >= 5,
			`writes acknowledged before the kill: ${acknowledgedAdverts.length} adverts, ${acknowledgedNotes.length} notes`,
		);

		const second = await startCli(dataDir);
		children.push(second.child);
		client = clientOf(second.ready);
		try {
			const found = new Map<string, number>();
			for await (const item of client.items('GetAdvertPaged', { sSearchDays: '-1' }, { rowsPerPage: 500 })) {
				if (item.AdvertIdentifier?.startsWith('DUR-')) found.set(item.AdvertIdentifier, item.AdvertID!);
			}
			const lost = acknowledgedAdverts.filter(
				(advertWrite) => found.get(advertWrite.identifier) !== advertWrite.id,
			);
			assert.deepEqual(lost, [], 'every acknowledged AddAdvert survived');
			// A new note after the restart gets an id above every acknowledged one: none was rolled back.
			const after = await client.addAdvertCandidateNote({
				sAdvertID: String(advert.AdvertID),
				sAdvertCandidateID: String(application.AdvertCandidateID),
				sBody: 'after restart',
			});
			assert.ok(
				after.AdvertCandidateNoteID! > Math.max(...acknowledgedNotes),
				'acknowledged notes are still there',
			);
			const reread = await client.getApplicationsPaged({
				sAdvertID: String(advert.AdvertID),
				AdvertCandidateIDAsCSV: String(application.AdvertCandidateID),
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			assert.ok(
				Date.parse(reread.Applications![0].LastNoteDate!) >= Math.floor(started / 1000) * 1000,
				'LastNoteDate reflects the notes',
			);
		} finally {
			await client.close();
			second.child.kill('SIGTERM');
			await exited(second.child);
		}

		const db = new Database(join(dataDir, 'sandbox.sqlite'), { readOnly: true });
		try {
			const row = db.get('PRAGMA integrity_check') as Record<string, unknown>;
			assert.equal(Object.values(row)[0], 'ok');
			const notes = db.get(
				'SELECT count(*) AS n FROM note WHERE id IN (' + acknowledgedNotes.map(() => '?').join(',') + ')',
				acknowledgedNotes,
			) as { n: number };
			assert.equal(notes.n, acknowledgedNotes.length, 'every acknowledged note row is in the file');
		} finally {
			db.close();
		}
	});
});
