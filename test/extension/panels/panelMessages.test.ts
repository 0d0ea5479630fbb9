import * as assert from 'node:assert/strict';
import { isAdvertToHostMessage, isApplicationToHostMessage, isOpenableUrl } from '../../../src/shared/panelMessages';
import { describeMessage } from '../../../src/shared/webviewProtocol';

describe('panel message validation', function () {
	it('accepts the application webview messages of the contract', function () {
		for (const message of [
			{ type: 'ready' },
			{ type: 'action', action: 'score' },
			{ type: 'openDocument', tab: 'emailBody' },
			{ type: 'showMore', tab: 'email', part: 2, offset: 204800 },
			{ type: 'save', tab: 'attachment' },
			{ type: 'openLink', url: 'https://example.com/' },
			{ type: 'copy', field: 'advertCandidateId' },
		]) {
			assert.equal(isApplicationToHostMessage(message), true, JSON.stringify(message));
		}
	});

	it('rejects malformed, unknown or out-of-range messages', function () {
		for (const message of [
			null,
			'ready',
			[],
			{},
			{ type: 'eval', code: '1' },
			{ type: 'action', action: 'delete' },
			{ type: 'openDocument', tab: 'overview' },
			{ type: 'showMore', tab: 'email', offset: -1 },
			{ type: 'showMore', tab: 'email', offset: 1.5 },
			{ type: 'save', tab: 'parsed', part: '1' },
			{ type: 'openLink', url: '' },
			{ type: 'openLink', url: 'x'.repeat(10_000) },
			{ type: 'copy', field: 'password' },
		]) {
			assert.equal(isApplicationToHostMessage(message), false, JSON.stringify(message));
		}
		assert.equal(isAdvertToHostMessage({ type: 'expressPost' }), true);
		assert.equal(isAdvertToHostMessage({ type: 'copy', field: 'advertReference' }), true);
		assert.equal(isAdvertToHostMessage({ type: 'openDocument', tab: 'email' }), false);
		assert.equal(isAdvertToHostMessage({ type: 'copy', field: 'apiKey' }), false);
	});

	it('describes rejected messages by type only', function () {
		assert.equal(describeMessage({ type: 'steal', secret: 'sandbox-password' }), 'type "steal"');
		assert.equal(describeMessage(42), 'number');
	});

	it('opens only http, https and mailto URLs', function () {
		assert.equal(isOpenableUrl('https://jobs.example/a'), true);
		assert.equal(isOpenableUrl('mailto:a@example.com'), true);
		for (const url of [
			'javascript:alert(1)',
			'file:///etc/passwd',
			'command:workbench.action.terminal.new',
			'vscode://x',
			'data:text/html,x',
			'not a url',
		]) {
			assert.equal(isOpenableUrl(url), false, url);
		}
	});
});
