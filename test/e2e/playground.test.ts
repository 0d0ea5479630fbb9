// End-to-end test of the request playground in a real VS Code (code-server) against the built-in
// sandbox, in the shared window of test/e2e/session.ts; run by npm run test:e2e.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { QUICK_INPUT, QUICK_INPUT_BOX, runCommand, screenshot } from './harness';
import { e2eSession } from './session';

const UI_TIMEOUT_MS = 30_000;

/** The playground's webview document (VS Code nests it in two iframes). */
function playgroundFrame(page: Page): FrameLocator {
	return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

/** Clicks Send and waits until the host reports the exchange as done. */
async function sendAndWait(frame: FrameLocator): Promise<void> {
	await frame.locator('#send').click();
	// setBusy(true) runs synchronously on click; the button comes back with the host's 'done'.
	await frame.locator('#send:not([disabled])').waitFor({ timeout: UI_TIMEOUT_MS });
}

describe('request playground in real VS Code', function () {
	this.timeout(300_000);

	let page: Page;
	let workspaceDir: string;

	before(async function () {
		this.timeout(180_000);
		const session = await e2eSession();
		page = session.page;
		workspaceDir = session.server.workspaceDir;
	});

	/** Opens the playground and returns its document once the form is there. */
	async function openPlayground(): Promise<FrameLocator> {
		await runCommand(page, 'Multiposting: Open Request Playground');
		const frame = playgroundFrame(page);
		await frame.locator('#operation').waitFor({ timeout: UI_TIMEOUT_MS });
		return frame;
	}

	it('sends GetCurrency in each binding through the UI', async function () {
		const frame = await openPlayground();
		assert.equal(await frame.locator('#operation').inputValue(), 'GetCurrency');
		// The credential field holds a placeholder, never the key.
		assert.equal(await frame.locator('#param-sAPIKey').inputValue(), '{{connection.apiKey}}');

		for (const [binding, label, method] of [
			['soap11', 'SOAP 1.1', 'POST'],
			['soap12', 'SOAP 1.2', 'POST'],
			['httpGet', 'HTTP GET', 'GET'],
			['httpPost', 'HTTP POST', 'POST'],
		] as const) {
			await frame.locator(`label[for="binding-${binding}"]`).click();
			await frame.locator('#preview', { hasText: `${method} ` }).waitFor({ timeout: UI_TIMEOUT_MS });
			await sendAndWait(frame);
			const status = await frame.locator('#status-line').textContent();
			assert.match(status ?? '', /^HTTP 200/, `${label}: ${status}`);
			await frame.locator('#pg-response-tab-result').click();
			const rows = await frame.locator('.pg-result-table tbody tr').count();
			assert.ok(rows > 0, `${label}: no result rows`);
			const preview = (await frame.locator('#preview').textContent()) ?? '';
			assert.ok(!preview.includes('sandbox-api-key'), `${label}: the preview shows the key`);
			assert.ok(preview.includes('***'), `${label}: the preview does not mask the key`);
			await screenshot(page, `playground-getcurrency-${binding}`);
		}
	});

	it('sends a deliberately malformed raw request and shows the fault', async function () {
		const frame = await openPlayground();
		await frame.locator('label[for="binding-soap11"]').click();
		await frame.locator('label[for="mode-raw"]').click();
		const body = frame.locator('#raw-body');
		await body.waitFor({ timeout: UI_TIMEOUT_MS });
		// The host fills the raw editor from the form's request (placeholders kept).
		const started = Date.now();
		let text = await body.inputValue();
		while (!text.includes('{{connection.apiKey}}') && Date.now() - started < UI_TIMEOUT_MS) {
			await new Promise((resolve) => setTimeout(resolve, 200));
			text = await body.inputValue();
		}
		assert.match(text, /<sAPIKey>\{\{connection\.apiKey\}\}<\/sAPIKey>/);
		// Cut the envelope's closing tags: not well-formed any more.
		await body.fill(text.replace(/<\/soap:Body>\s*<\/soap:Envelope>\s*$/, '').replace('</GetCurrency>', ''));
		await sendAndWait(frame);
		await frame.locator('#fault').waitFor({ timeout: UI_TIMEOUT_MS });
		const fault = (await frame.locator('#fault').textContent()) ?? '';
		assert.match(fault, /Client/);
		assert.match((await frame.locator('#status-line').textContent()) ?? '', /^HTTP [45]\d\d/);
		await frame.locator('#pg-response-tab-sent-request').click();
		const sent = (await frame.locator('.mp-tabpanel').textContent()) ?? '';
		assert.ok(!sent.includes('sandbox-api-key'), 'the sent request shows the key');
		await screenshot(page, 'playground-raw-fault');
	});

	it('compares the four bindings', async function () {
		const frame = await openPlayground();
		await frame.locator('label[for="mode-form"]').click();
		await frame.locator('#param-sCultureID').waitFor({ timeout: UI_TIMEOUT_MS });
		await frame.locator('#compare').click();
		await frame.locator('#comparison h2').waitFor({ timeout: UI_TIMEOUT_MS });
		await frame.locator('#compare:not([disabled])').waitFor({ timeout: UI_TIMEOUT_MS });
		const comparison = (await frame.locator('#comparison').textContent()) ?? '';
		assert.match(comparison, /identical in all bindings/);
		await frame.locator('#comparison').scrollIntoViewIfNeeded();
		await screenshot(page, 'playground-compare');
	});

	it('saves the request to a file and sends it from the editor', async function () {
		const frame = await openPlayground();
		await frame.locator('label[for="binding-soap12"]').click();
		await frame.locator('#save').click();
		// code-server's save dialog is a quick input holding the suggested path: accept it.
		await page.locator(QUICK_INPUT_BOX).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		// The dialog shows the folder first and completes the suggested name a moment later.
		const shown = Date.now();
		let suggested = await page.locator(QUICK_INPUT_BOX).inputValue();
		while (!suggested.endsWith('GetCurrency.mpreq') && Date.now() - shown < UI_TIMEOUT_MS) {
			await new Promise((resolve) => setTimeout(resolve, 200));
			suggested = await page.locator(QUICK_INPUT_BOX).inputValue();
		}
		assert.match(suggested, /GetCurrency\.mpreq$/);
		await page.keyboard.press('Enter');
		await page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
		const file = path.join(workspaceDir, 'GetCurrency.mpreq');
		const started = Date.now();
		while (!fs.existsSync(file) && Date.now() - started < UI_TIMEOUT_MS) {
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
		const saved = fs.readFileSync(file, 'utf8');
		assert.match(saved, /^# Multiposting request\noperation: GetCurrency\nbinding: soap12\nendpoint: posting\n/);
		assert.match(saved, /param\.sAPIKey: \{\{connection\.apiKey\}\}/);
		assert.ok(!saved.includes('sandbox-api-key'), 'the saved file holds the key');

		// The file opens beside the playground, with its CodeLens.
		const send = page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Send' }).first();
		await send.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await screenshot(page, 'playground-saved-file');
		await send.click();
		const toast = page.locator('.notifications-toasts .notification-list-item-message', {
			hasText: 'GetCurrency (soap12): HTTP 200',
		});
		await toast.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await screenshot(page, 'playground-sent-from-editor');
	});
});
