/**
 * A captured HTTP exchange (the exact bytes sent and received) and its redaction, so the traffic log
 * and error reports can show what happened without ever showing a credential.
 */
import type { BindingName } from '../protocol/bindings/types';
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
 */
export function redactExchange(exchange: Exchange, secrets: readonly string[]): Exchange {
	const redactor = createRedactor(secrets);
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

/** Redacts text and bytes; built once per set of secrets. */
export interface Redactor {
	text(value: string): string;
	bytes(value: Uint8Array): Uint8Array;
	headers(value: Record<string, string>): Record<string, string>;
}

/** Header names whose values are credentials by nature. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Builds a redactor for the given secrets (see redactExchange). */
export function createRedactor(secrets: readonly string[]): Redactor {
	// Longest first, so a secret containing another one is replaced whole.
	const forms = [...new Set(secrets.filter((secret) => secret.length > 0).flatMap(encodedForms))].sort(
		(a, b) => b.length - a.length,
	);
	const names = SECRET_FIELD_NAMES.map(escapeRegExp).join('|');
	// <sAPIKey>..</sAPIKey>, also with a prefix (<tns:sPassword>) and attributes.
	const element = new RegExp(`(<((?:[\\w.-]+:)?(?:${names}))(?:\\s[^>]*)?>)([\\s\\S]*?)(</\\2\\s*>)`, 'gi');
	// sAPIKey=... in a query string or a form body.
	const field = new RegExp(`(^|[?&;\\s])(${names})=([^&#\\s]*)`, 'gi');

	// Works on text decoded as latin1, so that every byte maps to one character and back unchanged.
	const redactLatin1 = (value: string): string => {
		let result = value;
		for (const form of forms) {
			result = result.split(form).join(REDACTED);
		}
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

	return {
		text: (value) => fromLatin1(redactLatin1(toLatin1(value))),
		bytes: (value) => {
			const text = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1');
			const redacted = redactLatin1(text);
			return redacted === text ? Uint8Array.from(value) : new Uint8Array(Buffer.from(redacted, 'latin1'));
		},
		headers: (value) => {
			const result: Record<string, string> = {};
			for (const [name, headerValue] of Object.entries(value)) {
				result[name] = SECRET_HEADERS.has(name.toLowerCase())
					? REDACTED
					: fromLatin1(redactLatin1(toLatin1(headerValue)));
			}
			return result;
		},
	};
}

/** The forms in which a secret can appear on the wire, as latin1 strings of its UTF-8 bytes. */
function encodedForms(secret: string): string[] {
	const percent = encodeURIComponent(secret);
	const form = new URLSearchParams({ v: secret }).toString().slice(2);
	const xmlMinimal = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	const xmlFull = xmlMinimal.replace(/"/g, '&quot;').replace(/'/g, '&apos;');
	const xmlNumeric = xmlMinimal.replace(/"/g, '&#34;').replace(/'/g, '&#39;');
	const xmlHex = xmlMinimal.replace(/"/g, '&#x22;').replace(/'/g, '&#x27;');
	const lowerHex = (encoded: string): string => encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
	const variants = [
		secret,
		percent,
		form,
		lowerHex(percent),
		lowerHex(form),
		form.replace(/\+/g, '%20'),
		xmlMinimal,
		xmlFull,
		xmlNumeric,
		xmlHex,
	];
	return variants.map((variant) => Buffer.from(variant, 'utf8').toString('latin1'));
}

function escapeRegExp(value: string): string {
	return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
