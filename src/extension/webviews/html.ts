/**
 * The one HTML shell of every webview (built by shell.ts): a strict Content-Security-Policy with a
 * fresh nonce per render, the page's own bundle and styles inlined under that nonce, nothing else
 * inline, assets only from the extension's own dist/webview and media folders.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import * as vscode from 'vscode';
import { buildShell, type ShellAsset } from './shell';

/**
 * Options of every panel: scripts on, and only the extension's build output and media readable.
 * `retainContextWhenHidden` keeps a hidden panel's page alive (see WebviewPanelSpec.retainContextWhenHidden).
 */
export function webviewOptions(
	extensionUri: vscode.Uri,
	retainContextWhenHidden = false,
): vscode.WebviewPanelOptions & vscode.WebviewOptions {
	return {
		enableScripts: true,
		enableCommandUris: false,
		retainContextWhenHidden,
		localResourceRoots: [
			vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
			vscode.Uri.joinPath(extensionUri, 'media'),
		],
	};
}

export function createNonce(): string {
	return randomBytes(16).toString('base64');
}

/** Bundle and stylesheet texts, read once per file version (a dev build in watch mode rewrites them). */
const texts = new Map<string, { mtimeMs: number; size: number; text: string }>();

/** The text of a file of the extension, or undefined when it cannot be read (the shell then links it). */
export function assetText(path: string): string | undefined {
	try {
		const { mtimeMs, size } = statSync(path);
		const cached = texts.get(path);
		if (cached && cached.mtimeMs === mtimeMs && cached.size === size) return cached.text;
		const text = readFileSync(path, 'utf8');
		texts.set(path, { mtimeMs, size, text });
		return text;
	} catch {
		return undefined;
	}
}

/**
 * The shell (shell.ts) for a panel: its bundle and stylesheets inlined under the nonce, the bundles
 * it loads on demand by address, and its first messages, if any, in a JSON data block.
 */
export function renderShell(
	webview: vscode.Webview,
	extensionUri: vscode.Uri,
	options: {
		script: string;
		title: string;
		styles?: string[];
		lazyScripts?: string[];
		initialMessages?: readonly unknown[];
	},
): string {
	const file = (...segments: string[]) => vscode.Uri.joinPath(extensionUri, ...segments);
	const asset = (...segments: string[]): ShellAsset => {
		const uri = file(...segments);
		const text = uri.scheme === 'file' ? assetText(uri.fsPath) : undefined;
		return { href: webview.asWebviewUri(uri).toString(), text };
	};
	return buildShell({
		nonce: createNonce(),
		cspSource: webview.cspSource,
		title: options.title,
		script: asset('dist', 'webview', `${options.script}.js`),
		styles: ['media/webview.css', ...(options.styles ?? [])].map((href) => asset(...href.split('/'))),
		lazyScripts: (options.lazyScripts ?? []).map((name) => ({
			name,
			href: webview.asWebviewUri(file('dist', 'webview', `${name}.js`)).toString(),
		})),
		initialMessages: options.initialMessages,
	});
}
