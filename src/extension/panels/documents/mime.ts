/**
 * The full-email document of an application, read with postal-mime (a maintained MIME parser used by
 * mail services; hostile email from strangers is its daily input): headers with encoded words
 * decoded, the text and HTML bodies in their charsets, and the attachments as bytes. Nesting, header
 * size and part count are bounded, so a crafted message fails cleanly instead of looping or
 * recursing. No VS Code imports.
 */
// The named export: the bundle resolves postal-mime's ES module, whose default export is only the class.
import PostalMime, { decodeWords } from 'postal-mime';

/** One header as written (name case kept), value unfolded and with encoded words decoded. */
export interface MimeHeader {
	name: string;
	value: string;
}

/** A leaf part of a message: the text body, the HTML body or an attachment. */
export interface MimePart {
	contentType: string;
	charset?: string;
	fileName?: string;
	disposition?: string;
	/** The body after the transfer encoding was undone. */
	bytes: Uint8Array;
}

export interface MimeMessage {
	headers: MimeHeader[];
	parts: MimePart[];
}

/** Bounds for a message from a stranger. */
export const MIME_LIMITS = { depth: 8, headerBytes: 256 * 1024, parts: 200, embeddedMessages: 2 } as const;

/** A header name as RFC 5322 allows it (printable, no space or colon): anything else is body text. */
const FIELD_NAME = /^[!-9;-~]+$/;

const utf8 = new TextEncoder();

/** Parses a whole message; rejects with a plain-language error when it is malformed past the limits. */
export async function parseMime(bytes: Uint8Array): Promise<MimeMessage> {
	let email: Awaited<ReturnType<typeof PostalMime.parse>>;
	try {
		email = await PostalMime.parse(bytes, {
			attachmentEncoding: 'arraybuffer',
			maxNestingDepth: MIME_LIMITS.depth,
			maxHeadersSize: MIME_LIMITS.headerBytes,
			maxRfc822NestingDepth: MIME_LIMITS.embeddedMessages,
		});
	} catch (error) {
		throw new Error(`the email could not be read (${error instanceof Error ? error.message : String(error)})`, {
			cause: error,
		});
	}
	const headers = email.headers
		.filter((h) => FIELD_NAME.test(h.originalKey ?? h.key))
		.map((h) => ({ name: h.originalKey ?? h.key, value: decodeWords(h.value) }));
	const parts: MimePart[] = [];
	if (email.text !== undefined) {
		parts.push({ contentType: 'text/plain', charset: 'utf-8', bytes: utf8.encode(email.text) });
	}
	if (email.html !== undefined) {
		parts.push({ contentType: 'text/html', charset: 'utf-8', bytes: utf8.encode(email.html) });
	}
	for (const attachment of email.attachments.slice(0, MIME_LIMITS.parts - parts.length)) {
		const content = attachment.content;
		parts.push({
			contentType: attachment.mimeType.toLowerCase(),
			fileName: attachment.filename ?? undefined,
			disposition: attachment.disposition ?? 'attachment',
			bytes:
				typeof content === 'string'
					? utf8.encode(content)
					: content instanceof Uint8Array
						? content
						: new Uint8Array(content),
		});
	}
	return { headers, parts };
}

/** Decodes bytes in a named charset; unknown charsets fall back to UTF-8 with replacement characters. */
export function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
	const label = (charset ?? 'utf-8').trim().toLowerCase() || 'utf-8';
	try {
		return new TextDecoder(label === 'us-ascii' ? 'utf-8' : label).decode(bytes);
	} catch {
		return new TextDecoder('utf-8').decode(bytes);
	}
}
