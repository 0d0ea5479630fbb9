/** Escaping (the one XML escaper of the project) and the pretty printer. */
import {
	CH_AMP,
	CH_BANG,
	CH_CR,
	CH_DQUOTE,
	CH_GT,
	CH_LF,
	CH_LT,
	CH_QUESTION,
	CH_SLASH,
	CH_SQUOTE,
	CH_TAB,
} from '../chars';
import { isWs, isXmlChar } from './characters';
import { hex, XmlError } from './errors';
import { parseXml } from './parse';

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
