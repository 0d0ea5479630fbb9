/** The shell shared by the emulator's HTML pages: escaping, a nonce'd style sheet and the CSP that goes with it. */
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../shared/html';

/**
 * A link from the page at path `from` to the sandbox path `to` (both absolute, `to` may carry a query
 * or fragment), written relative so that it works under any path prefix: code-server serves the
 * sandbox at `/proxy/<port>/`, where an absolute `/web/` would leave the sandbox.
 */
export function relativeHref(from: string, to: string): string {
	const cut = to.search(/[?#]/);
	const toPath = cut >= 0 ? to.slice(0, cut) : to;
	const suffix = cut >= 0 ? to.slice(cut) : '';
	const fromDirs = from.split('/').slice(1, -1);
	const toParts = toPath.split('/').slice(1);
	const toDirs = toParts.slice(0, -1);
	const file = toParts.at(-1) ?? '';
	let common = 0;
	while (common < fromDirs.length && common < toDirs.length && fromDirs[common] === toDirs[common]) common++;
	const path = [...fromDirs.slice(common).map(() => '..'), ...toDirs.slice(common), file].join('/');
	if (path === '') return `./${suffix}`;
	// A first segment with a colon would read as a URL scheme.
	return `${/^[^/]*:/.test(path) ? './' : ''}${path}${suffix}`;
}

/** A fresh nonce for one page answer. */
export function createNonce(): string {
	return randomBytes(16).toString('base64');
}

/** The CSP of a page: nothing may load; only the page's own nonce'd style element applies. */
export function pageCsp(nonce: string): string {
	return `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; line-height: 1.5; color: #1b1b1b; background: #fff; }
h1 { font-size: 1.6rem; border-bottom: 2px solid #3b5f8a; padding-bottom: .3rem; }
h2 { font-size: 1.2rem; margin-top: 1.6rem; }
code, pre { font-family: ui-monospace, Consolas, monospace; }
pre { background: #f3f5f8; border: 1px solid #d0d7de; padding: .75rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; text-align: left; vertical-align: top; }
a { color: #0b5cad; }
a:focus { outline: 2px solid #0b5cad; outline-offset: 2px; }
.note { color: #444; }
`;

/**
 * A complete page. `title` is text; `body` is HTML built by the caller from escaped pieces; `head`
 * is extra markup for the head (e.g. the DISCO link), also escaped by the caller.
 */
export function renderPage(title: string, body: string, nonce: string, head = ''): string {
	return (
		'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		`<title>${escapeHtml(title)}</title>${head}<style nonce="${escapeHtml(nonce)}">${STYLE}</style></head>` +
		`<body><main>${body}</main></body></html>`
	);
}
