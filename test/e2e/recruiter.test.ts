// End-to-end: the recruiter's day in the real VS Code (code-server + chromium), as issue 19 lists it:
// opening from the tree into one preview panel (timed), triage by keyboard, the Create Advert form
// through the completion page in the browser, Express Post, the filter, and the web interface.
// Each test opens what it needs in the shared window (session.ts) and passes alone (--grep).

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { QUICK_INPUT, QUICK_INPUT_BOX, QUICK_INPUT_ROW, runCommand, screenshot, screenshotDir } from './harness';
import { e2eSession } from './session';
import {
	armInputClock,
	chooseMenuItem,
	editorTab,
	collapseTree,
	expand,
	firstUserRow,
	frameWithText,
	inputTime,
	notification,
	revealApplications,
	row,
	runCommandAsking,
	runContributedCommand,
	showSandboxTree,
	sleep,
	UI_WAIT,
	webviewFrame,
} from './ui';

const SELECTED_ROW = '.part.sidebar .monaco-list-row[aria-selected="true"]';

function exact(text: string): RegExp {
	return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/** The wall-clock time of the first performance mark with this prefix at or after `after`. */
async function firstMarkAfter(frame: Frame, prefix: string, after: number): Promise<number | undefined> {
	return frame.evaluate(
		([p, t]) =>
			performance
				.getEntriesByType('mark')
				.filter((m) => m.name.startsWith(p))
				.map((m) => performance.timeOrigin + m.startTime)
				.filter((at) => at >= t - 1)
				.sort((a, b) => a - b)[0],
		[prefix, after] as const,
	);
}

async function rowName(target: Locator): Promise<string> {
	return (await target.locator('.label-name').first().innerText()).trim();
}

/** The application row with this candidate's name among the visible rows. */
function applicationRow(page: Page, name: string): Locator {
	return row(page, 5)
		.filter({ has: page.locator('.label-name', { hasText: exact(name) }) })
		.first();
}

/** The open modal dialog's message and detail, after it appeared. */
async function dialog(page: Page): Promise<{ box: Locator; text: string }> {
	const box = page.locator('.monaco-dialog-box');
	await box.waitFor({ state: 'visible', timeout: UI_WAIT });
	return { box, text: await box.innerText() };
}

describe('the recruiter flows in real VS Code', function () {
	this.timeout(240_000);

	let page: Page;

	before(async function () {
		this.timeout(180_000);
		page = (await e2eSession()).page;
	});

	it('opens applications from the tree in one preview panel, quickly, and pins one with a double-click', async function () {
		const apps = await revealApplications(page);
		const names: string[] = [];
		for (let i = 0; i < 3; i++) names.push(await rowName(apps.nth(i)));
		const timings: { step: string; ms: number }[] = [];
		for (const [i, name] of names.entries()) {
			await armInputClock(page);
			await apps.nth(i).click();
			const frame = await frameWithText(page, '.mp-header h1', exact(name));
			const clickedAt = await inputTime(page);
			const shownAt = await firstMarkAfter(frame, 'multiposting:application:', clickedAt ?? 0);
			assert.ok(clickedAt && shownAt, 'the click and the first view were both timed');
			timings.push({
				step: i === 0 ? 'click → content, panel created' : 'click → content, preview reused',
				ms: Math.round(shownAt - clickedAt),
			});
		}
		await screenshot(page, 'recruiter-1-preview');
		// One panel for the three clicks: the preview, titled as such, showing the last one.
		await editorTab(page, exact(`Preview: ${names[2]}`)).waitFor({ state: 'visible', timeout: UI_WAIT });
		assert.equal(await editorTab(page, /^(Preview|Application):/).count(), 1);

		// A double-click opens the row and pins the panel; the next click gets a preview of its own.
		await apps.nth(0).dblclick();
		await editorTab(page, exact(`Application: ${names[0]}`)).waitFor({ state: 'visible', timeout: UI_WAIT });
		await apps.nth(1).click();
		await editorTab(page, exact(`Preview: ${names[1]}`)).waitFor({ state: 'visible', timeout: UI_WAIT });
		assert.equal(await editorTab(page, /^(Preview|Application):/).count(), 2);
		// "Keep Open" in the panel pins the preview too.
		const preview = await frameWithText(page, '.mp-header h1', exact(names[1]));
		await preview.getByRole('button', { name: 'Keep Open' }).click();
		await editorTab(page, exact(`Application: ${names[1]}`)).waitFor({ state: 'visible', timeout: UI_WAIT });
		await screenshot(page, 'recruiter-2-pinned');

		// A panel created again, once every editor is closed: the session's first webview above also
		// paid for installing code-server's service worker.
		await runCommand(page, 'View: Close All Editors');
		await editorTab(page, /^(Preview|Application):/)
			.first()
			.waitFor({ state: 'detached', timeout: UI_WAIT });
		await armInputClock(page);
		await apps.nth(2).click();
		const again = await frameWithText(page, '.mp-header h1', exact(names[2]));
		const clickedAgainAt = await inputTime(page);
		const shownAgainAt = await firstMarkAfter(again, 'multiposting:application:', clickedAgainAt ?? 0);
		assert.ok(clickedAgainAt && shownAgainAt, 'the click and the first view were both timed');
		timings.push({ step: 'click → content, panel created again', ms: Math.round(shownAgainAt - clickedAgainAt) });

		fs.mkdirSync(screenshotDir(), { recursive: true });
		const file = path.join(screenshotDir(), 'panel-timings.json');
		fs.writeFileSync(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), timings }, null, 2)}\n`);
		console.log(`      panel timings (ms): ${timings.map((t) => `${t.step}: ${t.ms}`).join('; ')}`);
	});

	it('opens adverts from the tree drawing the header from the row first, then the rest', async function () {
		await showSandboxTree(page);
		// Expanded rows from other tests would push the adverts out of the (virtual) list.
		await collapseTree(page);
		await expand(row(page, 2, /Acme Recruitment Group/).first());
		await expand(row(page, 3, /demo\.admin/).first());
		const adverts = row(page, 4, /\b[1-9]\d* applications?/);
		const timings: { step: string; header: number; complete: number }[] = [];
		for (let i = 0; i < 3; i++) {
			await armInputClock(page);
			await adverts.nth(i).locator('.label-name').click();
			const title = await rowName(adverts.nth(i));
			const frame = await frameWithText(page, '.mp-header h1', exact(title));
			const clickedAt = await inputTime(page);
			const headerAt = await firstMarkAfter(frame, 'multiposting:advert:', clickedAt ?? 0);
			await frameWithText(page, '.mp-section h2', /Postings and delivery log/);
			let completeAt: number | undefined;
			for (let j = 0; j < 300 && completeAt === undefined; j++) {
				completeAt = await firstMarkAfter(frame, 'multiposting:advert-complete:', clickedAt ?? 0);
				if (completeAt === undefined) await sleep(50);
			}
			assert.ok(clickedAt && headerAt && completeAt, 'the click, the header and the whole advert were timed');
			assert.ok(headerAt <= completeAt, 'the header from the row comes first');
			timings.push({
				step: i === 0 ? 'advert: panel created' : 'advert: preview reused',
				header: Math.round(headerAt - clickedAt),
				complete: Math.round(completeAt - clickedAt),
			});
		}
		await screenshot(page, 'recruiter-1b-advert-preview');
		fs.mkdirSync(screenshotDir(), { recursive: true });
		const file = path.join(screenshotDir(), 'advert-panel-timings.json');
		fs.writeFileSync(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), timings }, null, 2)}\n`);
		console.log(
			`      advert panel timings (ms): ${timings.map((t) => `${t.step}: header ${t.header}, complete ${t.complete}`).join('; ')}`,
		);
	});

	it('keeps a hidden panel alive: switching between a pinned panel and the preview does not re-create either page', async function () {
		const apps = await revealApplications(page);
		const first = await rowName(apps.nth(0));
		const second = await rowName(apps.nth(1));
		await apps.nth(0).dblclick();
		// A mark on each page's window while it shows: a page VS Code re-created would not have it.
		const keep = (frame: Frame) =>
			frame.evaluate(() => {
				Object.assign(window, { mpKept: true });
			});
		await keep(await frameWithText(page, '.mp-header h1', exact(first)));
		await editorTab(page, exact(`Application: ${first}`)).waitFor({ state: 'visible', timeout: UI_WAIT });
		await apps.nth(1).click();
		await keep(await frameWithText(page, '.mp-header h1', exact(second)));
		for (const [title, name] of [
			[`Application: ${first}`, first],
			[`Preview: ${second}`, second],
			[`Application: ${first}`, first],
		]) {
			await editorTab(page, exact(title)).click();
			const shown = await frameWithText(page, '.mp-header h1', exact(name));
			assert.equal(
				await shown.evaluate(() => (window as unknown as { mpKept?: boolean }).mpKept),
				true,
				`${title}: the page was kept while hidden`,
			);
		}
		await screenshot(page, 'recruiter-2b-switched-back');
	});

	it('triages with one key per score in the tree and in the panel, and moves with J and K', async function () {
		const apps = await revealApplications(page);
		const first = apps.filter({ has: page.locator('.label-description', { hasText: /^Unranked/ }) }).first();
		const name = await rowName(first);
		await first.click();
		await frameWithText(page, '.mp-header h1', exact(name));
		// The click kept the focus in the tree: S scores the selected row.
		await page.keyboard.press('s');
		await applicationRow(page, name)
			.locator('.label-description', { hasText: /^Suitable/ })
			.waitFor({ timeout: UI_WAIT });
		await page.locator('.statusbar-item', { hasText: `${name}: Suitable` }).waitFor({ timeout: UI_WAIT });
		// J moves the selection to the next application, and the preview follows it.
		await page.keyboard.press('j');
		const second = page.locator(SELECTED_ROW);
		await second.locator('.label-name', { hasNotText: exact(name) }).waitFor({ timeout: UI_WAIT });
		const secondName = await rowName(second);
		const panel = await frameWithText(page, '.mp-header h1', exact(secondName));
		await page.keyboard.press('m');
		await applicationRow(page, secondName)
			.locator('.label-description', { hasText: /^Maybe/ })
			.waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'recruiter-3-keys-in-tree');

		// In the panel the same keys act on the panel's application.
		await panel.locator('.mp-header h1').click();
		await page.keyboard.press('u');
		await applicationRow(page, secondName)
			.locator('.label-description', { hasText: /^Unsuitable/ })
			.waitFor({ timeout: UI_WAIT });
		await page.keyboard.press('k');
		await frameWithText(page, '.mp-header h1', exact(name));
		await page
			.locator(SELECTED_ROW)
			.locator('.label-name', { hasText: exact(name) })
			.waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'recruiter-4-keys-in-panel');

		// The row's context menu shows the score commands with their keys.
		await applicationRow(page, name).click({ button: 'right' });
		const score = page.locator('.context-view .action-label', { hasText: /^Score$/ }).first();
		await score.waitFor({ timeout: UI_WAIT });
		await score.hover();
		const suitable = page.locator('.context-view .action-item', { hasText: 'Score as Suitable' }).last();
		await suitable.waitFor({ timeout: UI_WAIT });
		assert.equal((await suitable.locator('.keybinding').innerText()).trim(), 'S');
		await screenshot(page, 'recruiter-5-score-menu');
		await page.keyboard.press('Escape');
		await page.keyboard.press('Escape');
	});

	it('creates an advert in one form, completes its posting in the browser through code-server, and the tree and delivery log show it', async function () {
		const session = await e2eSession();
		await showSandboxTree(page);
		await runContributedCommand(page, 'Multiposting: Create Advert…');
		const form = await webviewFrame(page, 'form.mp-form');
		await form.locator('#f-sJobTitle').fill('E2E staff nurse');
		await form.locator('#f-sJobType').selectOption({ label: 'Permanent' });
		await form.locator('#f-sPrimaryLocation').fill('Leeds');
		await form.locator('#f-sSalaryFrom').fill('34000');
		await form.locator('#f-sSalaryTo').fill('28000');
		await form.locator('#f-sSalaryTo').blur();
		await form.locator('#e-sSalaryTo', { hasText: '“To” (28000) is below “From” (34000).' }).waitFor();
		await form.locator('#f-sJobDescription').fill('Caring for patients on a busy ward.');
		await form.locator('#f-sJobDescription').blur();
		await form.locator('#e-sJobDescription', { hasText: /Too short for/ }).waitFor();
		await screenshot(page, 'recruiter-6-form-checks');
		await form.locator('#f-sSalaryTo').fill('38000');
		await form
			.locator('#f-sJobDescription')
			.fill(
				'Caring for patients on a busy surgical ward in Leeds. You will assess, plan and deliver care, ' +
					'support newly qualified colleagues and work with doctors, physiotherapists and families. ' +
					'We offer flexible shifts, paid training, a generous pension and a friendly, well-led team.',
			);
		await form.locator('.mp-cost', { hasText: /postings? of quota/ }).waitFor();
		await form.getByRole('button', { name: 'Create Advert' }).click();
		await form
			.getByRole('heading', { level: 1, name: 'Advert “E2E staff nurse” created' })
			.waitFor({ timeout: UI_WAIT });
		assert.match(await form.locator('.mp-created code').innerText(), /\/complete-posting\//);
		await screenshot(page, 'recruiter-7-created');

		// Open: the completion page, in the browser, through code-server's proxy, with its path.
		const opened = session.wb.context.waitForEvent('page', { timeout: UI_WAIT });
		await form.getByRole('button', { name: 'Open Completion Page' }).click();
		const browserTab = await opened;
		try {
			await browserTab.waitForLoadState('domcontentloaded');
			assert.match(browserTab.url(), new RegExp(`^${session.server.url}/proxy/\\d+/complete-posting/[\\w-]+$`));
			await browserTab
				.getByRole('heading', { level: 1, name: 'Complete your posting' })
				.waitFor({ timeout: UI_WAIT });
			await browserTab.screenshot({
				path: path.join(screenshotDir(), 'recruiter-8-completion-page.png'),
				fullPage: true,
			});
			await browserTab.getByRole('button', { name: 'Confirm and post' }).click();
			await browserTab
				.getByRole('heading', { level: 1, name: 'Posting completed' })
				.waitFor({ timeout: UI_WAIT });
			assert.ok((await browserTab.locator('tbody tr').count()) > 0, 'postings were created');
			await browserTab.screenshot({
				path: path.join(screenshotDir(), 'recruiter-9-posting-completed.png'),
				fullPage: true,
			});
		} finally {
			await browserTab.close();
		}

		// Back in VS Code: the advert panel and the advert's row show the postings.
		await form.getByRole('button', { name: 'Show Advert' }).click();
		const advertPanel = await frameWithText(page, '.mp-badges', /Posting: (Pending|Delivered)/);
		assert.equal(await advertPanel.locator('h1').first().innerText(), 'E2E staff nurse');
		await advertPanel.getByRole('button', { name: 'Copy Link' }).waitFor();
		await screenshot(page, 'recruiter-10-advert-panel');
		await expand(row(page, 2).first());
		const admin = row(page, 3, /demo\.admin/).first();
		await expand(admin);
		const advertRow = row(page, 4, /E2E staff nurse/).first();
		await advertRow.locator('.label-description', { hasText: /Pending|Delivered/ }).waitFor({ timeout: UI_WAIT });
		await advertRow.click({ button: 'right' });
		const logTab = editorTab(page, /^Delivery log of E2E staff nurse/);
		await chooseMenuItem(page, 'Show Delivery Log', logTab);
		await page
			.locator('.part.editor .view-lines', { hasText: /posting\s\d+/ })
			.first()
			.waitFor({ timeout: UI_WAIT });
		assert.equal(
			await logTab.first().evaluate((tab) => tab.classList.contains('dirty')),
			false,
			'a read-only document, never dirty',
		);
		await screenshot(page, 'recruiter-11-delivery-log');
	});

	it('express posts only to the boards the advert was posted to, after confirming quota and cost', async function () {
		await showSandboxTree(page);
		await expand(row(page, 2).first());
		await expand(firstUserRow(page));
		const posted = row(page, 4)
			.filter({ has: page.locator('.label-description', { hasText: /Delivered/ }) })
			.first();
		const title = await rowName(posted);
		await posted.click({ button: 'right' });
		await chooseMenuItem(
			page,
			'Express Post…',
			page.locator('.quick-input-widget .quick-input-title', { hasText: 'Express post' }),
		);
		const heading = (await page.locator('.quick-input-widget .quick-input-title').innerText()).trim();
		assert.match(
			heading,
			new RegExp(`^Express post “${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}” \\(advert \\d+\\)`),
		);
		const boards = await page.locator(QUICK_INPUT_ROW).count();
		assert.ok(boards >= 1 && boards < 10, `only the boards it was posted to (${boards}), not all 15`);
		await screenshot(page, 'recruiter-12-express-pick');
		await page.locator(QUICK_INPUT_BOX).press('Enter');
		const { box, text } = await dialog(page);
		assert.match(text, /Express post “.+” \(advert \d+\) to /);
		assert.match(text, /Uses \d+ postings? of quota/);
		await screenshot(page, 'recruiter-13-express-confirm');
		await box.locator('.dialog-buttons .monaco-button', { hasText: 'Express Post' }).click();
		await notification(page, /will be delivered again to /);
	});

	it('shows the filter in the view with a way to clear it, and counts that say what they count', async function () {
		await showSandboxTree(page);
		await runCommandAsking(page, 'Multiposting: Filter…');
		await page.locator(QUICK_INPUT_BOX).fill('Ranking');
		await page.locator(QUICK_INPUT_ROW, { hasText: 'Ranking of applications' }).first().click();
		await page
			.locator(QUICK_INPUT_ROW, { hasText: /^Suitable/ })
			.first()
			.waitFor();
		await page
			.locator(QUICK_INPUT_ROW, { hasText: /^Suitable/ })
			.first()
			.locator('.monaco-checkbox, input[type=checkbox]')
			.first()
			.click();
		await page.locator(QUICK_INPUT_BOX).press('Enter');
		await page.locator(QUICK_INPUT).waitFor({ state: 'hidden' });
		const message = page.locator('.part.sidebar', { hasText: /Filtered: Suitable/ });
		await message.waitFor({ timeout: UI_WAIT });
		await expand(row(page, 2).first());
		await expand(firstUserRow(page));
		const name = await rowName(row(page, 4, /[1-9]\d* applications in all/).first());
		// Expanding changes the row's text, so it is found again by its title.
		const advert = row(page, 4)
			.filter({ has: page.locator('.label-name', { hasText: exact(name) }) })
			.first();
		await expand(advert);
		await advert
			.locator('.label-description', { hasText: /^\d+ of \d+ applications? match/ })
			.waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'recruiter-14-filtered');
		await page.locator('.part.sidebar .action-label[aria-label="Clear Filter"]').first().click();
		await page
			.locator('.part.sidebar')
			.getByText(/Filtered: Suitable/)
			.waitFor({ state: 'hidden', timeout: UI_WAIT });
	});

	it("opens an advert's page of the web interface through code-server's proxy", async function () {
		const session = await e2eSession();
		await showSandboxTree(page);
		await expand(row(page, 2).first());
		await expand(firstUserRow(page));
		const advert = row(page, 4).first();
		const title = await rowName(advert);
		await advert.click({ button: 'right' });
		await chooseMenuItem(page, 'Open Web Interface', page.locator('.monaco-dialog-box'));
		const { box, text } = await dialog(page);
		assert.match(
			text,
			new RegExp(`Open the web interface at ${new URL(session.server.url).host.replace('.', '\\.')}\\?`),
		);
		const opened = session.wb.context.waitForEvent('page', { timeout: UI_WAIT });
		await box.locator('.dialog-buttons .monaco-button', { hasText: /^Open$/ }).click();
		const browserTab = await opened;
		try {
			await browserTab.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: UI_WAIT });
			assert.match(browserTab.url(), new RegExp(`^${session.server.url}/proxy/\\d+/web/adverts/\\d+$`));
			await browserTab
				.getByRole('navigation', { name: 'Account' })
				.getByRole('link', { name: 'Applications' })
				.click();
			await browserTab.getByRole('heading', { level: 1, name: 'Applications' }).waitFor({ timeout: UI_WAIT });
			assert.match(browserTab.url(), /\/proxy\/\d+\/web\/applications$/);
			await browserTab.screenshot({ path: path.join(screenshotDir(), 'recruiter-15-web-interface.png') });
		} finally {
			await browserTab.close();
		}
		await sleep(100);
	});
	it('shows the organisations as a tree, users at their level, and finds from an organisation down', async function () {
		await showSandboxTree(page);
		const group = row(page, 2, /Acme Recruitment Group/).first();
		await expand(group);
		const north = row(page, 3, /^Acme North/).first();
		await north.waitFor({ state: 'visible', timeout: UI_WAIT });
		await row(page, 3, /^Acme South/)
			.first()
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		// The group's own users sit beside its organisations, at the same level.
		await row(page, 3, /demo\.admin/)
			.first()
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		await expand(north);
		await row(page, 4, /^Acme Manchester/)
			.first()
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		await row(page, 4, /^Acme Leeds/)
			.first()
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		assert.equal(await row(page, 2, /Acme North/).count(), 0, 'Acme North is not a sibling of the group');
		await screenshot(page, 'recruiter-12-organisation-tree');

		await north.click({ button: 'right' });
		const title = page.locator('.quick-input-widget .quick-input-title', {
			hasText: 'Find in Acme North and below',
		});
		await chooseMenuItem(page, 'Find in This Organisation…', title);
		await page.keyboard.press('Escape');
		await north.click({ button: 'right' });
		await chooseMenuItem(
			page,
			'Show Only This Organisation and Below',
			page.locator('.part.sidebar').getByText(/Filtered: Acme North and below/),
		);
		await row(page, 2, /^Acme North/)
			.first()
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		assert.equal(await row(page, 2, /Acme Recruitment Group/).count(), 0, 'only Acme North and below');
		await screenshot(page, 'recruiter-13-organisation-filter');
		await runContributedCommand(page, 'Multiposting: Clear Filter');
		await row(page, 2, /Acme Recruitment Group/)
			.first()
			.waitFor({ state: 'visible', timeout: UI_WAIT });
	});

	it('finds an advert by the reference typed straight into Find', async function () {
		await showSandboxTree(page);
		await collapseTree(page);
		await expand(row(page, 2, /Acme Recruitment Group/).first());
		const admin = row(page, 3, /demo\.admin/).first();
		await expand(admin);
		// A seeded advert's panel shows its reference (an advert created by another test may have none).
		await row(page, 4, /\b[1-9]\d* applications?/)
			.first()
			.locator('.label-name')
			.click();
		const panel = await frameWithText(page, '.mp-header', /REF\/\d{4}\/\d{4}/);
		const reference = /REF\/\d{4}\/\d{4}/.exec(await panel.locator('.mp-header').first().innerText())![0];
		const title = (await panel.locator('h1').first().innerText()).trim();
		await runCommand(page, 'View: Close All Editors');

		await runCommandAsking(page, 'Multiposting: Find by ID, Identifier or Reference…');
		await page.locator(QUICK_INPUT_BOX).fill(reference);
		const guess = page.locator(QUICK_INPUT_ROW, { hasText: `Find “${reference}” as an advert reference` });
		await guess.waitFor({ state: 'visible', timeout: UI_WAIT });
		assert.match(
			await page.locator(QUICK_INPUT_ROW).first().innerText(),
			/as an advert reference/,
			'the likeliest reading first',
		);
		await screenshot(page, 'recruiter-14-find-typed');
		await page.keyboard.press('Enter');
		await frameWithText(page, 'h1', exact(title));
		await page.locator(SELECTED_ROW, { hasText: title }).waitFor({ state: 'visible', timeout: UI_WAIT });
		await screenshot(page, 'recruiter-15-find-found');
	});

	it('explains a taken port in the view and starts on the free port it offers', async function () {
		const holder = net.createServer();
		await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
		const taken = (holder.address() as net.AddressInfo).port;
		try {
			await showSandboxTree(page);
			await runContributedCommand(page, 'Multiposting: Stop Sandbox');
			await runCommandAsking(page, 'Multiposting: Change Sandbox Port…');
			await page.locator(QUICK_INPUT_BOX).fill(String(taken));
			await page.keyboard.press('Enter');
			const cause = row(page, 2, new RegExp(`^Port ${taken} is in use by`));
			await cause.waitFor({ state: 'visible', timeout: UI_WAIT });
			const usePort = row(page, 2, /^Use port \d+/).first();
			await usePort.waitFor({ state: 'visible', timeout: UI_WAIT });
			await row(page, 2, /^Change port…/)
				.first()
				.waitFor({ state: 'visible', timeout: UI_WAIT });
			await runCommand(page, 'Notifications: Clear All Notifications');
			await screenshot(page, 'recruiter-16-port-conflict');
			const free = Number(/Use port (\d+)/.exec(await usePort.innerText())![1]);
			assert.notEqual(free, taken);
			await usePort.click();
			await page
				.locator('.statusbar-item', { hasText: /Multiposting: Sandbox \(running\)/ })
				.waitFor({ timeout: UI_WAIT });
			await row(page, 2, /Acme Recruitment Group/)
				.first()
				.waitFor({ state: 'visible', timeout: UI_WAIT });
			await notification(page, new RegExp(`runs at http://127\\.0\\.0\\.1:${free}`));
			await screenshot(page, 'recruiter-17-port-used');
		} finally {
			holder.close();
			// Any free port again for the tests that follow.
			await runCommandAsking(page, 'Multiposting: Change Sandbox Port…');
			await page.locator(QUICK_INPUT_BOX).fill('0');
			await page.keyboard.press('Enter');
		}
	});
});
