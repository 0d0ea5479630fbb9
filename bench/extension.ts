/**
 * Benchmark 5: what the extension costs a user: bundle and .vsix sizes; the time to require the
 * production bundle and to run its activate() (bench/extensionChild.ts, a fresh process with the
 * 'vscode' stand-in of bench/vscodeStandIn.ts); the sandbox's first start (seeding a fresh
 * database) and later starts; and, over a default and a million-application sandbox, the time from
 * expanding an advert in the extension's own tree to its first page of tree items, and the memory
 * of that process (the extension host's stand-in; the sandbox runs on a worker thread of it) against activation alone.
 */
import { execFileSync } from 'node:child_process';
import {
	copyFileSync,
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSandbox } from '../src/emulator/sandbox';
import { openDatabase } from '../src/emulator/store/database';
import { fmt, median, table, type Section } from './common';
import { seedWithCli, shippedSandboxBundle } from './largeSandbox';
import type { ActivationFigures, Memory, TreeFigures } from './extensionChild';

const ROOT = join(__dirname, '..', '..');
const LOAD_REPS = 5;
const SANDBOX_REPS = 3;
const LARGE_SANDBOX_APPLICATIONS = 1_000_000;
/** Fresh processes per sandbox size for the tree figures (each gives one cold expansion). */
const TREE_PROCESSES = 3;

/**
 * The production bundles as shipped: `node esbuild.mjs --production` (its plugin leaves libxml2 to
 * dist/vendor), copied into `dir` with the vendor folder,
 * then the development build is put back in dist/ for the rest of the tooling.
 */
async function productionBundle(dir: string): Promise<string> {
	execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
	try {
		for (const file of ['extension.js', 'sandboxWorker.js']) {
			copyFileSync(join(ROOT, 'dist', file), join(dir, file));
		}
		cpSync(join(ROOT, 'dist', 'vendor'), join(dir, 'vendor'), { recursive: true });
	} finally {
		execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
	}
	return join(dir, 'extension.js');
}

/** Runs bench/extensionChild.js in a fresh Node process (with --expose-gc) and returns its figures. */
function child<T>(mode: 'activate' | 'tree', bundle: string, globalStorage: string): T {
	return JSON.parse(
		execFileSync(
			process.execPath,
			['--expose-gc', join(__dirname, 'extensionChild.js'), mode, bundle, globalStorage],
			{ encoding: 'utf8', timeout: 300_000 },
		),
	) as T;
}

/** Activation in LOAD_REPS fresh processes: medians of require and activate() times and of memory. */
function activation(
	bundle: string,
	dir: string,
): { figures: ActivationFigures; requireMs: number; activateMs: number; memory: Memory; sandboxFolder: boolean } {
	const runs: ActivationFigures[] = [];
	let sandboxFolder = false;
	for (let i = 0; i < LOAD_REPS; i++) {
		const globalStorage = join(dir, `activate-${i}`);
		mkdirSync(globalStorage);
		runs.push(child<ActivationFigures>('activate', bundle, globalStorage));
		sandboxFolder ||= existsSync(join(globalStorage, 'sandbox'));
	}
	return {
		figures: runs[0],
		requireMs: median(runs.map((r) => r.requireMs)),
		activateMs: median(runs.map((r) => r.activateMs)),
		memory: medianMemory(runs.map((r) => r.memory)),
		sandboxFolder,
	};
}

function medianMemory(samples: Memory[]): Memory {
	return {
		rssMb: median(samples.map((m) => m.rssMb)),
		heapUsedMb: median(samples.map((m) => m.heapUsedMb)),
		externalMb: median(samples.map((m) => m.externalMb)),
	};
}

const memoryText = (m: Memory): string => `${fmt(m.rssMb, 0)} / ${fmt(m.heapUsedMb, 0)} / ${fmt(m.externalMb, 0)} MB`;

/** The tree over the sandbox in `globalStorage`/sandbox, in TREE_PROCESSES fresh processes; rows labelled with `label`. */
function treeRows(
	label: string,
	bundle: string,
	globalStorage: string,
	log: (line: string) => void,
): (string | number)[][] {
	const runs: TreeFigures[] = [];
	for (let i = 0; i < TREE_PROCESSES; i++) runs.push(child<TreeFigures>('tree', bundle, globalStorage));
	const r = runs[0];
	const others = runs.flatMap((x) => x.otherColdMs);
	const warm = runs.flatMap((x) => x.warmMs);
	const cold = median(runs.map((x) => x.coldMs));
	const otherRange = r.otherApplications.length
		? `${Math.min(...r.otherApplications)}–${Math.max(...r.otherApplications)}`
		: 'n/a';
	log(
		`  tree ${label}: cold ${fmt(cold)} ms, other adverts ${fmt(median(others))} ms, warm ${fmt(median(warm))} ms, rss ${fmt(median(runs.map((x) => x.memory.rssMb)), 0)} MB`,
	);
	return [
		[
			`${label}: Start Sandbox command on the existing database (median of ${runs.length})`,
			`${fmt(median(runs.map((x) => x.sandboxStartMs)))} ms`,
		],
		[
			`${label}: walk, first time: connection → organisations / → users / → adverts of demo.admin (medians)`,
			`${fmt(median(runs.map((x) => x.walkMs.organisations)))} / ${fmt(median(runs.map((x) => x.walkMs.users)))} / ${fmt(median(runs.map((x) => x.walkMs.adverts)))} ms`,
		],
		[
			`${label}: **expand the busiest advert (${r.applications} applications) to its first page (${r.firstPageItems} tree items), cold**: first expansion in a fresh process (median of ${runs.length} processes)`,
			`**${fmt(cold)} ms**`,
		],
		[
			`${label}: expand another advert (${otherRange} applications) for the first time, process warm (median of ${others.length})`,
			others.length ? `${fmt(median(others))} ms` : 'n/a',
		],
		[
			`${label}: **expand the busiest advert again after Refresh on it, warm** (median of ${warm.length} = ${runs.length} processes × ${r.warmMs.length})`,
			`**${fmt(median(warm))} ms**`,
		],
		[
			`${label}: extension process rss / V8 heapUsed / external, after activation → after sandbox start and expansions (after GC, median of ${runs.length})`,
			`${memoryText(medianMemory(runs.map((x) => x.activation.memory)))} → **${memoryText(medianMemory(runs.map((x) => x.memory)))}**`,
		],
	];
}

/** Runs benchmark 5 and returns its report section. */
export async function runExtensionBenchmarks(log: (line: string) => void): Promise<Section[]> {
	const dir = mkdtempSync(join(tmpdir(), 'mp-bench-ext-'));
	const rows: (string | number)[][] = [];
	let bundle: string | undefined;
	try {
		if (existsSync(join(ROOT, 'src/extension/extension.ts'))) {
			try {
				bundle = await productionBundle(dir);
				rows.push(['dist/extension.js (production, minified)', `${fmt(statSync(bundle).size / 1024)} KiB`]);
				const start = activation(bundle, dir);
				const calls = start.figures.calls;
				const did = `registers ${calls['commands.registerCommand'] ?? 0} commands, ${start.figures.treeViews.length} tree view, ${calls['window.createStatusBarItem'] ?? 0} status bar item, ${calls['languages.registerCodeLensProvider'] ?? 0} CodeLens provider, ${calls['window.createOutputChannel'] ?? 0} output channels: ${start.figures.subscriptions} disposables`;
				const didNot = `${start.figures.listeningServers === 0 && !start.figures.sandboxStarted && !start.sandboxFolder ? 'starts no sandbox, opens no port or database, creates no folder' : 'WARNING: started something'}`;
				rows.push([
					`require() of the bundle (fresh process, vscode stand-in, median of ${LOAD_REPS})`,
					`${fmt(start.requireMs)} ms`,
				]);
				rows.push([
					`activate() with a fake ExtensionContext (${did}; ${didNot}; median of ${LOAD_REPS})`,
					`${fmt(start.activateMs)} ms`,
				]);
				rows.push([
					'extension process after activation: rss / V8 heapUsed / external (Node alone, no VS Code, after GC)',
					memoryText(start.memory),
				]);
				log(
					`  extension bundle ${fmt(statSync(bundle).size / 1024)} KiB, require ${fmt(start.requireMs)} ms, activate ${fmt(start.activateMs)} ms, rss ${fmt(start.memory.rssMb, 0)} MB`,
				);
			} catch (error) {
				bundle = undefined;
				rows.push(['extension bundle', `not measured: ${(error as Error).message.split('\n')[0]}`]);
			}
			try {
				const vsix = join(dir, 'multiposting-workbench.vsix');
				// The base URLs only let vsce rewrite README links (no repository is set); vsce's prepublish
				// step rebuilds dist/ for production, so the development build is restored afterwards.
				execFileSync(
					'npx',
					[
						'vsce',
						'package',
						'--no-dependencies',
						'--allow-missing-repository',
						'--skip-license',
						'--baseContentUrl',
						'https://example.invalid/',
						'--baseImagesUrl',
						'https://example.invalid/',
						'-o',
						vsix,
					],
					{ cwd: ROOT, stdio: 'ignore', timeout: 300_000 },
				);
				// dist/ now holds the production build that went into the .vsix.
				for (const file of ['dist/sandbox.js', 'dist/sandboxWorker.js', ...webviewBundles()].filter((f) =>
					existsSync(join(ROOT, f)),
				)) {
					rows.push([`${file} (production, minified)`, `${fmt(statSync(join(ROOT, file)).size / 1024)} KiB`]);
				}
				execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
				const entries = zipEntries(vsix);
				const unwanted = entries.filter((e) => /\.map$|pdf\.worker|(^|\/)(src|test|bench|out)\//.test(e.name));
				rows.push([
					`.vsix (vsce package --no-dependencies): ${entries.length} files, ${unwanted.length === 0 ? 'no source maps, no pdf.js worker file, nothing from src/, test/, bench/ or out/' : `**also ${unwanted.map((e) => e.name).join(', ')}**`}; largest: ${entries
						.sort((a, b) => b.size - a.size)
						.slice(0, 4)
						.map((e) => `${e.name.replace(/^extension\//, '')} ${fmt(e.size / 1024, 0)} KiB`)
						.join(', ')} (uncompressed)`,
					`${fmt(statSync(vsix).size / 1024)} KiB`,
				]);
				log(`  vsix ${fmt(statSync(vsix).size / 1024)} KiB, ${entries.length} files`);
			} catch (error) {
				rows.push(['.vsix', `not measured: ${(error as Error).message.split('\n')[0]}`]);
			}
		} else {
			rows.push(['extension', 'not measured: src/extension/extension.ts does not exist yet']);
		}

		// Each sandbox lives where the extension keeps it: <globalStorage>/sandbox.
		const first: number[] = [];
		const again: number[] = [];
		for (let i = 0; i < SANDBOX_REPS; i++) {
			const dataDir = join(dir, `host-${i}`, 'sandbox');
			let started = Date.now();
			openSandbox({ dataDir, seed: 1 }).close();
			first.push(Date.now() - started);
			started = Date.now();
			openSandbox({ dataDir, seed: 1 }).close();
			again.push(Date.now() - started);
		}
		const defaultDb = join(dir, 'host-0', 'sandbox', 'sandbox.sqlite');
		rows.push(['sandbox first start (openSandbox seeding a fresh folder, median)', `${fmt(median(first), 0)} ms`]);
		rows.push(['sandbox later start (existing database, median)', `${fmt(median(again), 0)} ms`]);
		rows.push(['sandbox database size after seeding', `${fmt(statSync(defaultDb).size / 1e6)} MB`]);
		log(`  sandbox first start ${fmt(median(first), 0)} ms, later ${fmt(median(again), 0)} ms`);

		// The tree over the default sandbox and over a large one, each in fresh processes standing in for the extension host.
		if (bundle) {
			const defaultApplications = countApplications(defaultDb);
			rows.push(
				...treeRows(
					`default sandbox (${defaultApplications.toLocaleString('en-GB')} applications)`,
					bundle,
					join(dir, 'host-0'),
					log,
				),
			);
			const generated = await seedWithCli(
				shippedSandboxBundle(join(dir, 'shipped-sandbox')),
				join(dir, 'host-large', 'sandbox'),
				LARGE_SANDBOX_APPLICATIONS,
			);
			log(
				`  large sandbox: ${generated.applications} applications seeded in ${fmt(generated.ms / 1000)} s, ${fmt(generated.sizeMb, 0)} MB`,
			);
			rows.push([
				`large sandbox: ${generated.applications.toLocaleString('en-GB')} applications seeded by the CLI (--size large, timed in section 4, not below), database size`,
				`${fmt(generated.sizeMb, 0)} MB`,
			]);
			rows.push(
				...treeRows(
					`large sandbox (${generated.applications.toLocaleString('en-GB')} applications)`,
					bundle,
					join(dir, 'host-large'),
					log,
				),
			);
		} else {
			rows.push(['tree and memory', 'not measured: no bundle']);
		}
		return [
			{
				title: '5. The extension',
				body: table(['measure', 'value'], rows) + `\n\n${METHOD}`,
			},
		];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The webview bundles in dist/webview, relative to the project. */
function webviewBundles(): string[] {
	const dir = join(ROOT, 'dist', 'webview');
	return existsSync(dir)
		? readdirSync(dir)
				.filter((name) => name.endsWith('.js'))
				.map((name) => `dist/webview/${name}`)
		: [];
}

/** Names and uncompressed sizes of a zip's entries, from its central directory. */
function zipEntries(path: string): { name: string; size: number }[] {
	const zip = readFileSync(path);
	const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
	if (eocd < 0) return [];
	const count = zip.readUInt16LE(eocd + 10);
	let p = zip.readUInt32LE(eocd + 16);
	const entries: { name: string; size: number }[] = [];
	for (let i = 0; i < count && zip.readUInt32LE(p) === 0x02014b50; i++) {
		const nameLength = zip.readUInt16LE(p + 28);
		const name = zip.toString('utf8', p + 46, p + 46 + nameLength);
		entries.push({ name, size: zip.readUInt32LE(p + 24) });
		p += 46 + nameLength + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
	}
	return entries;
}

function countApplications(dbPath: string): number {
	const db = openDatabase(dbPath);
	try {
		return Number((db.get('SELECT count(*) AS n FROM application') as { n: number | bigint }).n);
	} finally {
		db.close();
	}
}

const METHOD =
	'Method: every activation and tree figure comes from a fresh Node process (bench/extensionChild.ts) standing in for the extension host. ' +
	"It requires the production bundle built above with a stand-in for the 'vscode' module (bench/vscodeStandIn.ts: the unit tests' in-memory settings, secrets and log of test/extension/fakes.ts behind it, small real TreeItem, EventEmitter and Uri classes, every other API an inert stub that is counted) " +
	"and calls its activate() with a fake ExtensionContext whose global storage is a temporary folder. Activation is lazy by design: it registers commands, the tree view, the status bar item and the playground's CodeLens provider and returns; " +
	"the emulator's code is bundled but starts only when first used. In the tree processes the sandbox database sits in that global storage, where the extension keeps it; " +
	'the benchmark then runs the Start Sandbox command the extension registered and drives the tree view it registered (its own AccountTreeProvider and AccountModel, page size 50): ' +
	"connection → organisations → demo.admin → adverts, then times from asking for the busiest advert's children to having the tree items of its first page " +
	"(GetApplicationsPaged over loopback, SOAP decoding, the model and getTreeItem; not VS Code's rendering or its IPC to the renderer). " +
	'"Cold" is the first such expansion in a fresh process; "other advert" is the first expansion of the next busiest adverts once the process is warm; "warm" runs the extension\'s Refresh command on the advert and expands it again. ' +
	'Memory is process.memoryUsage() after a forced GC, after activation and again after the sandbox start and expansions in the same process; the sandbox (HTTP server and node:sqlite) runs inside the extension host (on a worker thread), so that is the figure to watch. ' +
	'The large database is generated afresh on every run (nothing cached) and removed with the temporary folder.';
