import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';
import { SANDBOX_NAMESPACE } from '../../../src/emulator/endpoint';
import { PortInUseError } from '../../../src/emulator/portHolder';
import { startEmulatorInWorker, type WorkerEmulator } from '../../../src/emulator/worker/host';
import {
	SandboxManager,
	SandboxState,
	type LaunchedSandbox,
	type LaunchSandbox,
	type SandboxManagerOptions,
} from '../../../src/extension/sandbox/sandboxManager';
import { libraryScenario } from '../../../src/emulator/scenarios/library';
import { send } from '../../emulator/server/helpers';
import { clientFor } from '../../integration/support';
import { MemoryLog } from '../fakes';

/** The extension's launcher: the sandbox on a worker thread. */
const inWorker: LaunchSandbox = (options) => startEmulatorInWorker({ ...options, size: 'small', passwordCost: 1024 });

function manager(overrides: Partial<SandboxManagerOptions> = {}): { manager: SandboxManager; log: MemoryLog } {
	const log = new MemoryLog();
	return {
		log,
		manager: new SandboxManager({
			loadLauncher: async () => inWorker,
			dataDir: ':memory:',
			seed: () => 3,
			port: () => 0,
			log,
			...overrides,
		}),
	};
}

/** Waits for a condition the worker's messages make true (they arrive a moment after the call). */
async function until(condition: () => boolean): Promise<void> {
	for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
	assert.ok(condition(), 'the condition never held');
}

function listeningServers(): number {
	return process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
}

/** Holds a port with a plain TCP server of this process. */
async function holdPort(): Promise<{ server: Server; port: number }> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, port: (server.address() as { port: number }).port };
}

describe('sandbox manager (the sandbox on a worker thread)', function () {
	this.timeout(90_000);

	it('starts once for concurrent users on a worker thread, forwards its access log and stops', async function () {
		let loads = 0;
		const states: SandboxState[] = [];
		const { manager: sandbox, log } = manager({
			loadLauncher: async () => {
				loads++;
				return inWorker;
			},
		});
		sandbox.onDidChangeState((s) => states.push(s));
		assert.equal(sandbox.state, SandboxState.Stopped);
		const serversBefore = listeningServers();
		const [a, b] = await Promise.all([sandbox.ensureRunning(), sandbox.ensureRunning()]);
		assert.equal(a, b);
		assert.equal(loads, 1);
		assert.match(a.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
		assert.equal(a.namespace, SANDBOX_NAMESPACE);
		// The server listens on the worker's thread: this thread gained no listening socket.
		assert.ok(isMainThread && threadId === 0);
		assert.notEqual((a as WorkerEmulator).threadId, threadId);
		assert.equal(listeningServers(), serversBefore);

		const client = clientFor(a);
		assert.ok((await client.getCurrency({})).length > 0);
		await client.close();
		await sandbox.stop();
		assert.deepEqual(states, [
			SandboxState.Starting,
			SandboxState.Running,
			SandboxState.Stopping,
			SandboxState.Stopped,
		]);
		assert.match(log.text(), /info \[sandbox\] POST \/SOAP\/Posting\.asmx soap11 GetCurrency 200 \d+ms/);
		assert.match(log.text(), /Sandbox running at http:\/\/127\.0\.0\.1:\d+ \(XML namespace http:\/\/sandbox/);
	});

	it('turns failure scenarios on in the worker, hears those a request file turns on, and forgets them when stopped', async function () {
		this.timeout(60_000);
		const { manager: sandbox, log } = manager();
		const seen: string[][] = [];
		sandbox.onDidChangeScenarios((active) => seen.push(active.map((scenario) => scenario.name)));
		await sandbox.setScenarios([libraryScenario('service-down')!]);
		const info = sandbox.running!;
		const down = await send(`${info.postingUrl}/GetCurrency?sCultureID=en&sAPIKey=${info.demo.apiKey}`);
		assert.equal(down.status, 503);
		await until(() => sandbox.activeScenarios.length === 1);
		assert.equal(sandbox.activeScenarios[0].name, 'service-down');

		// Turned on elsewhere (a request file, through the control endpoint): the manager hears it.
		const on = await fetch(`${info.baseUrl}/__admin/scenarios`, {
			method: 'POST',
			body: '{"name":"slow-service"}',
		});
		assert.equal(on.status, 200);
		await until(() => sandbox.activeScenarios.length === 2);

		await sandbox.clearScenarios();
		await until(() => sandbox.activeScenarios.length === 0);
		await sandbox.setScenarios([libraryScenario('flaky-network')!]);
		await until(() => sandbox.activeScenarios.length === 1);
		await sandbox.stop();
		assert.deepEqual(sandbox.activeScenarios, []);
		assert.deepEqual(seen.at(-1), []);
		assert.match(
			log.text(),
			/warn \[sandbox\] GET \/SOAP\/Posting\.asmx\/GetCurrency httpGet GetCurrency 503 \d+ms\n {2}injected by scenario service-down\/unavailable/,
		);
		assert.match(log.text(), /warn \[sandbox\] scenarios on: service-down \(failures are injected on purpose\)/);
	});

	it('starts the sandbox loose when the setting says so, and logs each leniency as a warning', async function () {
		const { manager: sandbox, log } = manager({ loose: () => true });
		try {
			const info = await sandbox.ensureRunning();
			// A GET without sCultureID: production answers 500; the loose sandbox answers and warns.
			const res = await fetch(`${info.postingUrl}/GetCurrency?sAPIKey=${encodeURIComponent(info.demo.apiKey)}`);
			assert.equal(res.status, 200);
			assert.equal(
				res.headers.get('x-sandbox-warning'),
				'production would refuse this request: missing parameter sCultureID',
			);
			for (let i = 0; i < 50 && !/warning: production would refuse/.test(log.text()); i++) {
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			assert.match(log.text(), /warning: production would refuse this request: missing parameter sCultureID/);
		} finally {
			await sandbox.stop();
		}
	});

	it("answers the web host's proxy name it is given, and still starts when that name cannot be learned", async function () {
		const ports: number[] = [];
		const { manager: sandbox } = manager({
			allowedHosts: async (port) => {
				ports.push(port);
				return ['code.example.com'];
			},
		});
		try {
			const info = await sandbox.ensureRunning();
			assert.deepEqual(ports, [0]);
			assert.equal((await send(info.postingWsdl, { headers: { host: 'code.example.com' } })).status, 200);
			assert.equal((await send(info.postingWsdl, { headers: { host: 'evil.example' } })).status, 403);
		} finally {
			await sandbox.stop();
		}
		const { manager: failing, log } = manager({
			allowedHosts: () => Promise.reject(new Error('no remote authority')),
		});
		try {
			const info = await failing.ensureRunning();
			assert.equal((await send(info.postingWsdl, { headers: { host: 'code.example.com' } })).status, 403);
			assert.match(log.text(), /Could not learn how the editor reaches the sandbox: no remote authority/);
		} finally {
			await failing.stop();
		}
	});

	it('starts the sandbox strict by default', async function () {
		const { manager: sandbox } = manager();
		try {
			const info = await sandbox.ensureRunning();
			const res = await fetch(`${info.postingUrl}/GetCurrency?sAPIKey=${encodeURIComponent(info.demo.apiKey)}`);
			assert.equal(res.status, 500);
			assert.equal(await res.text(), 'System.InvalidOperationException: Missing parameter: sCultureID.');
		} finally {
			await sandbox.stop();
		}
	});

	it('reports a failed start once, with its error, and can start again', async function () {
		let attempt = 0;
		const failures: Error[] = [];
		const { manager: sandbox } = manager({
			loadLauncher: async () => async (options) => {
				if (attempt++ === 0) throw new Error('disk on fire');
				return inWorker(options);
			},
		});
		sandbox.onDidFail((error) => failures.push(error));
		await assert.rejects(Promise.all([sandbox.ensureRunning(), sandbox.ensureRunning()]), /disk on fire/);
		assert.equal(sandbox.state, SandboxState.Failed);
		assert.equal(sandbox.lastError?.message, 'disk on fire');
		assert.deepEqual(
			failures.map((e) => e.message),
			['disk on fire'],
		);
		await sandbox.ensureRunning();
		assert.equal(sandbox.state, SandboxState.Running);
		assert.equal(sandbox.lastError, undefined);
		await sandbox.stop();
	});

	it('names the process holding a taken port and offers a free one', async function () {
		const held = await holdPort();
		const failures: Error[] = [];
		try {
			const { manager: sandbox, log } = manager({ port: () => held.port });
			sandbox.onDidFail((error) => failures.push(error));
			const error = await sandbox.ensureRunning().then(
				() => assert.fail('started on a taken port'),
				(e: unknown) => e,
			);
			assert.ok(error instanceof PortInUseError, `a PortInUseError, got ${String(error)}`);
			assert.equal(error.port, held.port);
			// This test process holds it; on Linux /proc says so.
			if (process.platform === 'linux') assert.equal(error.holder?.pid, process.pid);
			assert.ok(error.suggestedPort !== undefined && error.suggestedPort !== held.port);
			assert.match(
				error.message,
				new RegExp(`Port ${held.port} on 127\\.0\\.0\\.1 is already in use by process`),
			);
			assert.equal(sandbox.state, SandboxState.Failed);
			assert.equal(failures.length, 1);
			assert.match(log.text(), /Sandbox failed to start: Port \d+ on 127\.0\.0\.1 is already in use/);
		} finally {
			held.server.close();
		}
	});

	it('goes to Failed when the sandbox thread ends unexpectedly', async function () {
		const dir = await mkdtemp(join(tmpdir(), 'mp-crash-'));
		try {
			// A stand-in worker: says it is ready, then dies.
			const workerFile = join(dir, 'crashingWorker.js');
			await writeFile(
				workerFile,
				`const { parentPort } = require('node:worker_threads');
				parentPort.postMessage({ type: 'ready', info: { baseUrl: 'http://127.0.0.1:9', postingUrl: '', adminUrl: '',
					postingWsdl: '', adminWsdl: '', namespace: 'urn:x', demo: { apiKey: '', username: '', password: '' } } });
				setTimeout(() => { throw new Error('wasm memory access out of bounds'); }, 50);`,
			);
			const failures: Error[] = [];
			const { manager: sandbox, log } = manager({
				loadLauncher: async () => (options) => startEmulatorInWorker({ ...options, workerFile }),
			});
			const crashed = new Promise<void>((resolve) =>
				sandbox.onDidFail((error) => {
					failures.push(error);
					resolve();
				}),
			);
			await sandbox.ensureRunning();
			await crashed;
			assert.equal(sandbox.state, SandboxState.Failed);
			assert.equal(sandbox.running, undefined);
			assert.match(failures[0]?.message ?? '', /wasm memory access out of bounds/);
			assert.match(log.text(), /The sandbox stopped unexpectedly: .*wasm memory access out of bounds/);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it('moves a running sandbox to a changed port setting', async function () {
		const first = await holdPort();
		const second = await holdPort();
		const ports = [first.port, second.port];
		await new Promise<void>((resolve) => first.server.close(() => resolve()));
		await new Promise<void>((resolve) => second.server.close(() => resolve()));
		let port = ports[0];
		const { manager: sandbox } = manager({
			port: () => port,
		});
		const running = await sandbox.ensureRunning();
		assert.equal(running.baseUrl, `http://127.0.0.1:${ports[0]}`);
		await sandbox.applyPortSetting();
		assert.equal(sandbox.running, running, 'same port: no restart');
		port = ports[1];
		await sandbox.applyPortSetting();
		assert.equal(sandbox.running?.baseUrl, `http://127.0.0.1:${ports[1]}`);
		await sandbox.stop();
	});

	it('keeps its data in its folder across restarts and reset starts from fresh demo data', async function () {
		const dir = await mkdtemp(join(tmpdir(), 'mp-sandbox-'));
		try {
			const { manager: sandbox } = manager({ dataDir: dir });
			let client = clientFor(await sandbox.ensureRunning());
			const added = await client.addAdvert({ sJobTitle: 'Kept across restarts', sJobDescription: 'x' });
			await client.close();
			await sandbox.stop();
			assert.ok((await readdir(dir)).length > 0, 'the database is in the folder');
			client = clientFor(await sandbox.ensureRunning());
			const search = {
				sAdvertID: String(added.AdvertID),
				sSearchDays: '-1',
				CurrentPage: 1,
				RowsPerPage: 1,
			};
			const again = await client.getAdvertPaged(search);
			assert.equal(again.Adverts?.[0]?.AdvertTitle, 'Kept across restarts');
			await client.close();
			client = clientFor(await sandbox.reset());
			const gone = await client.getAdvertPaged(search);
			assert.notEqual(gone.Adverts?.[0]?.AdvertTitle, 'Kept across restarts');
			await client.close();
			await sandbox.stop();
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});

describe('sandbox manager states (a launcher that answers at once)', function () {
	/** A launcher whose sandboxes stop only when the test lets them, and which says what opening found. */
	function fakeLauncher(notices: string[] = []) {
		const launches: boolean[] = [];
		let releaseStop: (() => void) | undefined;
		const launch: LaunchSandbox = async (options) => {
			launches.push(options.reset);
			for (const notice of notices) options.onLog({ level: 'warn', text: `storage ${notice}` });
			return {
				baseUrl: `http://127.0.0.1:${9000 + launches.length}`,
				namespace: SANDBOX_NAMESPACE,
				demo: { apiKey: 'k', username: 'u', password: 'p' },
				stop: () => new Promise<void>((resolve) => (releaseStop = resolve)),
			} as unknown as LaunchedSandbox;
		};
		return { launch, launches, stopNow: () => releaseStop?.() };
	}

	async function until(condition: () => boolean): Promise<void> {
		for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
		assert.ok(condition(), 'the condition came true');
	}

	it('shows one state from a reset until the new sandbox runs, and a start asked for meanwhile gets the new one', async function () {
		const fake = fakeLauncher();
		const { manager: sandbox } = manager({ loadLauncher: async () => fake.launch });
		await sandbox.ensureRunning();
		const states: SandboxState[] = [];
		sandbox.onDidChangeState((s) => states.push(s));
		const reset = sandbox.reset();
		await until(() => sandbox.state === SandboxState.Resetting);
		const meanwhile = sandbox.ensureRunning();
		fake.stopNow();
		const [after, asked] = await Promise.all([reset, meanwhile]);
		assert.deepEqual(states, [SandboxState.Resetting, SandboxState.Running], 'no stopped, no starting in between');
		assert.equal(asked, after, 'the start asked for during the reset waits for its sandbox');
		assert.deepEqual(fake.launches, [false, true], 'one new start, on fresh data');
	});

	it('says it is stopping until the sandbox has stopped', async function () {
		const fake = fakeLauncher();
		const { manager: sandbox } = manager({ loadLauncher: async () => fake.launch });
		await sandbox.ensureRunning();
		const states: SandboxState[] = [];
		sandbox.onDidChangeState((s) => states.push(s));
		const stopped = sandbox.stop();
		await until(() => sandbox.state === SandboxState.Stopping);
		fake.stopNow();
		await stopped;
		assert.deepEqual(states, [SandboxState.Stopping, SandboxState.Stopped]);
	});

	it('passes on once what opening the sandbox found, such as a previous run that ended without closing', async function () {
		const notice =
			'The previous sandbox on this folder (process 1, VS Code) ended without closing; its last committed state is kept.';
		const { manager: sandbox, log } = manager({ loadLauncher: async () => fakeLauncher([notice]).launch });
		const heard: string[] = [];
		sandbox.onDidNotice((text) => heard.push(text));
		await sandbox.ensureRunning();
		assert.deepEqual(heard, [notice]);
		assert.ok(
			log.lines.some((l) => l.message.includes(notice)),
			'and it is in the log',
		);
	});
});
