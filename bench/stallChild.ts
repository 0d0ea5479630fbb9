/**
 * The extension host's stand-in for bench/stall.ts: a fresh process that measures its own event-loop
 * stalls (perf_hooks.monitorEventLoopDelay) while idle (the machine's noise), while the sandbox starts (seeding a fresh database),
 * serves a load sent by the parent, and stops. Two modes:
 *   worker      the production bundle (extension.js with the 'vscode' stand-in of bench/vscodeStandIn.ts),
 *               sandbox started by the extension's own Start Sandbox command: on its worker thread;
 *   in-process  the emulator bundle started on this process's own thread (how the extension ran it before).
 * Talks to the parent over IPC: sends `started`, answers `measure` with the load figures and `stop`
 * with the stop figures, then exits.
 *
 *   node out/bench/stallChild.js worker|in-process <bundle dir> <globalStorage>   (forked, with IPC)
 */
import { createRequire } from 'node:module';
import Module from 'node:module';
import { join } from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { COMMANDS } from '../src/extension/ids';
import { createVscodeStandIn } from './vscodeStandIn';

/** The histogram's sampling interval (ms): the smallest stall it can see. */
const RESOLUTION_MS = 5;
/** Length of the idle measurement that gives the machine's noise floor. */
const IDLE_MS = 3_000;

export interface Stall {
	/** Longest event-loop delay seen, ms. */
	maxMs: number;
	p99Ms: number;
	meanMs: number;
	/** How long the phase lasted, ms. */
	durationMs: number;
}

export type FromStallChild =
	| { type: 'started'; baseUrl: string; namespace: string; idle: Stall; start: Stall }
	| { type: 'measured'; load: Stall }
	| { type: 'stopped'; stop: Stall };
export type ToStallChild = { type: 'measure' } | { type: 'stop' };

function stallOf(histogram: IntervalHistogram, startedAt: number): Stall {
	return {
		maxMs: histogram.max / 1e6,
		p99Ms: histogram.percentile(99) / 1e6,
		meanMs: histogram.mean / 1e6,
		durationMs: performance.now() - startedAt,
	};
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Measures `task` (and the event loop while it runs). */
async function measured(task: () => Promise<void>): Promise<Stall> {
	const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
	histogram.enable();
	// The histogram ignores the delay before its first sample (and after a reset()): let it take a
	// few before the task, so a stall at the very start of the task is counted.
	await sleep(RESOLUTION_MS * 4);
	const startedAt = performance.now();
	try {
		await task();
		// One more sample after the task, so a stall at its very end is counted.
		await sleep(RESOLUTION_MS * 4);
		return stallOf(histogram, startedAt);
	} finally {
		histogram.disable();
	}
}

interface Started {
	baseUrl: string;
	namespace: string;
	stop(): Promise<void>;
}

/** What starts the sandbox, prepared before measuring (loading the code is not the sandbox's doing). */
type Starter = () => Promise<Started>;

/** The production extension, activated with the stand-in; the sandbox started by its command. */
function extensionStarter(dir: string, globalStorage: string): Starter {
	const standIn = createVscodeStandIn();
	// Any free port: benchmarks must not depend on the default port being free.
	void standIn.settings.update('sandbox.port', 0);
	const internals = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
	const load = internals._load;
	internals._load = function (request, parent, isMain) {
		return request === 'vscode' ? standIn.api : load.call(this, request, parent, isMain);
	};
	const extension = createRequire(__filename)(join(dir, 'extension.js')) as { activate(context: unknown): void };
	const context = standIn.context(globalStorage, join(__dirname, '..', '..'));
	extension.activate(context);
	const command = (id: string) => {
		const handler = standIn.commands.get(id);
		if (!handler) throw new Error(`activate() registered no command ${id}`);
		return handler;
	};
	return async () => {
		await command(COMMANDS.sandboxStart)();
		const line = standIn.log.lines.map((l) => l.message).find((m) => m.startsWith('Sandbox running at '));
		const match = /^Sandbox running at (\S+) \(XML namespace (\S+)\)/.exec(line ?? '');
		if (!match) throw new Error(`the sandbox did not start: ${standIn.log.text()}`);
		return {
			baseUrl: match[1],
			namespace: match[2],
			stop: async () => {
				await command(COMMANDS.sandboxStop)();
				for (const d of context.subscriptions as { dispose(): unknown }[]) d.dispose();
			},
		};
	};
}

/** The emulator on this process's own thread, as the extension ran it before the worker. */
function inProcessStarter(dir: string, globalStorage: string): Starter {
	const { startEmulator } = createRequire(__filename)(join(dir, 'emulator.js')) as typeof import('../src/emulator');
	return async () => {
		const emulator = await startEmulator({ port: 0, dataDir: join(globalStorage, 'sandbox') });
		return { baseUrl: emulator.baseUrl, namespace: emulator.namespace, stop: () => emulator.stop() };
	};
}

async function main(mode: string, dir: string, globalStorage: string): Promise<void> {
	const send = (message: FromStallChild): void => void process.send!(message);
	const starter = mode === 'worker' ? extensionStarter(dir, globalStorage) : inProcessStarter(dir, globalStorage);
	// The machine's own noise: the same host doing nothing.
	const idle = await measured(() => sleep(IDLE_MS));
	let sandbox: Started | undefined;
	const start = await measured(async () => {
		sandbox = await starter();
	});
	send({ type: 'started', baseUrl: sandbox!.baseUrl, namespace: sandbox!.namespace, idle, start });

	// The load phase runs from `started` to `measure`, while the parent sends requests.
	let finishLoad: () => void = () => undefined;
	const loadDone = new Promise<void>((resolve) => (finishLoad = resolve));
	const load = measured(() => loadDone);
	process.on('message', (message: ToStallChild) => {
		if (message.type === 'measure') {
			finishLoad();
			void load.then((figures) => send({ type: 'measured', load: figures }));
		} else if (message.type === 'stop') {
			void measured(() => sandbox!.stop()).then((stop) => {
				send({ type: 'stopped', stop });
				process.disconnect();
			});
		}
	});
}

if (require.main === module) {
	const [mode, dir, globalStorage] = process.argv.slice(2);
	if (!['worker', 'in-process'].includes(mode) || !dir || !globalStorage || !process.send) {
		console.error('usage (forked with IPC): stallChild.js worker|in-process <bundle dir> <globalStorage>');
		process.exit(2);
	}
	main(mode, dir, globalStorage).catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
