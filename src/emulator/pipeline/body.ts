/**
 * Step 3 of the pipeline: read the body with a hard cap. Content-Length is checked before any byte
 * is read, and streamed bytes are counted, so an oversized body is refused (413) before parsing.
 */
import type { IncomingMessage } from 'node:http';
import { requestTooLarge } from './errors';

/** The client went away before the body was complete; nobody is left to answer. */
export class ClientAbortedError extends Error {
	override readonly name = 'ClientAbortedError';
}

/** Reads the whole body, or rejects with a 413 HttpError as soon as it is known to exceed `limit`. */
export function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
	const declared = req.headers['content-length'];
	if (declared !== undefined && Number(declared) > limit) {
		return Promise.reject(requestTooLarge(limit));
	}
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let received = 0;
		const cleanup = (): void => {
			req.off('data', onData);
			req.off('end', onEnd);
			req.off('error', onError);
			req.off('close', onClose);
		};
		const onData = (chunk: Buffer): void => {
			received += chunk.length;
			if (received > limit) {
				cleanup();
				// Stop reading; the answer closes the connection.
				req.pause();
				reject(requestTooLarge(limit));
				return;
			}
			chunks.push(chunk);
		};
		const onEnd = (): void => {
			cleanup();
			// A small body usually arrives as one chunk, which node:http hands over as its own copy.
			resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received));
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
