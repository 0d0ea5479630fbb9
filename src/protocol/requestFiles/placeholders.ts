/**
 * Placeholders in request files: `{{connection.*}}` (values of the active connection, substituted at
 * send time only) and `{{name}}` (values captured from earlier responses of the same file). Pure.
 */
import { OPERATIONS, type ParamRole } from '../catalogue';

/** The placeholder of each connection value; substituted by the host at send time only. */
export const CONNECTION_PLACEHOLDERS: Readonly<Record<ParamRole, string>> = Object.freeze({
	apiKey: '{{connection.apiKey}}',
	username: '{{connection.username}}',
	password: '{{connection.password}}',
	culture: '{{connection.culture}}',
});

/** Roles whose values are secrets: always written as placeholders. */
export const SECRET_ROLES: readonly ParamRole[] = ['apiKey', 'password'];

const PLACEHOLDER_PATTERN = /\{\{connection\.(apiKey|username|password|culture)\}\}/g;

/** A `{{name}}` reference to a captured value (names: letters, digits, `_`; not `connection.*`). */
export const VARIABLE_PATTERN = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Values of the connection, by placeholder role. */
export type ConnectionValues = Partial<Record<ParamRole, string>>;

/** Captured values by name. */
export type CapturedValues = Readonly<Record<string, string>>;

/** Replaces every `{{connection.*}}` placeholder; unknown values become ''. `encode` escapes per context. */
export function substitutePlaceholders(
	text: string,
	values: ConnectionValues,
	encode: (value: string) => string = (value) => value,
): string {
	return text.replace(PLACEHOLDER_PATTERN, (_match, role: ParamRole) => encode(values[role] ?? ''));
}

/** True when the text contains a `{{connection.*}}` placeholder. */
export function hasPlaceholder(text: string): boolean {
	return new RegExp(PLACEHOLDER_PATTERN.source).test(text);
}

/** The names of the `{{name}}` variables a text refers to, in order of appearance, without repeats. */
export function variablesIn(text: string): string[] {
	const names: string[] = [];
	for (const match of text.matchAll(new RegExp(VARIABLE_PATTERN.source, 'g'))) {
		if (!names.includes(match[1])) names.push(match[1]);
	}
	return names;
}

/** True when the text refers to a captured variable. */
export function hasVariable(text: string): boolean {
	return new RegExp(VARIABLE_PATTERN.source).test(text);
}

/**
 * Replaces `{{name}}` variables by captured values (encoded by `encode`); returns the names that
 * had no value, which are left as they are.
 */
export function substituteVariables(
	text: string,
	values: CapturedValues,
	encode: (value: string) => string = (value) => value,
): { text: string; missing: string[] } {
	const missing: string[] = [];
	const result = text.replace(new RegExp(VARIABLE_PATTERN.source, 'g'), (match, name: string) => {
		if (Object.prototype.hasOwnProperty.call(values, name)) return encode(values[name]);
		if (!missing.includes(name)) missing.push(name);
		return match;
	});
	return { text: result, missing };
}

/** The role of each credential parameter of the catalogue (sAPIKey → apiKey, sPassword → password). */
export const CREDENTIAL_PARAMS: Readonly<Record<string, ParamRole>> = Object.freeze(
	Object.fromEntries(
		Object.values(OPERATIONS).flatMap((operation) =>
			operation.params
				.filter((param) => param.role !== undefined && SECRET_ROLES.includes(param.role))
				.map((param) => [param.name, param.role as ParamRole]),
		),
	),
);

/** The placeholder a credential parameter is stored as, or undefined for any other parameter. */
export function credentialPlaceholder(name: string): string | undefined {
	const role = Object.prototype.hasOwnProperty.call(CREDENTIAL_PARAMS, name) ? CREDENTIAL_PARAMS[name] : undefined;
	return role ? CONNECTION_PLACEHOLDERS[role] : undefined;
}
