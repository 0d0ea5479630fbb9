/** Character classes of XML 1.0 (fifth edition): names, whitespace and the characters a document may hold. */
import { CH_COLON, CH_CR, CH_DASH, CH_LF, CH_SPACE, CH_TAB } from '../chars';

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

export function isWs(c: number): boolean {
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

/** Forbidden code units that are never part of a valid XML document (surrogates are checked apart). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_CHAR = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Index of the first character of `s` that is not an XML Char, or -1. */
export function firstInvalidChar(s: string, checkSurrogates: boolean): number {
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
