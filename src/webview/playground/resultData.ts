/**
 * The result table's data decisions, free of the DOM: which columns of a record list fit (chosen by
 * what the records hold), and the result as CSV or JSON for the clipboard.
 */

export type Row = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Row {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): boolean {
	return !isPlainObject(value) && !Array.isArray(value);
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

/** Width one column needs, in CSS pixels, when deciding how many fit. */
export const COLUMN_WIDTH = 130;
export const MIN_COLUMNS = 3;
export const MAX_COLUMNS = 10;

/** How many columns fit a width (at least 3, at most 10). */
export function columnsForWidth(width: number): number {
	if (!Number.isFinite(width) || width <= 0) return 6;
	return Math.max(MIN_COLUMNS, Math.min(MAX_COLUMNS, Math.floor(width / COLUMN_WIDTH)));
}

/** Lower is shown first: the record's own id, names and titles, states, dates, other ids, the rest. */
function rank(column: string, index: number, firstId: string | undefined): number {
	if (column === firstId) return 0;
	if (/(Title|Name|Description|Code|Value|Email|EmailAddress|Identifier|Reference|Tag)$/i.test(column)) return 1;
	if (/(Status|Score|Ranking|Progress|Favourite|Archived|Viewed)/i.test(column)) return 2;
	if (/Date/i.test(column)) return 3;
	if (/ID$/.test(column)) return 4;
	return 5 + index / 1000;
}

export interface ColumnChoice {
	/** Scalar columns shown in the table, most telling first. */
	shown: string[];
	/** Scalar columns with values that did not fit (in the detail view). */
	hidden: string[];
	/** Columns holding lists or records (in the detail view). */
	nested: string[];
}

/**
 * The columns of a record list: scalar columns that hold a value in at least one record, the most
 * telling first, as many as `max`; the rest and every nested column go to the detail view.
 */
export function chooseColumns(records: readonly Row[], max: number): ColumnChoice {
	const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
	const nested = columns.filter((column) => records.some((record) => !isScalar(record[column])));
	const scalar = columns.filter(
		(column) => !nested.includes(column) && records.some((record) => !isEmpty(record[column])),
	);
	// The record's own id: the first ID column whose values tell the records apart (CultureID does not).
	const distinct = (column: string): boolean =>
		records.length < 2 || new Set(records.map((record) => record[column])).size === records.length;
	const firstId = scalar.find((column) => /ID$/.test(column) && distinct(column));
	const ordered = scalar
		.map((column, index) => ({ column, rank: rank(column, index, firstId), index }))
		.sort((a, b) => a.rank - b.rank || a.index - b.index)
		.map((entry) => entry.column);
	return { shown: ordered.slice(0, max), hidden: ordered.slice(max), nested };
}

function csvCell(value: unknown): string {
	const text =
		value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
	return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Records as CSV (RFC 4180, CRLF line ends): every column, nested values as JSON. */
export function toCsv(records: readonly Row[]): string {
	const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
	const lines = [
		columns.map(csvCell).join(','),
		...records.map((record) => columns.map((c) => csvCell(record[c])).join(',')),
	];
	return `${lines.join('\r\n')}\r\n`;
}

/** A result as indented JSON. */
export function toJson(value: unknown): string {
	return `${JSON.stringify(value, null, 2)}\n`;
}
