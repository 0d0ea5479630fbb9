// End-to-end tests of the Traffic view in a real VS Code (code-server) against the built-in sandbox,
// in the shared window of test/e2e/session.ts: requests sent by third-party clients (curl, a Python
// script with urllib) show up live with their verdict; a click opens the exchange with its near
// misses and, beside it, the request as sent with the verdict's problems at their lines; filter,
// pause, clear; and the actions on a row.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { QUICK_INPUT, QUICK_INPUT_BOX, QUICK_INPUT_ROW, runCommand, screenshot } from './harness';
import { e2eSession } from './session';
import {
	answerInputBox,
	chooseMenuItem,
	editorTab,
	frameWithText,
	notification,
	runCommandAsking,
	showSandboxTree,
	sleep,
	UI_WAIT,
	webviewFrame,
} from './ui';

const run = promisify(execFile);
const API_KEY = 'sandbox-api-key';
const SERVICE_NS = 'http://sandbox.multiposting.test/';
/** Longer than a new exchange takes to show (a long poll answers on arrival), far shorter than the poll's 20 s wait. */
const LIVE_MS = 5_000;

/** A SOAP 1.1 GetCurrency whose sCultureID (line 5) is unqualified: production ignores it. */
const UNQUALIFIED_SOAP = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body>
    <m:GetCurrency xmlns:m="${SERVICE_NS}">
      <sCultureID>en-GB</sCultureID>
      <m:sAPIKey>${API_KEY}</m:sAPIKey>
    </m:GetCurrency>
  </soap:Body>
</soap:Envelope>`;

/** The same request from a tiny Python client (urllib, standard library only). */
const PYTHON_CLIENT = `
import sys, urllib.request
request = urllib.request.Request(sys.argv[1] + "/SOAP/Posting.asmx", data=sys.stdin.buffer.read(), headers={
    "Content-Type": "text/xml; charset=utf-8", "SOAPAction": '"${SERVICE_NS}GetCurrency"'})
print(urllib.request.urlopen(request).status)
`;

/** The Traffic view's pane in the Multiposting side bar. */
function trafficPane(page: Page): Locator {
	return page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: /^Traffic/i }) });
}

/** The Traffic view's rows whose text matches. */
function trafficRows(page: Page, text?: RegExp): Locator {
	const rows = trafficPane(page).locator('.monaco-list-row');
	return text ? rows.filter({ hasText: text }) : rows;
}

/** The Traffic view's header: its title, and its description (the count) beside it. */
function trafficHeader(page: Page): Locator {
	return trafficPane(page).locator('.pane-header');
}

/** Expands or collapses the Traffic view (it starts collapsed below the Account view). */
async function setTrafficExpanded(page: Page, expanded: boolean): Promise<void> {
	const header = trafficHeader(page);
	const state = String(expanded);
	if ((await header.getAttribute('aria-expanded')) !== state) await header.locator('.title').click();
	await header.and(page.locator(`[aria-expanded="${state}"]`)).waitFor({ timeout: UI_WAIT });
}

/** Shows the view following the built-in sandbox, emptied; returns the sandbox's base URL. */
async function freshTraffic(page: Page): Promise<string> {
	await showSandboxTree(page);
	await setTrafficExpanded(page, true);
	await runCommand(page, 'Multiposting: Clear Traffic');
	await trafficRows(page).first().waitFor({ state: 'detached', timeout: UI_WAIT });
	// Empty, it says where to send a request.
	const message = trafficPane(page).locator('.message', {
		hasText: /^No exchanges yet: send a request to http:\/\/127\.0\.0\.1:\d+$/,
	});
	await message.waitFor({ state: 'visible', timeout: UI_WAIT });
	const url = /http:\/\/127\.0\.0\.1:\d+/.exec((await message.textContent()) ?? '')?.[0];
	assert.ok(url, 'the view says which sandbox it follows');
	return url;
}

/** Sends with curl and returns the HTTP status it got. */
async function curl(args: string[]): Promise<number> {
	const { stdout } = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...args]);
	return Number(stdout);
}

/** Waits for a row to arrive, live, and says how long it took after the client had its answer. */
async function arrives(page: Page, text: RegExp, answeredAt: number): Promise<Locator> {
	const found = trafficRows(page, text).first();
	await found.waitFor({ state: 'visible', timeout: LIVE_MS });
	console.log(`      (${text} showed ${Date.now() - answeredAt} ms after its answer)`);
	return found;
}

describe('traffic view in real VS Code', function () {
	this.timeout(300_000);

	let page: Page;
	let workspaceDir: string;

	before(async function () {
		this.timeout(180_000);
		({
			page,
			server: { workspaceDir },
		} = await e2eSession());
	});

	it('starts collapsed below the account tree, counts exchanges on its header, and shows them expanded', async function () {
		await showSandboxTree(page);
		// Nothing expands it before this test: collapsed is how it starts.
		assert.equal(
			await trafficHeader(page).getAttribute('aria-expanded'),
			'false',
			'the Traffic view starts collapsed',
		);
		const account = page.locator('.part.sidebar .pane', {
			has: page.locator('.pane-header', { hasText: /^Account/i }),
		});
		const accountBox = await account.boundingBox();
		const trafficBox = await trafficPane(page).boundingBox();
		assert.ok(accountBox && trafficBox, 'both views are on screen');
		assert.ok(
			accountBox.height > 5 * trafficBox.height,
			`the tree gets the side bar (${accountBox.height} px, Traffic ${trafficBox.height} px)`,
		);
		await screenshot(page, 'traffic-collapsed');

		const url = await freshTraffic(page);
		await screenshot(page, 'traffic-empty');
		await setTrafficExpanded(page, false);
		assert.equal(await curl([`${url}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${API_KEY}`]), 200);
		assert.equal(await curl([`${url}/SOAP/Posting.asmx/GetCurency?sAPIKey=${API_KEY}`]), 500);
		// Collapsed, it still follows the sandbox: its title counts what arrived.
		await trafficHeader(page)
			.locator('.title', { hasText: 'Traffic · 2 exchanges' })
			.waitFor({ state: 'visible', timeout: LIVE_MS });
		await screenshot(page, 'traffic-collapsed-count');

		await setTrafficExpanded(page, true);
		// Expanded, the count moves to its description.
		await trafficHeader(page)
			.locator('.title', { hasText: /^Traffic$/ })
			.waitFor({ timeout: UI_WAIT });
		await trafficHeader(page)
			.locator('.description', { hasText: '2 exchanges' })
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		await trafficRows(page, /GetCurrency\s*httpGet · 200/)
			.first()
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		await trafficRows(page, /GetCurency\s*httpGet · 500/)
			.first()
			.waitFor({ state: 'visible', timeout: UI_WAIT });
		assert.match((await trafficPane(page).locator('.message').textContent()) ?? '', /^Following http:/);
		await screenshot(page, 'traffic-expanded');
	});

	it('shows what curl sends as it arrives, with the verdict and near misses', async function () {
		const url = await freshTraffic(page);

		assert.equal(await curl([`${url}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${API_KEY}`]), 200);
		const good = await arrives(page, /GetCurrency\s*httpGet · 200/, Date.now());
		assert.equal(await good.locator('.codicon-pass').count(), 1, 'a clean exchange is marked as passed');

		assert.equal(await curl([`${url}/SOAP/Posting.asmx/GetCurency?sCultureID=en-GB&sAPIKey=${API_KEY}`]), 500);
		const misspelt = await arrives(page, /GET …\/Posting\.asmx\/GetCurency\s*httpGet · 500/, Date.now());
		assert.equal(await misspelt.locator('.codicon-error').count(), 1, 'a fault is marked as an error');

		await screenshot(page, 'traffic-live-rows');

		// The misspelt operation: its near miss names the fix.
		await misspelt.click();
		const preview = await frameWithText(page, 'body', /Near misses/);
		const text = (await preview.locator('body').textContent()) ?? '';
		assert.match(text, /Production refuses this request: HTTP 500, Unknown operation GetCurency/);
		assert.match(text, /name the operation GetCurrency/);
		assert.ok(!text.includes(API_KEY), 'the exchange shows the API key');
		await screenshot(page, 'traffic-near-miss');
	});

	it('opens an exchange production ignores a part of, the problem at its line of the request', async function () {
		const url = await freshTraffic(page);
		// A Python script with urllib, when there is a Python; else curl sends the same bytes.
		const python = await new Promise<string | undefined>((resolve) => {
			const child = execFile('python3', ['-c', PYTHON_CLIENT, url], (error, stdout) =>
				resolve(error ? undefined : stdout.trim()),
			);
			child.stdin?.end(UNQUALIFIED_SOAP);
		});
		const status =
			python === undefined
				? await curl([
						'-H',
						'Content-Type: text/xml; charset=utf-8',
						'-H',
						`SOAPAction: "${SERVICE_NS}GetCurrency"`,
						'--data-binary',
						UNQUALIFIED_SOAP,
						`${url}/SOAP/Posting.asmx`,
					])
				: Number(python);
		console.log(`      (sent by ${python === undefined ? 'curl' : 'python3 urllib'})`);
		assert.equal(status, 200);
		const row = await arrives(page, /GetCurrency\s*soap11 · 200/, Date.now());
		await row.click();

		const preview = await frameWithText(page, 'body', /ignores part of it/);
		const text = (await preview.locator('body').textContent()) ?? '';
		// The element's name is shown, not swallowed as an HTML tag.
		assert.match(text, /<sCultureID> is not in the service namespace/);
		assert.match(text, /request line 5: Element 'sCultureID'/);
		// Beside it, the request as sent, the verdict's problems at line 5.
		await editorTab(page, /request as sent/).waitFor({ state: 'visible', timeout: UI_WAIT });
		const squiggle = page.locator('.monaco-editor .squiggly-error').first();
		await squiggle.waitFor({ state: 'attached', timeout: UI_WAIT });
		await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
		const problems = page.locator('.markers-panel .monaco-list-row', { hasText: /Element 'sCultureID'/ });
		await problems.first().waitFor({ state: 'visible', timeout: UI_WAIT });
		assert.match((await problems.first().textContent()) ?? '', /\[Ln 5/);
		// Opened, the row says production ignores a part of it.
		await trafficRows(page, /GetCurrency\s*soap11/)
			.locator('.codicon-warning')
			.waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'traffic-exchange-problems');
		// Closing the request takes its problems away.
		await runCommand(page, 'View: Close All Editors');
		await problems.first().waitFor({ state: 'detached', timeout: UI_WAIT });
		await runCommand(page, 'View: Toggle Panel Visibility');
	});

	it('filters, pauses, resumes and clears', async function () {
		const url = await freshTraffic(page);
		await curl([`${url}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${API_KEY}`]);
		await curl([`${url}/SOAP/Postng.asmx/GetCurrency`]);
		await arrives(page, /GET …\/Postng\.asmx\/GetCurrency\s*- · 404/, Date.now());

		await runCommandAsking(page, 'Multiposting: Filter Traffic…');
		await answerInputBox(page, 'status:4xx');
		await trafficPane(page).locator('.message', { hasText: 'filter: status:4xx' }).waitFor({ timeout: UI_WAIT });
		await trafficRows(page, /· 200 ·/)
			.first()
			.waitFor({ state: 'detached', timeout: UI_WAIT });
		assert.equal(await trafficRows(page, /· 404 ·/).count(), 1);
		await screenshot(page, 'traffic-filtered');
		await runCommand(page, 'Multiposting: Clear Traffic Filter');
		await trafficRows(page, /· 200 ·/)
			.first()
			.waitFor({ state: 'visible', timeout: UI_WAIT });

		await runCommand(page, 'Multiposting: Pause Traffic');
		await trafficPane(page).locator('.message', { hasText: '(paused)' }).waitFor({ timeout: UI_WAIT });
		assert.equal(await curl([`${url}/SOAP/Posting.asmx/GetWeeksToAdvertise?sAPIKey=${API_KEY}`]), 500);
		// Paused: nothing new arrives (the journal keeps it for Resume).
		await sleep(1500);
		assert.equal(await trafficRows(page, /GetWeeksToAdvertise/).count(), 0);
		await runCommand(page, 'Multiposting: Resume Traffic');
		await arrives(page, /Posting\.asmx\/GetWeeksToAdvertise/, Date.now());

		await runCommand(page, 'Multiposting: Clear Traffic');
		await trafficRows(page).first().waitFor({ state: 'detached', timeout: UI_WAIT });
	});

	it('opens an exchange in the playground, copies it as curl, saves it as a request test and compares it', async function () {
		const url = await freshTraffic(page);
		await curl([`${url}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${API_KEY}`]);
		await curl([`${url}/SOAP/Posting.asmx/GetCurrency?sCultureID=fr-FR&sAPIKey=${API_KEY}`]);
		await arrives(page, /GetCurrency\s*httpGet · 200/, Date.now());
		while ((await trafficRows(page, /GetCurrency/).count()) < 2) await sleep(100);
		const row = trafficRows(page, /GetCurrency/).last();

		await row.click({ button: 'right' });
		await chooseMenuItem(page, 'Open in Playground', editorTab(page, /Request Playground/));
		const playground = await webviewFrame(page, '#raw-target');
		assert.equal(await playground.locator('#raw-method').inputValue(), 'GET');
		assert.equal(
			await playground.locator('#raw-target').inputValue(),
			'/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey={{connection.apiKey}}',
		);
		await screenshot(page, 'traffic-open-in-playground');
		await runCommand(page, 'View: Close All Editors');

		await row.click({ button: 'right' });
		await chooseMenuItem(page, 'Copy as curl', page.locator('.notifications-toasts'));
		await notification(page, /Copied as curl: the API key and password are \$MP_API_KEY and \$MP_PASSWORD/);

		const file = path.join(workspaceDir, 'traffic-e2e.mpreq');
		fs.rmSync(file, { force: true });
		await row.click({ button: 'right' });
		await chooseMenuItem(page, 'Save as Request Test…', page.locator(QUICK_INPUT_BOX));
		// code-server's save dialog shows the folder first and completes the suggested name a moment
		// later: a path typed before that is overwritten.
		const box = page.locator(QUICK_INPUT_BOX);
		const shown = Date.now();
		while (!(await box.inputValue()).endsWith('traffic.mpreq') && Date.now() - shown < UI_WAIT) await sleep(200);
		await box.fill(file);
		await page.keyboard.press('Enter');
		await page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: UI_WAIT });
		const started = Date.now();
		while (!fs.existsSync(file) && Date.now() - started < UI_WAIT) await sleep(200);
		const saved = fs.readFileSync(file, 'utf8');
		assert.match(
			saved,
			/expect: status == 200\nexpect: no fault\nexpect: result\.length == \d+\nexpect: result\[0\]\./,
		);
		assert.match(saved, /sAPIKey=\{\{connection\.apiKey\}\}/);
		assert.ok(!saved.includes(API_KEY), 'the saved test holds the API key');
		await editorTab(page, /traffic-e2e\.mpreq/).waitFor({ state: 'visible', timeout: UI_WAIT });
		await screenshot(page, 'traffic-saved-request-test');
		await runCommand(page, 'View: Close All Editors');

		await row.click({ button: 'right' });
		await chooseMenuItem(page, 'Compare with…', page.locator(QUICK_INPUT_ROW).first());
		await page.locator(QUICK_INPUT_ROW).first().click();
		await page.locator(QUICK_INPUT_ROW, { hasText: 'request' }).first().click();
		await editorTab(page, /↔/).waitFor({ state: 'visible', timeout: UI_WAIT });
		// The two requests side by side, differing in their culture.
		const diff = page.locator('.monaco-diff-editor');
		await diff.locator('.view-lines', { hasText: 'sCultureID=en-GB' }).waitFor({ timeout: UI_WAIT });
		await diff.locator('.view-lines', { hasText: 'sCultureID=fr-FR' }).waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'traffic-compare');
	});
});
