/**
 * The application details panel: candidate and application fields, the recruiter actions (shared with
 * the tree through services.applications) and the documents, each fetched only when its tab opens.
 * A preview panel shows another application without being re-created: the host sends the new view
 * (at once from the tree's row, then fresh from the service) and the webview keeps its tab. A new
 * panel has the row's view in its HTML, so it draws it before its first round trip to the host.
 */
import * as vscode from 'vscode';
import type { APIApplication } from '../../protocol/catalogue';
import type {
	ApplicationAction,
	ApplicationToHostMessage,
	DocumentTab,
	HostToApplicationMessage,
} from '../../shared/panelMessages';
import { isApplicationToHostMessage, isOpenableUrl } from '../../shared/panelMessages';
import { VIEW_TYPES } from '../ids';
import type { ApplicationRef, WorkbenchServices } from '../services';
import { loadDocument, moreOf, savable, type LoadedDocument } from './documents/documents';
import { applicationById } from '../reads/queries';
import { buildApplicationView, documentOf, INCLUDE_FLAG, toApplicationRef } from './models';
import { copyToClipboard, DetailPanel, type PanelOptions } from './panelBase';

export const APPLICATION_VIEW_TYPE = VIEW_TYPES.application;

export class ApplicationPanel extends DetailPanel<ApplicationToHostMessage, HostToApplicationMessage> {
	private readonly documents = new Map<DocumentTab, LoadedDocument>();
	private ref: ApplicationRef;
	private record?: APIApplication;
	/** Bumped whenever the panel shows another application: answers for an older one are dropped. */
	private generation = 0;

	constructor(
		services: WorkbenchServices,
		ref: ApplicationRef,
		options: PanelOptions & { initial?: APIApplication },
	) {
		super(
			services,
			{
				viewType: APPLICATION_VIEW_TYPE,
				kind: 'application',
				script: 'application',
				lazyScripts: ['pdf'],
				isMessage: isApplicationToHostMessage,
				initialMessages: [
					{ type: 'mode', preview: options.preview },
					...(options.initial
						? [
								{
									type: 'application' as const,
									view: buildApplicationView(
										options.initial,
										services.activity.of(ref.advertCandidateId),
									),
								},
							]
						: []),
				],
			},
			options,
		);
		this.ref = ref;
		this.title = `#${ref.advertCandidateId}`;
		if (options.initial) this.present(options.initial);
		this.subscribe(
			services.onDidChangeData((change) => {
				if (change.advertCandidateId === this.ref.advertCandidateId) {
					void this.loadOverview().catch(() => undefined);
				}
			}),
		);
	}

	get key(): number {
		return this.ref.advertCandidateId;
	}

	/** The application shown, with the flags last read (for the pickers' "current" marks). */
	get current(): ApplicationRef {
		return { ...this.ref };
	}

	/** Shows another application (or the same one again, refreshed). */
	show(ref: ApplicationRef, initial?: APIApplication): void {
		if (ref.advertCandidateId !== this.ref.advertCandidateId) {
			this.generation++;
			this.documents.clear();
			this.record = undefined;
			this.ref = ref;
			this.title = `#${ref.advertCandidateId}`;
		}
		if (initial) this.present(initial);
		if (this.ready) void this.loadOverview().catch(() => undefined);
	}

	protected override async onMessage(message: ApplicationToHostMessage): Promise<void> {
		switch (message.type) {
			case 'ready':
				if (this.record) this.postView();
				return this.loadOverview();
			case 'refresh':
				this.documents.clear();
				return this.loadOverview();
			case 'action':
				if (await runAction(this.services, message.action, this.ref)) await this.loadOverview();
				return;
			case 'copy':
				return copyToClipboard(message.field, this.ref[message.field]);
			case 'openDocument':
				return this.openDocument(message.tab);
			case 'showMore': {
				const generation = this.generation;
				const loaded = await this.document(message.tab);
				if (generation !== this.generation) return;
				const more = moreOf(loaded, message.part, message.offset);
				if (more?.kind === 'text') {
					this.post({ type: 'moreText', tab: message.tab, part: message.part, slice: more.slice });
				}
				if (more?.kind === 'html') {
					this.post({ type: 'moreHtml', tab: message.tab, part: message.part, html: more.html });
				}
				return;
			}
			case 'save':
				return this.save(message.tab, message.part);
			case 'openLink':
				return this.openLink(message.url);
			case 'keepOpen':
				return;
		}
	}

	/** Takes a record as the shown application and sends its view when the webview listens. */
	private present(app: APIApplication): void {
		this.record = app;
		this.ref = { ...this.ref, ...toApplicationRef(app) };
		this.title = buildApplicationView(app).title;
		if (this.ready) this.postView();
	}

	private postView(): void {
		if (!this.record) return;
		const view = buildApplicationView(this.record, this.services.activity.of(this.ref.advertCandidateId));
		this.post({ type: 'application', view });
	}

	private async loadOverview(): Promise<void> {
		const generation = this.generation;
		const ref = this.ref;
		await this.busy('Loading application…', async () => {
			const client = await this.services.activeClient();
			const app = await applicationById(client, ref);
			if (generation !== this.generation) return;
			if (!app) {
				this.post({
					type: 'error',
					message: `Application ${ref.advertCandidateId} of advert ${ref.advertId} was not found on this connection.`,
				});
				return;
			}
			this.present(app);
		});
	}

	/** The loaded document of a tab, fetching it (with only that tab's include flag) when needed. */
	private async document(tab: DocumentTab): Promise<LoadedDocument> {
		const cached = this.documents.get(tab);
		if (cached) return cached;
		const generation = this.generation;
		const client = await this.services.activeClient();
		const app = await applicationById(client, this.ref, INCLUDE_FLAG[tab]);
		const loaded = await loadDocument(tab, documentOf(app, tab), { docxToHtml });
		if (generation === this.generation) this.documents.set(tab, loaded);
		return loaded;
	}

	private async openDocument(tab: DocumentTab): Promise<void> {
		const generation = this.generation;
		const loaded = await this.busy('Loading document…', () => this.document(tab));
		if (generation === this.generation) this.post({ type: 'document', tab, view: loaded.view });
	}

	private async save(tab: DocumentTab, part: number | undefined): Promise<void> {
		const target = savable(await this.document(tab), part);
		if (!target) {
			void vscode.window.showInformationMessage('There is nothing to save for this document.');
			return;
		}
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
		const uri = await vscode.window.showSaveDialog({
			defaultUri: folder ? vscode.Uri.joinPath(folder, target.fileName) : undefined,
			saveLabel: 'Save document',
			title: `Save ${target.fileName}`,
		});
		if (!uri) return;
		await vscode.workspace.fs.writeFile(uri, target.bytes);
		vscode.window.setStatusBarMessage(`Saved ${uri.fsPath || uri.toString()}`, 4000);
	}

	/**
	 * Opens a link of a shown document in the browser: only http, https and mailto, and only after the
	 * user confirmed the exact URL in a modal dialog (the webview that asks is treated as untrusted).
	 */
	private async openLink(url: string): Promise<void> {
		if (!isOpenableUrl(url)) {
			this.services.log.warn(
				`${APPLICATION_VIEW_TYPE}: refused to open a link that is not http, https or mailto`,
			);
			void vscode.window.showWarningMessage(
				'This link cannot be opened: only http, https and mailto links are opened.',
			);
			return;
		}
		const choice = await vscode.window.showWarningMessage(
			'Open this link from the application in your browser?',
			{
				modal: true,
				detail: `${url}\n\nThe link comes from an untrusted document. Check the address before opening it.`,
			},
			'Open Link',
		);
		if (choice === 'Open Link') await vscode.env.openExternal(vscode.Uri.parse(url, true));
	}

	protected override busyMessage(busy: boolean, label?: string): HostToApplicationMessage {
		return { type: 'busy', busy, label };
	}

	protected override errorMessage(message: string): HostToApplicationMessage {
		return { type: 'error', message };
	}

	protected override modeMessage(preview: boolean): HostToApplicationMessage {
		return { type: 'mode', preview };
	}
}

/** The shared recruiter action behind a panel button (the same implementation as the tree's commands). */
function runAction(services: WorkbenchServices, action: ApplicationAction, ref: ApplicationRef): Promise<boolean> {
	switch (action) {
		case 'score':
			return services.applications.score(ref);
		case 'progress':
			return services.applications.progress(ref);
		case 'note':
			return services.applications.addNote(ref);
		case 'tag':
			return services.applications.tag(ref);
		case 'partnerTag':
			return services.applications.partnerTag(ref);
	}
}

/** DOCX to HTML with mammoth (loaded on first use: it is large and most panels never need it). */
async function docxToHtml(bytes: Uint8Array): Promise<string> {
	const mammoth = await import('mammoth');
	const result = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
	return result.value;
}
