/**
 * A captured HTTP exchange (the exact bytes sent and received) and its redaction, so the traffic log
 * and error reports can show what happened without ever showing a credential.
 */
import type { BindingName } from '../protocol/bindings/types';
import { echoedSecretForms, MIN_FREE_MATCH_LENGTH, secretForms, wholeTokenPattern } from '../protocol/secretForms';
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
 * Bodies at least this long are redacted when first read rather than in redactExchange: a page of
 * megabytes is mostly logged by its first few kilobytes (see bodyExcerpt), which are redacted alone.
 */
export const LAZY_REDACTION_BYTES = 64 * 1024;

/** Bodies not redacted yet: the bytes as they travelled and the redactor that will redact them. */
const pendingBodies = new WeakMap<object, { raw: Uint8Array; redactor: Redactor }>();

/**
 * A copy of the exchange with every occurrence of each secret replaced by `***` in the URL, the
 * headers and both bodies. Each secret is matched raw, URL-encoded (percent and form forms) and
 * XML-escaped; in addition, the values of the fields named in SECRET_FIELD_NAMES are replaced as XML
 * elements and as query or form fields, so a credential is hidden even when it is not in `secrets`.
 * A body with nothing to redact is shared with the input, not copied. A body of
 * LAZY_REDACTION_BYTES or more is redacted when its `body` is first read (the raw bytes are never
 * handed out); bodyExcerpt quotes its beginning without redacting the rest.
 */
export function redactExchange(exchange: Exchange, secrets: readonly string[] | Redactor): Exchange {
	const redactor = Array.isArray(secrets) ? createRedactor(secrets) : (secrets as Redactor);
	const redacted: Exchange = {
		...exchange,
		request: withRedactedBody(
			{
				method: exchange.request.method,
				url: redactor.text(exchange.request.url),
				headers: redactor.headers(exchange.request.headers),
			},
			exchange.request.body,
			redactor,
			false,
		),
		timings: { ...exchange.timings },
	};
	if (exchange.response) {
		redacted.response = withRedactedBody(
			{ status: exchange.response.status, headers: redactor.headers(exchange.response.headers) },
			exchange.response.body,
			redactor,
			false,
		);
	}
	if (exchange.error !== undefined) {
		redacted.error = redactor.text(exchange.error);
	}
	return redacted;
}

/**
 * `part` with a `body` that is `raw` redacted: at once for a short body, on first read for a long
 * one (an enumerable accessor, so spreading, JSON and structured cloning see the redacted bytes).
 * `copy`: the body read is a copy of its own, as copyExchange promises.
 */
function withRedactedBody<P extends object>(
	part: P,
	raw: Uint8Array,
	redactor: Redactor,
	copy: boolean,
): P & { body: Uint8Array } {
	if (raw.length < LAZY_REDACTION_BYTES) {
		const body = redactor.bytes(raw);
		return Object.assign(part, { body: copy ? new Uint8Array(body) : body });
	}
	let body: Uint8Array | undefined;
	pendingBodies.set(part, { raw, redactor });
	Object.defineProperty(part, 'body', {
		enumerable: true,
		configurable: true,
		get: (): Uint8Array => {
			if (body === undefined) {
				const redacted = redactor.bytes(raw);
				body = copy ? new Uint8Array(redacted) : redacted;
				pendingBodies.delete(part);
			}
			return body;
		},
		set: (value: Uint8Array) => {
			body = value;
			pendingBodies.delete(part);
		},
	});
	return part as P & { body: Uint8Array };
}

/**
 * A deep copy of an exchange (bodies included), so its receiver cannot alter the original. (The
 * Uint8Array constructor copies; Buffer's slice() would not.) A body still to be redacted stays so,
 * and is copied when read.
 */
export function copyExchange(exchange: Exchange): Exchange {
	const copyPart = <P extends { body: Uint8Array }>(part: P, rest: Omit<P, 'body'>): P => {
		const pending = pendingBodies.get(part);
		return (
			pending !== undefined
				? withRedactedBody(rest, pending.raw, pending.redactor, true)
				: { ...rest, body: new Uint8Array(part.body) }
		) as P;
	};
	const copy: Exchange = {
		...exchange,
		request: copyPart(exchange.request, {
			method: exchange.request.method,
			url: exchange.request.url,
			headers: { ...exchange.request.headers },
		}),
		timings: { ...exchange.timings },
	};
	if (exchange.response) {
		copy.response = copyPart(exchange.response, {
			status: exchange.response.status,
			headers: { ...exchange.response.headers },
		});
	}
	return copy;
}

/** The beginning of a body as text, for a log (see bodyExcerpt). */
export interface BodyExcerpt {
	/** At most maxChars characters of the body decoded as UTF-8. */
	text: string;
	/** Bytes of the body after `text` (0 when `text` is the whole body). */
	moreBytes: number;
}

/**
 * The first `maxChars` characters of an exchange's request or response body, decoded as UTF-8. A
 * body that redactExchange left to be redacted on first read is not redacted whole: its beginning
 * is redacted alone (Redactor.excerpt, which also masks a secret or credential element that the
 * cut splits). Any other body is quoted as it is.
 */
export function bodyExcerpt(part: { body: Uint8Array }, maxChars: number): BodyExcerpt {
	const pending = pendingBodies.get(part);
	if (pending !== undefined && pending.raw.length > 4 * maxChars) {
		// More than maxChars characters (at most 4 bytes each): the excerpt is always a cut.
		const text = pending.redactor.excerpt(pending.raw, maxChars);
		return { text, moreBytes: Math.max(0, pending.raw.length - Buffer.byteLength(text)) };
	}
	const body = part.body;
	const head = body.subarray(0, 4 * maxChars);
	const decoded = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('utf8');
	if (decoded.length <= maxChars && head.length === body.length) return { text: decoded, moreBytes: 0 };
	const text = decoded.slice(0, maxChars);
	return { text, moreBytes: body.length - Buffer.byteLength(text) };
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
	const long = kept.filter((secret) => secret.length >= MIN_FREE_MATCH_LENGTH);
	// Longest first, so a secret containing another one is replaced whole.
	const forms = [...new Set(long.flatMap((secret) => [...encodedForms(secret), ...echoedForms(secret)]))].sort(
		(a, b) => b.length - a.length,
	);
	// A short secret only where it stands as a whole token (MIN_FREE_MATCH_LENGTH).
	const shortForms = [...new Set(kept.filter((secret) => !long.includes(secret)).flatMap(encodedForms))];
	const shortToken = wholeTokenPattern(shortForms);
	// What a body must contain for any form of any secret to be in it (see anchorsOf).
	const anchors = [...new Set([...kept.flatMap(anchorsOf), ...long.flatMap(echoedForms)])].map((anchor) =>
		Buffer.from(anchor, 'latin1'),
	);
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
		if (shortToken) result = result.replace(shortToken, REDACTED);
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

/** The forms in which a service or a document may echo a secret, as latin1 strings of their UTF-8 bytes. */
function echoedForms(secret: string): string[] {
	return echoedSecretForms(secret).map((variant) => Buffer.from(variant, 'utf8').toString('latin1'));
}

/** The forms in which a secret can appear on the wire, as latin1 strings of its UTF-8 bytes. */
function encodedForms(secret: string): string[] {
	return secretForms(secret).map((variant) => Buffer.from(variant, 'utf8').toString('latin1'));
}

function escapeRegExp(value: string): string {
	return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
