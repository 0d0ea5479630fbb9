/**
 * What may stand outside the root element: the XML declaration, comments, processing instructions and
 * whitespace. A document type declaration is refused wherever it appears.
 */
import { CH_GT, CH_LT, CH_QUESTION } from '../chars';
import { isWs, scanName } from './characters';
import { clip, describeAt, failAt, positionOf, XmlError, type ParseInput } from './errors';

const XML_DECL =
	/^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.[0-9]+\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])([A-Za-z][A-Za-z0-9._-]*)\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\4)?[ \t\r\n]*\?>$/;

/**
 * Refuses a DOCTYPE in the prolog before any other work: walks only the XML declaration, comments,
 * processing instructions and whitespace that may precede it.
 */
export function rejectDoctypeInProlog(s: string): void {
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
export function isDtdMarkup(s: string, p: number): boolean {
	const word = s.slice(p + 2, p + 10).toUpperCase();
	return (
		word.startsWith('DOCTYPE') ||
		word.startsWith('ENTITY') ||
		word.startsWith('ELEMENT') ||
		word.startsWith('ATTLIST') ||
		word.startsWith('NOTATION')
	);
}

/** True when the document starts with an XML declaration. */
export function hasXmlDecl(s: string): boolean {
	return s.startsWith('<?xml', 0) && isWs(s.charCodeAt(5));
}

/** Parses the XML declaration at offset 0; returns the offset after it. */
export function xmlDecl(input: ParseInput): number {
	const s = input.s;
	const end = s.indexOf('?>');
	if (end < 0) failAt(input, 'XML_MALFORMED', 'unterminated XML declaration', 0);
	const decl = s.slice(0, end + 2);
	const m = XML_DECL.exec(decl);
	if (!m) failAt(input, 'XML_MALFORMED', `invalid XML declaration ${clip(decl, 80)}`, 0);
	const encoding = m[3];
	if (encoding !== undefined && encoding.toLowerCase() !== 'utf-8') {
		failAt(input, 'XML_ENCODING', `encoding '${encoding}' is declared; only UTF-8 is supported`, 0);
	}
	return end + 2;
}

/** Skips a comment or PI at `p` ('<!--' or '<?'); returns the offset after it. */
export function skipMisc(input: ParseInput, p: number): number {
	const s = input.s;
	const lim = input.lim;
	if (s.charCodeAt(p + 1) === CH_QUESTION) {
		const nameEnd = scanName(s, p + 2);
		if (nameEnd === p + 2) failAt(input, 'XML_MALFORMED', 'processing instruction without a target', p);
		if (nameEnd - p - 2 > lim.maxNameLength) {
			failAt(input, 'XML_LIMIT', `name longer than ${lim.maxNameLength} characters`, p);
		}
		// Namespaces in XML 1.0 §7: PI targets contain no colon.
		const colon = s.indexOf(':', p + 2);
		if (colon >= 0 && colon < nameEnd) {
			failAt(input, 'XML_MALFORMED', 'a processing instruction target must not contain a colon', colon);
		}
		if (nameEnd - p - 2 === 3 && s.slice(p + 2, nameEnd).toLowerCase() === 'xml') {
			failAt(input, 'XML_MALFORMED', 'the XML declaration is allowed only at the very start of the document', p);
		}
		const c = s.charCodeAt(nameEnd);
		if (!(isWs(c) || (c === CH_QUESTION && s.charCodeAt(nameEnd + 1) === CH_GT))) {
			failAt(
				input,
				'XML_MALFORMED',
				`unexpected ${describeAt(s, nameEnd)} after processing instruction target`,
				nameEnd,
			);
		}
		const e = s.indexOf('?>', nameEnd);
		if (e < 0) failAt(input, 'XML_MALFORMED', 'unterminated processing instruction', p);
		return e + 2;
	}
	const e = s.indexOf('--', p + 4);
	if (e < 0) failAt(input, 'XML_MALFORMED', 'unterminated comment', p);
	if (s.charCodeAt(e + 2) !== CH_GT) failAt(input, 'XML_MALFORMED', "'--' is not allowed inside a comment", e);
	return e + 3;
}

/** Refuses anything but whitespace in [a, b), outside the root element. */
export function checkOutsideText(input: ParseInput, a: number, b: number, rootSeen: boolean): void {
	const s = input.s;
	for (let i = a; i < b; i++) {
		if (!isWs(s.charCodeAt(i))) {
			failAt(
				input,
				'XML_MALFORMED',
				rootSeen ? 'text is not allowed after the root element' : 'text is not allowed before the root element',
				i,
			);
		}
	}
}
