/**
 * The one HTML escaper, for the HTML the emulator's pages and the extension's webview shells build
 * as text. Pure; imported by src/emulator and src/extension.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};

/**
 * Escapes text for element content and for attribute values in either quote. Other characters,
 * controls included, cannot end a text run or an attribute value and are left as they are.
 */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}
