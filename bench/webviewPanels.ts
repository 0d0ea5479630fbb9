/**
 * The webview bundles as shipped: each one's size (raw and gzip) and, in headless Chromium, the time
 * from the page's start to the script asking for its data ('ready') and to the first data on screen,
 * with the host's answer given at once (what is left is the webview's own cost). The application
 * panel is also measured with pdf.js evaluated up front, as before the viewer became a bundle of its
 * own, so one run shows both; and the PDF viewer's on-demand load is timed.
 *
 *   node out/bench/webviewPanels.js [--reps 7] [--json bench/webview-panels.json]
 *
 * `runWebviewBenchmarks` returns a Section for bench/run.ts. Figures are printed, never asserted.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { buildAdvertView, buildApplicationView } from '../src/extension/panels/models';
import { buildShell } from '../src/extension/webviews/shell';
import { advertFormFields, type FeedOption } from '../src/shared/advertForm';
import { describeMachine, fmt, median, table, type Section } from './common';

const ROOT = join(__dirname, '..', '..');
const ORIGIN = 'http://bench.invalid';
const PANELS = ['application', 'advert', 'createAdvert', 'playground'] as const;

/** What the host would answer to 'ready', and the performance mark the panel sets when it shows it. */
function answer(panel: (typeof PANELS)[number]): { message: unknown; mark?: string } {
	switch (panel) {
		case 'application':
			return {
				message: {
					type: 'application',
					view: buildApplicationView({
						AdvertID: 1001,
						AdvertCandidateID: 5003,
						FirstName: 'Ada',
						LastName: 'Lovelace',
						EmailAddress: 'ada@example.com',
						AdvertTitle: 'Staff nurse',
						FeedName: 'Totaljobs',
						Score: 2,
						ProgressID: 2,
						Progress: 'Reviewed',
						ApplicationDate: '2026-05-01T10:00:00Z',
					}),
				},
				mark: 'multiposting:application:5003',
			};
		case 'advert':
			return {
				message: {
					type: 'advert',
					view: buildAdvertView({
						AdvertID: 1001,
						AdvertTitle: 'Staff nurse',
						AdvertType: 'P',
						Applications: 40,
						Suitable: 10,
						JobDescription: '<p>Caring for patients on a <b>busy</b> ward.</p>'.repeat(20),
					}),
				},
				mark: 'multiposting:advert:1001',
			};
		case 'createAdvert': {
			const feeds: FeedOption[] = Array.from({ length: 15 }, (_, i) => ({
				feedId: 100 + i,
				name: `Job board ${i + 1}`,
				forced: i < 2,
				preselected: i < 4,
				minLength: 100,
				maxLength: 4000,
				quota: 50,
				used: i,
				cost: 25,
				currency: 'GBP',
				costType: 'Posting',
			}));
			return { message: { type: 'init', fields: advertFormFields(), feeds, values: {} } };
		}
		default:
			return { message: undefined };
	}
}

/**
 * The shell the extension writes (src/extension/webviews/shell.ts): the bundle inlined under the nonce,
 * and for a detail panel the first view in the HTML, as a new panel gets it.
 */
function shippedShell(dir: string, script: string, lazy: string[], initial: unknown): string {
	return buildShell({
		nonce: 'benchnonce',
		cspSource: ORIGIN,
		title: script,
		script: { href: `${ORIGIN}/${script}.js`, text: readFileSync(join(dir, `${script}.js`), 'utf8') },
		styles: [],
		lazyScripts: lazy.map((name) => ({ name, href: `${ORIGIN}/${name}.js` })),
		initialMessages: script === 'application' || script === 'advert' ? [initial] : undefined,
	});
}

/** The shell before: strict CSP with a nonce, the bundle by address (and pdf.js evaluated first, when `eager`). */
function shell(script: string, lazy: string[], eager: string[] = []): string {
	const nonce = 'benchnonce';
	const csp = `default-src 'none'; script-src 'nonce-${nonce}' ${ORIGIN}; style-src ${ORIGIN}; img-src ${ORIGIN} data: blob:; frame-src 'self' data: blob:`;
	const lazyAttrs = lazy.map((name) => ` data-script-${name}="${ORIGIN}/${name}.js"`).join('');
	const eagerTags = eager.map((name) => `<script nonce="${nonce}" src="${ORIGIN}/${name}.js"></script>`).join('');
	return `<!DOCTYPE html><html><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="${csp}"></head><body><div id="root"></div>${eagerTags}<script nonce="${nonce}" src="${ORIGIN}/${script}.js"${lazyAttrs}></script></body></html>`;
}

/** A stand-in for acquireVsCodeApi that answers 'ready' at once and records when it was asked. */
function stub(reply: unknown): string {
	return `(() => {
		const reply = ${JSON.stringify(reply ?? null)};
		window.__bench = {};
		window.acquireVsCodeApi = () => ({
			postMessage(message) {
				if (message && message.type === 'ready' && window.__bench.readyAt === undefined) {
					window.__bench.readyAt = performance.now();
					if (reply) setTimeout(() => window.postMessage(reply, '*'), 0);
				}
			},
			getState() { return undefined; },
			setState() {},
		});
	})();`;
}

interface PanelFigures {
	panel: string;
	sizeKiB: number;
	gzipKiB: number;
	readyMs: number;
	firstDataMs?: number;
}

async function timePage(
	browser: Browser,
	dir: string,
	html: string,
	reply: unknown,
	mark: string | undefined,
): Promise<{ readyMs: number; firstDataMs?: number }> {
	const context = await browser.newContext();
	try {
		const page = await context.newPage();
		await page.addInitScript(stub(reply));
		await page.route(`${ORIGIN}/**`, (route) => {
			const name = new URL(route.request().url()).pathname.slice(1);
			if (name === '' || name === 'index.html') {
				return route.fulfill({ status: 200, contentType: 'text/html', body: html });
			}
			return route.fulfill({ status: 200, contentType: 'text/javascript', body: readFileSync(join(dir, name)) });
		});
		await page.goto(`${ORIGIN}/index.html`);
		await page.waitForFunction(
			(m) =>
				(window as unknown as { __bench: { readyAt?: number } }).__bench.readyAt !== undefined &&
				(!m || performance.getEntriesByName(m).length > 0),
			mark,
			{ timeout: 30_000 },
		);
		return await page.evaluate((m) => {
			const ready = (window as unknown as { __bench: { readyAt: number } }).__bench.readyAt;
			const shown = m ? performance.getEntriesByName(m)[0]?.startTime : undefined;
			return { readyMs: ready, firstDataMs: shown };
		}, mark);
	} finally {
		await context.close();
	}
}

/** Time to load and start the PDF viewer bundle on demand (a script element with the nonce). */
async function timePdfViewer(browser: Browser, dir: string): Promise<number> {
	const context = await browser.newContext();
	try {
		const page = await context.newPage();
		await page.addInitScript(stub(undefined));
		await page.route(`${ORIGIN}/**`, (route) => {
			const name = new URL(route.request().url()).pathname.slice(1);
			if (name === 'index.html') {
				return route.fulfill({ status: 200, contentType: 'text/html', body: shell('application', ['pdf']) });
			}
			return route.fulfill({ status: 200, contentType: 'text/javascript', body: readFileSync(join(dir, name)) });
		});
		await page.goto(`${ORIGIN}/index.html`);
		return await page.evaluate(
			() =>
				new Promise<number>((resolve, reject) => {
					const start = performance.now();
					const script = document.createElement('script');
					script.nonce = 'benchnonce';
					script.src = 'http://bench.invalid/pdf.js';
					script.onload = () => resolve(performance.now() - start);
					script.onerror = () => reject(new Error('pdf.js did not load'));
					document.head.appendChild(script);
				}),
		);
	} finally {
		await context.close();
	}
}

/** Builds the webview bundles as `npm run package` does (minified) into a temporary folder. */
async function productionBundles(dir: string): Promise<void> {
	await build({
		entryPoints: [...PANELS, 'pdf'].map((name) => ({ in: join(ROOT, `src/webview/${name}/main.ts`), out: name })),
		outdir: dir,
		bundle: true,
		minify: true,
		platform: 'browser',
		format: 'iife',
		target: 'es2022',
		loader: { '.css': 'text' },
		logLevel: 'silent',
	});
}

export async function runWebviewBenchmarks(
	log: (line: string) => void,
	reps = 7,
): Promise<{ section: Section; figures: PanelFigures[]; pdfViewerMs: number }> {
	const dir = mkdtempSync(join(tmpdir(), 'mp-bench-webview-'));
	const browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
	});
	try {
		await productionBundles(dir);
		const figures: PanelFigures[] = [];
		const measure = async (
			label: string,
			script: string,
			lazy: string[],
			eager: string[],
			panel: (typeof PANELS)[number],
		) => {
			const { message, mark } = answer(panel);
			const runs = [];
			for (let i = 0; i < reps; i++) {
				const html = eager.length > 0 ? shell(script, lazy, eager) : shippedShell(dir, script, lazy, message);
				runs.push(await timePage(browser, dir, html, message, mark));
			}
			const bytes = [script, ...eager].reduce((sum, name) => sum + statSync(join(dir, `${name}.js`)).size, 0);
			const gzip = [script, ...eager].reduce(
				(sum, name) => sum + gzipSync(readFileSync(join(dir, `${name}.js`))).length,
				0,
			);
			const firsts = runs.map((r) => r.firstDataMs).filter((v): v is number => v !== undefined);
			figures.push({
				panel: label,
				sizeKiB: bytes / 1024,
				gzipKiB: gzip / 1024,
				readyMs: median(runs.map((r) => r.readyMs)),
				firstDataMs: firsts.length > 0 ? median(firsts) : undefined,
			});
			log(`  ${label}: ${fmt(bytes / 1024)} KiB, ready ${fmt(median(runs.map((r) => r.readyMs)))} ms`);
		};
		await measure('application (pdf.js on demand, as shipped)', 'application', ['pdf'], [], 'application');
		await measure(
			'application with pdf.js evaluated first (before this change)',
			'application',
			[],
			['pdf'],
			'application',
		);
		await measure('advert', 'advert', [], [], 'advert');
		await measure('createAdvert', 'createAdvert', [], [], 'createAdvert');
		await measure('playground', 'playground', [], [], 'playground');
		const pdfRuns: number[] = [];
		for (let i = 0; i < reps; i++) pdfRuns.push(await timePdfViewer(browser, dir));
		const pdfViewerMs = median(pdfRuns);
		const pdfSize = statSync(join(dir, 'pdf.js')).size / 1024;
		const rows = figures.map((f) => [
			f.panel,
			fmt(f.sizeKiB),
			fmt(f.gzipKiB),
			fmt(f.readyMs),
			f.firstDataMs === undefined ? '—' : fmt(f.firstDataMs),
		]);
		rows.push([
			'pdf (PDF viewer, loaded when a PDF is shown)',
			fmt(pdfSize),
			fmt(gzipSync(readFileSync(join(dir, 'pdf.js'))).length / 1024),
			`${fmt(pdfViewerMs)} to load and start`,
			'—',
		]);
		const body = [
			`Headless Chromium, production (minified) bundles, medians of ${reps} fresh pages; the host's answer is immediate, so the times are the webview's own. As shipped, the bundle is inlined in the page's HTML and the detail panels' first view rides in it (src/extension/webviews/shell.ts); the row "before this change" links the bundles and waits for the answer to 'ready'. "ready": from the page's start to the script asking for its data; "first data": to the data drawn (performance mark). The VS Code panel around it adds its own webview creation: see the next section (and the e2e run's test-results/e2e/panel-timings.json).`,
			'',
			table(['Bundle', 'Size (KiB)', 'gzip (KiB)', 'ready (ms)', 'first data (ms)'], rows),
		].join('\n');
		return { section: { title: 'Webview bundles: size and time to first data', body }, figures, pdfViewerMs };
	} finally {
		await browser.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

if (require.main === module) {
	const { values } = parseArgs({ options: { reps: { type: 'string', default: '7' }, json: { type: 'string' } } });
	const log = (line: string): void => console.log(line);
	log(`machine: ${describeMachine()}`);
	runWebviewBenchmarks(log, Math.max(1, Math.min(50, Number(values.reps) || 7))).then(
		({ section, figures, pdfViewerMs }) => {
			console.log(`\n### ${section.title}\n\n${section.body}`);
			if (values.json) {
				writeFileSync(
					values.json,
					`${JSON.stringify({ measuredAt: new Date().toISOString(), machine: describeMachine(), figures, pdfViewerMs }, null, 2)}\n`,
				);
			}
			process.exit(0);
		},
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
