/** Secrets that must be looked up but never stored in clear (API keys, login tokens). */
import { hash } from 'node:crypto';

/** sha256 of a secret, as stored and looked up. */
export function hashSecret(secret: string): string {
	// The one-shot hash() is a third of createHash().update().digest(), and runs on every authenticated request.
	return hash('sha256', secret, 'hex');
}
