/**
 * The built-in Sandbox: the embedded emulator run in-process, started on first use (Azurite-style
 * state machine). It never starts by itself at extension start-up.
 */
import { rm } from 'node:fs/promises';
import type { EmulatorOptions, RunningEmulator } from '../../emulator';
import { Emitter, type Disposable, type Event } from '../util/emitter';
import type { LogPort } from '../ui/port';

export enum SandboxState {
	Stopped = 'stopped',
	Starting = 'starting',
	Running = 'running',
	Failed = 'failed',
}

export type StartEmulator = (options: EmulatorOptions) => Promise<RunningEmulator>;

export interface SandboxManagerOptions {
	/** Loads the emulator lazily, so its code runs only when the sandbox is used. */
	loadEmulator: () => Promise<StartEmulator>;
	/** Folder of the sandbox database, or ':memory:' (tests). */
	dataDir: string;
	/** Seed of the demo data (setting multiposting.sandbox.seed). */
	seed: () => number | undefined;
	log: LogPort;
}

export class SandboxManager implements Disposable {
	private stateValue = SandboxState.Stopped;
	private runningEmulator?: RunningEmulator;
	private starting?: Promise<RunningEmulator>;
	private lastErrorValue?: Error;
	private readonly stateEmitter = new Emitter<SandboxState>();
	readonly onDidChangeState: Event<SandboxState> = this.stateEmitter.event;

	constructor(private readonly options: SandboxManagerOptions) {}

	get state(): SandboxState {
		return this.stateValue;
	}

	get running(): RunningEmulator | undefined {
		return this.runningEmulator;
	}

	get lastError(): Error | undefined {
		return this.lastErrorValue;
	}

	/** The running emulator, starting it when needed; concurrent callers share one start. */
	ensureRunning(): Promise<RunningEmulator> {
		if (this.runningEmulator) {
			return Promise.resolve(this.runningEmulator);
		}
		this.starting ??= this.startOnce(false).finally(() => {
			this.starting = undefined;
		});
		return this.starting;
	}

	start(): Promise<RunningEmulator> {
		return this.ensureRunning();
	}

	async stop(): Promise<void> {
		await this.starting?.catch(() => undefined);
		const emulator = this.runningEmulator;
		if (!emulator) {
			this.setState(SandboxState.Stopped);
			return;
		}
		this.runningEmulator = undefined;
		await emulator.stop();
		this.options.log.info('Sandbox stopped.');
		this.setState(SandboxState.Stopped);
	}

	/** Stops the sandbox, deletes its database and starts it again with fresh demo data. */
	async reset(): Promise<RunningEmulator> {
		await this.stop();
		if (this.options.dataDir !== ':memory:') {
			await rm(this.options.dataDir, { recursive: true, force: true });
		}
		this.starting = this.startOnce(true).finally(() => {
			this.starting = undefined;
		});
		return this.starting;
	}

	dispose(): void {
		void this.stop().catch(() => undefined);
		this.stateEmitter.dispose();
	}

	private async startOnce(reset: boolean): Promise<RunningEmulator> {
		this.setState(SandboxState.Starting);
		try {
			const startEmulator = await this.options.loadEmulator();
			const emulator = await startEmulator({
				host: '127.0.0.1',
				port: 0,
				dataDir: this.options.dataDir,
				seed: this.options.seed(),
				reset,
			});
			this.runningEmulator = emulator;
			this.lastErrorValue = undefined;
			this.options.log.info(`Sandbox running at ${emulator.baseUrl}`);
			this.setState(SandboxState.Running);
			return emulator;
		} catch (error) {
			this.lastErrorValue = error instanceof Error ? error : new Error(String(error));
			this.options.log.error(`Sandbox failed to start: ${this.lastErrorValue.message}`);
			this.setState(SandboxState.Failed);
			throw this.lastErrorValue;
		}
	}

	private setState(state: SandboxState): void {
		if (state !== this.stateValue) {
			this.stateValue = state;
			this.stateEmitter.fire(state);
		}
	}
}
