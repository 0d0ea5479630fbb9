/**
 * The page skeleton: header with the connection, the request toolbar (operation, binding, mode,
 * timeout), the actions, a notice line, the editor and output columns, the comparison and the
 * history. Returns the elements the app fills; user actions go to `actions`.
 */
import { BINDING_LABELS, BINDING_NAMES } from '../../protocol/bindings/types';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../protocol/catalogue';
import type { PlaygroundBinding, PlaygroundForm } from '../../shared/playgroundMessages';
import { button, el } from '../common/dom';

export interface LayoutActions {
	operation(name: OperationName): void;
	binding(binding: PlaygroundBinding): void;
	mode(mode: PlaygroundForm['mode']): void;
	/** A timeout typed by the user; false when it was refused. */
	timeout(value: number): boolean;
	send(): void;
	cancel(): void;
	compare(): void;
	copyCurl(): void;
	copyClient(): void;
	save(): void;
	openWsdl(endpoint: 'posting' | 'administration'): void;
	historySearch(query: string): void;
	historyClear(): void;
}

export interface Layout {
	connection: HTMLElement;
	operation: HTMLSelectElement;
	timeout: HTMLInputElement;
	send: HTMLButtonElement;
	cancel: HTMLButtonElement;
	compare: HTMLButtonElement;
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

export function renderLayout(doc: Document, actions: LayoutActions): { elements: Node[]; layout: Layout } {
	const connection = el(doc, 'span', { className: 'pg-connection', attrs: { id: 'connection' } });
	const operation = el(doc, 'select', { attrs: { id: 'operation' } });
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
	const bindings = el(doc, 'fieldset', { className: 'pg-bindings', attrs: { id: 'bindings' } }, [
		el(doc, 'legend', { text: 'Binding' }),
		...BINDING_NAMES.map((binding) =>
			radio('binding', binding, BINDING_LABELS[binding], () => actions.binding(binding)),
		),
	]);
	const modes = el(doc, 'fieldset', { className: 'pg-modes', attrs: { id: 'modes' } }, [
		el(doc, 'legend', { text: 'Mode' }),
		radio('mode', 'form', 'Form', () => actions.mode('form')),
		radio('mode', 'raw', 'Raw HTTP', () => actions.mode('raw')),
	]);
	const timeout = el(doc, 'input', { attrs: { id: 'timeout', type: 'text', inputmode: 'numeric', size: '7' } });
	let acceptedTimeout = '';
	timeout.addEventListener('change', () => {
		const value = Number(timeout.value);
		if (!actions.timeout(value)) timeout.value = acceptedTimeout;
	});

	const send = button(doc, 'Send', () => actions.send(), {
		className: 'mp-button',
		title: 'Send (Ctrl+Enter)',
		attrs: { id: 'send' },
	});
	const cancel = button(doc, 'Cancel', () => actions.cancel(), {
		className: SECONDARY,
		attrs: { id: 'cancel', disabled: '' },
	});
	const compare = button(doc, 'Compare bindings', () => actions.compare(), {
		className: SECONDARY,
		attrs: { id: 'compare' },
	});
	const secondary = (label: string, id: string, run: () => void): HTMLButtonElement =>
		button(doc, label, run, { className: SECONDARY, attrs: { id } });

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
	const response = el(doc, 'div', { attrs: { id: 'response' } }, [
		el(doc, 'p', { className: 'pg-muted', text: 'Nothing sent yet.' }),
	]);
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
		el(doc, 'div', { className: 'pg-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Request' } }, [
			el(doc, 'label', { text: 'Operation', attrs: { for: 'operation' } }),
			operation,
			bindings,
			modes,
			el(doc, 'label', { text: 'Timeout (ms)', attrs: { for: 'timeout' } }),
			timeout,
		]),
		el(doc, 'div', { className: 'pg-actions', attrs: { role: 'toolbar', 'aria-label': 'Actions' } }, [
			send,
			cancel,
			compare,
			secondary('Copy as curl', 'copy-curl', () => actions.copyCurl()),
			secondary('Copy as client call', 'copy-client', () => actions.copyClient()),
			secondary('Save as file…', 'save', () => actions.save()),
			secondary('Posting WSDL', 'wsdl-posting', () => actions.openWsdl('posting')),
			secondary('Administration WSDL', 'wsdl-admin', () => actions.openWsdl('administration')),
		]),
		notice,
		el(doc, 'main', { className: 'pg-columns' }, [
			el(doc, 'section', { className: 'pg-editor', attrs: { 'aria-label': 'Request editor' } }, [editor, issues]),
			el(doc, 'section', { className: 'pg-output', attrs: { 'aria-label': 'Request and response' } }, [
				el(doc, 'h2', { text: 'Request preview' }),
				preview,
				el(doc, 'h2', { text: 'Response' }),
				response,
			]),
		]),
		comparison,
		el(doc, 'section', { className: 'pg-history', attrs: { 'aria-label': 'History' } }, [
			el(doc, 'h2', { text: 'History' }),
			el(doc, 'div', { className: 'pg-history-bar' }, [
				search,
				button(doc, 'Clear history', () => actions.historyClear(), {
					className: SECONDARY,
					attrs: { id: 'history-clear' },
				}),
			]),
			history,
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
			compare,
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
