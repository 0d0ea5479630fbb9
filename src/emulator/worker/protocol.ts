/**
 * Messages between the extension host (or any caller) and the sandbox worker thread. Everything is
 * plain data (structured clone): options go in as workerData, the rest as messages.
 */
import type { ArrivedApplication } from '../live/liveApplications';
import type { PortHolder } from '../portHolder';
import type { EmulatorOptions, SandboxInfo } from '../server';

export type { SandboxInfo } from '../server';

/** The options a worker can be started with: everything but callbacks and injected handlers. */
export type WorkerEmulatorOptions = Omit<EmulatorOptions, 'logger' | 'onEvent' | 'handlers'>;

/** The worker's workerData. */
export interface WorkerData {
	sandboxOptions: WorkerEmulatorOptions;
}

/** One line of the sandbox's log (access log or background event), already formatted, never with secrets. */
export interface LogLine {
	level: 'info' | 'warn' | 'error';
	text: string;
}

/** An error as it crosses the thread boundary; a port conflict keeps its details. */
export interface SerializedError {
	name: string;
	message: string;
	stack?: string;
	portInUse?: { host: string; port: number; holder?: PortHolder; suggestedPort?: number };
}

/** The calls a worker answers, with their arguments and results. */
export interface WorkerCalls {
	stop: { args: []; result: void };
	reset: { args: []; result: void };
	advance: { args: [ms: number]; result: void };
	deliverDue: { args: []; result: number };
	simulateApplication: { args: [advertId?: number]; result: ArrivedApplication | undefined };
	callbacksIdle: { args: []; result: void };
}
export type WorkerMethod = keyof WorkerCalls;

export type ToWorker = { type: 'call'; id: number; method: WorkerMethod; args: unknown[] };

export type FromWorker =
	| { type: 'ready'; info: SandboxInfo }
	| { type: 'failed'; error: SerializedError }
	| { type: 'log'; lines: LogLine[] }
	| { type: 'result'; id: number; ok: true; value: unknown }
	| { type: 'result'; id: number; ok: false; error: SerializedError };
