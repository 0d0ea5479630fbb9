import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MultipostingClient } from '../../../src/client';
import { startEmulator } from '../../../src/emulator';
import { SandboxManager, SandboxState } from '../../../src/extension/sandbox/sandboxManager';
import { MemoryLog } from '../fakes';

describe('sandbox manager (real emulator)', function () {
	this.timeout(90_000);

	it('starts once for concurrent users, reports its states and stops', async function () {
		let loads = 0;
		const states: SandboxState[] = [];
		const manager = new SandboxManager({
			loadEmulator: async () => {
				loads++;
				return startEmulator;
			},
			dataDir: ':memory:',
			seed: () => 3,
			log: new MemoryLog(),
		});
		manager.onDidChangeState((s) => states.push(s));
		assert.equal(manager.state, SandboxState.Stopped);
		const [a, b] = await Promise.all([manager.ensureRunning(), manager.ensureRunning()]);
		assert.equal(a, b);
		assert.equal(loads, 1);
		assert.match(a.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
		await manager.stop();
		assert.deepEqual(states, [SandboxState.Starting, SandboxState.Running, SandboxState.Stopped]);
	});

	it('reports a failed start and can start again', async function () {
		let attempt = 0;
		const manager = new SandboxManager({
			loadEmulator: async () => async (options) => {
				if (attempt++ === 0) throw new Error('port in use');
				return startEmulator(options);
			},
			dataDir: ':memory:',
			seed: () => undefined,
			log: new MemoryLog(),
		});
		await assert.rejects(manager.ensureRunning(), /port in use/);
		assert.equal(manager.state, SandboxState.Failed);
		assert.equal(manager.lastError?.message, 'port in use');
		await manager.ensureRunning();
		assert.equal(manager.state, SandboxState.Running);
		await manager.stop();
	});

	it('keeps its data in its folder across restarts and reset starts from fresh demo data', async function () {
		const dir = await mkdtemp(join(tmpdir(), 'mp-sandbox-'));
		try {
			const manager = new SandboxManager({
				loadEmulator: async () => startEmulator,
				dataDir: dir,
				seed: () => 5,
				log: new MemoryLog(),
			});
			const first = await manager.ensureRunning();
			const clientOf = (e: typeof first) =>
				new MultipostingClient({
					baseUrl: e.baseUrl,
					namespace: e.namespace,
					credentials: { apiKey: e.demo.apiKey, username: e.demo.username, password: e.demo.password },
				});
			let client = clientOf(first);
			const added = await client.addAdvert({ sJobTitle: 'Kept across restarts', sJobDescription: 'x' });
			await client.close();
			await manager.stop();
			assert.ok((await readdir(dir)).length > 0, 'the database is in the folder');
			client = clientOf(await manager.ensureRunning());
			const again = await client.getAdvertPaged({
				sAdvertID: String(added.AdvertID),
				sSearchDays: '-1',
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			assert.equal(again.Adverts?.[0]?.AdvertTitle, 'Kept across restarts');
			await client.close();
			client = clientOf(await manager.reset());
			const gone = await client.getAdvertPaged({
				sAdvertID: String(added.AdvertID),
				sSearchDays: '-1',
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			assert.notEqual(gone.Adverts?.[0]?.AdvertTitle, 'Kept across restarts');
			await client.close();
			await manager.stop();
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});
