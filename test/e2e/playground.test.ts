// End-to-end tests of the request playground in a real VS Code (code-server) against the built-in
// sandbox, in the shared window of test/e2e/session.ts; run by npm run test:e2e. They check the
// workbench layout (request and response side by side, stacked when narrow), the real read-only
// editors (XML language, folding, cursor on an error), the diff editor, the menus that reach the
// playground and the saved file's CodeLens.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { QUICK_INPUT, QUICK_INPUT_BOX, runCommand, screenshot } from './harness';
import { e2eSession } from './session';
import { chooseMenuItem, notification, row, showSandboxTree, expand, firstUserRow, sleep } from './ui';

const UI_TIMEOUT_MS = 30_000;
/** The first exchange of a session also starts (and on first use seeds) the sandbox. */
const SEND_TIMEOUT_MS = 180_000;

/** The playground's webview document (VS Code nests it in two iframes). */
function playgroundFrame(page: Page): FrameLocator {
	return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

/** Clicks Send and waits until the host reports the exchange as done. */
async function sendAndWait(frame: FrameLocator): Promise<void> {
	await frame.locator('#send').click();
	// setBusy(true) runs synchronously on click; the button comes back with the host's 'done'.
	await frame.locator('#send:not([disabled])').waitFor({ timeout: SEND_TIMEOUT_MS });
}

/** Chooses an item of the playground's "More actions" menu. */
async function moreAction(frame: FrameLocator, id: string): Promise<void> {
	await frame.locator('#more').click();
	await frame.locator(`#more-${id}`).click();
}

/** The editor tab whose label contains `text`. */
function editorTab(page: Page, text: string): Locator {
	return page.locator('.tabs-container .tab', { hasText: text });
}

/** The status bar item showing the cursor position ("Ln 1, Col 353"). */
async function cursorPosition(page: Page): Promise<string> {
	const item = page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first();
	await item.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	return ((await item.textContent()) ?? '').trim();
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

	afterEach(async function () {
		await page.setViewportSize({ width: 1400, height: 900 });
	});

	/** Opens the playground on GetCurrency in form mode and returns its document once the form is there. */
	async function openPlayground(): Promise<FrameLocator> {
		await runCommand(page, 'Multiposting: Open Request Playground');
		const frame = playgroundFrame(page);
		await frame.locator('#operation').waitFor({ timeout: UI_TIMEOUT_MS });
		await frame.locator('#operation').selectOption('GetCurrency');
		await frame.locator('label[for="mode-form"]').click();
		await frame.locator('#param-sCultureID').waitFor({ timeout: UI_TIMEOUT_MS });
		return frame;
	}

	it('lays out request and response side by side, and stacks them when the editor is narrow', async function () {
		const frame = await openPlayground();
		await frame.locator('label[for="binding-soap11"]').click();
		// Ctrl+Enter sends from inside the form.
		await frame.locator('#param-sCultureID').click();
		await page.keyboard.press('Control+Enter');
		await frame.locator('#status-line').waitFor({ timeout: SEND_TIMEOUT_MS });
		await frame.locator('#send:not([disabled])').waitFor({ timeout: UI_TIMEOUT_MS });
		assert.match((await frame.locator('#send').textContent()) ?? '', /Send\s*Ctrl\+Enter/);
		// One row of actions: operation, bindings and Send/Cancel/More on one line.
		const bar = await frame.locator('.pg-requestbar').boundingBox();
		const send = await frame.locator('#send').boundingBox();
		assert.ok(bar && send && bar.height < send.height * 2.2, `the request bar wraps: ${JSON.stringify(bar)}`);
		const request = await frame.locator('.pg-request-pane').boundingBox();
		const response = await frame.locator('.pg-response-pane').boundingBox();
		assert.ok(request && response, 'both panes are on screen');
		assert.ok(response.x >= request.x + request.width - 1, 'the response is beside the request');
		assert.ok(Math.abs(response.y - request.y) < 5, 'the panes start at the same height');
		const status = await frame.locator('#status-line').boundingBox();
		assert.ok(status && status.y + status.height < 900, 'the response status is above the fold');
		await screenshot(page, 'playground-layout-wide');

		await page.setViewportSize({ width: 900, height: 900 });
		await sleep(500);
		const requestNarrow = await frame.locator('.pg-request-pane').boundingBox();
		const responseNarrow = await frame.locator('.pg-response-pane').boundingBox();
		assert.ok(requestNarrow && responseNarrow);
		assert.ok(responseNarrow.y >= requestNarrow.y + requestNarrow.height - 1, 'the response is under the request');
		await screenshot(page, 'playground-layout-narrow');
	});

	it('sends GetCurrency in each binding through the UI, the result numbered from 1', async function () {
		const frame = await openPlayground();
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
			assert.match(status ?? '', /^HTTP 200 · (text\/xml|application\/soap\+xml) ·/, `${label}: ${status}`);
			const rows = frame.locator('.pg-result-table tbody tr[data-row]');
			assert.ok((await rows.count()) > 0, `${label}: no result rows`);
			assert.equal(await rows.first().locator('td').first().textContent(), '1');
			const preview = (await frame.locator('#preview').textContent()) ?? '';
			assert.ok(!preview.includes('sandbox-api-key'), `${label}: the preview shows the key`);
			assert.ok(preview.includes('***'), `${label}: the preview does not mask the key`);
			await screenshot(page, `playground-getcurrency-${binding}`);
		}
	});

	it('shows an HTTP GET error as HTTP 500 text/plain with the text, not as a SOAP fault', async function () {
		const frame = await openPlayground();
		await frame.locator('label[for="binding-httpGet"]').click();
		await frame.locator('#param-sAPIKey').fill('not-the-key');
		await frame.locator('#preview', { hasText: 'sAPIKey=' }).waitFor({ timeout: UI_TIMEOUT_MS });
		await sendAndWait(frame);
		const error = frame.locator('#http-error');
		await error.waitFor({ timeout: UI_TIMEOUT_MS });
		const text = (await error.textContent()) ?? '';
		assert.match(text, /^HTTP 500 error answer \(text\/plain/);
		assert.match(text, /Whose mistake/);
		assert.equal(await frame.locator('#fault').count(), 0, 'shown as a SOAP fault');
		assert.match((await frame.locator('#status-line').textContent()) ?? '', /^HTTP 500 · text\/plain/);
		await screenshot(page, 'playground-http-get-error');
	});

	it('opens the response in a real XML editor, and the sent request at the error the fault names', async function () {
		const frame = await openPlayground();
		await frame.locator('label[for="binding-soap11"]').click();
		await sendAndWait(frame);
		await frame.locator('#open-response').click();
		await editorTab(page, 'GetCurrency response (SOAP 1.1).xml').waitFor({ timeout: UI_TIMEOUT_MS });
		await page.locator('.statusbar-item', { hasText: /^XML$/ }).first().waitFor({ timeout: UI_TIMEOUT_MS });
		// XML tokens are coloured by the language, and elements fold.
		await page.locator('.monaco-editor .view-line span[class*="mtk"]').first().waitFor({ timeout: UI_TIMEOUT_MS });
		// Folding ranges are computed after the document opens: wait for the controls (drawn, though
		// shown on hover) rather than counting them at once.
		await page
			.locator(
				'.monaco-editor .margin .codicon-folding-expanded, .monaco-editor .margin .codicon-folding-collapsed, .monaco-editor .margin .cldr',
			)
			.first()
			.waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
		await screenshot(page, 'playground-response-editor');

		// A malformed raw request: the fault names a line and column, the sent request opens there.
		await page.locator('.tabs-container .tab', { hasText: 'Request Playground' }).click();
		await frame.locator('label[for="mode-raw"]').click();
		const body = frame.locator('#raw-body');
		await body.waitFor({ timeout: UI_TIMEOUT_MS });
		const started = Date.now();
		let text = await body.inputValue();
		while (!text.includes('{{connection.apiKey}}') && Date.now() - started < UI_TIMEOUT_MS) {
			await sleep(200);
			text = await body.inputValue();
		}
		assert.match(text, /<sAPIKey>\{\{connection\.apiKey\}\}<\/sAPIKey>/);
		await body.fill(text.replace(/<\/soap:Body>\s*<\/soap:Envelope>\s*$/, '').replace('</GetCurrency>', ''));
		await sendAndWait(frame);
		await frame.locator('#fault').waitFor({ timeout: UI_TIMEOUT_MS });
		const fault = (await frame.locator('#fault').textContent()) ?? '';
		assert.match(fault, /Client/);
		const named = /line (\d+), column (\d+)/.exec(fault);
		assert.ok(named, fault);
		await frame.locator('#pg-response-tab-sent-request').click();
		const sent = (await frame.locator('.mp-tabpanel').textContent()) ?? '';
		assert.ok(!sent.includes('sandbox-api-key'), 'the sent request shows the key');
		await frame.locator('#open-sent-request').click();
		await editorTab(page, 'GetCurrency request (SOAP 1.1).xml').waitFor({ timeout: UI_TIMEOUT_MS });
		// The selection is set just after the editor opens: wait for the status bar to leave Ln 1, Col 1.
		let position = await cursorPosition(page);
		for (const started = Date.now(); /^Ln 1, Col 1\b/.test(position) && Date.now() - started < UI_TIMEOUT_MS; ) {
			await sleep(200);
			position = await cursorPosition(page);
		}
		const [, line, column] = /^Ln (\d+), Col (\d+)/.exec(position) ?? [];
		assert.equal(line, named[1]);
		// The key is shown as ***, so the column moves with it (shorter than the real key by 12).
		assert.equal(Number(column), Number(named[2]) - ('sandbox-api-key'.length - 3), position);
		await screenshot(page, 'playground-request-editor-at-error');
	});

	it('compares the four bindings by payload and opens two of them in the diff editor', async function () {
		const frame = await openPlayground();
		await moreAction(frame, 'compare');
		await frame.locator('#comparison h3').waitFor({ timeout: UI_TIMEOUT_MS });
		await frame.locator('#send:not([disabled])').waitFor({ timeout: UI_TIMEOUT_MS });
		const comparison = (await frame.locator('#comparison').textContent()) ?? '';
		assert.match(comparison, /identical in all bindings/);
		assert.match(comparison, /payloads are identical in all bindings/);
		await frame.locator('#comparison').scrollIntoViewIfNeeded();
		await screenshot(page, 'playground-compare');
		await frame.locator('#diff-right').selectOption({ label: 'HTTP GET' });
		await frame.locator('#open-diff').click();
		await page.locator('.monaco-diff-editor').first().waitFor({ timeout: UI_TIMEOUT_MS });
		await editorTab(page, 'GetCurrency payload (SOAP 1.1)').waitFor({ timeout: UI_TIMEOUT_MS });
		await screenshot(page, 'playground-diff-editor');
	});

	it('is reachable from the view title menu and a connection, and opens for an advert', async function () {
		await showSandboxTree(page);
		await page.locator('.part.sidebar .title-actions .action-label[aria-label*="More Actions"]').first().click();
		await chooseMenuItem(page, 'Open Request Playground', editorTab(page, 'Request Playground'));
		await runCommand(page, 'View: Close All Editors');

		await row(page, 1, /Sandbox/).click({ button: 'right' });
		await chooseMenuItem(page, 'Open Request Playground', editorTab(page, 'Request Playground'));
		await runCommand(page, 'View: Close All Editors');

		await expand(row(page, 2).first());
		await expand(firstUserRow(page));
		const advert = row(page, 4, /\d+ applications/).first();
		await advert.click({ button: 'right' });
		await chooseMenuItem(page, 'Open in Playground', editorTab(page, 'Request Playground'));
		const frame = playgroundFrame(page);
		await frame.locator('#param-sAdvertID').waitFor({ timeout: UI_TIMEOUT_MS });
		assert.equal(await frame.locator('#operation').inputValue(), 'GetApplicationsPaged');
		assert.match(await frame.locator('#param-sAdvertID').inputValue(), /^\d+$/);
		await sendAndWait(frame);
		assert.match((await frame.locator('#status-line').textContent()) ?? '', /^HTTP 200/);
		assert.equal(
			await frame.locator('.pg-result-table tbody tr[data-row]').first().locator('td').first().textContent(),
			'1',
		);
		// The table fits the pane: no horizontal scrolling.
		const fits = await frame
			.locator('.pg-result-table')
			.evaluate((table) => table.scrollWidth <= table.parentElement!.clientWidth + 1);
		assert.ok(fits, 'the result table is wider than its pane');
		await screenshot(page, 'playground-open-for-advert');
	});

	it('copies as curl without asking, with the secrets as environment variables, and says so', async function () {
		const frame = await openPlayground();
		await moreAction(frame, 'copy-curl');
		await notification(page, /Copied as curl: the API key and password are \$MP_API_KEY and \$MP_PASSWORD/);
		assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'a modal question was asked');
		await screenshot(page, 'playground-copy-curl');
	});

	it('saves the request to a file and sends it from the editor', async function () {
		const frame = await openPlayground();
		await frame.locator('label[for="binding-soap12"]').click();
		await moreAction(frame, 'save');
		// code-server's save dialog is a quick input holding the suggested path: accept it.
		await page.locator(QUICK_INPUT_BOX).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		// The dialog shows the folder first and completes the suggested name a moment later.
		const shown = Date.now();
		let suggested = await page.locator(QUICK_INPUT_BOX).inputValue();
		while (!suggested.endsWith('GetCurrency.mpreq') && Date.now() - shown < UI_TIMEOUT_MS) {
			await sleep(200);
			suggested = await page.locator(QUICK_INPUT_BOX).inputValue();
		}
		assert.match(suggested, /GetCurrency\.mpreq$/);
		const file = path.join(workspaceDir, 'GetCurrency.mpreq');
		fs.rmSync(file, { force: true });
		await page.keyboard.press('Enter');
		await page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
		const started = Date.now();
		while (!fs.existsSync(file) && Date.now() - started < UI_TIMEOUT_MS) {
			await sleep(200);
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
