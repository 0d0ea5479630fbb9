// Self-check of the real-VS-Code harness itself: code-server without any extension, driven by
// chromium. It checks VS Code's own commands, so it cannot fail because of the product and is not
// part of npm test; run it with npm run test:e2e:harness after changing test/e2e/harness.ts.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import {
	activityBarItem,
	clickActivityBar,
	type CodeServerHandle,
	openCommandPalette,
	openWorkbench,
	QUICK_INPUT,
	QUICK_INPUT_BOX,
	QUICK_INPUT_ROW,
	runCommand,
	screenshot,
	startCodeServer,
	type Workbench,
} from './harness';

describe('real VS Code (code-server)', function () {
	this.timeout(120_000);

	let server: CodeServerHandle | undefined;
	let wb: Workbench | undefined;

	before(async function () {
		server = await startCodeServer({});
		fs.writeFileSync(`${server.workspaceDir}/hello.txt`, 'hello from the e2e harness\n');
		wb = await openWorkbench(server);
	});

	after(async function () {
		await wb?.close();
		await server?.stop();
	});

	afterEach(async function () {
		// On failure, keep a picture and the server log for the report.
		if (this.currentTest?.state === 'failed' && wb) {
			const name = `failed-${(this.currentTest.title || 'test').replace(/[^\w-]+/g, '_')}`;
			await screenshot(wb.page, name).catch(() => undefined);
			console.log(`--- code-server log (tail) ---\n${server?.logs().split('\n').slice(-40).join('\n')}`);
		}
	});

	it('shows the workbench with its activity bar and the command palette', async function () {
		const page = wb!.page;
		assert.equal(await page.locator('.monaco-workbench').count(), 1);
		await page.locator('.part.activitybar').waitFor({ state: 'visible' });
		await activityBarItem(page, 'Explorer').waitFor({ state: 'visible' });
		await activityBarItem(page, 'Extensions').waitFor({ state: 'visible' });

		await openCommandPalette(page);
		await page.locator(QUICK_INPUT_BOX).fill('>Developer: Reload Window');
		const row = page.locator(`${QUICK_INPUT_ROW}[aria-label^="Developer: Reload Window"]`).first();
		await row.waitFor({ state: 'visible' });
		assert.match((await row.getAttribute('aria-label')) ?? '', /^Developer: Reload Window/);
		const file = await screenshot(page, 'workbench-smoke');
		assert.ok(fs.statSync(file).size > 10_000, `${file} is suspiciously small`);

		await page.keyboard.press('Escape');
		await page.locator(QUICK_INPUT).waitFor({ state: 'hidden' });
		assert.deepEqual(wb!.pageErrors, []);
	});

	it('opens a view container from the activity bar', async function () {
		const page = wb!.page;
		await clickActivityBar(page, 'Search');
		await page.locator('.part.sidebar .composite.title h2', { hasText: /search/i }).waitFor({ state: 'visible' });
		await clickActivityBar(page, 'Explorer');
		await page.locator('.part.sidebar .monaco-list-row[aria-label="hello.txt"]').waitFor({ state: 'visible' });
	});

	it('runs a command from the command palette', async function () {
		const page = wb!.page;
		await runCommand(page, 'Preferences: Open Keyboard Shortcuts');
		await page
			.locator('.part.editor .tabs-container .tab[aria-label^="Keyboard Shortcuts"]')
			.waitFor({ state: 'visible' });
		await screenshot(page, 'workbench-command');
	});
});
