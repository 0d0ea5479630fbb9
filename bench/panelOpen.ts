/**
 * The panel-open time in the real VS Code: code-server with the packaged extension, driven by headless
 * Chromium (the e2e harness), the sandbox's tree expanded to an advert's applications. Each repetition
 * closes every editor, clicks an application row (a new preview panel is created) and then another
 * one (the preview is reused), and times click → content: from the pointer press in the workbench to
 * the page's performance mark `multiposting:application:<id>` for that application. A new panel's time
 * is split where the webview's own frames say: VS Code creating the webview (click → its outer frame
 * starts), VS Code's webview bootstrap (→ the panel's document received: service worker, host
 * handshake) and the page itself (→ content drawn). One unrecorded round first (the session's first
 * webview also installs code-server's service worker). Adverts are timed the same way, beside them: an
 * advert row clicked (a new preview), then another (reused), to the mark `multiposting:advert:<id>`
 * (the header drawn from the row) and `multiposting:advert-complete:<id>` (values and delivery log).
 *
 *   node out/bench/panelOpen.js [--reps 5]      (MPW_VSIX=<file> to use a packaged .vsix)
 *
 * The .vsix is packaged into a temporary folder unless MPW_VSIX names one. Figures are printed, never
 * asserted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Frame, Page } from 'playwright-core';
import {
	activityBarItem,
	codeServerBin,
	openWorkbench,
	runCommand,
	startCodeServer,
	type CodeServerHandle,
	type Workbench,
} from '../test/e2e/harness';
import { E2E_SETTINGS } from '../test/e2e/session';
import { armInputClock, inputTime, revealApplications, row, sleep } from '../test/e2e/ui';
import { describeMachine, fmt, median, table, type Section } from './common';

const ROOT = join(__dirname, '..', '..');
const MARK = 'multiposting:application:';
const ADVERT_MARK = 'multiposting:advert:';
const ADVERT_COMPLETE_MARK = 'multiposting:advert-complete:';
/** How often the frames are looked at: rarely enough not to slow the panel down (times come from marks). */
const POLL_MS = 100;
const WAIT_MS = 30_000;

export interface PanelOpenFigures {
	/** click → content, new panel; and its parts. */
	created: number[];
	webviewCreated: number[];
	documentReceived: number[];
	/** click → content, preview reused. */
	reused: number[];
	/** The same for adverts: click → the header from the row, and → everything (values, delivery log). */
	advertCreated: number[];
	advertReused: number[];
	advertCreatedComplete: number[];
	advertReusedComplete: number[];
}

interface FrameTimes {
	/** Wall-clock times (ms since the epoch). */
	content: number;
	documentReceived: number;
	webviewStarted?: number;
}

/** The webview frame that marked an application's content at or after `after`, with its timings. */
async function contentFrame(page: Page, after: number, mark = MARK): Promise<{ frame: Frame; times: FrameTimes }> {
	const deadline = Date.now() + WAIT_MS;
	while (Date.now() < deadline) {
		for (const frame of page.frames()) {
			if (frame === page.mainFrame() || frame.isDetached()) continue;
			const times = await frame
				.evaluate(
					([prefix, t]) => {
						const content = performance
							.getEntriesByType('mark')
							.filter((m) => m.name.startsWith(prefix))
							.map((m) => performance.timeOrigin + m.startTime)
							.filter((at) => at >= t - 1)
							.sort((a, b) => a - b)[0];
						const nav = performance.getEntriesByType('navigation')[0] as
							| PerformanceNavigationTiming
							| undefined;
						return content === undefined
							? undefined
							: { content, documentReceived: performance.timeOrigin + (nav?.responseEnd ?? 0) };
					},
					[mark, after] as const,
				)
				.catch(() => undefined);
			if (!times) continue;
			// The panel's document sits in the frame VS Code made for the webview.
			const outer = frame.parentFrame();
			const webviewStarted =
				outer && outer !== page.mainFrame()
					? await outer.evaluate(() => performance.timeOrigin).catch(() => undefined)
					: undefined;
			return { frame, times: { ...times, webviewStarted } };
		}
		await sleep(POLL_MS);
	}
	throw new Error(`no ${mark} content within ${WAIT_MS} ms of the click`);
}

/** Clicks a row and returns when (wall clock) the click happened and the content frame's times. */
async function clickAndTime(
	page: Page,
	click: () => Promise<void>,
	mark = MARK,
): Promise<{ clickedAt: number; times: FrameTimes }> {
	await armInputClock(page);
	await click();
	let clickedAt: number | undefined;
	for (let i = 0; i < 50 && clickedAt === undefined; i++) {
		clickedAt = await inputTime(page);
		if (clickedAt === undefined) await sleep(20);
	}
	if (clickedAt === undefined) throw new Error('the click was not seen by the workbench');
	const { times } = await contentFrame(page, clickedAt, mark);
	return { clickedAt, times };
}

function packageVsix(dir: string): string {
	const file = join(dir, 'multiposting-workbench.vsix');
	const vsce = join(ROOT, 'node_modules', '.bin', 'vsce');
	execFileSync(
		vsce,
		[
			'package',
			'--no-dependencies',
			'--allow-missing-repository',
			'--skip-license',
			'--no-rewrite-relative-links',
			'-o',
			file,
		],
		{
			cwd: ROOT,
			stdio: 'ignore',
		},
	);
	return file;
}

export async function measurePanelOpen(log: (line: string) => void, reps: number): Promise<PanelOpenFigures> {
	codeServerBin();
	const temp = mkdtempSync(join(tmpdir(), 'mp-bench-panel-'));
	let server: CodeServerHandle | undefined;
	let wb: Workbench | undefined;
	try {
		const vsix =
			process.env.MPW_VSIX && existsSync(process.env.MPW_VSIX) ? process.env.MPW_VSIX : packageVsix(temp);
		server = await startCodeServer({ vsixPath: vsix, settings: { ...E2E_SETTINGS } });
		wb = await openWorkbench(server);
		const page = wb.page;
		await activityBarItem(page, 'Multiposting').waitFor({ state: 'visible', timeout: 60_000 });
		const apps = await revealApplications(page);
		const figures: PanelOpenFigures = {
			created: [],
			webviewCreated: [],
			documentReceived: [],
			reused: [],
			advertCreated: [],
			advertReused: [],
			advertCreatedComplete: [],
			advertReusedComplete: [],
		};
		for (let round = 0; round <= reps; round++) {
			await runCommand(page, 'View: Close All Editors');
			await sleep(1000);
			const created = await clickAndTime(page, () => apps.nth(0).click());
			await sleep(500);
			const reused = await clickAndTime(page, () => apps.nth(1).click());
			if (round === 0) continue;
			const { clickedAt, times } = created;
			figures.created.push(times.content - clickedAt);
			if (times.webviewStarted !== undefined) figures.webviewCreated.push(times.webviewStarted - clickedAt);
			figures.documentReceived.push(times.documentReceived - clickedAt);
			figures.reused.push(reused.times.content - reused.clickedAt);
			log(
				`  panel open ${round}/${reps}: new ${fmt(times.content - clickedAt)} ms, reused ${fmt(reused.times.content - reused.clickedAt)} ms`,
			);
		}
		const adverts = row(page, 4, /\d+ applications?/);
		// The advert opened for the applications is collapsed again, so that the next advert stays on screen
		// (the Account view shares the side bar with the Traffic view).
		const expanded = adverts.and(page.locator('[aria-expanded="true"]')).first();
		await expanded.locator('.monaco-tl-twistie').click();
		await expanded.waitFor({ state: 'detached', timeout: 10_000 });
		for (let round = 0; round <= reps; round++) {
			await runCommand(page, 'View: Close All Editors');
			await sleep(1000);
			const created = await clickAndTime(page, () => adverts.nth(0).click(), ADVERT_MARK);
			const createdComplete = await contentFrame(page, created.clickedAt, ADVERT_COMPLETE_MARK);
			await sleep(500);
			const reused = await clickAndTime(page, () => adverts.nth(1).click(), ADVERT_MARK);
			const reusedComplete = await contentFrame(page, reused.clickedAt, ADVERT_COMPLETE_MARK);
			if (round === 0) continue;
			figures.advertCreated.push(created.times.content - created.clickedAt);
			figures.advertReused.push(reused.times.content - reused.clickedAt);
			figures.advertCreatedComplete.push(createdComplete.times.content - created.clickedAt);
			figures.advertReusedComplete.push(reusedComplete.times.content - reused.clickedAt);
			log(
				`  advert panel open ${round}/${reps}: new ${fmt(created.times.content - created.clickedAt)} ms, reused ${fmt(reused.times.content - reused.clickedAt)} ms`,
			);
		}
		return figures;
	} finally {
		await wb?.close();
		await server?.stop();
		rmSync(temp, { recursive: true, force: true });
	}
}

function spread(values: number[]): string {
	if (values.length === 0) return '—';
	return `${fmt(median(values))} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`;
}

/** The section for bench/run.ts; says why when code-server is not there. */
export async function runPanelOpenBenchmark(log: (line: string) => void, reps: number): Promise<Section> {
	const title = 'Panel open in VS Code (code-server): click → content';
	let figures: PanelOpenFigures;
	try {
		figures = await measurePanelOpen(log, reps);
	} catch (error) {
		const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
		log(`  panel open: not measured (${reason})`);
		return { title, body: `Not measured: ${reason}.` };
	}
	const { created, webviewCreated, documentReceived, reused } = figures;
	const { advertCreated, advertReused, advertCreatedComplete, advertReusedComplete } = figures;
	const part = (to: number[], from: number[]) => to.map((t, i) => t - (from[i] ?? 0));
	const rows = [
		['new panel: click → content', spread(created)],
		['… click → VS Code has created the webview frame', spread(webviewCreated)],
		[
			'… → the panel document received (VS Code’s webview bootstrap: service worker, host handshake)',
			webviewCreated.length === documentReceived.length ? spread(part(documentReceived, webviewCreated)) : '—',
		],
		['… → content drawn (the page: parse, bundle, first view)', spread(part(created, documentReceived))],
		['preview reused: click → content', spread(reused)],
		['advert, new panel: click → header (from the row)', spread(advertCreated)],
		['advert, new panel: click → values and delivery log', spread(advertCreatedComplete)],
		['advert, preview reused: click → header (from the row)', spread(advertReused)],
		['advert, preview reused: click → values and delivery log', spread(advertReusedComplete)],
	];
	const body = [
		`code-server with the packaged (production) extension, headless Chromium, the sandbox's tree; ${created.length} repetitions after one unrecorded round, medians (min–max). Each repetition closes every editor, clicks an application (a new preview panel) then another (the preview shows it in place). Times run from the pointer press in the workbench to the page's performance mark for that application; a new panel's parts come from its frames' own timings. Adverts the same way, to the header drawn from the row and to the values and delivery log.`,
		'',
		table(['Step', 'ms'], rows),
	].join('\n');
	return { title, body };
}

if (require.main === module) {
	const { values } = parseArgs({ options: { reps: { type: 'string', default: '5' } } });
	const log = (line: string): void => console.log(line);
	log(`machine: ${describeMachine()}`);
	runPanelOpenBenchmark(log, Math.max(1, Math.min(50, Number(values.reps) || 5))).then(
		(section) => {
			console.log(`\n### ${section.title}\n\n${section.body}`);
			process.exit(0);
		},
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
