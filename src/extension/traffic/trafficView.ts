/**
 * The Traffic view: the exchanges a sandbox served, from any client, newest first and live; filter,
 * pause, clear; a click opens the exchange read-only (verdict, near misses, request and response).
 * Rows offer Open in Playground, Save as Request Test, Copy as curl and Compare with…. The logic
 * lives in trafficModel.ts and trafficSource.ts; this module is the editor adapter.
 */
import * as vscode from 'vscode';
import { SANDBOX_NAMESPACE } from '../../emulator/endpoint';
import type { JournalEntry } from '../../emulator/journal/types';
import type { Verdict } from '../../emulator/journal/verdict';
import { appendRequestEntry, REQUEST_FILE_EXTENSION } from '../../protocol/requestFiles/format';
import { COMMANDS, CONTEXT_KEYS, TRAFFIC_VIEW_ID } from '../ids';
import { PlaygroundPanel, type PlaygroundDeps } from '../playground/panel';
import { CURL_ENV, curlForRaw } from '../playground/snippets';
import type { SandboxManager } from '../sandbox/sandboxManager';
import { openReadonlyDocument, readonlyUri } from '../ui/readonlyDocuments';
import { DEFAULT_ENDPOINT_PATHS } from '../../protocol/catalogue';
import {
	comparableText,
	type DetailedEntry,
	exchangeMarkdown,
	locatedProblems,
	MAX_ROWS,
	parseFilter,
	playgroundFormOf,
	requestTestOf,
	rowMark,
	rowText,
	TrafficRows,
	viewStatus,
} from './trafficModel';
import { TrafficSource } from './trafficSource';
import type { LiveState } from '../liveService/liveState';

const ICONS = {
	fault: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
	production: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
	ok: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
};

class TrafficTree implements vscode.TreeDataProvider<JournalEntry> {
	private readonly changed = new vscode.EventEmitter<void>();
	readonly onDidChangeTreeData = this.changed.event;
	readonly rows = new TrafficRows();
	/** Verdicts of the exchanges opened so far, which may change their row's mark. */
	private readonly verdicts = new Map<number, Verdict>();
	filterText = '';

	noteVerdict(entry: DetailedEntry): void {
		this.verdicts.set(entry.id, entry.verdict);
		if (this.verdicts.size > MAX_ROWS) this.verdicts.delete(this.verdicts.keys().next().value ?? 0);
		this.refresh();
	}

	clear(): void {
		this.rows.clear();
		this.verdicts.clear();
		this.refresh();
	}

	refresh(): void {
		this.changed.fire();
	}

	getChildren(element?: JournalEntry): JournalEntry[] {
		return element ? [] : this.rows.list(parseFilter(this.filterText));
	}

	getTreeItem(entry: JournalEntry): vscode.TreeItem {
		const { label, description, tooltip } = rowText(entry);
		const item = new vscode.TreeItem(label);
		item.id = String(entry.id);
		item.description = description;
		item.tooltip = tooltip;
		item.iconPath = ICONS[rowMark(entry, this.verdicts.get(entry.id))];
		item.contextValue = 'exchange';
		item.command = { command: COMMANDS.trafficOpen, title: 'Open Exchange', arguments: [entry] };
		return item;
	}

	dispose(): void {
		this.changed.dispose();
	}
}

/** What other features use of the view: its selection and the sandbox it follows. */
export interface TrafficPort {
	/** The selected rows (several with Ctrl/Shift), or the one a command was run on. */
	chosen(entry?: JournalEntry): JournalEntry[];
	/** Every row the view holds that passes its filter, newest first. */
	rows(): JournalEntry[];
	/** The sandbox URL the view is attached to; undefined when it follows the built-in sandbox. */
	attachedUrl(): string | undefined;
	/** Shows the view (e.g. once inspection starts). */
	reveal(): void;
}

/** Registers the view and its commands; follows the built-in sandbox unless attached to a URL. */
export function registerTrafficView(
	sandbox: SandboxManager,
	playground: PlaygroundDeps,
	live: LiveState,
): { disposable: vscode.Disposable; port: TrafficPort } {
	const tree = new TrafficTree();
	const view = vscode.window.createTreeView(TRAFFIC_VIEW_ID, { treeDataProvider: tree, canSelectMany: true });
	const located = vscode.languages.createDiagnosticCollection('multiposting-traffic');
	let source: TrafficSource | undefined;
	let attachedUrl: string | undefined;
	let paused = false;
	let problem: string | undefined;

	const setContext = (key: string, value: unknown): void =>
		void vscode.commands.executeCommand('setContext', key, value);
	const showMessage = (): void => {
		const status = viewStatus({
			following: source?.baseUrl,
			problem,
			paused,
			filter: tree.filterText,
			shown: tree.filterText ? tree.rows.list(parseFilter(tree.filterText)).length : tree.rows.size,
			total: tree.rows.size,
			hidden: !view.visible,
		});
		view.message = status.message;
		view.description = status.description;
		view.title = status.title;
	};
	/** Follows the sandbox at `baseUrl` (none: nothing), keeping the rows shown when asked (resume). */
	const follow = (baseUrl: string | undefined, keepRows = false): void => {
		const current = source;
		if (current && current.baseUrl === baseUrl && !current.stopped) return;
		current?.stop();
		source = undefined;
		problem = undefined;
		if (!keepRows) tree.clear();
		if (baseUrl) {
			source = new TrafficSource(
				baseUrl,
				(entries) => {
					if (!tree.rows.add(entries)) return;
					tree.refresh();
					showMessage();
				},
				(message) => {
					problem = message;
					showMessage();
				},
			);
			if (!paused) source.start();
		}
		showMessage();
	};
	const followCurrent = (keepRows = false): void => follow(attachedUrl ?? sandbox.running?.baseUrl, keepRows);
	const requireSource = (): TrafficSource => {
		if (!source) throw new Error('The Traffic view follows no sandbox: start it, or attach to a sandbox URL.');
		return source;
	};
	const guarded =
		<A extends unknown[]>(run: (...args: A) => Promise<void> | void) =>
		async (...args: A): Promise<void> => {
			try {
				await run(...args);
			} catch (error) {
				void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
			}
		};
	const chosenEntry = (entry?: JournalEntry): JournalEntry => {
		const chosen = entry ?? view.selection[0];
		if (!chosen) throw new Error('Choose an exchange in the Traffic view first.');
		return chosen;
	};
	/** A command asking one line in an input box (trimmed); Escape changes nothing. */
	const askThen = (
		options: Omit<vscode.InputBoxOptions, 'value' | 'validateInput'> & {
			value: () => string;
			validateInput?: (trimmed: string) => string | undefined;
		},
		apply: (trimmed: string) => void,
	) =>
		guarded(async () => {
			const { value, validateInput, ...shown } = options;
			const typed = await vscode.window.showInputBox({
				...shown,
				value: value(),
				validateInput: validateInput && ((text) => validateInput(text.trim())),
			});
			if (typed !== undefined) apply(typed.trim());
		});
	const setFilter = (text: string): void => {
		tree.filterText = text;
		setContext(CONTEXT_KEYS.trafficFiltered, text !== '');
		tree.refresh();
		showMessage();
	};
	const target = () => ({ baseUrl: requireSource().baseUrl, namespace: '', paths: DEFAULT_ENDPOINT_PATHS });

	/** One side of a comparison, held until the diff editor's document closes. */
	const compareUri = (entry: JournalEntry, side: 'request' | 'response'): vscode.Uri =>
		readonlyUri(comparableText(entry, side), 'plaintext', `${entry.id} ${entry.operation ?? 'request'} ${side}`);

	/** The request body as sent beside the exchange, each located problem of the verdict at its line. */
	const showLocatedProblems = async (entry: DetailedEntry): Promise<void> => {
		const problems = locatedProblems(entry);
		if (problems.length === 0) return;
		const uri = await openReadonlyDocument(entry.request.body.text, 'xml', `Exchange ${entry.id} request as sent`, {
			viewColumn: vscode.ViewColumn.Beside,
			preserveFocus: true,
		});
		const document = await vscode.workspace.openTextDocument(uri);
		located.set(
			uri,
			problems
				.filter((problem) => problem.line <= document.lineCount)
				.map((problem) => {
					const line = document.lineAt(problem.line - 1);
					const range = new vscode.Range(
						line.lineNumber,
						line.firstNonWhitespaceCharacterIndex,
						line.lineNumber,
						line.text.length,
					);
					const diagnostic = new vscode.Diagnostic(
						range,
						problem.message,
						problem.severity === 'error'
							? vscode.DiagnosticSeverity.Error
							: vscode.DiagnosticSeverity.Warning,
					);
					diagnostic.source = "production's verdict";
					return diagnostic;
				}),
		);
	};

	setContext(CONTEXT_KEYS.trafficPaused, false);
	followCurrent();
	const port: TrafficPort = {
		chosen: (entry) => {
			const selected = view.selection;
			// A row's own menu acts on the selection when the row is part of it, else on that row alone.
			if (entry && !selected.some((row) => row.id === entry.id)) return [entry];
			return selected.length > 0 ? [...selected] : entry ? [entry] : [];
		},
		rows: () => tree.rows.list(parseFilter(tree.filterText)),
		attachedUrl: () => attachedUrl,
		reveal: () => void vscode.commands.executeCommand(`${TRAFFIC_VIEW_ID}.focus`),
	};
	const disposable = vscode.Disposable.from(
		tree,
		view,
		{ dispose: () => source?.stop() },
		view.onDidChangeVisibility(showMessage),
		located,
		// A document outlives its tab by minutes: its problems go with the last tab showing it.
		vscode.window.tabGroups.onDidChangeTabs(({ closed }) => {
			const open = new Set(
				vscode.window.tabGroups.all
					.flatMap((group) => group.tabs)
					.map((tab) => (tab.input instanceof vscode.TabInputText ? tab.input.uri.toString() : '')),
			);
			for (const tab of closed) {
				if (tab.input instanceof vscode.TabInputText && !open.has(tab.input.uri.toString())) {
					located.delete(tab.input.uri);
				}
			}
		}),
		sandbox.onDidChangeState(() => {
			if (!attachedUrl) followCurrent();
		}),
		vscode.commands.registerCommand(
			COMMANDS.trafficAttach,
			askThen(
				{
					title: 'Follow the traffic of which sandbox?',
					prompt: 'The base URL of a sandbox started with npm run sandbox; leave empty for the built-in sandbox.',
					placeHolder: 'http://127.0.0.1:8099',
					value: () => attachedUrl ?? '',
					validateInput: (text) => {
						if (text === '') return undefined;
						try {
							const url = new URL(text);
							return /^https?:$/.test(url.protocol) ? undefined : 'Use an http:// or https:// URL.';
						} catch {
							return 'Type a URL such as http://127.0.0.1:8099.';
						}
					},
				},
				(typed) => {
					attachedUrl = typed === '' ? undefined : new URL(typed).origin;
					followCurrent();
				},
			),
		),
		vscode.commands.registerCommand(
			COMMANDS.trafficFilter,
			askThen(
				{
					title: 'Filter the traffic',
					prompt: 'op:<operation> status:<code or 5xx> client:<address>, and any text of the path, fault or bodies',
					placeHolder: 'op:AddAdvert status:5xx',
					value: () => tree.filterText,
				},
				setFilter,
			),
		),
		vscode.commands.registerCommand(COMMANDS.trafficClearFilter, () => setFilter('')),
		vscode.commands.registerCommand(COMMANDS.trafficPause, () => {
			paused = true;
			setContext(CONTEXT_KEYS.trafficPaused, true);
			source?.stop();
			showMessage();
		}),
		vscode.commands.registerCommand(COMMANDS.trafficResume, () => {
			paused = false;
			setContext(CONTEXT_KEYS.trafficPaused, false);
			source?.stop();
			followCurrent(true);
		}),
		vscode.commands.registerCommand(
			COMMANDS.trafficClear,
			guarded(async () => {
				await source?.clear();
				tree.clear();
				showMessage();
			}),
		),
		vscode.commands.registerCommand(
			COMMANDS.trafficOpen,
			guarded(async (entry?: JournalEntry) => {
				const chosen = chosenEntry(entry);
				const detail = await vscode.window.withProgress(
					{ location: { viewId: TRAFFIC_VIEW_ID }, title: 'Judging the exchange…' },
					() => requireSource().detail(chosen.id),
				);
				tree.noteVerdict(detail);
				await openReadonlyDocument(
					exchangeMarkdown(detail, detail.upstream ? live.upstream(detail.upstream) : undefined),
					'markdown',
					`Exchange ${chosen.id} ${chosen.operation ?? chosen.path}`,
				);
				await showLocatedProblems(detail);
			}),
		),
		vscode.commands.registerCommand(
			COMMANDS.trafficOpenInPlayground,
			guarded((entry?: JournalEntry) => {
				PlaygroundPanel.show(playground, playgroundFormOf(chosenEntry(entry)));
			}),
		),
		vscode.commands.registerCommand(
			COMMANDS.trafficCopyAsCurl,
			guarded(async (entry?: JournalEntry) => {
				const text = curlForRaw(playgroundFormOf(chosenEntry(entry)).raw, target(), {});
				await vscode.env.clipboard.writeText(text);
				void vscode.window.showInformationMessage(
					`Copied as curl: the API key and password are $${CURL_ENV.apiKey} and $${CURL_ENV.password}; set them before running it.`,
				);
			}),
		),
		vscode.commands.registerCommand(
			COMMANDS.trafficSaveAsRequestTest,
			guarded(async (entry?: JournalEntry) => {
				const chosen = chosenEntry(entry);
				const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
				const picked = await vscode.window.showSaveDialog({
					defaultUri: folder ? vscode.Uri.joinPath(folder, `traffic${REQUEST_FILE_EXTENSION}`) : undefined,
					filters: { 'Multiposting request': ['mpreq'] },
					saveLabel: 'Append Request Test',
					title: 'Append the exchange as a request test to which file?',
				});
				if (!picked) return;
				let existing = '';
				try {
					existing = Buffer.from(await vscode.workspace.fs.readFile(picked)).toString('utf8');
				} catch {
					// A new file.
				}
				// The built-in sandbox's namespace; a standalone one (npm run sandbox) answers in the default.
				const namespace = attachedUrl ? SANDBOX_NAMESPACE : sandbox.running?.namespace;
				const text = appendRequestEntry(existing, requestTestOf(chosen, namespace));
				await vscode.workspace.fs.writeFile(picked, Buffer.from(text, 'utf8'));
				const document = await vscode.workspace.openTextDocument(picked);
				await vscode.window.showTextDocument(document, { preview: false });
			}),
		),
		vscode.commands.registerCommand(
			COMMANDS.trafficCompareWith,
			guarded(async (entry?: JournalEntry) => {
				const first = chosenEntry(entry);
				const others = tree.rows.list().filter((row) => row.id !== first.id);
				if (others.length === 0) throw new Error('There is no other exchange to compare with.');
				const picked = await vscode.window.showQuickPick(
					others.map((row) => ({ ...rowText(row), entry: row })),
					{ title: `Compare exchange ${first.id} with…`, matchOnDescription: true },
				);
				if (!picked) return;
				const payload = await vscode.window.showQuickPick(['request', 'response'], {
					title: 'Compare which payload?',
				});
				if (!payload) return;
				const side = payload === 'response' ? 'response' : 'request';
				await vscode.commands.executeCommand(
					'vscode.diff',
					compareUri(first, side),
					compareUri(picked.entry, side),
					`Exchange ${first.id} ↔ ${picked.entry.id} (${side})`,
				);
			}),
		),
	);
	return { disposable, port };
}
