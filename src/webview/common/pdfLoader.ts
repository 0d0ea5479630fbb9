/**
 * Loads the PDF viewer bundle on demand: a script element with the page's nonce and the address the
 * host put on the panel's own script tag (data-script-pdf), so it runs under the same CSP. The panel's
 * first paint never waits for pdf.js.
 */

/** The global the viewer bundle sets. */
export const PDF_GLOBAL = 'multipostingPdfViewer';

export interface PdfViewer {
	renderPdf(doc: Document, container: HTMLElement, base64: string): void;
}

/** Where the viewer is and the nonce to load it with, read from the panel's script tag at start-up. */
export interface LazyScript {
	src: string;
	nonce: string;
}

/** The lazy script `name` announced on the current script tag (`data-script-<name>`), if any. */
export function lazyScript(script: HTMLOrSVGScriptElement | null, name: string): LazyScript | undefined {
	if (!(script instanceof HTMLScriptElement)) return undefined;
	const src = script.dataset[`script${name.charAt(0).toUpperCase()}${name.slice(1)}`];
	return src ? { src, nonce: script.nonce ?? '' } : undefined;
}

let loading: Promise<PdfViewer> | undefined;

/** The viewer, loading its bundle the first time. */
export function loadPdfViewer(doc: Document, script: LazyScript | undefined): Promise<PdfViewer> {
	const loaded = (globalThis as unknown as Record<string, PdfViewer | undefined>)[PDF_GLOBAL];
	if (loaded) return Promise.resolve(loaded);
	if (!script) return Promise.reject(new Error('the PDF viewer is not available here'));
	loading ??= new Promise<PdfViewer>((resolve, reject) => {
		const element = doc.createElement('script');
		element.nonce = script.nonce;
		element.src = script.src;
		element.addEventListener('load', () => {
			const viewer = (globalThis as unknown as Record<string, PdfViewer | undefined>)[PDF_GLOBAL];
			if (viewer) resolve(viewer);
			else reject(new Error('the PDF viewer did not start'));
		});
		element.addEventListener('error', () => {
			loading = undefined;
			reject(new Error('the PDF viewer could not be loaded'));
		});
		doc.head.appendChild(element);
	});
	return loading;
}
