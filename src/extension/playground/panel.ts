/**
 * The request playground: one webview panel and the host logic behind it (preview, send, compare,
 * raw mode, history, save, snippets, WSDL). Secrets never reach the webview.
 */
import * as vscode from 'vscode';
import { openReadonlyDocument } from '../ui/readonlyDocuments';
import { isOperationName, type Endpoint } from '../../protocol/catalogue';
import { prettyPrintXml } from '../../protocol/codecs/xml';
import { dataChangingCall } from '../../protocol/requestFiles/changesData';
import {
	CONNECTION_PLACEHOLDERS,
	REQUEST_FILE_EXTENSION,
	serializeRequestFile,
	type ConnectionValues,
} from '../../protocol/requestFile';
import {
	parseWebviewMessage,
	type EditorText,
	type HostToWebview,
	type PlaygroundForm,
	type ResponseView,
	type WebviewToHost,
} from '../../shared/playgroundMessages';
import { SETTINGS } from '../ids';
import type { WorkbenchServices } from '../services';
import { WebviewPanelBase, type Reply } from '../webviews/webviewPanel';
import {
	connectionView,
	openOtherConnection,
	publicValues,
	secretValues,
	targetOfClient,
	targetOfConnection,
} from './connection';
import { curlNotice, curlSecretsOf, type CurlSecrets } from './curlChoice';
import { formToDocument } from './documents';
import { PLAYGROUND_SCHEME, type EditorTextStore } from './editorTexts';
import { askToSendWrites, pickOtherConnection } from './pickConnection';
import { formToDraft, formToParams, previewForm } from './request';
import type { PlaygroundRunner } from './runner';
import { clientCallSnippet, curlForForm, curlForRaw } from './snippets';

export const PLAYGROUND_VIEW_TYPE = 'multiposting.playground';

/** What the playground panel works with. */
export interface PlaygroundDeps {
	services: WorkbenchServices;
	runner: PlaygroundRunner;
	/** Texts opened in read-only editors (served by the multiposting-playground: provider). */
	texts: EditorTextStore;
}

/** The playground panel (one at a time). */
export class PlaygroundPanel extends WebviewPanelBase<WebviewToHost, HostToWebview> {
	private static current: PlaygroundPanel | undefined;
	/** A form to show at the page's next `ready` (the page keeps its own form after that). */
	private pendingForm: PlaygroundForm | undefined;

	/** Shows the panel (creating it when needed) and, when given, loads a form into it. */
	static show(deps: PlaygroundDeps, form?: PlaygroundForm): PlaygroundPanel {
		const existing = PlaygroundPanel.current;
		if (existing) {
			existing.reveal(vscode.ViewColumn.Active);
			if (form) existing.load(form);
			return existing;
		}
		PlaygroundPanel.current = new PlaygroundPanel(deps, form);
		return PlaygroundPanel.current;
	}

	/** The open panel, if any. */
	static get active(): PlaygroundPanel | undefined {
		return PlaygroundPanel.current;
	}

	private readonly services: WorkbenchServices;
	private readonly runner: PlaygroundRunner;

	private constructor(
		private readonly deps: PlaygroundDeps,
		initialForm?: PlaygroundForm,
	) {
		const { services, runner } = deps;
		super(
			{ extensionUri: services.extensionUri, log: services.log },
			{
				viewType: PLAYGROUND_VIEW_TYPE,
				script: 'playground',
				title: 'Request Playground',
				styles: ['media/playground.css'],
				parse: parseWebviewMessage,
			},
			() => {
				PlaygroundPanel.current = undefined;
				runner.cancel();
			},
		);
		this.services = services;
		this.runner = runner;
		this.pendingForm = initialForm;
		// The header and the preview follow the active connection.
		this.subscribe(
			services.onDidChangeConnection(() => {
				this.post({ type: 'connection', connection: connectionView(services.activeConnection()) });
			}),
		);
	}

	/** Loads a form into the webview. */
	load(form: PlaygroundForm): void {
		if (this.channel.isLive) this.post({ type: 'load', form });
		else this.pendingForm = form;
	}

	/** Shows a response that was produced elsewhere (e.g. sent from the editor). */
	showResponse(response: ResponseView): void {
		this.post({ type: 'response', response });
	}

	protected override failure(message: string): HostToWebview[] {
		return [{ type: 'notice', level: 'error', message }, { type: 'done' }];
	}

	protected override async handle(message: WebviewToHost, reply: Reply<HostToWebview>): Promise<void> {
		switch (message.type) {
			case 'ready': {
				const info = this.services.activeConnection();
				const form = this.pendingForm;
				this.pendingForm = undefined;
				reply({
					type: 'init',
					connection: connectionView(info),
					form,
					placeholders: { ...CONNECTION_PLACEHOLDERS },
				});
				await this.sendHistory('');
				return;
			}
			case 'formChanged':
				this.preview(message.form, reply);
				return;
			case 'send': {
				reply({ type: 'busy', what: 'send' });
				const outcome = await this.runner.send(message.form);
				if (outcome.response) reply({ type: 'response', response: outcome.response });
				else reply({ type: 'notice', level: 'error', message: outcome.problems.join(' ') });
				reply({ type: 'done' });
				this.refreshConnection(message.form);
				await this.sendHistory('');
				return;
			}
			case 'cancel':
				this.runner.cancel();
				return;
			case 'compare': {
				reply({ type: 'busy', what: 'compare' });
				const outcome = await this.runner.compare(message.form);
				if (outcome.comparison) reply({ type: 'comparison', comparison: outcome.comparison });
				else reply({ type: 'notice', level: 'error', message: outcome.problems.join(' ') });
				reply({ type: 'done' });
				this.refreshConnection(message.form);
				await this.sendHistory('');
				return;
			}
			case 'compareConnection':
				await this.compareWithConnection(message.form, reply);
				return;
			case 'rawFromForm': {
				const form = message.form;
				if (!isOperationName(form.operation)) return;
				const info = this.services.activeConnection();
				const draft = formToDraft(
					form.operation,
					form.binding,
					formToParams(form.operation, form.params).params,
					targetOfConnection(info),
				);
				reply({ type: 'load', form: { ...form, mode: 'raw', raw: draft } });
				return;
			}
			case 'save':
				await this.save(message.form, reply);
				return;
			case 'copyCurl':
				await this.copyCurl(message.form, reply);
				return;
			case 'copyClient': {
				const form = message.form;
				if (!isOperationName(form.operation)) return;
				await vscode.env.clipboard.writeText(
					clientCallSnippet(form.operation, form.binding, formToParams(form.operation, form.params).params),
				);
				reply({
					type: 'notice',
					level: 'info',
					message: 'Copied a call of the TypeScript client (credentials come from the client options).',
				});
				return;
			}
			case 'openWsdl':
				await openWsdl(this.runner, message.endpoint);
				return;
			case 'historySearch':
				await this.sendHistory(message.query, reply);
				return;
			case 'historyOpen': {
				const entry = await this.runner.history.get(message.id);
				if (entry) {
					reply({ type: 'historyEntry', id: entry.id, form: entry.form, response: entry.response });
				}
				return;
			}
			case 'historyClear':
				await this.runner.history.clear();
				await this.sendHistory('', reply);
				return;
			case 'openDocument':
				await this.openDocument(message.document);
				return;
			case 'openDiff':
				await this.openDiff(message.left, message.right);
				return;
			case 'copyText':
				await vscode.env.clipboard.writeText(message.text);
				reply({ type: 'notice', level: 'info', message: `Copied ${message.label}.` });
				return;
		}
	}

	/**
	 * Sends the form over the active connection and one the user picks, shows the structural
	 * differences in the page and opens the payloads (what must differ masked) in a diff editor.
	 */
	private async compareWithConnection(form: PlaygroundForm, reply: Reply<HostToWebview>): Promise<void> {
		try {
			const picked = await pickOtherConnection(this.services);
			if (!picked) {
				reply({ type: 'notice', level: 'info', message: 'Not compared: no connection was chosen.' });
				return;
			}
			const raw = form.mode === 'raw' ? [form.raw.target, form.raw.headersText, form.raw.body] : [];
			const changing = dataChangingCall(form.operation, raw);
			// Asked once the call is known to be sendable, so a form with an error is not questioned first.
			const proceed = async (): Promise<boolean> => {
				if (changing && (await askToSendWrites([changing], picked, true)) !== true) return false;
				reply({
					type: 'notice',
					level: 'info',
					message: `Sending to ${this.services.activeConnection().label} and ${picked.label}…`,
				});
				return true;
			};
			reply({ type: 'busy', what: 'compareConnection' });
			const other = await openOtherConnection(this.services, picked.id);
			let outcome;
			try {
				outcome = await this.runner.compareWithConnection(form, other, proceed);
			} finally {
				await other.close();
			}
			if (outcome.declined) {
				reply({
					type: 'notice',
					level: 'info',
					message: `Not compared: ${changing} changes data and was not sent to ${picked.label}.`,
				});
				return;
			}
			if (!outcome.comparison) {
				reply({ type: 'notice', level: 'error', message: outcome.problems.join(' ') });
				return;
			}
			reply({ type: 'comparison', comparison: outcome.comparison });
			const [left, right] = outcome.comparison.columns;
			const text = (column: typeof left): EditorText => ({
				title: `${outcome.comparison!.operation} payload (${column.label})`,
				text: `${column.payload}\n`,
				language: column.payload.trimStart().startsWith('<') ? 'xml' : 'plaintext',
			});
			await this.openDiff(text(left), text(right));
		} finally {
			reply({ type: 'done' });
			this.refreshConnection(form);
			await this.sendHistory('');
		}
	}

	private preview(form: PlaygroundForm, reply: Reply<HostToWebview> = (m) => this.post(m)): void {
		const info = this.services.activeConnection();
		reply({ type: 'preview', ...previewForm(form, targetOfConnection(info), publicValues(info)) });
	}

	/** Sending may have started the sandbox, which gives the connection its address: show it. */
	private refreshConnection(form: PlaygroundForm): void {
		this.post({ type: 'connection', connection: connectionView(this.services.activeConnection()) });
		this.preview(form);
	}

	private async sendHistory(query: string, reply: Reply<HostToWebview> = (m) => this.post(m)): Promise<void> {
		reply({ type: 'history', entries: await this.runner.history.search(query), query });
	}

	private async save(form: PlaygroundForm, reply: Reply<HostToWebview>): Promise<void> {
		const { document, problems } = formToDocument(form);
		if (!document) throw new Error(problems.join(' '));
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
		const defaultUri = folder
			? vscode.Uri.joinPath(folder, `${document.operation}${REQUEST_FILE_EXTENSION}`)
			: undefined;
		const uri = await vscode.window.showSaveDialog({
			defaultUri,
			filters: { 'Multiposting request': ['mpreq'] },
			saveLabel: 'Save Request',
		});
		if (!uri) return;
		const values = await this.knownSecrets();
		await vscode.workspace.fs.writeFile(uri, Buffer.from(serializeRequestFile(document, values), 'utf8'));
		const note = problems.length > 0 ? ` Not saved: ${problems.join(' ')}` : '';
		reply({ type: 'notice', level: 'info', message: `Saved ${vscode.workspace.asRelativePath(uri)}.${note}` });
		await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.Beside, preview: false });
	}

	/** The secret values, when the connection can give them without starting anything new. */
	private async knownSecrets(): Promise<ConnectionValues> {
		try {
			return await secretValues(this.services);
		} catch {
			return {};
		}
	}

	private async copyCurl(form: PlaygroundForm, reply: Reply<HostToWebview>): Promise<void> {
		const settings = vscode.workspace.getConfiguration(SETTINGS.section);
		const choice = curlSecretsOf(settings.get<unknown>(SETTINGS.playgroundCurlSecrets));
		await this.copyCurlAs(form, choice);
		const notice = curlNotice(choice);
		reply({ type: 'notice', level: 'info', message: notice.message });
		const picked = await vscode.window.showInformationMessage(notice.message, notice.switchLabel);
		if (picked !== notice.switchLabel) return;
		await settings.update(SETTINGS.playgroundCurlSecrets, notice.switchTo, vscode.ConfigurationTarget.Global);
		await this.copyCurlAs(form, notice.switchTo);
		const switched = curlNotice(notice.switchTo);
		this.post({ type: 'notice', level: 'info', message: switched.message });
		void vscode.window.showInformationMessage(switched.message);
	}

	private async copyCurlAs(form: PlaygroundForm, choice: CurlSecrets): Promise<void> {
		const client = await this.services.activeClient();
		const target = targetOfClient(client);
		const values = await secretValues(this.services);
		const include = choice === 'include';
		let text: string;
		if (form.mode === 'raw') {
			text = curlForRaw(form.raw, target, values, include);
		} else {
			if (!isOperationName(form.operation)) throw new Error(`Unknown operation ${form.operation}.`);
			const params = formToParams(form.operation, form.params).params;
			text = curlForForm({ operation: form.operation, binding: form.binding, params, target, values }, include);
		}
		await vscode.env.clipboard.writeText(text);
	}

	/** Opens a text of the page in a read-only editor, the cursor on `position` when given. */
	private async openDocument(document: EditorText): Promise<void> {
		const uri = vscode.Uri.from({ scheme: PLAYGROUND_SCHEME, path: this.deps.texts.add(document) });
		const opened = await vscode.workspace.openTextDocument(uri);
		const editor = await vscode.window.showTextDocument(opened, {
			viewColumn: vscode.ViewColumn.Beside,
			preview: false,
		});
		if (document.position) {
			const line = Math.min(document.position.line, opened.lineCount) - 1;
			const column = Math.min(document.position.column - 1, opened.lineAt(line).text.length);
			const at = new vscode.Position(line, column);
			editor.selection = new vscode.Selection(at, at);
			editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
		}
	}

	private async openDiff(left: EditorText, right: EditorText): Promise<void> {
		await openTextDiff(this.deps.texts, left, right);
	}
}

/** Opens two texts side by side in a read-only diff editor, beside the active one. */
export async function openTextDiff(texts: EditorTextStore, left: EditorText, right: EditorText): Promise<void> {
	const uri = (text: EditorText) => vscode.Uri.from({ scheme: PLAYGROUND_SCHEME, path: texts.add(text) });
	await vscode.commands.executeCommand('vscode.diff', uri(left), uri(right), `${left.title} ↔ ${right.title}`, {
		viewColumn: vscode.ViewColumn.Beside,
		preview: false,
	});
}

/** Opens an endpoint's WSDL as an untitled XML document. */
export async function openWsdl(runner: PlaygroundRunner, endpoint: Endpoint): Promise<void> {
	const text = await runner.fetchWsdl(endpoint);
	let content = text;
	try {
		content = prettyPrintXml(text);
	} catch {
		// Shown as received when it is not well-formed.
	}
	await openReadonlyDocument(
		content,
		'xml',
		`${endpoint === 'posting' ? 'Posting' : 'Administration'} endpoint WSDL`,
	);
}
