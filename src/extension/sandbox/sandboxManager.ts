/**
 * The built-in Sandbox, started on first use (Azurite-style state machine). It never starts by itself
 * at extension start-up. In the extension the sandbox runs on a worker thread (see
 * src/emulator/worker/host.ts): seeding and every query happen off the extension host's event loop,
 * and its access log and background events arrive here for the output channel.
 */
import type { ActiveScenarioInfo } from '../../emulator/scenarios/engine';
import type { Scenario } from '../../emulator/scenarios/format';
import type { LogLine, SandboxInfo } from '../../emulator/worker/protocol';
import { Emitter, type Disposable, type Event } from '../util/emitter';
import type { LogPort } from '../ui/port';

export enum SandboxState {
	Stopped = 'stopped',
	Starting = 'starting',
	Running = 'running',
	Stopping = 'stopping',
	/** Stopping, then starting on fresh demo data: one state from the click to the new sandbox. */
	Resetting = 'resetting',
	Failed = 'failed',
}

/** What a start is given. */
export interface SandboxLaunchOptions {
	host: string;
	port: number;
	/** Folder of the sandbox database, or ':memory:' (tests). */
	dataDir: string;
	seed?: number;
	reset: boolean;
	/** Accept what production refuses, with a warning per leniency (setting multiposting.sandbox.loose). */
	loose?: boolean;
	/** What owns the data folder, named to a second sandbox refused on it. */
	owner: string;
	/** Host header names answered besides loopback ones (a web host's proxy, e.g. code-server's). */
	allowedHosts?: readonly string[];
	/** The sandbox's access log and background events. */
	onLog: (line: LogLine) => void;
	/** What is active whenever failure scenarios are turned on or off (also by request files). */
	onScenarios?: (active: ActiveScenarioInfo[]) => void;
}

/** A started sandbox: where it answers, how to stop it, and (optionally) how it reports a crash. */
export interface LaunchedSandbox extends SandboxInfo {
	stop(): Promise<void>;
	activateScenario?(scenario: Scenario): Promise<void>;
	deactivateScenario?(name?: string): Promise<boolean>;
	onUnexpectedExit?(listener: (error: Error) => void): void;
}

export type LaunchSandbox = (options: SandboxLaunchOptions) => Promise<LaunchedSandbox>;

export interface SandboxManagerOptions {
	/** Loads the launcher lazily, so its code runs only when the sandbox is used. */
	loadLauncher: () => Promise<LaunchSandbox>;
	/** Folder of the sandbox database, or ':memory:' (tests). */
	dataDir: string;
	/** Seed of the demo data (setting multiposting.sandbox.seed). */
	seed: () => number | undefined;
	/** Port to listen on (setting multiposting.sandbox.port; 0 = any free port). */
	port: () => number;
	/** Loose mode (setting multiposting.sandbox.loose); strict like production when absent. */
	loose?: () => boolean;
	/**
	 * Names the sandbox's pages are reached by besides loopback ones: in VS Code for the Web
	 * (code-server), links to 127.0.0.1 open through a proxy that keeps its own Host header, which
	 * the sandbox otherwise refuses (DNS rebinding protection).
	 */
	allowedHosts?: (port: number) => Promise<readonly string[]>;
	log: LogPort;
}

/** How the sandbox's log marks what opening its database found (see src/emulator/logFormat.ts). */
const STORAGE_PREFIX = 'storage ';

/** States between a user's start, stop or reset and its end: nothing is loaded from the sandbox meanwhile. */
export const TRANSITIONAL_STATES: ReadonlySet<string> = new Set([
	SandboxState.Starting,
	SandboxState.Stopping,
	SandboxState.Resetting,
]);

export class SandboxManager implements Disposable {
	private stateValue = SandboxState.Stopped;
	private current?: LaunchedSandbox;
	private starting?: Promise<SandboxInfo>;
	private stopping?: Promise<void>;
	private lastErrorValue?: Error;
	private readonly stateEmitter = new Emitter<SandboxState>();
	private readonly failureEmitter = new Emitter<Error>();
	private readonly noticeEmitter = new Emitter<string>();
	private scenariosValue: readonly ActiveScenarioInfo[] = [];
	private readonly scenariosEmitter = new Emitter<readonly ActiveScenarioInfo[]>();
	/** Failure scenarios turned on or off (by the command, a request file or the control endpoint). */
	readonly onDidChangeScenarios: Event<readonly ActiveScenarioInfo[]> = this.scenariosEmitter.event;
	readonly onDidChangeState: Event<SandboxState> = this.stateEmitter.event;
	/** Fired once per failed start (or crash) with its error, e.g. to offer another port. */
	readonly onDidFail: Event<Error> = this.failureEmitter.event;
	/** What a start found that a person should know (e.g. the previous sandbox ended without closing), once each. */
	readonly onDidNotice: Event<string> = this.noticeEmitter.event;

	constructor(private readonly options: SandboxManagerOptions) {}

	get state(): SandboxState {
		return this.stateValue;
	}

	/** Where the running sandbox answers and its demo login; undefined unless it runs. */
	get running(): SandboxInfo | undefined {
		return this.current;
	}

	get lastError(): Error | undefined {
		return this.lastErrorValue;
	}

	/** The failure scenarios on in the running sandbox (none when it is stopped). */
	get activeScenarios(): readonly ActiveScenarioInfo[] {
		return this.scenariosValue;
	}

	/** Makes exactly these scenarios active, starting the sandbox when needed. */
	async setScenarios(scenarios: readonly Scenario[]): Promise<void> {
		await this.ensureRunning();
		const sandbox = this.current;
		if (!sandbox?.activateScenario || !sandbox.deactivateScenario) {
			throw new Error('This sandbox cannot run failure scenarios.');
		}
		await sandbox.deactivateScenario();
		for (const scenario of scenarios) await sandbox.activateScenario(scenario);
	}

	/** Turns every scenario off; nothing to do when the sandbox is not running. */
	async clearScenarios(): Promise<void> {
		await this.current?.deactivateScenario?.();
	}

	/** The running sandbox, starting it when needed; concurrent callers share one start. */
	ensureRunning(): Promise<SandboxInfo> {
		if (this.current) {
			return Promise.resolve(this.current);
		}
		// A sandbox being stopped still holds its port and data folder: the new one starts after it.
		const stopping = this.stopping;
		this.starting ??= (stopping ? stopping.then(() => this.startOnce(false)) : this.startOnce(false)).finally(
			() => {
				this.starting = undefined;
			},
		);
		return this.starting;
	}

	start(): Promise<SandboxInfo> {
		return this.ensureRunning();
	}

	async stop(): Promise<void> {
		await this.starting?.catch(() => undefined);
		await this.stopCurrent(SandboxState.Stopping);
		this.setState(SandboxState.Stopped);
	}

	/** Moves a running sandbox to the port of the setting when it runs on another one. */
	async applyPortSetting(): Promise<void> {
		const port = this.options.port();
		if (!this.current || port === 0 || new URL(this.current.baseUrl).port === String(port)) return;
		await this.stop();
		await this.ensureRunning();
	}

	/**
	 * Stops the sandbox and starts it again with fresh demo data. The sandbox deletes its database
	 * itself, once it owns the data folder: deleting the folder here could take it from under another
	 * window's running sandbox.
	 */
	async reset(): Promise<SandboxInfo> {
		await this.starting?.catch(() => undefined);
		this.setState(SandboxState.Resetting);
		this.starting = this.stopCurrent(SandboxState.Resetting)
			.then(() => this.startOnce(true, SandboxState.Resetting))
			.finally(() => {
				this.starting = undefined;
			});
		return this.starting;
	}

	/** Stops the running sandbox, if any, showing `during` meanwhile. */
	private async stopCurrent(during: SandboxState): Promise<void> {
		const sandbox = this.current;
		if (!sandbox) return;
		this.setState(during);
		this.current = undefined;
		this.stopping = sandbox.stop().finally(() => {
			this.stopping = undefined;
		});
		await this.stopping;
		this.scenariosChanged([]);
		this.options.log.info('Sandbox stopped.');
	}

	dispose(): void {
		void this.stop().catch(() => undefined);
		this.stateEmitter.dispose();
		this.failureEmitter.dispose();
		this.noticeEmitter.dispose();
		this.scenariosEmitter.dispose();
	}

	private async startOnce(reset: boolean, during = SandboxState.Starting): Promise<SandboxInfo> {
		this.setState(during);
		try {
			const launch = await this.options.loadLauncher();
			const port = this.options.port();
			const sandbox = await launch({
				host: '127.0.0.1',
				port,
				allowedHosts: await this.externalHosts(port),
				dataDir: this.options.dataDir,
				seed: this.options.seed(),
				reset,
				loose: this.options.loose?.() ?? false,
				owner: 'VS Code (the Multiposting Workbench extension)',
				onLog: (line) => this.forward(line),
				onScenarios: (active) => this.scenariosChanged(active),
			});
			sandbox.onUnexpectedExit?.((error) => this.crashed(sandbox, error));
			this.current = sandbox;
			this.lastErrorValue = undefined;
			this.options.log.info(`Sandbox running at ${sandbox.baseUrl} (XML namespace ${sandbox.namespace})`);
			this.setState(SandboxState.Running);
			return sandbox;
		} catch (error) {
			this.lastErrorValue = error instanceof Error ? error : new Error(String(error));
			this.options.log.error(`Sandbox failed to start: ${this.lastErrorValue.message}`);
			this.setState(SandboxState.Failed);
			this.failureEmitter.fire(this.lastErrorValue);
			throw this.lastErrorValue;
		}
	}

	/** The proxy names to allow; a failure to learn them is logged, never a failed start. */
	private async externalHosts(port: number): Promise<readonly string[]> {
		try {
			return (await this.options.allowedHosts?.(port)) ?? [];
		} catch (error) {
			this.options.log.warn(
				`Could not learn how the editor reaches the sandbox: ${error instanceof Error ? error.message : String(error)}`,
			);
			return [];
		}
	}

	private crashed(sandbox: LaunchedSandbox, error: Error): void {
		if (this.current !== sandbox) return;
		this.current = undefined;
		this.lastErrorValue = error;
		this.scenariosChanged([]);
		this.options.log.error(`The sandbox stopped unexpectedly: ${error.message}`);
		this.setState(SandboxState.Failed);
		this.failureEmitter.fire(error);
	}

	/** The sandbox's own lines go to the output channel, marked as such. */
	private forward(line: LogLine): void {
		const text = `[sandbox] ${line.text}`;
		if (line.text.startsWith(STORAGE_PREFIX)) this.noticeEmitter.fire(line.text.slice(STORAGE_PREFIX.length));
		if (line.level === 'error') this.options.log.error(text);
		else if (line.level === 'warn') this.options.log.warn(text);
		else this.options.log.info(text);
	}

	private scenariosChanged(active: readonly ActiveScenarioInfo[]): void {
		if (active.length === 0 && this.scenariosValue.length === 0) return;
		this.scenariosValue = active;
		this.scenariosEmitter.fire(active);
	}

	private setState(state: SandboxState): void {
		if (state !== this.stateValue) {
			this.stateValue = state;
			this.stateEmitter.fire(state);
		}
	}
}
