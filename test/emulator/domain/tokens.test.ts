import * as assert from 'node:assert/strict';
import { randomToken } from '../../../src/emulator/domain/tokens';

describe('domain: random tokens', () => {
	it('gives base64url tokens of the asked length, all different, across many refills of the pool', () => {
		const seen = new Set<string>();
		// 18-byte tokens: 227 per 4 KiB pool, so 2,000 of them refill it about nine times.
		for (let i = 0; i < 2000; i++) {
			const token = randomToken(18);
			assert.match(token, /^[A-Za-z0-9_-]{24}$/);
			seen.add(token);
		}
		assert.equal(seen.size, 2000);
	});

	it('gives every length its own bytes, including a token that does not fit what is left of the pool', () => {
		const lengths = [24, 18, 1, 100, 24, 4000, 17];
		const tokens = lengths.map((bytes) => randomToken(bytes));
		tokens.forEach((token, i) => assert.equal(Buffer.from(token, 'base64url').length, lengths[i]));
		assert.equal(new Set(tokens).size, tokens.length);
	});
});
