/**
 * Secret and captured values in request text: how a value is escaped into a hand-written XML body,
 * and how every form a secret can take in a request is found again and turned back into its
 * placeholder. Apart from placeholders.ts so the webview bundle, which needs the placeholders only,
 * does not carry the XML codec.
 */
import { escapeAttr, escapeText, escapeXml } from '../codecs/xml';
import { CONNECTION_PLACEHOLDERS, SECRET_ROLES, type ConnectionValues } from './placeholders';

/**
 * A value substituted into a hand-written XML body, where it may land in text or in an attribute in
 * either quote: escaped for all of them; characters XML cannot carry are sent as given, since raw
 * requests go out as written.
 */
export function xmlBodyValue(value: string): string {
	return escapeXml(value, 'keep');
}

/**
 * Replaces every occurrence of a secret value (raw, URL-encoded, or XML-escaped as the bindings write
 * text and attributes and as {@link xmlBodyValue} substitutes it) by its placeholder, so text built
 * with real credentials can be saved or shown. Longest secrets first.
 */
export function replaceSecretsWithPlaceholders(text: string, secrets: ConnectionValues): string {
	const pairs: [string, string][] = [];
	for (const role of SECRET_ROLES) {
		const secret = secrets[role];
		if (!secret) continue;
		const forms = new Set([
			secret,
			encodeURIComponent(secret),
			new URLSearchParams({ v: secret }).toString().slice(2),
			escapeText(secret, 'keep'),
			escapeAttr(secret, 'keep'),
			xmlBodyValue(secret),
		]);
		for (const form of forms) pairs.push([form, CONNECTION_PLACEHOLDERS[role]]);
	}
	pairs.sort((a, b) => b[0].length - a[0].length);
	let result = text;
	for (const [form, placeholder] of pairs) result = result.split(form).join(placeholder);
	return result;
}
