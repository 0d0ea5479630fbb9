/**
 * A captured HTTP exchange (the exact bytes sent and received) and its redaction, so the traffic log
 * and error reports can show what happened without ever showing a credential.
 */
import type { BindingName } from '../protocol/bindings/types';
import { secretForms } from '../protocol/secretForms';
import type { OperationName } from '../protocol/catalogue';

/** One request and its response as they travelled. */
export interface Exchange {
	operation: OperationName;
	binding: BindingName;
	request: {
		method: string;
		url: string;
		/** Headers the client set, names in lower case (undici adds host, connection and content-length). */
		headers: Record<string, string>;
		body: Uint8Array;
	};
	/** Absent when no response headers arrived (network error, timeout, abort). */
	response?: {
		status: number;
		/** Names in lower case; repeated headers joined with ', '. */
		headers: Record<string, string>;
		/** The bytes received, possibly cut short by a failure or the size limit. */
		body: Uint8Array;
	};
	timings: {
		/** Epoch milliseconds when the request was sent. */
		startedAt: number;
		/** Milliseconds until the response headers arrived. */
		headersMs?: number;
		totalMs: number;
	};
	/** What went wrong, when the call failed. */
	error?: string;
}

/**
 * Parameter and field names whose values are always redacted, whatever their value: the credential
 * parameters, and CUser.Password which UserList returns.
 */
export const SECRET_FIELD_NAMES: readonly string[] = ['sAPIKey', 'sPassword', 'Password'];

/** What replaces a secret. */
export const REDACTED = '***';

/**
 * A copy of the exchange with every occurrence of each secret replaced by `***` in the URL, the
 * headers and both bodies. Each secret is matched raw, URL-encoded (percent and form forms) and
 * XML-escaped; in addition, the values of the fields named in SECRET_FIELD_NAMES are replaced as XML
 * elements and as query or form fields, so a credential is hidden even when it is not in `secrets`.
 * A body with nothing to redact is shared with the input, not copied.
 */
export function redactExchange(exchange: Exchange, secrets: readonly string[] | Redactor): Exchange {
	const redactor = Array.isArray(secrets) ? createRedactor(secrets) : (secrets as Redactor);
	const redacted: Exchange = {
		...exchange,
		request: {
			method: exchange.request.method,
			url: redactor.text(exchange.request.url),
			headers: redactor.headers(exchange.request.headers),
			body: redactor.bytes(exchange.request.body),
		},
		timings: { ...exchange.timings },
	};
	if (exchange.response) {
		redacted.response = {
			status: exchange.response.status,
			headers: redactor.headers(exchange.response.headers),
			body: redactor.bytes(exchange.response.body),
		};
	}
	if (exchange.error !== undefined) {
		redacted.error = redactor.text(exchange.error);
	}
	return redacted;
}

/**
 * A deep copy of an exchange (bodies included), so its receiver cannot alter the original. (The
 * Uint8Array constructor copies; Buffer's slice() would not.)
 */
export function copyExchange(exchange: Exchange): Exchange {
	const copy: Exchange = {
		...exchange,
		request: {
			...exchange.request,
			headers: { ...exchange.request.headers },
			body: new Uint8Array(exchange.request.body),
		},
		timings: { ...exchange.timings },
	};
	if (exchange.response) {
		copy.response = {
			status: exchange.response.status,
			headers: { ...exchange.response.headers },
			body: new Uint8Array(exchange.response.body),
		};
	}
	return copy;
}

/** Redacts text and bytes; built once per set of secrets. */
export interface Redactor {
	text(value: string): string;
	/** The bytes with secrets replaced; `value` itself (not a copy) when there is nothing to replace. */
	bytes(value: Uint8Array): Uint8Array;
	headers(value: Record<string, string>): Record<string, string>;
	/**
	 * The first `maxChars` characters of `value` decoded as UTF-8, redacted, for error messages. Only
	 * a prefix is decoded; a secret or a credential element cut by the end is masked as well.
	 */
	excerpt(value: Uint8Array, maxChars: number): string;
}

/** Header names whose values are credentials by nature. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/**
 * Characters that none of the encodings in encodedForms changes: a run of them in a secret appears,
 * as it is, in every form of that secret on the wire.
 */
const UNCHANGED_BY_ENCODING = /[A-Za-z0-9._*-]+/g;
/** Shorter common runs are too frequent to rule anything out; the forms themselves are searched then. */
const MIN_ANCHOR = 4;

/** Builds a redactor for the given secrets (see redactExchange). */
export function createRedactor(secrets: readonly string[]): Redactor {
	const kept = [...new Set(secrets.filter((secret) => secret.length > 0))];
	// Longest first, so a secret containing another one is replaced whole.
	const forms = [...new Set(kept.flatMap(encodedForms))].sort((a, b) => b.length - a.length);
	// What a body must contain for any form of any secret to be in it (see anchorsOf).
	const anchors = [...new Set(kept.flatMap(anchorsOf))].map((anchor) => Buffer.from(anchor, 'latin1'));
	const names = SECRET_FIELD_NAMES.map(escapeRegExp).join('|');
	// <sAPIKey>..</sAPIKey>, also with a prefix (<tns:sPassword>) and attributes.
	const element = new RegExp(`(<((?:[\\w.-]+:)?(?:${names}))(?:\\s[^>]*)?>)([\\s\\S]*?)(</\\2\\s*>)`, 'gi');
	// sAPIKey=... in a query string or a form body.
	const field = new RegExp(`(^|[?&;\\s])(${names})=([^&#\\s]*)`, 'gi');
	// Every field name matched case-insensitively; no match means neither pattern above can match.
	const anyName = new RegExp(names, 'i');
	// An opening credential element whose content runs to the end of a cut text.
	const openAtEnd = new RegExp(`(<(?:[\\w.-]+:)?(?:${names})(?:\\s[^>]*)?>)[^<]+$`, 'i');

	// Works on text decoded as latin1, so that every byte maps to one character and back unchanged.
	const redactLatin1 = (value: string): string => {
		let result = value;
		for (const form of forms) {
			if (result.includes(form)) result = result.split(form).join(REDACTED);
		}
		if (!anyName.test(result)) return result;
		result = result.replace(
			element,
			(_match, open: string, _name: string, content: string, close: string) =>
				`${open}${content.length > 0 ? REDACTED : ''}${close}`,
		);
		return result.replace(
			field,
			(_match, lead: string, name: string, value: string) => `${lead}${name}=${value.length > 0 ? REDACTED : ''}`,
		);
	};
	const toLatin1 = (value: string): string => Buffer.from(value, 'utf8').toString('latin1');
	const fromLatin1 = (value: string): string => Buffer.from(value, 'latin1').toString('utf8');
	const text = (value: string): string => fromLatin1(redactLatin1(toLatin1(value)));
	const redactBytes = (value: Uint8Array): Uint8Array => {
		const buffer = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
		// Native searches rule out most bodies before any string is made or rewritten.
		if (!anchors.some((anchor) => buffer.includes(anchor)) && !mentionsName(buffer, anyName)) return value;
		// latin1 maps every byte to one character and back unchanged.
		const latin1 = buffer.toString('latin1');
		const redacted = redactLatin1(latin1);
		return redacted === latin1 ? value : new Uint8Array(Buffer.from(redacted, 'latin1'));
	};

	return {
		text,
		bytes: redactBytes,
		headers: (value) => {
			const result: Record<string, string> = {};
			for (const [name, headerValue] of Object.entries(value)) {
				result[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : text(headerValue);
			}
			return result;
		},
		excerpt: (value, maxChars) => {
			// Enough bytes for maxChars characters, plus room for a secret that the cut would split.
			const longest = forms.length > 0 ? forms[0].length : 0;
			const window = value.subarray(0, 4 * maxChars + longest);
			const decoded = Buffer.from(window.buffer, window.byteOffset, window.byteLength).toString('utf8');
			const redacted = text(decoded);
			const cut = redacted.slice(0, maxChars);
			// Anything cut off (by the window or the slice) may have split a secret or an element.
			return window.length < value.length || cut.length < redacted.length
				? maskTail(cut, forms.map(fromLatin1), openAtEnd)
				: cut;
		},
	};
}

/** Bytes tested at a time by mentionsName: small strings, which the young generation collects cheaply. */
const NAME_SCAN_CHUNK = 64 * 1024;
/** Longest credential field name, less one: the overlap that keeps a name split by a chunk's end found. */
const NAME_OVERLAP = Math.max(...SECRET_FIELD_NAMES.map((name) => name.length)) - 1;

/**
 * True when the bytes contain a credential field name in any letter case. Tested in latin1 chunks: a
 * string of megabytes is external memory to V8, and making one per call brings on full collections.
 */
function mentionsName(buffer: Buffer, anyName: RegExp): boolean {
	for (let start = 0; start < buffer.length; start += NAME_SCAN_CHUNK) {
		const from = Math.max(0, start - NAME_OVERLAP);
		if (anyName.test(buffer.toString('latin1', from, Math.min(buffer.length, start + NAME_SCAN_CHUNK)))) {
			return true;
		}
	}
	return false;
}

/** Masks the end of a cut text when it is the beginning of a secret or the content of an open credential element. */
function maskTail(cut: string, secrets: readonly string[], openAtEnd: RegExp): string {
	let result = cut.replace(openAtEnd, (_match, open: string) => `${open}${REDACTED}`);
	for (const secret of secrets) {
		for (let k = Math.min(secret.length - 1, result.length); k > 0; k--) {
			if (result.endsWith(secret.slice(0, k))) {
				result = `${result.slice(0, result.length - k)}${REDACTED}`;
				break;
			}
		}
	}
	return result;
}

/**
 * Strings, as latin1 of their UTF-8 bytes, at least one of which every encoded form of the secret
 * contains: its longest run of characters that no encoding changes, or else all its forms.
 */
function anchorsOf(secret: string): string[] {
	const runs = secret.match(UNCHANGED_BY_ENCODING) ?? [];
	const longest = runs.reduce((best, run) => (run.length > best.length ? run : best), '');
	return longest.length >= MIN_ANCHOR ? [longest] : encodedForms(secret);
}

/** The forms in which a secret can appear on the wire, as latin1 strings of its UTF-8 bytes. */
function encodedForms(secret: string): string[] {
	return secretForms(secret).map((variant) => Buffer.from(variant, 'utf8').toString('latin1'));
}

function escapeRegExp(value: string): string {
	return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
