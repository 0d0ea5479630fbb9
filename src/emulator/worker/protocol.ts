/**
 * Messages between the extension host (or any caller) and the sandbox worker thread. Everything is
 * plain data (structured clone): options go in as workerData, the rest as messages.
 */
import type { ArrivedApplication } from '../live/liveApplications';
import type { PortHolder } from '../portHolder';
import type { ActiveScenarioInfo } from '../scenarios/engine';
import type { Scenario } from '../scenarios/format';
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
	activateScenario: { args: [scenario: Scenario]; result: void };
	deactivateScenario: { args: [name?: string]; result: boolean };
	scenarios: { args: []; result: ActiveScenarioInfo[] };
}
export type WorkerMethod = keyof WorkerCalls;

export type ToWorker = { type: 'call'; id: number; method: WorkerMethod; args: unknown[] };

export type FromWorker =
	| { type: 'ready'; info: SandboxInfo }
	| { type: 'failed'; error: SerializedError }
	| { type: 'log'; lines: LogLine[] }
	/** The active failure scenarios changed (also by the control endpoint). */
	| { type: 'scenarios'; active: ActiveScenarioInfo[] }
	| { type: 'result'; id: number; ok: true; value: unknown }
	| { type: 'result'; id: number; ok: false; error: SerializedError };
