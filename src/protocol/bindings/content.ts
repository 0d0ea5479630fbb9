/** Content types and small byte helpers shared by the bindings. */
import { Buffer, isAscii } from 'node:buffer';

export const TEXT_XML = 'text/xml; charset=utf-8';
export const FORM = 'application/x-www-form-urlencoded';
export const TEXT_PLAIN = 'text/plain; charset=utf-8';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

export function utf8(text: string): Uint8Array {
	return encoder.encode(text);
}

export function fromUtf8(bytes: Uint8Array): string {
	// ASCII is read as latin1: the same characters, much faster than the UTF-8 decoder.
	if (isAscii(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
	return decoder.decode(bytes);
}

/** The media type of a Content-Type header in lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
	return (contentType ?? '').split(';', 1)[0].trim().toLowerCase();
}

/** A parameter of a Content-Type header (e.g. action of SOAP 1.2), unquoted. */
export function contentTypeParam(contentType: string | undefined, name: string): string | undefined {
	for (const part of (contentType ?? '').split(';').slice(1)) {
		const eq = part.indexOf('=');
		if (eq > 0 && part.slice(0, eq).trim().toLowerCase() === name) {
			return part
				.slice(eq + 1)
				.trim()
				.replace(/^"(.*)"$/, '$1');
		}
	}
	return undefined;
}

/** True when the bytes look like an HTML page (error pages of proxies and servers). */
export function looksLikeHtml(text: string): boolean {
	const start = text.slice(0, 512).trimStart().toLowerCase();
	return (
		start.startsWith('<!doctype html') ||
		start.startsWith('<html') ||
		(start.includes('<html') && !start.startsWith('<?xml'))
	);
}
