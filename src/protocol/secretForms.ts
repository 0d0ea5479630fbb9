/**
 * Every form in which a secret can appear in a request: as it is, percent-encoded (upper- and
 * lower-case %xx, + or %20 for a space) and XML-escaped (named, decimal &#38; and hex &#x26;
 * references). The client's redactor and the placeholder writer of history and request files both
 * use this list, so what one hides the other hides too. Pure.
 */

/** The forms of `secret`, without repeats, the secret itself first. */
export function secretForms(secret: string): string[] {
	const percent = encodeURIComponent(secret);
	const form = new URLSearchParams({ v: secret }).toString().slice(2);
	const xmlMinimal = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	const xmlFull = xmlMinimal.replace(/"/g, '&quot;').replace(/'/g, '&apos;');
	const xmlNumeric = xmlMinimal.replace(/"/g, '&#34;').replace(/'/g, '&#39;');
	const xmlHex = xmlMinimal.replace(/"/g, '&#x22;').replace(/'/g, '&#x27;');
	const decimalRefs = secret.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
	const hexRefs = secret.replace(/[&<>"']/g, (char) => `&#x${char.charCodeAt(0).toString(16)};`);
	const lowerHex = (encoded: string): string => encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
	return [
		...new Set([
			secret,
			percent,
			form,
			lowerHex(percent),
			lowerHex(form),
			form.replace(/\+/g, '%20'),
			xmlMinimal,
			xmlFull,
			xmlNumeric,
			xmlHex,
			decimalRefs,
			hexRefs,
			hexRefs.replace(/&#x([0-9a-f]+);/g, (_ref, hex: string) => `&#x${hex.toUpperCase()};`),
		]),
	];
}

/**
 * Secrets shorter than this are replaced only where they stand as a whole token (no letter or digit
 * on either side): a secret of a character or two would otherwise mangle unrelated text
 * ("k" in "keep-alive"). Longer ones are replaced wherever they appear.
 */
export const MIN_FREE_MATCH_LENGTH = 6;

/**
 * One pattern of the forms of secrets shorter than MIN_FREE_MATCH_LENGTH, each matched only as a whole
 * token (no letter or digit on either side), longest first; undefined when there are none.
 */
export function wholeTokenPattern(forms: readonly string[]): RegExp | undefined {
	if (forms.length === 0) return undefined;
	const alternatives = [...forms]
		.sort((a, b) => b.length - a.length)
		.map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
	return new RegExp(`(?<![A-Za-z0-9])(?:${alternatives.join('|')})(?![A-Za-z0-9])`, 'g');
}

/**
 * Forms in which a service, a log or a document may echo a secret, besides secretForms: escaped twice
 * (XML in XML, percent-encoding of percent-encoding), JSON-escaped (quotes and backslashes, `\/`, and
 * `\u00XX` for the characters HTML-safe serialisers escape) and base64 (standard and URL-safe). A
 * secret inside longer base64 text is encoded according to where it starts, so the characters that
 * depend on its bytes alone are listed for each of the three alignments (the one or two characters at
 * each edge, which mix in neighbouring bytes, stay visible). These forms cannot stand for a placeholder,
 * so only the output redactor uses them. Empty for secrets shorter than MIN_FREE_MATCH_LENGTH.
 */
export function echoedSecretForms(secret: string): string[] {
	if (secret.length < MIN_FREE_MATCH_LENGTH) return [];
	const percent = encodeURIComponent(secret);
	const xml = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	const json = JSON.stringify(secret).slice(1, -1);
	const unicode = (hex: (code: string) => string): string =>
		json.replace(/[<>&']/g, (char) => `\\u${hex(char.charCodeAt(0).toString(16).padStart(4, '0'))}`);
	const bytes = new TextEncoder().encode(secret);
	return [
		...new Set(
			[
				xml.replace(/&/g, '&amp;'),
				encodeURIComponent(percent),
				json,
				json.replace(/\//g, '\\/'),
				unicode((code) => code),
				unicode((code) => code.toUpperCase()),
				...base64Cores(bytes),
			].filter((form) => form !== secret && form.length > 0),
		),
	];
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The base64 characters of `bytes` that depend on them alone, at each of the three alignments, in both alphabets. */
function base64Cores(bytes: Uint8Array): string[] {
	const cores: string[] = [];
	for (let offset = 0; offset < 3; offset++) {
		const padded = new Uint8Array(offset + bytes.length);
		padded.set(bytes, offset);
		const encoded = toBase64(padded);
		// Characters cover 6 bits each; the secret's bits run from 8 * offset to 8 * (offset + length).
		const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * padded.length) / 6));
		cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return cores;
}

/** Base64 without padding (pure: no Buffer here). */
function toBase64(bytes: Uint8Array): string {
	let out = '';
	for (let i = 0; i < bytes.length; i += 3) {
		const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
		const chars = Math.ceil((Math.min(3, bytes.length - i) * 8) / 6);
		for (let c = 0; c < chars; c++) out += BASE64[(n >> (18 - 6 * c)) & 63];
	}
	return out;
}
