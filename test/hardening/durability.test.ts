/**
 * Durability: the standalone sandbox CLI is killed with SIGKILL in the middle of a stream of writes,
 * restarted on the same data folder and killed again, several times; every acknowledged write is
 * there after each restart and the database file passes PRAGMA integrity_check.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MultipostingClient } from '../../src/client';
import { openSandbox } from '../../src/emulator/sandbox';
import { clientFor, delay } from '../integration/support';

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
/** Kills in a row, each followed by a restart on the same folder. */
const ROUNDS = 3;

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
	this.timeout(300_000);
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

	it('keeps every acknowledged write and an intact database, kill after kill', async () => {
		const clientOf = (ready: Ready): MultipostingClient =>
			clientFor({ baseUrl: ready.baseUrl, namespace: ready.namespace, demo: ready }, { timeoutMs: 10_000 });
		const acknowledgedAdverts: { identifier: string; id: number }[] = [];
		const acknowledgedNotes: number[] = [];
		let target: { advertId: string; applicationId: string } | undefined;
		const started = Date.now();

		for (let round = 0; round < ROUNDS; round++) {
			const running = await startCli(dataDir);
			children.push(running.child);
			const client = clientOf(running.ready);
			if (target === undefined) {
				const adverts = await client.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 50 });
				const advert = adverts.Adverts!.find((a) => (a.Applications ?? 0) > 0)!;
				const applications = await client.getApplicationsPaged({
					sAdvertID: String(advert.AdvertID),
					CurrentPage: 1,
					RowsPerPage: 1,
				});
				target = {
					advertId: String(advert.AdvertID),
					applicationId: String(applications.Applications![0].AdvertCandidateID),
				};
			}
			const { advertId, applicationId } = target;
			// What the previous rounds acknowledged is all there after the restart.
			if (round > 0) {
				const found = new Map<string, number>();
				for await (const item of client.items('GetAdvertPaged', { sSearchDays: '-1' }, { rowsPerPage: 500 })) {
					if (item.AdvertIdentifier?.startsWith('DUR-')) found.set(item.AdvertIdentifier, item.AdvertID!);
				}
				const lost = acknowledgedAdverts.filter((write) => found.get(write.identifier) !== write.id);
				assert.deepEqual(lost, [], `every acknowledged AddAdvert survived kill ${round}`);
			}

			let killed = false;
			const before = { adverts: acknowledgedAdverts.length, notes: acknowledgedNotes.length };
			// Four writers in parallel; the kill lands while some writes are in flight.
			const writer = async (w: number): Promise<void> => {
				for (let i = 0; i < MAX_WRITES / 4 && !killed; i++) {
					try {
						if (i % 2 === 0) {
							const identifier = `DUR-${round}-${w}-${i}`;
							const created = await client.addAdvert({
								sAdvertIdentifier: identifier,
								sJobTitle: `Durable ${round}/${w}/${i}`,
							});
							acknowledgedAdverts.push({ identifier, id: created.AdvertID! });
						} else {
							const note = await client.addAdvertCandidateNote({
								sAdvertID: advertId,
								sAdvertCandidateID: applicationId,
								sBody: `durable ${round}/${w}/${i}`,
							});
							acknowledgedNotes.push(note.AdvertCandidateNoteID!);
						}
					} catch {
						// Calls cut off by the kill are not acknowledged; nothing is expected of them.
					}
				}
			};
			const writers = Promise.all([0, 1, 2, 3].map(writer));
			const streamStart = Date.now();
			// A different moment in each round.
			while (Date.now() - streamStart < STREAM_MS + round * 350) await delay(20);
			running.child.kill('SIGKILL');
			killed = true;
			await exited(running.child);
			await writers;
			await client.close();
			assert.ok(
				acknowledgedAdverts.length - before.adverts >= 5 && acknowledgedNotes.length - before.notes >= 5,
				`writes acknowledged before kill ${round + 1}: ${acknowledgedAdverts.length - before.adverts} adverts, ${acknowledgedNotes.length - before.notes} notes`,
			);
		}

		const last = await startCli(dataDir);
		children.push(last.child);
		const client = clientOf(last.ready);
		try {
			const found = new Map<string, number>();
			for await (const item of client.items('GetAdvertPaged', { sSearchDays: '-1' }, { rowsPerPage: 500 })) {
				if (item.AdvertIdentifier?.startsWith('DUR-')) found.set(item.AdvertIdentifier, item.AdvertID!);
			}
			const lost = acknowledgedAdverts.filter((write) => found.get(write.identifier) !== write.id);
			assert.deepEqual(lost, [], 'every acknowledged AddAdvert survived');
			// A new note after the restart gets an id above every acknowledged one: none was rolled back.
			const after = await client.addAdvertCandidateNote({
				sAdvertID: target!.advertId,
				sAdvertCandidateID: target!.applicationId,
				sBody: 'after restart',
			});
			assert.ok(
				after.AdvertCandidateNoteID! > Math.max(...acknowledgedNotes),
				'acknowledged notes are still there',
			);
			const reread = await client.getApplicationsPaged({
				sAdvertID: target!.advertId,
				AdvertCandidateIDAsCSV: target!.applicationId,
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			assert.ok(
				Date.parse(reread.Applications![0].LastNoteDate!) >= Math.floor(started / 1000) * 1000,
				'LastNoteDate reflects the notes',
			);
		} finally {
			await client.close();
			last.child.kill('SIGTERM');
			await exited(last.child);
		}

		// The file itself, opened the way the product opens it.
		const sandbox = openSandbox({ dataDir, passwordCost: 1024 });
		try {
			sandbox.store.bulkLoad((_prepare, query) => {
				assert.equal(query('PRAGMA integrity_check')[0].integrity_check, 'ok');
				const notes = query(
					`SELECT count(*) AS n FROM note WHERE id IN (${acknowledgedNotes.map(() => '?').join(',')})`,
					acknowledgedNotes,
				)[0] as { n: number };
				assert.equal(notes.n, acknowledgedNotes.length, 'every acknowledged note row is in the file');
			});
		} finally {
			sandbox.close();
		}
	});
});
