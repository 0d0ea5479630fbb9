/**
 * The entry point of parsing: limits, the input's size and encoding, a DOCTYPE refused up front, and
 * the choice between reading the decoded text and the two cheaper readings of the bytes.
 */
import { Buffer, isAscii, isUtf8 } from 'node:buffer';
import { XmlError } from './errors';
import { Parser } from './elements';
import {
	decodeBytes,
	DEFERRED_TEXT_MIN,
	deferredBytes,
	deferText,
	findLargeTextRuns,
	utf8Length,
	utf8Strict,
	type DeferredRuns,
	type Latin1Source,
} from './input';
import { DEFAULT_XML_LIMITS, type XmlElement, type XmlLimits, type XmlParseOptions } from './model';
import { rejectDoctypeInProlog } from './prolog';

/**
 * Parses an XML 1.0 document into a light element tree and returns its root element.
 *
 * Bytes are decoded as strict UTF-8 (a UTF-8 BOM is skipped; a UTF-16 BOM, invalid UTF-8 or a
 * declared encoding other than UTF-8 is 'XML_ENCODING'; the same declaration check applies to
 * strings). A DOCTYPE is refused with 'XML_DOCTYPE' before parsing starts (only the size check and
 * decoding come first). Comments and processing instructions are skipped. Every limit is checked
 * while scanning. Throws {@link XmlError} with line and column on the first problem.
 */
export function parseXml(
	input: string | Uint8Array,
	limits?: Partial<XmlLimits>,
	options?: XmlParseOptions,
): XmlElement {
	const lim: XmlLimits =
		limits === undefined ? DEFAULT_XML_LIMITS : { ...DEFAULT_XML_LIMITS, ...definedOnly(limits) };
	let s: string;
	let checkSurrogates: boolean;
	if (typeof input === 'string') {
		if (input.length > lim.maxBytes || (input.length * 3 > lim.maxBytes && utf8Length(input) > lim.maxBytes)) {
			throw new XmlError('XML_TOO_LARGE', `document is larger than ${lim.maxBytes} bytes`);
		}
		s = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
		checkSurrogates = true;
	} else {
		if (input.length > lim.maxBytes) {
			throw new XmlError(
				'XML_TOO_LARGE',
				`document of ${input.length} bytes is larger than ${lim.maxBytes} bytes`,
			);
		}
		if (options?.deferLargeText === true && input.length >= DEFERRED_TEXT_MIN) {
			const root = parseDeferringLargeText(input, lim, options.stream);
			if (root !== undefined) return root;
		}
		if (options?.stream !== undefined) {
			const root = parseAsLatin1(input, lim, options.stream);
			if (root !== undefined) return root;
		}
		s = decodeBytes(input);
		checkSurrogates = false; // a fatal UTF-8 decoder never yields lone surrogates
	}
	rejectDoctypeInProlog(s);
	return new Parser(s, lim, checkSurrogates, undefined, options?.stream).parse();
}

/** U+FFFE and U+FFFF in UTF-8: not XML characters, which latin1 text would not show. */
const UTF8_FFFE = Buffer.from([0xef, 0xbf, 0xbe]);
const UTF8_FFFF = Buffer.from([0xef, 0xbf, 0xbf]);
const ASCII_PROBE = 64 * 1024;

/**
 * A valid UTF-8 document whose non-ASCII bytes all lie in the subtree a stream reads itself
 * (readSubtree), parsed without decoding it as UTF-8: latin1 gives one code unit per byte in one
 * copy, the parser reads the ASCII markup around the subtree exactly as it would the decoded text,
 * and the stream makes its strings from the bytes (SubtreeSource.bytes). Converting non-ASCII text is
 * most of the cost of decoding a page of real data, whose values are mostly ASCII. Undefined
 * (having kept nothing) for anything else: an ASCII document, invalid UTF-8, U+FFFE or U+FFFF, a
 * non-ASCII byte the parser would read itself, a stream that gives up, or any error; the caller then
 * parses the decoded text, which gives the exact result or error.
 */
function parseAsLatin1(
	input: Uint8Array,
	lim: XmlLimits,
	stream: NonNullable<XmlParseOptions['stream']>,
): XmlElement | undefined {
	const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
	const firstHigh = nonAsciiOffset(bytes, true);
	if (firstHigh < 0 || !isUtf8(bytes) || bytes.includes(UTF8_FFFE) || bytes.includes(UTF8_FFFF)) return undefined;
	const source: Latin1Source = { bytes, firstHigh, lastHigh: nonAsciiOffset(bytes, false), covered: false };
	try {
		const s = bytes.toString('latin1');
		rejectDoctypeInProlog(s);
		return new Parser(s, lim, false, undefined, stream, source).parse();
	} catch {
		return undefined;
	}
}

/** Offset of the first (or last) byte above 0x7f, -1 for none: probed by native ASCII checks. */
function nonAsciiOffset(bytes: Buffer, first: boolean): number {
	const n = bytes.length;
	const probes = Math.ceil(n / ASCII_PROBE);
	for (let k = 0; k < probes; k++) {
		const a = (first ? k : probes - 1 - k) * ASCII_PROBE;
		const b = Math.min(n, a + ASCII_PROBE);
		if (isAscii(bytes.subarray(a, b))) continue;
		if (first) {
			for (let i = a; i < b; i++) if (bytes[i] > 0x7f) return i;
		} else {
			for (let i = b - 1; i >= a; i--) if (bytes[i] > 0x7f) return i;
		}
	}
	return -1;
}

/**
 * Parses with the long plain runs cut out; undefined when the document has none, or they are not
 * whole element texts, or anything fails (the ordinary parse then gives the exact error).
 */
function parseDeferringLargeText(
	bytes: Uint8Array,
	lim: XmlLimits,
	stream: XmlParseOptions['stream'],
): XmlElement | undefined {
	const runs = findLargeTextRuns(bytes);
	if (runs.length === 0) return undefined;
	try {
		const parts: string[] = [decodeBytes(bytes.subarray(0, runs[0]))];
		let length = parts[0].length;
		const holes: DeferredRuns = { at: [], bytes: [] };
		for (let i = 0; i < runs.length; i += 2) {
			holes.at.push(length);
			holes.bytes.push(bytes.subarray(runs[i], runs[i + 1]));
			// Every piece after a run starts at '<', so it never splits a UTF-8 sequence or starts with a BOM.
			const piece = utf8Strict(bytes.subarray(runs[i + 1], i + 2 < runs.length ? runs[i + 2] : bytes.length));
			parts.push(piece);
			length += piece.length;
		}
		const s = parts.join('');
		rejectDoctypeInProlog(s);
		const parser = new Parser(s, lim, false, holes, stream);
		const root = parser.parse();
		for (const [el, run] of parser.deferred) if (!deferredBytes.has(el)) deferText(el, run);
		return root;
	} catch {
		return undefined;
	}
}

function definedOnly(limits: Partial<XmlLimits>): Partial<XmlLimits> {
	const out: Partial<XmlLimits> = {};
	for (const key of Object.keys(limits) as (keyof XmlLimits)[]) {
		const v = limits[key];
		if (v !== undefined) out[key] = v;
	}
	return out;
}
