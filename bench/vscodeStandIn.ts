/**
 * A stand-in for the 'vscode' module, so the production bundle can be required and activated in a
 * plain Node process (bench/extensionChild.ts). Settings, secrets and the log are the unit tests'
 * in-memory fakes (test/extension/fakes.ts); the classes the tree needs (TreeItem, EventEmitter,
 * Uri, ThemeIcon, MarkdownString) are small real ones; every other API answers an inert stub and
 * is counted, so the benchmark can say what activate() called.
 */
import { pathToFileURL } from 'node:url';
import { posix } from 'node:path';
import { MemoryLog, MemorySecrets, MemorySettings } from '../test/extension/fakes';

type Fn = (...args: unknown[]) => unknown;

/** An inert value: callable, constructible, every property is itself, never thenable. */
const inert: Fn = new Proxy(
	function () {
		/* inert */
	},
	{
		get: (_t, key) => (key === 'then' || typeof key === 'symbol' ? undefined : inert),
		set: () => true,
		apply: () => inert,
		construct: () => inert as unknown as object,
	},
);

export class EventEmitter<T> {
	private readonly listeners = new Set<(value: T) => unknown>();
	readonly event = (listener: (value: T) => unknown): { dispose(): void } => {
		this.listeners.add(listener);
		return { dispose: () => this.listeners.delete(listener) };
	};
	fire(value: T): void {
		for (const listener of [...this.listeners]) listener(value);
	}
	dispose(): void {
		this.listeners.clear();
	}
}

export class Disposable {
	constructor(private readonly onDispose: () => void) {}
	static from(...items: { dispose(): unknown }[]): Disposable {
		return new Disposable(() => items.forEach((d) => d.dispose()));
	}
	dispose(): void {
		this.onDispose();
	}
}

export class Uri {
	private constructor(
		readonly scheme: string,
		readonly path: string,
		readonly query = '',
		readonly fragment = '',
	) {}
	get fsPath(): string {
		return this.path;
	}
	static file(path: string): Uri {
		return new Uri('file', path);
	}
	static parse(value: string): Uri {
		const url = new URL(value);
		return new Uri(
			url.protocol.replace(/:$/, ''),
			decodeURIComponent(url.pathname),
			url.search.replace(/^\?/, ''),
			url.hash.replace(/^#/, ''),
		);
	}
	static joinPath(base: Uri, ...segments: string[]): Uri {
		return new Uri(base.scheme, posix.join(base.path, ...segments), base.query, base.fragment);
	}
	with(change: { scheme?: string; path?: string; query?: string; fragment?: string }): Uri {
		return new Uri(
			change.scheme ?? this.scheme,
			change.path ?? this.path,
			change.query ?? this.query,
			change.fragment ?? this.fragment,
		);
	}
	toString(): string {
		return this.scheme === 'file' ? pathToFileURL(this.path).href : `${this.scheme}:${this.path}`;
	}
}

export class TreeItem {
	id?: string;
	description?: string;
	contextValue?: string;
	iconPath?: unknown;
	tooltip?: unknown;
	command?: unknown;
	constructor(
		readonly label: string,
		readonly collapsibleState = 0,
	) {}
}

export class ThemeIcon {
	constructor(
		readonly id: string,
		readonly color?: ThemeColor,
	) {}
}

export class ThemeColor {
	constructor(readonly id: string) {}
}

export class MarkdownString {
	isTrusted = false;
	supportHtml = false;
	constructor(
		public value = '',
		readonly supportThemeIcons = false,
	) {}
	appendMarkdown(value: string): this {
		this.value += value;
		return this;
	}
	appendText(value: string): this {
		this.value += value.replace(/[\\`*_{}[\]()#+\-.!]/g, '\\$&');
		return this;
	}
}

const enums = {
	TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
	ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
	ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
	StatusBarAlignment: { Left: 1, Right: 2 },
	ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2, Three: 3 },
	LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
	ExtensionMode: { Production: 1, Development: 2, Test: 3 },
};

export interface VscodeStandIn {
	/** The module object to hand out for require('vscode'). */
	api: object;
	/** API calls by name ('window.createTreeView' …), counted. */
	calls: Map<string, number>;
	/** Handlers of the registered commands, by id. */
	commands: Map<string, Fn>;
	/** Tree views created: view id and the options (with the treeDataProvider). */
	treeViews: { id: string; options: Record<string, unknown> }[];
	settings: MemorySettings;
	/** Lines logged at info level or above (trace and debug are dropped, as VS Code's default level does). */
	log: MemoryLog;
	/** A fake ExtensionContext over `globalStorage` (a real folder) with the unit tests' in-memory secrets. */
	context(globalStorage: string, extensionPath: string): Record<string, unknown>;
}

/** Builds a fresh stand-in whose settings start from `settings` (keys inside the 'multiposting' section). */
export function createVscodeStandIn(settings: Record<string, unknown> = {}): VscodeStandIn {
	const calls = new Map<string, number>();
	const commands = new Map<string, Fn>();
	const treeViews: VscodeStandIn['treeViews'] = [];
	const memorySettings = new MemorySettings(settings);
	const log = new MemoryLog();
	const count = (name: string): void => {
		calls.set(name, (calls.get(name) ?? 0) + 1);
	};
	/** A namespace: the given members (counted), any other member an inert counted function. */
	const namespace = (name: string, members: Record<string, Fn>, values: Record<string, unknown> = {}): object =>
		new Proxy(members, {
			get: (target, key) => {
				if (typeof key === 'symbol' || key === 'then') return undefined;
				// Properties of the API that are values, not functions (e.g. workspace.textDocuments).
				if (key in values) return values[key];
				const member = target[key];
				return (...args: unknown[]) => {
					count(`${name}.${key}`);
					return member ? member(...args) : inert;
				};
			},
		});
	const channel = new Proxy(log, {
		get: (target, key) => {
			if (key === 'trace' || key === 'debug') return () => undefined;
			if (key === 'logLevel') return enums.LogLevel.Info;
			const value = (target as unknown as Record<string | symbol, unknown>)[key];
			return typeof value === 'function' ? value.bind(target) : (value ?? inert);
		},
	});
	const configuration = {
		get: <T>(key: string, fallback?: T) => memorySettings.get(key, fallback),
		has: (key: string) => memorySettings.values.has(key),
		update: (key: string, value: unknown) => memorySettings.update(key, value),
		inspect: () => undefined,
	};
	const api: Record<string, unknown> = Object.create(
		new Proxy(
			{},
			{
				// esbuild's interop copies own properties and reads the rest through the prototype: any other name is inert.
				get: (_t, key) => (typeof key === 'symbol' || key === 'then' ? undefined : inert),
			},
		),
	);
	Object.assign(api, enums, {
		EventEmitter,
		Disposable,
		Uri,
		TreeItem,
		ThemeIcon,
		ThemeColor,
		MarkdownString,
		window: namespace(
			'window',
			{
				createOutputChannel: () => channel,
				createTreeView: (id, options) => {
					treeViews.push({ id: String(id), options: options as Record<string, unknown> });
					return inert;
				},
				withProgress: (_options, task) =>
					(task as Fn)(
						{ report: () => undefined },
						{ isCancellationRequested: false, onCancellationRequested: () => inert },
					),
			},
			{
				tabGroups: {
					all: [],
					activeTabGroup: undefined,
					onDidChangeTabs: () => inert,
					onDidChangeTabGroups: () => inert,
				},
			},
		),
		commands: namespace('commands', {
			registerCommand: (id, handler) => {
				commands.set(String(id), handler as Fn);
				return new Disposable(() => commands.delete(String(id)));
			},
			executeCommand: async (id, ...args) => commands.get(String(id))?.(...args),
		}),
		workspace: namespace(
			'workspace',
			// The request files' environments are looked for at activation: none in the bench's empty workspace.
			{ getConfiguration: () => configuration, findFiles: async () => [] },
			{ textDocuments: [], workspaceFolders: undefined },
		),
		env: namespace('env', {}),
		languages: namespace('languages', {}),
		extensions: namespace('extensions', {}),
	});
	const context = (globalStorage: string, extensionPath: string): Record<string, unknown> => {
		const memento = () => {
			const values = new Map<string, unknown>();
			return {
				keys: () => [...values.keys()],
				get: (k: string, d?: unknown) => (values.has(k) ? values.get(k) : d),
				update: async (k: string, v: unknown) => void values.set(k, v),
				setKeysForSync: () => undefined,
			};
		};
		const secrets = Object.assign(new MemorySecrets(), { onDidChange: new EventEmitter<unknown>().event });
		return {
			subscriptions: [] as { dispose(): unknown }[],
			secrets,
			globalState: memento(),
			workspaceState: memento(),
			globalStorageUri: Uri.file(globalStorage),
			storageUri: undefined,
			logUri: Uri.file(posix.join(globalStorage, 'logs')),
			extensionUri: Uri.file(extensionPath),
			extensionPath,
			extensionMode: enums.ExtensionMode.Production,
			asAbsolutePath: (relative: string) => posix.join(extensionPath, relative),
		};
	};
	return { api, calls, commands, treeViews, settings: memorySettings, log, context };
}
