// End-to-end: the packaged extension in a real VS Code (code-server) driven by chromium. Needs
// `npm run test:e2e` (it compiles, builds, packages out/multiposting-workbench.vsix and runs this).

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import {
	clickActivityBar,
	type CodeServerHandle,
	openWorkbench,
	QUICK_INPUT,
	QUICK_INPUT_BOX,
	runCommand,
	screenshot,
	startCodeServer,
	type Workbench,
	EXTENSION_VSIX,
} from './harness';

const VSIX = EXTENSION_VSIX;
const TREE_ROW = '.part.sidebar .monaco-list-row';
const UI_WAIT = 60_000;

/** The tree row at a depth (1 = connection) whose text matches. */
function row(page: Page, level: number, text?: RegExp): Locator {
	const rows = page.locator(`${TREE_ROW}[aria-level="${level}"]`);
	return text ? rows.filter({ hasText: text }) : rows;
}

/** Expands a collapsed row and waits for it to report expanded. */
async function expand(target: Locator): Promise<void> {
	if ((await target.getAttribute('aria-expanded')) !== 'true') {
		await target.click();
	}
	await target.and(target.page().locator('[aria-expanded="true"]')).waitFor({ timeout: UI_WAIT });
}

/** Waits for quick input step `n` of `total` (the title shows "(n/total)"), types and accepts. */
async function answerStep(page: Page, n: number, total: number, text: string): Promise<void> {
	await page
		.locator('.quick-input-widget .quick-input-title', { hasText: `(${n}/${total})` })
		.waitFor({ state: 'visible', timeout: UI_WAIT });
	const box = page.locator(QUICK_INPUT_BOX);
	await box.fill(text);
	if (text !== '') {
		// Quick picks filter as you type: wait for the list to show a match before accepting.
		await page.waitForFunction(() => {
			const list = document.querySelector('.quick-input-widget .quick-input-list');
			return (
				!list ||
				list.clientHeight === 0 ||
				document.querySelector('.quick-input-widget .quick-input-list .monaco-list-row') !== null
			);
		});
	}
	await box.press('Enter');
}

/**
 * Chooses an item of the open context menu and waits for what it opens (`opened`). VS Code can drop a
 * click that lands while the menu is still appearing (the item highlights, the menu stays open), so
 * while nothing has opened and the item is still on screen, it is chosen again with the keyboard.
 */
async function chooseMenuItem(page: Page, label: string, opened: Locator): Promise<void> {
	const item = page.locator('.context-view .action-label', { hasText: label }).first();
	await item.waitFor({ state: 'visible', timeout: UI_WAIT });
	await item.click();
	for (let attempt = 0; attempt < 3; attempt++) {
		try {
			await opened.waitFor({ state: 'visible', timeout: 3_000 });
			return;
		} catch {
			if (await item.isVisible()) {
				await item.hover();
				await page.keyboard.press('Enter');
			}
		}
	}
	await opened.waitFor({ state: 'visible', timeout: UI_WAIT });
}

async function notification(page: Page, text: RegExp): Promise<Locator> {
	const toast = page.locator('.notifications-toasts .notification-list-item-message', { hasText: text }).first();
	await toast.waitFor({ state: 'visible', timeout: UI_WAIT });
	return toast;
}

describe('Multiposting extension in real VS Code', function () {
	this.timeout(120_000);

	let server: CodeServerHandle | undefined;
	let wb: Workbench | undefined;

	before(async function () {
		this.timeout(180_000);
		assert.ok(fs.existsSync(VSIX), `${VSIX} is missing: run npm run test:e2e (it packages the extension)`);
		server = await startCodeServer({
			vsixPath: VSIX,
			settings: { 'multiposting.activeConnection': 'sandbox', 'multiposting.pageSize': 10 },
		});
		wb = await openWorkbench(server);
	});

	after(async function () {
		await wb?.close();
		await server?.stop();
	});

	afterEach(async function () {
		if (this.currentTest?.state === 'failed' && wb) {
			const name = `failed-extension-${(this.currentTest.title || 'test').replace(/[^\w-]+/g, '_')}`;
			await screenshot(wb.page, name).catch(() => undefined);
			console.log(`--- code-server log (tail) ---\n${server?.logs().split('\n').slice(-60).join('\n')}`);
		}
	});

	it('shows the Multiposting view with the sandbox welcome, then starts the sandbox and shows its connection', async function () {
		const page = wb!.page;
		await clickActivityBar(page, 'Multiposting');
		await page
			.locator('.part.sidebar .composite.title h2', { hasText: /multiposting/i })
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		const start = page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Start Sandbox' });
		await start.waitFor({ state: 'visible', timeout: UI_WAIT });
		await page
			.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Add Connection' })
			.waitFor({ state: 'visible' });
		await screenshot(page, 'extension-1-welcome');
		await start.click();
		const connection = row(page, 1, /Sandbox/);
		await connection.waitFor({ state: 'visible', timeout: UI_WAIT });
		await row(page, 2).first().waitFor({ state: 'visible', timeout: UI_WAIT });
		await page
			.locator('.statusbar-item', { hasText: /Multiposting: Sandbox \(running\)/ })
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		await screenshot(page, 'extension-2-sandbox');
		assert.ok((await row(page, 2).count()) >= 2, 'several organisations');
	});

	it('expands down to an application, scores it and sees its icon and description change', async function () {
		const page = wb!.page;
		// The organisation of the demo administrator holds adverts with applications.
		const orgs = row(page, 2);
		await expand(orgs.first());
		const user = row(page, 3).first();
		await user.waitFor({ state: 'visible', timeout: UI_WAIT });
		await expand(user);
		const advert = row(page, 4, /\d+ applications/)
			.filter({ hasNotText: /^0 applications/ })
			.first();
		await advert.waitFor({ state: 'visible', timeout: UI_WAIT });
		await expand(advert);
		const unranked = row(page, 5, /Unranked/).first();
		await unranked.waitFor({ state: 'visible', timeout: UI_WAIT });
		const name = (await unranked.locator('.label-name').first().innerText()).trim();
		await screenshot(page, 'extension-3-applications');

		const target = row(page, 5)
			.filter({ has: page.locator('.label-name', { hasText: name }) })
			.first();
		await target.click();
		await target.hover();
		await target.locator('.action-label[aria-label="Score…"]').click();
		await page.locator(QUICK_INPUT_BOX).waitFor({ state: 'visible' });
		await page.locator(QUICK_INPUT_BOX).fill('Suitable');
		await page
			.locator('.quick-input-widget .quick-input-list .monaco-list-row')
			.first()
			.waitFor({ state: 'visible' });
		await page.locator(QUICK_INPUT_BOX).press('Enter');
		await page.locator(QUICK_INPUT).waitFor({ state: 'hidden' });
		await target
			.locator('.label-description', { hasText: /^Suitable/ })
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		await target.locator('.codicon-pass').waitFor({ state: 'visible' });
		await screenshot(page, 'extension-4-scored');
	});

	it('adds a note to the application from its context menu', async function () {
		const page = wb!.page;
		const target = row(page, 5, /Suitable/).first();
		await target.click({ button: 'right' });
		await chooseMenuItem(
			page,
			'Add Note…',
			page.locator('.quick-input-widget .quick-input-title', { hasText: '(1/2)' }),
		);
		await answerStep(page, 1, 2, 'Phone screen');
		await answerStep(page, 2, 2, 'Spoke for 20 minutes; strong candidate.');
		await notification(page, /Note added to application \d+/);
		await screenshot(page, 'extension-5-note');
	});

	it('creates an advert through the quick inputs and shows the result', async function () {
		const page = wb!.page;
		await runCommand(page, 'Multiposting: Create Advert…');
		const total = 13;
		const answers = [
			'E2E test nurse',
			'Permanent',
			'Full time',
			'Leeds',
			'28000',
			'34000',
			'Pound sterling',
			'Year',
			'Dana Whitfield',
			'dana@acme-recruitment.example',
			'Caring for patients on a busy ward.',
			'',
			'',
		];
		for (const [i, text] of answers.entries()) {
			await answerStep(page, i + 1, total, text);
		}
		const toast = await notification(page, /Advert \d+ "E2E test nurse" was created/);
		assert.match(await toast.innerText(), /Complete the posting in the web interface/);
		await screenshot(page, 'extension-6-advert-created');
	});
});
