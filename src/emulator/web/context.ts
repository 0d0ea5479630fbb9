/** What the web pages need from the running emulator. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DeliveryScheduler } from '../delivery/scheduler';
import type { QuotaStates } from '../domain/quota';
import type { EmulatorClock } from '../delivery/clock';
import { readBody } from '../pipeline/body';
import { HttpError } from '../pipeline/errors';
import type { Store } from '../store/store';

export interface WebContext {
	store: Store;
	clock: EmulatorClock;
	scheduler: DeliveryScheduler;
	/** Random per emulator process; signs CSRF tokens. */
	secret: Buffer;
	/** Wall-clock time for login links (GetLoginURL stamps them with the request time). */
	wallNow(): Date;
	/** The scenario rule (`<scenario>/<rule>`) that makes every login link expired, when one is on. */
	loginLinkExpired?(): string | undefined;
	/** Quota states held by failure scenarios: the page shows and checks quota as the operations do. */
	quotaStates?: QuotaStates;
}

/** The CSRF token of a form, bound to what the form acts on (e.g. the completion token). */
export function csrfToken(secret: Buffer, purpose: string): string {
	return createHmac('sha256', secret).update(purpose, 'utf8').digest('base64url');
}

/** Constant-time check of a submitted CSRF token. */
export function isValidCsrf(secret: Buffer, purpose: string, submitted: string | null): boolean {
	if (!submitted) return false;
	const expected = Buffer.from(csrfToken(secret, purpose));
	const actual = Buffer.from(submitted);
	return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Largest form body accepted by the web pages. */
export const MAX_FORM_BYTES = 64 * 1024;

/**
 * Reads an application/x-www-form-urlencoded body with the pipeline's body reader (its cap and its
 * rule on tiny pieces); undefined when too large, too fragmented or of another type.
 */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
	if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) return undefined;
	try {
		const body = await readBody(req, MAX_FORM_BYTES);
		return new URLSearchParams(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
	} catch (error) {
		if (error instanceof HttpError) return undefined;
		throw error;
	}
}
