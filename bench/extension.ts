/**
 * Benchmark 5: what the extension costs a user: bundle and .vsix sizes, the time to load the
 * bundle and to activate it (with a stub 'vscode' module, in a fresh process), the sandbox's first
 * start (seeding a fresh database) and later starts, and the tree over a default and a
 * million-application sandbox (bench/extensionTree.ts): expanding an advert, and memory.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { openSandbox } from '../src/emulator/sandbox';
import { generateBulkSandbox } from './bulkGenerate';
import type { TreeFigures } from './extensionTree';
import { fmt, median, table, type Section } from './common';

const ROOT = join(__dirname, '..', '..');
const LOAD_REPS = 5;
const SANDBOX_REPS = 3;
const LARGE_SANDBOX_APPLICATIONS = 1_000_000;

/** Production bundle of the extension host code, built into `dir` as esbuild.mjs --production does. */
async function productionBundle(dir: string): Promise<string> {
	const outfile = join(dir, 'extension.js');
	await build({ entryPoints: [join(ROOT, 'src/extension/extension.ts')], outfile, bundle: true, minify: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'silent' });
	return outfile;
}

/**
 * Medians of the time to require `bundle` and to run its activate() in a fresh Node process with a
 * stub 'vscode' module (every API call answers a stub), and the process's memory after activation.
 */
function loadAndActivate(bundle: string, dir: string): { loadMs: number; activateMs: number; disposables: number; rssMb: number } {
	const script = join(dir, 'load.js');
	writeFileSync(script, `
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? require.resolve(${JSON.stringify(join(dir, 'vscode-stub.js'))}) : resolve.call(this, request, ...rest); };
const started = process.hrtime.bigint();
const ext = require(process.argv[2]);
const loaded = process.hrtime.bigint();
if (typeof ext.activate !== 'function') throw new Error('no activate export');
const any = require('vscode');
const context = { subscriptions: [], secrets: any, globalStorageUri: any, extensionUri: any, globalState: any, workspaceState: any, extensionPath: '' };
ext.activate(context);
const activated = process.hrtime.bigint();
process.stdout.write(JSON.stringify({ loadMs: Number(loaded - started) / 1e6, activateMs: Number(activated - loaded) / 1e6, disposables: context.subscriptions.length, rss: process.memoryUsage().rss }));
`);
	// A Proxy answers any API the bundle touches while loading.
	// esbuild's ESM interop reads properties through the prototype, so the prototype answers too.
	writeFileSync(join(dir, 'vscode-stub.js'), [
		'const get = (_t, k) => (k === Symbol.toPrimitive ? () => "" : k === "__esModule" ? true : any);',
		'const proto = new Proxy({}, { get });',
		'const any = new Proxy(function () {}, { get, set: () => true, apply: () => any, construct: () => any, getPrototypeOf: () => proto });',
		'module.exports = any;',
	].join('\n'));
	const runs: { loadMs: number; activateMs: number; disposables: number; rss: number }[] = [];
	for (let i = 0; i < LOAD_REPS; i++) runs.push(JSON.parse(execFileSync(process.execPath, [script, bundle], { encoding: 'utf8', timeout: 60_000 })));
	return {
		loadMs: median(runs.map((r) => r.loadMs)),
		activateMs: median(runs.map((r) => r.activateMs)),
		disposables: runs[0].disposables,
		rssMb: median(runs.map((r) => r.rss)) / 1e6,
	};
}

/** Runs benchmark 5 and returns its report section. */
export async function runExtensionBenchmarks(log: (line: string) => void): Promise<Section[]> {
	const dir = mkdtempSync(join(tmpdir(), 'mp-bench-ext-'));
	const rows: (string | number)[][] = [];
	try {
		if (existsSync(join(ROOT, 'src/extension/extension.ts'))) {
			try {
				const bundle = await productionBundle(dir);
				rows.push(['dist/extension.js (production, minified)', `${fmt(statSync(bundle).size / 1024)} KiB`]);
				const start = loadAndActivate(bundle, dir);
				rows.push(['load time of the bundle (require, stub vscode, fresh process, median)', `${fmt(start.loadMs)} ms`]);
				rows.push([`activate() (registers ${start.disposables} disposables: commands, views, status bar; starts nothing)`, `${fmt(start.activateMs)} ms`]);
				rows.push(['process rss after activation (Node alone, no VS Code)', `${fmt(start.rssMb, 0)} MB`]);
				log(`  extension bundle ${fmt(statSync(bundle).size / 1024)} KiB, load ${fmt(start.loadMs)} ms, activate ${fmt(start.activateMs)} ms`);
			} catch (error) {
				rows.push(['extension bundle', `not measured: ${(error as Error).message.split('\n')[0]}`]);
			}
			try {
				const vsix = join(dir, 'multiposting-workbench.vsix');
				// The base URLs only let vsce rewrite README links (no repository is set); vsce's prepublish
				// step rebuilds dist/ for production, so the development build is restored afterwards.
				execFileSync('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--baseContentUrl', 'https://example.invalid/', '--baseImagesUrl', 'https://example.invalid/', '-o', vsix], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
				execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
				rows.push(['.vsix (vsce package --no-dependencies)', `${fmt(statSync(vsix).size / 1024)} KiB`]);
				log(`  vsix ${fmt(statSync(vsix).size / 1024)} KiB`);
			} catch (error) {
				rows.push(['.vsix', `not measured: ${(error as Error).message.split('\n')[0]}`]);
			}
		} else {
			rows.push(['extension', 'not measured: src/extension/extension.ts does not exist yet']);
		}

		const first: number[] = [];
		const again: number[] = [];
		for (let i = 0; i < SANDBOX_REPS; i++) {
			const dataDir = join(dir, `sandbox-${i}`);
			let started = Date.now();
			openSandbox({ dataDir, seed: 1 }).store.close();
			first.push(Date.now() - started);
			started = Date.now();
			openSandbox({ dataDir, seed: 1 }).store.close();
			again.push(Date.now() - started);
		}
		rows.push(['sandbox first start (openSandbox seeding a fresh folder, median)', `${fmt(median(first), 0)} ms`]);
		rows.push(['sandbox later start (existing database, median)', `${fmt(median(again), 0)} ms`]);
		rows.push(['sandbox database size after seeding', `${fmt(statSync(join(dir, 'sandbox-0', 'sandbox.sqlite')).size / 1e6)} MB`]);
		log(`  sandbox first start ${fmt(median(first), 0)} ms, later ${fmt(median(again), 0)} ms`);

		// The tree over a default sandbox and over one of a million applications, each in a fresh process.
		const bigDir = join(dir, 'sandbox-1m');
		const generated = generateBulkSandbox(bigDir, LARGE_SANDBOX_APPLICATIONS);
		log(`  large sandbox: ${generated.applications} applications in ${fmt(generated.ms / 1000)} s`);
		for (const [label, dataDir] of [['default sandbox (5,000 applications)', join(dir, 'sandbox-0')], [`large sandbox (${LARGE_SANDBOX_APPLICATIONS.toLocaleString('en-GB')} applications)`, bigDir]] as const) {
			const tree = JSON.parse(execFileSync(process.execPath, [join(__dirname, 'extensionTree.js'), dataDir], { encoding: 'utf8', timeout: 300_000 })) as TreeFigures;
			rows.push([`${label}: expand an advert of ${tree.applications} applications to its first page of 50, first time`, `${fmt(tree.coldMs)} ms`]);
			rows.push([`${label}: the same, refreshed (median of 7)`, `${fmt(tree.warmMedianMs)} ms`]);
			rows.push([`${label}: rss of the extension process before the sandbox starts / after expanding (V8 heap)`, `${fmt(tree.rssAfterSetupMb, 0)} / ${fmt(tree.rssAfterExpandMb, 0)} MB (${fmt(tree.heapAfterExpandMb, 0)} MB)`]);
			log(`  tree ${label}: cold ${fmt(tree.coldMs)} ms, warm ${fmt(tree.warmMedianMs)} ms, rss ${fmt(tree.rssAfterExpandMb, 0)} MB`);
		}
		return [{
			title: '5. The extension',
			body: table(['measure', 'value'], rows)
				+ '\n\nThe tree figures drive the extension\'s own services and tree model (bench/extensionTree.ts) over the sandbox in a fresh Node process, with the in-memory settings and secrets of the unit tests in place of VS Code: the time covers the service calls behind an expansion (GetApplicationsPaged for the advert) over loopback, decoding and building the tree items; VS Code\'s rendering is not included. The sandbox runs inside the extension host, so that process\'s memory is the figure to watch.',
		}];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
