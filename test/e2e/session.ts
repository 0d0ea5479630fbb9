// One code-server with the packaged extension and one browser window, shared by every e2e file:
// starting code-server and installing the .vsix costs about 20 s, so it is paid once per run.
// scripts/e2e.sh loads this file with mocha's --require, so its root hooks run around every test:
// the workbench is put back to a known state before each test (no editors, notifications or quick
// input), and a failing test leaves a screenshot and the tail of the code-server log.
// Tests never rely on one another: each one opens what it needs, so any test passes alone (--grep).

import * as fs from 'node:fs';
import type { Context } from 'mocha';
import type { Page } from 'playwright-core';
import {
	activityBarItem,
	type CodeServerHandle,
	EXTENSION_VSIX,
	openWorkbench,
	QUICK_INPUT,
	runCommand,
	screenshot,
	startCodeServer,
	type Workbench,
} from './harness';

/** Settings of the shared window: the sandbox is the active connection, pages are short. */
export const E2E_SETTINGS: Readonly<Record<string, unknown>> = {
	'multiposting.activeConnection': 'sandbox',
	'multiposting.pageSize': 10,
	// Any free port: several e2e runs may share this machine.
	'multiposting.sandbox.port': 0,
};

export interface E2ESession {
	server: CodeServerHandle;
	wb: Workbench;
	page: Page;
}

let opening: Promise<E2ESession> | undefined;
let opened: E2ESession | undefined;

/** The shared session, started on first use. */
export function e2eSession(): Promise<E2ESession> {
	opening ??= open().then((session) => (opened = session));
	return opening;
}

async function open(): Promise<E2ESession> {
	if (!fs.existsSync(EXTENSION_VSIX)) {
		throw new Error(`${EXTENSION_VSIX} is missing: run npm run test:e2e (it packages the extension)`);
	}
	const server = await startCodeServer({ vsixPath: EXTENSION_VSIX, settings: { ...E2E_SETTINGS } });
	try {
		const wb = await openWorkbench(server);
		await activityBarItem(wb.page, 'Multiposting').waitFor({ state: 'visible', timeout: 60_000 });
		return { server, wb, page: wb.page };
	} catch (error) {
		await server.stop();
		throw error;
	}
}

/** Closes what earlier tests left open, so that the next test starts from an empty editor area. */
export async function resetWorkbench(page: Page): Promise<void> {
	for (let i = 0; i < 2 && (await page.locator(QUICK_INPUT).isVisible()); i++) {
		await page.keyboard.press('Escape');
	}
	await runCommand(page, 'View: Close All Editors');
	await runCommand(page, 'Notifications: Clear All Notifications');
}

async function closeSession(): Promise<void> {
	const session = opened;
	opened = undefined;
	opening = undefined;
	await session?.wb.close();
	await session?.server.stop();
}

function fileSafe(text: string): string {
	return text.replace(/[^\w-]+/g, '_').slice(0, 120);
}

/** mocha root hooks (this file is loaded with --require). */
export const mochaHooks = {
	async beforeEach(this: Context): Promise<void> {
		if (opened) {
			this.timeout(60_000);
			await resetWorkbench(opened.page);
		}
	},
	async afterEach(this: Context): Promise<void> {
		const test = this.currentTest;
		if (test?.state !== 'failed' || !opened) return;
		await screenshot(opened.page, `failed-${fileSafe(test.fullTitle())}`).catch(() => undefined);
		console.log(`--- code-server log (tail) ---\n${opened.server.logs().split('\n').slice(-60).join('\n')}`);
		if (opened.wb.pageErrors.length) {
			console.log(`--- page errors ---\n${opened.wb.pageErrors.slice(-20).join('\n')}`);
		}
	},
	async afterAll(this: Context): Promise<void> {
		this.timeout(60_000);
		await closeSession();
	},
};
