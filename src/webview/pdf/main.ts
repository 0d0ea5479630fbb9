/**
 * The PDF viewer bundle (dist/webview/pdf.js): pdf.js is 97 % of what a PDF preview needs, so it is a
 * bundle of its own that the application panel loads only when it shows a PDF, under the panel's
 * CSP with its nonce. It hands its one function to the panel through a global.
 */
import { PDF_GLOBAL, type PdfViewer } from '../common/pdfLoader';
import { renderPdf } from './render';

const viewer: PdfViewer = { renderPdf };
(globalThis as unknown as Record<string, PdfViewer>)[PDF_GLOBAL] = viewer;
