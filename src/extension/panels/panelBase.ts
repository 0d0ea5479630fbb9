/**
 * What both detail panels add to the webview base (shell, validated messages, ready handshake,
 * request ids): media/panels.css, a busy indicator, errors shown in the page, and preview behaviour
 * (a preview panel is reused for the next item opened from the tree until it is pinned). A hidden
 * panel keeps its page (retainContextWhenHidden: showing it again is then instant instead of a new
 * webview); the page's getState/setState still covers a page VS Code re-creates, which posts
 * 'ready' again.
 */
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../services';
import { WebviewPanelBase, type Reply } from '../webviews/webviewPanel';
import type { PanelKind, PanelSlot } from './previewModel';

export interface PanelSpec<In extends { type: string }, Out extends { type: string }> {
	viewType: string;
	kind: PanelKind;
	/** Bundle name under dist/webview. */
	script: string;
	/** Bundles the script may load on demand (name under dist/webview), e.g. the PDF viewer. */
	lazyScripts?: string[];
	/** The first view, from the record at hand (the tree's row), written into the page's HTML. */
	initialMessages?: readonly Out[];
	isMessage(value: unknown): value is In;
}

export interface PanelOptions {
	preview: boolean;
	preserveFocus?: boolean;
	onDisposed(): void;
	/** Called when the panel becomes or stops being the active editor, or is pinned. */
	onDidChangeState(): void;
}

export abstract class DetailPanel<In extends { type: string }, Out extends { type: string }>
	extends WebviewPanelBase<In, Out>
	implements PanelSlot
{
	readonly kind: PanelKind;
	private previewValue: boolean;
	private titleText = '';
	private gone = false;

	constructor(
		protected readonly services: WorkbenchServices,
		spec: PanelSpec<In, Out>,
		private readonly options: PanelOptions,
	) {
		super(
			{ extensionUri: services.extensionUri, log: services.log },
			{
				viewType: spec.viewType,
				script: spec.script,
				lazyScripts: spec.lazyScripts,
				initialMessages: spec.initialMessages,
				retainContextWhenHidden: true,
				title: 'Loading…',
				styles: ['media/panels.css'],
				preserveFocus: options.preserveFocus,
				parse: (value) => (spec.isMessage(value) ? value : undefined),
			},
			() => {
				this.gone = true;
				options.onDisposed();
			},
		);
		this.kind = spec.kind;
		this.previewValue = options.preview;
	}

	abstract get key(): number;

	/** The page has posted 'ready' since it was last (re)created. */
	protected get ready(): boolean {
		return this.channel.isLive;
	}

	get preview(): boolean {
		return this.previewValue;
	}

	/** True while this panel is the active editor. */
	get active(): boolean {
		return !this.gone && this.panel.active;
	}

	/** Makes the panel stay: the next item opened from the tree gets a panel of its own. */
	pin(): void {
		if (!this.previewValue) return;
		this.previewValue = false;
		this.applyTitle();
		this.post(this.modeMessage(false));
		this.options.onDidChangeState();
	}

	bringForward(preserveFocus = false): void {
		this.reveal(undefined, preserveFocus);
	}

	/** Sets the name in the title: "Application: <name>", or "Preview: <name>" while a preview (as the italic tab of a preview editor says). */
	protected override set title(name: string) {
		this.titleText = name;
		this.applyTitle();
	}

	private applyTitle(): void {
		const kind = this.kind === 'application' ? 'Application' : 'Advert';
		this.panel.title = `${this.previewValue ? 'Preview' : kind}: ${this.titleText}`;
	}

	protected override viewStateChanged(): void {
		this.options.onDidChangeState();
	}

	protected override async handle(message: In, reply: Reply<Out>): Promise<void> {
		if (message.type === 'ready') this.post(this.modeMessage(this.previewValue));
		if (message.type === 'keepOpen') {
			this.pin();
			return;
		}
		await this.onMessage(message, reply);
	}

	/** Runs `work` while the webview shows a busy indicator. */
	protected async busy<T>(label: string, work: () => Promise<T>): Promise<T> {
		this.post(this.busyMessage(true, label));
		try {
			return await work();
		} finally {
			this.post(this.busyMessage(false));
		}
	}

	/** Handles a valid message from the page ('ready' included; 'keepOpen' is handled here). */
	protected abstract onMessage(message: In, reply: Reply<Out>): Promise<void>;
	protected abstract busyMessage(busy: boolean, label?: string): Out;
	protected abstract errorMessage(message: string): Out;
	protected abstract modeMessage(preview: boolean): Out;

	protected override failure(text: string): Out[] {
		return [this.errorMessage(text)];
	}
}

/** Writes to the clipboard and confirms in the status bar. */
export async function copyToClipboard(label: string, value: string | number | undefined): Promise<void> {
	if (value === undefined || value === '') {
		void vscode.window.showInformationMessage(`There is no ${label} to copy.`);
		return;
	}
	await vscode.env.clipboard.writeText(String(value));
	vscode.window.setStatusBarMessage(`Copied ${label}: ${value}`, 3000);
}
