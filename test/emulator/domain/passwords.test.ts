import * as assert from 'node:assert/strict';
import { hashPassword, verifyPassword } from '../../../src/emulator/domain/passwords';

/** A low scrypt cost keeps the tests quick; the format is the same. */
const COST = 1024;

describe('emulator/domain/passwords', () => {
	it('accepts the right password, also when verified again (remembered)', () => {
		const stored = hashPassword('correct horse', undefined, COST);
		assert.equal(verifyPassword('correct horse', stored), true);
		assert.equal(verifyPassword('correct horse', stored), true);
	});

	it('refuses a wrong password after the right one was remembered', () => {
		const stored = hashPassword('first secret', undefined, COST);
		assert.equal(verifyPassword('first secret', stored), true);
		assert.equal(verifyPassword('first secreT', stored), false);
		assert.equal(verifyPassword('', stored), false);
	});

	it('refuses the old password once the password changed', () => {
		const before = hashPassword('old password', undefined, COST);
		assert.equal(verifyPassword('old password', before), true);
		const after = hashPassword('new password', undefined, COST);
		assert.equal(verifyPassword('old password', after), false);
		assert.equal(verifyPassword('new password', after), true);
	});

	it('refuses malformed stored hashes', () => {
		assert.equal(verifyPassword('x', 'plain-text'), false);
		assert.equal(verifyPassword('x', 'scrypt$1024$8$1$$'), false);
	});

	it('keeps accepting and refusing correctly beyond the cache bound', () => {
		const stored = hashPassword('kept', undefined, COST);
		assert.equal(verifyPassword('kept', stored), true);
		// Enough other successful verifications to push the first one out of the cache.
		for (let i = 0; i < 1100; i++) {
			const other = hashPassword(`user ${i}`, undefined, 16);
			assert.equal(verifyPassword(`user ${i}`, other), true);
		}
		assert.equal(verifyPassword('kept', stored), true);
		assert.equal(verifyPassword('kept!', stored), false);
	});
});
