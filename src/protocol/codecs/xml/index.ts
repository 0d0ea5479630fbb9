/**
 * The one XML parser and writer of the protocol layer: a hand-written, non-validating XML 1.0 +
 * Namespaces parser producing a light element tree, plus escaping helpers and a pretty printer.
 *
 * Security: DTDs are refused outright (SOAP forbids them, WS-I BP R1008), so no entity other than the
 * five predefined ones and character references exists; every limit is checked while scanning so
 * hostile input is refused in time linear in its size. The parser is iterative (no recursion).
 *
 * Speed: text is located with `indexOf` and cut with `slice`; entity and line-end handling only
 * happens on runs that contain `&` or CR, found through monotonic caches so no byte is searched twice
 * for the same character. Node's Buffer only serves its native byte search (deferred large text).
 *
 * The modules follow the grammar: `prolog.ts` (declaration, comments, PIs, no DOCTYPE), `elements.ts`
 * (the main loop, tags, attributes, the tree, streaming), `text.ts` (character data and references),
 * `namespaces.ts`; around them `parse.ts` (the entry point), `input.ts` (bytes to text),
 * `characters.ts`, `errors.ts`, `model.ts` (the tree's types) and `writer.ts` (escaping, pretty printing).
 */
export { isXmlChar, scanName } from './characters';
export { XmlError, type XmlErrorCode } from './errors';
export { deferredTextBytes, utf8Strict } from './input';
export {
	attr,
	child,
	childrenNamed,
	DEFAULT_XML_LIMITS,
	XML_NS,
	XMLNS_NS,
	XSI_NS,
	type ElementStream,
	type SubtreeRead,
	type SubtreeSource,
	type XmlAttribute,
	type XmlElement,
	type XmlLimits,
	type XmlParseOptions,
} from './model';
export { parseXml } from './parse';
export { scanCharRef, TextLookahead } from './text';
export { escapeAttr, escapeText, escapeXml, prettyPrintXml, type InvalidXmlChars } from './writer';
