import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { createMessenger, embeddedMessages } from '../../src/webview/common/messenger';
import { hasType } from '../../src/shared/webviewProtocol';

function fakeApi<State>() {
	const posted: unknown[] = [];
	let state: State | undefined;
	return {
		posted,
		api: {
			postMessage: (message: unknown) => posted.push(message),
			getState: () => state,
			setState: <T extends State | undefined>(next: T) => {
				state = next;
				return next;
			},
		},
	};
}

describe('webview messenger (the page end of every panel)', function () {
	it('numbers every message it posts', function () {
		const dom = new JSDOM('');
		const { api, posted } = fakeApi<{ n: number }>();
		const messenger = createMessenger<{ type: 'x' }, { type: 'ready' } | { type: 'go' }, { n: number }>(
			api,
			dom.window as unknown as Window,
		);
		assert.equal(messenger.post({ type: 'ready' }), 1);
		assert.equal(messenger.post({ type: 'go' }), 2);
		assert.deepEqual(posted, [
			{ type: 'ready', requestId: 1 },
			{ type: 'go', requestId: 2 },
		]);
	});

	it('keeps state through getState/setState', function () {
		const dom = new JSDOM('');
		const { api } = fakeApi<{ n: number }>();
		const messenger = createMessenger<{ type: 'x' }, { type: 'ready' }, { n: number }>(
			api,
			dom.window as unknown as Window,
		);
		assert.equal(messenger.state(), undefined);
		messenger.saveState({ n: 3 });
		assert.deepEqual(messenger.state(), { n: 3 });
	});

	it('passes on host messages with their request id and drops anything without a type', async function () {
		const dom = new JSDOM('');
		const { api } = fakeApi<unknown>();
		const messenger = createMessenger<{ type: string }, { type: 'ready' }, unknown>(
			api,
			dom.window as unknown as Window,
			hasType,
		);
		const received: unknown[] = [];
		messenger.onMessage((message) => received.push(message));
		for (const data of [{ type: 'a', requestId: 4 }, 'text', null, { kind: 'b' }, { type: 'c', requestId: -1 }]) {
			dom.window.dispatchEvent(new dom.window.MessageEvent('message', { data }));
		}
		assert.deepEqual(received, [
			{ type: 'a', requestId: 4 },
			{ type: 'c', requestId: -1 },
		]);
	});

	it('reads the first messages the host wrote into the page, only those with a type', function () {
		const page = (block: string) => new JSDOM(`<body><div id="root"></div>${block}</body>`).window.document;
		const block = (json: string) => `<script type="application/json" id="mp-initial">${json}</script>`;
		assert.deepEqual(embeddedMessages(page(block('[{"type":"mode","preview":true},3,null,{"kind":"x"}]'))), [
			{ type: 'mode', preview: true },
		]);
		assert.deepEqual(embeddedMessages(page('')), []);
		assert.deepEqual(embeddedMessages(page(block('{"type":"mode"}'))), [], 'not a list');
		assert.deepEqual(embeddedMessages(page(block('[{"type":'))), [], 'not JSON');
	});
});
