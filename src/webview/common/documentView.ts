/**
 * Renders what a document tab shows. Untrusted HTML is sanitised here (sanitizePolicy.ts) and goes
 * only into `<iframe sandbox="">` (no allow-* token at all: no script, no same origin, no navigation
 * of the panel) through `srcdoc`; link targets are listed as buttons that ask the host, which
 * confirms with the user before opening anything. Text is always set as text.
 */
import type { DOMPurify } from 'dompurify';
import type {
	ApplicationToHostMessage,
	CvEntry,
	CvModel,
	DocumentTab,
	DocumentView,
	TextSlice,
	UntrustedHtml,
} from '../../shared/panelMessages';
import { button, clear, el, fieldList, formatBytes, notice } from './dom';
import { frameDocument, sanitizeHtml, type FrameTheme } from './sanitizePolicy';

export interface DocumentContext {
	doc: Document;
	/** The webview's DOMPurify, bound to its window. */
	purify: DOMPurify;
	post(message: ApplicationToHostMessage): void;
	/** Renders a PDF preview into `container` (pdf.js in the real webview; absent in unit tests). */
	renderPdf?(container: HTMLElement, base64: string): void;
	/** Receivers of "show more" answers, keyed by `tab` or `tab:part`. */
	updaters: Map<string, { text?(slice: TextSlice): void; html?(html: UntrustedHtml): void }>;
	/** The theme's colours for document frames (absent: the light look). */
	theme?(): Partial<FrameTheme>;
}

/** Whether frames show the document's original (light) colours instead of the theme's; one choice per panel. */
let originalColours = false;

/**
 * Sanitised HTML in an `<iframe sandbox="">` (no allow-* token at all), in the theme's colours with
 * a toggle to the original light look, the blocked images counted and the links listed as buttons
 * that ask the host. Shared by documents and the advert's job description.
 */
export function frameBlock(
	doc: Document,
	purify: DOMPurify,
	html: string,
	options: { theme?(): Partial<FrameTheme>; onLink(url: string): void; title: string; fitContent?: boolean },
): HTMLElement {
	const block = el(doc, 'div', { className: 'mp-frame-block' });
	const safe = sanitizeHtml(purify, html, Number.MAX_SAFE_INTEGER);
	const frame = el(doc, 'iframe', {
		className: 'mp-frame',
		attrs: { title: options.title, referrerpolicy: 'no-referrer' },
	});
	// Empty sandbox: every restriction applies (no scripts, opaque origin, no navigation, no forms).
	frame.setAttribute('sandbox', '');
	// The opaque frame cannot be measured from here: a short document gets a frame about its size
	// (CSS caps it; the user can drag it taller).
	if (options.fitContent) frame.setAttribute('height', String(estimatedHeight(safe.html)));
	const styleNonce = doc.querySelector<HTMLScriptElement>('script[nonce]')?.nonce;
	const paint = () => {
		const srcdoc = frameDocument(safe.html, originalColours ? undefined : options.theme?.(), styleNonce);
		if (frame.srcdoc !== srcdoc) frame.srcdoc = srcdoc;
	};
	paint();
	// VS Code sets the theme's variables on <html> (and its kind on <body>) when the theme changes,
	// and the style sheets may load after the first paint: paint again then, or the frame keeps the
	// colours of its first paint.
	const win = doc.defaultView;
	if (win && 'MutationObserver' in win) {
		let shown = false;
		const observer = new win.MutationObserver(() => {
			if (block.isConnected) shown = true;
			// A block that was shown and then replaced stops listening.
			else if (shown) return observer.disconnect();
			paint();
		});
		observer.observe(doc.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
		// And once the page's style sheets have loaded, in case the first paint came before them.
		if (doc.readyState !== 'complete') win.addEventListener('load', paint, { once: true });
		if (doc.body) observer.observe(doc.body, { attributes: true, attributeFilter: ['class'] });
	}
	const toggle = button(
		doc,
		originalColours ? 'Theme colours' : 'Original colours',
		() => {
			originalColours = !originalColours;
			toggle.textContent = originalColours ? 'Theme colours' : 'Original colours';
			toggle.setAttribute('aria-pressed', String(originalColours));
			paint();
		},
		{
			className: 'mp-button mp-secondary mp-small',
			title: 'Show the document in its own light colours, or in the theme’s',
		},
	);
	toggle.setAttribute('aria-pressed', String(originalColours));
	block.append(el(doc, 'div', { className: 'mp-frame-tools' }, [toggle]), frame);
	if (safe.blockedImages > 0) {
		block.appendChild(
			notice(
				doc,
				`${safe.blockedImages} remote image${safe.blockedImages === 1 ? ' was' : 's were'} blocked.`,
				'warning',
			),
		);
	}
	if (safe.links.length > 0) {
		const list = el(doc, 'ol', { className: 'mp-links', attrs: { 'aria-label': 'Links in the document' } });
		for (const url of safe.links) {
			list.appendChild(
				el(doc, 'li', {}, [
					button(doc, url, () => options.onLink(url), {
						className: 'mp-link-button',
						title: 'Asks before opening in your browser',
					}),
				]),
			);
		}
		block.append(el(doc, 'h3', { text: 'Links (not followed in the preview; opening one asks first)' }), list);
	}
	return block;
}

/** Line height and width the estimate assumes (the frame's body text at the editor's usual size). */
const LINE_PX = 20;
const CHARS_PER_LINE = 90;
const FRAME_PADDING_PX = 32;

/**
 * About how tall sanitised HTML draws: its text wrapped at CHARS_PER_LINE, plus a line per block
 * element (paragraphs, list items, headings, breaks) for their margins.
 */
export function estimatedHeight(html: string): number {
	const text = html
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	const blocks = (html.match(/<(p|li|h[1-6]|br|div|tr)\b/gi) ?? []).length;
	const lines = Math.max(1, Math.ceil(text.length / CHARS_PER_LINE) + blocks);
	return lines * LINE_PX + FRAME_PADDING_PX;
}

export function updaterKey(tab: DocumentTab, part?: number): string {
	return part === undefined ? tab : `${tab}:${part}`;
}

/** The element of a document tab. */
export function renderDocumentView(ctx: DocumentContext, tab: DocumentTab, view: DocumentView): HTMLElement {
	const { doc } = ctx;
	const wrap = el(doc, 'div', { className: `mp-document mp-document-${view.kind}` });
	const save = (label = 'Save as…', part?: number) =>
		button(doc, label, () => ctx.post({ type: 'save', tab, part }), { className: 'mp-button mp-secondary' });
	const heading = (fileName?: string, extra?: string) =>
		el(doc, 'div', { className: 'mp-doc-header' }, [
			el(doc, 'span', {
				className: 'mp-doc-name',
				text: [fileName, extra].filter(Boolean).join(' · ') || 'Document',
			}),
			save(),
		]);
	switch (view.kind) {
		case 'missing':
			wrap.appendChild(notice(doc, view.message));
			break;
		case 'error':
			wrap.appendChild(notice(doc, view.message, 'error'));
			break;
		case 'html':
			wrap.append(heading(view.fileName, 'HTML, sanitised'), safeHtmlBlock(ctx, tab, undefined, view.html));
			break;
		case 'text':
			wrap.append(
				heading(view.fileName, `${view.slice.totalChars.toLocaleString('en')} characters`),
				textBlock(ctx, tab, undefined, view.slice),
			);
			break;
		case 'pdf': {
			const container = el(doc, 'div', { className: 'mp-pdf', attrs: { 'aria-label': 'PDF preview' } });
			wrap.append(heading(view.fileName, `PDF, ${formatBytes(view.size)}`), container);
			if (ctx.renderPdf) ctx.renderPdf(container, view.base64);
			else container.appendChild(notice(doc, 'No PDF preview here; use “Save as…” to open it elsewhere.'));
			break;
		}
		case 'binary':
			wrap.append(
				heading(view.fileName, `${view.contentType}, ${formatBytes(view.size)}`),
				notice(
					doc,
					'There is no preview for this type of file. Use “Save as…” to open it with another program.',
				),
			);
			break;
		case 'cv':
			wrap.append(
				heading('Parsed data', view.rawIsPretty ? 'HR-XML' : 'not well-formed XML'),
				cvBlock(ctx, tab, view),
			);
			break;
		case 'email':
			wrap.append(
				el(doc, 'div', { className: 'mp-doc-header' }, [
					el(doc, 'span', { className: 'mp-doc-name', text: 'Full email' }),
					save('Save email…'),
				]),
				emailBlock(ctx, tab, view),
			);
			break;
	}
	return wrap;
}

/** The sandboxed frame with the sanitised HTML, the link buttons under it and "show more" when cut. */
export function safeHtmlBlock(
	ctx: DocumentContext,
	tab: DocumentTab,
	part: number | undefined,
	untrusted: UntrustedHtml,
): HTMLElement {
	const { doc } = ctx;
	const block = el(doc, 'div', { className: 'mp-safe-html' });
	let shown = untrusted.html.length;
	const draw = (current: UntrustedHtml) => {
		clear(block);
		shown = current.html.length;
		block.appendChild(
			frameBlock(doc, ctx.purify, current.html, {
				theme: ctx.theme,
				title: 'Document content (sandboxed, no scripts)',
				onLink: (url) => ctx.post({ type: 'openLink', url }),
			}),
		);
		if (current.truncated) {
			block.appendChild(
				notice(
					doc,
					`Showing the first ${shown.toLocaleString('en')} of ${current.totalChars.toLocaleString('en')} characters.`,
				),
			);
			block.appendChild(
				button(doc, 'Show more of this document', () =>
					ctx.post({ type: 'showMore', tab, part, offset: shown }),
				),
			);
		}
	};
	ctx.updaters.set(updaterKey(tab, part), { html: draw });
	draw(untrusted);
	return block;
}

/** Text in a <pre>, never parsed as markup; further slices are appended as they arrive. */
export function textBlock(
	ctx: DocumentContext,
	tab: DocumentTab,
	part: number | undefined,
	slice: TextSlice,
): HTMLElement {
	const { doc } = ctx;
	const block = el(doc, 'div', { className: 'mp-text-block' });
	const pre = el(doc, 'pre', { className: 'mp-text', attrs: { tabindex: '0' } });
	pre.appendChild(doc.createTextNode(slice.text));
	let shown = slice.offset + slice.text.length;
	const more = button(doc, '', () => ctx.post({ type: 'showMore', tab, part, offset: shown }));
	const updateMore = () => {
		more.textContent = `Show more (${(slice.totalChars - shown).toLocaleString('en')} characters left)`;
		more.hidden = shown >= slice.totalChars;
	};
	updateMore();
	ctx.updaters.set(updaterKey(tab, part), {
		text: (next) => {
			if (next.offset !== shown) return; // a stale or repeated answer
			pre.appendChild(doc.createTextNode(next.text));
			shown += next.text.length;
			updateMore();
		},
	});
	block.append(pre, more);
	return block;
}

function entries(doc: Document, title: string, list: CvEntry[]): HTMLElement | undefined {
	if (list.length === 0) return undefined;
	const section = el(doc, 'section', { className: 'mp-cv-section' }, [el(doc, 'h3', { text: title })]);
	for (const entry of list) {
		section.appendChild(
			el(doc, 'article', { className: 'mp-cv-entry' }, [
				el(doc, 'h4', { text: [entry.title, entry.organisation].filter(Boolean).join(' — ') || '(untitled)' }),
				entry.period ? el(doc, 'p', { className: 'mp-muted', text: entry.period }) : undefined,
				entry.description ? el(doc, 'p', { text: entry.description }) : undefined,
			]),
		);
	}
	return section;
}

function cvContent(doc: Document, cv: CvModel): HTMLElement {
	return el(doc, 'div', { className: 'mp-cv' }, [
		el(doc, 'h2', { text: cv.name || 'Candidate' }),
		cv.contact.length > 0
			? el(doc, 'section', { className: 'mp-cv-section' }, [
					el(doc, 'h3', { text: 'Contact' }),
					fieldList(doc, cv.contact),
				])
			: undefined,
		cv.summary
			? el(doc, 'section', { className: 'mp-cv-section' }, [
					el(doc, 'h3', { text: 'Summary' }),
					el(doc, 'p', { text: cv.summary }),
				])
			: undefined,
		entries(doc, 'Experience', cv.experience),
		entries(doc, 'Education', cv.education),
		cv.skills.length > 0
			? el(doc, 'section', { className: 'mp-cv-section' }, [
					el(doc, 'h3', { text: 'Skills' }),
					el(
						doc,
						'ul',
						{ className: 'mp-chips' },
						cv.skills.map((s) => el(doc, 'li', { text: s })),
					),
				])
			: undefined,
		cv.languages.length > 0
			? el(doc, 'section', { className: 'mp-cv-section' }, [
					el(doc, 'h3', { text: 'Languages' }),
					el(doc, 'p', { text: cv.languages.join(', ') }),
				])
			: undefined,
	]);
}

function cvBlock(ctx: DocumentContext, tab: DocumentTab, view: Extract<DocumentView, { kind: 'cv' }>): HTMLElement {
	const { doc } = ctx;
	const block = el(doc, 'div');
	const readable = view.cv
		? cvContent(doc, view.cv)
		: notice(doc, view.problem ?? 'The parsed data could not be read.', 'warning');
	const raw = el(doc, 'div', { className: 'mp-raw' }, [textBlock(ctx, tab, undefined, view.raw)]);
	raw.hidden = view.cv !== undefined;
	const toggle = button(
		doc,
		view.cv ? 'Show raw XML' : 'Hide raw XML',
		() => {
			raw.hidden = !raw.hidden;
			toggle.textContent = raw.hidden ? 'Show raw XML' : 'Hide raw XML';
			toggle.setAttribute('aria-expanded', String(!raw.hidden));
		},
		{ className: 'mp-button mp-secondary' },
	);
	toggle.setAttribute('aria-expanded', String(!raw.hidden));
	block.append(readable, toggle, raw);
	return block;
}

const MAIN_HEADERS = ['from', 'to', 'cc', 'subject', 'date', 'reply-to'];

function emailBlock(
	ctx: DocumentContext,
	tab: DocumentTab,
	view: Extract<DocumentView, { kind: 'email' }>,
): HTMLElement {
	const { doc } = ctx;
	const block = el(doc, 'div', { className: 'mp-email' });
	block.appendChild(
		fieldList(
			doc,
			view.headers.filter((h) => MAIN_HEADERS.includes(h.label.toLowerCase())),
		),
	);
	const all = el(doc, 'details', { className: 'mp-headers' }, [
		el(doc, 'summary', { text: `All headers (${view.headers.length})` }),
		fieldList(doc, view.headers),
	]);
	block.appendChild(all);
	if (view.parts.length === 0) block.appendChild(notice(doc, 'The email has no parts.'));
	for (const part of view.parts) {
		const title = `Part ${part.index + 1}: ${part.contentType}${part.fileName ? ` — ${part.fileName}` : ''} (${formatBytes(part.size)})`;
		const section = el(doc, 'section', { className: 'mp-email-part', attrs: { 'aria-label': title } }, [
			el(doc, 'div', { className: 'mp-doc-header' }, [
				el(doc, 'h3', { text: title }),
				button(doc, 'Save as…', () => ctx.post({ type: 'save', tab, part: part.index }), {
					className: 'mp-button mp-secondary',
				}),
			]),
		]);
		if (part.body.kind === 'text') section.appendChild(textBlock(ctx, tab, part.index, part.body.slice));
		else if (part.body.kind === 'html') section.appendChild(safeHtmlBlock(ctx, tab, part.index, part.body.html));
		else section.appendChild(notice(doc, 'Attachment: no preview here. Use “Save as…” to open it elsewhere.'));
		block.appendChild(section);
	}
	return block;
}
