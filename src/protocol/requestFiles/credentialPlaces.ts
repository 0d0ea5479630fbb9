/**
 * Where a credential stands in a request's text, whatever its value: an element or a form field named as
 * a credential parameter (any prefix, any case). The placeholder redactor replaces what stands there;
 * the journal reads it to learn the secrets of a request that did not decode. One set of patterns, so
 * what one finds the other hides.
 */
import type { ParamRole } from '../catalogue';
import { CREDENTIAL_PARAMS } from './placeholders';

const NAMES = Object.keys(CREDENTIAL_PARAMS);
const ALTERNATIVES = NAMES.join('|');

/**
 * Groups: 1 the open tag, 2 its qualified name, 3 the name, 4 the content, 5 the close tag. The content
 * never spans a NUL (none stands in XML): callers may redact several texts joined by NULs at once.
 */
export const CREDENTIAL_ELEMENT = new RegExp(
	`(<((?:[\\w.-]+:)?(${ALTERNATIVES}))(?:\\s[^>]*)?>)([^\\0]*?)(</\\2\\s*>)`,
	'gi',
);
/** Groups: 1 what stands before the name (the start, `?`, `&`, `;`, a space or a NUL), 2 the name, 3 the value. */
export const CREDENTIAL_FIELD = new RegExp(`(^|[?&;\\s\\0])(${ALTERNATIVES})=([^&#\\s\\0]*)`, 'gi');
const ANY_NAME = new RegExp(ALTERNATIVES, 'i');

/** False when the text names no credential parameter: neither pattern can match it. */
export function namesCredential(text: string): boolean {
	return ANY_NAME.test(text);
}

/** The role of a credential parameter named in any case (`SAPIKEY` → apiKey), or undefined. */
export function credentialRoleOf(name: string): ParamRole | undefined {
	const lower = name.toLowerCase();
	const known = NAMES.find((candidate) => candidate.toLowerCase() === lower);
	return known === undefined ? undefined : CREDENTIAL_PARAMS[known];
}

/** A credential as written in a text: its role, the raw value, and whether it was an element's content or a field's value. */
export interface WrittenCredential {
	role: ParamRole;
	raw: string;
	kind: 'element' | 'field';
}

/**
 * Every credential written in a text, raw as it stands. A NUL in the text (a request that is not XML)
 * neither hides a value nor ends it early: the value is taken from the text itself.
 */
export function writtenCredentials(text: string): WrittenCredential[] {
	if (!namesCredential(text)) return [];
	// Searched with NULs as spaces (same length), so the patterns made for NUL-joined texts see one text.
	const searched = text.includes('\0') ? text.replaceAll('\0', ' ') : text;
	const found: WrittenCredential[] = [];
	for (const match of searched.matchAll(CREDENTIAL_ELEMENT)) {
		const role = credentialRoleOf(match[3]);
		const start = match.index + match[1].length;
		if (role) found.push({ role, raw: text.slice(start, start + match[4].length), kind: 'element' });
	}
	for (const match of searched.matchAll(CREDENTIAL_FIELD)) {
		const role = credentialRoleOf(match[2]);
		const start = match.index + match[1].length + match[2].length + 1;
		if (role) found.push({ role, raw: text.slice(start, start + match[3].length), kind: 'field' });
	}
	return found;
}
