/**
 * Benchmark "stall": does the sandbox block the extension host? A fresh process stands in for the
 * extension host (bench/stallChild.ts) and records the longest event-loop delay while the sandbox
 * starts on a fresh database (seeding the default account), while this process sends it a mixed load
 * of LOAD_RATE requests a second for LOAD_SECONDS, and while it stops. Measured on the production
 * bundles (built here as esbuild.mjs --production builds them), once with the sandbox on its worker
 * thread (the extension as shipped) and once on the host's own thread (as it ran before), for
 * comparison. Target: under 50 ms for the worker.
 *
 *   node out/bench/stall.js        (or: npm run bench -- --only stall)
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { MultipostingClient } from '../src/client';
import { DEMO_CREDENTIALS } from '../src/emulator/domain/seed';
import { fmt, table, type Section } from './common';
import type { FromStallChild, Stall, ToStallChild } from './stallChild';

const ROOT = join(__dirname, '..', '..');
const LOAD_RATE = 200;
const LOAD_SECONDS = 10;
const TARGET_MS = 50;

/** The production bundles this benchmark runs: extension, sandbox worker, the emulator alone. */
async function bundles(dir: string): Promise<void> {
	const options: BuildOptions = {
		bundle: true,
		minify: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		// libxml2-wasm (request files' schema check) is loaded at run time from dist/vendor, never bundled.
		external: ['vscode', 'libxml2-wasm'],
		logLevel: 'silent',
	};
	await Promise.all([
		build({
			...options,
			entryPoints: [join(ROOT, 'src/extension/extension.ts')],
			outfile: join(dir, 'extension.js'),
		}),
		build({
			...options,
			entryPoints: [join(ROOT, 'src/emulator/worker/sandboxWorker.ts')],
			outfile: join(dir, 'sandboxWorker.js'),
		}),
		build({ ...options, entryPoints: [join(ROOT, 'src/emulator/index.ts')], outfile: join(dir, 'emulator.js') }),
	]);
}

interface LoadFigures {
	sent: number;
	failed: number;
	firstError?: string;
}

/** LOAD_RATE requests a second for LOAD_SECONDS, mixed reads and a write, without waiting for answers. */
async function sendLoad(baseUrl: string, namespace: string): Promise<LoadFigures> {
	const client = new MultipostingClient({
		baseUrl,
		namespace,
		credentials: { ...DEMO_CREDENTIALS },
		timeoutMs: 30_000,
	});
	try {
		const adverts = await client.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 50 });
		const busy = (adverts.Adverts ?? []).find((a) => (a.Applications ?? 0) > 0);
		if (!busy) throw new Error('no advert with applications in the sandbox');
		const applications = await client.getApplicationsPaged({
			sAdvertID: String(busy.AdvertID),
			CurrentPage: 1,
			RowsPerPage: 50,
		});
		const candidate = applications.Applications?.[0]?.AdvertCandidateID;
		const calls: (() => Promise<unknown>)[] = [
			() => client.getCurrency({}),
			() => client.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 50 }),
			() => client.getApplicationsPaged({ sAdvertID: String(busy.AdvertID), CurrentPage: 1, RowsPerPage: 50 }),
			() =>
				client.applicationScore({
					sAdvertID: String(busy.AdvertID),
					sAdvertCandidateID: String(candidate),
					sScore: 'M',
				}),
		];
		const figures: LoadFigures = { sent: 0, failed: 0 };
		const inFlight = new Set<Promise<unknown>>();
		const started = performance.now();
		const total = LOAD_RATE * LOAD_SECONDS;
		while (figures.sent < total) {
			const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * LOAD_RATE));
			while (figures.sent < due) {
				const call = calls[figures.sent++ % calls.length]().catch((error: unknown) => {
					if (figures.failed++ === 0) {
						figures.firstError = error instanceof Error ? error.message : String(error);
					}
				});
				inFlight.add(call);
				void call.finally(() => inFlight.delete(call));
			}
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		await Promise.all(inFlight);
		return figures;
	} finally {
		await client.close();
	}
}

interface RunFigures {
	idle: Stall;
	start: Stall;
	load: Stall;
	stop: Stall;
	requests: LoadFigures;
}

/** One stand-in host: start, load, stop; bounded by a time limit. */
function runChild(mode: 'worker' | 'in-process', dir: string, globalStorage: string): Promise<RunFigures> {
	return new Promise<RunFigures>((resolve, reject) => {
		const child = fork(join(__dirname, 'stallChild.js'), [mode, dir, globalStorage], { stdio: 'inherit' });
		const limit = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${mode}: no result within 5 minutes`));
		}, 300_000);
		const figures: Partial<RunFigures> = {};
		const send = (message: ToStallChild): void => void child.send(message);
		child.on('message', (message: FromStallChild) => {
			if (message.type === 'started') {
				figures.idle = message.idle;
				figures.start = message.start;
				sendLoad(message.baseUrl, message.namespace).then(
					(requests) => {
						figures.requests = requests;
						send({ type: 'measure' });
					},
					(error: unknown) => {
						child.kill('SIGKILL');
						reject(error instanceof Error ? error : new Error(String(error)));
					},
				);
			} else if (message.type === 'measured') {
				figures.load = message.load;
				send({ type: 'stop' });
			} else if (message.type === 'stopped') {
				figures.stop = message.stop;
				clearTimeout(limit);
				resolve(figures as RunFigures);
			}
		});
		child.on('exit', (code) => {
			clearTimeout(limit);
			if (!figures.stop) reject(new Error(`${mode}: the stand-in host exited with ${code}`));
		});
	});
}

/** Runs the benchmark and returns its report section. */
export async function runStallBenchmark(log: (line: string) => void): Promise<Section[]> {
	const dir = mkdtempSync(join(tmpdir(), 'mp-stall-'));
	try {
		log('stall: building the production bundles');
		await bundles(dir);
		const rows: (string | number)[][] = [];
		for (const mode of ['worker', 'in-process'] as const) {
			const globalStorage = join(dir, `storage-${mode}`);
			mkdirSync(globalStorage);
			const run = await runChild(mode, dir, globalStorage);
			const label = mode === 'worker' ? 'worker thread (as shipped)' : 'host thread (before)';
			for (const [phase, stall] of [
				["idle (the machine's noise)", run.idle],
				['start, seeding a fresh database', run.start],
				[`load, ${LOAD_RATE} requests/s for ${LOAD_SECONDS} s`, run.load],
				['stop', run.stop],
			] as const) {
				log(
					`  ${label} ${phase}: longest stall ${fmt(stall.maxMs, 1)} ms, p99 ${fmt(stall.p99Ms, 1)} ms over ${fmt(stall.durationMs / 1000, 1)} s`,
				);
				rows.push([label, phase, fmt(stall.maxMs, 1), fmt(stall.p99Ms, 1), fmt(stall.durationMs / 1000, 1)]);
			}
			log(
				`  ${label}: ${run.requests.sent} requests sent, ${run.requests.failed} failed${run.requests.firstError ? ` (first: ${run.requests.firstError})` : ''}`,
			);
		}
		return [
			{
				title: 'Extension host event-loop stalls caused by the sandbox',
				body: [
					`The longest event-loop delay of a stand-in extension host (production bundle, monitorEventLoopDelay at 5 ms resolution) while the sandbox starts on a fresh database (default account), serves ${LOAD_RATE} mixed requests/s (GetCurrency, GetAdvertPaged and GetApplicationsPaged of 50 rows, ApplicationScore) sent by another process, and stops. Target: under ${TARGET_MS} ms with the sandbox on its worker thread.`,
					'',
					table(['sandbox runs on', 'phase', 'longest stall (ms)', 'p99 (ms)', 'duration (s)'], rows),
				].join('\n'),
			},
		];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

if (require.main === module) {
	runStallBenchmark((line) => console.log(line)).then(
		(sections) => {
			for (const s of sections) console.log(`\n### ${s.title}\n\n${s.body}`);
			process.exit(0);
		},
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
