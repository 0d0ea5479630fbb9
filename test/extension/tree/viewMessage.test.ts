import * as assert from 'node:assert/strict';
import { viewMessage } from '../../../src/extension/tree/viewMessage';

describe('account view message', function () {
	it('says the sandbox is starting, and what the filter hides, and nothing otherwise', function () {
		assert.equal(viewMessage('running', undefined), '');
		assert.equal(viewMessage(undefined, undefined), '');
		assert.match(
			viewMessage('starting', undefined),
			/^Starting the sandbox… The first start creates its demo data/,
		);
		assert.equal(
			viewMessage('running', 'Filtered: Suitable'),
			"Filtered: Suitable. Clear Filter (in the view's toolbar) shows everything.",
		);
		assert.match(viewMessage('starting', 'Filtered: Suitable'), /^Starting the sandbox….* Filtered: Suitable\./);
	});

	it('says the sandbox is stopping or resetting while it does', function () {
		assert.equal(viewMessage('stopping', undefined), 'Stopping the sandbox…');
		assert.match(viewMessage('resetting', undefined), /^Resetting the sandbox: it stops and starts again/);
	});
});
