// Bundles the extension host code (Node, CJS), the sandbox's worker thread, the standalone sandbox and
// test-runner CLIs and the webview scripts (browser, IIFE).
import * as esbuild from 'esbuild';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = { bundle: true, minify: production, sourcemap: !production, sourcesContent: false, logLevel: 'warning' };
/**
 * libxml2-wasm is an ES module with top-level await, so it cannot be bundled into CJS: it is loaded at
 * run time by import() from a copy next to the bundles (dist/vendor), which the .vsix carries.
 */
const libxml2External = {
	name: 'libxml2-external',
	setup(build) {
		build.onResolve({ filter: /^libxml2-wasm$/ }, () => ({
			path: './vendor/libxml2-wasm/lib/index.mjs',
			external: true,
		}));
	},
};

const node = {
	...common,
	platform: 'node',
	format: 'cjs',
	target: 'node22',
	external: ['vscode'],
	plugins: [libxml2External],
};

const webviewEntries = existsSync('src/webview')
	? readdirSync('src/webview', { withFileTypes: true })
			.filter((d) => d.isDirectory() && existsSync(`src/webview/${d.name}/main.ts`))
			.map((d) => ({ in: `src/webview/${d.name}/main.ts`, out: d.name }))
	: [];

const builds = [
	{ ...node, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js' },
	// The sandbox's worker thread: the extension starts it next to dist/extension.js.
	{ ...node, entryPoints: ['src/emulator/worker/sandboxWorker.ts'], outfile: 'dist/sandboxWorker.js' },
	{
		...node,
		entryPoints: ['src/emulator/cli.ts'],
		outfile: 'dist/sandbox.js',
		banner: { js: '#!/usr/bin/env node' },
	},
	{
		...node,
		entryPoints: ['src/cli/multipostingTest.ts'],
		outfile: 'dist/multiposting-test.js',
		banner: { js: '#!/usr/bin/env node' },
	},
	...(webviewEntries.length
		? [
				{
					...common,
					entryPoints: webviewEntries,
					outdir: 'dist/webview',
					platform: 'browser',
					format: 'iife',
					target: 'es2022',
					loader: { '.css': 'text' },
				},
			]
		: []),
].filter((b) => !b.entryPoints.every?.((e) => typeof e === 'string' && !existsSync(e)));

/**
 * libxml2-wasm goes next to the bundles (see libxml2External). pdf.js's worker is bundled into the PDF
 * viewer's own webview bundle, dist/webview/pdf.js (a Worker cannot load across the webview's
 * origins), so its separate file is not copied; files an older build left (that worker, SQLite's
 * WebAssembly binary from before node:sqlite) are removed so they cannot end up in the .vsix.
 */
function copyVendorFiles() {
	mkdirSync('dist', { recursive: true });
	rmSync('dist/node-sqlite3-wasm.wasm', { force: true });
	rmSync('dist/webview/pdf.worker.min.mjs', { force: true });
	rmSync('dist/vendor', { recursive: true, force: true });
	cpSync('node_modules/libxml2-wasm/lib', 'dist/vendor/libxml2-wasm/lib', {
		recursive: true,
		filter: (source) => !/\.(map|d\.mts)$/.test(source),
	});
	for (const file of ['package.json', 'LICENSE', 'LICENSE.libxml2']) {
		copyFileSync(`node_modules/libxml2-wasm/${file}`, `dist/vendor/libxml2-wasm/${file}`);
	}
	// Source maps of a development build must not outlive it into a production one.
	if (production) {
		for (const file of readdirSync('dist', { recursive: true })) {
			if (String(file).endsWith('.map')) rmSync(`dist/${file}`, { force: true });
		}
	}
}

copyVendorFiles();
const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
if (watch) {
	await Promise.all(contexts.map((c) => c.watch()));
} else {
	await Promise.all(contexts.map((c) => c.rebuild()));
	await Promise.all(contexts.map((c) => c.dispose()));
}
