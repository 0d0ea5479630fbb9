/**
 * Errors of the typed client, in the style of undici: one base class with a stable `code` and a
 * subclass per kind of failure, so callers can branch on `code` or `instanceof`.
 */
import type { OperationName } from '../protocol/catalogue';
import type { Fault } from '../protocol/faults';
import type { Exchange } from './exchange';
import type { ValidationIssue } from './validate';

/** Stable codes of the client's errors. */
export type MultipostingErrorCode =
	| 'MP_ERR_FAULT'
	| 'MP_ERR_HTTP_STATUS'
	| 'MP_ERR_UNEXPECTED_RESPONSE'
	| 'MP_ERR_TIMEOUT'
	| 'MP_ERR_ABORTED'
	| 'MP_ERR_NETWORK'
	| 'MP_ERR_VALIDATION'
	| 'MP_ERR_INVALID_ARGUMENT';

export interface MultipostingErrorOptions {
	cause?: unknown;
	/** The (redacted) request and response, when the call got as far as building a request. */
	exchange?: Exchange;
}

/** Base class of every error the client throws. */
export class MultipostingError extends Error {
	override name = 'MultipostingError';
	readonly code: MultipostingErrorCode;
	/** The exchange of the failed call (redacted unless callWithExchange was told otherwise). */
	exchange?: Exchange;

	constructor(code: MultipostingErrorCode, message: string, options: MultipostingErrorOptions = {}) {
		super(message, options.cause === undefined ? undefined : { cause: options.cause });
		this.code = code;
		if (options.exchange) {
			this.exchange = options.exchange;
		}
	}
}

/** The service answered with a SOAP fault (or, for HTTP GET/POST, a text/plain error). */
export class SoapFaultError extends MultipostingError {
	override name = 'SoapFaultError';
	constructor(
		readonly operation: OperationName,
		/** The decoded fault, with known secrets replaced by ***. */
		readonly fault: Fault,
		/** HTTP status of the fault response. */
		readonly status: number,
		options: MultipostingErrorOptions = {},
	) {
		const subcode = fault.subcode ? `/${fault.subcode}` : '';
		const who =
			fault.code === 'Client'
				? 'Check the parameters and credentials of the call.'
				: 'The service failed; retry later or report it to the service operator.';
		super(
			'MP_ERR_FAULT',
			`${operation} failed with a ${fault.code}${subcode} fault (HTTP ${status}): ${fault.message.replace(/\.\s*$/, '')}. ${who}`,
			options,
		);
	}
}

/** The service answered with an HTTP status that is neither a result nor a fault (e.g. 302, 404, 502). */
export class HttpStatusError extends MultipostingError {
	override name = 'HttpStatusError';
	constructor(
		readonly operation: OperationName,
		readonly status: number,
		/** The first characters of the body, as text, with known secrets replaced by ***. */
		readonly bodyExcerpt: string,
		/** Location header of a redirect: the client never follows redirects silently. */
		readonly location?: string,
		options: MultipostingErrorOptions = {},
	) {
		const advice =
			location !== undefined
				? `The service redirects to ${location}; redirects are not followed: check the base URL and endpoint paths (http vs https, host, path).`
				: status === 404
					? 'Check the base URL, the endpoint paths and the binding.'
					: status >= 500
						? 'The service or a proxy in front of it failed; retry later.'
						: 'Check the base URL, the binding and the credentials.';
		super('MP_ERR_HTTP_STATUS', `${operation} got HTTP ${status} instead of a result. ${advice}`, options);
	}
}

/** Why a response could not be read. ProtocolError reasons of the bindings pass through unchanged. */
export type UnexpectedResponseReason =
	| 'CONTENT_TYPE'
	| 'NOT_XML'
	| 'HTML_PAGE'
	| 'EMPTY_BODY'
	| 'TRUNCATED'
	| 'TOO_LARGE'
	| 'UNEXPECTED_ROOT'
	| 'INVALID_VALUE'
	| (string & {});

/** The service answered with bytes that are not the expected message. */
export class UnexpectedResponseError extends MultipostingError {
	override name = 'UnexpectedResponseError';
	constructor(
		readonly operation: OperationName,
		readonly reason: UnexpectedResponseReason,
		detail: string,
		/** The offending bytes as received (up to the size limit), with known secrets replaced by ***. */
		readonly responseBody: Uint8Array,
		/** HTTP status, when the headers arrived. */
		readonly status: number | undefined,
		options: MultipostingErrorOptions = {},
	) {
		super(
			'MP_ERR_UNEXPECTED_RESPONSE',
			`${operation} got an unexpected response (${reason}): ${detail}. Check that the base URL points at the multiposting service and that the binding is supported there; the exchange shows the bytes received.`,
			options,
		);
	}
}

/** The call did not complete within its time budget. */
export class TimeoutError extends MultipostingError {
	override name = 'TimeoutError';
	constructor(
		readonly operation: OperationName,
		readonly timeoutMs: number,
		options: MultipostingErrorOptions = {},
	) {
		super(
			'MP_ERR_TIMEOUT',
			`${operation} did not complete within ${timeoutMs} ms. Retry, or raise timeoutMs if the service is slow.`,
			options,
		);
	}
}

/** The caller aborted the call through its AbortSignal. */
export class AbortedError extends MultipostingError {
	override name = 'AbortedError';
	constructor(
		readonly operation: OperationName,
		options: MultipostingErrorOptions = {},
	) {
		super('MP_ERR_ABORTED', `${operation} was aborted by the caller.`, options);
	}
}

/** The service could not be reached or the connection failed before a response arrived. */
export class NetworkError extends MultipostingError {
	override name = 'NetworkError';
	constructor(
		readonly operation: OperationName,
		origin: string,
		cause: unknown,
		options: MultipostingErrorOptions = {},
	) {
		super(
			'MP_ERR_NETWORK',
			`${operation} could not reach ${origin} (${describeCause(cause)}). Check the base URL, the network and that the service is running.`,
			{
				...options,
				cause,
			},
		);
	}
}

/** A rule of the spec failed before anything was sent. */
export class ValidationError extends MultipostingError {
	override name = 'ValidationError';
	/** The first failing parameter. */
	readonly param: string;
	constructor(
		readonly operation: OperationName,
		readonly issues: readonly ValidationIssue[],
	) {
		const first = issues[0];
		const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
		super(
			'MP_ERR_VALIDATION',
			`${operation} was not sent: ${first?.message ?? 'invalid parameters'}${more} Fix ${first?.param ?? 'the parameters'} and call again.`,
		);
		this.param = first?.param ?? '';
	}
}

/** The client was constructed or called with an argument it cannot use. */
export class InvalidArgumentError extends MultipostingError {
	override name = 'InvalidArgumentError';
	constructor(message: string) {
		super('MP_ERR_INVALID_ARGUMENT', message);
	}
}

function describeCause(cause: unknown): string {
	if (cause instanceof Error) {
		const code = (cause as { code?: unknown }).code;
		return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
	}
	return String(cause);
}
