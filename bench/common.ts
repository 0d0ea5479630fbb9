/**
 * Shared helpers of the benchmarks: repeated timing with medians, the machine's description and
 * Markdown tables. Benchmarks measure and print; they never assert on time.
 */
import { cpus, freemem, loadavg, totalmem, type as osType, release } from 'node:os';

/** Median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Value at quantile q (0..1) of a list, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * Times several functions in interleaved rounds (each round runs every function once, starting at a
 * different one) and returns each one's median in ms: a load spike on a shared machine then hits
 * all of them alike instead of whichever happened to run at that moment.
 */
export function timeInterleaved(fns: readonly (() => unknown)[], reps: number, warmup = 1): number[] {
	for (let w = 0; w < warmup; w++) for (const fn of fns) sink(fn());
	const times: number[][] = fns.map(() => []);
	for (let round = 0; round < reps; round++) {
		for (let k = 0; k < fns.length; k++) {
			const i = (k + round) % fns.length;
			// Each candidate starts on a clean heap, so nobody pays for the garbage of the one before.
			sunk = undefined;
			collectGarbage();
			const start = process.hrtime.bigint();
			sink(fns[i]());
			times[i].push(Number(process.hrtime.bigint() - start) / 1e6);
		}
	}
	return times.map(median);
}

/** A full collection when node runs with --expose-gc (npm run bench does), else nothing. */
export function collectGarbage(): void {
	(globalThis as { gc?: () => void }).gc?.();
}

/** The last value given to {@link sink}: exported so the work cannot be optimised away. */
export let sunk: unknown;
/** Keeps a value reachable (defeats dead-code elimination). */
export function sink(value: unknown): void {
	sunk = value;
}
/** One line describing the machine and its load when measured. */
export function describeMachine(): string {
	const cpu = cpus();
	const load = loadavg()
		.map((l) => l.toFixed(2))
		.join(' ');
	return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM (${(freemem() / 2 ** 30).toFixed(1)} free), ${osType()} ${release()}, Node ${process.version}, load average ${load}`;
}

/** A Markdown table from a header row and data rows. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
	const line = (cells: readonly (string | number)[]): string => `| ${cells.map(String).join(' | ')} |`;
	return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Formats a number with a fixed number of decimals. */
export function fmt(value: number, decimals = 1): string {
	return Number.isFinite(value) ? value.toFixed(decimals) : 'n/a';
}

/** Resident set size in MB. */
export function rssMb(): number {
	return process.memoryUsage().rss / 1e6;
}

/** A section of the report: a title and its Markdown body. */
export interface Section {
	title: string;
	body: string;
}
