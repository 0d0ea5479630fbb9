// Bundles the extension host code (Node, CJS), the sandbox's worker thread, the standalone sandbox and
// test-runner CLIs and the webview scripts (browser, IIFE). With --cli-package=<folder>, only the two
// CLIs, production-built into <folder>/dist with what they load at run time (scripts/pack-cli.mjs).
import * as esbuild from 'esbuild';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';

const cliPackage = process.argv.find((arg) => arg.startsWith('--cli-package='))?.slice('--cli-package='.length);
const production = process.argv.includes('--production') || cliPackage !== undefined;
const watch = process.argv.includes('--watch');
const distDir = cliPackage ? `${cliPackage}/dist` : 'dist';

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

/**
 * The CLIs' first lines: the interpreter, and a clear refusal on a Node.js older than the package's
 * engines (the bundles use APIs of Node 22.17), instead of a stack trace.
 */
const cliBanner = (name) => ({
	js: [
		'#!/usr/bin/env node',
		`{const [major, minor] = process.versions.node.split('.').map(Number); if (major < 22 || (major === 22 && minor < 17)) { process.stderr.write('${name} needs Node.js 22.17 or later; this is ' + process.version + '.\\n'); process.exit(2); }}`,
	].join('\n'),
});

const cliBuilds = [
	{
		...node,
		entryPoints: ['src/emulator/cli.ts'],
		outfile: `${distDir}/sandbox.js`,
		banner: cliBanner('multiposting-sandbox'),
	},
	{
		...node,
		entryPoints: ['src/cli/multipostingTest.ts'],
		outfile: `${distDir}/multiposting-test.js`,
		banner: cliBanner('multiposting-test'),
	},
];

const webviewEntries = existsSync('src/webview')
	? readdirSync('src/webview', { withFileTypes: true })
			.filter((d) => d.isDirectory() && existsSync(`src/webview/${d.name}/main.ts`))
			.map((d) => ({ in: `src/webview/${d.name}/main.ts`, out: d.name }))
	: [];

const extensionBuilds = [
	{ ...node, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js' },
	// The sandbox's worker thread: the extension starts it next to dist/extension.js.
	{ ...node, entryPoints: ['src/emulator/worker/sandboxWorker.ts'], outfile: 'dist/sandboxWorker.js' },
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
];
const builds = [...(cliPackage ? [] : extensionBuilds), ...cliBuilds].filter(
	(b) => !b.entryPoints.every?.((e) => typeof e === 'string' && !existsSync(e)),
);

/**
 * libxml2-wasm goes next to the bundles (see libxml2External). pdf.js's worker is bundled into the PDF
 * viewer's own webview bundle, dist/webview/pdf.js (a Worker cannot load across the webview's
 * origins), so its separate file is not copied; files an older build left (that worker, SQLite's
 * WebAssembly binary from before node:sqlite) are removed so they cannot end up in the .vsix.
 */
function copyVendorFiles() {
	mkdirSync(distDir, { recursive: true });
	rmSync(`${distDir}/node-sqlite3-wasm.wasm`, { force: true });
	rmSync(`${distDir}/webview/pdf.worker.min.mjs`, { force: true });
	rmSync(`${distDir}/vendor`, { recursive: true, force: true });
	cpSync('node_modules/libxml2-wasm/lib', `${distDir}/vendor/libxml2-wasm/lib`, {
		recursive: true,
		filter: (source) => !/\.(map|d\.mts)$/.test(source),
	});
	for (const file of ['package.json', 'LICENSE', 'LICENSE.libxml2']) {
		copyFileSync(`node_modules/libxml2-wasm/${file}`, `${distDir}/vendor/libxml2-wasm/${file}`);
	}
	// Source maps of a development build must not outlive it into a production one.
	if (production) {
		for (const file of readdirSync(distDir, { recursive: true })) {
			if (String(file).endsWith('.map')) rmSync(`${distDir}/${file}`, { force: true });
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
