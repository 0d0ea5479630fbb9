/**
 * How the emulator turns failures into HTTP answers. The spec shows no status codes or fault shapes
 * (spec "Errors"); the emulator follows the ASP.NET ASMX service behind production, except where an
 * ASMX answer would be unhelpful to a client developer (noted below). Choices:
 *
 * - Caller errors (bad parameters, bad credentials, missing filters, unknown operation, a SOAP body in
 *   another namespace, a SOAPAction naming another operation): HTTP 500 with a soap:Client fault
 *   (SOAP 1.1) or env:Sender (SOAP 1.2). ASMX answers 500 for every fault, on SOAP 1.2 too, although
 *   SOAP 1.2 recommends 400 for Sender faults; the emulator copies ASMX so clients meet the real codes.
 * - Internal failures (anything a handler throws that is not a FaultError): HTTP 500 with soap:Server
 *   / env:Receiver and the fixed text 'Server was unable to process request.'. The real error goes to
 *   the access logger only; no stack trace or message is ever sent.
 * - HTTP GET and POST: the same faults as HTTP 500 text/plain short messages, written by the binding's
 *   encodeFault (ASMX writes a plain-text exception message there).
 * - Malformed XML, a DOCTYPE (no entity expansion, ever) or nesting deeper than 100 elements: HTTP 400
 *   with a Client fault body (ASMX answers 500 'Server was unable to read request'; 400 is used so the
 *   cause is visible at the HTTP level, and the body stays a parseable fault).
 * - A body larger than maxRequestBytes: HTTP 413, decided from Content-Length before reading when
 *   present, otherwise while counting streamed bytes; the connection is closed afterwards.
 * - A body in more than 1,024 pieces averaging under 8 bytes (chunked encoding of a byte or so per
 *   chunk): HTTP 400 with a Client fault as soon as that shows, and the connection closed. IIS reads
 *   such a body within maxRequestLength and executionTimeout, at a cost per piece; no client sends one.
 * - Wrong Content-Type for the binding: HTTP 415 text/plain. Wrong method: HTTP 405 with Allow.
 *   Unknown path: HTTP 404 text/plain.
 * - The per-request time budget (requestTimeoutMs) running out, e.g. a body trickling in: HTTP 500
 *   Server fault 'Timeout' in the binding's format; the connection is closed.
 */
import { FaultError, type Fault, type FaultSubcode } from '../../protocol/faults';

/** A failure with a fixed HTTP status; `fault` is written in the binding's format when there is one. */
export class HttpError extends Error {
	override readonly name = 'HttpError';
	constructor(
		readonly status: number,
		readonly fault: Fault,
		/** Extra response headers, e.g. Allow for 405. */
		readonly headers: Record<string, string> = {},
		/** Answer in text/plain even when a binding is known (405, 415, 404). */
		readonly plainText = false,
		/** Close the connection after answering (body not read to its end). */
		readonly closeConnection = false,
	) {
		super(fault.message);
	}
}

function clientFault(subcode: FaultSubcode, message: string): Fault {
	return { code: 'Client', subcode, message };
}

/** 400: the XML cannot be read safely. */
export function malformedRequest(message: string): HttpError {
	return new HttpError(400, clientFault('MalformedRequest', message));
}

/** 413: the body is larger than the limit. */
export function requestTooLarge(limit: number): HttpError {
	return new HttpError(
		413,
		clientFault('RequestTooLarge', `Request body exceeds the limit of ${limit} bytes.`),
		{},
		false,
		true,
	);
}

/** 400: the body arrives in more pieces than its bytes justify (see body.ts); the connection is closed. */
export function requestInTooManyPieces(
	pieces: number,
	bytes: number,
	freePieces: number,
	minAverage: number,
): HttpError {
	return new HttpError(
		400,
		clientFault(
			'MalformedRequest',
			`The request body arrived in ${pieces} pieces for ${bytes} bytes (more than ${freePieces} pieces averaging ` +
				`under ${minAverage} bytes); send it with a Content-Length or in larger chunks.`,
		),
		{},
		false,
		true,
	);
}

/** 415: the Content-Type does not fit the binding addressed. */
export function unsupportedMediaType(expected: string, got: string | undefined): HttpError {
	const message = `Unsupported Content-Type ${got ? `'${got}'` : '(none)'}; expected ${expected}.`;
	return new HttpError(415, clientFault('MalformedRequest', message), {}, true);
}

/** 405 with the Allow header. */
export function methodNotAllowed(method: string, allow: readonly string[]): HttpError {
	return new HttpError(
		405,
		clientFault('MalformedRequest', `Method ${method} is not allowed here.`),
		{ Allow: allow.join(', ') },
		true,
	);
}

/** 404: no endpoint or page at this path. */
export function notFound(path: string): HttpError {
	return new HttpError(404, clientFault('NotFound', `Nothing is served at ${path}.`), {}, true);
}

/** The operation is not offered by this endpoint. */
export function unknownOperation(operation: string, endpointPath: string): FaultError {
	return FaultError.client('UnknownOperation', `Unknown operation ${operation} on ${endpointPath}.`);
}

/** The request ran out of its time budget. */
export function timeout(): HttpError {
	return new HttpError(500, { code: 'Server', subcode: 'Timeout', message: 'Timeout' }, {}, false, true);
}

/** The fault sent for an internal failure: fixed text, never the error itself. */
export const INTERNAL_FAULT: Fault = Object.freeze({
	code: 'Server',
	subcode: 'InternalError',
	message: 'Server was unable to process request.',
});

/** What to answer for a thrown value, and whether it is an internal failure to log. */
export interface ClassifiedError {
	status?: number;
	fault: Fault;
	headers: Record<string, string>;
	plainText: boolean;
	closeConnection: boolean;
	internal: boolean;
}

/** Sorts any thrown value into caller error, fixed-status error or internal failure. */
export function classifyError(error: unknown): ClassifiedError {
	if (error instanceof HttpError) {
		return {
			status: error.status,
			fault: error.fault,
			headers: error.headers,
			plainText: error.plainText,
			closeConnection: error.closeConnection,
			internal: false,
		};
	}
	if (error instanceof FaultError) {
		return {
			fault: error.fault,
			headers: {},
			plainText: false,
			closeConnection: false,
			internal: error.fault.code === 'Server',
		};
	}
	return { fault: INTERNAL_FAULT, headers: {}, plainText: false, closeConnection: false, internal: true };
}
