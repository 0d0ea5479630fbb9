/**
 * The one HTML shell of every webview: a strict Content-Security-Policy with a fresh nonce per render,
 * no inline code, assets only from the extension's own dist/webview and media folders.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { escapeHtml } from '../../shared/html';

/** Options of every panel: scripts on, and only the extension's build output and media readable. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
	return {
		enableScripts: true,
		enableCommandUris: false,
		localResourceRoots: [
			vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
			vscode.Uri.joinPath(extensionUri, 'media'),
		],
	};
}

export function createNonce(): string {
	return randomBytes(16).toString('base64');
}

/**
 * The shell: a root element, the panel's stylesheet and script. Service data never goes into this
 * HTML; the script receives it by message and renders it with DOM APIs.
 * `frameSrc` allows the sandboxed iframe (srcdoc) used for email bodies; img-src allows blob: for
 * previews built in the webview.
 */
export function renderShell(
	webview: vscode.Webview,
	extensionUri: vscode.Uri,
	options: { script: string; title: string; styles?: string[]; lazyScripts?: string[] },
): string {
	const nonce = createNonce();
	const asset = (...segments: string[]) =>
		webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
	const csp = [
		"default-src 'none'",
		`script-src 'nonce-${nonce}' ${webview.cspSource}`,
		// The nonce lets the page style its document frames: a srcdoc frame inherits this policy.
		`style-src ${webview.cspSource} 'nonce-${nonce}'`,
		`img-src ${webview.cspSource} data: blob:`,
		`font-src ${webview.cspSource}`,
		`worker-src ${webview.cspSource} blob:`,
		"frame-src 'self' data: blob:",
		"connect-src 'none'",
		"form-action 'none'",
		"base-uri 'none'",
	].join('; ');
	const styles = ['media/webview.css', ...(options.styles ?? [])]
		.map((href) => `<link rel="stylesheet" href="${asset(...href.split('/'))}">`)
		.join('');
	// Bundles the script loads on demand (with the same nonce): data-script-<name>="<address>".
	const lazy = (options.lazyScripts ?? [])
		.filter((name) => /^[a-z][a-zA-Z]*$/.test(name))
		.map((name) => ` data-script-${name}="${asset('dist', 'webview', `${name}.js`)}"`)
		.join('');
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
<title>${escapeHtml(options.title)}</title>
</head>
<body>
<div id="root" role="main"></div>
<script nonce="${nonce}" src="${asset('dist', 'webview', `${options.script}.js`)}"${lazy}></script>
</body>
</html>`;
}
