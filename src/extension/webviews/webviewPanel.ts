/**
 * The one base of every webview panel (advert, application, playground): the strict shell with a
 * fresh nonce, the WebviewChannel (validated inbound messages, ready handshake, request ids on
 * replies) and disposal. The page keeps its own state with getState/setState: VS Code re-creates a
 * hidden page, which posts `ready` again. Only the detail panels, between which a recruiter switches
 * all day, keep their hidden pages (retainContextWhenHidden); state still covers a re-created page.
 */
import * as vscode from 'vscode';
import { WebviewChannel, type ChannelLog, type Reply } from './channel';
import { renderShell, webviewOptions } from './html';

export type { Reply } from './channel';

export interface WebviewPanelSpec<In extends { type: string }> {
	viewType: string;
	/** Bundle name under dist/webview. */
	script: string;
	title: string;
	/** Stylesheets under the extension root, after media/webview.css. */
	styles: string[];
	/** Bundles the page may load on demand (names under dist/webview), e.g. the PDF viewer. */
	lazyScripts?: string[];
	/** Opens without taking the focus (a preview that follows the tree's selection). */
	preserveFocus?: boolean;
	/**
	 * What the page shows before it asks for anything, in the HTML (a new panel is then drawn without
	 * waiting for the ready round trip); the page handles them as host messages on its first load only.
	 */
	initialMessages?: readonly unknown[];
	/**
	 * Keeps the page alive while its tab is hidden. Re-creating a page costs VS Code a new webview
	 * (1.2 to 1.7 s under code-server, where each one registers its own service worker), which a
	 * recruiter switching between detail panels would pay on every switch.
	 */
	retainContextWhenHidden?: boolean;
	parse(value: unknown): In | undefined;
}

export interface WebviewPanelDeps {
	extensionUri: vscode.Uri;
	log: ChannelLog;
}

export abstract class WebviewPanelBase<In extends { type: string }, Out> implements vscode.Disposable {
	protected readonly panel: vscode.WebviewPanel;
	protected readonly channel: WebviewChannel<In, Out>;
	private readonly disposables: vscode.Disposable[] = [];
	private disposed = false;

	constructor(
		deps: WebviewPanelDeps,
		spec: WebviewPanelSpec<In>,
		private readonly onDisposed: () => void,
	) {
		this.panel = vscode.window.createWebviewPanel(
			spec.viewType,
			spec.title,
			{ viewColumn: vscode.ViewColumn.Active, preserveFocus: spec.preserveFocus ?? false },
			webviewOptions(deps.extensionUri, spec.retainContextWhenHidden),
		);
		this.channel = new WebviewChannel<In, Out>({
			name: spec.viewType,
			parse: spec.parse,
			handle: (message, reply) => this.handle(message, reply),
			failure: (text) => this.failure(text),
			deliver: (message) => void this.panel.webview.postMessage(message),
			log: deps.log,
		});
		this.panel.webview.html = renderShell(this.panel.webview, deps.extensionUri, {
			script: spec.script,
			title: spec.title,
			styles: spec.styles,
			lazyScripts: spec.lazyScripts,
			initialMessages: spec.initialMessages,
		});
		this.disposables.push(
			this.panel.onDidDispose(() => this.dispose()),
			this.panel.onDidChangeViewState(() => {
				// A retained page lives on while hidden; any other is gone until it posts 'ready' again.
				if (!this.panel.visible && !spec.retainContextWhenHidden) this.channel.pageGone();
				this.viewStateChanged();
			}),
			this.panel.webview.onDidReceiveMessage((message: unknown) => void this.channel.receive(message)),
		);
	}

	reveal(column?: vscode.ViewColumn, preserveFocus = false): void {
		this.panel.reveal(column, preserveFocus);
	}

	/** Called when the panel is shown, hidden or becomes or stops being the active editor. */
	protected viewStateChanged(): void {
		// Nothing by default.
	}

	protected set title(title: string) {
		this.panel.title = title;
	}

	/** Posts to the page (held until it is ready; dropped once the panel is disposed). */
	protected post(message: Out): void {
		this.channel.post(message);
	}

	protected subscribe(disposable: vscode.Disposable): void {
		this.disposables.push(disposable);
	}

	/** Handles a valid message from the page; `reply` answers it with its request id. */
	protected abstract handle(message: In, reply: Reply<Out>): Promise<void>;
	/** What the page is told when handling a message failed. */
	protected abstract failure(text: string): Out[];

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		this.channel.dispose();
		this.onDisposed();
		this.panel.dispose();
		for (const d of this.disposables.splice(0)) d.dispose();
	}
}
