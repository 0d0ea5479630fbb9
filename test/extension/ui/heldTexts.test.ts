import * as assert from 'node:assert/strict';
import { HeldTexts } from '../../../src/extension/ui/heldTexts';

describe('held texts of read-only documents', function () {
	it('serves a text until it is forgotten (its document closed)', function () {
		const held = new HeldTexts();
		held.put('a', 'first');
		held.put('b', 'second');
		assert.equal(held.get('a'), 'first');
		held.forget('a');
		assert.equal(held.get('a'), undefined);
		assert.equal(held.get('b'), 'second');
		assert.deepEqual(held.held, { texts: 1, chars: 'second'.length });
		held.forget('a');
		assert.deepEqual(held.held, { texts: 1, chars: 'second'.length }, 'forgetting twice changes nothing');
	});

	it('forgets the oldest texts beyond its count', function () {
		const held = new HeldTexts({ texts: 3, chars: 1000 });
		for (const key of ['1', '2', '3', '4', '5']) held.put(key, `text ${key}`);
		assert.deepEqual(
			['1', '2', '3', '4', '5'].map((key) => held.get(key)),
			[undefined, undefined, 'text 3', 'text 4', 'text 5'],
		);
		assert.equal(held.held.texts, 3);
	});

	it('forgets the oldest texts beyond its characters, and keeps the newest however long', function () {
		const held = new HeldTexts({ texts: 10, chars: 10 });
		held.put('a', 'aaaa');
		held.put('b', 'bbbb');
		assert.deepEqual(held.held, { texts: 2, chars: 8 });
		held.put('c', 'cccc');
		assert.equal(held.get('a'), undefined);
		assert.deepEqual(held.held, { texts: 2, chars: 8 });
		held.put('long', 'x'.repeat(50));
		assert.deepEqual(held.held, { texts: 1, chars: 50 });
		assert.equal(held.get('long')?.length, 50);
	});

	it('replaces the text of a key it holds, counting only the new one', function () {
		const held = new HeldTexts({ texts: 2, chars: 100 });
		held.put('a', 'old text');
		held.put('a', 'new');
		held.put('b', 'other');
		assert.equal(held.get('a'), 'new');
		assert.deepEqual(held.held, { texts: 2, chars: 'new'.length + 'other'.length });
	});
});
