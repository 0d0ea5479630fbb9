/** Builds the extension's services over the real emulator (in memory, port 0) for unit tests. */
import type * as vscode from 'vscode';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { ConnectionStore } from '../../src/extension/connections/connectionStore';
import { sandboxPortSetting } from '../../src/extension/connections/model';
import { accessLogLine } from '../../src/emulator/logFormat';
import { SandboxManager, type SandboxLaunchOptions } from '../../src/extension/sandbox/sandboxManager';
import { AccountModel, type AccountModelOptions } from '../../src/extension/tree/accountModel';
import { DefaultWorkbenchServices } from '../../src/extension/workbenchServices';
import { FakeUi, MemoryLog, MemorySecrets, MemorySettings } from './fakes';

export interface TestWorkbench {
	ui: FakeUi;
	log: MemoryLog;
	settings: MemorySettings;
	secrets: MemorySecrets;
	sandbox: SandboxManager;
	store: ConnectionStore;
	services: DefaultWorkbenchServices;
	/** How many times the emulator was started. */
	starts: () => number;
	dispose(): Promise<void>;
}

/** The sandbox on the test's own thread (fast to start); the worker thread has tests of its own. */
export function startInProcess({ onLog, ...options }: SandboxLaunchOptions): Promise<RunningEmulator> {
	return startEmulator({ ...options, logger: (entry) => onLog(accessLogLine(entry)) });
}

export function createTestWorkbench(settingsInit: Record<string, unknown> = {}): TestWorkbench {
	const ui = new FakeUi();
	const log = new MemoryLog();
	const settings = new MemorySettings(settingsInit);
	const secrets = new MemorySecrets();
	let starts = 0;
	const running: RunningEmulator[] = [];
	const sandbox = new SandboxManager({
		loadLauncher: async () => async (options) => {
			starts++;
			const emulator = await startInProcess(options);
			running.push(emulator);
			return emulator;
		},
		dataDir: ':memory:',
		seed: () => 7,
		port: () => sandboxPortSetting(settings.get<unknown>('sandbox.port', 0)),
		log,
	});
	const store = new ConnectionStore(settings, secrets, sandbox);
	const services = new DefaultWorkbenchServices({
		extensionUri: {} as vscode.Uri,
		log: log.asChannel(),
		store,
		sandbox,
		settings,
		ui,
	});
	return {
		ui,
		log,
		settings,
		secrets,
		sandbox,
		store,
		services,
		starts: () => starts,
		async dispose() {
			services.dispose();
			await sandbox.stop();
		},
	};
}

/** The account tree's model over a test workbench: pages of 5, default progress names; `options` override. */
export function accountModelFor(wb: TestWorkbench, options: Partial<AccountModelOptions> = {}): AccountModel {
	return new AccountModel({
		client: () => wb.services.activeClient(),
		connection: () => wb.store.active(),
		sandboxState: () => wb.sandbox.state,
		pageSize: () => 5,
		progressNames: () => undefined,
		log: wb.log,
		...options,
	});
}
