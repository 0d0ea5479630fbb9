// Real-VS-Code end-to-end harness: runs code-server (a full VS Code 1.139 served to a browser,
// installed by scripts/setup-code-server.sh) and drives it with playwright-core and Debian's
// chromium. See docs/real-vscode.md for the recipe this follows.
//
// Typical use in a mocha test:
//
//	const server = await startCodeServer({ vsixPath: 'multiposting-workbench.vsix' });
//	const wb = await openWorkbench(server);
//	await clickActivityBar(wb.page, 'Multiposting');
//	await screenshot(wb.page, 'activity');
//	await wb.close();
//	await server.stop();

import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export interface StartCodeServerOptions {
	/** A packaged extension (`vsce package`) to install into the fresh extensions dir. */
	vsixPath?: string;
	/** The folder to open; a fresh empty temp folder (removed on stop) when omitted. */
	workspaceDir?: string;
	/** Merged over the default user settings (DATA/User/settings.json). */
	settings?: Record<string, unknown>;
	/** Extra environment for code-server (and so for the extension host). */
	env?: Record<string, string>;
	/** How long to wait for code-server to answer HTTP; default 60 s. */
	startTimeoutMs?: number;
}

export interface CodeServerHandle {
	url: string;
	port: number;
	userDataDir: string;
	extensionsDir: string;
	workspaceDir: string;
	/** Everything code-server (and the extension install) printed so far. */
	logs(): string;
	/** Kills the whole process group (SIGTERM, SIGKILL after 5 s) and removes the temp dirs. */
	stop(): Promise<void>;
}

export interface Workbench {
	browser: Browser;
	context: BrowserContext;
	page: Page;
	/** Errors thrown in the page (uncaught), for assertions or diagnostics. */
	pageErrors: string[];
	close(): Promise<void>;
}

export const DEFAULT_SETTINGS: Readonly<Record<string, unknown>> = {
	'workbench.startupEditor': 'none',
	'security.workspace.trust.enabled': false,
	'telemetry.telemetryLevel': 'off',
	'workbench.tips.enabled': false,
	'extensions.ignoreRecommendations': true,
	'extensions.autoCheckUpdates': false,
	'extensions.autoUpdate': false,
	'update.mode': 'none',
	// VS Code 1.139 opens a Chat side bar by default: it would take a third of the window.
	'chat.disableAIFeatures': true,
	'workbench.secondarySideBar.defaultVisibility': 'hidden',
	// No "open the repository in the parent folder?" prompt.
	'git.openRepositoryInParentFolders': 'never',
};

/** The packaged extension that `npm run test:e2e` builds (out/multiposting-workbench.vsix); MPW_VSIX overrides it. */
export const EXTENSION_VSIX =
	process.env.MPW_VSIX ?? path.resolve(__dirname, '..', '..', 'multiposting-workbench.vsix');

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS: readonly string[] = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
	'--disable-quic',
];

const START_TIMEOUT_MS = 60_000;
const INSTALL_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 5_000;
const WORKBENCH_TIMEOUT_MS = 60_000;
const UI_TIMEOUT_MS = 30_000;
const LOG_LIMIT = 4 * 1024 * 1024;
const NOT_INSTALLED = 'code-server is not installed: run scripts/setup-code-server.sh';

// ---- locating code-server ---------------------------------------------------------------------

/** The project root: the nearest folder above this file holding package.json (works from out/). */
function projectRoot(): string {
	let dir = __dirname;
	for (;;) {
		if (
			fs.existsSync(path.join(dir, 'package.json')) &&
			fs.existsSync(path.join(dir, 'scripts', 'setup-code-server.sh'))
		) {
			return dir;
		}
		const parent = path.dirname(dir);
		if (parent === dir) {
			return process.cwd();
		}
		dir = parent;
	}
}

/** The installed code-server binary; CODE_SERVER_DIR overrides the default .cache/code-server. */
export function codeServerBin(): string {
	const installDir = process.env.CODE_SERVER_DIR || path.join(projectRoot(), '.cache', 'code-server');
	const bin = path.join(installDir, 'node_modules', '.bin', 'code-server');
	const stamp = path.join(installDir, '.stamps', 'verify.done');
	if (!fs.existsSync(bin) || !fs.existsSync(stamp)) {
		throw new Error(NOT_INSTALLED);
	}
	return bin;
}

// ---- small utilities --------------------------------------------------------------------------

function tail(text: string, lines = 40): string {
	const all = text.trimEnd().split('\n');
	return all.slice(-lines).join('\n');
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rejects with `message` when `promise` has not settled within `ms`. */
async function withTimeout<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(message())), ms);
	});
	try {
		return await Promise.race([promise, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const addr = srv.address();
			const port = typeof addr === 'object' && addr ? addr.port : 0;
			srv.close(() => (port ? resolve(port) : reject(new Error('could not get a free port'))));
		});
	});
}

/** Resolves with the HTTP status of GET url (any status means the server is up). */
function httpStatus(url: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = http.get(url, { timeout: 2_000 }, (res) => {
			res.resume();
			resolve(res.statusCode ?? 0);
		});
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', reject);
	});
}

/** A bounded, append-only log buffer (keeps the last LOG_LIMIT characters). */
class LogBuffer {
	private text = '';
	append(chunk: string): void {
		this.text += chunk;
		if (this.text.length > LOG_LIMIT) {
			this.text = this.text.slice(this.text.length - LOG_LIMIT);
		}
	}
	toString(): string {
		return this.text;
	}
}

/** The environment for code-server: the caller's, minus variables that would make code-server
 * talk to another VS Code / code-server instance or change its auth, plus isolated XDG dirs so
 * that nothing is read from or written to ~/.config/code-server or ~/.local/share/code-server. */
function serverEnv(root: string, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (
			k.startsWith('VSCODE_') ||
			k.startsWith('ELECTRON_') ||
			k === 'PASSWORD' ||
			k === 'HASHED_PASSWORD' ||
			k === 'PORT' ||
			k === 'GITHUB_TOKEN' ||
			k.startsWith('CS_') ||
			k.startsWith('CODE_SERVER_')
		) {
			continue;
		}
		env[k] = v;
	}
	env.XDG_CONFIG_HOME = path.join(root, 'xdg-config');
	env.XDG_DATA_HOME = path.join(root, 'xdg-data');
	env.XDG_CACHE_HOME = path.join(root, 'xdg-cache');
	return { ...env, ...extra };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) {
		return;
	}
	try {
		process.kill(-child.pid, signal);
	} catch {
		// The group is already gone.
	}
}

function groupAlive(pid: number): boolean {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Runs a short code-server command (e.g. --install-extension) to completion, bounded. */
function runCodeServerCommand(
	bin: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	log: LogBuffer,
	timeoutMs: number,
): Promise<void> {
	return new Promise((resolve, reject) => {
		log.append(`$ code-server ${args.join(' ')}\n`);
		const child = spawn(bin, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		child.stdout?.setEncoding('utf8').on('data', (d: string) => log.append(d));
		child.stderr?.setEncoding('utf8').on('data', (d: string) => log.append(d));
		const timer = setTimeout(() => {
			killGroup(child, 'SIGKILL');
			reject(
				new Error(
					`code-server ${args.join(' ')} did not finish within ${timeoutMs} ms\n--- code-server log (tail) ---\n${tail(log.toString())}`,
				),
			);
		}, timeoutMs);
		child.on('error', (err) => {
			clearTimeout(timer);
			reject(new Error(`could not run code-server ${args.join(' ')}: ${err.message}`));
		});
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			if (code === 0) {
				resolve();
			} else {
				reject(
					new Error(
						`code-server ${args.join(' ')} exited with ${code ?? signal}\n--- code-server log (tail) ---\n${tail(log.toString())}`,
					),
				);
			}
		});
	});
}

// ---- code-server ------------------------------------------------------------------------------

/** Running code-servers (process group id -> temp root): killed, and their temp dirs removed,
 * if the test process exits without stop(). */
const liveGroups = new Map<number, string>();
let exitHooksInstalled = false;

function killLiveGroups(): void {
	for (const [pid, root] of liveGroups) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// Already gone.
		}
		try {
			fs.rmSync(root, { recursive: true, force: true });
		} catch {
			// Best effort on the way out.
		}
	}
	liveGroups.clear();
}

function installExitHooks(): void {
	if (exitHooksInstalled) {
		return;
	}
	exitHooksInstalled = true;
	process.on('exit', killLiveGroups);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			killLiveGroups();
			// Keep the default behaviour (die by the signal) unless someone else handles it.
			if (process.listenerCount(signal) === 0) {
				process.kill(process.pid, signal);
			}
		});
	}
}

export async function startCodeServer(opts: StartCodeServerOptions = {}): Promise<CodeServerHandle> {
	const bin = codeServerBin();
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mpw-e2e-'));
	const extensionsDir = path.join(root, 'extensions');
	const userDataDir = path.join(root, 'user-data');
	const workspaceDir = path.resolve(opts.workspaceDir ?? path.join(root, 'workspace'));
	fs.mkdirSync(extensionsDir, { recursive: true });
	fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
	fs.mkdirSync(workspaceDir, { recursive: true });
	fs.writeFileSync(
		path.join(userDataDir, 'User', 'settings.json'),
		JSON.stringify({ ...DEFAULT_SETTINGS, ...(opts.settings ?? {}) }, null, '\t') + '\n',
	);

	const log = new LogBuffer();
	const env = serverEnv(root, opts.env);
	const dirArgs = ['--extensions-dir', extensionsDir, '--user-data-dir', userDataDir];
	// root holds the extensions dir, the user-data dir, the XDG dirs and (when none was given)
	// the workspace; a workspace given by the caller is left alone.
	const removeTemp = (): void => {
		fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
	};

	try {
		if (opts.vsixPath !== undefined) {
			const vsix = path.resolve(opts.vsixPath);
			if (!fs.existsSync(vsix)) {
				throw new Error(`vsix not found: ${vsix}`);
			}
			await runCodeServerCommand(
				bin,
				[...dirArgs, '--install-extension', vsix, '--force'],
				env,
				log,
				INSTALL_TIMEOUT_MS,
			);
			if (!/successfully installed/i.test(log.toString())) {
				throw new Error(
					`code-server did not report installing ${vsix}\n--- code-server log (tail) ---\n${tail(log.toString())}`,
				);
			}
		}
	} catch (err) {
		removeTemp();
		throw err;
	}

	// The free port is picked before code-server binds it, so another process may take it in
	// between: retry a few times with a new port when the bind fails.
	let lastError: Error | undefined;
	for (let attempt = 1; attempt <= 3; attempt++) {
		const port = await freePort();
		const url = `http://127.0.0.1:${port}`;
		const args = [
			'--auth',
			'none',
			'--bind-addr',
			`127.0.0.1:${port}`,
			...dirArgs,
			'--disable-telemetry',
			'--disable-update-check',
			'--disable-workspace-trust',
			'--ignore-last-opened',
			workspaceDir,
		];
		log.append(`$ code-server ${args.join(' ')}\n`);
		installExitHooks();
		const child = spawn(bin, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], cwd: workspaceDir });
		const pid = child.pid;
		if (pid !== undefined) {
			liveGroups.set(pid, root);
		}
		child.stdout?.setEncoding('utf8').on('data', (d: string) => log.append(d));
		child.stderr?.setEncoding('utf8').on('data', (d: string) => log.append(d));
		let exited: string | undefined;
		const exitPromise = new Promise<void>((resolve) => {
			child.on('exit', (code, signal) => {
				exited = `exited with ${code ?? signal}`;
				log.append(`[harness] code-server ${exited}\n`);
				resolve();
			});
		});
		child.on('error', (err) => {
			exited = `could not start: ${err.message}`;
			log.append(`[harness] code-server ${exited}\n`);
		});

		let stopping: Promise<void> | undefined;
		const stop = (): Promise<void> => {
			stopping ??= (async () => {
				if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
					killGroup(child, 'SIGTERM');
					await Promise.race([exitPromise, sleep(STOP_GRACE_MS)]);
				}
				// Children in the group (extension host, pty host, watcher) may outlive the main
				// process: give them a moment after SIGTERM, then SIGKILL whatever is left.
				if (child.pid !== undefined) {
					const deadline = Date.now() + 1_000;
					while (groupAlive(child.pid) && Date.now() < deadline) {
						await sleep(100);
					}
					if (groupAlive(child.pid)) {
						killGroup(child, 'SIGKILL');
						await Promise.race([exitPromise, sleep(STOP_GRACE_MS)]);
					}
				}
				if (pid !== undefined) {
					liveGroups.delete(pid);
				}
				child.stdout?.destroy();
				child.stderr?.destroy();
				try {
					removeTemp();
				} catch (err) {
					log.append(`[harness] could not remove ${root}: ${String(err)}\n`);
				}
			})();
			return stopping;
		};

		const timeoutMs = opts.startTimeoutMs ?? START_TIMEOUT_MS;
		const deadline = Date.now() + timeoutMs;
		let up = false;
		while (Date.now() < deadline && exited === undefined) {
			try {
				await httpStatus(`${url}/healthz`);
				up = true;
				break;
			} catch {
				await sleep(200);
			}
		}
		if (up) {
			return {
				url,
				port,
				userDataDir,
				extensionsDir,
				workspaceDir,
				logs: () => log.toString(),
				stop,
			};
		}
		const reason =
			exited !== undefined
				? `code-server ${exited}`
				: `code-server did not answer HTTP on ${url} within ${timeoutMs} ms`;
		lastError = new Error(`${reason}\n--- code-server log (tail) ---\n${tail(log.toString())}`);
		const addrInUse = /EADDRINUSE/.test(log.toString());
		// Keep the temp dirs for a retry; remove everything on the last attempt.
		if (!addrInUse || attempt === 3) {
			await stop();
			removeTemp();
			throw lastError;
		}
		killGroup(child, 'SIGKILL');
		await Promise.race([exitPromise, sleep(STOP_GRACE_MS)]);
		if (pid !== undefined) {
			liveGroups.delete(pid);
		}
	}
	removeTemp();
	throw lastError ?? new Error('code-server did not start');
}

// ---- browser ----------------------------------------------------------------------------------

export async function openWorkbench(handle: CodeServerHandle): Promise<Workbench> {
	const logTail = (): string => `\n--- code-server log (tail) ---\n${tail(handle.logs())}`;
	if (!fs.existsSync(CHROMIUM_PATH)) {
		throw new Error(
			`${CHROMIUM_PATH} is missing: run scripts/setup-code-server.sh (it installs Debian's chromium)`,
		);
	}
	const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], timeout: 30_000 });
	const close = async (): Promise<void> => {
		try {
			await withTimeout(browser.close(), 10_000, () => 'browser.close() timed out');
		} catch {
			// A hung browser is killed with the test process; nothing more to do here.
		}
	};
	try {
		const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
		context.setDefaultTimeout(UI_TIMEOUT_MS);
		const page = await context.newPage();
		const pageErrors: string[] = [];
		page.on('pageerror', (err) => pageErrors.push(err.message));
		const target = `${handle.url}/?folder=${encodeURIComponent(handle.workspaceDir).replace(/%2F/g, '/')}`;
		try {
			await page.goto(target, { waitUntil: 'domcontentloaded', timeout: WORKBENCH_TIMEOUT_MS });
		} catch (err) {
			throw new Error(`could not load ${target}: ${(err as Error).message}${logTail()}`, { cause: err });
		}
		try {
			await page.waitForSelector('.monaco-workbench', { state: 'visible', timeout: WORKBENCH_TIMEOUT_MS });
			// The activity bar appears once the workbench layout is done.
			await page.waitForSelector('.part.activitybar', { state: 'visible', timeout: WORKBENCH_TIMEOUT_MS });
		} catch (err) {
			throw new Error(
				`the VS Code workbench did not appear at ${target}: ${(err as Error).message}` +
					`\npage errors: ${pageErrors.join(' | ') || 'none'}${logTail()}`,
				{ cause: err },
			);
		}
		return { browser, context, page, pageErrors, close };
	} catch (err) {
		await close();
		throw err;
	}
}

// ---- UI helpers -------------------------------------------------------------------------------

/** Where screenshots go: test-results/e2e under the project root. */
export function screenshotDir(): string {
	return path.join(projectRoot(), 'test-results', 'e2e');
}

/** Saves a PNG of the page to test-results/e2e/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
	const dir = screenshotDir();
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, name.endsWith('.png') ? name : `${name}.png`);
	await page.screenshot({ path: file, timeout: UI_TIMEOUT_MS });
	return file;
}

export const QUICK_INPUT = '.quick-input-widget';
export const QUICK_INPUT_BOX = '.quick-input-widget .quick-input-box input';
export const QUICK_INPUT_ROW = '.quick-input-widget .quick-input-list .monaco-list-row';

/** Opens the command palette (F1, falling back to Ctrl+Shift+P) with the '>' prefix in it. */
export async function openCommandPalette(page: Page): Promise<void> {
	const box = page.locator(QUICK_INPUT_BOX);
	for (const key of ['F1', 'Control+Shift+P']) {
		// Give the keyboard focus to the workbench first (a fresh page may have none).
		await page
			.locator('.monaco-workbench')
			.focus()
			.catch(() => undefined);
		await page.keyboard.press(key);
		try {
			await box.waitFor({ state: 'visible', timeout: 5_000 });
			if ((await box.inputValue()).startsWith('>')) {
				return;
			}
		} catch {
			// Try the next key.
		}
	}
	throw new Error('the command palette did not open (F1 and Ctrl+Shift+P)');
}

/** How well a command-palette row label ("Category: Title", maybe followed by ", keybinding" or
 * ", similar commands") matches the wanted title: 3 the full label, 2 the title without the
 * category, 1 a substring, 0 no match. */
function commandRowScore(label: string, title: string): number {
	const l = label.toLowerCase();
	const t = title.toLowerCase();
	if (l === t || l.startsWith(`${t}, `)) {
		return 3;
	}
	const bare = l.replace(/^[^:]*:\s*/, '');
	if (bare === t || bare.startsWith(`${t}, `)) {
		return 2;
	}
	return l.includes(t) ? 1 : 0;
}

/** Runs a command by its title (with or without its category, e.g. 'Developer: Reload Window'
 * or 'Reload Window') through the command palette, and waits for the palette to close. The row
 * that matches best is clicked (the palette's first row is not always the command typed). */
export async function runCommand(page: Page, title: string): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		await openCommandPalette(page);
		try {
			await page.locator(QUICK_INPUT_BOX).fill(`>${title}`, { timeout: 5_000 });
			break;
		} catch (error) {
			// A webview that takes the focus as it finishes opening closes the palette: open it again.
			if (attempt >= 3) {
				throw error;
			}
		}
	}
	const rowLabels = (): Promise<string[]> =>
		page.locator(QUICK_INPUT_ROW).evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
	// Wait for the filtered list: accept an exact match at once, a mere substring after 1 s.
	const started = Date.now();
	let best: { label: string; score: number } | undefined;
	let shown: string[] = [];
	while (Date.now() - started < UI_TIMEOUT_MS) {
		shown = await rowLabels();
		best = undefined;
		for (const label of shown) {
			const score = commandRowScore(label, title);
			if (score > 0 && (!best || score > best.score)) {
				best = { label, score };
			}
		}
		if (best && (best.score >= 2 || Date.now() - started > 1_000)) {
			break;
		}
		await sleep(100);
	}
	if (!best) {
		await page.keyboard.press('Escape');
		throw new Error(`command "${title}" is not in the command palette; it shows: ${JSON.stringify(shown)}`);
	}
	await page
		.locator(`${QUICK_INPUT_ROW}[aria-label="${cssString(best.label)}"]`)
		.first()
		.click();
	// The palette closes; a command that asks for input may reopen the widget at once as its own
	// input box (no '>' prefix), which also means the command ran.
	try {
		await page.waitForFunction(
			([widget, box]) => {
				const shown = document.querySelector<HTMLElement>(widget);
				const rect = shown?.getBoundingClientRect();
				if (!shown || !rect || rect.width === 0 || rect.height === 0) return true;
				if (getComputedStyle(shown).visibility === 'hidden') return true;
				return !(document.querySelector<HTMLInputElement>(box)?.value ?? '').startsWith('>');
			},
			[QUICK_INPUT, QUICK_INPUT_BOX] as const,
			{ timeout: UI_TIMEOUT_MS },
		);
	} catch {
		throw new Error(`the command palette did not close after running "${best.label}"`);
	}
}

/** Clicks an activity-bar entry (a view container) by the start of its aria-label, e.g. 'Explorer'. */
export async function clickActivityBar(page: Page, label: string): Promise<void> {
	const item = activityBarItem(page, label);
	try {
		await item.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	} catch {
		const labels = await page
			.locator(ACTIVITY_BAR_ITEMS)
			.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
		throw new Error(`no activity-bar entry whose label starts with "${label}"; entries: ${JSON.stringify(labels)}`);
	}
	await item.click();
}

export const ACTIVITY_BAR_ITEMS = '.part.activitybar .action-item .action-label[aria-label]';

/** The activity-bar entry whose aria-label starts with `label`. */
export function activityBarItem(page: Page, label: string): ReturnType<Page['locator']> {
	return page.locator(`.part.activitybar .action-item .action-label[aria-label^="${cssString(label)}"]`).first();
}

function cssString(text: string): string {
	return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
