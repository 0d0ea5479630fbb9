/**
 * Checks parameters against the catalogue before anything is sent: the spec's rules (minLength,
 * required, anyOf), the value types and the closed value sets. Pure, so the playground can show the
 * same problems while the user types.
 */
import {
	OPERATIONS,
	VALUE_SETS,
	isOperationName,
	type OperationName,
	type ParamSpec,
	type ValueSet,
} from '../protocol/catalogue';

/** Which kind of check failed. */
export type ValidationRule = 'required' | 'minLength' | 'anyOf' | 'type' | 'range' | 'format' | 'valueSet' | 'unknown';

/** One problem with one parameter. */
export interface ValidationIssue {
	/** The parameter at fault; for anyOf, the first of the alternatives. */
	param: string;
	rule: ValidationRule;
	/** A sentence saying what is wrong, e.g. "q must have at least 2 characters." */
	message: string;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * The problems of `params` for `operation`, in parameter order then rule order; empty when the call
 * may be sent. Missing, null and empty-string values count as not given.
 */
export function validateParams(operation: OperationName, params: Readonly<Record<string, unknown>>): ValidationIssue[] {
	if (!isOperationName(operation)) {
		return [{ param: '', rule: 'unknown', message: `${String(operation)} is not an operation of the service.` }];
	}
	const spec = OPERATIONS[operation];
	const issues: ValidationIssue[] = [];
	const known = new Map(spec.params.map((param) => [param.name, param]));

	for (const name of Object.keys(params)) {
		if (!known.has(name) && isGiven(params[name])) {
			issues.push({ param: name, rule: 'unknown', message: `${name} is not a parameter of ${operation}.` });
		}
	}
	for (const param of spec.params) {
		const value = params[param.name];
		if (isGiven(value)) {
			issues.push(...checkValue(param, value));
		}
	}
	for (const rule of spec.rules ?? []) {
		switch (rule.kind) {
			case 'minLength': {
				const value = params[rule.param];
				if (typeof value !== 'string' || value.trim().length < rule.min) {
					issues.push({ param: rule.param, rule: 'minLength', message: rule.message });
				}
				break;
			}
			case 'required':
				for (const name of rule.params) {
					if (!isGiven(params[name])) {
						issues.push({ param: name, rule: 'required', message: `${name} is required: ${rule.message}` });
					}
				}
				break;
			case 'anyOf':
				if (!rule.params.some((name) => isGiven(params[name]))) {
					issues.push({ param: rule.params[0] ?? '', rule: 'anyOf', message: rule.message });
				}
				break;
		}
	}
	return issues;
}

function isGiven(value: unknown): boolean {
	if (value === undefined || value === null) {
		return false;
	}
	if (typeof value === 'string') {
		return value.trim().length > 0;
	}
	return !Array.isArray(value) || value.length > 0;
}

function checkValue(param: ParamSpec, value: unknown): ValidationIssue[] {
	const name = param.name;
	switch (param.type) {
		case 'int':
			if (typeof value !== 'number' || !Number.isInteger(value)) {
				return [
					{ param: name, rule: 'type', message: `${name} must be a whole number, got ${describe(value)}.` },
				];
			}
			if (value < INT32_MIN || value > INT32_MAX) {
				return [
					{
						param: name,
						rule: 'range',
						message: `${name} must fit a 32-bit int (${INT32_MIN} to ${INT32_MAX}), got ${value}.`,
					},
				];
			}
			return [];
		case 'boolean':
			return typeof value === 'boolean'
				? []
				: [{ param: name, rule: 'type', message: `${name} must be true or false, got ${describe(value)}.` }];
		case 'string[]':
			return Array.isArray(value) && value.every((item) => typeof item === 'string')
				? []
				: [{ param: name, rule: 'type', message: `${name} must be a list of strings.` }];
		case 'string':
			if (typeof value !== 'string') {
				return [{ param: name, rule: 'type', message: `${name} must be text, got ${describe(value)}.` }];
			}
			return [...checkFormat(param, value), ...checkValueSet(param, value)];
	}
}

function checkFormat(param: ParamSpec, value: string): ValidationIssue[] {
	const name = param.name;
	const text = value.trim();
	switch (param.format) {
		case 'numeric':
			return /^-?\d+(\.\d+)?$/.test(text)
				? []
				: [{ param: name, rule: 'format', message: `${name} must be a number, got "${value}".` }];
		case 'numericCsv':
			return text.split(',').every((item) => /^-?\d+$/.test(item.trim()))
				? []
				: [
						{
							param: name,
							rule: 'format',
							message: `${name} must be comma-separated numbers, got "${value}".`,
						},
					];
		case 'boolean':
			return /^(true|false)$/i.test(text)
				? []
				: [{ param: name, rule: 'format', message: `${name} must be true or false, got "${value}".` }];
		default:
			return [];
	}
}

function checkValueSet(param: ParamSpec, value: string): ValidationIssue[] {
	const set = param.valueSet === undefined ? undefined : (VALUE_SETS as Record<string, ValueSet>)[param.valueSet];
	if (!set?.closed || param.format === 'boolean') {
		return [];
	}
	// CSV sets (RankingAsCSV) accept names or numbers; single choices (sScore letters) only the names.
	const csv = param.format === 'csv';
	const allowed = new Set(
		set.values.flatMap((choice) =>
			csv && choice.code !== undefined ? [choice.value, String(choice.code)] : [choice.value],
		),
	);
	const items = csv ? value.split(',').map((item) => item.trim()) : [value.trim()];
	const wrong = items.filter((item) => !allowed.has(item));
	if (wrong.length === 0) {
		return [];
	}
	const choices = set.values.map((choice) => choice.value).join(', ');
	return [
		{
			param: param.name,
			rule: 'valueSet',
			message: `${param.name} must be one of ${choices}, got "${wrong.join(',')}".`,
		},
	];
}

function describe(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : Array.isArray(value) ? 'a list' : String(value);
}
