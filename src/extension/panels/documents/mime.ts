/**
 * A small MIME (RFC 2045/2046/2047) reader for the full-email document of an application: headers
 * (folded lines, encoded words), nested multipart bodies, base64 and quoted-printable transfer
 * encodings and charsets. Leaf parts are returned flat. Bounded: nesting and part count are capped so
 * a hostile message cannot make it loop or recurse without end. No VS Code imports.
 */

/** One header as written (name case kept), value unfolded and with encoded words decoded. */
export interface MimeHeader {
	name: string;
	value: string;
}

/** A leaf part of a message. */
export interface MimePart {
	contentType: string;
	charset?: string;
	fileName?: string;
	disposition?: string;
	headers: MimeHeader[];
	/** The body after the transfer encoding was undone. */
	bytes: Uint8Array;
}

export interface MimeMessage {
	headers: MimeHeader[];
	parts: MimePart[];
}

const MAX_DEPTH = 8;
const MAX_PARTS = 200;

const latin1 = new TextDecoder('latin1');

/** Parses a whole message given as bytes (header bytes are read as Latin-1, bodies stay bytes). */
export function parseMime(bytes: Uint8Array): MimeMessage {
	const parts: MimePart[] = [];
	const text = latin1.decode(bytes);
	const { headers, body } = splitEntity(text);
	walk(headers, body, 0, parts);
	return { headers, parts };
}

function splitEntity(text: string): { headers: MimeHeader[]; body: string } {
	const match = /\r?\n\r?\n/.exec(text);
	const head = match ? text.slice(0, match.index) : text;
	const body = match ? text.slice(match.index + match[0].length) : '';
	return { headers: parseHeaders(head), body };
}

/** Unfolds and splits a header block; lines without a colon are ignored. */
export function parseHeaders(block: string): MimeHeader[] {
	const headers: MimeHeader[] = [];
	for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
		const colon = line.indexOf(':');
		if (colon <= 0) continue;
		headers.push({ name: line.slice(0, colon).trim(), value: decodeEncodedWords(line.slice(colon + 1).trim()) });
	}
	return headers;
}

function header(headers: MimeHeader[], name: string): string | undefined {
	const lower = name.toLowerCase();
	return headers.find((h) => h.name.toLowerCase() === lower)?.value;
}

/** Splits `type/subtype; a=b; c="d"` into the lower-case value and its parameters (RFC 2231 `*` forms simplified). */
export function parseHeaderValue(value: string): { value: string; params: Record<string, string> } {
	const [first, ...rest] = splitParams(value);
	const params: Record<string, string> = {};
	for (const item of rest) {
		const eq = item.indexOf('=');
		if (eq <= 0) continue;
		let key = item.slice(0, eq).trim().toLowerCase();
		let val = item.slice(eq + 1).trim();
		if (val.startsWith('"') && val.endsWith('"') && val.length >= 2) val = val.slice(1, -1).replace(/\\(.)/g, '$1');
		if (key.endsWith('*')) {
			key = key.slice(0, -1).replace(/\*\d+$/, '');
			const m = /^([^']*)'[^']*'(.*)$/.exec(val);
			if (m) val = decodeCharset(percentBytes(m[2]), m[1]);
		} else {
			key = key.replace(/\*\d+$/, '');
		}
		params[key] = key in params && /\*\d/.test(item) ? params[key] + val : val;
	}
	return { value: first.trim().toLowerCase(), params };
}

function splitParams(value: string): string[] {
	const out: string[] = [];
	let current = '';
	let quoted = false;
	for (let i = 0; i < value.length; i++) {
		const c = value[i];
		if (c === '"' && value[i - 1] !== '\\') quoted = !quoted;
		if (c === ';' && !quoted) {
			out.push(current);
			current = '';
		} else {
			current += c;
		}
	}
	out.push(current);
	return out;
}

function walk(headers: MimeHeader[], body: string, depth: number, parts: MimePart[]): void {
	if (parts.length >= MAX_PARTS) return;
	const type = parseHeaderValue(header(headers, 'Content-Type') ?? 'text/plain; charset=us-ascii');
	const contentType = type.value || 'text/plain';
	if (contentType.startsWith('multipart/') && type.params.boundary && depth < MAX_DEPTH) {
		for (const section of splitMultipart(body, type.params.boundary)) {
			const entity = splitEntity(section);
			walk(entity.headers, entity.body, depth + 1, parts);
		}
		return;
	}
	if (contentType === 'message/rfc822' && depth < MAX_DEPTH) {
		const inner = splitEntity(latin1.decode(decodeTransfer(body, header(headers, 'Content-Transfer-Encoding'))));
		walk(inner.headers, inner.body, depth + 1, parts);
		return;
	}
	const disposition = parseHeaderValue(header(headers, 'Content-Disposition') ?? '');
	const fileName = disposition.params.filename ?? type.params.name;
	parts.push({
		contentType,
		charset: type.params.charset,
		fileName: fileName === undefined ? undefined : decodeEncodedWords(fileName),
		disposition: disposition.value || undefined,
		headers,
		bytes: decodeTransfer(body, header(headers, 'Content-Transfer-Encoding')),
	});
}

/** The sections between `--boundary` lines, preamble and epilogue dropped. */
export function splitMultipart(body: string, boundary: string): string[] {
	const delimiter = `--${boundary}`;
	const sections: string[] = [];
	const lines = body.split(/\r?\n/);
	let current: string[] | undefined;
	for (const line of lines) {
		const trimmed = line.replace(/[ \t]+$/, '');
		if (trimmed === `${delimiter}--`) {
			if (current) sections.push(current.join('\r\n'));
			return sections;
		}
		if (trimmed === delimiter) {
			if (current) sections.push(current.join('\r\n'));
			current = [];
			if (sections.length >= MAX_PARTS) return sections;
			continue;
		}
		current?.push(line);
	}
	if (current) sections.push(current.join('\r\n')); // unterminated: keep what came
	return sections;
}

/** Undoes a Content-Transfer-Encoding; the body text holds one byte per character (Latin-1). */
export function decodeTransfer(body: string, encoding: string | undefined): Uint8Array {
	switch ((encoding ?? '').trim().toLowerCase()) {
		case 'base64':
			return Uint8Array.from(Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64'));
		case 'quoted-printable':
			return decodeQuotedPrintable(body);
		default:
			return Uint8Array.from(Buffer.from(body, 'latin1'));
	}
}

/** Quoted-printable (RFC 2045 §6.7): soft line breaks removed, =XX turned into bytes. */
export function decodeQuotedPrintable(text: string): Uint8Array {
	const joined = text.replace(/=\r?\n/g, '');
	const out: number[] = [];
	for (let i = 0; i < joined.length; i++) {
		const c = joined.charCodeAt(i);
		if (c === 0x3d && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
			out.push(parseInt(joined.slice(i + 1, i + 3), 16));
			i += 2;
		} else {
			out.push(c & 0xff);
		}
	}
	return Uint8Array.from(out);
}

function percentBytes(text: string): Uint8Array {
	const out: number[] = [];
	for (let i = 0; i < text.length; i++) {
		if (text[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
			out.push(parseInt(text.slice(i + 1, i + 3), 16));
			i += 2;
		} else {
			out.push(text.charCodeAt(i) & 0xff);
		}
	}
	return Uint8Array.from(out);
}

/** Decodes bytes in a named charset; unknown charsets fall back to UTF-8 with replacement characters. */
export function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
	const label = (charset ?? 'utf-8').trim().toLowerCase() || 'utf-8';
	try {
		return new TextDecoder(label === 'us-ascii' ? 'utf-8' : label).decode(bytes);
	} catch {
		return new TextDecoder('utf-8').decode(bytes);
	}
}

/** RFC 2047 encoded words (=?charset?B|Q?text?=); whitespace between adjacent words is dropped. */
export function decodeEncodedWords(value: string): string {
	return value
		.replace(/(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)/g, '$1')
		.replace(/=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g, (_all, charset: string, kind: string, text: string) => {
			const bytes =
				kind.toUpperCase() === 'B'
					? Uint8Array.from(Buffer.from(text, 'base64'))
					: decodeQuotedPrintable(text.replace(/_/g, ' '));
			return decodeCharset(bytes, charset.replace(/\*.*$/, ''));
		});
}
