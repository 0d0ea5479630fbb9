/**
 * The one HTTP transport of the project: sends a prepared request as it is, with a deadline, a byte
 * cap on the response body and a dispatcher, and reports what happened without throwing. The typed
 * client turns the outcome into typed errors; the playground shows it as it is.
 */
import { Writable } from 'node:stream';
import { stream, type Dispatcher } from 'undici';
import { ByteCollector } from '../protocol/codecs/byteCollector';

/** A Writable high-water mark no body reaches (the byte cap stops a body long before). */
const NEVER_FULL = 2 ** 31 - 1;

/** A request ready to go: nothing is added to it but what undici adds (host, content-length, connection). */
export interface OutgoingRequest {
	method: string;
	url: string;
	headers: Readonly<Record<string, string>> | readonly (readonly [string, string])[];
	/** Not sent with GET or HEAD. */
	body: Uint8Array;
}

/** How one request is sent. */
export interface TransportOptions {
	/** Deadline of the whole exchange, from sending to the last byte of the body. */
	timeoutMs: number;
	/** The caller's cancellation. */
	signal?: AbortSignal;
	/** Largest body kept; a longer body is cut there and reported as `too-large`. */
	maxBodyBytes: number;
	/** Connection pool; default undici's global dispatcher. */
	dispatcher?: Dispatcher;
}

/** Why an exchange did not complete. */
export type TransportFailure =
	/** The deadline passed (before or after the headers). */
	| { kind: 'timeout'; cause?: unknown }
	/** The caller's signal aborted the exchange. */
	| { kind: 'aborted'; reason: unknown }
	/** No response headers arrived (refused, reset, DNS, TLS, connect timeout). */
	| { kind: 'network'; cause: unknown }
	/** The headers arrived but the body failed part-way; `response.body` holds what came. */
	| { kind: 'body'; cause: unknown }
	/** The body is longer than maxBodyBytes; `response.body` holds its first maxBodyBytes bytes. */
	| { kind: 'too-large'; cause?: unknown };

/** What one exchange produced. */
export interface TransportResult {
	/** Present once the response headers arrived. */
	response?: {
		status: number;
		/** Names in lower case; repeated headers joined with ', '. */
		headers: Record<string, string>;
		body: Uint8Array;
	};
	/** Epoch milliseconds when the request was sent. */
	startedAt: number;
	/** Milliseconds until the response headers arrived. */
	headersMs?: number;
	totalMs: number;
	failure?: TransportFailure;
}

/** Sends `outgoing` and reads its response within the deadline and the byte cap; never throws. */
export async function sendRequest(outgoing: OutgoingRequest, options: TransportOptions): Promise<TransportResult> {
	const startedAt = Date.now();
	const started = performance.now();
	const result: TransportResult = { startedAt, totalMs: 0 };
	const { signal, timeoutMs, maxBodyBytes } = options;
	if (signal?.aborted) {
		result.failure = { kind: 'aborted', reason: signal.reason };
		return result;
	}
	// The caller's signal is relayed through a controller of this call rather than handed to
	// AbortSignal.any: in Node 20 a long-lived signal given to AbortSignal.any keeps every combined
	// signal alive (nodejs/node#55351), which a client making thousands of calls would feel.
	const caller = new AbortController();
	const relay = (): void => caller.abort(signal?.reason);
	signal?.addEventListener('abort', relay, { once: true });
	const deadline = AbortSignal.timeout(timeoutMs);
	const combined = AbortSignal.any([caller.signal, deadline]);
	const failure = (error: unknown, otherwise: TransportFailure): TransportFailure => {
		const code = (error as { code?: unknown } | undefined)?.code;
		if (deadline.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
			return { kind: 'timeout', cause: error };
		}
		if (caller.signal.aborted) return { kind: 'aborted', reason: signal?.reason };
		if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return { kind: 'too-large', cause: error };
		return otherwise;
	};
	let collected: ByteCollector | undefined;
	let cut = false;
	try {
		const method = outgoing.method.toUpperCase();
		try {
			// undici's stream() hands each chunk of the body to a Writable as it arrives: no Readable
			// buffering and no promise per chunk, as iterating request()'s body would cost.
			await stream(
				outgoing.url,
				{
					method: outgoing.method as Dispatcher.HttpMethod,
					headers: Array.isArray(outgoing.headers)
						? (outgoing.headers as readonly (readonly [string, string])[]).flat()
						: (outgoing.headers as Record<string, string>),
					body:
						method === 'GET' || method === 'HEAD'
							? undefined
							: Buffer.from(outgoing.body.buffer, outgoing.body.byteOffset, outgoing.body.byteLength),
					signal: combined,
					dispatcher: options.dispatcher,
					headersTimeout: timeoutMs,
					bodyTimeout: timeoutMs,
				},
				({ statusCode, headers }) => {
					result.headersMs = performance.now() - started;
					result.response = { status: statusCode, headers: flattenHeaders(headers), body: new Uint8Array(0) };
					const declared = Number(headers['content-length']);
					// Each chunk is copied into one growing buffer of its own (never a view of socket reads that
					// hold other bytes, such as the headers), so memory follows the bytes and not the chunks.
					const body = new ByteCollector(maxBodyBytes, Number.isSafeInteger(declared) ? declared : 0);
					collected = body;
					return new Writable({
						// The chunks are taken at once, so the writer never asks undici to wait for a drain.
						highWaterMark: NEVER_FULL,
						write(chunk: Buffer, _encoding, callback) {
							const room = body.room;
							if (chunk.length > room) {
								if (room > 0) body.add(chunk.subarray(0, room));
								cut = true;
								callback(new Error(`the body is longer than ${maxBodyBytes} bytes`));
								return;
							}
							body.add(chunk);
							callback();
						},
					});
				},
			);
		} catch (error) {
			result.failure = cut
				? { kind: 'too-large' }
				: failure(error, result.response ? { kind: 'body', cause: error } : { kind: 'network', cause: error });
		}
		if (result.response && collected) result.response.body = collected.bytes();
		return result;
	} finally {
		signal?.removeEventListener('abort', relay);
		result.totalMs = performance.now() - started;
	}
}

/** Header names in lower case, repeated values joined with ', '. */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
	}
	return flat;
}
