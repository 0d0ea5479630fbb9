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
