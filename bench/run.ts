/**
 * `npm run bench`: every benchmark in one run on one machine, printed and written into
 * bench/RESULTS.md between the generated markers (the hand-written analysis around them is kept).
 *
 *   node out/bench/run.js [--only codec,client,server,journal,proxy,scale,extension,stall,webview] [--reps 5] [--seconds 5] [--rounds 3]
 *     [--bindings soap11,soap12,httpGet,httpPost] [--no-profile] [--size 1000000] [--keep] [--no-write]
 *     [--ops GetCurrency,AddAdvert] [--connections 16]   (server: only these workloads and connection counts)
 *   proxy: the inspecting proxy vs a direct connection, a bare node:http forwarder, WireMock's proxy mode and
 *     mitmproxy (bench/setup.sh installs mitmdump), replay vs kept answers, a CPU profile of the proxy
 *     (--no-profile skips it; --rounds as for server). Mind --no-write with --only: the generated block
 *     of bench/RESULTS.md is replaced by the sections that ran.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runClientBenchmarks } from './client';
import { runCodecBenchmarks } from './codec';
import { describeMachine, type Section } from './common';
import { runExtensionBenchmarks } from './extension';
import { runScaleBenchmark } from './scale';
import { runServerBenchmarks } from './server';
import { runJournalBenchmark } from './journal';
import { runProxyBenchmark } from './proxy';
import { runStallBenchmark } from './stall';
import { runPanelOpenBenchmark } from './panelOpen';
import { runWebviewBenchmarks } from './webviewPanels';
import { BINDING_NAMES, type BindingName } from '../src/protocol/bindings';

const BEGIN = '<!-- BEGIN GENERATED RESULTS -->';
const END = '<!-- END GENERATED RESULTS -->';
const ALL = ['codec', 'client', 'server', 'journal', 'proxy', 'scale', 'extension', 'stall', 'webview'] as const;

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			only: { type: 'string' },
			reps: { type: 'string', default: '5' },
			seconds: { type: 'string', default: '5' },
			rounds: { type: 'string', default: '3' },
			size: { type: 'string', default: '1000000' },
			'no-write': { type: 'boolean', default: false },
			keep: { type: 'boolean', default: false },
			bindings: { type: 'string' },
			'no-profile': { type: 'boolean', default: false },
			ops: { type: 'string' },
			connections: { type: 'string' },
		},
	});
	const only = new Set((values.only ?? ALL.join(',')).split(',').map((s) => s.trim()));
	const reps = clamp(Number(values.reps), 1, 50);
	const seconds = clamp(Number(values.seconds), 1, 30);
	const size = clamp(Number(values.size), 1000, 5_000_000);
	const log = (line: string): void => console.log(line);
	const machine = describeMachine();
	log(`machine: ${machine}`);
	const started = Date.now();
	const sections: Section[] = [];
	const failed: string[] = [];
	// A section that fails is named in the results, and the others still run and are written.
	const measure = async (name: string, run: () => Promise<Section[]>): Promise<void> => {
		try {
			sections.push(...(await run()));
		} catch (error) {
			const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
			log(`${name}: FAILED\n${reason}`);
			failed.push(name);
			sections.push({ title: `${name}: not measured`, body: `The section failed: ${reason.split('\n')[0]}` });
		}
	};
	if (only.has('codec')) await measure('codec', () => runCodecBenchmarks(reps, log));
	if (only.has('client')) await measure('client', () => runClientBenchmarks(reps, log));
	if (only.has('server')) {
		const bindings = values.bindings
			?.split(',')
			.map((b) => b.trim())
			.filter((b): b is BindingName => (BINDING_NAMES as readonly string[]).includes(b));
		const operations = values.ops?.split(',').map((o) => o.trim());
		const connections = values.connections
			?.split(',')
			.map(Number)
			.filter((c) => Number.isInteger(c) && c > 0);
		await measure('server', () =>
			runServerBenchmarks(seconds, log, {
				bindings,
				profile: !values['no-profile'],
				operations,
				connections,
				rounds: clamp(Number(values.rounds), 1, 9),
			}),
		);
	}
	if (only.has('journal')) await measure('journal', async () => [await runJournalBenchmark(seconds, log)]);
	if (only.has('proxy')) {
		await measure('proxy', () =>
			runProxyBenchmark(seconds, log, {
				rounds: clamp(Number(values.rounds), 1, 9),
				profile: !values['no-profile'],
			}),
		);
	}
	if (only.has('scale')) await measure('scale', () => runScaleBenchmark(size, log, values.keep));
	if (only.has('extension')) await measure('extension', () => runExtensionBenchmarks(log));
	if (only.has('stall')) await measure('stall', () => runStallBenchmark(log));
	if (only.has('webview')) {
		await measure('webview', async () => [(await runWebviewBenchmarks(log, reps)).section]);
		await measure('panel open', async () => [await runPanelOpenBenchmark(log, reps)]);
	}

	const report = [
		BEGIN,
		`Run of ${new Date(started).toISOString()} (${((Date.now() - started) / 1000).toFixed(0)} s), ${reps} repetitions per figure (medians).`,
		'',
		`Machine: ${machine}`,
		'',
		...sections.flatMap((s) => [`### ${s.title}`, '', s.body, '']),
		END,
	].join('\n');
	console.log(`\n${report}`);
	if (!values['no-write']) writeResults(report);
	if (failed.length > 0) {
		console.error(`not measured: ${failed.join(', ')}`);
		process.exitCode = 1;
	}
}

function clamp(value: number, min: number, max: number): number {
	return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : min;
}

/** Replaces the generated block of bench/RESULTS.md (or appends it). */
function writeResults(report: string): void {
	const path = join(__dirname, '..', '..', 'bench', 'RESULTS.md');
	const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark results\n\n';
	const begin = current.indexOf(BEGIN);
	const end = current.indexOf(END);
	const next =
		begin >= 0 && end > begin
			? current.slice(0, begin) + report + current.slice(end + END.length)
			: `${current.trimEnd()}\n\n${report}\n`;
	writeFileSync(path, next);
	console.log(`written: ${path}`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
