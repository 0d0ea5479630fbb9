/** Parse and write failures, and how their positions and characters are described. */
import type { XmlLimits } from './model';

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

export function hex(cp: number): string {
	return 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
}

/** 1-based line and column (UTF-16 code units) of offset `p` in `s`. */
export function positionOf(s: string, p: number): { line: number; column: number } {
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

export function describeAt(s: string, p: number): string {
	if (p >= s.length) return 'end of input';
	const cp = s.codePointAt(p) ?? 0;
	if (cp < 0x21 || cp === 0x7f) return hex(cp);
	return `'${String.fromCodePoint(cp)}'`;
}

export function clip(s: string, max = 40): string {
	return s.length > max ? s.slice(0, max) + '…' : s;
}

/** The document being parsed, as every part of the parser sees it. */
export interface ParseInput {
	readonly s: string;
	readonly lim: XmlLimits;
	/** First invalid character (or -1): an error at or after it is reported as that character instead. */
	readonly firstBad: number;
}

/** Throws `code` at offset `p`, or the first invalid character when it comes first (the real cause). */
export function failAt(input: ParseInput, code: XmlErrorCode, detail: string, p: number): never {
	if (input.firstBad >= 0 && input.firstBad <= p) failBadChar(input);
	const at = positionOf(input.s, p);
	throw new XmlError(code, detail, at.line, at.column);
}

/** Throws for the document's first invalid character. */
export function failBadChar(input: ParseInput): never {
	const p = input.firstBad;
	const at = positionOf(input.s, p);
	throw new XmlError(
		'XML_MALFORMED',
		`character ${hex(input.s.charCodeAt(p))} is not allowed in XML`,
		at.line,
		at.column,
	);
}
