// End-to-end test of "Compare with connection…" in a real VS Code (code-server): the built-in
// sandbox beside a second sandbox started here, standing in for the live service (its own
// namespace, a quota scenario so its answer differs). The second connection is added with the
// Add Connection wizard, so its API key lives in SecretStorage only.

import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { libraryScenario } from '../../src/emulator/scenarios/library';
import { QUICK_INPUT, QUICK_INPUT_ROW, runCommand, screenshot } from './harness';
import { e2eSession } from './session';
import { addConnection, goTo, notification, openFile, UI_WAIT } from './ui';

/** The first exchange of a session also starts (and on first use seeds) the built-in sandbox. */
const SEND_TIMEOUT_MS = 180_000;
const LIVE_NAMESPACE = 'https://live.example.com/';

describe('compare with connection in real VS Code', function () {
	this.timeout(400_000);
	let page: Page;
	let workspaceDir: string;
	let live: RunningEmulator;
	let liveLabel: string;

	before(async function () {
		this.timeout(240_000);
		live = await startEmulator({ host: '127.0.0.1', port: 0, dataDir: ':memory:', namespace: LIVE_NAMESPACE });
		live.scenarios.activate(libraryScenario('quota-exhausted-on-one-board')!);
		const session = await e2eSession();
		page = session.page;
		workspaceDir = session.server.workspaceDir;
		liveLabel = await addConnection(page, { ...live.demo, baseUrl: live.baseUrl, namespace: LIVE_NAMESPACE });
	});

	after(async function () {
		await live?.stop();
	});

	/** Chooses the live connection in the picker "Compare … with which connection?". */
	async function pickLive(): Promise<void> {
		const row = page.locator(QUICK_INPUT_ROW, { hasText: liveLabel }).first();
		await row.waitFor({ state: 'visible', timeout: UI_WAIT });
		await screenshot(page, 'compare-connection-picker');
		await row.click();
		await page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: UI_WAIT });
	}

	/** Opens a request file of one request (its `###` line first) and compares it with the live connection. */
	async function compareRequestOfFile(name: string, request: string[]): Promise<void> {
		await openFile(page, workspaceDir, name, ['# Multiposting request', '', ...request, ''].join('\n'));
		await goTo(page, 4, 1);
		await runCommand(page, 'Multiposting: Compare Request with Connection…');
		await pickLive();
	}

	/** How many ApplicationScore requests the live connection has received. */
	const liveScores = (): number => live.journal?.list({ operation: 'ApplicationScore' }).length ?? 0;

	it('compares a playground call with the live connection: differences listed, masked payloads in a diff editor', async function () {
		await runCommand(page, 'Multiposting: Open Request Playground');
		const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
		await frame.locator('#operation').waitFor({ timeout: UI_WAIT });
		await frame.locator('#operation').selectOption('UserFeedsAndQuotaWithDestinations');
		await frame.locator('label[for="mode-form"]').click();
		await frame.locator('#more').click();
		await frame.locator('#more-compare-connection').click();
		await pickLive();
		await frame
			.locator('#comparison h3', { hasText: 'Connection comparison' })
			.waitFor({ timeout: SEND_TIMEOUT_MS });
		await frame.locator('#send:not([disabled])').waitFor({ timeout: SEND_TIMEOUT_MS });
		const comparison = (await frame.locator('#comparison').textContent()) ?? '';
		assert.match(comparison, /PostingsUsed: "\d+" vs "\d+"/);
		assert.doesNotMatch(comparison, /FeedID:/, 'identifiers are not compared');
		await page.locator('.tabs-container .tab', { hasText: `payload (${liveLabel})` }).waitFor({ timeout: UI_WAIT });
		await page.locator('.monaco-diff-editor').first().waitFor({ timeout: UI_WAIT });
		const diff = await page.locator('.monaco-diff-editor').first().innerText();
		assert.match(diff.replace(/\u00a0/g, ' '), /\[id\]/);
		await screenshot(page, 'compare-connection-playground');
		await frame.locator('#comparison').scrollIntoViewIfNeeded();
		await screenshot(page, 'compare-connection-playground-differences');
		await runCommand(page, 'View: Close All Editors');
	});

	it('asks before a playground call that changes data goes to the live connection; cancelled, it goes nowhere', async function () {
		const before = liveScores();
		await runCommand(page, 'Multiposting: Open Request Playground');
		const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
		await frame.locator('#operation').waitFor({ timeout: UI_WAIT });
		await frame.locator('#operation').selectOption('ApplicationScore');
		await frame.locator('label[for="mode-form"]').click();
		const compare = async (): Promise<void> => {
			await frame.locator('#more').click();
			await frame.locator('#more-compare-connection').click();
			await pickLive();
		};
		// A call that cannot be sent gets its error, not the question.
		await compare();
		await frame.locator('#notice', { hasText: 'Give the application' }).waitFor({ timeout: UI_WAIT });
		assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no question for a call with an error');
		await frame.locator('#param-sAdvertID').fill('999999');
		await frame.locator('#param-sAdvertCandidateID').fill('1');
		await frame.locator('#param-sScore').selectOption('S');
		await compare();
		const box = page.locator('.monaco-dialog-box');
		await box.waitFor({ state: 'visible', timeout: UI_WAIT });
		const question = (await box.innerText()).replace(/\s+/g, ' ');
		assert.match(question, /ApplicationScore changes data\. Send it to .* too\?/);
		assert.match(question, /may be a live account: the call does there what it does here/);
		await screenshot(page, 'compare-connection-playground-write-question');
		await box.locator('.dialog-buttons .monaco-button', { hasText: 'Cancel' }).click();
		await frame
			.locator('#notice', {
				hasText: `Not compared: ApplicationScore changes data and was not sent to ${liveLabel}.`,
			})
			.waitFor({ timeout: UI_WAIT });
		assert.equal(liveScores(), before, 'nothing reached the live connection');
		await runCommand(page, 'View: Close All Editors');
	});

	it('compares a request of a file with the live connection from the palette', async function () {
		await compareRequestOfFile('compare.mpreq', [
			'### Feeds of the user',
			'operation: UserFeedsAndQuotaWithDestinations',
			'param.sCultureID: en-GB',
			'param.sAPIKey: {{connection.apiKey}}',
			'param.sUsername: {{connection.username}}',
			'param.sPassword: {{connection.password}}',
			'expect: no fault',
		]);
		await notification(
			page,
			new RegExp(
				`Feeds of the user: ${liveLabel.replace(/\./g, '\\.')} answers differently from Sandbox \\(\\d+ difference\\(s\\)\\)`,
			),
		);
		await page
			.locator('.tabs-container .tab', { hasText: `Feeds of the user payload (${liveLabel})` })
			.waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'compare-connection-request-file');
	});

	it('asks before a write goes to the live connection, and with Reads Only sends it to the active one only', async function () {
		const before = liveScores();
		await compareRequestOfFile('write.mpreq', [
			'### Score an application of no advert of ours',
			'operation: ApplicationScore',
			'param.sCultureID: en-GB',
			'param.sAPIKey: {{connection.apiKey}}',
			'param.sUsername: {{connection.username}}',
			'param.sPassword: {{connection.password}}',
			'param.sAdvertID: 999999',
			'param.sAdvertCandidateID: 1',
			'param.sScore: S',
			'expect: fault',
		]);
		const box = page.locator('.monaco-dialog-box');
		await box.waitFor({ state: 'visible', timeout: UI_WAIT });
		const question = (await box.innerText()).replace(/\s+/g, ' ');
		assert.match(
			question,
			new RegExp(`ApplicationScore changes data\\. Send it to ${liveLabel.replace(/\./g, '\\.')} too\\?`),
		);
		assert.match(question, /may be a live account/);
		await screenshot(page, 'compare-connection-writes-question');
		await box.locator('.dialog-buttons .monaco-button', { hasText: 'Reads Only' }).click();
		await notification(
			page,
			new RegExp(
				`Score an application of no advert of ours: not sent to ${liveLabel.replace(/\./g, '\\.')}: ApplicationScore changes data`,
			),
		);
		assert.equal(liveScores(), before, 'the live connection received no ApplicationScore');
		await screenshot(page, 'compare-connection-reads-only');
	});
});
