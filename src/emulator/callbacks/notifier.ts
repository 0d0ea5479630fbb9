/**
 * Application callbacks: when an application arrives for an advert with sApplicationCallbackURL, the
 * emulator POSTs a JSON notification there. Each call has a short timeout and a bounded number of
 * retries with backoff; it never blocks the emulator, and failures go to the event log. Only http(s)
 * URLs are called (AddAdvert refuses others), never link-local or cloud metadata addresses unless
 * allowed (addressPolicy.ts). node:http/https only: the emulator does not use undici.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ForbiddenCallbackTargetError, forbiddenTarget, guardedLookup } from './addressPolicy';

/** The notification body (Content-Type application/json). Ids only, never personal data. */
export interface ApplicationCallbackPayload {
	event: 'application.created';
	AdvertID: number;
	AdvertCandidateID: number;
	AdvertIdentifier: string | null;
	/** ISO 8601 UTC. */
	ApplicationDate: string;
	FeedID: number;
	/** How to fetch the application: the operation and its parameters (add sAPIKey). */
	fetch: {
		operation: 'GetApplicationsPaged';
		parameters: { sAdvertID: string; AdvertCandidateIDAsCSV: string; CurrentPage: number; RowsPerPage: number };
	};
}

/** What the event log hears about callbacks. `target` is origin + path: query strings may hold secrets. */
export interface CallbackEvent {
	kind: 'callback';
	target: string;
	advertCandidateId: number;
	attempt: number;
	outcome: 'delivered' | 'failed' | 'gave-up' | 'refused';
	status?: number;
	error?: string;
}

export interface CallbackOptions {
	/** Allow link-local and cloud metadata targets (default false: refused, see addressPolicy.ts). */
	allowLinkLocal?: boolean;
	/** Time limit of one attempt (default 5000 ms). */
	timeoutMs?: number;
	/** Waits before the retries; its length + 1 is the number of tries (default [1000, 4000]: 3 tries). */
	retryDelaysMs?: readonly number[];
	onEvent?: (event: CallbackEvent) => void;
}

export const DEFAULT_CALLBACK_TIMEOUT_MS = 5_000;
export const DEFAULT_CALLBACK_RETRY_DELAYS_MS: readonly number[] = [1_000, 4_000];
/** Largest response body read from a receiver; the rest is discarded. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** The notification for a new application. */
export function applicationCreatedPayload(application: {
	advertId: number;
	advertCandidateId: number;
	advertIdentifier: string | null;
	appliedAt: string;
	feedId: number;
}): ApplicationCallbackPayload {
	return {
		event: 'application.created',
		AdvertID: application.advertId,
		AdvertCandidateID: application.advertCandidateId,
		AdvertIdentifier: application.advertIdentifier,
		ApplicationDate: application.appliedAt,
		FeedID: application.feedId,
		fetch: {
			operation: 'GetApplicationsPaged',
			parameters: {
				sAdvertID: String(application.advertId),
				AdvertCandidateIDAsCSV: String(application.advertCandidateId),
				CurrentPage: 1,
				RowsPerPage: 1,
			},
		},
	};
}

/** origin + path of a URL, for logs. */
function logTarget(url: URL): string {
	return `${url.origin}${url.pathname}`;
}

export class CallbackNotifier {
	private readonly timeoutMs: number;
	private readonly retryDelaysMs: readonly number[];
	/** Waiting retries: their timers and how to wake them (stop() wakes them so idle() resolves). */
	private readonly timers = new Map<NodeJS.Timeout, () => void>();
	private readonly requests = new Set<ClientRequest>();
	private readonly pending = new Set<Promise<void>>();
	private stopped = false;

	constructor(private readonly options: CallbackOptions = {}) {
		this.timeoutMs = options.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
		this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_CALLBACK_RETRY_DELAYS_MS;
	}

	/** Sends the notification in the background; returns at once. */
	notify(callbackUrl: string, payload: ApplicationCallbackPayload): void {
		let url: URL;
		try {
			url = new URL(callbackUrl);
		} catch {
			this.emit({
				kind: 'callback',
				target: '(invalid URL)',
				advertCandidateId: payload.AdvertCandidateID,
				attempt: 0,
				outcome: 'refused',
				error: 'not a URL',
			});
			return;
		}
		if (url.protocol !== 'http:' && url.protocol !== 'https:') {
			this.emit({
				kind: 'callback',
				target: url.protocol,
				advertCandidateId: payload.AdvertCandidateID,
				attempt: 0,
				outcome: 'refused',
				error: 'only http and https are called',
			});
			return;
		}
		const forbidden = this.options.allowLinkLocal ? undefined : forbiddenTarget(url);
		if (forbidden) {
			this.emit({
				kind: 'callback',
				target: logTarget(url),
				advertCandidateId: payload.AdvertCandidateID,
				attempt: 0,
				outcome: 'refused',
				error: `${forbidden} (allow with --allow-link-local-callbacks)`,
			});
			return;
		}
		if (this.stopped) return;
		const work = this.deliver(url, payload).finally(() => this.pending.delete(work));
		this.pending.add(work);
	}

	/** Resolves when every notification sent so far has finished (delivered or given up). Tests use it. */
	async idle(): Promise<void> {
		while (this.pending.size > 0) await Promise.all([...this.pending]);
	}

	/** Cancels waiting retries and open requests; later notify() calls do nothing. */
	stop(): void {
		this.stopped = true;
		for (const [timer, wake] of this.timers) {
			clearTimeout(timer);
			wake();
		}
		this.timers.clear();
		for (const request of this.requests) request.destroy(new Error('emulator stopped'));
		this.requests.clear();
	}

	private emit(event: CallbackEvent): void {
		try {
			this.options.onEvent?.(event);
		} catch {
			// A failing logger must not break deliveries.
		}
	}

	private async deliver(url: URL, payload: ApplicationCallbackPayload): Promise<void> {
		const body = Buffer.from(JSON.stringify(payload), 'utf8');
		const tries = this.retryDelaysMs.length + 1;
		for (let attempt = 1; attempt <= tries && !this.stopped; attempt++) {
			const base = {
				kind: 'callback' as const,
				target: logTarget(url),
				advertCandidateId: payload.AdvertCandidateID,
				attempt,
			};
			try {
				const status = await this.post(url, body);
				if (status >= 200 && status < 300) {
					this.emit({ ...base, outcome: 'delivered', status });
					return;
				}
				this.emit({ ...base, outcome: attempt === tries ? 'gave-up' : 'failed', status });
			} catch (error) {
				if (error instanceof ForbiddenCallbackTargetError) {
					this.emit({
						...base,
						outcome: 'refused',
						error: `${error.message} (allow with --allow-link-local-callbacks)`,
					});
					return;
				}
				this.emit({
					...base,
					outcome: attempt === tries ? 'gave-up' : 'failed',
					error: error instanceof Error ? error.message : String(error),
				});
			}
			if (attempt < tries) await this.wait(this.retryDelaysMs[attempt - 1]);
		}
	}

	private wait(ms: number): Promise<void> {
		return new Promise((resolve) => {
			if (this.stopped) return resolve();
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			timer.unref();
			this.timers.set(timer, resolve);
		});
	}

	/** One POST; resolves with the status once the response ended, rejects on network error or timeout. */
	private post(url: URL, body: Buffer): Promise<number> {
		return new Promise((resolve, reject) => {
			const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
			const request = send(url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json; charset=utf-8',
					'content-length': body.length,
					'user-agent': 'MultipostingSandbox/1 (callback)',
				},
				timeout: this.timeoutMs,
				// The address actually connected to is checked too (a name may resolve to a forbidden one).
				lookup: this.options.allowLinkLocal ? undefined : guardedLookup,
			});
			this.requests.add(request);
			// An overall deadline: the socket timeout alone does not bound a trickling response.
			const deadline = setTimeout(
				() => request.destroy(new Error(`timed out after ${this.timeoutMs} ms`)),
				this.timeoutMs,
			);
			deadline.unref();
			const finish = (): void => {
				clearTimeout(deadline);
				this.requests.delete(request);
			};
			request.on('timeout', () => request.destroy(new Error(`timed out after ${this.timeoutMs} ms`)));
			request.on('error', (error) => {
				finish();
				reject(error);
			});
			request.on('response', (response) => {
				let received = 0;
				response.on('data', (chunk: Buffer) => {
					received += chunk.length;
					if (received > MAX_RESPONSE_BYTES) response.destroy();
				});
				response.on('close', () => {
					finish();
					resolve(response.statusCode ?? 0);
				});
				response.on('error', () => undefined);
			});
			request.end(body);
		});
	}
}
