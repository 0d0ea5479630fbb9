/**
 * The shell of the sandbox's web pages (posting completion, web interface): plain, accessible HTML
 * with landmarks and a skip link, no external resources, and a strict CSP with a per-answer nonce.
 */
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../../shared/html';
import { createNonce, relativeHref } from '../pages/html';

export { relativeHref } from '../pages/html';

/** Options of one page. */
export interface PageOptions {
	title: string;
	/** HTML of the main content, built from escaped pieces; its links are relative (relativeHref). */
	main: string;
	/** The path the page answers, from which navigation links are made relative. */
	path?: string;
	/** Navigation links (label, absolute sandbox path) shown in the header; omitted in frame mode. */
	nav?: readonly { label: string; href: string; current?: boolean }[];
	/** Rendered inside a frame (sIframe=true): no header or footer, and any site may frame it. */
	framed?: boolean;
}

/** The CSP of a web page: nothing loads from anywhere; forms post only to this origin. */
export function webPageCsp(nonce: string, framed: boolean): string {
	return `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors ${framed ? '*' : "'none'"}`;
}

const STYLE = `
*, *::before, *::after { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 0; line-height: 1.5; color: #1b1b1b; background: #fff; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem; }
.skip:focus { left: .5rem; }
header { background: #1f3b5c; color: #fff; padding: .6rem 1rem; }
header a { color: #fff; }
header .brand { font-weight: 600; margin-right: 1.5rem; }
header nav ul { display: inline-flex; gap: 1rem; list-style: none; margin: 0; padding: 0; flex-wrap: wrap; }
header nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
footer { max-width: 64rem; margin: 2rem auto; padding: 0 1rem; color: #555; font-size: .9rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin-top: 1.5rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { border: 1px solid #c9d1da; padding: .3rem .5rem; text-align: left; vertical-align: top; }
thead th { background: #eef2f6; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
fieldset { border: 1px solid #c9d1da; padding: .5rem 1rem; }
legend { font-weight: 600; }
.feed { display: flex; gap: .5rem; align-items: flex-start; padding: .4rem 0; border-bottom: 1px solid #eef2f6; }
.feed small { display: block; color: #444; }
.errors { border: 2px solid #b3261e; background: #fdecea; padding: .5rem 1rem; }
.errors h2 { margin-top: 0; color: #b3261e; }
.ok { border: 2px solid #1e7b34; background: #e8f5ea; padding: .5rem 1rem; }
button { font: inherit; padding: .4rem 1.2rem; background: #1f3b5c; color: #fff; border: 0; border-radius: 3px; cursor: pointer; }
button:focus, a:focus, input:focus { outline: 3px solid #f0a30a; outline-offset: 2px; }
a { color: #0b5cad; }
.pager { display: flex; gap: 1rem; align-items: center; }
.description { border: 1px solid #c9d1da; padding: .5rem; background: #fafbfc; white-space: pre-wrap; }
.status-3 { color: #b3261e; font-weight: 600; }
.note { border-left: 3px solid #c9d1da; padding: .2rem .6rem; margin: .5rem 0; }
.note p { margin: .2rem 0; white-space: pre-wrap; }
.tags { display: flex; gap: .4rem; flex-wrap: wrap; list-style: none; padding: 0; }
.tags li { border: 1px solid #c9d1da; border-radius: 1rem; padding: 0 .6rem; }
.status-2 { color: #1e7b34; }
`;

/** A complete page. */
export function renderWebPage(options: PageOptions, nonce: string): string {
	const nav =
		options.nav && options.nav.length > 0
			? `<nav aria-label="Account"><ul>${options.nav.map((link) => `<li><a href="${escapeHtml(relativeHref(options.path ?? '/', link.href))}"${link.current ? ' aria-current="page"' : ''}>${escapeHtml(link.label)}</a></li>`).join('')}</ul></nav>`
			: '';
	const header = options.framed ? '' : `<header><span class="brand">Multiposting Sandbox</span>${nav}</header>`;
	const footer = options.framed
		? ''
		: '<footer><p>Local sandbox of the multiposting service. Data here is generated and not real.</p></footer>';
	return (
		'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		`<title>${escapeHtml(options.title)} - Multiposting Sandbox</title><style nonce="${escapeHtml(nonce)}">${STYLE}</style></head>` +
		`<body><a class="skip" href="#content">Skip to content</a>${header}<main id="content" tabindex="-1">${options.main}</main>${footer}</body></html>`
	);
}

/** Sends a page with its security headers. */
export function sendPage(
	res: ServerResponse,
	status: number,
	options: PageOptions,
	headers: Record<string, string | string[]> = {},
): void {
	const nonce = createNonce();
	const body = Buffer.from(renderWebPage(options, nonce), 'utf8');
	res.writeHead(status, {
		'content-type': 'text/html; charset=utf-8',
		'content-length': body.length,
		'content-security-policy': webPageCsp(nonce, options.framed === true),
		'x-content-type-options': 'nosniff',
		'referrer-policy': 'no-referrer',
		'cache-control': 'no-store',
		...(options.framed ? {} : { 'x-frame-options': 'DENY' }),
		...headers,
	});
	res.end(body);
}

/**
 * A 303 redirect. `location` is relative to the request (relativeHref), so that it stays inside
 * any path prefix the sandbox is served under.
 */
export function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void {
	res.writeHead(303, { location, 'content-length': 0, 'cache-control': 'no-store', ...headers });
	res.end();
}

/** A plain message page (errors, expired links). */
export function sendMessage(res: ServerResponse, status: number, title: string, message: string): void {
	sendPage(res, status, { title, main: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>` });
}
