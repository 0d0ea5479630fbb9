import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { NAMESPACE_FROM_BASE_URL } from '../../../src/emulator/endpoint';
import { startEmulator } from '../../../src/emulator';
import { targetOfConnection } from '../../../src/extension/playground/connection';
import { documentToForm, formToDocument, newForm } from '../../../src/extension/playground/documents';
import { PlaygroundHistory } from '../../../src/extension/playground/history';
import { formToDraft, formToParams } from '../../../src/extension/playground/request';
import { PlaygroundRunner } from '../../../src/extension/playground/runner';
import { parseRequestFile, serializeRequestFile } from '../../../src/protocol/requestFile';
import { createTestWorkbench } from '../harness';

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

function runnerOf(wb: ReturnType<typeof createTestWorkbench>): PlaygroundRunner {
	let stored: string | undefined;
	return new PlaygroundRunner(
		wb.services,
		new PlaygroundHistory({ read: async () => stored, write: async (text) => void (stored = text) }),
	);
}

describe('a sandbox endpoint that does not move', function () {
	this.timeout(90_000);

	it('replays a raw request saved against one start against the next start', async function () {
		const port = await freePort();
		// First start: write a raw request file from the playground's form, as "Save" does.
		const first = createTestWorkbench({ 'sandbox.port': port });
		let text: string;
		try {
			await first.sandbox.ensureRunning();
			const form = newForm('GetCurrency');
			const { params } = formToParams('GetCurrency', form.params);
			const target = targetOfConnection(first.services.activeConnection());
			const saved = { ...form, mode: 'raw' as const, raw: formToDraft('GetCurrency', 'soap11', params, target) };
			const sent = await runnerOf(first).send(saved);
			assert.equal(sent.response?.status, 200, sent.response?.bodyText);
			text = serializeRequestFile(formToDocument(saved).document!);
		} finally {
			await first.dispose();
		}
		assert.match(text, /xmlns="http:\/\/sandbox\.multiposting\.test\/"/);
		assert.doesNotMatch(text, new RegExp(String(port)), 'the saved request does not depend on the port');

		// Next start (a new window, the same settings): the same file still works.
		const next = createTestWorkbench({ 'sandbox.port': port });
		try {
			const running = await next.sandbox.ensureRunning();
			assert.equal(running.baseUrl, `http://127.0.0.1:${port}`);
			const replayed = await runnerOf(next).send(documentToForm(parseRequestFile(text)));
			assert.equal(replayed.response?.status, 200, replayed.response?.bodyText);
			assert.equal(replayed.response?.fault, undefined);
			assert.ok(Array.isArray(replayed.response?.result) && replayed.response.result.length > 0);
		} finally {
			await next.dispose();
		}
	});

	it('keeps the spec rule (base URL + "/") available as an option', async function () {
		const emulator = await startEmulator({ port: 0, handlers: {} as never, namespace: NAMESPACE_FROM_BASE_URL });
		try {
			assert.equal(emulator.namespace, `${emulator.baseUrl}/`);
		} finally {
			await emulator.stop();
		}
		const fixed = await startEmulator({ port: 0, handlers: {} as never, namespace: 'https://api.example/' });
		try {
			assert.equal(fixed.namespace, 'https://api.example/');
		} finally {
			await fixed.stop();
		}
	});
});
