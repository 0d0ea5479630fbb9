/**
 * The HTML of every webview, as a pure function of what html.ts resolved (no VS Code API, so plain-Node
 * tests parse it). Strict Content-Security-Policy with a nonce: the page's own script and styles are
 * inlined with that nonce when their text is at hand (a new panel then makes no resource request
 * before it runs: each one costs a round trip through code-server's service worker), else linked.
 * The first messages for the page can ride in the HTML as a JSON data block, escaped so that no
 * service data can end it (see jsonForScript).
 */
import { escapeHtml } from '../../shared/html';
import { INITIAL_MESSAGES_ID } from '../../shared/webviewProtocol';

export interface ShellAsset {
	/** The webview address of the file. */
	href: string;
	/** Its text, to inline it; left out (or refused, see below) to link it instead. */
	text?: string;
}

export interface ShellParts {
	nonce: string;
	/** webview.cspSource. */
	cspSource: string;
	title: string;
	script: ShellAsset;
	styles: ShellAsset[];
	/** Bundles the page loads on demand: data-script-<name>="<address>" on the script tag. */
	lazyScripts?: { name: string; href: string }[];
	/** Messages the page handles before it asks for anything (its first data). */
	initialMessages?: readonly unknown[];
}

/**
 * JSON that stays data inside a <script> element: `<`, `>` and `&` become \u escapes (so neither
 * `</script>` nor `<!--` can appear), as do U+2028 and U+2029. JSON.parse gives back the same value.
 */
export function jsonForScript(value: unknown): string {
	return JSON.stringify(value).replace(
		/[<>&\u2028\u2029]/g,
		(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
}

/**
 * Text that can sit inside <script> or <style> as it is (HTML's restrictions for the contents of
 * script elements): nothing in it may end the element, and a script must not hold `<script` followed
 * by a space, `/` or `>` either (after a `<!--`, that makes the parser skip the real end tag).
 * esbuild already writes `</script` in strings as `<\/script`; anything else is linked, not inlined.
 */
export function inlinable(text: string | undefined, element: 'script' | 'style'): text is string {
	if (text === undefined) return false;
	return element === 'script' ? !/<\/script|<script[\s/>]/i.test(text) : !/<\/style/i.test(text);
}

export function buildShell(parts: ShellParts): string {
	const { nonce, cspSource } = parts;
	const csp = [
		"default-src 'none'",
		// The source stays allowed for scripts loaded on demand (the PDF viewer) and a linked bundle.
		`script-src 'nonce-${nonce}' ${cspSource}`,
		// The nonce lets the page style its document frames: a srcdoc frame inherits this policy.
		`style-src ${cspSource} 'nonce-${nonce}'`,
		`img-src ${cspSource} data: blob:`,
		`font-src ${cspSource}`,
		`worker-src ${cspSource} blob:`,
		"frame-src 'self' data: blob:",
		"connect-src 'none'",
		"form-action 'none'",
		"base-uri 'none'",
	].join('; ');
	const styles = parts.styles
		.map((style) =>
			inlinable(style.text, 'style')
				? `<style nonce="${nonce}">${style.text}</style>`
				: `<link rel="stylesheet" href="${escapeHtml(style.href)}">`,
		)
		.join('\n');
	const lazy = (parts.lazyScripts ?? [])
		.filter((s) => /^[a-z][a-zA-Z]*$/.test(s.name))
		.map((s) => ` data-script-${s.name}="${escapeHtml(s.href)}"`)
		.join('');
	const initial =
		parts.initialMessages && parts.initialMessages.length > 0
			? `<script type="application/json" id="${INITIAL_MESSAGES_ID}">${jsonForScript(parts.initialMessages)}</script>\n`
			: '';
	const script = inlinable(parts.script.text, 'script')
		? `<script nonce="${nonce}"${lazy}>${parts.script.text}</script>`
		: `<script nonce="${nonce}" src="${escapeHtml(parts.script.href)}"${lazy}></script>`;
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
<title>${escapeHtml(parts.title)}</title>
</head>
<body>
<div id="root" role="main"></div>
${initial}${script}
</body>
</html>`;
}
