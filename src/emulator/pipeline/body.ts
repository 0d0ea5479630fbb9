/**
 * Step 3 of the pipeline: read the body with a hard cap. Content-Length is checked before any byte
 * is read, and streamed bytes are counted, so an oversized body is refused (413) before parsing.
 * Memory follows the bytes, not the pieces they come in: each piece is copied into one growing
 * buffer (ByteCollector) and let go. A body in a great many tiny pieces (chunked encoding of a byte
 * each) is refused as soon as that shows (400), rather than read at a few hundred bytes of work per
 * byte: IIS would read it within maxRequestLength and executionTimeout, only slowly.
 */
import type { IncomingMessage } from 'node:http';
import { ByteCollector } from '../../protocol/codecs/byteCollector';
import { requestInTooManyPieces, requestTooLarge, type HttpError } from './errors';

/** The client went away before the body was complete; nobody is left to answer. */
export class ClientAbortedError extends Error {
	override readonly name = 'ClientAbortedError';
}

/** Pieces any body may arrive in, whatever their size. */
export const FREE_BODY_PIECES = 1024;
/** Past FREE_BODY_PIECES, the smallest average piece accepted, in bytes. */
export const MIN_AVERAGE_PIECE_BYTES = 8;
/** Room made at once for a declared length; more is made as the bytes come (a declaration costs nothing). */
const LARGEST_FIRST_ROOM = 64 * 1024;

/** Reads the whole body, or rejects with an HttpError (413 too large, 400 too fragmented) as soon as that is known. */
export function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
	const declared = req.headers['content-length'];
	if (declared !== undefined && Number(declared) > limit) {
		return Promise.reject(requestTooLarge(limit));
	}
	return new Promise((resolve, reject) => {
		const body = new ByteCollector(limit, Math.min(Number(declared) || 0, LARGEST_FIRST_ROOM));
		const cleanup = (): void => {
			req.off('data', onData);
			req.off('end', onEnd);
			req.off('error', onError);
			req.off('close', onClose);
		};
		const refuse = (error: HttpError): void => {
			cleanup();
			// Stop reading; the answer closes the connection.
			req.pause();
			reject(error);
		};
		const onData = (chunk: Buffer): void => {
			if (!body.add(chunk)) return refuse(requestTooLarge(limit));
			if (body.pieces > FREE_BODY_PIECES && body.length < body.pieces * MIN_AVERAGE_PIECE_BYTES) {
				refuse(requestInTooManyPieces(body.pieces, body.length, FREE_BODY_PIECES, MIN_AVERAGE_PIECE_BYTES));
			}
		};
		const onEnd = (): void => {
			cleanup();
			resolve(body.bytes());
		};
		const onError = (): void => {
			cleanup();
			reject(new ClientAbortedError('The client aborted the request.'));
		};
		const onClose = (): void => {
			if (!req.complete) onError();
		};
		req.on('data', onData);
		req.on('end', onEnd);
		req.on('error', onError);
		req.on('close', onClose);
	});
}
