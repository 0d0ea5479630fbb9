// End-to-end in a real VS Code (code-server + chromium): opens the application panel on an
// application whose seeded email body is hostile and proves that no script ran and nothing remote
// was requested; then opens the CV, the attachment and the advert panel. Needs the packaged
// extension: node esbuild.mjs && npx vsce package --no-dependencies --allow-missing-repository
// --skip-license --no-rewrite-relative-links -o out/panels-e2e.vsix (PANELS_VSIX overrides the path).

import * as assert from 'node:assert/strict';
import type { Frame, Page, Request } from 'playwright-core';
import { startEmulator } from '../../src/emulator';
import { QUICK_INPUT_BOX, QUICK_INPUT_ROW, screenshot } from './harness';
import { clientFor } from '../integration/support';
import { e2eSession } from './session';
import { answerInputBox, runCommandAsking, sleep, webviewFrame } from './ui';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const WAIT_MS = 60_000;

/** A request for a host other than loopback (in-browser schemes such as data: and blob: excluded). */
function isNonLoopback(request: Request): boolean {
	const url = new URL(request.url());
	if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return false;
	return !LOOPBACK.has(url.hostname);
}

/**
 * The non-loopback requests that really left the browser. Webview resources are addressed as
 * https://*.vscode-resource.vscode-cdn.net but answered by VS Code's service worker from the local
 * server; those are not remote.
 */
async function remoteUrls(requests: Request[]): Promise<string[]> {
	const remote: string[] = [];
	for (const request of requests) {
		const response = await request.response().catch(() => null);
		if (response?.fromServiceWorker()) continue;
		remote.push(request.url());
	}
	return remote;
}

describe('detail panels in real VS Code (code-server)', function () {
	this.timeout(300_000);

	let page: Page;
	let target: { advertId: number; advertCandidateId: number; body: string } | undefined;
	const nonLoopback: Request[] = [];
	const consoleErrors: string[] = [];
	const onRequest = (request: Request): void => {
		// The workbench's own page asks the extension gallery (VS Code 1.139 does at start); the panels' frames must ask nothing.
		if (isNonLoopback(request) && !fromWorkbenchPage(request)) nonLoopback.push(request);
	};
	const fromWorkbenchPage = (request: Request): boolean => {
		try {
			return page !== undefined && request.frame() === page.mainFrame();
		} catch {
			return false; // a service worker's request has no frame
		}
	};
	const onConsole = (message: { type(): string; text(): string }): void => {
		if (message.type() === 'error') consoleErrors.push(message.text());
	};

	before(async function () {
		// The extension's sandbox and this one seed the same data (same seed): find the hostile email here.
		const emulator = await startEmulator({ host: '127.0.0.1', port: 0, dataDir: ':memory:' });
		const client = clientFor(emulator);
		try {
			for (let pageNo = 1; pageNo <= 50 && !target; pageNo++) {
				const result = await client.getApplicationsPaged({
					sApplicationStartDateTime: '2000-01-01 00:00:00',
					boolIncludeEmailBody: 'true',
					CurrentPage: pageNo,
					RowsPerPage: 100,
				});
				const hostile = result.Applications?.find((a) => /<script/i.test(a.EmailBody?.Document ?? ''));
				if (hostile) {
					target = {
						advertId: hostile.AdvertID!,
						advertCandidateId: hostile.AdvertCandidateID!,
						body: hostile.EmailBody!.Document!,
					};
				}
				if ((result.Applications?.length ?? 0) < 100) break;
			}
		} finally {
			await client.close();
			await emulator.stop();
		}
		assert.ok(target, 'the sandbox seeds an application whose email body contains <script>');
		const session = await e2eSession();
		page = session.page;
		page.on('console', onConsole);
		session.wb.context.on('request', onRequest);
	});

	after(async function () {
		page?.off('console', onConsole);
		page?.context().off('request', onRequest);
	});

	afterEach(function () {
		if (this.currentTest?.state === 'failed') {
			console.log(`--- console errors ---\n${consoleErrors.slice(-20).join('\n')}`);
		}
	});

	/** Opens the application panel of the hostile application, as the palette command does. */
	async function openApplicationPanel(): Promise<Frame> {
		await runCommandAsking(page, 'Multiposting: Show Application Details');
		await answerInputBox(page, String(target!.advertCandidateId));
		const panel = await webviewFrame(page, '.mp-tablist');
		await panel.locator('.mp-header h1').waitFor({ state: 'visible', timeout: WAIT_MS });
		return panel;
	}

	it('shows a hostile email body in an empty-sandbox frame: no script runs, nothing remote is requested', async function () {
		const panel = await openApplicationPanel();
		const titleBefore = await panel.evaluate(() => document.title);
		await panel.getByRole('tab', { name: 'Email body' }).click();
		const frameElement = panel.locator('iframe.mp-frame');
		await frameElement.waitFor({ state: 'visible', timeout: WAIT_MS });
		// Give a script, were there one, the chance to run before looking.
		await sleep(1500);
		await screenshot(page, 'panels-application-hostile-email');

		assert.equal(await frameElement.getAttribute('sandbox'), '', 'the frame has an empty sandbox attribute');
		const srcdoc = (await frameElement.getAttribute('srcdoc')) ?? '';
		assert.match(
			srcdoc,
			/Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"/,
		);
		assert.ok(!/<script|onerror=|javascript:|attacker\.example|tracker\.example/i.test(srcdoc), srcdoc);
		assert.match(srcdoc, /Dear Hiring Manager/);
		// Inside the sandboxed document: no script element, and its title untouched.
		const inner = await (await frameElement.elementHandle())!.contentFrame();
		assert.ok(inner, 'the sandboxed frame is loaded');
		assert.equal(await inner.locator('script').count(), 0);
		assert.equal(await panel.evaluate(() => document.title), titleBefore, 'the panel title was not changed');
		assert.equal(await page.evaluate(() => document.querySelectorAll('script[src*="attacker"]').length), 0);
		assert.deepEqual(await remoteUrls(nonLoopback), [], 'no request left the machine');
		assert.ok(
			!(await e2eSession()).wb.pageErrors.some((e) => /xss|document\.domain/i.test(e)),
			(await e2eSession()).wb.pageErrors.join(' | '),
		);
	});

	it('renders the parsed CV and the attachment, still without remote requests', async function () {
		const panel = await openApplicationPanel();
		await panel.getByRole('tab', { name: 'Parsed CV' }).click();
		await panel
			.locator('.mp-cv, .mp-document-missing, .mp-document-cv .mp-notice')
			.first()
			.waitFor({ state: 'visible', timeout: WAIT_MS });
		await screenshot(page, 'panels-application-cv');
		await panel.getByRole('tab', { name: 'Attachment' }).click();
		await panel
			.locator(
				'.mp-document-pdf canvas, .mp-document-text pre, .mp-document-html iframe, .mp-document-binary, .mp-document-missing',
			)
			.first()
			.waitFor({ state: 'visible', timeout: WAIT_MS });
		await sleep(1000);
		await screenshot(page, 'panels-application-attachment');
		if (await panel.locator('.mp-document-pdf').count()) {
			// pdf.js drew the page: the canvas is not blank.
			const inked = await panel
				.locator('canvas.mp-pdf-page')
				.first()
				.evaluate((canvas: HTMLCanvasElement) => {
					const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
					let dark = 0;
					for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] < 128) dark++;
					return dark;
				});
			assert.ok(inked > 100, `the PDF page has ${inked} dark pixels`);
		}
		await panel.getByRole('tab', { name: 'Full email' }).click();
		await panel.locator('.mp-email, .mp-document-missing').first().waitFor({ state: 'visible', timeout: WAIT_MS });
		await screenshot(page, 'panels-application-full-email');
		assert.equal(await panel.locator('.mp-email iframe:not([sandbox=""])').count(), 0);
		assert.deepEqual(await remoteUrls(nonLoopback), [], 'no request left the machine');
	});

	it('shows the advert panel with its counters chart', async function () {
		await runCommandAsking(page, 'Multiposting: Show Advert Details');
		await answerInputBox(page, String(target!.advertId));
		const panel = await webviewFrame(page, 'svg.mp-chart');
		const bars = await panel.locator('rect.mp-chart-bar').count();
		assert.equal(bars, 9);
		await screenshot(page, 'panels-advert');
		assert.deepEqual(await remoteUrls(nonLoopback), [], 'no request left the machine');
	});

	it('shows the hidden application panel again on the tab it was left on (the page is kept while hidden)', async function () {
		const shown = await openApplicationPanel();
		await shown.getByRole('tab', { name: 'Full email' }).click();
		await shown.locator('.mp-email').waitFor({ state: 'visible', timeout: WAIT_MS });
		// Hide it behind another editor, then bring it back.
		await runCommandAsking(page, 'Multiposting: Show Advert Details');
		await answerInputBox(page, String(target!.advertId));
		await webviewFrame(page, 'svg.mp-chart');
		await page.locator('.tabs-container .tab', { hasText: 'Application:' }).first().click();
		const panel = await webviewFrame(page, '.mp-tablist');
		const selected = panel.locator('[role="tab"][aria-selected="true"]');
		await selected.waitFor({ state: 'visible', timeout: WAIT_MS });
		assert.equal(await selected.textContent(), 'Full email');
		await panel.locator('.mp-email').waitFor({ state: 'visible', timeout: WAIT_MS });
		// Keyboard: the selected tab is focusable and the arrow keys move the selection.
		await selected.focus();
		await page.keyboard.press('ArrowLeft');
		assert.equal(await panel.locator('[role="tab"][aria-selected="true"]').textContent(), 'Parsed CV');
		await screenshot(page, 'panels-application-restored');
	});

	it('shows the email body in the theme colours (here a dark theme), with the original colours a click away', async function () {
		await runCommandAsking(page, 'Preferences: Color Theme');
		await page.locator(QUICK_INPUT_BOX).fill('Dark Modern');
		await page
			.locator(QUICK_INPUT_ROW, { hasText: /Dark Modern/ })
			.first()
			.waitFor();
		await page.locator(QUICK_INPUT_BOX).press('Enter');
		await page.locator('.monaco-workbench.vs-dark').waitFor({ timeout: WAIT_MS });
		const panel = await openApplicationPanel();
		await panel.getByRole('tab', { name: 'Email body' }).click();
		const frameElement = panel.locator('iframe.mp-frame');
		await frameElement.waitFor({ state: 'visible', timeout: WAIT_MS });
		const inside = panel.frameLocator('iframe.mp-frame');
		const style = async (selector: string, property: 'color' | 'backgroundColor') =>
			inside
				.locator(selector)
				.first()
				.evaluate((el, p) => getComputedStyle(el)[p], property)
				.catch(() => '');
		const darkness = (rgb: string) => {
			const [r, g, b] = (rgb.match(/\d+/g) ?? ['255', '255', '255']).map(Number);
			return (r + g + b) / 3;
		};
		/** Polls a computed style until it satisfies `ok` (the frame is re-rendered when fresh data arrives). */
		const settle = async (selector: string, property: 'color' | 'backgroundColor', ok: (v: string) => boolean) => {
			let value = '';
			for (let i = 0; i < 50; i++) {
				value = await style(selector, property);
				if (ok(value)) break;
				await sleep(100);
			}
			return value;
		};
		const background = await settle('body', 'backgroundColor', (v) => v !== '' && darkness(v) < 80);
		assert.ok(darkness(background) < 80, `the frame follows the dark theme (${background})`);
		// The document's own text colour gives way to the theme's (no black text on the dark background).
		const colour = await settle('p', 'color', (v) => darkness(v) > 150);
		const frameStyle = /<style>(.*?)<\/style>/.exec((await frameElement.first().getAttribute('srcdoc')) ?? '')?.[1];
		assert.ok(
			darkness(colour) > 150,
			`the text is light on the dark background (${colour}; frame style: ${frameStyle})`,
		);
		assert.match(
			(await frameElement.getAttribute('srcdoc')) ?? '',
			/Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"/,
		);
		await screenshot(page, 'panels-email-dark-theme');
		await panel.getByRole('button', { name: 'Original colours' }).first().click();
		const original = await settle('body', 'backgroundColor', (v) => v === 'rgb(255, 255, 255)');
		assert.equal(original, 'rgb(255, 255, 255)', 'the original colours: white');
		await screenshot(page, 'panels-email-original-colours');
		await panel.getByRole('button', { name: 'Theme colours' }).first().click();
	});
});
