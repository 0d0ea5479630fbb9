// End-to-end test of debugging against the live service in a real VS Code (code-server): a second
// sandbox behind HTTPS (a CA made here, trusted through multiposting.inspect.caFile) stands in for
// the live service, loose so that it accepts what the built-in (strict) sandbox refuses: that is the
// drift to find. Inspection starts from the command, curl's requests show up in the Traffic view with
// the verdict and the live answer, three are saved as a recording, the CLI replays it in strict mode
// (a request not recorded fails with its near miss), and the drift report opens.

import * as assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { parseRecording } from '../../src/protocol/recordings/format';
import { httpsFront, makeCertificates, type TestCertificates } from '../builders/certificates';
import { advertPage, LIVE_NAMESPACE, weeksWithUnqualifiedKey } from '../builders/liveRequests';
import { QUICK_INPUT, QUICK_INPUT_BOX, QUICK_INPUT_ROW, runCommand, screenshot } from './harness';
import { e2eSession } from './session';
import {
	addConnection,
	chooseMenuItem,
	editorTab,
	frameWithText,
	notification,
	showSandboxTree,
	sleep,
	statusBarItem,
	UI_WAIT,
} from './ui';

const run = promisify(execFile);
/** The first exchange of a session also starts (and on first use seeds) the built-in sandbox. */
const START_MS = 180_000;
const SANDBOX_CLI = path.resolve(__dirname, '..', '..', '..', 'dist', 'sandbox.js');

function trafficPane(page: Page): Locator {
	return page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: /^Traffic/i }) });
}

function trafficRows(page: Page, text?: RegExp): Locator {
	const rows = trafficPane(page).locator('.monaco-list-row');
	return text ? rows.filter({ hasText: text }) : rows;
}

async function curl(args: string[]): Promise<{ status: number; body: string }> {
	const { stdout } = await run('curl', ['-s', '-w', '\n%{http_code}', ...args]);
	const cut = stdout.lastIndexOf('\n');
	return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

/** The three requests of the integration under test, sent to `base` (the proxy, then the replaying sandbox). */
async function sendTheThree(base: string, apiKey: string): Promise<{ status: number; body: string }[]> {
	return [
		await curl([`${base}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${apiKey}`]),
		// An unqualified sAPIKey: the loose live service accepts it, the strict sandbox does not (the drift).
		await curl([
			'-H',
			'Content-Type: text/xml; charset=utf-8',
			'-H',
			`SOAPAction: "${LIVE_NAMESPACE}GetWeeksToAdvertise"`,
			'--data-binary',
			weeksWithUnqualifiedKey(apiKey),
			`${base}/SOAP/Administration.asmx`,
		]),
		await curl([
			'-H',
			'Content-Type: text/xml; charset=utf-8',
			'-H',
			`SOAPAction: "${LIVE_NAMESPACE}GetAdvertPaged"`,
			'--data-binary',
			advertPage(apiKey),
			`${base}/SOAP/Posting.asmx`,
		]),
	];
}

/** Starts the CLI as a user would; resolves with its ready line. */
async function startCli(args: string[]): Promise<{ child: ChildProcess; ready: Record<string, unknown> }> {
	const child = spawn(process.execPath, [SANDBOX_CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	let err = '';
	child.stderr?.on('data', (piece: Buffer) => (err += piece.toString()));
	const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`the sandbox CLI did not start: ${err}`)), 60_000);
		child.stdout?.on('data', (piece: Buffer) => {
			out += piece.toString();
			const line = out.split('\n')[0];
			if (out.includes('\n')) {
				clearTimeout(timer);
				resolve(JSON.parse(line) as Record<string, unknown>);
			}
		});
		child.once('exit', (code) => reject(new Error(`the sandbox CLI ended (${code}): ${err}`)));
	});
	return { child, ready };
}

describe('debugging against the live service in real VS Code', function () {
	this.timeout(500_000);
	let page: Page;
	let workspaceDir: string;
	let live: RunningEmulator;
	let front: Awaited<ReturnType<typeof httpsFront>>;
	let certificates: TestCertificates;
	let liveLabel: string;

	before(async function () {
		this.timeout(240_000);
		certificates = makeCertificates();
		live = await startEmulator({
			host: '127.0.0.1',
			port: 0,
			dataDir: ':memory:',
			namespace: LIVE_NAMESPACE,
			loose: true,
			seed: 3,
		});
		front = await httpsFront(live, certificates);
		const session = await e2eSession();
		page = session.page;
		workspaceDir = session.server.workspaceDir;
		// The CA the proxy trusts, and any free port for it: workspace settings VS Code reads at once.
		fs.mkdirSync(path.join(workspaceDir, '.vscode'), { recursive: true });
		fs.writeFileSync(
			path.join(workspaceDir, '.vscode', 'settings.json'),
			JSON.stringify({ 'multiposting.inspect.caFile': certificates.caFile, 'multiposting.inspect.port': 0 }),
		);
		liveLabel = await addConnection(page, { ...live.demo, baseUrl: front.baseUrl, namespace: LIVE_NAMESPACE });
	});

	after(async function () {
		// Inspecting reveals the Traffic view: leave it collapsed, as the next suites find it on a fresh start.
		const header = page ? trafficPane(page).locator('.pane-header') : undefined;
		if ((await header?.getAttribute('aria-expanded').catch(() => undefined)) === 'true') {
			await header?.locator('.title').click();
		}
		await front?.close();
		await live?.stop();
		certificates?.remove();
	});

	/** Starts inspecting the live connection from the command; returns the proxy's local URL. */
	async function startInspection(shot?: string): Promise<string> {
		await showSandboxTree(page);
		// No toast of an earlier inspection may stand in for this one's.
		await runCommand(page, 'Notifications: Clear All Notifications');
		await runCommand(page, 'Multiposting: Inspect Traffic to a Connection…');
		const pick = page.locator(QUICK_INPUT_ROW, { hasText: liveLabel }).first();
		await pick.waitFor({ state: 'visible', timeout: UI_WAIT });
		if (shot) await screenshot(page, `${shot}-pick-connection`);
		await pick.click();
		const toast = page
			.locator('.notifications-toasts .notification-list-item-message', { hasText: /point your application at/ })
			.first();
		await toast.waitFor({ state: 'visible', timeout: START_MS });
		const proxyUrl = /(http:\/\/127\.0\.0\.1:\d+)\/SOAP\/Posting\.asmx/.exec(
			(await toast.textContent()) ?? '',
		)?.[1];
		assert.ok(proxyUrl, 'the notification gives the local URL');
		await statusBarItem(page, new RegExp(`Inspecting ${liveLabel.replace(/\./g, '\\.')}`)).waitFor({
			timeout: UI_WAIT,
		});
		if (shot) await screenshot(page, `${shot}-started`);
		return proxyUrl;
	}

	it("inspects the live connection: curl's requests show with the verdict and the live answer; three saved as a recording replay with the CLI (strict: one not recorded fails with its near miss) and drift in the report", async function () {
		const proxyUrl = await startInspection('inspect');
		await runCommand(page, 'Multiposting: Clear Traffic');
		await trafficRows(page).first().waitFor({ state: 'detached', timeout: UI_WAIT });

		const liveAnswers = await sendTheThree(proxyUrl, live.demo.apiKey);
		assert.deepEqual(
			liveAnswers.map((answer) => answer.status),
			[200, 200, 200],
			'the live (loose) service answers all three through the proxy',
		);
		const host = new URL(front.baseUrl).host;
		for (const operation of ['GetCurrency', 'GetWeeksToAdvertise', 'GetAdvertPaged']) {
			await trafficRows(page, new RegExp(`${operation}[\\s\\S]*→ ${host.replace(/\./g, '\\.')}`))
				.first()
				.waitFor({ state: 'visible', timeout: 10_000 });
		}
		await screenshot(page, 'inspect-traffic-rows');

		// The unqualified sAPIKey: the verdict says production refuses it, the live service did not.
		await trafficRows(page, /GetWeeksToAdvertise/)
			.first()
			.click();
		const preview = await frameWithText(page, 'body', /Proxied to/);
		const text = (await preview.locator('body').textContent()) ?? '';
		assert.match(text, /Production refuses this request[\s\S]*sAPIKey/);
		assert.match(
			text,
			new RegExp(
				`Proxied to https://127\\.0\\.0\\.1:\\d+: the verdict above was computed here, before forwarding; the upstream answered HTTP 200, a result of GetWeeksToAdvertise`,
			),
		);
		assert.match(text, /The verdict and the live service disagree/);
		assert.ok(!text.includes(live.demo.apiKey), 'the exchange shows the API key');
		await screenshot(page, 'inspect-exchange-verdict-and-live-answer');
		await runCommand(page, 'View: Close All Editors');

		// The three rows chosen (newest first), saved as a recording.
		const rows = trafficRows(page);
		await rows.nth(0).click();
		await rows.nth(2).click({ modifiers: ['Shift'] });
		const recordingFile = path.join(workspaceDir, 'live-e2e.mprec.json');
		fs.rmSync(recordingFile, { force: true });
		await rows.nth(1).click({ button: 'right' });
		await chooseMenuItem(page, 'Save as Recording…', page.locator(QUICK_INPUT_BOX));
		const box = page.locator(QUICK_INPUT_BOX);
		const shown = Date.now();
		while (!(await box.inputValue()).endsWith('.mprec.json') && Date.now() - shown < UI_WAIT) await sleep(200);
		await box.fill(recordingFile);
		await page.keyboard.press('Enter');
		await page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: UI_WAIT });
		const started = Date.now();
		while (!fs.existsSync(recordingFile) && Date.now() - started < UI_WAIT) await sleep(200);
		const saved = fs.readFileSync(recordingFile, 'utf8');
		const recording = parseRecording(saved, recordingFile);
		assert.deepEqual(
			recording.exchanges.map((exchange) => exchange.operation),
			['GetCurrency', 'GetWeeksToAdvertise', 'GetAdvertPaged'],
		);
		assert.equal(recording.namespace, LIVE_NAMESPACE);
		assert.equal(recording.upstream, front.baseUrl);
		assert.ok(!saved.includes(live.demo.apiKey), 'the recording holds the API key');
		assert.match(saved, /\{\{connection\.apiKey\}\}/);
		assert.deepEqual(
			recording.exchanges.map((exchange) => exchange.response.body),
			liveAnswers.map((answer) => answer.body),
			'the recorded answers are the bytes the client got',
		);
		await editorTab(page, /live-e2e\.mprec\.json/).waitFor({ state: 'visible', timeout: UI_WAIT });
		await screenshot(page, 'inspect-saved-recording');

		// Replayed by the CLI in strict mode, as a CI job would.
		const data = fs.mkdtempSync(path.join(os.tmpdir(), 'mpw-replay-'));
		const { child, ready } = await startCli(['--port', '0', '--data', data, '--replay', recordingFile]);
		try {
			const base = String(ready.baseUrl);
			assert.equal(ready.namespace, LIVE_NAMESPACE, "the sandbox takes the recording's namespace");
			const replayed = await sendTheThree(base, 'whatever-key-the-ci-has');
			assert.deepEqual(replayed, liveAnswers, 'the same bytes as the live service, whatever the key');
			const unmatched = await curl([`${base}/SOAP/Posting.asmx/GetCurrency?sCultureID=fr-FR&sAPIKey=k`]);
			assert.equal(unmatched.status, 500);
			assert.match(
				unmatched.body,
				/Not in the recording \(strict replay\); the closest recorded request is live-e2e\.mprec\.json #\d+, where sCultureID: "fr-FR" sent, "en-GB" recorded\./,
			);
			const journal = JSON.parse((await curl([`${base}/__admin/requests?limit=1`])).body) as {
				requests: { id: number }[];
			};
			const detail = JSON.parse((await curl([`${base}/__admin/requests/${journal.requests[0].id}`])).body) as {
				verdict: { nearMisses: { kind: string; differs: string }[] };
			};
			assert.equal(detail.verdict.nearMisses[0].kind, 'recording');
			assert.match(detail.verdict.nearMisses[0].differs, /sCultureID/);
		} finally {
			child.kill('SIGTERM');
			await new Promise((resolve) => child.once('exit', resolve));
			fs.rmSync(data, { recursive: true, force: true });
		}

		// The drift report: the one request the strict sandbox refuses drifts, both answers side by side.
		await runCommand(page, 'View: Close All Editors');
		await runCommand(page, 'Multiposting: Check Drift of a Recording against the Sandbox');
		const row = page.locator(QUICK_INPUT_ROW, { hasText: 'live-e2e.mprec.json' }).first();
		await row.waitFor({ state: 'visible', timeout: UI_WAIT });
		await row.click();
		const report = await frameWithText(page, 'body', /Drift of live-e2e\.mprec\.json/);
		const reportText = (await report.locator('body').textContent()) ?? '';
		assert.match(reportText, /1 of 3 exchanges answer in another shape/);
		assert.match(reportText, /#\d+ GetWeeksToAdvertise · soap11/);
		assert.match(reportText, /status.*200.*500/s);
		await screenshot(page, 'drift-report');
		const toast = await notification(
			page,
			/Drift: 1 of 3 exchanges of live-e2e\.mprec\.json answer in another shape/,
		);
		await toast
			.locator('xpath=ancestor::div[contains(@class,"notification-list-item")]')
			.locator('.monaco-button', { hasText: 'Compare Answers…' })
			.click();
		await editorTab(page, /live service ↔ sandbox/).waitFor({ state: 'visible', timeout: UI_WAIT });
		const diff = page.locator('.monaco-diff-editor');
		await diff.locator('.view-lines', { hasText: 'HTTP 200' }).waitFor({ timeout: UI_WAIT });
		await diff.locator('.view-lines', { hasText: 'HTTP 500' }).waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'drift-compare-answers');
		await runCommand(page, 'View: Close All Editors');
		await runCommand(page, 'Multiposting: Stop Inspecting');
		await statusBarItem(page, /Inspecting/).waitFor({ state: 'hidden', timeout: UI_WAIT });
	});

	it('holds a request at a breakpoint, sends it on edited; replays a recording from VS Code and turns replay off', async function () {
		const proxyUrl = await startInspection();
		await runCommand(page, 'Multiposting: Add Breakpoint…');
		const operationRow = page.locator(QUICK_INPUT_ROW, { hasText: /^GetCurrency/ }).first();
		await page.locator(QUICK_INPUT_BOX).fill('GetCurrency');
		await operationRow.waitFor({ state: 'visible', timeout: UI_WAIT });
		await operationRow.click();
		await notification(page, /Breakpoint on .*GetCurrency/);
		await statusBarItem(page, /1 breakpoint/).waitFor({ timeout: UI_WAIT });

		// The application's request is held: its query opens as an editable document.
		const answer = curl([`${proxyUrl}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${live.demo.apiKey}`]);
		await editorTab(page, /Held \d+ GetCurrency/).waitFor({ state: 'visible', timeout: UI_WAIT });
		const editor = page.locator('.editor-instance .monaco-editor', { hasText: 'sCultureID=en-GB' }).first();
		await editor.waitFor({ state: 'visible', timeout: UI_WAIT });
		assert.ok(
			!((await editor.textContent()) ?? '').includes(live.demo.apiKey),
			'the held request shows the API key',
		);
		await screenshot(page, 'breakpoint-held-request');
		// The decoded view opens beside; the focus stays on the request to edit.
		await editorTab(page, /Preview Held \d+ GetCurrency/).waitFor({ state: 'visible', timeout: UI_WAIT });
		await editor.click();
		await page.keyboard.press('Control+H');
		const replaceBox = page.locator('.find-widget.visible .replace-part textarea').first();
		await replaceBox.waitFor({ state: 'visible', timeout: UI_WAIT });
		await page.keyboard.type('en-GB');
		await replaceBox.click();
		await replaceBox.fill('fr-FR');
		await replaceBox.press('Control+Alt+Enter');
		await page
			.locator('.editor-instance .monaco-editor', { hasText: 'sCultureID=fr-FR' })
			.first()
			.waitFor({ timeout: UI_WAIT });
		await page.keyboard.press('Escape');
		await runCommand(page, 'Multiposting: Send On');
		const sent = await answer;
		assert.equal(sent.status, 200);
		assert.match(sent.body, /<CultureID>fr-FR<\/CultureID>/, 'the live service answered the edited request');
		// The request and its decoded view both close once it is decided.
		await editorTab(page, /Held \d+ GetCurrency/)
			.first()
			.waitFor({ state: 'detached', timeout: UI_WAIT });
		await runCommand(page, 'Multiposting: Clear Breakpoints');
		await statusBarItem(page, /breakpoint/).waitFor({ state: 'hidden', timeout: UI_WAIT });
		await runCommand(page, 'Multiposting: Stop Inspecting');

		// A recording made with the CLI's --record, replayed by the built-in sandbox from VS Code.
		const recordingFile = path.join(workspaceDir, 'replay-e2e.mprec.json');
		fs.rmSync(recordingFile, { force: true });
		const data = fs.mkdtempSync(path.join(os.tmpdir(), 'mpw-record-'));
		const recorder = await startCli([
			'--port',
			'0',
			'--data',
			data,
			'--proxy-to',
			front.baseUrl,
			'--proxy-ca',
			certificates.caFile,
			'--proxy-port',
			'0',
			'--record',
			recordingFile,
		]);
		let recorded: { status: number; body: string };
		try {
			recorded = await curl([
				`${String(recorder.ready.proxyUrl)}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${live.demo.apiKey}`,
			]);
		} finally {
			recorder.child.kill('SIGTERM');
			await new Promise((resolve) => recorder.child.once('exit', resolve));
			fs.rmSync(data, { recursive: true, force: true });
		}
		assert.equal(parseRecording(fs.readFileSync(recordingFile, 'utf8'), recordingFile).exchanges.length, 1);

		await runCommand(page, 'Multiposting: Replay a Recording…');
		const fileRow = page.locator(QUICK_INPUT_ROW, { hasText: 'replay-e2e.mprec.json' }).first();
		await fileRow.waitFor({ state: 'visible', timeout: UI_WAIT });
		await fileRow.click();
		await page.keyboard.press('Enter');
		const strictRow = page.locator(QUICK_INPUT_ROW, { hasText: /^Strict/ }).first();
		await strictRow.waitFor({ state: 'visible', timeout: UI_WAIT });
		await strictRow.click();
		await notification(page, /The sandbox answers from replay-e2e\.mprec\.json \(strict\): 1 recorded exchanges/);
		const replaying = statusBarItem(page, /Replaying replay-e2e\.mprec\.json \(strict\)/);
		await replaying.waitFor({ timeout: UI_WAIT });
		await screenshot(page, 'replay-status-bar');

		const sandboxUrl = /^Following (http:\/\/127\.0\.0\.1:\d+)$/.exec(
			((await trafficPane(page).locator('.message').first().textContent()) ?? '').trim(),
		)?.[1];
		assert.ok(sandboxUrl, 'the Traffic view names the sandbox it follows');
		const replayed = await curl([`${sandboxUrl}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=any`]);
		assert.deepEqual(replayed, recorded, 'the built-in sandbox answers the recorded bytes');
		const unmatched = await curl([`${sandboxUrl}/SOAP/Posting.asmx/GetCurrency?sCultureID=de-DE&sAPIKey=any`]);
		assert.equal(unmatched.status, 500);
		assert.match(unmatched.body, /Not in the recording \(strict replay\)/);

		await replaying.click();
		await page.locator(QUICK_INPUT_ROW, { hasText: 'Turn Replay Off' }).first().click();
		await notification(page, /Replay is off: the sandbox answers every request itself/);
		await replaying.waitFor({ state: 'hidden', timeout: UI_WAIT });
		const own = await curl([`${sandboxUrl}/SOAP/Posting.asmx/GetCurrency?sCultureID=de-DE&sAPIKey=any`]);
		assert.match(own.body, /sAPIKey is not valid/, 'the sandbox answers itself again');
	});

	it('stops inspecting from the status bar', async function () {
		await startInspection();
		const item = statusBarItem(page, /Inspecting/);
		await item.waitFor({ state: 'visible', timeout: UI_WAIT });
		await item.click();
		await screenshot(page, 'stop-menu');
		await page.locator(QUICK_INPUT_ROW, { hasText: 'Stop Inspecting' }).first().click();
		await notification(page, /Stopped inspecting .*: point your application back at https:\/\/127\.0\.0\.1/);
		await item.waitFor({ state: 'hidden', timeout: UI_WAIT });
	});
});
