/** Pieces of SQL and paging shared by the repositories. */
import { placeholders, type SqlValue } from './database';
import type { PageWindow } from './types';

/** A numeric id when the text is all digits, otherwise undefined (the text is then an identifier). */
export function asNumericId(text: string): number | undefined {
	return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/**
 * The total of a search, from its page when the page tells it exactly: without a window every row is
 * there; a page that is not full (and not past the end) ends the result. Otherwise it is counted.
 */
export function pageTotal(found: number, window: PageWindow | undefined, count: () => number): number {
	if (window === undefined) return found;
	if (found < window.limit && (found > 0 || window.offset === 0)) return window.offset + found;
	return count();
}

/**
 * `column IN (ids)`, or `column BETWEEN first AND last` when the ids are consecutive integers in order
 * (a subtree usually is): the same rows, without the temporary index SQLite builds for an IN list on
 * every run of the statement.
 */
export function organisationClause(column: string, ids: readonly number[]): { clause: string; values: SqlValue[] } {
	let consecutive = ids.length > 2;
	for (let i = 1; consecutive && i < ids.length; i++) consecutive = ids[i] === ids[0] + i;
	if (consecutive && Number.isSafeInteger(ids[0])) {
		return { clause: `${column} BETWEEN ? AND ?`, values: [ids[0], ids[ids.length - 1]] };
	}
	return { clause: `${column} IN (${placeholders(ids.length)})`, values: [...ids] };
}
