/**
 * The request editor: the operation's parameters as a form generated from the catalogue, or the
 * raw HTTP request. Pure DOM over the form it is given; every edit hands the next form to
 * `setForm`. Credential fields hold `{{connection.*}}` placeholders, never a secret.
 */
import { OPERATIONS, VALUE_SETS, type ParamSpec, type ValueSet } from '../../protocol/catalogue';
import { operationOf } from '../../shared/playgroundForms';
import type { ConnectionView, PlaygroundForm } from '../../shared/playgroundMessages';
import { button, el } from '../common/dom';

export interface EditorContext {
	doc: Document;
	connection?: ConnectionView;
	/** The form as it is now (edits build on it). */
	getForm(): PlaygroundForm;
	setForm(form: PlaygroundForm): void;
	/** Asks the host to rebuild the raw request from the form. */
	resetRaw(): void;
}

const SECONDARY = 'mp-button mp-secondary';

export function renderEditor(ctx: EditorContext): HTMLElement {
	const { doc } = ctx;
	const form = ctx.getForm();
	const spec = OPERATIONS[operationOf(form)];
	const endpointPath =
		spec.endpoint === 'posting' ? (ctx.connection?.postingPath ?? '') : (ctx.connection?.administrationPath ?? '');
	const heading = el(doc, 'p', {
		className: 'pg-muted',
		text: `${spec.doc} Endpoint: ${spec.endpoint} ${endpointPath}`.trim(),
	});
	if (form.mode === 'raw') return el(doc, 'div', {}, [heading, renderRawEditor(ctx)]);
	return el(doc, 'div', {}, [
		heading,
		el(
			doc,
			'div',
			{ className: 'pg-form' },
			spec.params.map((param) => renderParam(ctx, param)),
		),
	]);
}

function setParam(ctx: EditorContext, name: string, value: string | string[]): void {
	const form = ctx.getForm();
	ctx.setForm({ ...form, params: { ...form.params, [name]: value } });
}

export function renderParam(ctx: EditorContext, param: ParamSpec): HTMLElement {
	const { doc } = ctx;
	const form = ctx.getForm();
	const id = `param-${param.name}`;
	const type = param.type + (param.format ? ` (${param.format})` : '');
	const label = el(doc, 'label', { className: 'pg-label', attrs: { for: id } }, [
		el(doc, 'span', { className: 'pg-name', text: param.name }),
		el(doc, 'span', { className: 'pg-type', text: type }),
	]);
	const row = el(doc, 'div', { className: 'pg-field', attrs: { 'data-param': param.name } }, [label]);
	if (param.doc) row.append(el(doc, 'span', { className: 'pg-doc', text: param.doc, attrs: { id: `${id}-doc` } }));
	if (param.type === 'string[]') {
		row.append(renderList(ctx, param, id));
		return row;
	}
	const current = form.params[param.name];
	const value = typeof current === 'string' ? current : '';
	const set = param.valueSet ? (VALUE_SETS as Record<string, ValueSet>)[param.valueSet] : undefined;
	const describedBy = param.doc ? `${id}-doc` : undefined;
	let control: HTMLInputElement | HTMLSelectElement;
	if (param.type === 'boolean' || set?.closed) {
		const choices =
			param.type === 'boolean'
				? [
						{ value: 'true', label: 'true' },
						{ value: 'false', label: 'false' },
					]
				: (set?.values ?? []);
		const select = el(doc, 'select', { attrs: { id, 'aria-describedby': describedBy } }, [
			el(doc, 'option', {
				text: param.default === undefined ? '(not sent)' : `(default: ${String(param.default)})`,
				attrs: { value: '' },
			}),
			...choices.map((choice) =>
				el(doc, 'option', {
					text: choice.value === choice.label ? choice.value : `${choice.value} (${choice.label})`,
					attrs: { value: choice.value },
				}),
			),
		]);
		select.value = value;
		control = select;
	} else {
		const input = el(doc, 'input', {
			attrs: {
				id,
				type: 'text',
				spellcheck: 'false',
				autocomplete: 'off',
				'aria-describedby': describedBy,
				inputmode: param.type === 'int' ? 'numeric' : undefined,
			},
		});
		if (set) {
			const listId = `${id}-choices`;
			input.setAttribute('list', listId);
			row.append(
				el(
					doc,
					'datalist',
					{ attrs: { id: listId } },
					set.values.map((choice) =>
						el(doc, 'option', { text: choice.label, attrs: { value: choice.value } }),
					),
				),
			);
		}
		input.value = value;
		control = input;
	}
	if (param.role) {
		const secret = param.role === 'apiKey' || param.role === 'password';
		row.classList.add('pg-credential');
		label.append(
			el(doc, 'span', { className: 'pg-badge', text: secret ? 'from connection, hidden' : 'from connection' }),
		);
		if (secret && control.localName === 'input' && !value.startsWith('{{connection.')) {
			(control as HTMLInputElement).type = 'password';
		}
	}
	const isSelect = control.localName === 'select';
	control.addEventListener(isSelect ? 'change' : 'input', () => setParam(ctx, param.name, control.value));
	row.append(control);
	return row;
}

function renderList(ctx: EditorContext, param: ParamSpec, id: string): HTMLElement {
	const { doc } = ctx;
	const current = ctx.getForm().params[param.name];
	const items = Array.isArray(current) ? [...current] : [];
	const list = el(doc, 'div', {
		className: 'pg-list',
		attrs: { id, role: 'group', 'aria-label': `${param.name} items` },
	});
	const update = (next: string[], rerender: boolean): void => {
		setParam(ctx, param.name, next);
		if (rerender) list.replaceWith(renderList(ctx, param, id));
	};
	items.forEach((item, index) => {
		const input = el(doc, 'input', {
			attrs: { type: 'text', 'aria-label': `${param.name} item ${index + 1}`, spellcheck: 'false' },
		});
		input.value = item;
		input.addEventListener('input', () => {
			items[index] = input.value;
			update([...items], false);
		});
		list.append(
			el(doc, 'div', { className: 'pg-list-item' }, [
				input,
				button(
					doc,
					'Remove',
					() =>
						update(
							items.filter((_, i) => i !== index),
							true,
						),
					{ className: SECONDARY, attrs: { 'aria-label': `Remove ${param.name} item ${index + 1}` } },
				),
			]),
		);
	});
	list.append(
		button(doc, `Add ${param.itemElement ?? 'item'}`, () => update([...items, ''], true), {
			className: SECONDARY,
			attrs: { 'aria-label': `Add a ${param.name} item` },
		}),
	);
	return list;
}

function renderRawEditor(ctx: EditorContext): HTMLElement {
	const { doc } = ctx;
	const raw = ctx.getForm().raw;
	const method = el(doc, 'input', {
		attrs: { id: 'raw-method', type: 'text', size: '8', spellcheck: 'false', 'aria-label': 'Method' },
	});
	method.value = raw.method;
	const target = el(doc, 'input', {
		attrs: { id: 'raw-target', type: 'text', spellcheck: 'false', 'aria-label': 'Path and query' },
	});
	target.value = raw.target;
	const headers = el(doc, 'textarea', {
		attrs: {
			id: 'raw-headers',
			rows: '5',
			spellcheck: 'false',
			'aria-label': 'Headers, one "Name: value" per line',
		},
	});
	headers.value = raw.headersText;
	const body = el(doc, 'textarea', {
		attrs: { id: 'raw-body', rows: '16', spellcheck: 'false', 'aria-label': 'Body' },
	});
	body.value = raw.body;
	const update = (): void => {
		ctx.setForm({
			...ctx.getForm(),
			raw: { method: method.value, target: target.value, headersText: headers.value, body: body.value },
		});
	};
	for (const element of [method, target, headers, body]) element.addEventListener('input', update);
	return el(doc, 'div', { className: 'pg-raw' }, [
		el(doc, 'p', {
			className: 'pg-muted',
			text: 'Sent exactly as written, malformed or not. {{connection.apiKey}} and the other placeholders are filled in when sending. The operation and binding above are used to decode the response.',
		}),
		el(doc, 'div', { className: 'pg-raw-line' }, [
			el(doc, 'label', { text: 'Method', attrs: { for: 'raw-method' } }),
			method,
			el(doc, 'label', { text: 'Path', attrs: { for: 'raw-target' } }),
			target,
		]),
		el(doc, 'label', { text: 'Headers', attrs: { for: 'raw-headers' } }),
		headers,
		el(doc, 'label', { text: 'Body', attrs: { for: 'raw-body' } }),
		body,
		button(doc, 'Reset from form', () => ctx.resetRaw(), { className: SECONDARY, attrs: { id: 'raw-reset' } }),
	]);
}
