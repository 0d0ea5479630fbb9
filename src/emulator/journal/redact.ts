/**
 * Redaction of an exchange before the journal keeps anything of it. The secrets are the values of
 * the credential parameters the request sent (decoded, or found in the raw text when it could not be
 * decoded) and the sandbox's own demo credentials; each is replaced in every form `secretForms` knows
 * (as it is, percent-encoded, form-encoded, XML-escaped) by the request files' placeholder
 * (`{{connection.apiKey}}`, `{{connection.password}}`), and whatever stands in a credential field or
 * element is replaced too. Credential headers (Authorization, Cookie) are dropped.
 */
import { parseXml } from '../../protocol/codecs/xml';
import type { AnyParams, ParamRole } from '../../protocol/catalogue';
import {
	CONNECTION_PLACEHOLDERS,
	CREDENTIAL_PARAMS,
	createPlaceholderRedactor,
	type ConnectionValues,
} from '../../protocol/requestFiles/placeholders';
import { secretForms } from '../../protocol/secretForms';

/** Shorter values are hidden only where they are sent (their field or element), not everywhere. */
export const MIN_SECRET_CHARS = 4;
/** What stands instead of a header that carries credentials. */
export const REDACTED_HEADER = '[redacted]';
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Field and element redaction alone (no known values): built once. */
const byPlace = createPlaceholderRedactor({});
const names = Object.keys(CREDENTIAL_PARAMS).join('|');
const ELEMENT = new RegExp(`<((?:[\\w.-]+:)?(${names}))(?:\\s[^>]*)?>([\\s\\S]*?)</\\1\\s*>`, 'gi');
const FIELD = new RegExp(`(?:^|[?&;\\s])(${names})=([^&#\\s]*)`, 'gi');
const ANY_NAME = new RegExp(names, 'i');

interface Secret {
	role: ParamRole;
	value: string;
}

function roleOf(name: string): ParamRole | undefined {
	const known = Object.keys(CREDENTIAL_PARAMS).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
	return known ? CREDENTIAL_PARAMS[known] : undefined;
}

function xmlText(content: string): string {
	try {
		return parseXml(`<v>${content}</v>`).text;
	} catch {
		return content;
	}
}

function formText(value: string): string {
	try {
		return decodeURIComponent(value.replace(/\+/g, ' '));
	} catch {
		return value;
	}
}

/** Credential values written in a text, decoded from the element or field that carries them. */
function sentIn(text: string, secrets: Secret[]): void {
	if (!ANY_NAME.test(text)) return;
	for (const match of text.matchAll(ELEMENT)) {
		const role = roleOf(match[2].replace(/^.*:/, ''));
		if (role) secrets.push({ role, value: xmlText(match[3]) }, { role, value: match[3] });
	}
	for (const match of text.matchAll(FIELD)) {
		const role = roleOf(match[1]);
		if (role) secrets.push({ role, value: formText(match[2]) }, { role, value: match[2] });
	}
}

/** A function that replaces every secret of one exchange in a text. */
export type Redact = (text: string) => string;

/**
 * The redactor of one exchange: `known` are the sandbox's own credentials, `params` what the request
 * decoded to, `texts` the raw query and body (searched for credential fields when decoding failed).
 */
export function exchangeRedactor(known: ConnectionValues, params: AnyParams | undefined, texts: string[]): Redact {
	const secrets: Secret[] = [];
	for (const role of ['apiKey', 'password'] as const) {
		const value = known[role];
		if (value) secrets.push({ role, value });
	}
	for (const [name, role] of Object.entries(CREDENTIAL_PARAMS)) {
		const value = params?.[name];
		if (typeof value === 'string') secrets.push({ role, value });
	}
	for (const text of texts) sentIn(text, secrets);
	const pairs: [string, string][] = [];
	for (const { role, value } of secrets) {
		if (value.length < MIN_SECRET_CHARS) continue;
		for (const form of secretForms(value)) pairs.push([form, CONNECTION_PLACEHOLDERS[role]]);
	}
	pairs.sort((a, b) => b[0].length - a[0].length);
	return (text) => {
		let result = text;
		for (const [form, placeholder] of pairs) {
			if (result.includes(form)) result = result.split(form).join(placeholder);
		}
		return byPlace.text(result);
	};
}

/** Headers as single strings, credential headers dropped, every value redacted. */
export function redactHeaders(
	headers: Readonly<Record<string, string | number | readonly string[] | undefined>>,
	redact: Redact,
): Record<string, string> {
	const kept: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		const lower = name.toLowerCase();
		const text = Array.isArray(value) ? value.join(', ') : String(value);
		kept[lower] = CREDENTIAL_HEADERS.has(lower) ? REDACTED_HEADER : redact(text);
	}
	return kept;
}
