/**
 * Sends an HTTP request exactly as prepared (a raw playground request, a request of a request
 * file) and captures what came back, unredacted. Never throws: failures end up in `error`.
 */
import { request, type Dispatcher } from 'undici';
import type { PreparedHttpRequest } from '../protocol/requestFiles/prepare';

/** What came back from one exchange, unredacted. */
export interface Captured {
	request: PreparedHttpRequest;
	response?: { status: number; headers: [string, string][]; body: Uint8Array };
	timings: { startedAt: number; headersMs?: number; totalMs: number };
	error?: string;
}

export interface SendOptions {
	signal?: AbortSignal;
	timeoutMs: number;
	dispatcher?: Dispatcher;
	/** Largest body kept; the rest is cut off (default 32 MiB). */
	maxBodyBytes?: number;
}

/** Sends the request exactly as prepared; never throws: failures end up in `error`. */
export async function sendPrepared(prepared: PreparedHttpRequest, options: SendOptions): Promise<Captured> {
	const startedAt = Date.now();
	const started = performance.now();
	const captured: Captured = { request: prepared, timings: { startedAt, totalMs: 0 } };
	const controller = new AbortController();
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		controller.abort(new Error(`timed out after ${options.timeoutMs} ms`));
	}, options.timeoutMs);
	const onAbort = (): void => controller.abort(new Error('cancelled'));
	if (options.signal?.aborted) onAbort();
	options.signal?.addEventListener('abort', onAbort, { once: true });
	const limit = options.maxBodyBytes ?? 32 * 1024 * 1024;
	try {
		const response = await request(prepared.url, {
			method: prepared.method as Dispatcher.HttpMethod,
			headers: prepared.headers.flat(),
			body:
				prepared.method.toUpperCase() === 'GET' || prepared.method.toUpperCase() === 'HEAD'
					? undefined
					: Buffer.from(prepared.body),
			signal: controller.signal,
			dispatcher: options.dispatcher,
		});
		captured.timings.headersMs = performance.now() - started;
		const headers: [string, string][] = [];
		for (const [name, value] of Object.entries(response.headers)) {
			if (value !== undefined) headers.push([name, Array.isArray(value) ? value.join(', ') : value]);
		}
		captured.response = { status: response.statusCode, headers, body: new Uint8Array(0) };
		const chunks: Buffer[] = [];
		let received = 0;
		try {
			for await (const chunk of response.body as AsyncIterable<Buffer>) {
				const room = limit - received;
				chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
				received += chunk.length;
				if (received >= limit) {
					response.body.destroy();
					captured.error = `The body was cut off after ${limit} bytes.`;
					break;
				}
			}
		} finally {
			captured.response.body = new Uint8Array(Buffer.concat(chunks));
		}
	} catch (error) {
		captured.error = timedOut
			? `Timed out after ${options.timeoutMs} ms.`
			: options.signal?.aborted
				? 'Cancelled.'
				: `The request failed: ${error instanceof Error ? error.message : String(error)}`;
	} finally {
		clearTimeout(timer);
		options.signal?.removeEventListener('abort', onAbort);
		captured.timings.totalMs = performance.now() - started;
	}
	return captured;
}
