/**
 * Placeholders in request files: `{{connection.*}}` (values of the active connection, substituted at
 * send time only) and `{{name}}` (values captured from earlier responses of the same file). Pure.
 */
import { OPERATIONS, type ParamRole } from '../catalogue';
import { MIN_FREE_MATCH_LENGTH, secretForms } from '../secretForms';

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

/** What history and request-file writers store instead of credentials. */
export interface PlaceholderRedactor {
	/** A text with every known secret (in every form of secretForms) and every credential parameter's value as placeholders. */
	text(value: string): string;
	/** A parameter's value: its placeholder for a credential parameter (whatever was typed), else `text(value)`. */
	param(name: string, value: string): string;
}

/**
 * The one redactor of the history and of request files. Secrets of the connection are replaced in
 * every encoding the client's redactor knows; in addition the value of a credential parameter
 * (by role, from the catalogue) is its placeholder even when it is not the connection's: as an
 * XML element (<sAPIKey>…</sAPIKey>, with a prefix or attributes) or a query/form field
 * (sPassword=…). Longest forms first, so a secret containing another one is replaced whole.
 */
export function createPlaceholderRedactor(secrets: ConnectionValues): PlaceholderRedactor {
	// A short secret only where it stands as a whole token (MIN_FREE_MATCH_LENGTH), as in the output redactor.
	const pairs: [form: string, placeholder: string, token?: RegExp][] = [];
	for (const role of SECRET_ROLES) {
		const secret = secrets[role];
		if (!secret) continue;
		for (const form of secretForms(secret)) {
			const token =
				secret.length < MIN_FREE_MATCH_LENGTH
					? new RegExp(`(?<![A-Za-z0-9])${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`, 'g')
					: undefined;
			pairs.push([form, CONNECTION_PLACEHOLDERS[role], token]);
		}
	}
	pairs.sort((a, b) => b[0].length - a[0].length);
	const names = Object.keys(CREDENTIAL_PARAMS).join('|');
	const element = new RegExp(`(<((?:[\\w.-]+:)?(${names}))(?:\\s[^>]*)?>)([\\s\\S]*?)(</\\2\\s*>)`, 'gi');
	const field = new RegExp(`(^|[?&;\\s])(${names})=([^&#\\s]*)`, 'gi');
	const placeholderOf = (name: string): string =>
		credentialPlaceholder(
			Object.keys(CREDENTIAL_PARAMS).find((known) => known.toLowerCase() === name.toLowerCase()) ?? '',
		) ?? '';
	const text = (value: string): string => {
		let result = value;
		for (const [form, placeholder, token] of pairs) {
			result = token ? result.replace(token, placeholder) : result.split(form).join(placeholder);
		}
		result = result.replace(
			element,
			(_match, open: string, _qualified: string, name: string, content: string, close: string) =>
				`${open}${content.length > 0 ? placeholderOf(name) : ''}${close}`,
		);
		return result.replace(
			field,
			(_match, lead: string, name: string, fieldValue: string) =>
				`${lead}${name}=${fieldValue.length > 0 ? placeholderOf(name) : ''}`,
		);
	};
	return {
		text,
		param: (name, value) => (value.length > 0 ? (credentialPlaceholder(name) ?? text(value)) : text(value)),
	};
}

/**
 * Replaces every occurrence of a secret value (in every encoding of secretForms) and every credential
 * parameter's value by its placeholder, so text built with real credentials can be saved or shown.
 */
export function replaceSecretsWithPlaceholders(text: string, secrets: ConnectionValues): string {
	return createPlaceholderRedactor(secrets).text(text);
}
