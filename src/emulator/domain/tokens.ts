/**
 * Unguessable tokens (an advert's completion link, a login link) from the system's CSPRNG, drawn from
 * a 4 KiB pool refilled when spent: one call into the random source per couple of hundred tokens
 * instead of one per token (it was 3 % of an AddAdvert's time). Node's randomUUID pools the same way.
 * Every byte is used once.
 */
import { randomBytes, randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** `bytes` random bytes as base64url (no padding). */
export function randomToken(bytes: number): string {
	if (bytes > POOL_BYTES / 4) return randomBytes(bytes).toString('base64url');
	if (used + bytes > POOL_BYTES) {
		randomFillSync(pool);
		used = 0;
	}
	const token = pool.toString('base64url', used, used + bytes);
	used += bytes;
	return token;
}
