import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MultipostingClient } from '../../../src/client';
import { acquireOwnerLock, OWNER_LOCK_NAME } from '../../../src/emulator/store/ownerLock';
import { startEmulatorInWorker, type LogLine, type WorkerEmulator } from '../../../src/emulator/worker/host';
import { clientFor } from '../../integration/support';

describe('the sandbox on a worker thread', function () {
	this.timeout(60_000);
	let sandbox: WorkerEmulator;
	const lines: LogLine[] = [];

	before(async () => {
		sandbox = await startEmulatorInWorker({
			size: 'small',
			passwordCost: 1024,
			clock: 'manual',
			deliveryDelayMs: 1000,
			onLog: (line) => lines.push(line),
		});
	});
	after(() => sandbox?.stop());

	const client = (): MultipostingClient => clientFor(sandbox);

	it('answers calls of every kind and sends its access log and background events back', async () => {
		const c = client();
		try {
			const page = await c.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 5 });
			assert.equal(page.Adverts?.length, 5);
			const arrived = await sandbox.simulateApplication();
			assert.ok(arrived && arrived.advertCandidateId > 0, 'a live arrival made in the worker');
			await sandbox.advance(60_000);
			assert.equal(typeof (await sandbox.deliverDue()), 'number');
			await sandbox.callbacksIdle();
			// Lines are batched: wait for the batch that holds the arrival.
			for (let i = 0; i < 100 && !lines.some((l) => l.text.startsWith('application ')); i++) {
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			assert.ok(
				lines.some(
					(l) =>
						l.level === 'info' &&
						/^POST \/SOAP\/Posting\.asmx soap11 GetAdvertPaged 200 \d+ms$/.test(l.text),
				),
				JSON.stringify(lines),
			);
			assert.ok(
				lines.some(
					(l) =>
						l.text ===
						`application ${arrived.advertCandidateId} advert=${arrived.advertId} feed=${arrived.feedId}`,
				),
			);
			assert.ok(!lines.some((l) => l.text.includes(sandbox.demo.apiKey)), 'no secret in the log');
		} finally {
			await c.close();
		}
	});

	it('resets to the seeded state', async () => {
		const c = client();
		try {
			const added = await c.addAdvert({ sJobTitle: 'Gone after reset', sJobDescription: 'x' });
			await sandbox.reset();
			const page = await c.getAdvertPaged({
				sAdvertID: String(added.AdvertID),
				sSearchDays: '-1',
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			assert.notEqual(page.Adverts?.[0]?.AdvertTitle, 'Gone after reset');
		} finally {
			await c.close();
		}
	});

	it('rejects with the start error and ends the thread', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'mp-worker-'));
		try {
			// A file where the data folder should be: the sandbox cannot open its database.
			const file = join(dir, 'not-a-folder');
			writeFileSync(file, 'x');
			await assert.rejects(startEmulatorInWorker({ dataDir: file, size: 'small' }), (error: Error) => {
				assert.match(error.message, /EEXIST|ENOTDIR|not a directory|already exists/i);
				return true;
			});
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('gives the data folder up for a thread that ended without closing its sandbox', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'mp-worker-'));
		try {
			// A worker that takes the folder and dies at once, as a crashed or terminated sandbox would.
			const workerFile = join(dir, 'dyingWorker.js');
			writeFileSync(
				workerFile,
				`const { acquireOwnerLock } = require(${JSON.stringify(require.resolve('../../../src/emulator/store/ownerLock'))});
				acquireOwnerLock(require('node:worker_threads').workerData.sandboxOptions.dataDir, 'a dying worker');
				process.exit(3);`,
			);
			const dataDir = join(dir, 'data');
			mkdirSync(dataDir);
			await assert.rejects(startEmulatorInWorker({ dataDir, workerFile }), /ended unexpectedly \(exit code 3\)/);
			assert.equal(existsSync(join(dataDir, OWNER_LOCK_NAME)), false, 'the lock of the dead thread is gone');
			acquireOwnerLock(dataDir, 'the next sandbox').release();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('stops: the port is released and later calls are refused', async () => {
		const other = await startEmulatorInWorker({ size: 'small', passwordCost: 1024 });
		await other.stop();
		await assert.rejects(other.deliverDue(), /ended/);
		// The port is free again: a new server can take it.
		const again = await startEmulatorInWorker({
			port: Number(new URL(other.baseUrl).port),
			size: 'small',
			passwordCost: 1024,
		});
		assert.equal(again.baseUrl, other.baseUrl);
		await again.stop();
	});
});
