/** Password hashing with scrypt (node:crypto). Only hashes are stored; the format carries its parameters. */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** scrypt cost N (2^14), the default of node:crypto. */
export const DEFAULT_PASSWORD_COST = 16384;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$salt$hash` (base64). The salt may be given for reproducible demo data. */
export function hashPassword(password: string, salt: Uint8Array = randomBytes(16), cost = DEFAULT_PASSWORD_COST): string {
	const hash = scryptSync(password, salt, KEY_LENGTH, { N: cost, r: BLOCK_SIZE, p: PARALLELISM });
	return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, Buffer.from(salt).toString('base64'), hash.toString('base64')].join('$');
}

/** Constant-time check of a password against a stored hash; false for any malformed hash. */
export function verifyPassword(password: string, stored: string): boolean {
	const [scheme, n, r, p, salt, hash] = stored.split('$');
	if (scheme !== 'scrypt' || !salt || !hash) return false;
	const expected = Buffer.from(hash, 'base64');
	const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
	return actual.length === expected.length && timingSafeEqual(actual, expected);
}
