/**
 * The document's bytes as text: strict UTF-8, and the two ways of reading them without decoding all of
 * it (non-ASCII documents read as latin1, large plain text left undecoded).
 */
import { Buffer, isAscii } from 'node:buffer';
import { CH_AMP, CH_CR, CH_GT, CH_LF, CH_LT } from '../chars';
import { firstInvalidChar } from './characters';
import { clip, hex, positionOf, XmlError } from './errors';
import type { XmlElement } from './model';

export function utf8Length(s: string): number {
	let bytes = 0;
	const n = s.length;
	for (let i = 0; i < n; i++) {
		const c = s.charCodeAt(i);
		if (c < 0x80) bytes++;
		else if (c < 0x800) bytes += 2;
		else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
			const d = s.charCodeAt(i + 1);
			if (d >= 0xdc00 && d <= 0xdfff) {
				bytes += 4;
				i++;
			} else {
				bytes += 3;
			}
		} else bytes += 3;
	}
	return bytes;
}

/** Byte offset of the first malformed UTF-8 sequence in `b` (error path only). */
function invalidUtf8Offset(b: Uint8Array): number {
	const n = b.length;
	let i = 0;
	while (i < n) {
		const c = b[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		let need: number;
		let min: number;
		let cp: number;
		if (c >= 0xc2 && c <= 0xdf) {
			need = 1;
			min = 0x80;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			min = 0x800;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			min = 0x10000;
			cp = c & 0x07;
		} else {
			return i;
		}
		if (i + need >= n) return i;
		for (let k = 1; k <= need; k++) {
			const d = b[i + k];
			if (d === undefined || (d & 0xc0) !== 0x80) return i;
			cp = (cp << 6) | (d & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
		i += need + 1;
	}
	return n;
}

/**
 * UTF-8 bytes as text; invalid UTF-8 throws, as TextDecoder's fatal mode does (which also drops a
 * leading BOM). ASCII, the common case, is read as latin1: the same characters, without Node's
 * UTF-8 decoder, which costs tens of times more on a page of megabytes.
 */
export function utf8Strict(bytes: Uint8Array): string {
	if (isAscii(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
	return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

export function decodeBytes(bytes: Uint8Array): string {
	if (bytes.length >= 2 && ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))) {
		throw new XmlError('XML_ENCODING', 'UTF-16 byte order mark found; only UTF-8 is supported');
	}
	if (bytes.length >= 2 && ((bytes[0] === 0 && bytes[1] === CH_LT) || (bytes[0] === CH_LT && bytes[1] === 0))) {
		throw new XmlError('XML_ENCODING', 'document looks like UTF-16; only UTF-8 is supported');
	}
	try {
		// A leading UTF-8 BOM is stripped (TextDecoder's default; ASCII has none).
		return utf8Strict(bytes);
	} catch {
		const offset = invalidUtf8Offset(bytes);
		let prefix = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
		if (prefix.charCodeAt(0) === 0xfeff) prefix = prefix.slice(1);
		const at = positionOf(prefix, prefix.length);
		const byte =
			bytes[offset] === undefined
				? 'truncated sequence'
				: `byte 0x${bytes[offset].toString(16).padStart(2, '0')}`;
		throw new XmlError('XML_ENCODING', `invalid UTF-8 (${byte} at byte offset ${offset})`, at.line, at.column);
	}
}

// ---------------------------------------------------------------------------------------------
// Non-ASCII documents read as latin1

/** A document read as latin1 (see parseAsLatin1). */
export interface Latin1Source {
	bytes: Buffer;
	/** Offsets of its first and last non-ASCII bytes. */
	firstHigh: number;
	lastHigh: number;
	/** Set once the stream has read a subtree holding every non-ASCII byte. */
	covered: boolean;
}

/** Thrown inside the parser when a latin1 read cannot be exact (never escapes parseAsLatin1). */
export const LATIN1_ABANDONED = new Error('latin1 parse abandoned');

// ---------------------------------------------------------------------------------------------
// Deferred large text

/** Shortest run of character data worth leaving undecoded. */
export const DEFERRED_TEXT_MIN = 64 * 1024;
/** Stands in `el.text` while parsing for a deferred run; NUL cannot occur in parsed text. */
export const DEFERRED_MARK = '\u0000deferred';
/** Thrown inside the parser when the document does not fit the deferred shape (never escapes). */
export const DEFERRAL_ABANDONED = new Error('deferred parse abandoned');

export interface DeferredRuns {
	/** Offset in the spliced text where each run was cut out (a '<' follows). */
	at: number[];
	bytes: Uint8Array[];
}

export const deferredBytes = new WeakMap<XmlElement, Uint8Array>();

/**
 * The raw UTF-8 bytes of an element's text when parseXml deferred it (see
 * {@link XmlParseOptions.deferLargeText}), else undefined. The bytes have not been checked: a reader
 * that accepts them must validate them itself, and can always fall back on `el.text`.
 */
export function deferredTextBytes(el: XmlElement): Uint8Array | undefined {
	return deferredBytes.get(el);
}

/**
 * Offsets [a0, b0, a1, b1, ...] of the runs between a '>' and the next '<' that are long and plain
 * (no '&', CR or LF). Probes every half minimum length, so a document without such runs costs a few
 * hundred short native scans.
 */
export function findLargeTextRuns(input: Uint8Array): number[] {
	// Buffer's indexOf is a native memchr; a plain Uint8Array's is an element-by-element loop.
	const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
	const runs: number[] = [];
	const step = DEFERRED_TEXT_MIN >> 1;
	for (let p = step; p < bytes.length; p += step) {
		if (bytes[p] === CH_LT) continue;
		const next = bytes.indexOf(CH_LT, p);
		if (next < 0) break;
		const prev = bytes.lastIndexOf(CH_LT, p);
		if (prev >= 0 && (runs.length === 0 || prev >= runs[runs.length - 1])) {
			const a = bytes.indexOf(CH_GT, prev) + 1;
			if (a > 0 && next - a >= DEFERRED_TEXT_MIN) {
				const run = bytes.subarray(a, next);
				if (run.indexOf(CH_AMP) < 0 && run.indexOf(CH_CR) < 0 && run.indexOf(CH_LF) < 0) runs.push(a, next);
			}
		}
		p = next - (next % step);
	}
	return runs;
}

/** Makes `el.text` decode and check its deferred run on first read. */
export function deferText(el: XmlElement, run: Uint8Array): void {
	deferredBytes.set(el, run);
	let text: string | undefined;
	Object.defineProperty(el, 'text', {
		enumerable: true,
		configurable: true,
		get: () => (text ??= decodeDeferredText(run, el)),
	});
}

function decodeDeferredText(run: Uint8Array, el: XmlElement): string {
	let text: string;
	try {
		text = utf8Strict(run);
	} catch {
		throw new XmlError('XML_ENCODING', `invalid UTF-8 in the text of <${clip(el.name)}>`, el.line, el.column);
	}
	const bad = firstInvalidChar(text, false);
	if (bad >= 0) {
		throw new XmlError(
			'XML_MALFORMED',
			`character ${hex(text.charCodeAt(bad))} is not allowed in XML (in the text of <${clip(el.name)}>)`,
			el.line,
			el.column,
		);
	}
	const cdEnd = text.indexOf(']]>');
	if (cdEnd >= 0) {
		throw new XmlError(
			'XML_MALFORMED',
			`']]>' is not allowed in text (in the text of <${clip(el.name)}>)`,
			el.line,
			el.column,
		);
	}
	return text;
}
