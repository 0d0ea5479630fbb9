/**
 * Step 3b of the pipeline: a request body in a declared charset other than UTF-8 is decoded, as
 * ASP.NET ASMX does (it reads SOAP through a StreamReader in the Content-Type's charset, a byte order
 * mark winning), never read as UTF-8 by mistake. For XML the charset comes from a byte order mark,
 * else the Content-Type, else the XML declaration (UTF-16 without a byte order mark is told by its
 * first bytes, as .NET's XmlTextReader does); the body is decoded and its declaration rewritten
 * to UTF-8. A form body's percent-escapes are bytes in the declared charset, so each name and value is
 * decoded and written again in UTF-8. A charset the runtime does not know (or UTF-16 for a form) is
 * 415 with a Client fault saying what to send instead; ASMX would fall back to ASCII there and turn
 * every other character into '?', which no client wants (README, "Where the spec is silent").
 */
import type { BindingName } from '../../protocol/bindings/types';
import { HttpError, malformedRequest } from './errors';

/** The charset parameter of a Content-Type, unquoted, or undefined. */
export function declaredCharset(contentType: string | undefined): string | undefined {
	const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(contentType ?? '');
	return match ? (match[1] ?? match[2]).trim() : undefined;
}

const XML_DECLARATION = /^(\uFEFF?<\?xml[^>]*?\sencoding\s*=\s*)(["'])([A-Za-z][A-Za-z0-9._-]*)\2/;

/** The encoding a byte order mark announces, or undefined. */
function bomEncoding(body: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | undefined {
	if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
	if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
	if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
	return undefined;
}

/**
 * UTF-16 without a byte order mark, told by its first character '<' as .NET's XmlTextReader tells it
 * (DetectEncoding): 3C 00 is little-endian, 00 3C big-endian (followed by 00 00 it would be UCS-4,
 * which no runtime decoder here knows).
 */
function sniffedUtf16(body: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
	if (body.byteLength < 4 || (body[2] === 0 && body[3] === 0)) return undefined;
	if (body[0] === 0x3c && body[1] === 0) return 'utf-16le';
	if (body[0] === 0 && body[1] === 0x3c) return 'utf-16be';
	return undefined;
}

/**
 * The encoding of an XML declaration at the very start of the body, or undefined. The declaration of
 * a UTF-16 body without a byte order mark is read in UTF-16; it must name a UTF-16 encoding (or none),
 * as .NET's reader cannot switch from 16-bit characters to another encoding either.
 */
function xmlDeclaredEncoding(body: Uint8Array): string | undefined {
	const utf16 = sniffedUtf16(body);
	const head =
		utf16 === undefined
			? Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 200)).toString('latin1')
			: new TextDecoder(utf16).decode(body.subarray(0, 400));
	const named = XML_DECLARATION.exec(head)?.[3];
	if (utf16 === undefined) return named;
	if (named !== undefined && encodingOf(named)?.startsWith('utf-16') !== true) {
		throw malformedRequest(
			`The request body is UTF-16 (its first bytes) but its XML declaration names '${named.slice(0, 40)}'; declare encoding="utf-16" or send UTF-8.`,
		);
	}
	return utf16;
}

function unsupported(label: string, binding: BindingName): HttpError {
	return new HttpError(
		415,
		{
			code: 'Client',
			subcode: 'MalformedRequest',
			message: `The request's charset '${label.slice(0, 40)}' is not supported${binding === 'httpPost' ? ' for a form' : ''}; send UTF-8 (charset=utf-8).`,
		},
		{},
		binding === 'httpPost',
	);
}

/** The WHATWG name of a charset label, or undefined when the runtime does not know it. */
function encodingOf(label: string): string | undefined {
	try {
		return new TextDecoder(label).encoding;
	} catch {
		return undefined;
	}
}

/**
 * windows-1252's 0x80–0x9F (WHATWG table). Node's TextDecoder, up to at least version 22, decodes
 * windows-1252 (and the labels that mean it: iso-8859-1, latin1, ascii…) as ISO-8859-1, giving C1
 * control characters there instead of €, ‘, ’, “, ”, …; the five undefined bytes stay as they are.
 */
const WINDOWS_1252_C1 =
	'\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
	'\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

function decodeStrict(bytes: Uint8Array, encoding: string): string {
	try {
		const text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
		return encoding === 'windows-1252'
			? text.replace(/[\u0080-\u009F]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80])
			: text;
	} catch {
		throw malformedRequest(`The request body is not valid ${encoding}, the charset it declares.`);
	}
}

/** A form body re-encoded: every percent-escape and byte read in `encoding`, written again as UTF-8. */
function transcodeForm(body: Uint8Array, encoding: string): Uint8Array {
	const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
	const decodePart = (part: string): string => {
		const bytes: number[] = [];
		for (let i = 0; i < part.length; i++) {
			const c = part.charCodeAt(i);
			if (c === 0x25 && /^[0-9A-Fa-f]{2}$/.test(part.slice(i + 1, i + 3))) {
				bytes.push(parseInt(part.slice(i + 1, i + 3), 16));
				i += 2;
			} else {
				bytes.push(c === 0x2b ? 0x20 : c);
			}
		}
		return decodeStrict(Uint8Array.from(bytes), encoding);
	};
	const out = new URLSearchParams();
	for (const pair of text.split('&')) {
		if (pair === '') continue;
		const eq = pair.indexOf('=');
		out.append(decodePart(eq < 0 ? pair : pair.slice(0, eq)), eq < 0 ? '' : decodePart(pair.slice(eq + 1)));
	}
	return Buffer.from(out.toString(), 'utf8');
}

/**
 * The body in UTF-8 for the binding's decoder: unchanged when it is UTF-8 (declared or not), decoded
 * from its declared charset otherwise.
 */
export function bodyAsUtf8(body: Uint8Array, contentType: string | undefined, binding: BindingName): Uint8Array {
	if (binding === 'httpGet' || body.byteLength === 0) return body;
	const label =
		binding === 'httpPost'
			? declaredCharset(contentType)
			: (bomEncoding(body) ?? declaredCharset(contentType) ?? xmlDeclaredEncoding(body));
	if (label === undefined) return body;
	const encoding = encodingOf(label);
	if (encoding === undefined) throw unsupported(label, binding);
	if (encoding === 'utf-8') return body;
	if (binding === 'httpPost') {
		if (encoding.startsWith('utf-16')) throw unsupported(label, binding);
		return transcodeForm(body, encoding);
	}
	const text = decodeStrict(body, encoding).replace(/^\uFEFF/, '');
	// The declaration must now say what the bytes are.
	return Buffer.from(text.replace(XML_DECLARATION, '$1$2utf-8$2'), 'utf8');
}
