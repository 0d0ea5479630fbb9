// End-to-end: the packaged extension in a real VS Code (code-server) driven by chromium. Needs
// `npm run test:e2e` (it compiles, builds, packages out/multiposting-workbench.vsix and runs this).
// Every test sets up what it needs in the shared window (test/e2e/session.ts) and passes alone.

import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { QUICK_INPUT, QUICK_INPUT_BOX, screenshot } from './harness';
import { e2eSession } from './session';
import {
	answerStep,
	chooseMenuItem,
	notification,
	revealApplications,
	row,
	runContributedCommand,
	showMultipostingView,
	showSandboxTree,
	sleep,
	UI_WAIT,
} from './ui';

describe('Multiposting extension in real VS Code', function () {
	this.timeout(120_000);

	let page: Page;

	before(async function () {
		this.timeout(180_000);
		page = (await e2eSession()).page;
	});

	it('shows the Multiposting view with the sandbox welcome, then starts the sandbox and shows its connection', async function () {
		// The welcome shows while the sandbox is stopped (another test may have started it).
		await runContributedCommand(page, 'Multiposting: Stop Sandbox');
		await showMultipostingView(page);
		await page
			.locator('.part.sidebar .composite.title h2', { hasText: /multiposting/i })
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		// The Account view's welcome (the Traffic view below it offers Start Sandbox too).
		const start = page
			.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Start Sandbox' })
			.first();
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
		assert.ok((await row(page, 2).count()) >= 1, 'the organisations at the top of the tree');
	});

	it('expands down to an application, scores it and sees its icon and description change', async function () {
		await revealApplications(page);
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
		const target = (await revealApplications(page)).first();
		await target.click({ button: 'right' });
		await chooseMenuItem(
			page,
			'Add Note…',
			page.locator('.quick-input-widget .quick-input-title', { hasText: '(1/2)' }),
		);
		await answerStep(page, 1, 2, 'Phone screen');
		await answerStep(page, 2, 2, 'Spoke for 20 minutes; strong candidate.');
		await notification(page, /^Note added to the application of .+\.$/);
		await screenshot(page, 'extension-5-note');
	});

	it('shows one state everywhere while the sandbox resets, and no error for it', async function () {
		await showSandboxTree(page);
		await runContributedCommand(page, 'Multiposting: Reset Sandbox…');
		const reset = page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: 'Reset' });
		await reset.waitFor({ state: 'visible', timeout: UI_WAIT });
		await reset.click();
		// Watch the view and the status bar until the new sandbox's organisations show (bounded).
		const seen: { status: string; connection: string; errors: string[]; organisations: number }[] = [];
		let screenshotTaken = false;
		for (let i = 0; i < 600; i++) {
			const sample = await page.evaluate(() => ({
				status:
					[...document.querySelectorAll('.statusbar-item')]
						.map((e) => e.textContent ?? '')
						.find((t) => t.includes('Multiposting: Sandbox')) ?? '',
				connection:
					document.querySelector('.part.sidebar .monaco-list-row[aria-level="1"] .label-description')
						?.textContent ?? '',
				errors: [...document.querySelectorAll('.part.sidebar .monaco-list-row, .notifications-toasts')]
					.map((e) => e.textContent ?? '')
					.filter((t) => /failed|could not be reached|ECONN/i.test(t)),
				organisations: document.querySelectorAll('.part.sidebar .monaco-list-row[aria-level="2"]').length,
			}));
			seen.push(sample);
			if (!screenshotTaken && sample.status.includes('(resetting)')) {
				await page
					.locator('.part.sidebar')
					.getByText(/Resetting the sandbox/)
					.waitFor({ timeout: UI_WAIT });
				await screenshot(page, 'extension-6-resetting');
				screenshotTaken = true;
			}
			if (screenshotTaken && sample.status.includes('(running)') && sample.organisations > 0) break;
			await sleep(100);
		}
		assert.ok(screenshotTaken, 'the reset was seen');
		assert.deepEqual(
			seen.flatMap((s) => s.errors),
			[],
			'no error shown for the reset the user asked for',
		);
		// The tree row and the status bar go through the same states, in the same order, with no swap.
		const state = (text: string) => /\((\w+)\)|· (\w+)/.exec(text)?.slice(1).find(Boolean);
		const sequence = (texts: string[]) =>
			texts.map(state).filter((s, i, all): s is string => !!s && s !== all[i - 1]);
		const statusStates = sequence(seen.map((s) => s.status));
		const treeStates = sequence(seen.filter((s) => s.connection !== '').map((s) => s.connection));
		assert.deepEqual(statusStates.slice(-2), ['resetting', 'running'], `status bar: ${statusStates.join(' → ')}`);
		assert.ok(
			statusStates.length <= 3 && statusStates.every((s) => s === 'running' || s === 'resetting'),
			`one state from the click to the new sandbox, no stopped or starting: ${statusStates.join(' → ')}`,
		);
		assert.deepEqual(treeStates.slice(-2), ['resetting', 'running'], `tree row: ${treeStates.join(' → ')}`);
		assert.ok(treeStates.length <= 3, `tree row: ${treeStates.join(' → ')}`);
		await screenshot(page, 'extension-7-reset-done');
	});
});
