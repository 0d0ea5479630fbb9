/**
 * Benchmark 5: what the extension costs a user: bundle and .vsix sizes, the time to load the
 * bundle (require with a stub 'vscode' module, in a fresh process) and the sandbox's first start
 * (seeding a fresh database) and later starts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { openSandbox } from '../src/emulator/sandbox';
import { fmt, median, table, type Section } from './common';

const ROOT = join(__dirname, '..', '..');
const LOAD_REPS = 5;
const SANDBOX_REPS = 3;

/** Production bundle of the extension host code, built into `dir` as esbuild.mjs --production does. */
async function productionBundle(dir: string): Promise<string> {
	const outfile = join(dir, 'extension.js');
	await build({ entryPoints: [join(ROOT, 'src/extension/extension.ts')], outfile, bundle: true, minify: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'silent' });
	return outfile;
}

/** Median time to require `bundle` in a fresh Node process with a stub 'vscode' module. */
function loadTimeMs(bundle: string, dir: string): number {
	const script = join(dir, 'load.js');
	writeFileSync(script, `
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? require.resolve(${JSON.stringify(join(dir, 'vscode-stub.js'))}) : resolve.call(this, request, ...rest); };
const started = process.hrtime.bigint();
const ext = require(process.argv[2]);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
if (typeof ext.activate !== 'function') throw new Error('no activate export');
process.stdout.write(String(ms));
`);
	// A Proxy answers any API the bundle touches while loading.
	// esbuild's ESM interop reads properties through the prototype, so the prototype answers too.
	writeFileSync(join(dir, 'vscode-stub.js'), [
		'const get = (_t, k) => (k === Symbol.toPrimitive ? () => "" : k === "__esModule" ? true : any);',
		'const proto = new Proxy({}, { get });',
		'const any = new Proxy(function () {}, { get, apply: () => any, construct: () => any, getPrototypeOf: () => proto });',
		'module.exports = any;',
	].join('\n'));
	const times: number[] = [];
	for (let i = 0; i < LOAD_REPS; i++) times.push(Number(execFileSync(process.execPath, [script, bundle], { encoding: 'utf8', timeout: 60_000 })));
	return median(times);
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
				const ms = loadTimeMs(bundle, dir);
				rows.push(['load time of the bundle (require, stub vscode, fresh process, median)', `${fmt(ms)} ms`]);
				log(`  extension bundle ${fmt(statSync(bundle).size / 1024)} KiB, load ${fmt(ms)} ms`);
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
		return [{ title: '5. The extension', body: table(['measure', 'value'], rows) }];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
