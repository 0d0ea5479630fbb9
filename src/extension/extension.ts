/**
 * Composition root: builds the services and registers the views, commands and panels. Nothing runs
 * at start-up beyond registration; the sandbox starts when first used.
 */
import * as vscode from 'vscode';
import { applicationRefOf, advertRefOf } from './commands/nodeArgs';
import type { CommandContext, TreePort } from './commands/context';
import { registerCommands } from './commands/registerCommands';
import { ConnectionStore } from './connections/connectionStore';
import { ACCOUNT_VIEW_ID, CONTEXT_KEYS, LOG_CHANNEL_NAME, SETTINGS } from './ids';
import { PanelManager } from './panels';
import { registerPlayground } from './playground';
import { registerRequestFiles } from './requestFiles';
import { registerTrafficView } from './traffic/trafficView';
import { LiveState } from './liveService/liveState';
import { registerLiveService } from './liveService';
import { offerAnotherPort } from './sandbox/portConflict';
import { proxyHostNames } from './sandbox/proxyHosts';
import { SandboxManager, SandboxState } from './sandbox/sandboxManager';
import { sandboxPortSetting } from './connections/model';
import { createStatusBar } from './statusBar';
import { AccountModel, type TreeNode } from './tree/accountModel';
import { AccountTreeProvider } from './tree/accountTreeProvider';
import { viewMessage } from './tree/viewMessage';
import { registerReadonlyDocuments } from './ui/readonlyDocuments';
import { VscodeSecrets, VscodeSettings, VscodeUi } from './ui/vscodeUi';
import { DefaultWorkbenchServices } from './workbenchServices';

export function activate(context: vscode.ExtensionContext): void {
	const log = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
	const settings = new VscodeSettings();
	const ui = new VscodeUi(log);
	const sandbox = new SandboxManager({
		// The sandbox runs on a worker thread (dist/sandboxWorker.js), never on the extension host's.
		loadLauncher: async () => (await import('../emulator/worker/host.js')).startEmulatorInWorker,
		dataDir: vscode.Uri.joinPath(context.globalStorageUri, 'sandbox').fsPath,
		seed: () => {
			const seed = settings.get<number | null>(SETTINGS.sandboxSeed, null);
			return typeof seed === 'number' && Number.isSafeInteger(seed) ? seed : undefined;
		},
		loose: () => settings.get<boolean>(SETTINGS.sandboxLoose, false) === true,
		port: () => sandboxPortSetting(settings.get<unknown>(SETTINGS.sandboxPort, undefined)),
		// Only in the browser: on the desktop links open directly or through a localhost forward.
		allowedHosts: async (port) =>
			vscode.env.uiKind === vscode.UIKind.Web
				? proxyHostNames(port, async (url) =>
						(await vscode.env.asExternalUri(vscode.Uri.parse(url, true))).toString(true),
					)
				: [],
		log,
	});
	const store = new ConnectionStore(settings, new VscodeSecrets(context.secrets), sandbox);
	const services = new DefaultWorkbenchServices({
		extensionUri: context.extensionUri,
		log,
		store,
		sandbox,
		settings,
		ui,
	});
	const model = new AccountModel({
		client: () => services.activeClient(),
		connection: () => store.active(),
		sandboxState: () => sandbox.state,
		sandboxFailure: () => sandbox.lastError,
		activeScenarios: () => sandbox.activeScenarios.map((scenario) => scenario.name),
		pageSize: () => settings.get<number>(SETTINGS.pageSize, 50),
		progressNames: () => settings.get<unknown>(SETTINGS.progressNames, undefined),
		log,
		locale: vscode.env.language,
	});
	const provider = new AccountTreeProvider(model);
	const treeView = vscode.window.createTreeView<TreeNode>(ACCOUNT_VIEW_ID, {
		treeDataProvider: provider,
		showCollapseAll: true,
	});
	const panels = new PanelManager(services, ui);

	const setContext = (key: string, value: unknown) => void vscode.commands.executeCommand('setContext', key, value);
	const setContexts = () => {
		setContext(CONTEXT_KEYS.sandboxState, sandbox.state);
		setContext(CONTEXT_KEYS.activeKind, store.active().kind);
		setContext(CONTEXT_KEYS.scenariosActive, sandbox.activeScenarios.length > 0);
	};
	setContexts();

	/** Set while the extension itself moves the selection (next/previous from a panel, Find). */
	let revealing = false;
	let filterText: string | undefined;
	/** The view's message: a starting sandbox, then the filter (the view description is hidden in a single-view container). */
	const showViewMessage = () => {
		treeView.message =
			viewMessage(store.active().kind === 'sandbox' ? sandbox.state : undefined, filterText) || undefined;
	};
	const tree: TreePort = {
		selection: () => treeView.selection,
		reveal: async (node, options) => {
			revealing = !options.focus;
			try {
				await treeView.reveal(node, { select: true, focus: options.focus, expand: true });
			} finally {
				revealing = false;
			}
		},
		showFilter: (text) => {
			filterText = text;
			showViewMessage();
			setContext(CONTEXT_KEYS.filtered, text !== undefined);
		},
	};
	const ctx: CommandContext = {
		services,
		ui,
		store,
		sandbox,
		model,
		tree,
		panels,
		settings,
		executeCommand: (id, ...args) => Promise.resolve(vscode.commands.executeCommand(id, ...args)),
		scenarioFiles: () => workspaceScenarioFiles(),
	};

	context.subscriptions.push(
		log,
		registerReadonlyDocuments(),
		sandbox,
		store,
		services,
		model,
		provider,
		treeView,
		panels,
		createStatusBar(store, sandbox),
		...registerCommands(ctx),
		treeView.onDidChangeSelection((event) => {
			const node = event.selection[0];
			setContext(CONTEXT_KEYS.selectionKind, node?.data.kind ?? '');
			// The open preview follows the selection moved with the keyboard or the mouse.
			if (revealing || !node) return;
			if (node.data.kind === 'application') {
				const ref = applicationRefOf(node);
				if (ref) panels.followSelection('application', ref, node.data.application);
			} else if (node.data.kind === 'advert') {
				const ref = advertRefOf(node);
				if (ref) panels.followSelection('advert', ref, node.data.advert);
			}
		}),
		store.onDidChange(() => {
			setContexts();
			showViewMessage();
			model.refresh();
		}),
		sandbox.onDidChangeState((state) => {
			setContexts();
			showViewMessage();
			// Starting only changes the label; every other state invalidates what was loaded (a reset's
			// data is new, a stopped sandbox has none), and running loads afresh.
			if (state === SandboxState.Starting) model.touch();
			else model.refresh();
		}),
		// Said once, where the user looks: the log alone goes unread.
		sandbox.onDidNotice((notice) => void ui.info(`Sandbox: ${notice}`)),
		sandbox.onDidChangeScenarios(() => {
			setContexts();
			model.touch();
		}),
		sandbox.onDidFail((error) => {
			void offerAnotherPort(error, {
				ui,
				settings,
				sandbox,
				openSettings: () =>
					void vscode.commands.executeCommand(
						'workbench.action.openSettings',
						`${SETTINGS.section}.${SETTINGS.sandboxPort}`,
					),
			});
		}),
		services.onDidChangeData((change) => {
			model
				.dataChanged(change)
				.catch((error: unknown) =>
					log.warn(`Could not refresh the tree: ${error instanceof Error ? error.message : String(error)}`),
				);
		}),
		services.onDidSeeAdvert((advert) => model.advertSeen(advert)),
		vscode.workspace.onDidChangeConfiguration((event) => {
			if (
				event.affectsConfiguration(`${SETTINGS.section}.${SETTINGS.connections}`) ||
				event.affectsConfiguration(`${SETTINGS.section}.${SETTINGS.activeConnection}`)
			) {
				store.notifyExternalChange();
			} else if (event.affectsConfiguration(`${SETTINGS.section}.${SETTINGS.sandboxPort}`)) {
				// The sandbox connection's address changes; a running sandbox moves to the new port.
				store.notifyExternalChange();
				sandbox.applyPortSetting().catch(() => undefined);
			} else if (
				event.affectsConfiguration(`${SETTINGS.section}.${SETTINGS.progressNames}`) ||
				event.affectsConfiguration(`${SETTINGS.section}.${SETTINGS.pageSize}`)
			) {
				model.refresh();
			}
		}),
	);

	const playground = registerPlayground(context, services);
	registerRequestFiles(context, services, playground);
	const live = new LiveState();
	const traffic = registerTrafficView(sandbox, playground, live);
	context.subscriptions.push(
		live,
		traffic.disposable,
		registerLiveService({ sandbox, store, traffic: traffic.port, live, log }),
	);
}

export function deactivate(): void {
	// Everything is disposed through context.subscriptions (the sandbox stops there).
}

/** The workspace's failure scenario files (`*.scenario.json`), at most 50, read as text. */
async function workspaceScenarioFiles(): Promise<{ label: string; text: string }[]> {
	const uris = await vscode.workspace.findFiles('**/*.scenario.json', '**/node_modules/**', 50);
	return Promise.all(
		uris.map(async (uri) => ({
			label: vscode.workspace.asRelativePath(uri),
			text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)),
		})),
	);
}
