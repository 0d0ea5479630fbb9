/**
 * The playground page's controller: the Workbench (a form per operation, the exchange and the
 * comparison that answer it), the layout, and the conversation with the host. What is on screen is
 * kept in the webview state, so a page VS Code re-creates comes back as it was. No global state:
 * tests create it on a jsdom document with a fake messenger.
 */
import { BINDING_LABELS } from '../../protocol/bindings/types';
import type { OperationName } from '../../protocol/catalogue';
import type {
	ConnectionView,
	EditorText,
	HostToWebview,
	IssueView,
	PlaygroundForm,
	RequestView,
	WebviewToHost,
} from '../../shared/playgroundMessages';
import type { RequestId, WithRequestId } from '../../shared/webviewProtocol';
import { el } from '../common/dom';
import type { Messenger } from '../common/messenger';
import { renderComparison } from './comparison';
import { renderEditor } from './editor';
import { renderHistory } from './history';
import { renderLayout, sendShortcut, type Layout } from './layout';
import { renderResponse, requestDocument, requestText } from './response';
import { columnsForWidth } from './resultData';
import { Workbench, type SavedState } from './workbench';

export type { SavedState } from './workbench';

export type PlaygroundMessenger = Messenger<HostToWebview, WebviewToHost, SavedState>;

export interface PlaygroundOptions {
	doc: Document;
	root: HTMLElement;
	messenger: PlaygroundMessenger;
	/** Delay before a changed form is previewed, and before a history search runs. */
	debounceMs?: { preview: number; search: number };
}

const BUSY_NOTICE = {
	send: 'Sending…',
	compare: 'Sending over all four bindings…',
	compareConnection: 'Choose the connection to compare with, in the picker at the top of the window…',
} as const;

export class PlaygroundApp {
	private readonly doc: Document;
	private readonly messenger: PlaygroundMessenger;
	private readonly layout: Layout;
	private readonly debounce: { preview: number; search: number };
	private readonly workbench: Workbench;
	private connection: ConnectionView | undefined;
	private busy = false;
	private previewTimer: ReturnType<typeof setTimeout> | undefined;
	private searchTimer: ReturnType<typeof setTimeout> | undefined;
	/** Request id of the newest formChanged: older previews are stale. */
	private latestPreview = 0;
	/** The form of each send or compare in flight, by request id. */
	private readonly inFlight = new Map<RequestId, PlaygroundForm>();
	private lastPreview: RequestView | undefined;
	/** What the output area shows now, so it is redrawn only when that changes. */
	private shown: {
		operation?: string;
		response?: unknown;
		current?: boolean;
		comparison?: unknown;
		columns?: number;
	} = {};

	constructor(options: PlaygroundOptions) {
		this.doc = options.doc;
		this.messenger = options.messenger;
		this.debounce = options.debounceMs ?? { preview: 150, search: 200 };
		this.workbench = new Workbench(this.messenger.state());
		const { elements, layout } = renderLayout(this.doc, {
			operation: (name) => this.switchOperation(name),
			binding: (binding) => this.update({ ...this.form, binding }),
			mode: (mode) => this.switchMode(mode),
			timeout: (value) => this.setTimeoutMs(value),
			send: () => this.startBusy('send'),
			cancel: () => this.messenger.post({ type: 'cancel' }),
			compare: () => this.startBusy('compare'),
			compareConnection: () => this.startBusy('compareConnection'),
			openRequest: () => this.openRequest(),
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
			isBusy: () => this.busy,
		});
		this.layout = layout;
		options.root.replaceChildren(...elements);
		this.doc.addEventListener('keydown', (event) => {
			if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
				event.preventDefault();
				this.startBusy('send');
			}
		});
		this.doc.defaultView?.addEventListener('resize', () => this.renderOutput());
		this.syncToolbar();
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

	private get form(): PlaygroundForm {
		return this.workbench.form;
	}

	receive(message: WithRequestId<HostToWebview>): void {
		switch (message.type) {
			case 'init':
				this.setConnection(message.connection);
				if (message.form) this.workbench.setForm(message.form);
				this.syncToolbar();
				this.changed();
				break;
			case 'connection':
				this.setConnection(message.connection);
				this.renderEditor();
				this.changed();
				break;
			case 'load':
				this.workbench.setForm(message.form);
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
				const form = this.sentForm(message.requestId);
				this.workbench.recordExchange(form, message.response);
				this.save();
				this.renderOutput();
				const response = message.response;
				this.showNotice(
					response.error !== undefined || response.fault || response.httpError ? 'error' : 'info',
					response.error ??
						(response.fault
							? `Fault: ${response.fault.message}`
							: response.httpError
								? `HTTP ${response.httpError.status}: ${response.httpError.text.split('\n', 1)[0]}`
								: `HTTP ${response.status ?? ''} received.`),
				);
				break;
			}
			case 'comparison':
				this.workbench.recordComparison(this.sentForm(message.requestId), message.comparison);
				this.save();
				this.renderOutput();
				this.showNotice(
					'info',
					message.comparison.kind === 'bindings'
						? 'Compared the four bindings.'
						: `Compared ${message.comparison.columns.map((column) => column.label).join(' with ')}.`,
				);
				break;
			case 'history':
				this.layout.history.replaceChildren(
					...renderHistory(this.doc, message.entries, (id) =>
						this.messenger.post({ type: 'historyOpen', id }),
					),
				);
				break;
			case 'historyEntry':
				this.workbench.setForm(message.form);
				if (message.response) this.workbench.recordExchange(message.form, message.response);
				this.syncToolbar();
				this.changed();
				break;
			case 'done':
				if (message.requestId !== undefined) this.inFlight.delete(message.requestId);
				this.setBusy(false);
				break;
			case 'notice':
				this.showNotice(message.level, message.message);
				break;
		}
	}

	/** The form a reply answers: the one sent under its request id, else the form on screen. */
	private sentForm(requestId: RequestId | undefined): PlaygroundForm {
		return (requestId !== undefined ? this.inFlight.get(requestId) : undefined) ?? this.form;
	}

	private setConnection(connection: ConnectionView): void {
		this.connection = connection;
		this.layout.connection.textContent = [connection.label, connection.baseUrl, connection.username]
			.filter(Boolean)
			.join(' · ');
	}

	private switchOperation(name: OperationName): void {
		this.workbench.switchOperation(name);
		this.syncToolbar();
		this.changed();
	}

	private switchMode(mode: PlaygroundForm['mode']): void {
		if (mode === 'raw' && this.form.raw.body.length === 0) {
			// Start raw mode from the form's request, placeholders kept.
			this.messenger.post({ type: 'rawFromForm', form: this.form });
			return;
		}
		this.workbench.setForm({ ...this.form, mode });
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

	/** Records an edit: persisted, the output checked against it, then previewed after a short pause. */
	private update(form: PlaygroundForm): void {
		this.workbench.setForm(form);
		this.changed();
	}

	private changed(): void {
		this.save();
		this.renderOutput();
		clearTimeout(this.previewTimer);
		this.previewTimer = setTimeout(() => {
			this.latestPreview = this.messenger.post({ type: 'formChanged', form: this.form });
		}, this.debounce.preview);
	}

	private save(): void {
		this.messenger.saveState(this.workbench.saved());
	}

	private syncToolbar(): void {
		this.layout.syncToolbar(this.form);
		this.renderEditor();
		this.renderOutput();
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
		this.lastPreview = request;
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

	/** Width of the response pane, for the result table's columns. */
	private outputWidth(): number {
		return this.layout.response.clientWidth || (this.doc.documentElement.clientWidth || 0) / 2;
	}

	/** Shows the exchange and comparison that answer the request as it is now; redraws only on change. */
	private renderOutput(): void {
		const found = this.workbench.exchange();
		const comparison = this.workbench.comparison();
		const columns = columnsForWidth(this.outputWidth());
		const next = {
			// The empty state names the operation: another one with nothing sent is a change too.
			operation: this.form.operation,
			response: found?.exchange.response,
			current: found?.current,
			comparison: comparison?.view,
			columns,
		};
		const same =
			next.operation === this.shown.operation &&
			next.response === this.shown.response &&
			next.current === this.shown.current &&
			next.comparison === this.shown.comparison &&
			next.columns === this.shown.columns;
		if (same) return;
		this.shown = next;
		const operation = this.form.operation;
		if (found?.current) {
			const form = found.exchange.form;
			this.layout.response.replaceChildren(
				renderResponse(
					{
						doc: this.doc,
						operation: form.operation,
						bindingLabel: BINDING_LABELS[form.binding],
						width: this.outputWidth(),
						copy: (label, text) => this.messenger.post({ type: 'copyText', label, text }),
						open: (document) => this.messenger.post({ type: 'openDocument', document }),
					},
					found.exchange.response,
				),
			);
		} else {
			const hint = `Send it (${sendShortcut(this.doc)}) to see the answer.`;
			this.layout.response.replaceChildren(
				el(this.doc, 'p', {
					className: 'pg-muted',
					attrs: { id: 'response-empty' },
					text: found
						? `The request changed since the last response of ${operation}. ${hint}`
						: `Nothing sent yet for ${operation}. ${hint}`,
				}),
			);
		}
		this.layout.comparison.hidden = comparison === undefined;
		this.layout.comparison.replaceChildren(
			...(comparison
				? renderComparison(
						{
							doc: this.doc,
							openDiff: (left, right) => this.messenger.post({ type: 'openDiff', left, right }),
						},
						comparison.view,
					)
				: []),
		);
	}

	private openRequest(): void {
		const title = `${this.form.operation} request (${BINDING_LABELS[this.form.binding]})`;
		let document: EditorText;
		if (this.lastPreview) document = requestDocument(this.lastPreview, title);
		else if (this.form.mode === 'raw') document = { title, text: this.form.raw.body, language: 'xml' };
		else {
			this.showNotice('error', 'The request has no preview yet: fix the problems listed under the form.');
			return;
		}
		this.messenger.post({ type: 'openDocument', document });
	}

	private showNotice(level: 'info' | 'error', message: string): void {
		this.layout.notice.className = `pg-notice pg-notice-${level}`;
		this.layout.notice.textContent = message;
	}

	private setBusy(value: boolean): void {
		this.busy = value;
		this.layout.send.disabled = value;
		this.layout.cancel.disabled = !value;
		this.doc.body.classList.toggle('pg-busy', value);
	}

	private startBusy(kind: 'send' | 'compare' | 'compareConnection'): void {
		if (this.busy) return;
		this.setBusy(true);
		this.showNotice('info', BUSY_NOTICE[kind]);
		const form = this.form;
		const id = this.messenger.post({ type: kind, form });
		this.inFlight.set(id, form);
	}
}
