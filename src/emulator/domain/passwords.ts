/** Password hashing with scrypt (node:crypto). Only hashes are stored; the format carries its parameters. */
import { hash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** scrypt cost N (2^14), the default of node:crypto. */
export const DEFAULT_PASSWORD_COST = 16384;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
/** Successful verifications remembered; the oldest is forgotten first. */
const VERIFIED_CACHE_SIZE = 1024;

/**
 * Digests of (password, stored hash) pairs that verified. scrypt costs about 250 ms a call, and
 * every call with sPassword verifies: remembering successes makes repeated logins cost a hash. The
 * stored hash is part of the key, so a changed password (new hash, new salt) misses and is checked
 * again; failures are never remembered. Only digests are kept, never passwords.
 */
const verified = new Set<string>();

function cacheKey(password: string, stored: string): string {
	// Length-prefixed so that no two (password, stored) pairs share an input. The one-shot hash()
	// costs about a third of createHash().update().digest() on every authenticated request.
	return hash('sha256', `${password.length}:${password}\u0000${stored}`, 'base64');
}

/** `scrypt$N$r$p$salt$hash` (base64). The salt may be given for reproducible demo data. */
export function hashPassword(
	password: string,
	salt: Uint8Array = randomBytes(16),
	cost = DEFAULT_PASSWORD_COST,
): string {
	const hash = scryptSync(password, salt, KEY_LENGTH, { N: cost, r: BLOCK_SIZE, p: PARALLELISM });
	return [
		'scrypt',
		cost,
		BLOCK_SIZE,
		PARALLELISM,
		Buffer.from(salt).toString('base64'),
		hash.toString('base64'),
	].join('$');
}

/** The scrypt cost N a stored hash was made with (DEFAULT_PASSWORD_COST when it cannot be read). */
export function hashCost(stored: string): number {
	const cost = Number(stored.split('$')[1]);
	return Number.isSafeInteger(cost) && cost > 0 ? cost : DEFAULT_PASSWORD_COST;
}

/** True when this password was verified against this hash before (remembered, no hashing). */
export function isKnownGood(password: string, stored: string): boolean {
	return verified.has(cacheKey(password, stored));
}

/** Constant-time check of a password against a stored hash; false for any malformed hash. */
export function verifyPassword(password: string, stored: string): boolean {
	const key = cacheKey(password, stored);
	if (verified.has(key)) return true;
	const [scheme, n, r, p, salt, hash] = stored.split('$');
	if (scheme !== 'scrypt' || !salt || !hash) return false;
	const expected = Buffer.from(hash, 'base64');
	const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length, {
		N: Number(n),
		r: Number(r),
		p: Number(p),
	});
	const ok = actual.length === expected.length && timingSafeEqual(actual, expected);
	if (ok) {
		if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.values().next().value as string);
		verified.add(key);
	}
	return ok;
}
