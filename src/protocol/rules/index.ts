/**
 * The one interpretation of the catalogue's parameter rules: whether a parameter is given, how its text
 * parses (formats, value sets, ranges, lengths) and the operation's rules (required, anyOf, minLength,
 * order). The client checks with it before sending, the sandbox turns its first issue into a Client
 * fault with the same message, and the playground shows its issues while the user types. Pure.
 */
import {
	OPERATIONS,
	VALUE_SETS,
	isOperationName,
	type OperationRule,
	type ParamSpec,
	type ValueSet,
} from '../catalogue';
import { parseLooseDateTime } from '../codecs/dateParts';

/** Which kind of check failed. */
export type ValidationRule =
	| 'required'
	| 'minLength'
	| 'maxLength'
	| 'anyOf'
	| 'order'
	| 'type'
	| 'range'
	| 'format'
	| 'valueSet'
	| 'unknown';

/** One problem with one parameter. */
export interface ValidationIssue {
	/** The parameter at fault; for anyOf, the first of the alternatives. */
	param: string;
	rule: ValidationRule;
	/** The fault sub-code the sandbox answers with. */
	subcode: 'InvalidParameter' | 'MissingParameter' | 'MissingFilter';
	/** A sentence saying what is wrong, e.g. "q must have at least 2 characters." */
	message: string;
}

/** Limits that are settings of a service rather than facts of the catalogue. */
export interface RuleLimits {
	/** Largest RowsPerPage (default 500). */
	maxPageSize?: number;
}

export const DEFAULT_MAX_PAGE_SIZE = 500;
/** Most items a list or CSV parameter may hold (the sandbox binds each as a query variable). */
export const MAX_LIST_ITEMS = 1000;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** A parameter is given unless it is missing, null, blank text or a list without a non-blank item. */
export function isGiven(value: unknown): boolean {
	if (value === undefined || value === null) return false;
	if (typeof value === 'string') return value.trim() !== '';
	if (Array.isArray(value)) return value.some((item) => typeof item !== 'string' || item.trim() !== '');
	return true;
}

/**
 * The problems of `params` for `operation`, in parameter order then rule order; empty when the call
 * may be sent (and the sandbox will not refuse it for its form).
 */
export function checkParams(
	operation: string,
	params: Readonly<Record<string, unknown>>,
	limits: RuleLimits = {},
): ValidationIssue[] {
	if (!isOperationName(operation)) {
		return [issue('', 'unknown', `${String(operation)} is not an operation of the service.`)];
	}
	const spec = OPERATIONS[operation];
	const issues: ValidationIssue[] = [];
	const known = new Set(spec.params.map((param) => param.name));
	for (const name of Object.keys(params)) {
		if (!known.has(name) && isGiven(params[name])) {
			issues.push(issue(name, 'unknown', `${name} is not a parameter of ${operation}.`));
		}
	}
	for (const param of spec.params) {
		const value = params[param.name];
		if (isGiven(value)) {
			const problem = checkValue(param, value, limits);
			if (problem) issues.push(problem);
		}
	}
	for (const rule of spec.rules ?? []) issues.push(...checkRule(rule, params));
	return issues;
}

function issue(
	param: string,
	rule: ValidationRule,
	message: string,
	subcode: ValidationIssue['subcode'] = 'InvalidParameter',
): ValidationIssue {
	return { param, rule, subcode, message };
}

/** The first problem of an operation's rules (required, anyOf, minLength, order), if any. */
export function checkRules(
	rules: readonly OperationRule[] | undefined,
	params: Readonly<Record<string, unknown>>,
): ValidationIssue | undefined {
	for (const rule of rules ?? []) {
		const problems = checkRule(rule, params);
		if (problems.length > 0) return problems[0];
	}
	return undefined;
}

function checkRule(rule: OperationRule, params: Readonly<Record<string, unknown>>): ValidationIssue[] {
	switch (rule.kind) {
		case 'minLength': {
			const value = params[rule.param];
			const text = typeof value === 'string' ? value.trim() : '';
			return text.length < rule.min ? [issue(rule.param, 'minLength', rule.message)] : [];
		}
		case 'required': {
			const missing = rule.params.filter((name) => !isGiven(params[name]));
			return missing.length === 0
				? []
				: [
						issue(
							missing[0],
							'required',
							`${rule.message} Missing: ${missing.join(', ')}.`,
							'MissingParameter',
						),
					];
		}
		case 'anyOf':
			return rule.params.some((name) => isGiven(params[name]))
				? []
				: [issue(rule.params[0] ?? '', 'anyOf', rule.message, rule.subcode ?? 'MissingFilter')];
		case 'order': {
			const first = orderValue(params[rule.first]);
			const second = orderValue(params[rule.second]);
			return first !== undefined && second !== undefined && first > second
				? [issue(rule.first, 'order', rule.message)]
				: [];
		}
	}
}

/** A number or date to compare in an order rule; undefined when absent or not parseable (reported elsewhere). */
function orderValue(value: unknown): number | undefined {
	if (!isGiven(value)) return undefined;
	const text = String(value).trim();
	if (/^[+-]?\d+(\.\d+)?$/.test(text)) return Number(text);
	return parseLooseDateTime(text)?.getTime();
}

function describe(value: unknown): string {
	return typeof value === 'string' ? `'${value}'` : Array.isArray(value) ? 'a list' : String(value);
}

/** Parses a whole number from a number or text: undefined when it is not one. */
export function parseInteger(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (!/^[+-]?\d{1,10}$/.test(text)) return undefined;
	const n = Number(text);
	return n === 0 ? 0 : n;
}

/** Parses true, false, 1 or 0 (any case) from a boolean or text: undefined when it is none of them. */
export function parseBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (typeof value !== 'string') return undefined;
	switch (value.trim().toLowerCase()) {
		case 'true':
		case '1':
			return true;
		case 'false':
		case '0':
			return false;
		default:
			return undefined;
	}
}

/** The message of a whole number outside its bounds. */
function rangeMessage(name: string, value: number, min: number, max: number, pageSize: boolean): string {
	if (pageSize) return `${name} must be between ${min} and ${max} (the maximum page size); got ${value}.`;
	if (max === INT32_MAX) return `${name} must be at least ${min}; got ${value}.`;
	if (min === INT32_MIN) return `${name} must be at most ${max}; got ${value}.`;
	return `${name} must be between ${min} and ${max}; got ${value}.`;
}

function checkInteger(param: ParamSpec, value: unknown, limits: RuleLimits): ValidationIssue | undefined {
	const name = param.name;
	const n = parseInteger(value);
	if (n === undefined) return issue(name, 'type', `${name} must be a whole number; got ${describe(value)}.`);
	const min = param.range?.min ?? (param.pageSize ? 1 : param.format === 'id' ? 1 : INT32_MIN);
	const max = param.pageSize ? (limits.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE) : (param.range?.max ?? INT32_MAX);
	if (n < min || n > max) return issue(name, 'range', rangeMessage(name, n, min, max, param.pageSize === true));
	return undefined;
}

function listItems(value: unknown): string[] {
	const items = Array.isArray(value) ? value.map(String) : String(value).split(',');
	return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** The problem of one given value, if any. */
export function checkValue(param: ParamSpec, value: unknown, limits: RuleLimits = {}): ValidationIssue | undefined {
	const name = param.name;
	switch (param.type) {
		case 'int':
			return checkInteger(param, value, limits);
		case 'boolean':
			return parseBoolean(value) === undefined
				? issue(name, 'type', `${name} must be true or false; got ${describe(value)}.`)
				: undefined;
		case 'string[]': {
			const items = Array.isArray(value) ? value : [value];
			if (!items.every((item) => typeof item === 'string')) {
				return issue(name, 'type', `${name} must be a list of strings.`);
			}
			return listItems(items).length > MAX_LIST_ITEMS
				? issue(
						name,
						'range',
						`${name} may hold at most ${MAX_LIST_ITEMS} values; got ${listItems(items).length}.`,
					)
				: undefined;
		}
		case 'string':
			if (typeof value !== 'string') return issue(name, 'type', `${name} must be text; got ${describe(value)}.`);
			if (param.maxLength !== undefined && value.trim().length > param.maxLength) {
				return issue(
					name,
					'maxLength',
					`${name} must be at most ${param.maxLength} characters; got ${value.trim().length}.`,
				);
			}
			return checkFormat(param, value, limits) ?? checkValueSet(param, value);
	}
}

function checkFormat(param: ParamSpec, value: string, limits: RuleLimits): ValidationIssue | undefined {
	const name = param.name;
	const text = value.trim();
	switch (param.format) {
		case 'integer':
		case 'id':
			return checkInteger(param, text, limits);
		case 'decimal':
			return /^\d{1,12}(\.\d{1,4})?$/.test(text)
				? undefined
				: issue(name, 'format', `${name} must be numeric, e.g. 35000 or 12.50; got '${value}'.`);
		case 'boolean':
			return parseBoolean(text) === undefined
				? issue(name, 'format', `${name} must be true or false; got '${value}'.`)
				: undefined;
		case 'dateTime':
			return parseLooseDateTime(text)
				? undefined
				: issue(
						name,
						'format',
						`${name} is not a date and time: '${text}'. Use yyyy-MM-d HH:mm:ss (UTC), e.g. 2026-11-02 10:15:00.`,
					);
		case 'csv':
		case 'integerCsv': {
			const items = listItems(text);
			if (items.length > MAX_LIST_ITEMS) {
				return issue(name, 'range', `${name} may hold at most ${MAX_LIST_ITEMS} values; got ${items.length}.`);
			}
			if (param.format === 'integerCsv') {
				const bad = items.find((item) => !/^\d{1,10}$/.test(item) || Number(item) > INT32_MAX);
				if (bad !== undefined) {
					return issue(name, 'format', `${name} must be comma-separated numbers; '${bad}' is not a number.`);
				}
			}
			return undefined;
		}
		case 'url': {
			let url: URL | undefined;
			try {
				url = new URL(text);
			} catch {
				url = undefined;
			}
			return url && (url.protocol === 'http:' || url.protocol === 'https:')
				? undefined
				: issue(name, 'format', `${name} must be an absolute http or https URL; got '${text}'.`);
		}
		case 'email':
			return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)
				? undefined
				: issue(name, 'format', `${name} is not an email address: '${text}'.`);
		case 'currency':
			return /^[A-Za-z]{3}$/.test(text)
				? undefined
				: issue(
						name,
						'format',
						`${name} must be a 3-letter ISO 4217 code such as GBP, EUR or USD; got '${text}'.`,
					);
		case 'localPath':
			return text.startsWith('/') && !text.startsWith('//') && !/[\s\\]/.test(text)
				? undefined
				: issue(
						name,
						'format',
						`${name} must be a path on the service starting with '/', e.g. /web/adverts; got '${text}'.`,
					);
		default:
			return undefined;
	}
}

/**
 * The value of a closed set that `text` names, ignoring case (for CSV sets, names or codes); undefined
 * when none does.
 */
export function matchChoice(set: ValueSet, text: string, codes: boolean): string | undefined {
	const wanted = text.trim().toLowerCase();
	for (const choice of set.values) {
		if (choice.value.toLowerCase() === wanted) return choice.value;
		if (codes && choice.code !== undefined && String(choice.code) === wanted) return choice.value;
	}
	return undefined;
}

function checkValueSet(param: ParamSpec, value: string): ValidationIssue | undefined {
	const set = param.valueSet === undefined ? undefined : (VALUE_SETS as Record<string, ValueSet>)[param.valueSet];
	// Boolean and integer-list parameters are checked by their format (a filter may name any id).
	if (!set?.closed || param.format === 'boolean' || param.format === 'integerCsv') return undefined;
	const csv = param.format === 'csv';
	const items = csv ? listItems(value) : [value.trim()];
	const wrong = items.filter((item) => matchChoice(set, item, csv) === undefined);
	if (wrong.length === 0) return undefined;
	const choices = set.values
		.map((choice) =>
			csv && choice.code !== undefined && choice.value !== String(choice.code)
				? `${choice.value} (${choice.code})`
				: choice.value,
		)
		.join(', ');
	return issue(param.name, 'valueSet', `${param.name} must be one of ${choices}; got '${wrong.join(',')}'.`);
}
