/**
 * The one date format of the extension: the user's locale through Intl (medium date, short time, in
 * the user's time zone) for what is shown, and ISO 8601 in UTC for tooltips. Used by the panels'
 * view models and the tree on the host (locale = VS Code's display language) and by the webviews
 * (locale = the page's, which is VS Code's too). Service dateTimes without a zone are UTC (known
 * facts: "UTC"). Pure.
 */

export interface FormattedDate {
	/** For display, e.g. "2 Jan 2026, 03:04" (en-GB) or "Jan 2, 2026, 3:04 AM" (en-US). */
	text: string;
	/** For the tooltip, e.g. "2026-01-02T03:04:05Z". */
	iso: string;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** True for text that reads as an ISO or service date-time ("2026-01-02", "2026-01-02T03:04:05", "… 03:04:05Z"). */
export function looksLikeDateTime(text: string): boolean {
	return DATE_TIME.test(text.trim());
}

/** The instant in a date value: epoch milliseconds, a Date or ISO / service text; undefined when it is none. */
export function parseDateTime(value: string | number | Date): Date | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
	if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : undefined;
	const match = DATE_TIME.exec(value.trim());
	if (!match) return undefined;
	const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone] = match;
	const base = `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}`;
	const offset =
		!zone || zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
	const date = new Date(`${base}${offset}`);
	return Number.isNaN(date.getTime()) ? undefined : date;
}

/** ISO 8601 in UTC without milliseconds when they are zero. */
export function isoDateTime(date: Date): string {
	return date.toISOString().replace('.000Z', 'Z');
}

/** How a date shows: `dateOnly` leaves the time out of the text, `timeOnly` the date (the ISO keeps both). */
export interface DateFormatOptions {
	/** BCP 47 tag; the runtime's (in a webview, VS Code's display language) when absent. */
	locale?: string;
	dateOnly?: boolean;
	timeOnly?: boolean;
	/** For tests; the user's zone otherwise. */
	timeZone?: string;
}

function dateTimeFormat(locale: string | undefined, options: DateFormatOptions): Intl.DateTimeFormat {
	return new Intl.DateTimeFormat(locale, {
		dateStyle: options.timeOnly ? undefined : 'medium',
		timeStyle: options.dateOnly ? undefined : 'short',
		timeZone: options.timeZone,
	});
}

/** A date for display and its ISO form; undefined when `value` is not a date. */
export function formatDateTime(
	value: string | number | Date,
	options: DateFormatOptions = {},
): FormattedDate | undefined {
	const date = parseDateTime(value);
	if (!date) return undefined;
	let format: Intl.DateTimeFormat;
	try {
		format = dateTimeFormat(options.locale, options);
	} catch {
		// An unknown locale falls back to the runtime's default rather than failing the view.
		format = dateTimeFormat(undefined, options);
	}
	return { text: format.format(date), iso: isoDateTime(date) };
}

/**
 * A date for a line of plain text or a tooltip, where no separate tooltip can carry the ISO form:
 * "2 Jan 2026, 03:04 (2026-01-02T03:04:05Z)"; the value itself when it is not a date.
 */
export function dateWithIso(value: string | undefined, options: DateFormatOptions = {}): string {
	if (value === undefined || value === '') return '';
	const date = formatDateTime(value, options);
	return date ? `${date.text} (${date.iso})` : value;
}

/** The .NET DateTime.MinValue (0001-01-01) the service sends for a date that never happened. */
export function isUnsetDate(value: string | undefined): boolean {
	return value === undefined || value === '' || value.startsWith('0001-');
}
