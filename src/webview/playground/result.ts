/**
 * The decoded result. A list of records is a table numbered from 1 whose columns are chosen to fit
 * the width (the rest, and nested values, in a detail row under each record), with "Copy as CSV" and
 * "Copy as JSON"; a record is a key/value table; nesting opens as details. Dates show in the user's
 * locale with ISO in the tooltip.
 */
import { formatDateTime, looksLikeDateTime } from '../../shared/dates';
import { button, el } from '../common/dom';
import { chooseColumns, columnsForWidth, isPlainObject, toCsv, toJson, type Row } from './resultData';

/** Most rows a result table renders; the rest is summarised (copying takes them all). */
export const MAX_ROWS = 500;
/** Deepest nesting rendered as tables; deeper values are summarised. */
const MAX_DEPTH = 6;

export interface ResultContext {
	doc: Document;
	/** Width available to the table, in CSS pixels (decides how many columns show). */
	width: number;
	copy(label: string, text: string): void;
}

/** A scalar as one short line of text, and its tooltip (the full text, or ISO for a date). */
export function scalarCell(value: unknown): { text: string; title?: string } {
	if (value === null || value === undefined) return { text: '' };
	if (typeof value === 'object') return { text: Array.isArray(value) ? `[${value.length} items]` : '{…}' };
	const full = String(value);
	if (typeof value === 'string' && looksLikeDateTime(value)) {
		const date = formatDateTime(value);
		if (date) return { text: date.text, title: date.iso };
	}
	return full.length > 200 ? { text: `${full.slice(0, 197)}…`, title: full.slice(0, 2000) } : { text: full };
}

function cell(doc: Document, tag: 'td' | 'th', value: unknown, attrs: Record<string, string> = {}): HTMLElement {
	const { text, title } = scalarCell(value);
	return el(doc, tag, { text, attrs: { ...attrs, title } });
}

/** `path` makes the ids of nested detail rows unique (the numbers of the rows they sit in). */
export function renderValue(ctx: ResultContext, value: unknown, depth = 0, path = 'r'): Node {
	const { doc } = ctx;
	if (Array.isArray(value)) {
		if (value.length === 0) return el(doc, 'p', { className: 'pg-muted', text: 'Empty list.' });
		if (value.every(isPlainObject)) return renderRecords(ctx, value, depth, path);
		return el(
			doc,
			'ol',
			{},
			value
				.slice(0, MAX_ROWS)
				.map((item, index) =>
					el(doc, 'li', {}, [
						depth < MAX_DEPTH
							? renderValue(ctx, item, depth + 1, `${path}-${index + 1}`)
							: scalarCell(item).text,
					]),
				),
		);
	}
	if (isPlainObject(value)) return renderRecord(ctx, value, depth, path);
	return el(doc, 'p', { text: scalarCell(value).text });
}

/** One record as a key/value table; lists and records inside open as details. */
function renderRecord(ctx: ResultContext, record: Row, depth: number, path: string): HTMLElement {
	const { doc } = ctx;
	return el(
		doc,
		'table',
		{ className: 'pg-table pg-record' },
		Object.entries(record).map(([key, item]) => {
			const nested = (isPlainObject(item) || Array.isArray(item)) && depth < MAX_DEPTH;
			const value = nested
				? el(doc, 'td', {}, [
						el(doc, 'details', { attrs: { open: depth === 0 ? '' : undefined } }, [
							el(doc, 'summary', { text: scalarCell(item).text }),
							renderValue(ctx, item, depth + 1, `${path}-${key}`),
						]),
					])
				: cell(doc, 'td', item);
			return el(doc, 'tr', {}, [el(doc, 'th', { text: key, attrs: { scope: 'row' } }), value]);
		}),
	);
}

function renderRecords(ctx: ResultContext, records: Row[], depth: number, path: string): HTMLElement {
	const { doc } = ctx;
	const choice = chooseColumns(records, columnsForWidth(ctx.width));
	const hasDetail = choice.hidden.length > 0 || choice.nested.length > 0;
	const head = el(doc, 'thead', {}, [
		el(doc, 'tr', {}, [
			el(doc, 'th', { className: 'pg-rownum', text: '#', attrs: { scope: 'col' } }),
			...choice.shown.map((column) => el(doc, 'th', { text: column, attrs: { scope: 'col', title: column } })),
		]),
	]);
	const body = el(doc, 'tbody');
	records.slice(0, MAX_ROWS).forEach((record, index) => {
		const number = String(index + 1);
		const numberCell = el(doc, 'td', { className: 'pg-rownum' });
		const row = el(doc, 'tr', { attrs: { 'data-row': number } }, [
			numberCell,
			...choice.shown.map((column) => cell(doc, 'td', record[column])),
		]);
		body.append(row);
		if (!hasDetail) {
			numberCell.textContent = number;
			return;
		}
		const detailId = `pg-${path}-${number}`;
		const detail = el(doc, 'tr', { className: 'pg-detail-row', attrs: { id: detailId, hidden: '' } }, [
			el(doc, 'td', { attrs: { colspan: String(choice.shown.length + 1) } }, [
				renderRecord(ctx, record, depth + 1, `${path}-${number}`),
			]),
		]);
		const toggle = button(
			doc,
			number,
			() => {
				detail.hidden = !detail.hidden;
				toggle.setAttribute('aria-expanded', String(!detail.hidden));
			},
			{
				className: 'pg-link pg-row-toggle',
				title: `All fields of record ${number}`,
				attrs: { 'aria-expanded': 'false', 'aria-controls': detailId },
			},
		);
		numberCell.append(toggle);
		body.append(detail);
	});
	const hiddenCount = choice.hidden.length + choice.nested.length;
	return el(doc, 'div', { className: 'pg-result' }, [
		el(doc, 'div', { className: 'pg-result-bar' }, [
			el(doc, 'span', {
				className: 'pg-muted',
				text: `${records.length} record${records.length === 1 ? '' : 's'} · ${choice.shown.length} columns${
					hiddenCount > 0 ? `, ${hiddenCount} more in each record's details (click its number)` : ''
				}`,
			}),
			button(doc, 'Copy as CSV', () => ctx.copy(`${records.length} records as CSV`, toCsv(records)), {
				className: 'mp-button mp-secondary',
				attrs: { id: depth === 0 ? 'copy-csv' : undefined },
			}),
			button(doc, 'Copy as JSON', () => ctx.copy(`${records.length} records as JSON`, toJson(records)), {
				className: 'mp-button mp-secondary',
				attrs: { id: depth === 0 ? 'copy-json' : undefined },
			}),
		]),
		el(doc, 'div', { className: 'pg-scroll' }, [
			el(doc, 'table', { className: 'pg-table pg-result-table' }, [head, body]),
		]),
		records.length > MAX_ROWS &&
			el(doc, 'p', {
				className: 'pg-muted',
				text: `Showing ${MAX_ROWS} of ${records.length} records; copying takes them all.`,
			}),
	]);
}
