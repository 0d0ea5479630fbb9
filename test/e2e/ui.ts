// Steps a user takes in the Multiposting view, shared by the e2e files: find and expand tree rows,
// answer quick inputs, choose context-menu items, wait for notifications and webviews.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import {
	clickActivityBar,
	openCommandPalette,
	QUICK_INPUT,
	QUICK_INPUT_BOX,
	QUICK_INPUT_ROW,
	runCommand,
} from './harness';

export const UI_WAIT = 60_000;
const TREE_ROW = '.part.sidebar .monaco-list-row';

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The tree rows at a depth (1 = connection, 2 = organisation, 3 = user, 4 = advert, 5 = application), optionally by text. */
export function row(page: Page, level: number, text?: RegExp): Locator {
	const rows = page.locator(`${TREE_ROW}[aria-level="${level}"]`);
	return text ? rows.filter({ hasText: text }) : rows;
}

/** Collapses every row of the account tree (the view's Collapse All), then expands the connection again. */
export async function collapseTree(page: Page): Promise<void> {
	// The view's title actions show while the pointer is over the side bar.
	await page.locator('.part.sidebar').hover();
	await page.locator('.part.sidebar .action-label[aria-label^="Collapse All"]').first().click();
	await expand(row(page, 1).first());
}

/** The first user row under the expanded organisation (organisations below it come first, saying "N users"). */
export function firstUserRow(page: Page): Locator {
	return row(page, 3, /\d+ adverts?/).first();
}

/**
 * Expands a row unless it is expanded already, and waits for it to report expanded. The twistie is
 * clicked: a click on the label of an advert opens its panel instead (rows with a command expand
 * only by their twistie, as in every VS Code tree).
 */
export async function expand(target: Locator): Promise<void> {
	await target.waitFor({ state: 'visible', timeout: UI_WAIT });
	if ((await target.getAttribute('aria-expanded')) !== 'true') {
		await target.locator('.monaco-tl-twistie').click();
	}
	await target.and(target.page().locator('[aria-expanded="true"]')).waitFor({ timeout: UI_WAIT });
}

/** Runs a contributed command, retrying while the workbench is still registering contributions (bounded). */
export async function runContributedCommand(page: Page, title: string): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await runCommand(page, title);
		} catch (error) {
			if (attempt >= 5) throw error;
			await page.keyboard.press('Escape');
			await sleep(2000);
		}
	}
}

/** Opens the Multiposting view container unless the side bar shows it already (a second click would close it). */
export async function showMultipostingView(page: Page): Promise<void> {
	const title = page.locator('.part.sidebar .composite.title h2', { hasText: /multiposting/i });
	if (!(await title.isVisible())) await clickActivityBar(page, 'Multiposting');
	await title.waitFor({ state: 'visible', timeout: UI_WAIT });
}

/** Shows the Multiposting view with the sandbox running and its connection row visible. */
export async function showSandboxTree(page: Page): Promise<void> {
	await runContributedCommand(page, 'Multiposting: Start Sandbox');
	await showMultipostingView(page);
	await row(page, 1, /Sandbox/).waitFor({ state: 'visible', timeout: UI_WAIT });
	await row(page, 2).first().waitFor({ state: 'visible', timeout: UI_WAIT });
}

/**
 * Expands the first organisation, its first user and an advert with applications, and returns the
 * application rows under that advert. Works whatever is expanded already.
 */
export async function revealApplications(page: Page): Promise<Locator> {
	await showSandboxTree(page);
	await expand(row(page, 2).first());
	await expand(firstUserRow(page));
	const advert = row(page, 4, /\d+ applications/)
		.filter({ hasNotText: /^0 applications/ })
		.first();
	await expand(advert);
	const applications = row(page, 5);
	await applications.first().waitFor({ state: 'visible', timeout: UI_WAIT });
	return applications;
}

/** Waits for quick input step `n` of `total` (the title shows "(n/total)"), types and accepts. */
export async function answerStep(page: Page, n: number, total: number, text: string): Promise<void> {
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

/** Types into the open input box and accepts. */
export async function answerInputBox(page: Page, text: string): Promise<void> {
	const box = page.locator(QUICK_INPUT_BOX);
	await box.waitFor({ state: 'visible' });
	await box.fill(text);
	await page.keyboard.press('Enter');
}

/** What the Add Connection wizard asks, in its order. */
export interface ConnectionAnswers {
	baseUrl: string;
	namespace: string;
	username: string;
	apiKey: string;
	password: string;
}

/**
 * Adds a SOAP 1.1, en-GB connection with the Add Connection wizard and waits for "saved"; resolves with
 * its label. Each answer waits for its own step ("(n/8)" in the title): the input box stays on screen
 * between steps, and text typed before the next step shows would land in the one just answered.
 */
export async function addConnection(page: Page, connection: ConnectionAnswers): Promise<string> {
	await runCommand(page, 'Multiposting: Add Connection…');
	// Address, namespace, binding, culture, start organisation, username, API key, password.
	const answers = [
		connection.baseUrl,
		connection.namespace,
		'SOAP 1.1',
		'en-GB',
		'',
		connection.username,
		connection.apiKey,
		connection.password,
	];
	for (const [index, answer] of answers.entries()) {
		await page
			.locator(`${QUICK_INPUT} .quick-input-title`, { hasText: `(${index + 1}/8)` })
			.waitFor({ timeout: UI_WAIT });
		if (index === 2) await page.locator(QUICK_INPUT_ROW, { hasText: answer }).first().click();
		else await answerInputBox(page, answer);
	}
	const label = `${connection.username}@${new URL(connection.baseUrl).host}`;
	await notification(page, new RegExp(`Connection "${label.replace(/\./g, '\\.')}" saved\\.`));
	return label;
}

/**
 * Chooses an item of the open context menu and waits for what it opens (`opened`). VS Code can drop a
 * click that lands while the menu is still appearing (the item highlights, the menu stays open), so
 * while nothing has opened and the item is still on screen, it is chosen again with the keyboard.
 */
export async function chooseMenuItem(page: Page, label: string, opened: Locator): Promise<void> {
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

/** The notification toast whose message matches. */
export async function notification(page: Page, text: RegExp): Promise<Locator> {
	const toast = page.locator('.notifications-toasts .notification-list-item-message', { hasText: text }).first();
	await toast.waitFor({ state: 'visible', timeout: UI_WAIT });
	return toast;
}

/** The webview frame whose document has `selector`, polled for a bounded time. */
export async function webviewFrame(page: Page, selector: string): Promise<Frame> {
	const deadline = Date.now() + UI_WAIT;
	while (Date.now() < deadline) {
		for (const frame of page.frames()) {
			// Frames of closed webviews detach while we look: skip them, and never wait on one frame.
			if (frame.isDetached()) continue;
			const found = await frame.$(selector).catch(() => null);
			if (found) return frame;
		}
		await sleep(250);
	}
	throw new Error(`no webview frame with ${selector} within ${UI_WAIT} ms`);
}

/** The editor tabs whose title matches. */
export function editorTab(page: Page, title: RegExp): Locator {
	return page.locator('.part.editor .tabs-container .tab', { hasText: title });
}

/**
 * The webview frame in which `selector` has text matching `text`, polled every `intervalMs` (short
 * enough to time a panel). Detached frames of closed webviews are skipped.
 */
export async function frameWithText(
	page: Page,
	selector: string,
	text: RegExp,
	timeoutMs = UI_WAIT,
	intervalMs = 20,
): Promise<Frame> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		for (const frame of page.frames()) {
			if (frame.isDetached() || frame === page.mainFrame()) continue;
			const found = await frame
				.evaluate(
					([sel, source, flags]) => {
						const pattern = new RegExp(source, flags);
						return Array.from(document.querySelectorAll(sel)).some((e) =>
							pattern.test(e.textContent ?? ''),
						);
					},
					[selector, text.source, text.flags] as const,
				)
				.catch(() => false);
			if (found) return frame;
		}
		await sleep(intervalMs);
	}
	throw new Error(`no webview frame with ${selector} matching ${text} within ${timeoutMs} ms`);
}

/** The wall-clock time (ms since the epoch) of the first performance mark of that name in a frame. */
export async function markTime(frame: Frame, name: string): Promise<number | undefined> {
	return frame.evaluate((mark) => {
		const entry = performance.getEntriesByName(mark)[0];
		return entry ? performance.timeOrigin + entry.startTime : undefined;
	}, name);
}

/** Starts recording when the next pointer press or key press happens in the workbench page. */
export async function armInputClock(page: Page): Promise<void> {
	await page.evaluate(() => {
		const w = window as unknown as { mpInputAt?: number };
		w.mpInputAt = undefined;
		const record = () => {
			w.mpInputAt ??= performance.timeOrigin + performance.now();
		};
		window.addEventListener('pointerdown', record, { capture: true, once: true });
		window.addEventListener('keydown', record, { capture: true, once: true });
	});
}

/** The wall-clock time of the input armInputClock waited for. */
export async function inputTime(page: Page): Promise<number | undefined> {
	return page.evaluate(() => (window as unknown as { mpInputAt?: number }).mpInputAt);
}

/**
 * Runs a command that asks for something in a quick input of its own (an input box, a theme list):
 * the widget stays open, so this waits for the palette's ">" text to give way to the command's input.
 */
export async function runCommandAsking(page: Page, title: string): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		try {
			await openCommandPalette(page);
			await page.locator(QUICK_INPUT_BOX).fill(`>${title}`);
			const item = page.locator(QUICK_INPUT_ROW, { hasText: title }).first();
			await item.waitFor({ state: 'visible', timeout: 10_000 });
			await item.click();
			await page.waitForFunction(
				() => {
					const box = document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input');
					const widget = document.querySelector<HTMLElement>('.quick-input-widget');
					return !!widget && widget.style.display !== 'none' && !!box && !box.value.startsWith('>');
				},
				undefined,
				{ timeout: 10_000 },
			);
			return;
		} catch (error) {
			if (attempt >= 3) throw error;
			await page.keyboard.press('Escape');
			await sleep(1000);
		}
	}
}

/** The status bar entry showing `text`. */
export function statusBarItem(page: Page, text: RegExp): Locator {
	return page.locator('.part.statusbar .statusbar-item', { hasText: text }).first();
}

/** Writes a file into the workspace and opens it with Quick Open (retried while the file index catches up). */
export async function openFile(page: Page, workspaceDir: string, name: string, text: string): Promise<void> {
	fs.writeFileSync(path.join(workspaceDir, name), text);
	const deadline = Date.now() + UI_WAIT;
	for (;;) {
		await page.keyboard.press('Control+P');
		await page.locator(QUICK_INPUT_BOX).waitFor({ state: 'visible', timeout: UI_WAIT });
		await page.locator(QUICK_INPUT_BOX).fill(name);
		const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: name }).first();
		try {
			await row.waitFor({ timeout: 3000 });
			break;
		} catch (error) {
			await page.keyboard.press('Escape');
			if (Date.now() > deadline) throw error;
		}
	}
	await page.keyboard.press('Enter');
	await page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: UI_WAIT });
	await page
		.locator('.editor-group-container.active .monaco-editor .view-lines')
		.waitFor({ state: 'visible', timeout: UI_WAIT });
}

/** Puts the cursor at a 1-based line and column with Go to Line. */
export async function goTo(page: Page, line: number, column: number): Promise<void> {
	await page.keyboard.press('Control+G');
	await page.locator(QUICK_INPUT_BOX).waitFor({ state: 'visible', timeout: UI_WAIT });
	await page.keyboard.type(`${line}:${column}`);
	await page.keyboard.press('Enter');
}
