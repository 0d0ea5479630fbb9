/**
 * Reading decoded parameters: every bad value becomes an InvalidParameter fault naming the parameter
 * and saying what is expected.
 */
import type { AnyParams, OperationRule } from '../../protocol/catalogue';
import { parseLooseDateTime } from '../../protocol/codecs/scalars';
import { checkRules as checkCatalogueRules } from '../../protocol/rules';
import { FaultError } from '../../protocol/faults';
import { toStoredDate } from '../store/time';

/** A parameter is absent when missing, null or blank text. */
export function isGiven(params: AnyParams, name: string): boolean {
	const value = params[name];
	if (value === undefined || value === null) return false;
	if (typeof value === 'string') return value.trim() !== '';
	if (Array.isArray(value)) return value.some((item) => item.trim() !== '');
	return true;
}

/** Trimmed text, or undefined when absent. */
export function text(params: AnyParams, name: string): string | undefined {
	if (!isGiven(params, name)) return undefined;
	const value = params[name];
	return Array.isArray(value) ? value.join(',').trim() : String(value).trim();
}

export function requiredText(params: AnyParams, name: string, what = 'a value'): string {
	const value = text(params, name);
	if (value === undefined) throw FaultError.client('MissingParameter', `${name} is required: give ${what}.`);
	return value;
}

/** A whole number within bounds. */
export function integer(
	params: AnyParams,
	name: string,
	bounds: { min?: number; max?: number } = {},
): number | undefined {
	if (!isGiven(params, name)) return undefined;
	const raw = params[name];
	const value =
		typeof raw === 'number' ? raw : /^[+-]?\d{1,10}$/.test(String(raw).trim()) ? Number(String(raw).trim()) : NaN;
	if (!Number.isSafeInteger(value)) {
		throw FaultError.client('InvalidParameter', `${name} must be a whole number; got '${String(raw)}'.`);
	}
	if (bounds.min !== undefined && value < bounds.min) {
		throw FaultError.client('InvalidParameter', `${name} must be at least ${bounds.min}; got ${value}.`);
	}
	if (bounds.max !== undefined && value > bounds.max) {
		throw FaultError.client('InvalidParameter', `${name} must be at most ${bounds.max}; got ${value}.`);
	}
	return value;
}

/** A positive id (AdvertID, AdvertCandidateID, PostingID…). */
export function id(params: AnyParams, name: string): number | undefined {
	return integer(params, name, { min: 1, max: 2_147_483_647 });
}

export function requiredId(params: AnyParams, name: string): number {
	const value = id(params, name);
	if (value === undefined) throw FaultError.client('MissingParameter', `${name} is required: give the numeric id.`);
	return value;
}

/** Strict boolean: true/false/1/0 (case-insensitive); anything else is a fault. Absent → fallback. */
export function flag(params: AnyParams, name: string, fallback = false): boolean {
	if (!isGiven(params, name)) return fallback;
	const raw = params[name];
	if (typeof raw === 'boolean') return raw;
	const value = String(raw).trim().toLowerCase();
	if (value === 'true' || value === '1') return true;
	if (value === 'false' || value === '0') return false;
	throw FaultError.client('InvalidParameter', `${name} must be true or false; got '${String(raw)}'.`);
}

/** Lenient inclusion flag (boolInclude*): only 'true' or '1' (any case) switch it on. */
export function includeFlag(params: AnyParams, name: string): boolean {
	const raw = params[name];
	if (typeof raw === 'boolean') return raw;
	const value = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
	return value === 'true' || value === '1';
}

/** Most items a list parameter may hold (keeps queries within SQLite's bound-variable limit). */
export const MAX_LIST_ITEMS = 1000;

/** Comma-separated values (or a list parameter), trimmed, blanks dropped; undefined when absent. */
export function csv(params: AnyParams, name: string): string[] | undefined {
	const raw = params[name];
	if (!isGiven(params, name)) return undefined;
	const items = (Array.isArray(raw) ? raw : String(raw).split(','))
		.map((item) => item.trim())
		.filter((item) => item !== '');
	if (items.length > MAX_LIST_ITEMS) {
		throw FaultError.client(
			'InvalidParameter',
			`${name} may hold at most ${MAX_LIST_ITEMS} values; got ${items.length}.`,
		);
	}
	return items.length > 0 ? items : undefined;
}

/** Comma-separated whole numbers. */
export function numericCsv(params: AnyParams, name: string): number[] | undefined {
	const items = csv(params, name);
	if (!items) return undefined;
	return items.map((item) => {
		if (!/^\d{1,10}$/.test(item) || !Number.isSafeInteger(Number(item))) {
			throw FaultError.client(
				'InvalidParameter',
				`${name} must be comma-separated numbers; '${item}' is not a number.`,
			);
		}
		return Number(item);
	});
}

/** A date-time parameter as stored text (UTC). Formats: yyyy-MM-d HH:mm:ss, ISO 8601, dd/MM/yyyy. */
export function dateTime(params: AnyParams, name: string): string | undefined {
	const raw = text(params, name);
	if (raw === undefined) return undefined;
	const date = parseLooseDateTime(raw);
	if (!date) {
		throw FaultError.client(
			'InvalidParameter',
			`${name} is not a date and time: '${raw}'. Use yyyy-MM-d HH:mm:ss (UTC), e.g. 2026-11-02 10:15:00.`,
		);
	}
	return toStoredDate(date);
}

/** Checks the catalogue's machine-readable rules of an operation, as the client does (src/protocol/rules). */
export function checkRules(rules: readonly OperationRule[] | undefined, params: AnyParams): void {
	const problem = checkCatalogueRules(rules, params);
	if (problem) throw FaultError.client(problem.subcode, problem.message);
}

/** Paging: CurrentPage is 1-based (0 is read as 1); RowsPerPage 1..max. */
export function paging(params: AnyParams, maxPageSize: number): { page: number; rowsPerPage: number; offset: number } {
	const page = Math.max(integer(params, 'CurrentPage', { min: 0 }) ?? 1, 1);
	const rowsPerPage = integer(params, 'RowsPerPage') ?? maxPageSize;
	if (rowsPerPage < 1 || rowsPerPage > maxPageSize) {
		throw FaultError.client(
			'InvalidParameter',
			`RowsPerPage must be between 1 and ${maxPageSize} (the maximum page size); got ${rowsPerPage}.`,
		);
	}
	return { page, rowsPerPage, offset: (page - 1) * rowsPerPage };
}

/** Only http and https URLs. */
export function httpUrl(params: AnyParams, name: string): string | undefined {
	const raw = text(params, name);
	if (raw === undefined) return undefined;
	let url: URL | undefined;
	try {
		url = new URL(raw);
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		throw FaultError.client('InvalidParameter', `${name} must be an absolute http or https URL; got '${raw}'.`);
	}
	return raw;
}
