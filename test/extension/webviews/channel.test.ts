import * as assert from 'node:assert/strict';
import { WebviewChannel, type ChannelOptions } from '../../../src/extension/webviews/channel';

type In = { type: 'ready' } | { type: 'ask'; what: string } | { type: 'boom' } | { type: 'slow' };
type Out =
	| { type: 'init' }
	| { type: 'answer'; text: string }
	| { type: 'note'; text: string }
	| { type: 'oops'; text: string };

function parse(value: unknown): In | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const message = value as Record<string, unknown>;
	if (message.type === 'ready' || message.type === 'boom' || message.type === 'slow') return { type: message.type };
	if (message.type === 'ask' && typeof message.what === 'string') return { type: 'ask', what: message.what };
	return undefined;
}

function setup(overrides: Partial<ChannelOptions<In, Out>> = {}) {
	const delivered: unknown[] = [];
	const warnings: string[] = [];
	const errors: string[] = [];
	const channel = new WebviewChannel<In, Out>({
		name: 'test.panel',
		parse,
		handle: async (message, reply) => {
			if (message.type === 'ready') {
				reply({ type: 'init' });
				await Promise.resolve();
				return;
			}
			if (message.type === 'ask') reply({ type: 'answer', text: message.what.toUpperCase() });
			if (message.type === 'boom') throw new Error('it broke');
		},
		failure: (text) => [{ type: 'oops', text }],
		deliver: (message) => delivered.push(message),
		log: { warn: (m) => warnings.push(m), error: (m) => errors.push(m) },
		...overrides,
	});
	return { channel, delivered, warnings, errors };
}

describe('webview channel (the host end of every panel)', function () {
	it('holds posts until the page is ready, answers ready first, then delivers what waited', async function () {
		const { channel, delivered } = setup();
		channel.post({ type: 'note', text: 'early' });
		assert.deepEqual(delivered, []);
		await channel.receive({ type: 'ready', requestId: 1 });
		assert.deepEqual(delivered, [
			{ type: 'init', requestId: 1 },
			{ type: 'note', text: 'early' },
		]);
		channel.post({ type: 'note', text: 'live' });
		assert.deepEqual(delivered.at(-1), { type: 'note', text: 'live' });
	});

	it('puts the request id of the message on its replies, and none on unsolicited posts', async function () {
		const { channel, delivered } = setup();
		await channel.receive({ type: 'ready' });
		await channel.receive({ type: 'ask', what: 'abc', requestId: 42 });
		assert.deepEqual(delivered, [{ type: 'init' }, { type: 'answer', text: 'ABC', requestId: 42 }]);
	});

	it('ignores a request id that is not a safe non-negative integer', async function () {
		const { channel, delivered } = setup();
		await channel.receive({ type: 'ready' });
		for (const requestId of [-1, 1.5, '7', Number.MAX_SAFE_INTEGER + 2]) {
			await channel.receive({ type: 'ask', what: 'x', requestId });
		}
		assert.deepEqual(delivered.slice(1), Array(4).fill({ type: 'answer', text: 'X' }));
	});

	it('drops messages that are not ours and logs only their type', async function () {
		const { channel, delivered, warnings } = setup();
		await channel.receive({ type: 'ready' });
		await channel.receive({ type: 'steal', secret: 'sandbox-password' });
		await channel.receive({ type: 'ask', what: 42 });
		await channel.receive('ready');
		assert.deepEqual(delivered, [{ type: 'init' }]);
		assert.equal(warnings.length, 3);
		assert.ok(warnings.every((line) => !line.includes('sandbox-password')));
		assert.match(warnings[0], /test\.panel: ignored an unexpected webview message \(type "steal"\)/);
	});

	it('answers a failing handler with the panel failure messages, under the request id', async function () {
		const { channel, delivered, errors } = setup();
		await channel.receive({ type: 'ready' });
		await channel.receive({ type: 'boom', requestId: 3 });
		assert.deepEqual(delivered.at(-1), { type: 'oops', text: 'it broke', requestId: 3 });
		assert.deepEqual(errors, ['test.panel: boom failed: it broke']);
	});

	it('queues again once the page is gone, and delivers after the next ready', async function () {
		const { channel, delivered } = setup();
		await channel.receive({ type: 'ready' });
		channel.pageGone();
		assert.equal(channel.isLive, false);
		channel.post({ type: 'note', text: 'while hidden' });
		assert.deepEqual(delivered, [{ type: 'init' }]);
		await channel.receive({ type: 'ready' });
		assert.deepEqual(delivered, [{ type: 'init' }, { type: 'init' }, { type: 'note', text: 'while hidden' }]);
	});

	it('keeps only the newest messages while the page is away', async function () {
		const { channel, delivered } = setup({ maxQueued: 2 });
		for (const text of ['a', 'b', 'c']) channel.post({ type: 'note', text });
		await channel.receive({ type: 'ready' });
		assert.deepEqual(delivered, [{ type: 'init' }, { type: 'note', text: 'b' }, { type: 'note', text: 'c' }]);
	});

	it('a reply that arrives after the page was hidden waits for the page to come back', async function () {
		const { channel, delivered } = setup({
			handle: async (message, reply) => {
				if (message.type === 'slow') {
					await new Promise<void>((resolve) => setTimeout(resolve, 5));
					reply({ type: 'answer', text: 'late' });
				}
			},
		});
		await channel.receive({ type: 'ready' });
		const slow = channel.receive({ type: 'slow', requestId: 9 });
		channel.pageGone();
		await slow;
		assert.deepEqual(delivered, []);
		await channel.receive({ type: 'ready' });
		assert.deepEqual(delivered, [{ type: 'answer', text: 'late', requestId: 9 }]);
	});

	it('delivers nothing after dispose', async function () {
		const { channel, delivered } = setup();
		await channel.receive({ type: 'ready' });
		channel.dispose();
		channel.post({ type: 'note', text: 'gone' });
		await channel.receive({ type: 'ask', what: 'x' });
		assert.deepEqual(delivered, [{ type: 'init' }]);
	});
});
