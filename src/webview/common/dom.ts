/**
 * Small DOM builders. Service data is only ever set with textContent or attribute values (never
 * innerHTML), so nothing a service returns is parsed as markup in the panel itself.
 */
import { formatDateTime, type DateFormatOptions } from '../../shared/dates';
import type { FieldGroup, FieldRow } from '../../shared/panelMessages';

export interface ElementOptions {
	className?: string;
	text?: string;
	attrs?: Record<string, string | undefined>;
}

/** A child of el(): strings become text nodes (never markup); undefined, null and false are skipped. */
export type Child = Node | string | undefined | null | false;

/** Creates an element. Attributes whose value is undefined are left out. */
export function el<K extends keyof HTMLElementTagNameMap>(
	doc: Document,
	tag: K,
	options: ElementOptions = {},
	children: Child[] = [],
): HTMLElementTagNameMap[K] {
	const element = doc.createElement(tag);
	if (options.className) element.className = options.className;
	if (options.text !== undefined) element.textContent = options.text;
	for (const [name, value] of Object.entries(options.attrs ?? {})) {
		if (value !== undefined) element.setAttribute(name, value);
	}
	for (const child of children) {
		if (child === undefined || child === null || child === false) continue;
		element.append(typeof child === 'string' ? doc.createTextNode(child) : child);
	}
	return element;
}

/** A button that runs `onClick`; keyboard reachable by Tab like every native button. */
export function button(
	doc: Document,
	label: string,
	onClick: () => void,
	options: { className?: string; title?: string; attrs?: Record<string, string | undefined> } = {},
): HTMLButtonElement {
	const b = el(doc, 'button', {
		className: options.className ?? 'mp-button',
		text: label,
		attrs: { type: 'button', title: options.title || undefined, ...options.attrs },
	});
	b.addEventListener('click', onClick);
	return b;
}

/**
 * The options of an element showing a date: its text in the user's locale and its ISO form as the
 * tooltip; `fallback` as plain text when `iso` is absent or not a date.
 */
export function dateOptions(
	iso: string | undefined,
	fallback: string,
	format: DateFormatOptions = {},
): { text: string; attrs: { title?: string } } {
	const date = iso ? formatDateTime(iso, format) : undefined;
	return date ? { text: date.text, attrs: { title: date.iso } } : { text: fallback, attrs: {} };
}

/** A definition list of label/value rows; date rows show in the user's locale, ISO in the tooltip. */
export function fieldList(doc: Document, rows: FieldRow[]): HTMLDListElement {
	const list = el(doc, 'dl', { className: 'mp-fields' });
	for (const row of rows) {
		list.appendChild(el(doc, 'dt', { text: row.label }));
		list.appendChild(el(doc, 'dd', dateOptions(row.iso, row.value)));
	}
	return list;
}

/** Titled sections of field lists. */
export function fieldGroups(doc: Document, groups: FieldGroup[]): HTMLElement {
	const wrap = el(doc, 'div', { className: 'mp-groups' });
	for (const group of groups) {
		wrap.appendChild(
			el(doc, 'section', { className: 'mp-group', attrs: { 'aria-label': group.title } }, [
				el(doc, 'h2', { text: group.title }),
				fieldList(doc, group.rows),
			]),
		);
	}
	return wrap;
}

/** A polite live region line for errors and progress. */
export function notice(doc: Document, text: string, kind: 'error' | 'info' | 'warning' = 'info'): HTMLElement {
	return el(doc, 'p', {
		className: `mp-notice mp-notice-${kind}`,
		text,
		attrs: { role: kind === 'error' ? 'alert' : 'status' },
	});
}

export function clear(element: Element): void {
	while (element.firstChild) element.removeChild(element.firstChild);
}

/** Human-readable byte size. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
