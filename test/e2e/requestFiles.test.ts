// End-to-end tests of request files in a real VS Code (code-server) against the built-in sandbox, in
// the shared window of test/e2e/session.ts: the language features, the CodeLenses, the Test Explorer
// and the environment picker.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { QUICK_INPUT_ROW, runCommand, screenshot } from './harness';
import { e2eSession } from './session';
import { goTo, notification, openFile, sleep, statusBarItem, UI_WAIT } from './ui';

/** The text of the active editor (what the view renders). */
async function editorText(page: Page): Promise<string> {
	return (await page.locator('.editor-group-container.active .monaco-editor .view-lines').innerText()).replace(
		/\u00a0/g,
		' ',
	);
}

/** A file of two tests, the second failing (it expects 2 feeds where the filter gives 1). */
function twoTests(title: string): string {
	return [
		`# Multiposting request: ${title}`,
		'',
		'### Feeds of the user',
		'operation: UserFeedsAndQuotaWithDestinations',
		'param.sCultureID: en-GB',
		'param.sAPIKey: {{connection.apiKey}}',
		'param.sUsername: {{connection.username}}',
		'param.sPassword: {{connection.password}}',
		'expect: no fault',
		'capture: feedId = result[0].FeedID',
		'',
		'### Only that feed',
		'operation: UserFeedsAndQuotaWithDestinations',
		'binding: soap12',
		'param.sCultureID: en-GB',
		'param.sAPIKey: {{connection.apiKey}}',
		'param.sUsername: {{connection.username}}',
		'param.sPassword: {{connection.password}}',
		'param.Destinations: {{feedId}}',
		'expect: result.length == 2',
		'expect: result[0].FeedID == {{feedId}}',
		'',
	].join('\n');
}

describe('request files in real VS Code', function () {
	this.timeout(300_000);
	let page: Page;
	let workspaceDir: string;

	before(async function () {
		this.timeout(180_000);
		const session = await e2eSession();
		page = session.page;
		workspaceDir = session.server.workspaceDir;
	});

	it('highlights, diagnoses, fixes and completes a request file', async () => {
		await openFile(
			page,
			workspaceDir,
			'language.mpreq',
			[
				'# Multiposting request',
				'',
				'### Currencies',
				'operation: GetCurency',
				'param.sAPIKey: {{connection.apiKey}}',
				'expect: result[0].Valeu exists',
				'',
			].join('\n'),
		);
		// The grammar colours keys and operations: several token colours on the key lines.
		const tokens = page.locator('.editor-group-container.active .view-line span[class*="mtk"]');
		const colours = async (): Promise<Set<string>> =>
			new Set(await tokens.evaluateAll((spans) => spans.map((span) => span.className)));
		const shown = Date.now();
		while ((await colours()).size < 4 && Date.now() - shown < UI_WAIT) await sleep(250);
		assert.ok(
			(await colours()).size >= 4,
			`expected several token colours, got ${[...(await colours())].join(' ')}`,
		);
		// Problems appear as you type: the unknown operation is squiggled.
		await page.locator('.editor-group-container.active .squiggly-error').first().waitFor({ timeout: UI_WAIT });
		await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
		const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'unknown operation "GetCurency"' });
		await problem.first().waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'request-file-problems');

		// The quick fix turns GetCurency into GetCurrency; then the result path is checked against GetValue.
		await page.locator('.editor-group-container.active .view-lines').click();
		await goTo(page, 4, 14);
		await runCommand(page, 'Auto Fix...');
		const started = Date.now();
		while (!(await editorText(page)).includes('operation: GetCurrency') && Date.now() - started < UI_WAIT) {
			await sleep(200);
		}
		assert.match(await editorText(page), /operation: GetCurrency\n/);
		await page
			.locator('.markers-panel .monaco-list-row', { hasText: 'GetValue has no field Valeu' })
			.first()
			.waitFor({ timeout: UI_WAIT });

		// Completion offers the operation's parameters on a new line.
		await goTo(page, 7, 1);
		await page.keyboard.type('param.sC');
		await page.keyboard.press('Control+Space');
		const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'param.sCultureID' });
		await suggestion.first().waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'request-file-completion');
		await page.keyboard.press('Escape');

		// Hover documents the operation from the catalogue (shown from the keyboard, as a mouse hover
		// depends on where the pointer rests).
		await goTo(page, 4, 14);
		await runCommand(page, 'Show or Focus Hover');
		await page
			.locator('.monaco-hover-content', { hasText: 'Currency lookup rows' })
			.first()
			.waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'request-file-hover');
		await runCommand(page, 'File: Revert File');
	});

	it('runs the tests of a file from a CodeLens and shows the failure with the exchange', async () => {
		await openFile(page, workspaceDir, 'scenario.mpreq', twoTests('scenario'));
		const lenses = page.locator('.editor-group-container.active .codelens-decoration a');
		await lenses.filter({ hasText: 'Run all (2)' }).first().waitFor({ timeout: UI_WAIT });
		const titles = await lenses.allInnerTexts();
		assert.equal(titles.filter((title) => /Send/.test(title)).length, 2, titles.join(' | '));
		assert.equal(titles.filter((title) => /Run test/.test(title)).length, 2, titles.join(' | '));
		await screenshot(page, 'request-file-codelens');

		// Run test on the second request: the first runs too, for the feedId it captures.
		await lenses.filter({ hasText: 'Run test (2)' }).first().click();
		// The failure is shown at the expectation's line (VS Code draws "1 != 2" there: see the screenshot)
		// and its request is marked failed in the gutter. Wait for it: VS Code may reveal the Testing view
		// when the run ends, which would close a command palette opened meanwhile.
		await page
			.locator(
				'.editor-group-container.active .codicon-testing-failed-icon, .test-explorer .codicon-testing-failed-icon',
			)
			.first()
			.waitFor({ timeout: UI_WAIT });
		// The Test Explorer lists the file with its failed test.
		await runCommand(page, 'Testing: Focus on Test Explorer View');
		const fileRow = page.locator('.test-explorer .monaco-list-row', { hasText: 'scenario.mpreq' }).first();
		await fileRow.waitFor({ timeout: UI_WAIT });
		await fileRow.locator('.codicon-testing-failed-icon').waitFor({ timeout: UI_WAIT });
		await fileRow.click();
		await page.keyboard.press('ArrowRight');
		const failed = page.locator('.test-explorer .monaco-list-row', { hasText: 'Only that feed' }).first();
		await failed.waitFor({ timeout: UI_WAIT });
		await failed.locator('.codicon-testing-failed-icon').waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'request-file-test-explorer');

		// Send from the first request's CodeLens: the response and the expectations in a notification.
		await page.locator('.editor-group-container.active .view-lines').click();
		await lenses.filter({ hasText: 'Send' }).first().click();
		await notification(page, /UserFeedsAndQuotaWithDestinations \(soap11\): HTTP 200 · 1 of 1 expectations passed/);
		await screenshot(page, 'request-file-sent');
	});
	it('runs all requests from a CodeLens as one run of the Test Explorer, the failure first and the exchange on demand', async () => {
		await openFile(page, workspaceDir, 'run-all.mpreq', twoTests('run-all'));
		const lenses = page.locator('.editor-group-container.active .codelens-decoration a');
		await lenses.filter({ hasText: 'Run all (2)' }).first().click();
		await notification(page, /run-all\.mpreq: 1 of 2 requests passed\. First failure: Only that feed\./);

		// The same run in the Test Explorer: the file failed, its first test passed, its second failed.
		await runCommand(page, 'Testing: Focus on Test Explorer View');
		const fileRow = page.locator('.test-explorer .monaco-list-row', { hasText: 'run-all.mpreq' }).first();
		await fileRow.locator('.codicon-testing-failed-icon').waitFor({ timeout: UI_WAIT });
		await fileRow.click();
		await page.keyboard.press('ArrowRight');
		const passed = page.locator('.test-explorer .monaco-list-row', { hasText: 'Feeds of the user' }).first();
		await passed.locator('.codicon-testing-passed-icon').waitFor({ timeout: UI_WAIT });
		const failed = page.locator('.test-explorer .monaco-list-row', { hasText: 'Only that feed' }).first();
		await failed.locator('.codicon-testing-failed-icon').waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'request-file-run-all-test-explorer');

		// The failure's peek reads as a failure (the expectation at its line), not as XML, and offers
		// the exchange.
		await page.locator('.editor-group-container.active .view-lines').click();
		await runCommand(page, 'Test: Go to Next Test Failure');
		await runCommand(page, 'Test: Peek Output');
		const peek = page.locator('.editor-group-container.active .test-output-peek');
		await peek.waitFor({ state: 'visible', timeout: UI_WAIT });
		await peek
			.getByText(/expect: result\.length == 2 \(line 20\)/)
			.first()
			.waitFor({ timeout: UI_WAIT });
		assert.ok(!(await peek.innerText()).includes('<soap:Envelope'), 'no raw XML in the failure message');
		await screenshot(page, 'request-file-failure-peek');
		await peek.getByText('Show Exchange', { exact: true }).first().click();
		await page
			.locator('.tabs-container .tab', { hasText: 'Exchange of Only that feed' })
			.waitFor({ timeout: UI_WAIT });
		assert.match(await editorText(page), /POST http:\/\/127\.0\.0\.1:\d+\/SOAP\/Posting\.asmx/);
		await screenshot(page, 'request-file-exchange');
	});

	it('chooses an environment from the status bar: its variables fill the requests', async () => {
		fs.writeFileSync(
			path.join(workspaceDir, 'multiposting.env.json'),
			JSON.stringify({
				local: { variables: { culture: 'en-GB', minimum: 1 } },
				staging: { connection: { url: 'https://staging.multiposting.example' } },
			}),
		);
		await openFile(
			page,
			workspaceDir,
			'environment.mpreq',
			[
				'# Multiposting request',
				'',
				'### Currencies in the environment',
				'operation: GetCurrency',
				'param.sCultureID: {{culture}}',
				'param.sAPIKey: {{connection.apiKey}}',
				'expect: result.length >= {{minimum}}',
				'',
			].join('\n'),
		);
		const item = statusBarItem(page, /No environment|local|staging/);
		try {
			// Without an environment the variables have no value.
			await page.locator('.editor-group-container.active .squiggly-error').first().waitFor({ timeout: UI_WAIT });
			await statusBarItem(page, /No environment/).click();
			await page.locator(QUICK_INPUT_ROW, { hasText: 'staging' }).first().waitFor({ timeout: UI_WAIT });
			await page.locator(QUICK_INPUT_ROW, { hasText: 'local' }).first().click();
			await statusBarItem(page, /local/).waitFor({ timeout: UI_WAIT });
			await page
				.locator('.editor-group-container.active .squiggly-error')
				.first()
				.waitFor({ state: 'detached', timeout: UI_WAIT });
			// Sent from the palette with the cursor in the request (the CodeLens route is the tests above).
			await goTo(page, 5, 1);
			await runCommand(page, 'Multiposting: Send Request');
			await notification(page, /GetCurrency \(soap11\): HTTP 200 · 1 of 1 expectations passed/);
			await screenshot(page, 'request-file-environment');
		} finally {
			// The choice is remembered per workspace: put it back for the other tests.
			await item.click();
			await page.locator(QUICK_INPUT_ROW, { hasText: 'No environment' }).first().click();
			fs.rmSync(path.join(workspaceDir, 'multiposting.env.json'), { force: true });
		}
	});
});
