/**
 * The Create Advert form: one webview generated from the catalogue's AddAdvert parameters, with the
 * user's job boards, their description limits, quota and cost. The answers stay while the panel is
 * open, also when the service refuses them; the service's message shows next to the field it names.
 * After creation the panel shows the completion link with Copy and Open for as long as it is open.
 */
import * as vscode from 'vscode';
import {
	advertFormFields,
	isAdvertFormToHostMessage,
	type AdvertFormToHostMessage,
	type AdvertFormValues,
	type FeedOption,
	type HostToAdvertFormMessage,
} from '../../shared/advertForm';
import { describeMessage } from '../../shared/panelMessages';
import { readFeedOptions, submitAdvert, type CreatedAdvert } from '../actions/createAdvert';
import { VIEW_TYPES } from '../ids';
import type { AdvertRef, WorkbenchServices } from '../services';
import type { UiPort } from '../ui/port';
import { renderShell, webviewOptions } from '../webviews/html';

export class CreateAdvertPanel implements vscode.Disposable {
	private readonly panel: vscode.WebviewPanel;
	private readonly disposables: vscode.Disposable[] = [];
	private readonly fields = advertFormFields();
	private values: AdvertFormValues = {};
	private feeds: FeedOption[] = [];
	private created?: CreatedAdvert;
	private disposed = false;

	constructor(
		private readonly services: WorkbenchServices,
		private readonly ui: UiPort,
		private readonly showAdvert: (ref: AdvertRef) => Promise<void>,
		private readonly onDisposed: () => void,
	) {
		this.panel = vscode.window.createWebviewPanel(
			VIEW_TYPES.createAdvert,
			'Create Advert',
			vscode.ViewColumn.Active,
			webviewOptions(services.extensionUri),
		);
		this.panel.webview.html = renderShell(this.panel.webview, services.extensionUri, {
			script: 'createAdvert',
			title: 'Create Advert',
			styles: ['media/panels.css'],
		});
		this.disposables.push(
			this.panel.onDidDispose(() => this.dispose()),
			this.panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
		);
	}

	reveal(): void {
		this.panel.reveal();
	}

	private post(message: HostToAdvertFormMessage): void {
		if (!this.disposed) void this.panel.webview.postMessage(message);
	}

	private receive(message: unknown): void {
		if (!isAdvertFormToHostMessage(message)) {
			this.services.log.warn(
				`${VIEW_TYPES.createAdvert}: ignored an unexpected webview message (${describeMessage(message)})`,
			);
			return;
		}
		this.handle(message).catch((error: unknown) => {
			const text = error instanceof Error ? error.message : String(error);
			this.services.log.error(`${VIEW_TYPES.createAdvert}: ${message.type} failed: ${text}`);
			this.post({ type: 'refused', message: text });
		});
	}

	private async handle(message: AdvertFormToHostMessage): Promise<void> {
		switch (message.type) {
			case 'ready':
				return this.init();
			case 'draft':
				this.values = message.values;
				return;
			case 'submit':
				this.values = message.values;
				return this.submit();
			case 'openCompletion':
				if (this.created?.advertId !== undefined) {
					await this.services.adverts.openCompletionPage({
						advertId: this.created.advertId,
						title: this.created.title,
					});
				}
				return;
			case 'copyCompletion':
				if (this.created?.redirectUrl) {
					await this.ui.copyText(await this.ui.externalUrl(this.created.redirectUrl));
					this.ui.status('Copied the completion link');
				}
				return;
			case 'showAdvert':
				if (this.created?.advertId !== undefined) {
					await this.showAdvert({ advertId: this.created.advertId, title: this.created.title });
				}
				return;
			case 'startOver':
				this.created = undefined;
				this.values = {};
				this.panel.title = 'Create Advert';
				return this.init();
			case 'keepOpen':
				return;
		}
	}

	/** Sends the form (after reading the boards), or the result when the advert was created. */
	private async init(): Promise<void> {
		if (this.created) {
			this.post({ type: 'created', ...this.created });
			return;
		}
		this.post({ type: 'busy', busy: true, label: 'Reading your job boards…' });
		const { feeds, problem } = await readFeedOptions(this.services).finally(() =>
			this.post({ type: 'busy', busy: false }),
		);
		this.feeds = feeds;
		this.post({ type: 'init', fields: this.fields, feeds, feedsProblem: problem, values: this.values });
	}

	private async submit(): Promise<void> {
		this.post({ type: 'busy', busy: true, label: 'Creating the advert…' });
		const outcome = await submitAdvert(this.services, this.values, this.fields, this.feeds).finally(() =>
			this.post({ type: 'busy', busy: false }),
		);
		if ('refused' in outcome) {
			this.post({ type: 'refused', message: outcome.refused, field: outcome.field });
			return;
		}
		this.created = outcome.created;
		this.panel.title = `Advert created: ${outcome.created.title}`;
		this.post({ type: 'created', ...outcome.created });
	}

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		this.onDisposed();
		this.panel.dispose();
		for (const d of this.disposables.splice(0)) d.dispose();
	}
}
