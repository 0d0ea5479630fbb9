/**
 * The one sanitising policy for untrusted HTML (email bodies, DOCX conversions, HTML email parts).
 *
 * It runs in one place, the webview, with the browser's DOMPurify: that is where a real DOM is, and the
 * HTML parser that DOMPurify inspects is the same one that renders the result (no parser differential).
 * It does not also run on the host because jsdom cannot live in the extension bundle (esbuild inlines
 * it, and its XHR module calls require.resolve on a sibling file at load time, while the .vsix ships
 * without node_modules), and a host pass that works in tests but not in the product would be false
 * comfort. The output then goes only into `<iframe sandbox="">` whose srcdoc carries its own CSP, so
 * even a sanitiser miss cannot run script or load anything.
 *
 * Uses only the DOM of the DOMPurify instance it is given (no globals): the unit tests run this exact
 * module in Node with DOMPurify over jsdom.
 */
import type { Config, DOMPurify } from 'dompurify';
import type { SafeHtml } from '../../shared/panelMessages';

/** Default number of characters of HTML sanitised at once; the rest is behind "show more". */
export const DEFAULT_HTML_LIMIT = 256 * 1024;

/** Text shown where an image that is not an inline data: image was removed. */
export const BLOCKED_IMAGE_TEXT = 'remote image blocked';

/**
 * DOMPurify configuration: the HTML profile only (no SVG, no MathML), and nothing that runs, loads,
 * submits or embeds. Style elements go entirely (they can @import or url()); style attributes are
 * kept and cleaned in post-processing.
 */
export const PURIFY_CONFIG: Config = {
	USE_PROFILES: { html: true },
	FORBID_TAGS: [
		'script',
		'style',
		'link',
		'meta',
		'base',
		'title',
		'form',
		'input',
		'button',
		'textarea',
		'select',
		'option',
		'optgroup',
		'fieldset',
		'iframe',
		'frame',
		'frameset',
		'object',
		'embed',
		'applet',
		'param',
		'svg',
		'math',
		'template',
		'audio',
		'video',
		'source',
		'track',
		'picture',
		'portal',
		'noscript',
		'dialog',
		'canvas',
		'map',
		'area',
	],
	FORBID_ATTR: [
		'srcset',
		'action',
		'formaction',
		'background',
		'ping',
		'poster',
		'usemap',
		'lowsrc',
		'dynsrc',
		'longdesc',
		'target',
		'id',
		'name',
	],
	ALLOW_DATA_ATTR: false,
	ALLOW_ARIA_ATTR: true,
	ALLOW_UNKNOWN_PROTOCOLS: false,
	ALLOW_SELF_CLOSE_IN_ATTR: false,
	SAFE_FOR_TEMPLATES: false,
	WHOLE_DOCUMENT: false,
	KEEP_CONTENT: true,
};

/** Attributes that may name a resource; only img src (data:image) survives, and a's href becomes a listed link. */
const URL_ATTRIBUTES = ['src', 'href', 'xlink:href', 'cite', 'data', 'codebase', 'manifest', 'icon'];

/** Inline image types allowed as data: URLs (SVG excluded: it is a document, not a picture). */
const DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp|bmp);base64,[a-z0-9+/=\s]*$/i;

/** CSS that loads or evaluates something, or is escaped so that it could hide such a thing. */
const DANGEROUS_CSS =
	/url\s*\(|image-set\s*\(|image\s*\(|cross-fade\s*\(|element\s*\(|expression\s*\(|@import|-moz-binding|behavior\s*:|javascript:|\\|&#|position\s*:\s*fixed/i;

const OPENABLE = /^(?:https?:|mailto:)/i;

/** Removes every declaration of a style attribute that could load or hide a resource. */
export function cleanStyle(style: string): string {
	const withoutComments = style.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '');
	return withoutComments
		.split(';')
		.map((declaration) => declaration.trim())
		.filter(
			(declaration) =>
				declaration.length > 0 && /^[-a-z]+\s*:/i.test(declaration) && !DANGEROUS_CSS.test(declaration),
		)
		.join('; ');
}

/**
 * Sanitises `html` with `purify` (a DOMPurify instance bound to a window), then post-processes the
 * result: links become non-navigating `span.mp-link` elements and their http/https/mailto targets are
 * returned in `links`; images other than inline data: pictures become a "remote image blocked" element;
 * style attributes lose every url(), import, expression or escape. At most `limit` characters of
 * input are sanitised (`truncated` tells).
 */
export function sanitizeHtml(purify: DOMPurify, html: string, limit = DEFAULT_HTML_LIMIT): SafeHtml {
	const truncated = html.length > limit;
	const input = truncated ? html.slice(0, limit) : html;
	// RETURN_DOM hands back DOMPurify's own body element: no import into another document (much faster in jsdom).
	const body = purify.sanitize(input, { ...PURIFY_CONFIG, RETURN_DOM: true }) as HTMLElement;
	const doc = body.ownerDocument;
	const links: string[] = [];
	let blockedImages = 0;

	for (const anchor of Array.from(body.querySelectorAll('a'))) {
		const href = (anchor.getAttribute('href') ?? '').trim();
		const span = doc.createElement('span');
		span.className = 'mp-link';
		while (anchor.firstChild) span.appendChild(anchor.firstChild);
		if (OPENABLE.test(href)) {
			let index = links.indexOf(href);
			if (index < 0) index = links.push(href) - 1;
			const marker = doc.createElement('sup');
			marker.className = 'mp-link-marker';
			marker.textContent = `[${index + 1}]`;
			span.appendChild(marker);
		}
		anchor.replaceWith(span);
	}

	for (const image of Array.from(body.querySelectorAll('img'))) {
		const src = (image.getAttribute('src') ?? '').trim();
		if (DATA_IMAGE.test(src)) continue;
		const placeholder = doc.createElement('span');
		placeholder.className = 'mp-blocked-image';
		placeholder.setAttribute('role', 'img');
		placeholder.setAttribute('aria-label', BLOCKED_IMAGE_TEXT);
		placeholder.textContent = `[${BLOCKED_IMAGE_TEXT}]`;
		image.replaceWith(placeholder);
		blockedImages++;
	}

	for (const element of Array.from(body.querySelectorAll('*'))) {
		for (const name of URL_ATTRIBUTES) {
			if (name === 'src' && element.localName === 'img') continue;
			element.removeAttribute(name);
		}
		const style = element.getAttribute('style');
		if (style !== null) {
			const cleaned = cleanStyle(style);
			if (cleaned) element.setAttribute('style', cleaned);
			else element.removeAttribute('style');
		}
	}

	return { html: body.innerHTML, links, blockedImages, truncated };
}

/** CSP of the frame document: nothing loads except inline data: images; inline styles only here. */
export const FRAME_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

/** Colours and font of the frame, taken from the VS Code theme of the webview. */
export interface FrameTheme {
	foreground: string;
	background: string;
	link: string;
	border: string;
	fontFamily: string;
	fontSize: string;
}

/** The light look the frame had before it followed the theme (the "original colours" toggle). */
export const LIGHT_FRAME: FrameTheme = {
	foreground: '#1e1e1e',
	background: '#ffffff',
	link: '#0b57d0',
	border: '#888888',
	fontFamily: 'system-ui, sans-serif',
	fontSize: '14px',
};

const COLOUR = /^(?:#[0-9a-f]{3,8}|rgba?\(\s*[\d.]+%?\s*,\s*[\d.]+%?\s*,\s*[\d.]+%?\s*(?:,\s*[\d.]+%?\s*)?\))$/i;
const FONT_FAMILY = /^[\w\s,'"-]{1,200}$/;
const FONT_SIZE = /^\d{1,2}(?:\.\d+)?px$/;

/**
 * Only plain colour, font-family and font-size values reach the frame's style sheet: anything else
 * (a url(), an escape, a closing brace) falls back to the light look's value.
 */
export function safeTheme(theme: Partial<FrameTheme>): FrameTheme {
	const pick = (key: keyof FrameTheme, pattern: RegExp) => {
		const value = (theme[key] ?? '').trim();
		return pattern.test(value) ? value : LIGHT_FRAME[key];
	};
	return {
		foreground: pick('foreground', COLOUR),
		background: pick('background', COLOUR),
		link: pick('link', COLOUR),
		border: pick('border', COLOUR),
		fontFamily: pick('fontFamily', FONT_FAMILY),
		fontSize: pick('fontSize', FONT_SIZE),
	};
}

/**
 * The srcdoc of the sandboxed frame around already sanitised HTML. Without a theme it shows the
 * document's own colours on white; with one, the theme's colours win over the document's (an email
 * written black-on-white stays readable in a dark theme).
 */
export function frameDocument(safeHtml: string, theme?: Partial<FrameTheme>, styleNonce?: string): string {
	const t = safeTheme(theme ?? LIGHT_FRAME);
	// A srcdoc frame inherits the panel's CSP, whose style-src allows only the panel's nonce.
	const nonce = styleNonce && /^[A-Za-z0-9+/=_-]{8,128}$/.test(styleNonce) ? ` nonce="${styleNonce}"` : '';
	const themed = theme
		? // Below the body only: the body keeps the theme's colour, and everything in it inherits that.
			'body *{color:inherit!important;background-color:transparent!important;border-color:currentColor!important}'
		: '';
	return (
		`<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}"><meta name="referrer" content="no-referrer">` +
		`<style${nonce}>html{color-scheme:light dark}body{font-family:${t.fontFamily};font-size:${t.fontSize};margin:8px;color:${t.foreground};background:${t.background};word-wrap:break-word}${themed}` +
		`.mp-link,.mp-link *{color:${t.link}${theme ? '!important' : ''};text-decoration:underline dotted}.mp-blocked-image{display:inline-block;border:1px dashed ${t.border};padding:2px 4px;font-size:12px}</style>` +
		`</head><body>${safeHtml}</body></html>`
	);
}
