/**
 * Breakpoints in VS Code, as Fiddler's for SOAP: a request to the live service that matches one is held
 * by the proxy; here it opens as an editable document (its raw body, or its query for GET) beside a
 * read-only view of its decoded parameters, and is sent on (edited or not), answered here with a
 * chosen fault, or released. What is shown and edited carries placeholders, never the credentials.
 */
import * as vscode from 'vscode';
import { getBinding } from '../../protocol/bindings';
import { BINDING_LABELS } from '../../protocol/bindings/types';
import { DEFAULT_ENDPOINT_PATHS, OPERATION_NAMES, OPERATIONS } from '../../protocol/catalogue';
import { COMMANDS } from '../ids';
import { literal } from '../traffic/trafficModel';
import { openReadonlyDocument } from '../ui/readonlyDocuments';
import { controlOf, guarded, type LiveDeps } from './deps';
import type { HeldRequest, HoldDecision, SandboxControl } from './sandboxControl';

export const HELD_SCHEME = 'multiposting-held';
const WAIT_SECONDS = 20;

/** Documents of held requests: their text as held, then as edited (kept in memory until decided). */
class HeldDocuments implements vscode.FileSystemProvider {
	private readonly texts = new Map<string, Uint8Array>();
	private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
	readonly onDidChangeFile = this.emitter.event;

	uriOf(held: HeldRequest): vscode.Uri {
		const what = held.operation ?? held.path.split('/').filter(Boolean).pop() ?? 'request';
		const extension = held.method === 'GET' || held.binding === 'httpPost' ? 'txt' : 'xml';
		return vscode.Uri.from({ scheme: HELD_SCHEME, path: `/${held.id}/Held ${held.id} ${what}.${extension}` });
	}

	put(held: HeldRequest): vscode.Uri {
		const uri = this.uriOf(held);
		this.texts.set(uri.toString(), new TextEncoder().encode(held.method === 'GET' ? held.query : held.body));
		return uri;
	}

	forget(uri: vscode.Uri): void {
		this.texts.delete(uri.toString());
	}

	watch(): vscode.Disposable {
		return new vscode.Disposable(() => undefined);
	}

	stat(uri: vscode.Uri): vscode.FileStat {
		const text = this.texts.get(uri.toString());
		if (!text) throw vscode.FileSystemError.FileNotFound(uri);
		return { type: vscode.FileType.File, ctime: 0, mtime: Date.now(), size: text.byteLength };
	}

	readDirectory(): [string, vscode.FileType][] {
		return [];
	}

	createDirectory(): void {
		throw vscode.FileSystemError.NoPermissions('Held requests live in memory only.');
	}

	readFile(uri: vscode.Uri): Uint8Array {
		const text = this.texts.get(uri.toString());
		if (!text) throw vscode.FileSystemError.FileNotFound(uri);
		return text;
	}

	writeFile(uri: vscode.Uri, content: Uint8Array): void {
		this.texts.set(uri.toString(), content);
		this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
	}

	delete(uri: vscode.Uri): void {
		this.texts.delete(uri.toString());
	}

	rename(): void {
		throw vscode.FileSystemError.NoPermissions('Held requests cannot be renamed.');
	}
}

/** The title of a held request's decoded view (its preview tab reads "Preview <title>.md"). */
function decodedTitle(held: HeldRequest): string {
	return `Held ${held.id} ${held.operation ?? 'request'}`;
}

/** The held request as Markdown: where it goes, what it is, its decoded parameters. */
export function heldMarkdown(held: HeldRequest, namespace: string | undefined, postingPath: string): string {
	const lines = [
		`# Held: ${literal(held.operation ?? `${held.method} ${held.path}`)}${held.binding ? ` · ${BINDING_LABELS[held.binding]}` : ''}`,
		'',
		`From ${literal(held.client)} to ${literal(held.upstream ?? 'the sandbox')}, held at ${held.time}; released unchanged at ${held.releaseAt} unless decided.`,
		'',
		"Edit the request beside, then **Send On** (the editor title's ▶), **Answer with Fault…** or **Release Unchanged**. Credentials stay placeholders here; the proxy puts the real ones back.",
	];
	if (held.operation && held.binding && held.endpoint && namespace) {
		try {
			const endpointPath =
				held.endpoint === 'administration' ? DEFAULT_ENDPOINT_PATHS.administration : postingPath;
			const decoded = getBinding(held.binding).decodeRequest(
				{
					method: held.method,
					subPath: held.binding === 'httpGet' || held.binding === 'httpPost' ? `/${held.operation}` : '',
					query: held.query,
					headers: held.headers,
					body: new TextEncoder().encode(held.body),
				},
				{ namespace, endpointPath },
				{ loose: true },
			);
			lines.push('', '## Parameters', '', '| Parameter | Value |', '|---|---|');
			for (const spec of OPERATIONS[decoded.operation].params) {
				const value = decoded.params[spec.name];
				if (value === undefined) continue;
				const shown = Array.isArray(value) ? value.join(', ') : String(value);
				lines.push(`| ${spec.name} | ${literal(shown).replace(/\|/g, '\\|')} |`);
			}
		} catch (error) {
			lines.push(
				'',
				`The request does not decode: ${literal(error instanceof Error ? error.message : String(error))}`,
			);
		}
	}
	return lines.join('\n');
}

export function heldRequestCommands(deps: LiveDeps): vscode.Disposable[] {
	const documents = new HeldDocuments();
	const opened = new Map<number, { uri: vscode.Uri; held: HeldRequest }>();
	let watching: { control: SandboxControl; abort: AbortController } | undefined;

	const refresh = async (control: SandboxControl): Promise<void> => {
		const state = await control.breakpoints();
		deps.live.setBreakpoints(state.breakpoints, state.held.length);
		if (state.breakpoints.length > 0 || state.held.length > 0) watch(control);
	};

	const show = async (held: HeldRequest): Promise<void> => {
		const uri = documents.put(held);
		opened.set(held.id, { uri, held });
		const upstream = held.upstream ? deps.live.upstream(held.upstream) : undefined;
		const editor = await vscode.window.showTextDocument(uri, {
			preview: false,
			viewColumn: vscode.ViewColumn.Active,
		});
		await openReadonlyDocument(
			heldMarkdown(held, upstream?.namespace, upstream?.postingPath ?? DEFAULT_ENDPOINT_PATHS.posting),
			'markdown',
			decodedTitle(held),
			{ viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
		);
		void editor;
		const choice = await vscode.window.showInformationMessage(
			`A breakpoint holds ${held.operation ?? held.path} from ${held.client}: edit it, then send it on, or answer it here. Released unchanged at ${new Date(held.releaseAt).toLocaleTimeString()}.`,
			'Send On',
			'Answer with Fault…',
			'Release Unchanged',
		);
		if (choice === 'Send On') await decide(held.id, 'send');
		if (choice === 'Answer with Fault…') await decide(held.id, 'fault');
		if (choice === 'Release Unchanged') await decide(held.id, 'release');
	};

	/** Long-polls the held requests while breakpoints are set; each new one opens. */
	const watch = (control: SandboxControl): void => {
		if (watching && watching.control.baseUrl === control.baseUrl) return;
		watching?.abort.abort();
		const abort = new AbortController();
		watching = { control, abort };
		void (async () => {
			let version = -1;
			while (!abort.signal.aborted) {
				try {
					const answer = await control.held(version, version < 0 ? 0 : WAIT_SECONDS, abort.signal);
					if (abort.signal.aborted) return;
					version = answer.version;
					deps.live.setBreakpoints(deps.live.breakpoints, answer.held.length);
					for (const held of answer.held) if (!opened.has(held.id)) void show(held);
					if (deps.live.breakpoints.length === 0 && answer.held.length === 0) break;
				} catch {
					if (abort.signal.aborted) return;
					await new Promise((resolve) => setTimeout(resolve, 2000));
				}
			}
			if (watching?.abort === abort) watching = undefined;
		})();
	};

	const heldOfEditor = (uri?: vscode.Uri): { id: number; uri: vscode.Uri; held: HeldRequest } => {
		const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
		const found = [...opened.entries()].find(([, item]) => item.uri.toString() === target?.toString());
		if (!found) throw new Error('open a held request first (it opens when a breakpoint holds one).');
		return { id: found[0], ...found[1] };
	};

	/** Closes a held request's document and its decoded preview: both are stale once it is decided. */
	const close = async (uri: vscode.Uri, held: HeldRequest): Promise<void> => {
		const previewLabel = `Preview ${decodedTitle(held)}.md`;
		for (const group of vscode.window.tabGroups.all) {
			for (const tab of group.tabs) {
				if (tab.input instanceof vscode.TabInputWebview && tab.label === previewLabel) {
					await vscode.window.tabGroups.close(tab);
				} else if (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString()) {
					const document = vscode.workspace.textDocuments.find(
						(doc) => doc.uri.toString() === uri.toString(),
					);
					if (document?.isDirty) {
						await vscode.window.showTextDocument(document);
						await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
					} else await vscode.window.tabGroups.close(tab);
				}
			}
		}
		documents.forget(uri);
	};

	const decide = async (id: number, action: HoldDecision['action']): Promise<void> => {
		const item = opened.get(id);
		if (!item) throw new Error(`request ${id} is not held here.`);
		let decision: HoldDecision;
		if (action === 'send') {
			const document = vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === item.uri.toString());
			const text = document?.getText() ?? new TextDecoder().decode(documents.readFile(item.uri));
			decision = item.held.method === 'GET' ? { action: 'send', query: text } : { action: 'send', body: text };
		} else if (action === 'fault') {
			const fault = await chooseFault();
			if (!fault) return;
			decision = { action: 'fault', fault };
		} else decision = { action: 'release' };
		const control = watching?.control ?? (await controlOf(deps));
		try {
			await control.decide(id, decision);
		} finally {
			opened.delete(id);
			await close(item.uri, item.held);
		}
		await refresh(control);
	};

	return [
		vscode.workspace.registerFileSystemProvider(HELD_SCHEME, documents, { isCaseSensitive: true }),
		{ dispose: () => watching?.abort.abort() },
		deps.live.onDidChange(() => {
			if (!deps.live.inspection && deps.live.breakpoints.length === 0) watching?.abort.abort();
		}),
		vscode.commands.registerCommand(
			COMMANDS.breakpointsAdd,
			guarded(deps, 'Adding the breakpoint failed', async () => {
				const byFilter = {
					label: '$(filter) Requests Matching a Filter…',
					detail: 'op:, client:, upstream: and any text, as the Traffic view filters',
				};
				const picked = await vscode.window.showQuickPick(
					[byFilter, ...OPERATION_NAMES.map((name) => ({ label: name, detail: OPERATIONS[name].doc }))],
					{ title: 'Hold which requests before they go to the live service?', matchOnDetail: false },
				);
				if (!picked) return;
				let spec: { operation?: string; filter?: string };
				if (picked === byFilter) {
					const filter = await vscode.window.showInputBox({
						title: 'Hold the requests that match',
						prompt: 'op:<operation> client:<address> upstream:<host>, and any text of the path, query or body',
						placeHolder: 'op:AddAdvert client:127.0.0.1',
						validateInput: (text) => (text.trim() ? undefined : 'Type a filter, e.g. op:AddAdvert.'),
					});
					if (!filter) return;
					spec = { filter: filter.trim() };
				} else spec = { operation: picked.label };
				const control = await controlOf(deps);
				const breakpoint = await control.addBreakpoint(spec);
				await refresh(control);
				void vscode.window.showInformationMessage(
					`Breakpoint on ${breakpoint.description}: matching requests ${deps.live.inspection ? `to ${deps.live.inspection.label}` : 'through the proxy'} are held for you to edit, send on or answer.`,
				);
			}),
		),
		vscode.commands.registerCommand(
			COMMANDS.breakpointsClear,
			guarded(deps, 'Clearing the breakpoints failed', async () => {
				const control = await controlOf(deps);
				await control.clearBreakpoints();
				for (const [id, item] of [...opened]) {
					opened.delete(id);
					await close(item.uri, item.held);
				}
				await refresh(control);
			}),
		),
		vscode.commands.registerCommand(
			COMMANDS.breakpointsMenu,
			guarded(deps, 'Breakpoints', async () => {
				const picked = await vscode.window.showQuickPick(
					[
						{ label: '$(add) Add Breakpoint…', command: COMMANDS.breakpointsAdd },
						{
							label: '$(clear-all) Clear Breakpoints',
							description: deps.live.breakpoints.map((b) => b.description).join('; '),
							command: COMMANDS.breakpointsClear,
						},
					],
					{ title: `${deps.live.breakpoints.length} breakpoint(s), ${deps.live.held} request(s) held` },
				);
				if (picked) await vscode.commands.executeCommand(picked.command);
			}),
		),
		vscode.commands.registerCommand(
			COMMANDS.heldSend,
			guarded(deps, 'Sending the held request failed', (uri?: vscode.Uri) =>
				decide(heldOfEditor(uri).id, 'send'),
			),
		),
		vscode.commands.registerCommand(
			COMMANDS.heldFault,
			guarded(deps, 'Answering the held request failed', (uri?: vscode.Uri) =>
				decide(heldOfEditor(uri).id, 'fault'),
			),
		),
		vscode.commands.registerCommand(
			COMMANDS.heldRelease,
			guarded(deps, 'Releasing the held request failed', (uri?: vscode.Uri) =>
				decide(heldOfEditor(uri).id, 'release'),
			),
		),
	];
}

/** The fault to answer with: common ones, or one typed. */
async function chooseFault(): Promise<
	HoldDecision & { action: 'fault' } extends { fault: infer F } ? F | undefined : never
> {
	const choices = [
		{
			label: 'Authentication failed',
			fault: {
				code: 'Client' as const,
				subcode: 'AuthenticationFailed',
				message: 'The API key, username or password is not valid.',
			},
		},
		{ label: 'Server error', fault: { code: 'Server' as const, message: 'Server was unable to process request.' } },
		{
			label: 'Quota exceeded',
			fault: {
				code: 'Client' as const,
				subcode: 'QuotaExceeded',
				message: 'The feed has no quota left for this posting.',
			},
		},
		{
			label: 'Invalid parameter',
			fault: {
				code: 'Client' as const,
				subcode: 'InvalidParameter',
				message: 'A parameter has a value the service does not accept.',
			},
		},
		{ label: 'Another Fault…', fault: undefined },
	];
	const picked = await vscode.window.showQuickPick(choices, { title: 'Answer the held request with which fault?' });
	if (!picked) return undefined;
	if (picked.fault) return picked.fault;
	const message = await vscode.window.showInputBox({
		title: "The fault's message (faultstring)",
		validateInput: (t) => (t.trim() ? undefined : 'Type a message.'),
	});
	if (!message) return undefined;
	return { code: 'Client', message: message.trim() };
}
