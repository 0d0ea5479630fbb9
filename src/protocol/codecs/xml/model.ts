/**
 * The light element tree the parser builds, its limits and stream hooks, and the helpers that read it.
 */
import type { Buffer } from 'node:buffer';

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
