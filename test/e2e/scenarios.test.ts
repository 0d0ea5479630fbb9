// End-to-end: failure scenarios of the sandbox in the real VS Code: chosen from the library in a
// multi-select quick pick, shown in the status bar and on the sandbox's row while on, turned off in one action.

import type { Page } from 'playwright-core';
import { QUICK_INPUT, QUICK_INPUT_BOX, QUICK_INPUT_ROW, screenshot } from './harness';
import { e2eSession } from './session';
import { row, runContributedCommand, showSandboxTree, statusBarItem, UI_WAIT } from './ui';

describe('Sandbox failure scenarios in real VS Code', function () {
	this.timeout(120_000);
	let page: Page;

	before(async function () {
		this.timeout(180_000);
		page = (await e2eSession()).page;
	});

	it('picks "Service down" from the library, shows it in the status bar and the view, and turns it off', async function () {
		await showSandboxTree(page);
		await runContributedCommand(page, 'Multiposting: Choose Sandbox Failure Scenarios…');
		await page
			.locator(QUICK_INPUT, { hasText: 'Failure scenarios of the sandbox' })
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		const serviceDown = page.locator(QUICK_INPUT_ROW, { hasText: 'Service down' }).first();
		await serviceDown.waitFor({ state: 'visible', timeout: UI_WAIT });
		await page.locator(QUICK_INPUT_ROW, { hasText: 'Slow service' }).first().waitFor({ state: 'visible' });
		await serviceDown.click();
		await page
			.locator(`${QUICK_INPUT_ROW}[aria-checked="true"]`, { hasText: 'Service down' })
			.waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'scenarios-1-pick');
		await page.locator(QUICK_INPUT_BOX).press('Enter');

		const item = statusBarItem(page, /Sandbox failures: service-down/);
		await item.waitFor({ state: 'visible', timeout: UI_WAIT });
		await row(page, 1, /failure scenarios: service-down/).waitFor({ state: 'visible', timeout: UI_WAIT });
		await screenshot(page, 'scenarios-2-on');

		await runContributedCommand(page, 'Multiposting: Turn Sandbox Failure Scenarios Off');
		await item.waitFor({ state: 'hidden', timeout: UI_WAIT });
		await row(page, 1, /built-in · running/)
			.filter({ hasNotText: /failure scenarios/ })
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		await screenshot(page, 'scenarios-3-off');
	});
});
