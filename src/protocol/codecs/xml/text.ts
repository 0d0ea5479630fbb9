/**
 * Character data: text between markup, CDATA sections, attribute values, and the five predefined
 * entity and character references they may hold; line ends normalised to LF (XML 1.0 §2.11).
 */
import { CH_AMP, CH_CR, CH_HASH, CH_LF, CH_SEMI, CH_TAB, CH_X } from '../chars';
import { isXmlChar, scanName } from './characters';
import { clip, failAt, type ParseInput } from './errors';
import { DEFERRAL_ABANDONED, DEFERRED_MARK } from './input';
import type { XmlElement } from './model';

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const CR_RUN = /\r\n?/g;

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

/** The character data of one document, read forwards as the parser meets it. */
export class CharacterData {
	private readonly s: string;
	private readonly ahead: TextLookahead;
	/** Text pieces after the first of each open element, by depth (the first lives in el.text). */
	private readonly moreText: (string[] | undefined)[] = [];
	/** Output of decodeRef: where the reference ends (after ';'). */
	private refEnd = 0;

	constructor(private readonly input: ParseInput) {
		this.s = input.s;
		this.ahead = new TextLookahead(input.s);
	}

	/** Appends the character data [a, b) (between markup, inside `el` at depth d) to the element's text. */
	addText(a: number, b: number, el: XmlElement, d: number): void {
		const cd = this.ahead.nextCdEnd(a);
		if (cd !== -1 && cd < b) {
			failAt(this.input, 'XML_MALFORMED', "']]>' is not allowed in text (escape '>' as &gt;)", cd);
		}
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

	/** Appends the content [a, b) of a CDATA section, as written, to `el` at depth d. */
	addCdata(a: number, b: number, el: XmlElement, d: number): void {
		this.pushText(el, d, this.ahead.literal(a, b));
	}

	/** Sets the text of `el` (at depth d, now closing) from all its pieces. */
	closeText(el: XmlElement, d: number): void {
		const more = this.moreText[d];
		if (more !== undefined) {
			el.text = more.join('');
			this.moreText[d] = undefined;
		}
	}

	/** Normalised attribute value for [a, b) (XML 1.0 §3.3.3, CDATA type). */
	attrValue(a: number, b: number): string {
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

	/**
	 * Decodes the reference starting with '&' at `p`; the reference may not extend to `end`.
	 * Sets refEnd to the index after ';'.
	 */
	private decodeRef(p: number, end: number): string {
		const s = this.s;
		const input = this.input;
		if (s.charCodeAt(p + 1) === CH_HASH) {
			const { digitsStart, stop: q, codePoint: cp } = scanCharRef(s, p, end);
			const text = clip(s.slice(p, Math.min(q + 1, end)));
			if (q === digitsStart || q >= end || s.charCodeAt(q) !== CH_SEMI) {
				failAt(input, 'XML_ENTITY', `malformed character reference ${text}`, p);
			}
			if (!isXmlChar(cp)) {
				failAt(input, 'XML_ENTITY', `character reference ${text} is not a valid XML character`, p);
			}
			this.refEnd = q + 1;
			return String.fromCodePoint(cp);
		}
		const nameEnd = scanName(s, p + 1);
		if (nameEnd === p + 1 || nameEnd >= end || s.charCodeAt(nameEnd) !== CH_SEMI) {
			failAt(input, 'XML_MALFORMED', "'&' must be escaped as &amp; or start an entity reference", p);
		}
		if (nameEnd - p - 1 > input.lim.maxNameLength) {
			failAt(input, 'XML_LIMIT', `entity name longer than ${input.lim.maxNameLength} characters`, p);
		}
		const name = s.slice(p + 1, nameEnd);
		const value = PREDEFINED[name];
		if (value === undefined || !Object.prototype.hasOwnProperty.call(PREDEFINED, name)) {
			failAt(
				input,
				'XML_ENTITY',
				`undefined entity &${clip(name)}; (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)`,
				p,
			);
		}
		this.refEnd = nameEnd + 1;
		return value;
	}
}
