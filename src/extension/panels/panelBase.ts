/**
 * What both detail panels add to the webview base: one panel per item (revealed when already open),
 * media/panels.css, a busy indicator and errors shown in the page.
 */
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../services';
import { WebviewPanelBase, type Reply } from '../webviews/webviewPanel';

export interface PanelSpec<In extends { type: string }> {
	viewType: string;
	/** Bundle name under dist/webview. */
	script: string;
	title: string;
	isMessage(value: unknown): value is In;
}

export abstract class DetailPanel<In extends { type: string }, Out> extends WebviewPanelBase<In, Out> {
	constructor(
		protected readonly services: WorkbenchServices,
		spec: PanelSpec<In>,
		onDisposed: () => void,
	) {
		super(
			{ extensionUri: services.extensionUri, log: services.log },
			{
				viewType: spec.viewType,
				script: spec.script,
				title: spec.title,
				styles: ['media/panels.css'],
				parse: (value) => (spec.isMessage(value) ? value : undefined),
			},
			onDisposed,
		);
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

	protected abstract override handle(message: In, reply: Reply<Out>): Promise<void>;
	protected abstract busyMessage(busy: boolean, label?: string): Out;
	protected abstract errorMessage(message: string): Out;

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
