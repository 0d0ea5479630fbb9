/**
 * PDF preview with pdf.js (the separate bundle dist/webview/pdf.js, loaded only when a PDF is shown;
 * see common/pdfLoader.ts), entirely inside the webview and without any network: the bytes come from
 * the host by message, and the pdf.js worker code is bundled into this script and run on the main
 * thread ("fake worker"). A real Worker is not used because webview resources are served from another
 * origin than the webview document, which a Worker cannot be created from; dist/webview/pdf.worker.min.mjs
 * is therefore unused. Embedded fonts are loaded from memory with the FontFace API (no fetch); the
 * standard 14 fonts, which PDFs may use without embedding, fall back to local system fonts.
 * Pages are rendered one at a time, the first few at once and the rest on request, so a large PDF does
 * not freeze the panel.
 */
// Sets globalThis.pdfjsWorker, which pdf.js uses as its main-thread worker.
import 'pdfjs-dist/build/pdf.worker.mjs';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import { button, el, notice } from '../common/dom';

const FIRST_PAGES = 3;
const MORE_PAGES = 5;

function fromBase64(base64: string): Uint8Array {
	const binary = atob(base64);
	const bytes = new Uint8Array(binary.length);
	for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
	return bytes;
}

/** Renders the PDF's pages as canvases into `container`. */
export function renderPdf(doc: Document, container: HTMLElement, base64: string): void {
	const status = notice(doc, 'Rendering PDF…');
	container.appendChild(status);
	const task = getDocument({
		data: fromBase64(base64),
		isEvalSupported: false,
		useSystemFonts: true,
		disableAutoFetch: true,
		disableStream: true,
		stopAtErrors: false,
		enableXfa: false,
	});
	task.promise
		.then(async (pdf) => {
			status.textContent = `${pdf.numPages} page${pdf.numPages === 1 ? '' : 's'}`;
			let next = 1;
			const more = button(doc, 'Show more pages', () => void renderPages(MORE_PAGES));
			const renderPages = async (count: number) => {
				more.disabled = true;
				const last = Math.min(pdf.numPages, next + count - 1);
				for (; next <= last; next++) await renderPage(doc, pdf, next, container, more);
				more.disabled = false;
				more.hidden = next > pdf.numPages;
			};
			container.appendChild(more);
			await renderPages(FIRST_PAGES);
		})
		.catch((error: unknown) => {
			const reason = (error instanceof Error ? error.message : String(error)).replace(/\.+$/, '');
			status.textContent = `The PDF could not be previewed (${reason}). Use “Save as…” to open it elsewhere.`;
		});
}

async function renderPage(
	doc: Document,
	pdf: PDFDocumentProxy,
	number: number,
	container: HTMLElement,
	before: HTMLElement,
): Promise<void> {
	const page = await pdf.getPage(number);
	const viewport = page.getViewport({ scale: 1.25 });
	const canvas = el(doc, 'canvas', {
		className: 'mp-pdf-page',
		attrs: { 'aria-label': `Page ${number}`, role: 'img' },
	});
	// Attributes, not inline styles: the panel's CSP has no 'unsafe-inline' for styles.
	canvas.setAttribute('width', String(Math.ceil(viewport.width)));
	canvas.setAttribute('height', String(Math.ceil(viewport.height)));
	container.insertBefore(canvas, before);
	const context = canvas.getContext('2d');
	if (!context) return;
	await page.render({ canvasContext: context, viewport }).promise;
}
