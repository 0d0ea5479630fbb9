import * as assert from 'node:assert/strict';
import { OpenGesture } from '../../../src/extension/commands/openGesture';
import { decideOpen, type PanelSlot } from '../../../src/extension/panels/previewModel';

const slot = (kind: PanelSlot['kind'], key: number, preview: boolean): PanelSlot => ({ kind, key, preview });

describe('preview panels (the rules of preview editors)', function () {
	it('creates one preview, then reuses it for the next item of its kind', function () {
		assert.deepEqual(decideOpen([], 'application', 1, true), { action: 'create', preview: true });
		const preview = slot('application', 1, true);
		assert.deepEqual(decideOpen([preview], 'application', 2, true), { action: 'retarget', panel: preview });
		// An advert does not take over the application's preview.
		assert.deepEqual(decideOpen([preview], 'advert', 2, true), { action: 'create', preview: true });
	});

	it('reveals an item already open, and pins its preview when opened to stay (double-click)', function () {
		const preview = slot('application', 1, true);
		assert.deepEqual(decideOpen([preview], 'application', 1, true), {
			action: 'reveal',
			panel: preview,
			pin: false,
		});
		assert.deepEqual(decideOpen([preview], 'application', 1, false), {
			action: 'reveal',
			panel: preview,
			pin: true,
		});
	});

	it('leaves pinned panels alone: the next preview gets a panel of its own', function () {
		const pinned = slot('application', 1, false);
		assert.deepEqual(decideOpen([pinned], 'application', 2, true), { action: 'create', preview: true });
		assert.deepEqual(decideOpen([pinned], 'application', 1, true), { action: 'reveal', panel: pinned, pin: false });
		// A pinned panel of the item wins over a preview showing it too.
		const preview = slot('application', 1, true);
		assert.deepEqual(decideOpen([preview, pinned], 'application', 1, true), {
			action: 'reveal',
			panel: pinned,
			pin: false,
		});
		assert.deepEqual(decideOpen([pinned], 'application', 2, false), { action: 'create', preview: false });
	});

	it('tells a double-click (the same row twice at once) from two clicks', function () {
		let now = 1000;
		const gesture = new OpenGesture(500, () => now);
		assert.equal(gesture.isRepeat('app:1'), false);
		now += 200;
		assert.equal(gesture.isRepeat('app:1'), true, 'the second run of a double-click');
		now += 100;
		assert.equal(gesture.isRepeat('app:1'), false, 'a third quick run starts over');
		now += 100;
		assert.equal(gesture.isRepeat('app:2'), false, 'another row');
		now += 900;
		assert.equal(gesture.isRepeat('app:2'), false, 'too slow for a double-click');
	});
});
