/**
 * Turns an application document (APIDocument) into what a document tab shows: a capped HTML prefix
 * (sanitised in the webview, see src/webview/common/sanitizePolicy.ts for why there), a text slice,
 * a PDF for pdf.js, a CV from HR-XML, or the parts of a MIME email. Decoding happens here, on the
 * host, so the webview only renders bounded pieces. No VS Code imports.
 */
import type { APIDocument } from '../../../protocol/catalogue';
import type {
	DocumentTab,
	DocumentView,
	EmailPartView,
	FieldRow,
	TextSlice,
	UntrustedHtml,
} from '../../../shared/panelMessages';
import { readCv, rawXml } from './hrxml';
import { clause } from '../../vocabulary';
import { decodeCharset, parseMime, type MimePart } from './mime';

/** Characters of text sent at once; "show more" fetches the next slice. */
export const TEXT_SLICE_CHARS = 200 * 1024;
/** PDFs larger than this are offered for saving instead of being previewed. */
export const MAX_PDF_PREVIEW_BYTES = 20 * 1024 * 1024;

/**
 * Characters of HTML sent at once. HTML cannot be cut into independent slices, so "show more" sends
 * a four times longer prefix.
 */
export const HTML_PREFIX_CHARS = 256 * 1024;

/** A prefix of untrusted HTML for the webview, which sanitises it before display. */
export function htmlPrefix(html: string, limit = HTML_PREFIX_CHARS): UntrustedHtml {
	return {
		html: html.length > limit ? html.slice(0, limit) : html,
		truncated: html.length > limit,
		totalChars: html.length,
	};
}

/** The first `TEXT_SLICE_CHARS` characters of `text` from `offset`. */
export function textSlice(text: string, offset = 0, size = TEXT_SLICE_CHARS): TextSlice {
	const start = Math.min(Math.max(0, offset), text.length);
	return { text: text.slice(start, start + size), offset: start, totalChars: text.length };
}

/** A document as loaded for one tab: what is shown, and what "show more" and "Save as…" need. */
export interface LoadedDocument {
	tab: DocumentTab;
	view: DocumentView;
	fileName?: string;
	/** The bytes "Save as…" writes for the tab's main document. */
	bytes?: Uint8Array;
	/** Full text or HTML behind each slice; key 'main' or the email part index. */
	sources: Map<string, { kind: 'text' | 'html'; content: string }>;
	/** Leaf parts of a full email, for saving attachments. */
	parts: MimePart[];
}

export interface DocumentDependencies {
	/** DOCX to HTML (mammoth on the host); absent in tests that do not need it. */
	docxToHtml?: (bytes: Uint8Array) => Promise<string>;
}

const utf8 = new TextEncoder();

/** Bytes of a document: DocumentBytes, or Document as UTF-8 (the email body comes as text). */
export function documentBytes(doc: APIDocument): Uint8Array | undefined {
	if (doc.DocumentBytes && doc.DocumentBytes.length > 0) return doc.DocumentBytes;
	if (doc.Document !== undefined && doc.Document !== '') return utf8.encode(doc.Document);
	return undefined;
}

export type DocumentKind = 'pdf' | 'docx' | 'html' | 'text' | 'xml' | 'binary';

const TEXT_EXTENSIONS = ['txt', 'text', 'csv', 'md', 'log', 'json', 'rtf', 'eml', 'ics', 'vcf', 'tsv'];

/** What kind of document this is, from its name, format and first bytes (first bytes win). */
export function documentKind(
	fileName: string | undefined,
	format: string | undefined,
	bytes: Uint8Array,
): DocumentKind {
	const ext = (fileName ?? '').toLowerCase().split('.').pop() ?? '';
	const fmt = (format ?? '').toLowerCase();
	if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
	if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
		return ext === 'docx' || fmt.includes('docx') || fmt.includes('wordprocessingml') ? 'docx' : 'binary';
	}
	if (ext === 'pdf' || fmt.includes('pdf')) return 'binary'; // claims PDF but is not: do not feed it to pdf.js
	if (ext === 'html' || ext === 'htm' || fmt.includes('html')) return 'html';
	if (ext === 'xml' || fmt.includes('xml') || fmt.includes('hrxml')) return 'xml';
	if (TEXT_EXTENSIONS.includes(ext) || fmt.startsWith('text') || fmt === 'txt') return 'text';
	return looksLikeText(bytes) ? 'text' : 'binary';
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
	return prefix.every((b, i) => bytes[i] === b);
}

/** No NUL bytes and valid UTF-8 in the first 4 KB. */
function looksLikeText(bytes: Uint8Array): boolean {
	const head = bytes.subarray(0, 4096);
	if (head.includes(0)) return false;
	try {
		new TextDecoder('utf-8', { fatal: true }).decode(head.length < bytes.length ? trimPartialUtf8(head) : head);
		return true;
	} catch {
		return false;
	}
}

function trimPartialUtf8(bytes: Uint8Array): Uint8Array {
	let end = bytes.length;
	let back = 0;
	while (end > 0 && back < 4 && (bytes[end - 1] & 0xc0) === 0x80) {
		end--;
		back++;
	}
	if (end > 0 && bytes[end - 1] >= 0xc0) end--;
	return bytes.subarray(0, end);
}

/** HTML markup at the start (after whitespace) or a typical HTML element anywhere early on. */
export function looksLikeHtml(text: string): boolean {
	const head = text.slice(0, 4096);
	return (
		/^\s*</.test(head) &&
		/<(?:!doctype|html|body|div|p|br|table|span|a|b|i|img|style|script|head|font)\b/i.test(head)
	);
}

function empty(tab: DocumentTab, message: string): LoadedDocument {
	return { tab, view: { kind: 'missing', message }, sources: new Map(), parts: [] };
}

const MISSING: Record<DocumentTab, string> = {
	emailBody: 'This application has no email body.',
	attachment: 'This application has no attachment.',
	parsed: 'This application has no parsed data (parsing may not be activated on the account).',
	email: 'This application has no full email.',
};

/** Loads the document of one tab (the record from GetApplicationsPaged with that tab's boolInclude* flag). */
export async function loadDocument(
	tab: DocumentTab,
	doc: APIDocument | undefined,
	deps: DocumentDependencies = {},
): Promise<LoadedDocument> {
	const bytes = doc ? documentBytes(doc) : undefined;
	if (!doc || !bytes) return empty(tab, MISSING[tab]);
	const fileName = doc.FileName || undefined;
	const base = {
		tab,
		fileName,
		bytes,
		sources: new Map<string, { kind: 'text' | 'html'; content: string }>(),
		parts: [] as MimePart[],
	};
	try {
		switch (tab) {
			case 'emailBody': {
				const text =
					doc.Document !== undefined && doc.Document !== '' ? doc.Document : decodeCharset(bytes, 'utf-8');
				return {
					...base,
					...showTextOrHtml(
						base.sources,
						'main',
						text,
						looksLikeHtml(text) || (doc.DocumentFormat ?? '').toLowerCase().includes('html'),
						fileName,
					),
				};
			}
			case 'parsed':
				return { ...base, view: parsedView(decodeCharset(bytes, 'utf-8'), base.sources) };
			case 'email':
				return { ...base, ...(await emailView(bytes, base.sources)) };
			case 'attachment':
				return { ...base, view: await attachmentView(doc, bytes, base.sources, deps) };
		}
	} catch (error) {
		return {
			...base,
			view: {
				kind: 'error',
				message: `The document could not be shown: ${clause(error instanceof Error ? error.message : String(error))}.`,
			},
		};
	}
}

function showTextOrHtml(
	sources: LoadedDocument['sources'],
	key: string,
	text: string,
	asHtml: boolean,
	fileName?: string,
): { view: DocumentView } {
	if (asHtml) {
		sources.set(key, { kind: 'html', content: text });
		return { view: { kind: 'html', fileName, html: htmlPrefix(text) } };
	}
	sources.set(key, { kind: 'text', content: text });
	return { view: { kind: 'text', fileName, slice: textSlice(text) } };
}

function parsedView(xml: string, sources: LoadedDocument['sources']): DocumentView {
	const raw = rawXml(xml);
	sources.set('main', { kind: 'text', content: raw.text });
	const result = readCv(xml);
	return 'cv' in result
		? { kind: 'cv', cv: result.cv, raw: textSlice(raw.text), rawIsPretty: raw.pretty }
		: { kind: 'cv', problem: result.problem, raw: textSlice(raw.text), rawIsPretty: raw.pretty };
}

async function attachmentView(
	doc: APIDocument,
	bytes: Uint8Array,
	sources: LoadedDocument['sources'],
	deps: DocumentDependencies,
): Promise<DocumentView> {
	const fileName = doc.FileName || undefined;
	const kind = documentKind(fileName, doc.DocumentFormat, bytes);
	switch (kind) {
		case 'pdf':
			return bytes.length <= MAX_PDF_PREVIEW_BYTES
				? { kind: 'pdf', fileName, size: bytes.length, base64: Buffer.from(bytes).toString('base64') }
				: { kind: 'binary', fileName, contentType: 'application/pdf', size: bytes.length };
		case 'docx': {
			if (!deps.docxToHtml) {
				return {
					kind: 'binary',
					fileName,
					contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
					size: bytes.length,
				};
			}
			return showTextOrHtml(sources, 'main', await deps.docxToHtml(bytes), true, fileName).view;
		}
		case 'html':
			return showTextOrHtml(sources, 'main', decodeCharset(bytes, 'utf-8'), true, fileName).view;
		case 'text':
		case 'xml':
			return showTextOrHtml(sources, 'main', decodeCharset(bytes, 'utf-8'), false, fileName).view;
		case 'binary':
			return {
				kind: 'binary',
				fileName,
				contentType: doc.DocumentFormat || 'application/octet-stream',
				size: bytes.length,
			};
	}
}

async function emailView(
	bytes: Uint8Array,
	sources: LoadedDocument['sources'],
): Promise<{ view: DocumentView; parts: MimePart[] }> {
	const message = await parseMime(bytes);
	const headers: FieldRow[] = message.headers.map((h) => ({ label: h.name, value: h.value }));
	const parts: EmailPartView[] = message.parts.map((part, index) => {
		const common = { index, contentType: part.contentType, fileName: part.fileName, size: part.bytes.length };
		const isAttachment =
			part.disposition === 'attachment' || (part.fileName !== undefined && part.disposition !== 'inline');
		if (!isAttachment && part.contentType === 'text/html') {
			const html = decodeCharset(part.bytes, part.charset);
			sources.set(String(index), { kind: 'html', content: html });
			return { ...common, body: { kind: 'html', html: htmlPrefix(html) } };
		}
		if (!isAttachment && part.contentType.startsWith('text/')) {
			const text = decodeCharset(part.bytes, part.charset);
			sources.set(String(index), { kind: 'text', content: text });
			return { ...common, body: { kind: 'text', slice: textSlice(text) } };
		}
		return { ...common, body: { kind: 'attachment' } };
	});
	return { view: { kind: 'email', headers, parts }, parts: message.parts };
}

/** The next piece of a text or HTML source after the user asked for more. */
export function moreOf(
	loaded: LoadedDocument,
	part: number | undefined,
	offset: number,
): { kind: 'text'; slice: TextSlice } | { kind: 'html'; html: UntrustedHtml } | undefined {
	const source = loaded.sources.get(part === undefined ? 'main' : String(part));
	if (!source) return undefined;
	if (source.kind === 'text') return { kind: 'text', slice: textSlice(source.content, offset) };
	// `offset` is the length of the prefix shown so far.
	return { kind: 'html', html: htmlPrefix(source.content, Math.max(HTML_PREFIX_CHARS, offset * 4)) };
}

/** File name and bytes "Save as…" writes for the main document or an email part. */
export function savable(
	loaded: LoadedDocument,
	part: number | undefined,
): { fileName: string; bytes: Uint8Array } | undefined {
	if (part !== undefined) {
		const mimePart = loaded.parts[part];
		return mimePart
			? {
					fileName: safeFileName(
						mimePart.fileName ?? `part-${part + 1}${extensionFor(mimePart.contentType)}`,
					),
					bytes: mimePart.bytes,
				}
			: undefined;
	}
	if (!loaded.bytes) return undefined;
	const fallback: Record<DocumentTab, string> = {
		emailBody: 'email-body.html',
		attachment: 'attachment',
		parsed: 'parsed.xml',
		email: 'email.eml',
	};
	return { fileName: safeFileName(loaded.fileName ?? fallback[loaded.tab]), bytes: loaded.bytes };
}

function extensionFor(contentType: string): string {
	return (
		({ 'text/plain': '.txt', 'text/html': '.html', 'application/pdf': '.pdf' } as Record<string, string>)[
			contentType
		] ?? ''
	);
}

/** A file name without directories or characters that file systems refuse. */
export function safeFileName(name: string): string {
	const base =
		name
			.split(/[\\/]/)
			.pop()
			// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
			?.replace(/[\u0000-\u001f<>:"|?*]/g, '_')
			.replace(/^\.+/, '')
			.trim() ?? '';
	return base.slice(0, 200) || 'document';
}
