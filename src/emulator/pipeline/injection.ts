/**
 * What an injected failure (scenarios/engine.ts) looks like on the wire: each the way production's
 * stack would send it, so a client meets the real thing. A fault is the binding's own fault encoding;
 * 503 is the page HTTP.sys sends when the service's application pool is down; the connection-level
 * failures act on the socket. The listener marks every one (X-Sandbox-Injected, the access log).
 */
import type { ServerResponse } from 'node:http';
import { getBinding } from '../../protocol/bindings';
import type { BindingName, CodecContext, EncodedResponse } from '../../protocol/bindings/types';
import type { Failure } from '../scenarios/engine';

/** HTTP.sys's own 503 page (IIS, application pool stopped or queue full), byte for byte. */
const HTTP_SYS_503 =
	'<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN""http://www.w3.org/TR/html4/strict.dtd">\r\n' +
	'<HTML><HEAD><TITLE>Service Unavailable</TITLE>\r\n' +
	'<META HTTP-EQUIV="Content-Type" Content="text/html; charset=us-ascii"></HEAD>\r\n' +
	'<BODY><h2>Service Unavailable</h2>\r\n' +
	'<hr><p>HTTP Error 503. The service is unavailable.</p>\r\n' +
	'</BODY></HTML>\r\n';

/** Content types of successful answers per binding: what a garbage answer claims to be. */
const ANSWER_CONTENT_TYPES: Readonly<Record<BindingName, string>> = {
	soap11: 'text/xml; charset=utf-8',
	soap12: 'application/soap+xml; charset=utf-8',
	httpGet: 'text/xml; charset=utf-8',
	httpPost: 'text/xml; charset=utf-8',
};

/** The answer of a failure that is an HTTP response, or what to do to the connection instead. */
export function failureAnswer(
	failure: Failure,
	binding: BindingName,
	ctx: CodecContext,
): EncodedResponse | 'reset' | 'empty' | 'truncated' {
	switch (failure.kind) {
		case 'fault':
			return getBinding(binding).encodeFault(failure.fault, ctx);
		case 'unavailable': {
			const headers: Record<string, string> = { 'content-type': 'text/html; charset=us-ascii' };
			if (failure.retryAfterSeconds !== undefined) headers['retry-after'] = String(failure.retryAfterSeconds);
			return { status: 503, headers, body: new TextEncoder().encode(HTTP_SYS_503) };
		}
		case 'garbage':
			return { status: 200, headers: { 'content-type': ANSWER_CONTENT_TYPES[binding] }, body: failure.bytes };
		case 'reset':
		case 'empty':
		case 'truncated':
			return failure.kind;
	}
}

/** Drops the connection: a TCP reset, or a clean close without a byte of answer. */
export function dropConnection(res: ServerResponse, how: 'reset' | 'empty'): void {
	const socket = res.socket;
	if (!socket) return;
	if (how === 'reset') socket.resetAndDestroy();
	else socket.end();
}

/** Writes the first half of the body (the headers promise all of it), then closes the connection. */
export function truncatingWriter(res: ServerResponse, body: Uint8Array): void {
	const half = body.subarray(0, Math.floor(body.byteLength / 2));
	res.write(half, () => res.socket?.destroy());
}

/** Writes the body in `chunks` pieces with `delayMs` between them; stops if the client goes away. */
export function chunkedWriter(chunks: number, delayMs: number): (res: ServerResponse, body: Uint8Array) => void {
	return (res, body) => {
		const size = Math.ceil(body.byteLength / chunks) || 1;
		let offset = 0;
		const next = (): void => {
			if (res.destroyed) return;
			const end = Math.min(body.byteLength, offset + size);
			const piece = body.subarray(offset, end);
			offset = end;
			if (offset >= body.byteLength) {
				res.end(piece);
				return;
			}
			res.write(piece);
			setTimeout(next, delayMs);
		};
		next();
	};
}

/** Waits `ms`, or less if the response closes before (the time budget answered, or the client left). */
export function injectedDelay(ms: number, res: ServerResponse): Promise<void> {
	return new Promise((resolve) => {
		if (ms <= 0 || res.destroyed) return resolve();
		const finish = (): void => {
			clearTimeout(timer);
			res.off('close', finish);
			resolve();
		};
		const timer = setTimeout(finish, ms);
		res.once('close', finish);
	});
}
