/**
 * Redaction of an exchange before the journal keeps anything of it, with the one placeholder redactor
 * of history and request files (echoed forms included). The secrets are the values of the credential
 * parameters the request sent (decoded, or found in the raw text when it could not be decoded) and the
 * sandbox's own demo credentials; whatever stands in a credential field or element is replaced too.
 * Credential headers (Authorization, Cookie) are dropped. A redactor is built once per set of secrets
 * and kept: a test suite sends the same few credentials thousands of times.
 */
import type { AnyParams } from '../../protocol/catalogue';
import { parseXml } from '../../protocol/codecs/xml';
import { CREDENTIAL_PARAMS, SECRET_ROLES, type ConnectionValues } from '../../protocol/requestFiles/placeholders';
import { writtenCredentials } from '../../protocol/requestFiles/credentialPlaces';
import { createPlaceholderRedactor, type RoleSecret } from '../../protocol/requestFiles/placeholderRedactor';

/** What stands instead of a header that carries credentials. */
export const REDACTED_HEADER = '[redacted]';
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** Redactors kept for the sets of secrets seen last (the oldest goes first). */
const KEPT_REDACTORS = 64;

function xmlText(content: string): string {
	if (!/[&<]/.test(content)) return content;
	try {
		return parseXml(`<v>${content}</v>`).text;
	} catch {
		return content;
	}
}

function formText(value: string): string {
	if (!/[%+]/.test(value)) return value;
	try {
		return decodeURIComponent(value.replace(/\+/g, ' '));
	} catch {
		return value;
	}
}

/** Credential values written in a text, as written and decoded from the element or field that carries them. */
function sentIn(text: string, secrets: RoleSecret[]): void {
	for (const { role, raw, kind } of writtenCredentials(text)) {
		secrets.push({ role, value: kind === 'element' ? xmlText(raw) : formText(raw) }, { role, value: raw });
	}
}

/** A function that replaces every secret of one exchange in a text. */
export type Redact = (text: string) => string;

const redactors = new Map<string, Redact>();

function redactorOf(secrets: RoleSecret[]): Redact {
	const key = secrets.map(({ role, value }) => `${role}\0${value}`).join('\0');
	let redact = redactors.get(key);
	if (redact) {
		// Most recently used last.
		redactors.delete(key);
	} else {
		redact = createPlaceholderRedactor(secrets, { echoed: true }).text;
		if (redactors.size >= KEPT_REDACTORS) redactors.delete(redactors.keys().next().value!);
	}
	redactors.set(key, redact);
	return redact;
}

const CREDENTIAL_NAMES = Object.keys(CREDENTIAL_PARAMS);
/** The role of each value credentialsOf returns, in the same order. */
export const CREDENTIAL_ROLES = Object.values(CREDENTIAL_PARAMS);

/** The values of the credential parameters a request decoded to ('' for one it did not send), in one order. */
export function credentialsOf(params: AnyParams | undefined): string[] {
	return CREDENTIAL_NAMES.map((name) => {
		const value = params?.[name];
		return typeof value === 'string' ? value : '';
	});
}

/**
 * The redactor of one exchange: `known` are the sandbox's own credentials, `credentials` what the
 * request decoded to (credentialsOf), `texts` the raw query and body (searched for credential fields
 * and elements too, for a request that did not decode).
 */
export function exchangeRedactor(known: ConnectionValues, credentials: readonly string[], texts: string[]): Redact {
	const secrets: RoleSecret[] = [];
	for (const role of SECRET_ROLES) {
		const value = known[role];
		if (value) secrets.push({ role, value });
	}
	CREDENTIAL_ROLES.forEach((role, i) => {
		const value = credentials[i];
		if (value) secrets.push({ role, value });
	});
	for (const text of texts) sentIn(text, secrets);
	const seen = new Set<string>();
	return redactorOf(secrets.filter(({ value }) => value.length > 0 && !seen.has(value) && seen.add(value)));
}

/** Redacts several texts in one pass when none holds a NUL: the redactor never matches across one. */
export function redactEach(texts: readonly string[], redact: Redact): string[] {
	if (texts.some((text) => text.includes('\0'))) return texts.map(redact);
	return redact(texts.join('\0')).split('\0');
}

/** Headers as single strings with lower-case names; the values of credential headers are left out. */
export function headerTexts(
	headers: Readonly<Record<string, string | number | readonly string[] | undefined>>,
): [name: string, value: string | undefined][] {
	const entries: [string, string | undefined][] = [];
	for (const name in headers) {
		const value = headers[name];
		if (value === undefined) continue;
		const lower = name.toLowerCase();
		entries.push([
			lower,
			CREDENTIAL_HEADERS.has(lower) ? undefined : Array.isArray(value) ? value.join(', ') : String(value),
		]);
	}
	return entries;
}

/** Headers with their redacted values (taken in order from `values`); credential headers as REDACTED_HEADER. */
export function keptHeaders(
	entries: readonly [name: string, value: string | undefined][],
	values: readonly string[],
): Record<string, string> {
	const kept: Record<string, string> = {};
	let next = 0;
	for (const [name, value] of entries) kept[name] = value === undefined ? REDACTED_HEADER : values[next++];
	return kept;
}
