/**
 * The one XML parser and writer of the protocol layer: a hand-written, non-validating XML 1.0 +
 * Namespaces parser producing a light element tree, plus escaping helpers, a string builder and a
 * pretty printer.
 *
 * Security: DTDs are refused outright (SOAP forbids them, WS-I BP R1008), so no entity other than the
 * five predefined ones and character references exists; every limit is checked while scanning so
 * hostile input is refused in time linear in its size. The parser is iterative (no recursion).
 *
 * Speed: text is located with `indexOf` and cut with `slice`; entity and line-end handling only
 * happens on runs that contain `&` or CR, found through monotonic caches so no byte is searched twice
 * for the same character. Node's Buffer only serves its native byte search (deferred large text).
 */
import { Buffer, isAscii, isUtf8 } from 'node:buffer';
import {
	CH_AMP,
	CH_BANG,
	CH_COLON,
	CH_CR,
	CH_DASH,
	CH_DQUOTE,
	CH_EQ,
	CH_GT,
	CH_HASH,
	CH_LF,
	CH_LT,
	CH_QUESTION,
	CH_SEMI,
	CH_SLASH,
	CH_SPACE,
	CH_SQUOTE,
	CH_TAB,
	CH_X,
} from './chars';
import { keepShape } from './keepShape';

/** Namespace URI bound to the `xml` prefix. */
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/** Namespace URI of namespace declaration attributes (`xmlns`, `xmlns:p`). */
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
/** XML Schema instance namespace (`xsi:nil`, `xsi:type`). */
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** An attribute of a parsed element. */
export interface XmlAttribute {
	/** Qualified name as written (`xsi:nil`). */
	name: string;
	local: string;
	/** Resolved namespace URI; '' for unprefixed attributes (the default namespace does not apply). */
	ns: string;
	/** Normalised value: entities decoded, literal tab/CR/LF turned into spaces (XML 1.0 §3.3.3). */
	value: string;
}

/** An element of the light tree produced by {@link parseXml}. */
export interface XmlElement {
	/** Qualified name as written. */
	name: string;
	local: string;
	/** Resolved namespace URI, '' when none. */
	ns: string;
	/** Attributes in document order, namespace declarations included (their ns is {@link XMLNS_NS}). */
	attrs: readonly XmlAttribute[];
	/** Child elements in order (leaves share one frozen empty array). */
	children: readonly XmlElement[];
	/** Concatenation of this element's own character data (text + CDATA), entity-decoded, line ends normalised to LF. */
	text: string;
	/** 1-based line of the element's `<`. */
	line: number;
	/** 1-based column of the element's `<`, counted in UTF-16 code units. */
	column: number;
}

/** Resource limits of {@link parseXml}; exceeding one throws an {@link XmlError}. */
export interface XmlLimits {
	/** Maximum element nesting (root is depth 1); exceeding it is 'XML_DEPTH'. */
	maxDepth: number;
	/** Maximum document size in UTF-8 bytes; exceeding it is 'XML_TOO_LARGE'. */
	maxBytes: number;
	/** Maximum attributes on one element (namespace declarations included); 'XML_LIMIT'. */
	maxAttributes: number;
	/** Maximum length of an element, attribute, PI target or entity name; 'XML_LIMIT'. */
	maxNameLength: number;
	/** Maximum number of elements in the document; 'XML_LIMIT'. */
	maxElements: number;
}

/** Limits used for every field that the caller leaves out. */
export const DEFAULT_XML_LIMITS: Readonly<XmlLimits> = Object.freeze({
	maxDepth: 100,
	maxBytes: 64 * 1024 * 1024,
	maxAttributes: 256,
	maxNameLength: 1024,
	maxElements: 5_000_000,
});

/** Error codes of {@link XmlError}. */
export type XmlErrorCode =
	| 'XML_MALFORMED'
	| 'XML_DOCTYPE'
	| 'XML_ENTITY'
	| 'XML_NAMESPACE'
	| 'XML_ENCODING'
	| 'XML_DEPTH'
	| 'XML_TOO_LARGE'
	| 'XML_LIMIT'
	| 'XML_CHAR';

const ERROR_LABELS: Record<XmlErrorCode, string> = {
	XML_MALFORMED: 'Malformed XML',
	XML_DOCTYPE: 'DOCTYPE not allowed',
	XML_ENTITY: 'Invalid entity reference',
	XML_NAMESPACE: 'XML namespace error',
	XML_ENCODING: 'Unsupported XML encoding',
	XML_DEPTH: 'XML nested too deeply',
	XML_TOO_LARGE: 'XML document too large',
	XML_LIMIT: 'XML limit exceeded',
	XML_CHAR: 'Invalid XML character',
};

/**
 * A parse or write failure.
 *
 * `line` and `column` are 1-based (column in UTF-16 code units); both are 0 when the problem has no
 * position (document size, writer errors). The message reads
 * `Malformed XML at line 3, column 14: expected </Body> but found </Envelope>`.
 */
export class XmlError extends Error {
	readonly code: XmlErrorCode;
	readonly line: number;
	readonly column: number;
	/** The problem without the label and position. */
	readonly detail: string;

	constructor(code: XmlErrorCode, detail: string, line = 0, column = 0) {
		super(
			line > 0
				? `${ERROR_LABELS[code]} at line ${line}, column ${column}: ${detail}`
				: `${ERROR_LABELS[code]}: ${detail}`,
		);
		this.name = 'XmlError';
		this.code = code;
		this.line = line;
		this.column = column;
		this.detail = detail;
	}
}

// ---------------------------------------------------------------------------------------------
// Character classes

const NAME_START = 1;
const NAME_CHAR = 2;
/** Flags for ASCII characters: name start / name character (XML 1.0 fifth edition). */
const ASCII_NAME = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
	const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === CH_COLON;
	const other = (c >= 0x30 && c <= 0x39) || c === CH_DASH || c === 0x2e;
	ASCII_NAME[c] = letter ? NAME_START | NAME_CHAR : other ? NAME_CHAR : 0;
}

function isNameStartBmp(c: number): boolean {
	if (c < 128) return (ASCII_NAME[c] & NAME_START) !== 0;
	return (
		(c >= 0xc0 && c <= 0xd6) ||
		(c >= 0xd8 && c <= 0xf6) ||
		(c >= 0xf8 && c <= 0x2ff) ||
		(c >= 0x370 && c <= 0x37d) ||
		(c >= 0x37f && c <= 0x1fff) ||
		c === 0x200c ||
		c === 0x200d ||
		(c >= 0x2070 && c <= 0x218f) ||
		(c >= 0x2c00 && c <= 0x2fef) ||
		(c >= 0x3001 && c <= 0xd7ff) ||
		(c >= 0xf900 && c <= 0xfdcf) ||
		(c >= 0xfdf0 && c <= 0xfffd)
	);
}

function isNameCharBmp(c: number): boolean {
	if (c < 128) return (ASCII_NAME[c] & NAME_CHAR) !== 0;
	return isNameStartBmp(c) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040;
}

/** True for a valid XML 1.0 Char code point. */
export function isXmlChar(cp: number): boolean {
	return cp >= 0x20
		? cp <= 0xd7ff || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)
		: cp === 0x9 || cp === 0xa || cp === 0xd;
}

function isWs(c: number): boolean {
	return c === CH_SPACE || c === CH_LF || c === CH_TAB || c === CH_CR;
}

/**
 * End of the XML Name starting at `p` in `s` (p itself when there is none). Supplementary characters
 * (#x10000-#xEFFFF) are accepted as surrogate pairs.
 */
export function scanName(s: string, p: number): number {
	const n = s.length;
	if (p >= n) return p;
	let c = s.charCodeAt(p);
	if (c < 128) {
		if ((ASCII_NAME[c] & NAME_START) === 0) return p;
		p++;
	} else if (c >= 0xd800 && c <= 0xdb7f) {
		const d = s.charCodeAt(p + 1);
		if (!(d >= 0xdc00 && d <= 0xdfff)) return p;
		p += 2;
	} else if (isNameStartBmp(c)) {
		p++;
	} else {
		return p;
	}
	while (p < n) {
		c = s.charCodeAt(p);
		if (c < 128) {
			if ((ASCII_NAME[c] & NAME_CHAR) === 0) return p;
			p++;
		} else if (c >= 0xd800 && c <= 0xdb7f) {
			const d = s.charCodeAt(p + 1);
			if (!(d >= 0xdc00 && d <= 0xdfff)) return p;
			p += 2;
		} else if (isNameCharBmp(c)) {
			p++;
		} else {
			return p;
		}
	}
	return p;
}

function hex(cp: number): string {
	return 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
}

/** Forbidden code units that are never part of a valid XML document (surrogates are checked apart). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_CHAR = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Index of the first character of `s` that is not an XML Char, or -1. */
function firstInvalidChar(s: string, checkSurrogates: boolean): number {
	const m = FORBIDDEN_CHAR.exec(s);
	let first = m ? m.index : -1;
	if (checkSurrogates) {
		const wf = (s as unknown as { isWellFormed?: () => boolean }).isWellFormed;
		if (typeof wf !== 'function' || !wf.call(s)) {
			const ms = LONE_SURROGATE.exec(s);
			if (ms && (first < 0 || ms.index < first)) first = ms.index;
		}
	}
	return first;
}

/** 1-based line and column (UTF-16 code units) of offset `p` in `s`. */
function positionOf(s: string, p: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	let nl = s.indexOf('\n');
	while (nl !== -1 && nl < p) {
		line++;
		lineStart = nl + 1;
		nl = s.indexOf('\n', lineStart);
	}
	return { line, column: p - lineStart + 1 };
}

function describeAt(s: string, p: number): string {
	if (p >= s.length) return 'end of input';
	const cp = s.codePointAt(p) ?? 0;
	if (cp < 0x21 || cp === 0x7f) return hex(cp);
	return `'${String.fromCodePoint(cp)}'`;
}

function clip(s: string, max = 40): string {
	return s.length > max ? s.slice(0, max) + '…' : s;
}

// ---------------------------------------------------------------------------------------------
// Input decoding

function utf8Length(s: string): number {
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

function decodeBytes(bytes: Uint8Array): string {
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

/**
 * Refuses a DOCTYPE in the prolog before any other work: walks only the XML declaration, comments,
 * processing instructions and whitespace that may precede it.
 */
function rejectDoctypeInProlog(s: string): void {
	const n = s.length;
	let p = 0;
	while (p < n) {
		const c = s.charCodeAt(p);
		if (isWs(c)) {
			p++;
			continue;
		}
		if (c !== CH_LT) return;
		if (s.startsWith('<?', p)) {
			const e = s.indexOf('?>', p + 2);
			if (e < 0) return;
			p = e + 2;
		} else if (s.startsWith('<!--', p)) {
			const e = s.indexOf('-->', p + 4);
			if (e < 0) return;
			p = e + 3;
		} else if (isDtdMarkup(s, p)) {
			const at = positionOf(s, p);
			throw new XmlError(
				'XML_DOCTYPE',
				'document type declarations are not allowed in SOAP messages',
				at.line,
				at.column,
			);
		} else {
			return;
		}
	}
}

/** True when `<!` at `p` opens a DOCTYPE or another DTD declaration (any case). */
function isDtdMarkup(s: string, p: number): boolean {
	const word = s.slice(p + 2, p + 10).toUpperCase();
	return (
		word.startsWith('DOCTYPE') ||
		word.startsWith('ENTITY') ||
		word.startsWith('ELEMENT') ||
		word.startsWith('ATTLIST') ||
		word.startsWith('NOTATION')
	);
}

// ---------------------------------------------------------------------------------------------
// Parser

const XML_DECL =
	/^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.[0-9]+\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])([A-Za-z][A-Za-z0-9._-]*)\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\4)?[ \t\r\n]*\?>$/;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const CR_RUN = /\r\n?/g;

/** Sentinel for "no attribute yet" while scanning a start tag (never handed out). */
const EMPTY_ATTRS: XmlAttribute[] = Object.freeze([]) as unknown as XmlAttribute[];
/** Shared by every element without attributes or children: most elements are leaves, and two fresh arrays each is most of the garbage. */
const NO_ATTRS: XmlAttribute[] = Object.freeze([]) as unknown as XmlAttribute[];
const NO_CHILDREN: XmlElement[] = Object.freeze([]) as unknown as XmlElement[];

/**
 * Where the next '&', CR and ']]>' stand in a document, each searched once and kept while reading
 * moves forward, so character data without them is one slice. A reader that moves backwards needs
 * its own (a position found from a later point says nothing of an earlier stretch).
 */
export class TextLookahead {
	// Index of the next occurrence at or after the last query, -1 for none left, -2 before the first query.
	private ampAt = -2;
	private crAt = -2;
	private cdEndAt = -2;

	constructor(private readonly s: string) {}

	nextAmp(from: number): number {
		if (this.ampAt !== -1 && this.ampAt < from) this.ampAt = this.s.indexOf('&', from);
		return this.ampAt;
	}

	nextCr(from: number): number {
		if (this.crAt !== -1 && this.crAt < from) this.crAt = this.s.indexOf('\r', from);
		return this.crAt;
	}

	nextCdEnd(from: number): number {
		if (this.cdEndAt !== -1 && this.cdEndAt < from) this.cdEndAt = this.s.indexOf(']]>', from);
		return this.cdEndAt;
	}

	/** Slice [a, b) with CR LF and lone CR turned into LF (XML 1.0 §2.11). */
	literal(a: number, b: number): string {
		const cr = this.nextCr(a);
		const piece = this.s.slice(a, b);
		return cr !== -1 && cr < b ? piece.replace(CR_RUN, '\n') : piece;
	}
}

/**
 * The digits of the character reference at `p` ('&#', or '&#x' for hex), read up to `end`: the index
 * of the first character after them (';' when well formed) and the code point they spell (any value
 * past U+10FFFF, once it gets there). The caller checks the ';' and that the code point is a character.
 */
export function scanCharRef(
	s: string,
	p: number,
	end: number,
): { digitsStart: number; stop: number; codePoint: number } {
	const isHex = s.charCodeAt(p + 2) === CH_X;
	let q = isHex ? p + 3 : p + 2;
	const digitsStart = q;
	let cp = 0;
	for (; q < end; q++) {
		const c = s.charCodeAt(q);
		let d: number;
		if (c >= 0x30 && c <= 0x39) d = c - 0x30;
		else if (isHex && c >= 0x61 && c <= 0x66) d = c - 0x57;
		else if (isHex && c >= 0x41 && c <= 0x46) d = c - 0x37;
		else break;
		if (cp <= 0x10ffff) cp = cp * (isHex ? 16 : 10) + d;
	}
	return { digitsStart, stop: q, codePoint: cp };
}

/** The SubtreeSource a parser hands out: its namespace bindings where the subtree starts. */
interface ParserSubtreeSource extends SubtreeSource {
	bindings: ReadonlyMap<string, readonly string[]>;
}

/**
 * lookupNs of every ParserSubtreeSource: one function for the life of the process rather than a
 * closure per parse, which optimised readers inline and would lose at each collection (see keepShape).
 */
function lookupBoundNs(this: ParserSubtreeSource, prefix: string): string | undefined {
	const uris = this.bindings.get(prefix);
	if (uris !== undefined && uris.length > 0) return uris[uris.length - 1];
	return prefix === '' ? '' : undefined;
}

class Parser {
	private readonly s: string;
	private readonly n: number;
	private readonly lim: XmlLimits;
	/** First invalid character (or -1): an error at or after it is reported as that character instead. */
	private readonly firstBad: number;

	// Line tracking for element positions (monotonic).
	private line = 1;
	private lineStart = 0;
	private nextNl: number;

	private readonly ahead: TextLookahead;

	// Namespace bindings: a stack of URIs per prefix (O(1) lookups however many are in scope) and the
	// log of declared prefixes, innermost last, to undo an element's declarations when it closes.
	private readonly nsBindings = new Map<string, string[]>([
		['xml', [XML_NS]],
		['xmlns', [XMLNS_NS]],
	]);
	private readonly nsDeclared: string[] = [];

	private elementCount = 0;
	/** Names seen so far, by a hash of length and a few characters: repeated names are not sliced again. */
	private readonly names: (string | undefined)[] = new Array<string | undefined>(4096);
	/** Prefix and local part of each qualified name with a colon. */
	private readonly qnames = new Map<string, [string, string]>();
	/** Text pieces after the first of each open element, by depth (the first lives in el.text). */
	private readonly moreText: (string[] | undefined)[] = [];
	/** Offsets of the current start tag's attributes, for error positions. */
	private readonly attrPos: number[] = [];
	/** Output of decodeRef: where the reference ends (after ';'). */
	private refEnd = 0;

	// Deferred text (see parseXml's deferLargeText): where each cut-out run stood in `s`, its bytes,
	// and the elements that received one, in order.
	private readonly holes: DeferredRuns | undefined;
	private holeIndex = 0;
	private nextHole = Infinity;
	/** Code units cut out of the current line so far, so columns after a hole stay true. */
	private lineShift = 0;
	readonly deferred: [XmlElement, Uint8Array][] = [];

	// Streaming (see XmlParseOptions.stream): elements deeper than streamDepth go to `stream` only.
	private streamOption: XmlParseOptions['stream'];
	private stream: ElementStream | undefined;
	private streamDepth = Infinity;
	/** Streamed elements are done with once closed: one object per depth is reused. */
	private readonly pool: (XmlElement | undefined)[] = [];
	/** Set when `s` is the document's bytes read as latin1 (see parseAsLatin1). */
	private readonly latin1: Latin1Source | undefined;

	constructor(
		s: string,
		lim: XmlLimits,
		checkSurrogates: boolean,
		holes?: DeferredRuns,
		streamOption?: XmlParseOptions['stream'],
		latin1?: Latin1Source,
	) {
		this.s = s;
		this.latin1 = latin1;
		this.ahead = new TextLookahead(s);
		this.n = s.length;
		this.lim = lim;
		this.firstBad = firstInvalidChar(s, checkSurrogates);
		this.nextNl = s.indexOf('\n');
		this.holes = holes;
		if (holes !== undefined && holes.at.length > 0) this.nextHole = holes.at[0];
		this.streamOption = streamOption;
	}

	/**
	 * Lets `stream` read the subtree of `el` (content from `from`) straight from the text, when it can
	 * and the document has nothing that needs the parser's own checks there (an invalid character
	 * anywhere, deferred runs). Returns the offset after the subtree's end tag, or undefined.
	 */
	private readSubtree(stream: ElementStream, el: XmlElement, depth: number, from: number): number | undefined {
		const latin1 = this.latin1;
		// Read as latin1, the parser itself must never read a non-ASCII byte: the stream reads them all.
		if (stream.readSubtree === undefined || this.firstBad >= 0 || this.holes !== undefined) {
			if (latin1 !== undefined) throw LATIN1_ABANDONED;
			return undefined;
		}
		if (latin1 !== undefined && from > latin1.firstHigh) throw LATIN1_ABANDONED;
		const source: ParserSubtreeSource = {
			bytes: latin1?.bytes,
			text: this.s,
			from,
			depthLeft: this.lim.maxDepth - depth,
			elementsLeft: this.lim.maxElements - this.elementCount,
			maxNameLength: this.lim.maxNameLength,
			maxAttributes: this.lim.maxAttributes,
			bindings: this.nsBindings,
			lookupNs: lookupBoundNs,
		};
		const read = stream.readSubtree(el, source);
		if (read === undefined || (latin1 !== undefined && read.end <= latin1.lastHigh)) {
			if (latin1 !== undefined) throw LATIN1_ABANDONED;
			return undefined;
		}
		if (latin1 !== undefined) {
			latin1.covered = true;
			// Columns count UTF-16 code units: take off the extra bytes of the line the subtree ends on.
			this.locate(read.end);
			const bytes = latin1.bytes;
			for (let i = Math.max(this.lineStart, latin1.firstHigh); i <= latin1.lastHigh; i++) {
				const b = bytes[i];
				if ((b & 0xc0) === 0x80) this.lineShift--;
				else if (b >= 0xf0) this.lineShift++;
			}
		}
		this.elementCount += read.elements;
		el.text = read.text;
		return read.end;
	}

	/** Closes `el` for the stream, if it is streamed; ends streaming with the subtree's top. */
	private closeStreamed(el: XmlElement, depth: number): void {
		if (el.text === DEFERRED_MARK) {
			for (let i = this.deferred.length - 1; i >= 0; i--) {
				if (this.deferred[i][0] === el) {
					deferText(el, this.deferred[i][1]);
					this.pool[depth] = undefined; // its text is now an accessor: never reuse it
					break;
				}
			}
		}
		(this.stream as ElementStream).close(el);
		if (depth === this.streamDepth) {
			this.stream = undefined;
			this.streamDepth = Infinity;
		}
	}

	/**
	 * Gives the run cut out at `this.nextHole` to `el` as its text. Only a run that is the whole
	 * character data of an element qualifies; anything else abandons the deferred parse.
	 */
	private takeHole(el: XmlElement, at: number): void {
		const holes = this.holes as DeferredRuns;
		if (el.text !== '') throw DEFERRAL_ABANDONED;
		const bytes = holes.bytes[this.holeIndex];
		this.locate(at);
		this.lineShift += bytes.length;
		el.text = DEFERRED_MARK;
		this.deferred.push([el, bytes]);
		this.holeIndex++;
		this.nextHole = this.holeIndex < holes.at.length ? holes.at[this.holeIndex] : Infinity;
	}

	private fail(code: XmlErrorCode, detail: string, p: number): never {
		if (this.firstBad >= 0 && this.firstBad <= p) this.failBadChar();
		const at = positionOf(this.s, p);
		throw new XmlError(code, detail, at.line, at.column);
	}

	private failBadChar(): never {
		const p = this.firstBad;
		const at = positionOf(this.s, p);
		throw new XmlError(
			'XML_MALFORMED',
			`character ${hex(this.s.charCodeAt(p))} is not allowed in XML`,
			at.line,
			at.column,
		);
	}

	/**
	 * Decodes the reference starting with '&' at `p`; the reference may not extend to `end`.
	 * Sets refEnd to the index after ';'.
	 */
	private decodeRef(p: number, end: number): string {
		const s = this.s;
		if (s.charCodeAt(p + 1) === CH_HASH) {
			const { digitsStart, stop: q, codePoint: cp } = scanCharRef(s, p, end);
			const text = clip(s.slice(p, Math.min(q + 1, end)));
			if (q === digitsStart || q >= end || s.charCodeAt(q) !== CH_SEMI) {
				this.fail('XML_ENTITY', `malformed character reference ${text}`, p);
			}
			if (!isXmlChar(cp)) {
				this.fail('XML_ENTITY', `character reference ${text} is not a valid XML character`, p);
			}
			this.refEnd = q + 1;
			return String.fromCodePoint(cp);
		}
		const nameEnd = scanName(s, p + 1);
		if (nameEnd === p + 1 || nameEnd >= end || s.charCodeAt(nameEnd) !== CH_SEMI) {
			this.fail('XML_MALFORMED', "'&' must be escaped as &amp; or start an entity reference", p);
		}
		if (nameEnd - p - 1 > this.lim.maxNameLength) {
			this.fail('XML_LIMIT', `entity name longer than ${this.lim.maxNameLength} characters`, p);
		}
		const name = s.slice(p + 1, nameEnd);
		const value = PREDEFINED[name];
		if (value === undefined || !Object.prototype.hasOwnProperty.call(PREDEFINED, name)) {
			this.fail(
				'XML_ENTITY',
				`undefined entity &${clip(name)}; (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)`,
				p,
			);
		}
		this.refEnd = nameEnd + 1;
		return value;
	}

	/** Appends a non-empty piece of character data to `el`, the open element at depth `d` (1-based). */
	private pushText(el: XmlElement, d: number, piece: string): void {
		if (el.text === '') {
			el.text = piece;
			return;
		}
		if (el.text === DEFERRED_MARK) throw DEFERRAL_ABANDONED;
		const more = this.moreText[d];
		if (more === undefined) this.moreText[d] = [el.text, piece];
		else more.push(piece);
	}

	/** Appends the character data [a, b) (between markup, inside `el` at depth d) to the element's text. */
	private addText(a: number, b: number, el: XmlElement, d: number): void {
		const cd = this.ahead.nextCdEnd(a);
		if (cd !== -1 && cd < b) this.fail('XML_MALFORMED', "']]>' is not allowed in text (escape '>' as &gt;)", cd);
		let amp = this.ahead.nextAmp(a);
		if (amp === -1 || amp >= b) {
			this.pushText(el, d, this.ahead.literal(a, b));
			return;
		}
		let p = a;
		while (amp !== -1 && amp < b) {
			if (amp > p) this.pushText(el, d, this.ahead.literal(p, amp));
			this.pushText(el, d, this.decodeRef(amp, b));
			p = this.refEnd;
			amp = this.ahead.nextAmp(p);
		}
		if (p < b) this.pushText(el, d, this.ahead.literal(p, b));
	}

	/** The name [a, b), reusing the string of an earlier identical name. */
	private name(a: number, b: number): string {
		const s = this.s;
		const len = b - a;
		const h =
			(len * 31 + s.charCodeAt(a) * 7 + s.charCodeAt(b - 1) * 131 + s.charCodeAt(a + (len >> 1)) * 17) & 4095;
		const cached = this.names[h];
		if (cached !== undefined && cached.length === len && s.startsWith(cached, a)) return cached;
		const name = s.slice(a, b);
		this.names[h] = name;
		return name;
	}

	/** [prefix, local] of a qualified name containing a colon; fails when it is not a QName. */
	private split(name: string, p: number): [string, string] {
		let parts = this.qnames.get(name);
		if (parts === undefined) {
			const i = name.indexOf(':');
			if (i === 0 || i === name.length - 1 || name.indexOf(':', i + 1) !== -1) {
				this.fail('XML_NAMESPACE', `'${clip(name)}' is not a valid qualified name`, p);
			}
			parts = [name.slice(0, i), name.slice(i + 1)];
			if (this.qnames.size < 10_000) this.qnames.set(name, parts);
		}
		return parts;
	}

	/** Normalised attribute value for [a, b) (XML 1.0 §3.3.3, CDATA type). */
	private attrValue(a: number, b: number): string {
		const s = this.s;
		const out: string[] = [];
		let p = a;
		let q = a;
		while (q < b) {
			const c = s.charCodeAt(q);
			if (c === CH_AMP) {
				if (q > p) out.push(s.slice(p, q));
				out.push(this.decodeRef(q, b));
				q = p = this.refEnd;
			} else if (c === CH_TAB || c === CH_LF || c === CH_CR) {
				if (q > p) out.push(s.slice(p, q));
				out.push(' ');
				q++;
				if (c === CH_CR && q < b && s.charCodeAt(q) === CH_LF) q++;
				p = q;
			} else {
				q++;
			}
		}
		if (p < b) out.push(s.slice(p, b));
		return out.join('');
	}

	private locate(p: number): void {
		while (this.nextNl !== -1 && this.nextNl < p) {
			this.line++;
			this.lineShift = 0;
			this.lineStart = this.nextNl + 1;
			this.nextNl = this.s.indexOf('\n', this.lineStart);
		}
	}

	private lookupNs(prefix: string, p: number, what: string): string {
		const uris = this.nsBindings.get(prefix);
		if (uris !== undefined && uris.length > 0) return uris[uris.length - 1];
		if (prefix === '') return '';
		return this.fail('XML_NAMESPACE', `prefix '${clip(prefix)}' of ${what} is not bound to a namespace`, p);
	}

	/** Pushes the namespace bindings declared among `attrs`. */
	private declare(attrs: XmlAttribute[]): void {
		for (let i = 0; i < attrs.length; i++) {
			const a = attrs[i];
			const at = this.attrPos[i];
			const name = a.name;
			if (name.charCodeAt(0) !== CH_X || !name.startsWith('xmlns')) continue;
			let prefix: string;
			if (name.length === 5) prefix = '';
			else if (name.charCodeAt(5) === CH_COLON) prefix = name.slice(6);
			else continue;
			if ((prefix === '' && name.length > 5) || prefix.indexOf(':') !== -1) {
				this.fail('XML_NAMESPACE', `'${clip(name)}' is not a valid namespace declaration`, at);
			}
			const uri = a.value;
			if (prefix === 'xmlns') this.fail('XML_NAMESPACE', "the prefix 'xmlns' must not be declared", at);
			if (prefix === 'xml' && uri !== XML_NS) {
				this.fail('XML_NAMESPACE', `the prefix 'xml' can only be bound to ${XML_NS}`, at);
			}
			if (prefix !== 'xml' && uri === XML_NS) {
				this.fail('XML_NAMESPACE', `only the prefix 'xml' can be bound to ${XML_NS}`, at);
			}
			if (uri === XMLNS_NS) this.fail('XML_NAMESPACE', `no prefix can be bound to ${XMLNS_NS}`, at);
			if (prefix !== '' && uri === '') {
				this.fail(
					'XML_NAMESPACE',
					`the prefix '${clip(prefix)}' cannot be bound to an empty namespace in XML 1.0`,
					at,
				);
			}
			const uris = this.nsBindings.get(prefix);
			if (uris === undefined) this.nsBindings.set(prefix, [uri]);
			else uris.push(uri);
			this.nsDeclared.push(prefix);
		}
	}

	/** Undoes the namespace declarations made after `mark`. */
	private undeclare(mark: number): void {
		const declared = this.nsDeclared;
		while (declared.length > mark) (this.nsBindings.get(declared.pop() as string) as string[]).pop();
	}

	/** Fills in local and ns of `attrs` (created with local = name, ns = ''). */
	private resolveAttrs(attrs: XmlAttribute[]): void {
		let prefixed = 0;
		for (let i = 0; i < attrs.length; i++) {
			const a = attrs[i];
			if (a.name.indexOf(':') === -1) {
				if (a.name === 'xmlns') a.ns = XMLNS_NS;
			} else {
				const [prefix, local] = this.split(a.name, this.attrPos[i]);
				a.local = local;
				a.ns =
					prefix === 'xmlns'
						? XMLNS_NS
						: this.lookupNs(prefix, this.attrPos[i], `attribute '${clip(a.name)}'`);
				prefixed++;
			}
		}
		if (prefixed > 1) {
			// Two prefixes bound to the same URI make the same expanded name (Namespaces in XML §6.3).
			const seen = new Set<string>();
			for (let i = 0; i < attrs.length; i++) {
				const a = attrs[i];
				if (a.ns === '' || a.ns === XMLNS_NS) continue;
				const key = a.ns + '\u0000' + a.local;
				if (seen.has(key)) {
					this.fail('XML_MALFORMED', `duplicate attribute {${a.ns}}${a.local}`, this.attrPos[i]);
				}
				seen.add(key);
			}
		}
	}

	/** Parses the XML declaration at offset 0; returns the offset after it. */
	private xmlDecl(): number {
		const s = this.s;
		const end = s.indexOf('?>');
		if (end < 0) this.fail('XML_MALFORMED', 'unterminated XML declaration', 0);
		const decl = s.slice(0, end + 2);
		const m = XML_DECL.exec(decl);
		if (!m) this.fail('XML_MALFORMED', `invalid XML declaration ${clip(decl, 80)}`, 0);
		const encoding = m[3];
		if (encoding !== undefined && encoding.toLowerCase() !== 'utf-8') {
			this.fail('XML_ENCODING', `encoding '${encoding}' is declared; only UTF-8 is supported`, 0);
		}
		return end + 2;
	}

	/** Skips a comment or PI at `p` ('<!--' or '<?'); returns the offset after it. */
	private skipMisc(p: number): number {
		const s = this.s;
		if (s.charCodeAt(p + 1) === CH_QUESTION) {
			const nameEnd = scanName(s, p + 2);
			if (nameEnd === p + 2) this.fail('XML_MALFORMED', 'processing instruction without a target', p);
			if (nameEnd - p - 2 > this.lim.maxNameLength) {
				this.fail('XML_LIMIT', `name longer than ${this.lim.maxNameLength} characters`, p);
			}
			// Namespaces in XML 1.0 §7: PI targets contain no colon.
			const colon = s.indexOf(':', p + 2);
			if (colon >= 0 && colon < nameEnd) {
				this.fail('XML_MALFORMED', 'a processing instruction target must not contain a colon', colon);
			}
			if (nameEnd - p - 2 === 3 && s.slice(p + 2, nameEnd).toLowerCase() === 'xml') {
				this.fail('XML_MALFORMED', 'the XML declaration is allowed only at the very start of the document', p);
			}
			const c = s.charCodeAt(nameEnd);
			if (!(isWs(c) || (c === CH_QUESTION && s.charCodeAt(nameEnd + 1) === CH_GT))) {
				this.fail(
					'XML_MALFORMED',
					`unexpected ${describeAt(s, nameEnd)} after processing instruction target`,
					nameEnd,
				);
			}
			const e = s.indexOf('?>', nameEnd);
			if (e < 0) this.fail('XML_MALFORMED', 'unterminated processing instruction', p);
			return e + 2;
		}
		const e = s.indexOf('--', p + 4);
		if (e < 0) this.fail('XML_MALFORMED', 'unterminated comment', p);
		if (s.charCodeAt(e + 2) !== CH_GT) this.fail('XML_MALFORMED', "'--' is not allowed inside a comment", e);
		return e + 3;
	}

	private checkOutsideText(a: number, b: number, rootSeen: boolean): void {
		const s = this.s;
		for (let i = a; i < b; i++) {
			if (!isWs(s.charCodeAt(i))) {
				this.fail(
					'XML_MALFORMED',
					rootSeen
						? 'text is not allowed after the root element'
						: 'text is not allowed before the root element',
					i,
				);
			}
		}
	}

	parse(): XmlElement {
		const s = this.s;
		const n = this.n;
		const lim = this.lim;
		let pos = 0;
		if (s.startsWith('<?xml', 0) && isWs(s.charCodeAt(5))) pos = this.xmlDecl();

		const stack: XmlElement[] = [];
		const nsMark: number[] = [];
		const moreText = this.moreText;
		const attrPos = this.attrPos;
		let root: XmlElement | undefined;

		while (pos < n) {
			const lt = s.indexOf('<', pos);
			if (lt >= this.nextHole || (lt < 0 && this.nextHole !== Infinity)) {
				// A cut-out run must sit right where its element's content starts; else parse normally.
				if (lt !== this.nextHole || pos !== lt || stack.length === 0) throw DEFERRAL_ABANDONED;
				this.takeHole(stack[stack.length - 1], lt);
			}
			const end = lt < 0 ? n : lt;
			if (end > pos) {
				const depth = stack.length;
				if (depth === 0) this.checkOutsideText(pos, end, root !== undefined);
				else this.addText(pos, end, stack[depth - 1], depth);
			}
			if (lt < 0) break;
			const c = s.charCodeAt(lt + 1);

			if (c === CH_SLASH) {
				// End tag.
				const top = stack.length > 0 ? stack[stack.length - 1] : undefined;
				const nameStart = lt + 2;
				let nameEnd = -1;
				if (top !== undefined && s.startsWith(top.name, nameStart)) {
					const after = s.charCodeAt(nameStart + top.name.length);
					if (after === CH_GT || isWs(after)) nameEnd = nameStart + top.name.length;
				}
				if (top === undefined || nameEnd === -1) {
					const end = scanName(s, nameStart);
					const found = end > nameStart ? `</${clip(s.slice(nameStart, end))}>` : describeAt(s, nameStart);
					this.fail(
						'XML_MALFORMED',
						top === undefined
							? `unexpected end tag ${found}`
							: `expected </${top.name}> but found ${found}`,
						lt,
					);
				}
				let q = nameEnd;
				while (isWs(s.charCodeAt(q))) q++;
				if (s.charCodeAt(q) !== CH_GT) {
					this.fail('XML_MALFORMED', `expected '>' to end </${top.name}> but found ${describeAt(s, q)}`, q);
				}
				pos = q + 1;
				const depth = stack.length;
				const more = moreText[depth];
				if (more !== undefined) {
					top.text = more.join('');
					moreText[depth] = undefined;
				}
				if (depth >= this.streamDepth) this.closeStreamed(top, depth);
				stack.pop();
				const mark = nsMark.pop() as number;
				if (mark !== this.nsDeclared.length) this.undeclare(mark);
				continue;
			}

			if (c === CH_BANG) {
				if (s.startsWith('--', lt + 2)) {
					pos = this.skipMisc(lt);
				} else if (s.startsWith('[CDATA[', lt + 2)) {
					if (stack.length === 0) this.fail('XML_MALFORMED', 'CDATA section outside the root element', lt);
					const e = s.indexOf(']]>', lt + 9);
					if (e < 0) this.fail('XML_MALFORMED', 'unterminated CDATA section', lt);
					if (e > lt + 9) this.pushText(stack[stack.length - 1], stack.length, this.ahead.literal(lt + 9, e));
					pos = e + 3;
				} else if (isDtdMarkup(s, lt)) {
					this.fail('XML_DOCTYPE', 'document type declarations are not allowed in SOAP messages', lt);
				} else {
					this.fail('XML_MALFORMED', `unexpected markup ${clip(s.slice(lt, lt + 12), 12)}`, lt);
				}
				continue;
			}

			if (c === CH_QUESTION) {
				pos = this.skipMisc(lt);
				continue;
			}

			// Start tag.
			const nameStart = lt + 1;
			const nameEnd = scanName(s, nameStart);
			if (nameEnd === nameStart) {
				this.fail(
					'XML_MALFORMED',
					`expected an element name after '<' but found ${describeAt(s, nameStart)}`,
					nameStart,
				);
			}
			if (nameEnd - nameStart > lim.maxNameLength) {
				this.fail('XML_LIMIT', `name longer than ${lim.maxNameLength} characters`, nameStart);
			}
			if (root !== undefined && stack.length === 0) {
				this.fail('XML_MALFORMED', 'only one root element is allowed', lt);
			}
			const depth = stack.length + 1;
			if (depth > lim.maxDepth) this.fail('XML_DEPTH', `elements nested deeper than ${lim.maxDepth} levels`, lt);
			if (++this.elementCount > lim.maxElements) {
				this.fail('XML_LIMIT', `more than ${lim.maxElements} elements`, lt);
			}
			const qname = this.name(nameStart, nameEnd);

			// Attributes.
			let attrs = EMPTY_ATTRS;
			let attrNames: Set<string> | undefined;
			let p = nameEnd;
			let selfClosing = false;
			let hasXmlns = false;
			for (;;) {
				let ch = s.charCodeAt(p);
				const wsStart = p;
				while (isWs(ch)) ch = s.charCodeAt(++p);
				if (ch === CH_GT) {
					p++;
					break;
				}
				if (ch === CH_SLASH) {
					if (s.charCodeAt(p + 1) !== CH_GT) {
						this.fail(
							'XML_MALFORMED',
							`expected '>' after '/' in <${clip(qname)}> but found ${describeAt(s, p + 1)}`,
							p + 1,
						);
					}
					p += 2;
					selfClosing = true;
					break;
				}
				if (p >= n) this.fail('XML_MALFORMED', `unexpected end of input inside <${clip(qname)}>`, p);
				if (p === wsStart) {
					this.fail(
						'XML_MALFORMED',
						`expected whitespace, '>' or '/>' in <${clip(qname)}> but found ${describeAt(s, p)}`,
						p,
					);
				}
				const an = p;
				const anEnd = scanName(s, p);
				if (anEnd === an) {
					this.fail(
						'XML_MALFORMED',
						`expected an attribute name in <${clip(qname)}> but found ${describeAt(s, p)}`,
						p,
					);
				}
				if (anEnd - an > lim.maxNameLength) {
					this.fail('XML_LIMIT', `name longer than ${lim.maxNameLength} characters`, an);
				}
				if (attrs.length >= lim.maxAttributes) {
					this.fail('XML_LIMIT', `more than ${lim.maxAttributes} attributes on <${clip(qname)}>`, an);
				}
				const aname = this.name(an, anEnd);
				p = anEnd;
				while (isWs(s.charCodeAt(p))) p++;
				if (s.charCodeAt(p) !== CH_EQ) {
					this.fail(
						'XML_MALFORMED',
						`expected '=' after attribute ${clip(aname)} but found ${describeAt(s, p)}`,
						p,
					);
				}
				p++;
				while (isWs(s.charCodeAt(p))) p++;
				const quote = s.charCodeAt(p);
				if (quote !== CH_DQUOTE && quote !== CH_SQUOTE) {
					this.fail(
						'XML_MALFORMED',
						`attribute ${clip(aname)} value must be quoted but found ${describeAt(s, p)}`,
						p,
					);
				}
				const vStart = ++p;
				let plain = true;
				for (;;) {
					if (p >= n) {
						this.fail('XML_MALFORMED', `unterminated value of attribute ${clip(aname)}`, vStart - 1);
					}
					const v = s.charCodeAt(p);
					if (v === quote) break;
					if (v === CH_LT) {
						this.fail('XML_MALFORMED', `'<' is not allowed in the value of attribute ${clip(aname)}`, p);
					}
					if (v === CH_AMP || v === CH_TAB || v === CH_LF || v === CH_CR) plain = false;
					p++;
				}
				const value = plain ? s.slice(vStart, p) : this.attrValue(vStart, p);
				p++;
				if (attrs === EMPTY_ATTRS) {
					attrs = [];
				} else if (attrs.length < 16) {
					for (let i = 0; i < attrs.length; i++) {
						if (attrs[i].name === aname) {
							this.fail('XML_MALFORMED', `duplicate attribute ${clip(aname)} on <${clip(qname)}>`, an);
						}
					}
				} else {
					// Many attributes: a set keeps the duplicate check linear.
					if (attrNames === undefined) attrNames = new Set(attrs.map((a) => a.name));
					if (attrNames.has(aname)) {
						this.fail('XML_MALFORMED', `duplicate attribute ${clip(aname)} on <${clip(qname)}>`, an);
					}
					attrNames.add(aname);
				}
				if (aname.charCodeAt(0) === CH_X && aname.startsWith('xmlns')) hasXmlns = true;
				attrPos[attrs.length] = an;
				attrs.push({ name: aname, local: aname, ns: '', value });
			}

			// Namespaces.
			const mark = this.nsDeclared.length;
			if (hasXmlns) this.declare(attrs);
			let local: string;
			let ns: string;
			if (qname.indexOf(':') === -1) {
				local = qname;
				ns = this.lookupNs('', nameStart, '');
			} else {
				const [prefix, loc] = this.split(qname, nameStart);
				if (prefix === 'xmlns') {
					this.fail('XML_NAMESPACE', `element names must not use the prefix 'xmlns'`, nameStart);
				}
				local = loc;
				ns = this.lookupNs(prefix, nameStart, `element <${clip(qname)}>`);
			}
			if (attrs !== EMPTY_ATTRS) this.resolveAttrs(attrs);

			this.locate(lt);
			const column = lt - this.lineStart + 1 + this.lineShift;
			const elAttrs = attrs === EMPTY_ATTRS ? NO_ATTRS : attrs;
			const streamed = depth > this.streamDepth;
			let el = streamed ? this.pool[depth] : undefined;
			if (el === undefined) {
				el = {
					name: qname,
					local,
					ns,
					attrs: elAttrs,
					children: NO_CHILDREN,
					text: '',
					line: this.line,
					column,
				};
				if (streamed) this.pool[depth] = el;
			} else {
				el.name = qname;
				el.local = local;
				el.ns = ns;
				el.attrs = elAttrs;
				el.text = '';
				el.line = this.line;
				el.column = column;
			}
			if (streamed) {
				(this.stream as ElementStream).open(el);
			} else {
				const parent = depth === 1 ? undefined : stack[depth - 2];
				if (parent === undefined) root = el;
				else if (parent.children === NO_CHILDREN) parent.children = [el];
				else (parent.children as XmlElement[]).push(el);
				const option = this.streamOption;
				if (option !== undefined && depth === option.depth && this.stream === undefined) {
					const stream = option.start(el, parent);
					if (stream !== undefined) {
						this.streamOption = undefined;
						const end = selfClosing ? undefined : this.readSubtree(stream, el, depth, p);
						if (end !== undefined) {
							// The stream read the whole subtree, end tag included.
							if (mark !== this.nsDeclared.length) this.undeclare(mark);
							pos = end;
							continue;
						}
						this.stream = stream;
						this.streamDepth = depth;
						stream.open(el);
					}
				}
			}

			if (selfClosing) {
				if (depth >= this.streamDepth) this.closeStreamed(el, depth);
				if (mark !== this.nsDeclared.length) this.undeclare(mark);
			} else {
				stack.push(el);
				nsMark.push(mark);
			}
			pos = p;
		}

		if (stack.length > 0) {
			const open = stack[stack.length - 1];
			this.fail(
				'XML_MALFORMED',
				`unexpected end of input: <${open.name}> opened at line ${open.line}, column ${open.column} is not closed`,
				n,
			);
		}
		if (root === undefined) this.fail('XML_MALFORMED', 'no root element', n);
		if (this.firstBad >= 0) this.failBadChar();
		if (this.holes !== undefined && this.holeIndex !== this.holes.at.length) throw DEFERRAL_ABANDONED;
		if (this.latin1 !== undefined && !this.latin1.covered) throw LATIN1_ABANDONED;
		return root;
	}
}

// See keepShape: one parser (with its TextLookahead) outlives every parse.
keepShape(new Parser('', DEFAULT_XML_LIMITS, false));

/** Receives the elements of a subtree as the parser opens and closes them (see {@link XmlParseOptions.stream}). */
export interface ElementStream {
	/** The element's name and attributes are known; its text and children are not yet. */
	open(el: XmlElement): void;
	/** The element is complete: its text is final (its children are not linked to it). The parser reuses the object afterwards: keep values, not the element. */
	close(el: XmlElement): void;
	/**
	 * Optional fast path, offered once, before `open(root)`: read the whole subtree of `root` from the
	 * document text and return where it ends. It must return undefined, having kept nothing, for
	 * anything it does not read exactly as the parser and open/close would (the parser then streams
	 * the subtree as usual, so results and errors never differ).
	 */
	readSubtree?(root: XmlElement, source: SubtreeSource): SubtreeRead | undefined;
}

/** What {@link ElementStream.readSubtree} reads from. */
export interface SubtreeSource {
	/** The document; the subtree's content starts at `from`, right after the root's start tag. */
	text: string;
	from: number;
	/** Nesting levels allowed below the subtree's root, and elements allowed in it (root excluded). */
	depthLeft: number;
	elementsLeft: number;
	maxNameLength: number;
	maxAttributes: number;
	/** Namespace bound to `prefix` where the subtree starts ('' for an undeclared default), undefined when unbound. */
	lookupNs(prefix: string): string | undefined;
	/**
	 * Present when `text` is these UTF-8 bytes read as latin1, one code unit per byte (see
	 * parseAsLatin1): the reader must make every string it keeps from the bytes, as UTF-8, where a
	 * byte is not ASCII, and give up on a non-ASCII byte in a tag.
	 */
	bytes?: Buffer;
}

/** Result of {@link ElementStream.readSubtree}. */
export interface SubtreeRead {
	/** Offset right after the root's end tag. */
	end: number;
	/** Elements read below the root. */
	elements: number;
	/** The root's own character data, as the parser would have given it. */
	text: string;
}

/** Options of {@link parseXml} beyond its limits. */
export interface XmlParseOptions {
	/**
	 * Streams a subtree instead of building it: for the first element opened at `depth` for which
	 * `start` returns a stream, that element and all its descendants are handed to the stream as they
	 * open and close. The element stays in the tree (with no children); its descendants are never
	 * linked, so a large result is read with only short-lived element objects.
	 */
	stream?: { depth: number; start(el: XmlElement, parent: XmlElement | undefined): ElementStream | undefined };
	/**
	 * Leave long runs of plain character data undecoded (byte input only): each run of at least
	 * 64 KiB holding no markup, `&`, CR or LF that is the whole text of its element. Reading `el.text`
	 * decodes and checks such a run on first use (an {@link XmlError} is thrown then for a character
	 * XML forbids), and {@link deferredTextBytes} hands over its bytes as they are: a base64
	 * attachment is decoded from the response bytes without ever becoming one more string. A document
	 * whose runs do not fit this shape is parsed the ordinary way, with the same errors.
	 */
	deferLargeText?: boolean;
}

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

// ---------------------------------------------------------------------------------------------
// Non-ASCII documents read as latin1

/** A document read as latin1 (see parseAsLatin1). */
interface Latin1Source {
	bytes: Buffer;
	/** Offsets of its first and last non-ASCII bytes. */
	firstHigh: number;
	lastHigh: number;
	/** Set once the stream has read a subtree holding every non-ASCII byte. */
	covered: boolean;
}

/** Thrown inside the parser when a latin1 read cannot be exact (never escapes parseAsLatin1). */
const LATIN1_ABANDONED = new Error('latin1 parse abandoned');
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

// ---------------------------------------------------------------------------------------------
// Deferred large text

/** Shortest run of character data worth leaving undecoded. */
const DEFERRED_TEXT_MIN = 64 * 1024;
/** Stands in `el.text` while parsing for a deferred run; NUL cannot occur in parsed text. */
const DEFERRED_MARK = '\u0000deferred';
/** Thrown inside the parser when the document does not fit the deferred shape (never escapes). */
const DEFERRAL_ABANDONED = new Error('deferred parse abandoned');

interface DeferredRuns {
	/** Offset in the spliced text where each run was cut out (a '<' follows). */
	at: number[];
	bytes: Uint8Array[];
}

const deferredBytes = new WeakMap<XmlElement, Uint8Array>();

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
function findLargeTextRuns(input: Uint8Array): number[] {
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

/** Makes `el.text` decode and check its deferred run on first read. */
function deferText(el: XmlElement, run: Uint8Array): void {
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

function definedOnly(limits: Partial<XmlLimits>): Partial<XmlLimits> {
	const out: Partial<XmlLimits> = {};
	for (const key of Object.keys(limits) as (keyof XmlLimits)[]) {
		const v = limits[key];
		if (v !== undefined) out[key] = v;
	}
	return out;
}

// ---------------------------------------------------------------------------------------------
// Tree helpers

/** Value of the first attribute named `local` (in namespace `ns` when given, any namespace otherwise), or undefined. */
export function attr(el: XmlElement, local: string, ns?: string): string | undefined {
	const attrs = el.attrs;
	for (let i = 0; i < attrs.length; i++) {
		const a = attrs[i];
		if (a.local === local && (ns === undefined || a.ns === ns)) return a.value;
	}
	return undefined;
}

/** First child element named `local` (in namespace `ns` when given, any namespace otherwise), or undefined. */
export function child(el: XmlElement, local: string, ns?: string): XmlElement | undefined {
	const children = el.children;
	for (let i = 0; i < children.length; i++) {
		const c = children[i];
		if (c.local === local && (ns === undefined || c.ns === ns)) return c;
	}
	return undefined;
}

/** All child elements named `local` (in namespace `ns` when given, any namespace otherwise), in document order. */
export function childrenNamed(el: XmlElement, local: string, ns?: string): XmlElement[] {
	const out: XmlElement[] = [];
	for (const c of el.children) {
		if (c.local === local && (ns === undefined || c.ns === ns)) out.push(c);
	}
	return out;
}

// ---------------------------------------------------------------------------------------------
// Escaping: the one XML escaper of the project

/**
 * What to do with a character XML 1.0 cannot carry (C0 controls other than tab, LF and CR, U+FFFE,
 * U+FFFF, lone surrogates): `throw` an 'XML_CHAR' error (the protocol: a message must be exact),
 * `drop` it, `replace` it by U+FFFD (reports), or `keep` it (raw requests are sent as written).
 */
export type InvalidXmlChars = 'throw' | 'drop' | 'replace' | 'keep';

/** Where the escaped text goes: element content, a double-quoted attribute, or either of both quotes. */
type EscapeContext = 'text' | 'attribute' | 'anywhere';

/** Code units needing attention in text: markup characters, CR, C0 controls, surrogates, U+FFFE/F. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TEXT_SPECIAL = /[&<>\r\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ATTR_SPECIAL = /[&<>"\t\n\r\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANYWHERE_SPECIAL = /[&<>"'\t\n\r\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

function invalidChar(i: number, c: number, invalid: InvalidXmlChars, lone: boolean): string | undefined {
	switch (invalid) {
		case 'drop':
			return '';
		case 'replace':
			return '\uFFFD';
		case 'keep':
			return undefined;
		default:
			throw new XmlError(
				'XML_CHAR',
				`${hex(c)}${lone ? ' (lone surrogate)' : ''} at index ${i} cannot be written in XML 1.0`,
			);
	}
}

function escapeWith(s: string, context: EscapeContext, invalid: InvalidXmlChars): string {
	const out: string[] = [];
	let last = 0;
	const n = s.length;
	const attribute = context !== 'text';
	for (let i = 0; i < n; i++) {
		const c = s.charCodeAt(i);
		let rep: string | undefined;
		switch (c) {
			case CH_AMP:
				rep = '&amp;';
				break;
			case CH_LT:
				rep = '&lt;';
				break;
			case CH_GT:
				rep = '&gt;';
				break;
			case CH_CR:
				rep = '&#xD;';
				break;
			case CH_DQUOTE:
				if (attribute) rep = '&quot;';
				break;
			case CH_SQUOTE:
				if (context === 'anywhere') rep = '&apos;';
				break;
			case CH_LF:
				if (attribute) rep = '&#xA;';
				break;
			case CH_TAB:
				if (attribute) rep = '&#x9;';
				break;
			default:
				if (c >= 0xd800 && c <= 0xdbff) {
					const d = s.charCodeAt(i + 1);
					if (d >= 0xdc00 && d <= 0xdfff) {
						i++;
						continue;
					}
					rep = invalidChar(i, c, invalid, true);
				} else if (!isXmlChar(c)) {
					rep = invalidChar(i, c, invalid, c >= 0xdc00 && c <= 0xdfff);
				}
		}
		if (rep !== undefined) {
			if (i > last) out.push(s.slice(last, i));
			out.push(rep);
			last = i + 1;
		}
	}
	if (last === 0) return s;
	if (last < n) out.push(s.slice(last));
	return out.join('');
}

/**
 * Escapes character data: `&`, `<` and `>` become entity references and CR becomes `&#xD;` so it
 * survives line-end normalisation. Characters XML 1.0 cannot carry are handled as `invalid` says
 * (by default: throws 'XML_CHAR').
 */
export function escapeText(s: string, invalid: InvalidXmlChars = 'throw'): string {
	return TEXT_SPECIAL.test(s) ? escapeWith(s, 'text', invalid) : s;
}

/**
 * Escapes an attribute value for double quotes: `& < > "` plus tab, LF and CR as character
 * references so they survive attribute-value normalisation. Invalid characters as in {@link escapeText}.
 */
export function escapeAttr(s: string, invalid: InvalidXmlChars = 'throw'): string {
	return ATTR_SPECIAL.test(s) ? escapeWith(s, 'attribute', invalid) : s;
}

/**
 * Escapes a value for a place not known in advance (element content, or an attribute in double or
 * single quotes): {@link escapeAttr} plus `'` as `&apos;`. Used where a value is substituted into a
 * document written by hand.
 */
export function escapeXml(s: string, invalid: InvalidXmlChars = 'throw'): string {
	return ANYWHERE_SPECIAL.test(s) ? escapeWith(s, 'anywhere', invalid) : s;
}

// ---------------------------------------------------------------------------------------------
// Pretty printer

type PrettyNode =
	| { kind: 'element'; start: number; end: number; children: PrettyNode[]; childElements: boolean; mixed: boolean }
	| { kind: 'misc'; start: number; end: number }
	| { kind: 'text'; start: number; end: number; blank: boolean };

/**
 * Re-indents a well-formed document for display. Only whitespace-only text between the children of
 * elements that have element children (and no other text or CDATA) is replaced; text content,
 * attribute values, CDATA, comments and the markup of each tag are kept byte for byte. Throws
 * {@link XmlError} (with line and column) when `text` is not well-formed.
 */
export function prettyPrintXml(text: string, indent = '  '): string {
	parseXml(text);
	const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	const n = s.length;
	const top: PrettyNode[] = [];
	const stack: Extract<PrettyNode, { kind: 'element' }>[] = [];
	const add = (node: PrettyNode): void => {
		const parent = stack.length > 0 ? stack[stack.length - 1] : undefined;
		if (parent === undefined) {
			top.push(node);
			return;
		}
		parent.children.push(node);
		if (node.kind === 'element') parent.childElements = true;
		else if (node.kind === 'text' && !node.blank) parent.mixed = true;
	};
	let pos = 0;
	while (pos < n) {
		const lt = s.indexOf('<', pos);
		const end = lt < 0 ? n : lt;
		if (end > pos) {
			let blank = true;
			for (let i = pos; i < end && blank; i++) blank = isWs(s.charCodeAt(i));
			add({ kind: 'text', start: pos, end, blank });
		}
		if (lt < 0) break;
		const c = s.charCodeAt(lt + 1);
		if (c === CH_QUESTION) {
			pos = s.indexOf('?>', lt + 2) + 2;
			add({ kind: 'misc', start: lt, end: pos });
		} else if (c === CH_BANG && s.startsWith('<!--', lt)) {
			pos = s.indexOf('-->', lt + 4) + 3;
			add({ kind: 'misc', start: lt, end: pos });
		} else if (c === CH_BANG) {
			pos = s.indexOf(']]>', lt + 9) + 3;
			add({ kind: 'text', start: lt, end: pos, blank: false });
		} else if (c === CH_SLASH) {
			pos = s.indexOf('>', lt) + 1;
			const el = stack.pop();
			if (el !== undefined) el.end = pos;
		} else {
			let p = lt + 1;
			let quote = 0;
			for (; p < n; p++) {
				const ch = s.charCodeAt(p);
				if (quote !== 0) {
					if (ch === quote) quote = 0;
				} else if (ch === CH_DQUOTE || ch === CH_SQUOTE) {
					quote = ch;
				} else if (ch === CH_GT) {
					break;
				}
			}
			pos = p + 1;
			const el: Extract<PrettyNode, { kind: 'element' }> = {
				kind: 'element',
				start: lt,
				end: pos,
				children: [],
				childElements: false,
				mixed: false,
			};
			add(el);
			if (s.charCodeAt(p - 1) !== CH_SLASH) stack.push(el);
		}
	}

	const out: string[] = [];
	// Iterative serialisation: a work item is a node at a depth, or the end tag of a re-indented element.
	type Work = { node: PrettyNode; depth: number } | { close: string; depth: number };
	const work: Work[] = [];
	for (let i = top.length - 1; i >= 0; i--) {
		const node = top[i];
		if (node.kind !== 'text') work.push({ node, depth: 0 }); // outside the root only whitespace
	}
	while (work.length > 0) {
		const item = work.pop() as Work;
		if (out.length > 0) out.push('\n');
		out.push(indent.repeat(item.depth));
		if ('close' in item) {
			out.push(item.close);
			continue;
		}
		const node = item.node;
		if (node.kind !== 'element' || !node.childElements || node.mixed) {
			out.push(s.slice(node.start, node.end));
			continue;
		}
		// Element-only content: keep the start and end tags, put each non-text child on its own line.
		out.push(s.slice(node.start, node.children[0].start));
		work.push({ close: s.slice(node.children[node.children.length - 1].end, node.end), depth: item.depth });
		for (let i = node.children.length - 1; i >= 0; i--) {
			const ch = node.children[i];
			if (ch.kind !== 'text') work.push({ node: ch, depth: item.depth + 1 });
		}
	}
	return out.join('');
}
