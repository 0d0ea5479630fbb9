/** The decoded result: lists of records as tables, records as key/value tables, nesting as details. */
import { el } from '../common/dom';

/** Most rows a result table renders; the rest is summarised. */
export const MAX_ROWS = 500;
/** Deepest nesting rendered as tables; deeper values are summarised. */
const MAX_DEPTH = 6;

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as one short line of text. */
export function scalarText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'object') return Array.isArray(value) ? `[${value.length} items]` : '{…}';
	const text = String(value);
	return text.length > 200 ? `${text.slice(0, 197)}…` : text;
}

export function renderValue(doc: Document, value: unknown, depth = 0): Node {
	if (Array.isArray(value)) {
		if (value.length === 0) return el(doc, 'p', { className: 'pg-muted', text: 'Empty list.' });
		if (value.every(isPlainObject)) return renderRecords(doc, value, depth);
		return el(
			doc,
			'ol',
			{},
			value
				.slice(0, MAX_ROWS)
				.map((item) =>
					el(doc, 'li', {}, [depth < MAX_DEPTH ? renderValue(doc, item, depth + 1) : scalarText(item)]),
				),
		);
	}
	if (isPlainObject(value)) {
		return el(
			doc,
			'table',
			{ className: 'pg-table' },
			Object.entries(value).map(([key, item]) => {
				const nested = (isPlainObject(item) || Array.isArray(item)) && depth < MAX_DEPTH;
				const cell = nested
					? el(doc, 'td', {}, [
							el(doc, 'details', { attrs: { open: depth === 0 ? '' : undefined } }, [
								el(doc, 'summary', { text: scalarText(item) }),
								renderValue(doc, item, depth + 1),
							]),
						])
					: el(doc, 'td', { text: scalarText(item) });
				return el(doc, 'tr', {}, [el(doc, 'th', { text: key, attrs: { scope: 'row' } }), cell]);
			}),
		);
	}
	return el(doc, 'p', { text: scalarText(value) });
}

function renderRecords(doc: Document, records: Record<string, unknown>[], depth: number): HTMLElement {
	const columns = [...new Set(records.flatMap((item) => Object.keys(item)))];
	const scalarColumns = columns.filter((column) =>
		records.every((item) => !isPlainObject(item[column]) && !Array.isArray(item[column])),
	);
	const nestedColumns = columns.filter((column) => !scalarColumns.includes(column));
	const head = el(doc, 'thead', {}, [
		el(doc, 'tr', {}, [
			el(doc, 'th', { text: '#', attrs: { scope: 'col' } }),
			...scalarColumns.map((column) => el(doc, 'th', { text: column, attrs: { scope: 'col' } })),
			nestedColumns.length > 0 && el(doc, 'th', { text: 'Nested', attrs: { scope: 'col' } }),
		]),
	]);
	const body = el(
		doc,
		'tbody',
		{},
		records.slice(0, MAX_ROWS).map((item, index) =>
			el(doc, 'tr', {}, [
				el(doc, 'td', { text: String(index) }),
				...scalarColumns.map((column) => el(doc, 'td', { text: scalarText(item[column]) })),
				nestedColumns.length > 0 &&
					depth < MAX_DEPTH &&
					el(
						doc,
						'td',
						{},
						nestedColumns
							.filter((column) => item[column] !== undefined)
							.map((column) =>
								el(doc, 'details', {}, [
									el(doc, 'summary', { text: column }),
									renderValue(doc, item[column], depth + 1),
								]),
							),
					),
			]),
		),
	);
	return el(doc, 'div', { className: 'pg-scroll' }, [
		el(doc, 'table', { className: 'pg-table pg-result-table' }, [head, body]),
		records.length > MAX_ROWS &&
			el(doc, 'p', { className: 'pg-muted', text: `Showing ${MAX_ROWS} of ${records.length} rows.` }),
	]);
}
