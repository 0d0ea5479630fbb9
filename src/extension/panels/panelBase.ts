/**
 * What both detail panels share: one webview panel per item (revealed when already open), the strict
 * shell, validated inbound messages (unknown ones are logged by type and ignored), the ready handshake
 * and a busy indicator. State survives hiding through the webview's getState/setState, not
 * retainContextWhenHidden, so the webview posts 'ready' again whenever it is re-created.
 */
import * as vscode from 'vscode';
import { describeMessage } from '../../shared/panelMessages';
import type { WorkbenchServices } from '../services';
import { renderShell, webviewOptions } from '../webviews/html';

export interface PanelSpec<In extends { type: string }> {
	viewType: string;
	/** Bundle name under dist/webview. */
	script: string;
	title: string;
	isMessage(value: unknown): value is In;
}

export abstract class DetailPanel<In extends { type: string }, Out> implements vscode.Disposable {
	protected readonly panel: vscode.WebviewPanel;
	private readonly disposables: vscode.Disposable[] = [];
	private disposed = false;

	constructor(
		protected readonly services: WorkbenchServices,
		private readonly spec: PanelSpec<In>,
		private readonly onDisposed: () => void,
	) {
		this.panel = vscode.window.createWebviewPanel(
			spec.viewType,
			spec.title,
			vscode.ViewColumn.Active,
			webviewOptions(services.extensionUri),
		);
		this.panel.webview.html = renderShell(this.panel.webview, services.extensionUri, {
			script: spec.script,
			title: spec.title,
			styles: ['media/panels.css'],
		});
		this.disposables.push(
			this.panel.onDidDispose(() => this.dispose()),
			this.panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
		);
	}

	reveal(): void {
		this.panel.reveal(undefined, false);
	}

	protected set title(title: string) {
		this.panel.title = title;
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

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		this.onDisposed();
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
