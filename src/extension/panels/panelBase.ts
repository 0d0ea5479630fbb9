/**
 * What both detail panels share: the strict shell, validated inbound messages (unknown ones are
 * logged by type and ignored), the ready handshake, a busy indicator, and preview behaviour (a
 * preview panel is reused for the next item opened from the tree until it is pinned). State
 * survives hiding through the webview's getState/setState, not retainContextWhenHidden, so the
 * webview posts 'ready' again whenever it is re-created.
 */
import * as vscode from 'vscode';
import { describeMessage } from '../../shared/panelMessages';
import type { WorkbenchServices } from '../services';
import { renderShell, webviewOptions } from '../webviews/html';
import type { PanelKind, PanelSlot } from './previewModel';

export interface PanelSpec<In extends { type: string }> {
	viewType: string;
	kind: PanelKind;
	/** Bundle name under dist/webview. */
	script: string;
	/** Bundles the script may load on demand (name under dist/webview), e.g. the PDF viewer. */
	lazyScripts?: string[];
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
	implements vscode.Disposable, PanelSlot
{
	readonly kind: PanelKind;
	protected readonly panel: vscode.WebviewPanel;
	private readonly disposables: vscode.Disposable[] = [];
	private disposed = false;
	private previewValue: boolean;
	private titleText = '';
	/** The webview has posted 'ready' since it was last (re)created. */
	protected ready = false;

	constructor(
		protected readonly services: WorkbenchServices,
		private readonly spec: PanelSpec<In>,
		private readonly options: PanelOptions,
	) {
		this.kind = spec.kind;
		this.previewValue = options.preview;
		this.panel = vscode.window.createWebviewPanel(
			spec.viewType,
			'Loading…',
			{ viewColumn: vscode.ViewColumn.Active, preserveFocus: options.preserveFocus ?? false },
			webviewOptions(services.extensionUri),
		);
		this.panel.webview.html = renderShell(this.panel.webview, services.extensionUri, {
			script: spec.script,
			lazyScripts: spec.lazyScripts,
			title: 'Multiposting',
			styles: ['media/panels.css'],
		});
		this.disposables.push(
			this.panel.onDidDispose(() => this.dispose()),
			this.panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
			this.panel.onDidChangeViewState(() => options.onDidChangeState()),
		);
	}

	abstract get key(): number;

	get preview(): boolean {
		return this.previewValue;
	}

	/** True while this panel is the active editor. */
	get active(): boolean {
		return !this.disposed && this.panel.active;
	}

	/** Makes the panel stay: the next item opened from the tree gets a panel of its own. */
	pin(): void {
		if (!this.previewValue) return;
		this.previewValue = false;
		this.applyTitle();
		this.post(this.modeMessage(false));
		this.options.onDidChangeState();
	}

	reveal(preserveFocus = false): void {
		this.panel.reveal(undefined, preserveFocus);
	}

	/** Sets the name in the title: "Application: <name>", or "Preview: <name>" while a preview (as the italic tab of a preview editor says). */
	protected set title(name: string) {
		this.titleText = name;
		this.applyTitle();
	}

	private applyTitle(): void {
		const kind = this.kind === 'application' ? 'Application' : 'Advert';
		this.panel.title = `${this.previewValue ? 'Preview' : kind}: ${this.titleText}`;
	}

	/** Posts to the webview; a disposed panel drops the message. */
	protected post(message: Out): void {
		if (!this.disposed) void this.panel.webview.postMessage(message);
	}

	protected subscribe(disposable: vscode.Disposable): void {
		this.disposables.push(disposable);
	}

	private receive(message: unknown): void {
		if (!this.spec.isMessage(message)) {
			this.services.log.warn(
				`${this.spec.viewType}: ignored an unexpected webview message (${describeMessage(message)})`,
			);
			return;
		}
		if (message.type === 'ready') {
			this.ready = true;
			this.post(this.modeMessage(this.previewValue));
		}
		if (message.type === 'keepOpen') {
			this.pin();
			return;
		}
		this.handle(message).catch((error: unknown) => {
			const text = error instanceof Error ? error.message : String(error);
			this.services.log.error(`${this.spec.viewType}: ${message.type} failed: ${text}`);
			this.post(this.errorMessage(text));
		});
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

	protected abstract handle(message: In): Promise<void>;
	protected abstract busyMessage(busy: boolean, label?: string): Out;
	protected abstract errorMessage(message: string): Out;
	protected abstract modeMessage(preview: boolean): Out;

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		this.options.onDisposed();
		this.panel.dispose();
		for (const d of this.disposables.splice(0)) d.dispose();
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
