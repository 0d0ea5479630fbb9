/**
 * The page skeleton, a workbench: a request bar (operation, binding, the primary Send with its
 * shortcut, Cancel, and every other action in a "More actions" menu), then the request and the
 * response side by side (stacked when the panel is narrow, see media/playground.css), the history
 * under the request. Returns the elements the app fills; user actions go to `actions`.
 */
import { BINDING_LABELS, BINDING_NAMES } from '../../protocol/bindings/types';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../protocol/catalogue';
import type { PlaygroundBinding, PlaygroundForm } from '../../shared/playgroundMessages';
import { button, el } from '../common/dom';
import { createMenuButton, type MenuButton } from '../common/menu';

export interface LayoutActions {
	operation(name: OperationName): void;
	binding(binding: PlaygroundBinding): void;
	mode(mode: PlaygroundForm['mode']): void;
	/** A timeout typed by the user; false when it was refused. */
	timeout(value: number): boolean;
	send(): void;
	cancel(): void;
	compare(): void;
	compareConnection(): void;
	openRequest(): void;
	copyCurl(): void;
	copyClient(): void;
	save(): void;
	openWsdl(endpoint: 'posting' | 'administration'): void;
	historySearch(query: string): void;
	historyClear(): void;
	/** True while a request is in flight (menu items that send are disabled). */
	isBusy(): boolean;
}

export interface Layout {
	connection: HTMLElement;
	operation: HTMLSelectElement;
	timeout: HTMLInputElement;
	send: HTMLButtonElement;
	cancel: HTMLButtonElement;
	more: MenuButton;
	notice: HTMLElement;
	editor: HTMLElement;
	issues: HTMLElement;
	preview: HTMLElement;
	response: HTMLElement;
	comparison: HTMLElement;
	history: HTMLElement;
	/** Checks the radio buttons and fills the fields of the toolbar from a form. */
	syncToolbar(form: PlaygroundForm): void;
}

const SECONDARY = 'mp-button mp-secondary';

/** The send shortcut as the platform writes it. */
export function sendShortcut(doc: Document): string {
	const platform = doc.defaultView?.navigator.platform ?? '';
	return /Mac|iPhone|iPad/.test(platform) ? '⌘+Enter' : 'Ctrl+Enter';
}

export function renderLayout(doc: Document, actions: LayoutActions): { elements: Node[]; layout: Layout } {
	const connection = el(doc, 'span', { className: 'pg-connection', attrs: { id: 'connection' } });
	const operation = el(doc, 'select', { attrs: { id: 'operation', 'aria-label': 'Operation' } });
	for (const endpoint of ['posting', 'administration'] as const) {
		operation.append(
			el(
				doc,
				'optgroup',
				{ attrs: { label: endpoint === 'posting' ? 'Posting endpoint' : 'Administration endpoint' } },
				OPERATION_NAMES.filter((name) => OPERATIONS[name].endpoint === endpoint).map((name) =>
					el(doc, 'option', { text: name, attrs: { value: name } }),
				),
			),
		);
	}
	operation.addEventListener('change', () => actions.operation(operation.value as OperationName));

	const radio = (group: string, value: string, label: string, onChange: () => void): HTMLElement => {
		const id = `${group}-${value}`;
		const input = el(doc, 'input', { attrs: { type: 'radio', name: group, id, value } });
		input.addEventListener('change', onChange);
		return el(doc, 'label', { className: 'pg-radio', attrs: { for: id } }, [input, label]);
	};
	const bindings = el(doc, 'fieldset', { className: 'pg-bindings pg-segmented', attrs: { id: 'bindings' } }, [
		el(doc, 'legend', { className: 'pg-visually-hidden', text: 'Binding' }),
		...BINDING_NAMES.map((binding) =>
			radio('binding', binding, BINDING_LABELS[binding], () => actions.binding(binding)),
		),
	]);
	const modes = el(doc, 'fieldset', { className: 'pg-modes pg-segmented', attrs: { id: 'modes' } }, [
		el(doc, 'legend', { className: 'pg-visually-hidden', text: 'Mode' }),
		radio('mode', 'form', 'Form', () => actions.mode('form')),
		radio('mode', 'raw', 'Raw HTTP', () => actions.mode('raw')),
	]);
	const timeout = el(doc, 'input', { attrs: { id: 'timeout', type: 'text', inputmode: 'numeric', size: '6' } });
	let acceptedTimeout = '';
	timeout.addEventListener('change', () => {
		if (!actions.timeout(Number(timeout.value))) timeout.value = acceptedTimeout;
	});

	const shortcut = sendShortcut(doc);
	const send = el(
		doc,
		'button',
		{
			className: 'mp-button pg-send',
			attrs: {
				type: 'button',
				id: 'send',
				title: `Send the request (${shortcut})`,
				'aria-keyshortcuts': 'Control+Enter',
			},
		},
		['Send', el(doc, 'kbd', { className: 'pg-kbd', text: shortcut })],
	);
	send.addEventListener('click', () => actions.send());
	const cancel = button(doc, 'Cancel', () => actions.cancel(), {
		className: SECONDARY,
		attrs: { id: 'cancel', disabled: '' },
	});
	const idle = (): boolean => actions.isBusy();
	const more = createMenuButton(doc, 'more', 'More…', [
		{ id: 'compare', label: 'Compare bindings', run: () => actions.compare(), disabled: idle },
		{
			id: 'compare-connection',
			label: 'Compare with connection…',
			run: () => actions.compareConnection(),
			disabled: idle,
		},
		{ id: 'open-request', label: 'Open request in editor', run: () => actions.openRequest() },
		{ id: 'copy-curl', label: 'Copy as curl', run: () => actions.copyCurl() },
		{ id: 'copy-client', label: 'Copy as client call', run: () => actions.copyClient() },
		{ id: 'save', label: 'Save as request file…', run: () => actions.save() },
		{ id: 'wsdl-posting', label: 'Open posting WSDL', run: () => actions.openWsdl('posting') },
		{ id: 'wsdl-admin', label: 'Open administration WSDL', run: () => actions.openWsdl('administration') },
	]);

	more.button.title = 'More actions: compare bindings or connections, open in an editor, copy, save, WSDL';
	const notice = el(doc, 'div', {
		className: 'pg-notice',
		attrs: { id: 'notice', role: 'status', 'aria-live': 'polite' },
	});
	const editor = el(doc, 'div', { attrs: { id: 'editor' } });
	const issues = el(doc, 'ul', { className: 'pg-issues', attrs: { id: 'issues', 'aria-label': 'Problems' } });
	const preview = el(doc, 'pre', {
		className: 'pg-pre',
		attrs: { id: 'preview', tabindex: '0', 'aria-label': 'Request preview' },
	});
	const response = el(doc, 'div', { attrs: { id: 'response' } });
	const comparison = el(doc, 'section', {
		className: 'pg-comparison',
		attrs: { id: 'comparison', hidden: '', 'aria-label': 'Binding comparison' },
	});
	const history = el(doc, 'ol', { className: 'pg-history-list', attrs: { id: 'history' } });
	const search = el(doc, 'input', {
		attrs: {
			id: 'history-search',
			type: 'search',
			placeholder: 'Search operation, status, bodies…',
			'aria-label': 'Search history',
		},
	});
	search.addEventListener('input', () => actions.historySearch(search.value));

	const elements: Node[] = [
		el(doc, 'header', { className: 'pg-header' }, [el(doc, 'h1', { text: 'Request Playground' }), connection]),
		el(doc, 'div', { className: 'pg-requestbar', attrs: { role: 'toolbar', 'aria-label': 'Request' } }, [
			operation,
			bindings,
			el(doc, 'div', { className: 'pg-requestbar-actions' }, [send, cancel, more.element]),
		]),
		notice,
		el(doc, 'main', { className: 'pg-workbench' }, [
			el(
				doc,
				'section',
				{ className: 'pg-pane pg-request-pane', attrs: { 'aria-labelledby': 'request-heading' } },
				[
					el(doc, 'div', { className: 'pg-pane-head' }, [
						el(doc, 'h2', { text: 'Request', attrs: { id: 'request-heading' } }),
						modes,
						el(doc, 'label', { className: 'pg-timeout', attrs: { for: 'timeout' } }, ['Timeout (ms)']),
						timeout,
					]),
					editor,
					issues,
					el(doc, 'details', { className: 'pg-preview', attrs: { id: 'preview-section', open: '' } }, [
						el(doc, 'summary', { text: 'Request preview (credentials masked)' }),
						preview,
					]),
					el(doc, 'details', { className: 'pg-history', attrs: { id: 'history-section' } }, [
						el(doc, 'summary', { text: 'History' }),
						el(doc, 'div', { className: 'pg-history-bar' }, [
							search,
							button(doc, 'Clear history', () => actions.historyClear(), {
								className: SECONDARY,
								attrs: { id: 'history-clear' },
							}),
						]),
						history,
					]),
				],
			),
			el(
				doc,
				'section',
				{ className: 'pg-pane pg-response-pane', attrs: { 'aria-labelledby': 'response-heading' } },
				[
					el(doc, 'div', { className: 'pg-pane-head' }, [
						el(doc, 'h2', { text: 'Response', attrs: { id: 'response-heading' } }),
					]),
					response,
					comparison,
				],
			),
		]),
	];

	const syncToolbar = (form: PlaygroundForm): void => {
		operation.value = form.operation;
		for (const input of [...bindings.querySelectorAll('input'), ...modes.querySelectorAll('input')]) {
			input.checked = input.value === (input.name === 'binding' ? form.binding : form.mode);
		}
		acceptedTimeout = String(form.timeoutMs);
		timeout.value = acceptedTimeout;
	};
	return {
		elements,
		layout: {
			connection,
			operation,
			timeout,
			send,
			cancel,
			more,
			notice,
			editor,
			issues,
			preview,
			response,
			comparison,
			history,
			syncToolbar,
		},
	};
}
