/**
 * The request playground webview. Builds the form from the catalogue, shows the host's preview,
 * responses, comparisons and history. Service data is always rendered as text (textContent), never
 * as HTML. Credentials never arrive here: credential fields hold `{{connection.*}}` placeholders.
 */
import { BINDING_LABELS, BINDING_NAMES } from '../../protocol/bindings/types';
import {
	OPERATIONS,
	OPERATION_NAMES,
	VALUE_SETS,
	type OperationName,
	type ParamSpec,
	type ValueSet,
} from '../../protocol/catalogue';
import type {
	ComparisonView,
	ConnectionView,
	HistorySummary,
	HostToWebview,
	IssueView,
	PlaygroundBinding,
	PlaygroundForm,
	RequestView,
	ResponseView,
	WebviewToHost,
} from '../../shared/playgroundMessages';

interface SavedState {
	form: PlaygroundForm;
}

/** The part of the webview API this panel uses (the global is injected by VS Code). */
interface WebviewApi {
	postMessage(message: unknown): void;
	getState(): SavedState | undefined;
	setState(state: SavedState): void;
}
declare function acquireVsCodeApi(): WebviewApi;

const vscode = acquireVsCodeApi();
const post = (message: WebviewToHost): void => vscode.postMessage(message);

const DEFAULT_TIMEOUT_MS = 30_000;
/** Most rows a result table renders; the rest is summarised. */
const MAX_ROWS = 500;

let connection: ConnectionView | undefined;
let placeholders: Record<string, string> = {};
let form: PlaygroundForm = vscode.getState()?.form ?? freshForm('GetCurrency');
let busy = false;
let previewTimer: ReturnType<typeof setTimeout> | undefined;
let historyTimer: ReturnType<typeof setTimeout> | undefined;

// ---- small DOM helpers -------------------------------------------------------------------------

type Child = Node | string | undefined | false;

/** Creates an element; strings become text nodes, so data is never parsed as HTML. */
function h<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	props: Partial<Record<string, string>> = {},
	...children: Child[]
): HTMLElementTagNameMap[K] {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(props)) {
		if (value !== undefined) element.setAttribute(name, value);
	}
	for (const child of children) {
		if (child === undefined || child === false) continue;
		element.append(typeof child === 'string' ? document.createTextNode(child) : child);
	}
	return element;
}

function button(label: string, onClick: () => void, props: Partial<Record<string, string>> = {}): HTMLButtonElement {
	const element = h('button', { type: 'button', ...props }, label);
	element.addEventListener('click', onClick);
	return element;
}

function byId<T extends HTMLElement>(id: string): T {
	return document.getElementById(id) as T;
}

// ---- form state --------------------------------------------------------------------------------

function defaultParams(operation: OperationName): Record<string, string | string[]> {
	const params: Record<string, string | string[]> = {};
	for (const param of OPERATIONS[operation].params) {
		if (param.role) params[param.name] = placeholders[param.role] ?? `{{connection.${param.role}}}`;
		else if (param.type === 'string[]') params[param.name] = [];
		else params[param.name] = param.default === undefined ? '' : String(param.default);
	}
	return params;
}

function freshForm(operation: OperationName): PlaygroundForm {
	return {
		mode: 'form',
		operation,
		binding: 'soap11',
		params: defaultParams(operation),
		raw: { method: 'POST', target: '', headersText: 'Content-Type: text/xml; charset=utf-8', body: '' },
		timeoutMs: DEFAULT_TIMEOUT_MS,
	};
}

function currentOperation(): OperationName {
	return (OPERATION_NAMES as string[]).includes(form.operation) ? (form.operation as OperationName) : 'GetCurrency';
}

/** Records the form, persists it and asks the host for a fresh preview (debounced). */
function changed(): void {
	vscode.setState({ form });
	clearTimeout(previewTimer);
	previewTimer = setTimeout(() => post({ type: 'formChanged', form }), 150);
}

// ---- layout ------------------------------------------------------------------------------------

function renderLayout(): void {
	const root = byId<HTMLDivElement>('root');
	root.replaceChildren(
		h(
			'header',
			{ class: 'pg-header' },
			h('h1', {}, 'Request Playground'),
			h('span', { id: 'connection', class: 'pg-connection' }),
		),
		h(
			'div',
			{ class: 'pg-toolbar', role: 'toolbar', 'aria-label': 'Request' },
			h('label', { for: 'operation' }, 'Operation'),
			h('select', { id: 'operation' }),
			h('fieldset', { id: 'bindings', class: 'pg-bindings' }, h('legend', {}, 'Binding')),
			h('fieldset', { id: 'modes', class: 'pg-modes' }, h('legend', {}, 'Mode')),
			h('label', { for: 'timeout' }, 'Timeout (ms)'),
			h('input', { id: 'timeout', type: 'text', inputmode: 'numeric', size: '7' }),
		),
		h(
			'div',
			{ class: 'pg-actions', role: 'toolbar', 'aria-label': 'Actions' },
			button('Send', send, { id: 'send', class: 'primary', title: 'Send (Ctrl+Enter)' }),
			button('Cancel', () => post({ type: 'cancel' }), { id: 'cancel', disabled: '' }),
			button('Compare bindings', () => startBusy({ type: 'compare', form }), { id: 'compare' }),
			button('Copy as curl', () => post({ type: 'copyCurl', form }), { id: 'copy-curl' }),
			button('Copy as client call', () => post({ type: 'copyClient', form }), { id: 'copy-client' }),
			button('Save as file…', () => post({ type: 'save', form }), { id: 'save' }),
			button('Posting WSDL', () => post({ type: 'openWsdl', endpoint: 'posting' }), { id: 'wsdl-posting' }),
			button('Administration WSDL', () => post({ type: 'openWsdl', endpoint: 'administration' }), {
				id: 'wsdl-admin',
			}),
		),
		h('div', { id: 'notice', class: 'pg-notice', role: 'status', 'aria-live': 'polite' }),
		h(
			'main',
			{ class: 'pg-columns' },
			h(
				'section',
				{ class: 'pg-editor', 'aria-label': 'Request editor' },
				h('div', { id: 'editor' }),
				h('ul', { id: 'issues', class: 'pg-issues', 'aria-label': 'Problems' }),
			),
			h(
				'section',
				{ class: 'pg-output', 'aria-label': 'Request and response' },
				h('h2', {}, 'Request preview'),
				h('pre', { id: 'preview', class: 'pg-pre', tabindex: '0', 'aria-label': 'Request preview' }),
				h('h2', {}, 'Response'),
				h('div', { id: 'response' }, h('p', { class: 'pg-muted' }, 'Nothing sent yet.')),
			),
		),
		h('section', { id: 'comparison', class: 'pg-comparison', hidden: '', 'aria-label': 'Binding comparison' }),
		h(
			'section',
			{ class: 'pg-history', 'aria-label': 'History' },
			h('h2', {}, 'History'),
			h(
				'div',
				{ class: 'pg-history-bar' },
				h('input', {
					id: 'history-search',
					type: 'search',
					placeholder: 'Search operation, status, bodies…',
					'aria-label': 'Search history',
				}),
				button('Clear history', () => post({ type: 'historyClear' }), { id: 'history-clear' }),
			),
			h('ol', { id: 'history', class: 'pg-history-list' }),
		),
	);

	const operation = byId<HTMLSelectElement>('operation');
	for (const endpoint of ['posting', 'administration'] as const) {
		const group = h('optgroup', { label: endpoint === 'posting' ? 'Posting endpoint' : 'Administration endpoint' });
		for (const name of OPERATION_NAMES.filter((op) => OPERATIONS[op].endpoint === endpoint)) {
			group.append(h('option', { value: name }, name));
		}
		operation.append(group);
	}
	operation.addEventListener('change', () => {
		const name = operation.value as OperationName;
		form = { ...freshForm(name), binding: form.binding, mode: form.mode, timeoutMs: form.timeoutMs, raw: form.raw };
		renderEditor();
		changed();
	});

	const bindings = byId<HTMLFieldSetElement>('bindings');
	for (const binding of BINDING_NAMES) {
		const input = h('input', { type: 'radio', name: 'binding', id: `binding-${binding}`, value: binding });
		input.addEventListener('change', () => {
			form = { ...form, binding: binding as PlaygroundBinding };
			changed();
		});
		bindings.append(h('label', { for: `binding-${binding}`, class: 'pg-radio' }, input, BINDING_LABELS[binding]));
	}
	const modes = byId<HTMLFieldSetElement>('modes');
	for (const [mode, label] of [
		['form', 'Form'],
		['raw', 'Raw HTTP'],
	] as const) {
		const input = h('input', { type: 'radio', name: 'mode', id: `mode-${mode}`, value: mode });
		input.addEventListener('change', () => {
			if (mode === 'raw' && form.raw.body.length === 0) {
				// Start raw mode from the form's request, placeholders kept.
				post({ type: 'rawFromForm', form });
				return;
			}
			form = { ...form, mode };
			renderEditor();
			changed();
		});
		modes.append(h('label', { for: `mode-${mode}`, class: 'pg-radio' }, input, label));
	}
	const timeout = byId<HTMLInputElement>('timeout');
	timeout.addEventListener('change', () => {
		const value = Number(timeout.value);
		if (Number.isInteger(value) && value >= 100 && value <= 600_000) {
			form = { ...form, timeoutMs: value };
			changed();
		} else {
			showNotice('error', 'The timeout must be a whole number of milliseconds between 100 and 600000.');
			timeout.value = String(form.timeoutMs);
		}
	});
	const search = byId<HTMLInputElement>('history-search');
	search.addEventListener('input', () => {
		clearTimeout(historyTimer);
		historyTimer = setTimeout(() => post({ type: 'historySearch', query: search.value }), 200);
	});
	document.addEventListener('keydown', (event) => {
		if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
			event.preventDefault();
			send();
		}
	});
}

/** Puts the form's operation, binding, mode and timeout into the toolbar, then the editor. */
function syncToolbar(): void {
	byId<HTMLSelectElement>('operation').value = currentOperation();
	const binding = byId<HTMLInputElement>(`binding-${form.binding}`);
	if (binding) binding.checked = true;
	byId<HTMLInputElement>(`mode-${form.mode}`).checked = true;
	byId<HTMLInputElement>('timeout').value = String(form.timeoutMs);
	renderEditor();
}

// ---- editor ------------------------------------------------------------------------------------

function renderEditor(): void {
	const editor = byId<HTMLDivElement>('editor');
	const operation = currentOperation();
	const spec = OPERATIONS[operation];
	const endpointPath =
		spec.endpoint === 'posting' ? (connection?.postingPath ?? '') : (connection?.administrationPath ?? '');
	const heading = h('p', { class: 'pg-muted' }, `${spec.doc} Endpoint: ${spec.endpoint} ${endpointPath}`.trim());
	if (form.mode === 'raw') {
		editor.replaceChildren(heading, renderRawEditor());
		return;
	}
	const fields = h('div', { class: 'pg-form' });
	for (const param of spec.params) fields.append(renderParam(param));
	editor.replaceChildren(heading, fields);
}

function renderParam(param: ParamSpec): HTMLElement {
	const id = `param-${param.name}`;
	const type = param.type + (param.format ? ` (${param.format})` : '');
	const label = h(
		'label',
		{ for: id, class: 'pg-label' },
		h('span', { class: 'pg-name' }, param.name),
		h('span', { class: 'pg-type' }, type),
	);
	const row = h('div', { class: 'pg-field', 'data-param': param.name }, label);
	if (param.doc) row.append(h('span', { class: 'pg-doc', id: `${id}-doc` }, param.doc));
	if (param.type === 'string[]') {
		row.append(renderList(param, id));
		return row;
	}
	const value = typeof form.params[param.name] === 'string' ? (form.params[param.name] as string) : '';
	const set = param.valueSet ? (VALUE_SETS as Record<string, ValueSet>)[param.valueSet] : undefined;
	let control: HTMLInputElement | HTMLSelectElement;
	if (param.type === 'boolean' || set?.closed) {
		const select = h(
			'select',
			{ id, 'aria-describedby': `${id}-doc` },
			h(
				'option',
				{ value: '' },
				param.default === undefined ? '(not sent)' : `(default: ${String(param.default)})`,
			),
		);
		const choices =
			param.type === 'boolean'
				? [
						{ value: 'true', label: 'true' },
						{ value: 'false', label: 'false' },
					]
				: (set?.values ?? []);
		for (const choice of choices) {
			select.append(
				h(
					'option',
					{ value: choice.value },
					choice.value === choice.label ? choice.value : `${choice.value} (${choice.label})`,
				),
			);
		}
		select.value = value;
		control = select;
	} else {
		const input = h('input', {
			id,
			type: 'text',
			spellcheck: 'false',
			'aria-describedby': `${id}-doc`,
			autocomplete: 'off',
		});
		if (param.type === 'int') input.setAttribute('inputmode', 'numeric');
		if (set) {
			const listId = `${id}-choices`;
			input.setAttribute('list', listId);
			row.append(
				h(
					'datalist',
					{ id: listId },
					...set.values.map((choice) => h('option', { value: choice.value }, choice.label)),
				),
			);
		}
		input.value = value;
		control = input;
	}
	if (param.role) {
		const secret = param.role === 'apiKey' || param.role === 'password';
		row.classList.add('pg-credential');
		label.append(h('span', { class: 'pg-badge' }, secret ? 'from connection, hidden' : 'from connection'));
		if (secret && control instanceof HTMLInputElement && !value.startsWith('{{connection.')) {
			control.type = 'password';
		}
	}
	control.addEventListener(control instanceof HTMLSelectElement ? 'change' : 'input', () => {
		form = { ...form, params: { ...form.params, [param.name]: control.value } };
		changed();
	});
	row.append(control);
	return row;
}

function renderList(param: ParamSpec, id: string): HTMLElement {
	const items = Array.isArray(form.params[param.name]) ? [...(form.params[param.name] as string[])] : [];
	const list = h('div', { class: 'pg-list', id, role: 'group', 'aria-label': `${param.name} items` });
	const update = (next: string[], rerender: boolean): void => {
		form = { ...form, params: { ...form.params, [param.name]: next } };
		changed();
		if (rerender) list.replaceWith(renderList(param, id));
	};
	items.forEach((item, index) => {
		const input = h('input', {
			type: 'text',
			value: item,
			'aria-label': `${param.name} item ${index + 1}`,
			spellcheck: 'false',
		});
		input.addEventListener('input', () => {
			const next = [...items];
			next[index] = input.value;
			items[index] = input.value;
			update(next, false);
		});
		list.append(
			h(
				'div',
				{ class: 'pg-list-item' },
				input,
				button(
					'Remove',
					() =>
						update(
							items.filter((_, i) => i !== index),
							true,
						),
					{ 'aria-label': `Remove ${param.name} item ${index + 1}` },
				),
			),
		);
	});
	list.append(
		button(`Add ${param.itemElement ?? 'item'}`, () => update([...items, ''], true), {
			'aria-label': `Add a ${param.name} item`,
		}),
	);
	return list;
}

function renderRawEditor(): HTMLElement {
	const method = h('input', {
		id: 'raw-method',
		type: 'text',
		value: form.raw.method,
		size: '8',
		spellcheck: 'false',
		'aria-label': 'Method',
	});
	const target = h('input', {
		id: 'raw-target',
		type: 'text',
		value: form.raw.target,
		spellcheck: 'false',
		'aria-label': 'Path and query',
	});
	const headers = h('textarea', {
		id: 'raw-headers',
		rows: '5',
		spellcheck: 'false',
		'aria-label': 'Headers, one "Name: value" per line',
	});
	headers.value = form.raw.headersText;
	const body = h('textarea', { id: 'raw-body', rows: '16', spellcheck: 'false', 'aria-label': 'Body' });
	body.value = form.raw.body;
	const update = (): void => {
		form = {
			...form,
			raw: { method: method.value, target: target.value, headersText: headers.value, body: body.value },
		};
		changed();
	};
	for (const element of [method, target, headers, body]) element.addEventListener('input', update);
	return h(
		'div',
		{ class: 'pg-raw' },
		h(
			'p',
			{ class: 'pg-muted' },
			'Sent exactly as written, malformed or not. {{connection.apiKey}} and the other placeholders are filled in when sending. The operation and binding above are used to decode the response.',
		),
		h(
			'div',
			{ class: 'pg-raw-line' },
			h('label', { for: 'raw-method' }, 'Method'),
			method,
			h('label', { for: 'raw-target' }, 'Path'),
			target,
		),
		h('label', { for: 'raw-headers' }, 'Headers'),
		headers,
		h('label', { for: 'raw-body' }, 'Body'),
		body,
		button('Reset from form', () => post({ type: 'rawFromForm', form }), { id: 'raw-reset' }),
	);
}

// ---- output ------------------------------------------------------------------------------------

function requestText(request: RequestView): string {
	return [
		`${request.method} ${request.url}`,
		...request.headers.map(([name, value]) => `${name}: ${value}`),
		'',
		request.body,
	].join('\n');
}

function renderPreview(request: RequestView | undefined, issues: IssueView[], error?: string): void {
	byId<HTMLPreElement>('preview').textContent = request ? requestText(request) : (error ?? '');
	const list = byId<HTMLUListElement>('issues');
	list.replaceChildren(...issues.map((issue) => h('li', {}, issue.message)));
	if (error) list.append(h('li', {}, error));
	for (const row of document.querySelectorAll<HTMLElement>('.pg-field')) {
		row.classList.toggle(
			'pg-invalid',
			issues.some((issue) => issue.param === row.dataset.param),
		);
	}
}

function renderResponse(response: ResponseView): void {
	const container = byId<HTMLDivElement>('response');
	const parts: Node[] = [];
	const timing = `${Math.round(response.timings.totalMs)} ms${response.timings.headersMs !== undefined ? ` (headers after ${Math.round(response.timings.headersMs)} ms)` : ''}`;
	const statusClass =
		response.error !== undefined || response.fault || (response.status ?? 0) >= 400
			? 'pg-status pg-bad'
			: 'pg-status pg-good';
	parts.push(
		h(
			'p',
			{ class: statusClass, id: 'status-line' },
			response.status !== undefined ? `HTTP ${response.status}` : 'No response',
			` · ${response.size} bytes · ${timing} · ${new Date(response.timings.startedAt).toLocaleTimeString()}`,
		),
	);
	if (response.error !== undefined) parts.push(h('p', { class: 'pg-error', role: 'alert' }, response.error));
	if (response.fault) {
		const fault = response.fault;
		parts.push(
			h(
				'div',
				{ class: 'pg-fault', role: 'alert', id: 'fault' },
				h('strong', {}, 'SOAP fault'),
				h(
					'dl',
					{},
					h('dt', {}, 'Code'),
					h('dd', {}, fault.code),
					fault.subcode !== undefined && h('dt', {}, 'Subcode'),
					fault.subcode !== undefined && h('dd', {}, fault.subcode),
					h('dt', {}, 'Message'),
					h('dd', {}, fault.message),
					fault.detail !== undefined && h('dt', {}, 'Detail'),
					fault.detail !== undefined && h('dd', {}, fault.detail),
				),
			),
		);
	}
	if (response.decodeError !== undefined) {
		parts.push(h('p', { class: 'pg-error' }, `Not decodable as ${form.operation}: ${response.decodeError}`));
	}
	const tabs: [string, () => Node][] = [
		['Body', () => h('pre', { class: 'pg-pre', tabindex: '0', id: 'body-raw' }, response.bodyText)],
		[
			'Pretty',
			() =>
				response.pretty !== undefined
					? h('pre', { class: 'pg-pre', tabindex: '0', id: 'body-pretty' }, response.pretty)
					: h(
							'p',
							{ class: 'pg-error', id: 'body-pretty' },
							response.prettyError
								? `${response.prettyError.message}${response.prettyError.line > 0 ? ` (line ${response.prettyError.line}, column ${response.prettyError.column})` : ''}`
								: 'Empty body.',
						),
		],
		[
			'Result',
			() =>
				response.result !== undefined
					? renderValue(response.result)
					: h(
							'p',
							{ class: 'pg-muted' },
							response.fault ? 'The service answered with a fault.' : 'No decoded result.',
						),
		],
		[
			'Headers',
			() =>
				h(
					'table',
					{ class: 'pg-table' },
					...response.headers.map(([name, value]) =>
						h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, value)),
					),
				),
		],
		['Sent request', () => h('pre', { class: 'pg-pre', tabindex: '0' }, requestText(response.request))],
	];
	parts.push(renderTabs(tabs, response.pretty !== undefined ? 1 : 0));
	container.replaceChildren(...parts);
}

/** Accessible tabs: arrow keys move between tabs, the panel shows the chosen one. */
function renderTabs(tabs: [string, () => Node][], initial: number): HTMLElement {
	const list = h('div', { role: 'tablist', class: 'pg-tabs' });
	const panel = h('div', { role: 'tabpanel', class: 'pg-tabpanel' });
	const buttons = tabs.map(([label], index) => {
		const tab = h(
			'button',
			{ type: 'button', role: 'tab', id: `tab-${label.replace(/\s+/g, '-').toLowerCase()}` },
			label,
		);
		tab.addEventListener('click', () => select(index));
		tab.addEventListener('keydown', (event) => {
			if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
				const next = (index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length;
				select(next);
				buttons[next].focus();
			}
		});
		return tab;
	});
	const select = (index: number): void => {
		buttons.forEach((tab, i) => {
			tab.setAttribute('aria-selected', String(i === index));
			tab.tabIndex = i === index ? 0 : -1;
		});
		panel.replaceChildren(tabs[index][1]());
	};
	list.append(...buttons);
	select(initial);
	return h('div', {}, list, panel);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalarText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'object') return Array.isArray(value) ? `[${value.length} items]` : '{…}';
	const text = String(value);
	return text.length > 200 ? `${text.slice(0, 197)}…` : text;
}

/** A decoded result: lists of records as tables, records as key/value tables, nesting as details. */
function renderValue(value: unknown, depth = 0): Node {
	if (Array.isArray(value)) {
		if (value.length === 0) return h('p', { class: 'pg-muted' }, 'Empty list.');
		if (value.every(isPlainObject)) {
			const columns = [...new Set(value.flatMap((item) => Object.keys(item)))];
			const scalarColumns = columns.filter((column) =>
				value.every((item) => !isPlainObject(item[column]) && !Array.isArray(item[column])),
			);
			const nestedColumns = columns.filter((column) => !scalarColumns.includes(column));
			const table = h(
				'table',
				{ class: 'pg-table pg-result-table' },
				h(
					'thead',
					{},
					h(
						'tr',
						{},
						h('th', { scope: 'col' }, '#'),
						...scalarColumns.map((column) => h('th', { scope: 'col' }, column)),
						nestedColumns.length > 0 && h('th', { scope: 'col' }, 'Nested'),
					),
				),
			);
			const body = h('tbody');
			value.slice(0, MAX_ROWS).forEach((item, index) => {
				const nested =
					nestedColumns.length > 0 && depth < 6
						? h(
								'td',
								{},
								...nestedColumns
									.filter((column) => item[column] !== undefined)
									.map((column) =>
										h(
											'details',
											{},
											h('summary', {}, column),
											renderValue(item[column], depth + 1),
										),
									),
							)
						: undefined;
				body.append(
					h(
						'tr',
						{},
						h('td', {}, String(index)),
						...scalarColumns.map((column) => h('td', {}, scalarText(item[column]))),
						nested,
					),
				);
			});
			table.append(body);
			const note =
				value.length > MAX_ROWS
					? h('p', { class: 'pg-muted' }, `Showing ${MAX_ROWS} of ${value.length} rows.`)
					: undefined;
			return h('div', { class: 'pg-scroll' }, table, note);
		}
		return h(
			'ol',
			{},
			...value
				.slice(0, MAX_ROWS)
				.map((item) => h('li', {}, depth < 6 ? renderValue(item, depth + 1) : scalarText(item))),
		);
	}
	if (isPlainObject(value)) {
		const table = h('table', { class: 'pg-table' });
		for (const [key, item] of Object.entries(value)) {
			const cell =
				(isPlainObject(item) || Array.isArray(item)) && depth < 6
					? h(
							'td',
							{},
							h(
								'details',
								{ open: depth === 0 ? '' : undefined },
								h('summary', {}, scalarText(item)),
								renderValue(item, depth + 1),
							),
						)
					: h('td', {}, scalarText(item));
			table.append(h('tr', {}, h('th', { scope: 'row' }, key), cell));
		}
		return table;
	}
	return h('p', {}, scalarText(value));
}

function renderComparison(comparison: ComparisonView): void {
	const section = byId<HTMLElement>('comparison');
	section.hidden = false;
	const summary = h(
		'table',
		{ class: 'pg-table' },
		h(
			'thead',
			{},
			h(
				'tr',
				{},
				h('th', { scope: 'col' }, 'Binding'),
				h('th', { scope: 'col' }, 'Status'),
				h('th', { scope: 'col' }, 'Outcome'),
				h('th', { scope: 'col' }, 'Result vs SOAP 1.1'),
			),
		),
		h(
			'tbody',
			{},
			...comparison.columns.map((column) => {
				const result = comparison.results.find((entry) => entry.binding === column.binding);
				const verdict = !result
					? 'baseline'
					: result.equal
						? 'identical'
						: `${result.differences.length} difference(s)`;
				return h(
					'tr',
					{},
					h('th', { scope: 'row' }, column.label),
					h('td', {}, column.status === undefined ? '–' : String(column.status)),
					h('td', {}, column.summary),
					h('td', { class: result && !result.equal ? 'pg-bad' : 'pg-good' }, verdict),
				);
			}),
		),
	);
	const differences = comparison.results
		.filter((entry) => !entry.equal)
		.map((entry) =>
			h(
				'div',
				{},
				h('h4', {}, `${BINDING_LABELS[entry.binding]} vs SOAP 1.1`),
				h('ul', { class: 'pg-differences' }, ...entry.differences.map((line) => h('li', {}, line))),
			),
		);
	const bodies = h(
		'div',
		{ class: 'pg-side-by-side' },
		...comparison.columns.map((column) =>
			h('div', {}, h('h4', {}, column.label), h('pre', { class: 'pg-pre' }, column.pretty)),
		),
	);
	const diffs = comparison.bodies.map((entry) =>
		h(
			'details',
			{},
			h('summary', {}, `Body diff: SOAP 1.1 → ${BINDING_LABELS[entry.binding]}`),
			h(
				'pre',
				{ class: 'pg-pre pg-diff' },
				...entry.lines.map((line) =>
					h(
						'span',
						{ class: `pg-diff-${line.kind}` },
						`${line.kind === 'same' ? ' ' : line.kind === 'removed' ? '-' : '+'} ${line.text}\n`,
					),
				),
			),
		),
	);
	section.replaceChildren(
		h('h2', {}, `Binding comparison: ${comparison.operation}`),
		summary,
		...(differences.length > 0
			? differences
			: [h('p', { class: 'pg-good' }, 'The decoded results are identical in all bindings.')]),
		h('h3', {}, 'Bodies (pretty-printed)'),
		bodies,
		...diffs,
	);
}

function renderHistory(entries: HistorySummary[]): void {
	const list = byId<HTMLOListElement>('history');
	if (entries.length === 0) {
		list.replaceChildren(h('li', { class: 'pg-muted' }, 'No exchanges yet.'));
		return;
	}
	list.replaceChildren(
		...entries.map((entry) => {
			const outcome = entry.status !== undefined ? `HTTP ${entry.status}` : 'no response';
			const label = `${new Date(entry.time).toLocaleString()} · ${entry.operation} · ${BINDING_LABELS[entry.binding as PlaygroundBinding] ?? entry.binding}${entry.mode === 'raw' ? ' (raw)' : ''} · ${outcome} · ${entry.totalMs} ms`;
			return h(
				'li',
				{},
				button(label, () => post({ type: 'historyOpen', id: entry.id }), {
					class: 'pg-link',
					title: entry.error ?? '',
				}),
			);
		}),
	);
}

function showNotice(level: 'info' | 'error', message: string): void {
	const notice = byId<HTMLDivElement>('notice');
	notice.className = `pg-notice pg-notice-${level}`;
	notice.textContent = message;
}

function setBusy(value: boolean): void {
	busy = value;
	for (const id of ['send', 'compare']) byId<HTMLButtonElement>(id).disabled = value;
	byId<HTMLButtonElement>('cancel').disabled = !value;
	document.body.classList.toggle('pg-busy', value);
}

function startBusy(message: WebviewToHost): void {
	if (busy) return;
	setBusy(true);
	showNotice('info', message.type === 'compare' ? 'Sending over all four bindings…' : 'Sending…');
	post(message);
}

function send(): void {
	startBusy({ type: 'send', form });
}

// ---- messages ----------------------------------------------------------------------------------

window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
	const message = event.data;
	switch (message.type) {
		case 'init':
			connection = message.connection;
			placeholders = message.placeholders;
			byId<HTMLSpanElement>('connection').textContent =
				`${message.connection.label} · ${message.connection.baseUrl}`;
			if (message.form) form = message.form;
			syncToolbar();
			changed();
			break;
		case 'connection':
			connection = message.connection;
			byId<HTMLSpanElement>('connection').textContent =
				`${message.connection.label} · ${message.connection.baseUrl}`;
			break;
		case 'load':
			form = message.form;
			syncToolbar();
			changed();
			break;
		case 'preview':
			renderPreview(message.request, message.issues, message.error);
			break;
		case 'busy':
			setBusy(true);
			break;
		case 'response':
			renderResponse(message.response);
			showNotice(
				message.response.error !== undefined || message.response.fault ? 'error' : 'info',
				message.response.error ??
					(message.response.fault
						? `Fault: ${message.response.fault.message}`
						: `HTTP ${message.response.status ?? ''} received.`),
			);
			break;
		case 'comparison':
			renderComparison(message.comparison);
			showNotice('info', 'Compared the four bindings.');
			break;
		case 'history':
			renderHistory(message.entries);
			break;
		case 'historyEntry':
			form = message.form;
			syncToolbar();
			changed();
			if (message.response) renderResponse(message.response);
			break;
		case 'done':
			setBusy(false);
			break;
		case 'notice':
			showNotice(message.level, message.message);
			break;
	}
});

renderLayout();
syncToolbar();
post({ type: 'ready' });
