/**
 * The playground page's controller: holds the form, draws the layout, editor, preview, response,
 * comparison and history, talks to the host through the messenger and keeps what is on screen in
 * the webview state (so a page VS Code re-creates comes back as it was). No global state: tests
 * create it on a jsdom document with a fake messenger.
 */
import { OPERATION_NAMES, type OperationName } from '../../protocol/catalogue';
import { newForm } from '../../shared/playgroundForms';
import type {
	ComparisonView,
	ConnectionView,
	HostToWebview,
	IssueView,
	PlaygroundForm,
	RequestView,
	ResponseView,
	WebviewToHost,
} from '../../shared/playgroundMessages';
import type { WithRequestId } from '../../shared/webviewProtocol';
import { el } from '../common/dom';
import type { Messenger } from '../common/messenger';
import { renderComparison } from './comparison';
import { renderEditor } from './editor';
import { renderHistory } from './history';
import { renderLayout, type Layout } from './layout';
import { renderResponse, requestText } from './response';

/** What the page keeps across re-creation (webview state). */
export interface SavedState {
	form: PlaygroundForm;
	response?: ResponseView;
	comparison?: ComparisonView;
}

/** Largest response body kept in the webview state; a bigger response is shown but not kept. */
export const MAX_SAVED_BODY = 1024 * 1024;

export type PlaygroundMessenger = Messenger<HostToWebview, WebviewToHost, SavedState>;

export interface PlaygroundOptions {
	doc: Document;
	root: HTMLElement;
	messenger: PlaygroundMessenger;
	/** Delay before a changed form is previewed, and before a history search runs. */
	debounceMs?: { preview: number; search: number };
}

export class PlaygroundApp {
	private readonly doc: Document;
	private readonly messenger: PlaygroundMessenger;
	private readonly layout: Layout;
	private readonly debounce: { preview: number; search: number };
	private form: PlaygroundForm;
	private connection: ConnectionView | undefined;
	private response: ResponseView | undefined;
	private comparison: ComparisonView | undefined;
	private busy = false;
	private previewTimer: ReturnType<typeof setTimeout> | undefined;
	private searchTimer: ReturnType<typeof setTimeout> | undefined;
	/** Request id of the newest formChanged: older previews are stale. */
	private latestPreview = 0;

	constructor(options: PlaygroundOptions) {
		this.doc = options.doc;
		this.messenger = options.messenger;
		this.debounce = options.debounceMs ?? { preview: 150, search: 200 };
		const saved = this.messenger.state();
		this.form = saved?.form ?? newForm();
		const { elements, layout } = renderLayout(this.doc, {
			operation: (name) => this.switchOperation(name),
			binding: (binding) => this.update({ ...this.form, binding }),
			mode: (mode) => this.switchMode(mode),
			timeout: (value) => this.setTimeoutMs(value),
			send: () => this.send(),
			cancel: () => this.messenger.post({ type: 'cancel' }),
			compare: () => this.startBusy({ type: 'compare', form: this.form }),
			copyCurl: () => this.messenger.post({ type: 'copyCurl', form: this.form }),
			copyClient: () => this.messenger.post({ type: 'copyClient', form: this.form }),
			save: () => this.messenger.post({ type: 'save', form: this.form }),
			openWsdl: (endpoint) => this.messenger.post({ type: 'openWsdl', endpoint }),
			historySearch: (query) => {
				clearTimeout(this.searchTimer);
				this.searchTimer = setTimeout(
					() => this.messenger.post({ type: 'historySearch', query }),
					this.debounce.search,
				);
			},
			historyClear: () => this.messenger.post({ type: 'historyClear' }),
		});
		this.layout = layout;
		options.root.replaceChildren(...elements);
		this.doc.addEventListener('keydown', (event) => {
			if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
				event.preventDefault();
				this.send();
			}
		});
		this.syncToolbar();
		if (saved?.response) this.showResponse(saved.response);
		if (saved?.comparison) this.showComparison(saved.comparison);
	}

	/** Starts the conversation with the host. */
	start(): void {
		this.messenger.onMessage((message) => this.receive(message));
		this.messenger.post({ type: 'ready' });
	}

	/** The form as it is now. */
	get currentForm(): PlaygroundForm {
		return this.form;
	}

	receive(message: WithRequestId<HostToWebview>): void {
		switch (message.type) {
			case 'init':
				this.setConnection(message.connection);
				if (message.form) this.form = message.form;
				this.syncToolbar();
				this.changed();
				break;
			case 'connection':
				this.setConnection(message.connection);
				break;
			case 'load':
				this.form = message.form;
				this.syncToolbar();
				this.changed();
				break;
			case 'preview':
				if (message.requestId !== undefined && message.requestId < this.latestPreview) break;
				this.renderPreview(message.request, message.issues, message.error);
				break;
			case 'busy':
				this.setBusy(true);
				break;
			case 'response': {
				this.showResponse(message.response);
				this.save();
				const response = message.response;
				this.showNotice(
					response.error !== undefined || response.fault ? 'error' : 'info',
					response.error ??
						(response.fault
							? `Fault: ${response.fault.message}`
							: `HTTP ${response.status ?? ''} received.`),
				);
				break;
			}
			case 'comparison':
				this.showComparison(message.comparison);
				this.save();
				this.showNotice('info', 'Compared the four bindings.');
				break;
			case 'history':
				this.layout.history.replaceChildren(
					...renderHistory(this.doc, message.entries, (id) =>
						this.messenger.post({ type: 'historyOpen', id }),
					),
				);
				break;
			case 'historyEntry':
				this.form = message.form;
				this.syncToolbar();
				this.changed();
				if (message.response) {
					this.showResponse(message.response);
					this.save();
				}
				break;
			case 'done':
				this.setBusy(false);
				break;
			case 'notice':
				this.showNotice(message.level, message.message);
				break;
		}
	}

	private setConnection(connection: ConnectionView): void {
		this.connection = connection;
		this.layout.connection.textContent = `${connection.label} · ${connection.baseUrl}`;
	}

	private switchOperation(name: OperationName): void {
		if (!(OPERATION_NAMES as readonly string[]).includes(name)) return;
		const form = this.form;
		this.form = {
			...newForm(name),
			binding: form.binding,
			mode: form.mode,
			timeoutMs: form.timeoutMs,
			raw: form.raw,
		};
		this.renderEditor();
		this.changed();
	}

	private switchMode(mode: PlaygroundForm['mode']): void {
		if (mode === 'raw' && this.form.raw.body.length === 0) {
			// Start raw mode from the form's request, placeholders kept.
			this.messenger.post({ type: 'rawFromForm', form: this.form });
			return;
		}
		this.form = { ...this.form, mode };
		this.renderEditor();
		this.changed();
	}

	private setTimeoutMs(value: number): boolean {
		if (Number.isInteger(value) && value >= 100 && value <= 600_000) {
			this.update({ ...this.form, timeoutMs: value });
			return true;
		}
		this.showNotice('error', 'The timeout must be a whole number of milliseconds between 100 and 600000.');
		return false;
	}

	/** Records an edit: persisted, then previewed after a short pause. */
	private update(form: PlaygroundForm): void {
		this.form = form;
		this.changed();
	}

	private changed(): void {
		this.save();
		clearTimeout(this.previewTimer);
		this.previewTimer = setTimeout(() => {
			this.latestPreview = this.messenger.post({ type: 'formChanged', form: this.form });
		}, this.debounce.preview);
	}

	private save(): void {
		const small = (response: ResponseView | undefined): boolean =>
			response !== undefined && response.bodyText.length + (response.pretty?.length ?? 0) <= MAX_SAVED_BODY;
		this.messenger.saveState({
			form: this.form,
			response: small(this.response) ? this.response : undefined,
			comparison: this.comparison,
		});
	}

	private syncToolbar(): void {
		this.layout.syncToolbar(this.form);
		this.renderEditor();
	}

	private renderEditor(): void {
		this.layout.editor.replaceChildren(
			renderEditor({
				doc: this.doc,
				connection: this.connection,
				getForm: () => this.form,
				setForm: (form) => this.update(form),
				resetRaw: () => this.messenger.post({ type: 'rawFromForm', form: this.form }),
			}),
		);
	}

	private renderPreview(request: RequestView | undefined, issues: IssueView[], error?: string): void {
		this.layout.preview.textContent = request ? requestText(request) : (error ?? '');
		this.layout.issues.replaceChildren(
			...issues.map((issue) => el(this.doc, 'li', { text: issue.message })),
			...(error ? [el(this.doc, 'li', { text: error })] : []),
		);
		for (const row of this.layout.editor.querySelectorAll<HTMLElement>('.pg-field')) {
			row.classList.toggle(
				'pg-invalid',
				issues.some((issue) => issue.param === row.dataset.param),
			);
		}
	}

	private showResponse(response: ResponseView): void {
		this.response = response;
		this.layout.response.replaceChildren(renderResponse(this.doc, response, this.form.operation));
	}

	private showComparison(comparison: ComparisonView): void {
		this.comparison = comparison;
		this.layout.comparison.hidden = false;
		this.layout.comparison.replaceChildren(...renderComparison(this.doc, comparison));
	}

	private showNotice(level: 'info' | 'error', message: string): void {
		this.layout.notice.className = `pg-notice pg-notice-${level}`;
		this.layout.notice.textContent = message;
	}

	private setBusy(value: boolean): void {
		this.busy = value;
		this.layout.send.disabled = value;
		this.layout.compare.disabled = value;
		this.layout.cancel.disabled = !value;
		this.doc.body.classList.toggle('pg-busy', value);
	}

	private startBusy(message: WebviewToHost): void {
		if (this.busy) return;
		this.setBusy(true);
		this.showNotice('info', message.type === 'compare' ? 'Sending over all four bindings…' : 'Sending…');
		this.messenger.post(message);
	}

	private send(): void {
		this.startBusy({ type: 'send', form: this.form });
	}
}
