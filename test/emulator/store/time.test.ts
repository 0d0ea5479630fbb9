import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { toStoredDate } from '../../../src/emulator/store/time';
import { hashSecret } from '../../../src/emulator/store/secrets';

describe('emulator store: stored dates and secret digests', () => {
	it('stores a time as ISO 8601 UTC to the second, for every millisecond value and for years outside 0000–9999', () => {
		assert.equal(toStoredDate(new Date('2026-11-02T10:15:00.000Z')), '2026-11-02T10:15:00Z');
		assert.equal(toStoredDate(new Date('2026-11-02T10:15:59.999Z')), '2026-11-02T10:15:59Z');
		assert.equal(toStoredDate(new Date(Date.UTC(10000, 0, 1))), '+010000-01-01T00:00:00Z');
		assert.equal(toStoredDate(new Date(Date.UTC(-1, 0, 1))), '-000001-01-01T00:00:00Z');
	});

	it('digests a secret exactly as SHA-256 of its UTF-8 bytes, in hex (stored keys stay valid)', () => {
		for (const secret of ['', 'sandbox-key', 'clé-ünïcødé-🔑', 'x'.repeat(10_000)]) {
			assert.equal(hashSecret(secret), createHash('sha256').update(Buffer.from(secret, 'utf8')).digest('hex'));
		}
	});
});
