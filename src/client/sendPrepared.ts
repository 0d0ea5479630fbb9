/**
 * Sends an HTTP request exactly as prepared (a raw playground request, a request of a request file)
 * through the one transport (transport.ts) and captures what came back, unredacted. Never throws:
 * failures end up in `error`.
 */
import type { Dispatcher } from 'undici';
import type { PreparedHttpRequest } from '../protocol/requestFiles/prepare';
import { sendRequest } from './transport';

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

/** Sends the request exactly as prepared (the client's transport); never throws: failures end up in `error`. */
export async function sendPrepared(prepared: PreparedHttpRequest, options: SendOptions): Promise<Captured> {
	const limit = options.maxBodyBytes ?? 32 * 1024 * 1024;
	const sent = await sendRequest(prepared, {
		timeoutMs: options.timeoutMs,
		signal: options.signal,
		maxBodyBytes: limit,
		dispatcher: options.dispatcher,
	});
	const captured: Captured = {
		request: prepared,
		timings: { startedAt: sent.startedAt, totalMs: sent.totalMs },
	};
	if (sent.headersMs !== undefined) captured.timings.headersMs = sent.headersMs;
	if (sent.response) {
		captured.response = {
			status: sent.response.status,
			headers: Object.entries(sent.response.headers),
			body: sent.response.body,
		};
	}
	const failure = sent.failure;
	const into = sent.response ? `, ${sent.response.body.length} bytes into the body` : '';
	const cause = (error: unknown): string => (error instanceof Error ? error.message : String(error));
	if (failure?.kind === 'timeout') captured.error = `Timed out after ${options.timeoutMs} ms${into}.`;
	else if (failure?.kind === 'aborted') captured.error = 'Cancelled.';
	else if (failure?.kind === 'too-large') captured.error = `The body was cut off after ${limit} bytes.`;
	else if (failure?.kind === 'body') captured.error = `The response broke off${into}: ${cause(failure.cause)}`;
	else if (failure) captured.error = `The request failed: ${cause(failure.cause)}`;
	return captured;
}
