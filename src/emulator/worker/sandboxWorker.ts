/**
 * The sandbox in a worker thread (dist/sandboxWorker.js): the emulator, its SQLite database and its
 * seeding run on this thread's event loop, never on the caller's. Options arrive as workerData; the
 * access log and background events go back in batches; calls are answered by id. See ./host.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { accessLogLine, eventLogLine } from '../logFormat';
import type { Scenario } from '../scenarios/format';
import { sandboxInfo, startEmulator, type RunningEmulator } from '../server';
import { serializeError } from './errors';
import type { FromWorker, LogLine, ToWorker, WorkerData, WorkerEmulatorOptions, WorkerMethod } from './protocol';

/** Log lines are sent at most this often, so a busy sandbox costs the caller one message per interval. */
const LOG_FLUSH_MS = 50;
/** Lines kept between flushes; beyond it they are counted and reported as dropped. */
const MAX_PENDING_LINES = 5_000;

function run(port: NonNullable<typeof parentPort>, options: WorkerEmulatorOptions): void {
	const post = (message: FromWorker): void => port.postMessage(message);
	let pending: LogLine[] = [];
	let dropped = 0;
	let timer: NodeJS.Timeout | undefined;
	const flush = (): void => {
		timer = undefined;
		if (dropped > 0) pending.push({ level: 'warn', text: `(${dropped} log lines dropped: too many at once)` });
		dropped = 0;
		if (pending.length === 0) return;
		const lines = pending;
		pending = [];
		post({ type: 'log', lines });
	};
	const log = (line: LogLine): void => {
		if (pending.length >= MAX_PENDING_LINES) dropped++;
		else pending.push(line);
		timer ??= setTimeout(flush, LOG_FLUSH_MS);
	};

	startEmulator({
		...options,
		logger: (entry) => log(accessLogLine(entry)),
		onEvent: (event) => {
			log(eventLogLine(event));
			if (event.kind === 'scenarios') post({ type: 'scenarios', active: event.active });
		},
	}).then(
		(emulator) => {
			post({ type: 'ready', info: sandboxInfo(emulator) });
			port.on('message', (message: ToWorker) => {
				answer(emulator, message.method, message.args).then(
					(value) => {
						if (message.method === 'stop') {
							clearTimeout(timer);
							flush();
						}
						post({ type: 'result', id: message.id, ok: true, value });
						// Nothing is left to do: let the thread end.
						if (message.method === 'stop') port.close();
					},
					(error: unknown) =>
						post({ type: 'result', id: message.id, ok: false, error: serializeError(error) }),
				);
			});
		},
		(error: unknown) => {
			flush();
			post({ type: 'failed', error: serializeError(error) });
			port.close();
		},
	);
}

async function answer(emulator: RunningEmulator, method: WorkerMethod, args: unknown[]): Promise<unknown> {
	switch (method) {
		case 'stop':
			return emulator.stop();
		case 'reset':
			return emulator.reset();
		case 'advance':
			return emulator.advance(Number(args[0]));
		case 'deliverDue':
			return emulator.deliverDue();
		case 'simulateApplication':
			return emulator.simulateApplication(args[0] === undefined ? undefined : Number(args[0]));
		case 'callbacksIdle':
			return emulator.callbacksIdle();
		case 'activateScenario':
			return emulator.scenarios.activate(args[0] as Scenario);
		case 'deactivateScenario':
			return emulator.scenarios.deactivate(args[0] === undefined ? undefined : String(args[0]));
		case 'scenarios':
			return emulator.scenarios.list();
	}
}

const data = workerData as WorkerData | undefined;
if (parentPort && data?.sandboxOptions) run(parentPort, data.sandboxOptions);
