/**
 * Runs the sandbox on a worker thread (./sandboxWorker.ts) so that its seeding, its SQLite queries and
 * its HTTP traffic never block the caller's event loop (the VS Code extension host). A worker rather
 * than a child process: it ends with the process that started it (no orphan holding the port and the
 * database), needs no Node executable (VS Code's is Electron), and starts in milliseconds. This module
 * imports no emulator code at run time but the owner lock's release (no SQLite), so the caller's bundle stays small.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { releaseAbandonedLock } from '../store/ownerLock';
import type { ActiveScenarioInfo } from '../scenarios/engine';
import type { Scenario } from '../scenarios/format';
import { deserializeError } from './errors';
import type {
	FromWorker,
	LogLine,
	SandboxInfo,
	ToWorker,
	WorkerCalls,
	WorkerData,
	WorkerEmulatorOptions,
	WorkerMethod,
} from './protocol';

export type { LogLine, SandboxInfo, WorkerEmulatorOptions } from './protocol';

/** Next to this file both in the bundle (dist/) and in the compiled tests. */
export const SANDBOX_WORKER_FILE = join(__dirname, 'sandboxWorker.js');
/** A stop that takes longer than this ends the thread the hard way. */
const STOP_TIMEOUT_MS = 10_000;

export interface WorkerStartOptions extends WorkerEmulatorOptions {
	/** Receives the access log and background events, in order, a batch at a time. */
	onLog?: (line: LogLine) => void;
	/** Told what is active whenever failure scenarios are turned on or off (by any caller). */
	onScenarios?: (active: ActiveScenarioInfo[]) => void;
	/** The worker script (default SANDBOX_WORKER_FILE). */
	workerFile?: string;
}

/** A sandbox running on its worker thread. */
export interface WorkerEmulator extends SandboxInfo {
	readonly threadId: number;
	/** Stops the server and the sandbox and ends the thread. */
	stop(): Promise<void>;
	/** Returns the sandbox to its freshly seeded state. */
	reset(): Promise<void>;
	/** Moves a manual clock forward. */
	advance(ms: number): Promise<void>;
	deliverDue(): Promise<number>;
	simulateApplication(advertId?: number): Promise<WorkerCalls['simulateApplication']['result']>;
	callbacksIdle(): Promise<void>;
	activateScenario(scenario: Scenario): Promise<void>;
	deactivateScenario(name?: string): Promise<boolean>;
	scenarios(): Promise<ActiveScenarioInfo[]>;
	/** Called once when the thread ends without stop() (a crash); the sandbox is gone. */
	onUnexpectedExit(listener: (error: Error) => void): void;
}

/** Starts the sandbox on a new worker thread; resolves when it listens, rejects with the start error. */
export function startEmulatorInWorker(options: WorkerStartOptions = {}): Promise<WorkerEmulator> {
	const { onLog, onScenarios, workerFile, ...sandboxOptions } = options;
	const worker = new Worker(workerFile ?? SANDBOX_WORKER_FILE, {
		workerData: { sandboxOptions } satisfies WorkerData,
	});
	// The thread never keeps the caller's process alive: it ends with it.
	worker.unref();
	// Read now: after the thread ends, worker.threadId is -1.
	const threadId = worker.threadId;
	const calls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
	let nextId = 1;
	let stopped = false;
	let exitListener: ((error: Error) => void) | undefined;
	let ended: Error | undefined;

	return new Promise<WorkerEmulator>((resolve, reject) => {
		let started = false;
		const fail = (error: Error): void => {
			if (ended) return;
			ended = error;
			for (const call of calls.values()) call.reject(error);
			calls.clear();
			if (!started) reject(error);
			else if (!stopped) exitListener?.(error);
		};
		worker.on('error', (error) => fail(error instanceof Error ? error : new Error(String(error))));
		worker.on('exit', (code) => {
			// A thread ended the hard way (terminate, crash) could not give its data folder up: do it for it.
			const dataDir = sandboxOptions.dataDir;
			if (dataDir !== undefined && dataDir !== ':memory:') releaseAbandonedLock(dataDir, threadId);
			fail(new Error(`The sandbox thread ended unexpectedly (exit code ${code}).`));
		});
		worker.on('message', (message: FromWorker) => {
			switch (message.type) {
				case 'log':
					for (const line of message.lines) {
						try {
							onLog?.(line);
						} catch {
							// A failing log must not stop the sandbox.
						}
					}
					return;
				case 'scenarios':
					try {
						onScenarios?.(message.active);
					} catch {
						// A failing listener must not stop the sandbox.
					}
					return;
				case 'failed':
					fail(deserializeError(message.error));
					void worker.terminate();
					return;
				case 'result': {
					const call = calls.get(message.id);
					calls.delete(message.id);
					if (message.ok) call?.resolve(message.value);
					else call?.reject(deserializeError(message.error));
					return;
				}
				case 'ready':
					started = true;
					resolve(handle(message.info));
					return;
			}
		});

		const call = <M extends WorkerMethod>(method: M, ...args: WorkerCalls[M]['args']) =>
			new Promise<WorkerCalls[M]['result']>((resolveCall, rejectCall) => {
				if (ended) return rejectCall(ended);
				const id = nextId++;
				calls.set(id, { resolve: resolveCall as (value: unknown) => void, reject: rejectCall });
				worker.postMessage({ type: 'call', id, method, args } satisfies ToWorker);
			});

		let stopping: Promise<void> | undefined;
		const stop = (): Promise<void> => {
			stopping ??= (async () => {
				stopped = true;
				if (ended) return;
				const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
				try {
					await call('stop');
				} catch {
					// The thread is going anyway.
				} finally {
					clearTimeout(timer);
					await worker.terminate();
				}
			})();
			return stopping;
		};

		const handle = (info: SandboxInfo): WorkerEmulator => ({
			...info,
			threadId,
			stop,
			reset: () => call('reset'),
			advance: (ms) => call('advance', ms),
			deliverDue: () => call('deliverDue'),
			simulateApplication: (advertId) => call('simulateApplication', advertId),
			callbacksIdle: () => call('callbacksIdle'),
			activateScenario: (scenario) => call('activateScenario', scenario),
			deactivateScenario: (name) => call('deactivateScenario', name),
			scenarios: () => call('scenarios'),
			onUnexpectedExit: (listener) => {
				exitListener = listener;
			},
		});
	});
}
