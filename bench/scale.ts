/**
 * Benchmark 4: a million applications as users make them, `--size large` seeded by the production
 * CLI (bench/largeSandbox.ts), timed from spawn to ready; then on that database its open time,
 * GetApplicationsPaged latency per filter kind over loopback, and the query plans SQLite chooses for
 * them (EXPLAIN QUERY PLAN; a SCAN of application would mean no index is used).
 */
import { loadavg } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../src/emulator/store/engine';
import { startEmulator, type RunningEmulator } from '../src/emulator';
import { StatementCache } from '../src/emulator/store/statements';
import { getBinding } from '../src/protocol/bindings';
import type { AnyParams } from '../src/protocol/catalogue';
import { fmt, quantile, table, type Section } from './common';
import { seedWithCli, shippedSandboxBundle } from './largeSandbox';

/** Calls per filter: with 100, p99 is the second slowest call rather than the slowest of 30. */
const CALLS_PER_FILTER = 100;

interface Captured {
	db: Database;
	sql: string;
	values: unknown;
}

/**
 * Records the application queries the emulator runs, to explain them afterwards. The store runs
 * every query through its StatementCache (kept prepared statements), so that is where to listen.
 */
function captureSql(): { take(): Captured[]; restore(): void } {
	const proto = StatementCache.prototype as unknown as {
		all(this: StatementCache, sql: string, values?: unknown): unknown;
	};
	const original = proto.all;
	let captured: Captured[] = [];
	proto.all = function (this: StatementCache, sql: string, values?: unknown) {
		if (/FROM application ap/.test(sql)) {
			captured.push({ db: (this as unknown as { db: Database }).db, sql, values });
		}
		return original.call(this, sql, values);
	};
	return {
		take: () => {
			const out = captured;
			captured = [];
			return out;
		},
		restore: () => {
			proto.all = original;
		},
	};
}

async function call(emulator: RunningEmulator, params: AnyParams): Promise<number> {
	const ctx = { namespace: emulator.namespace, endpointPath: new URL(emulator.postingUrl).pathname };
	const encoded = getBinding('soap11').encodeRequest('GetApplicationsPaged', params, ctx);
	const started = process.hrtime.bigint();
	const response = await fetch(emulator.baseUrl + encoded.path, {
		method: 'POST',
		headers: encoded.headers,
		body: Buffer.from(encoded.body),
	});
	const body = new Uint8Array(await response.arrayBuffer());
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const decoded = getBinding('soap11').decodeResponse(
		'GetApplicationsPaged',
		{
			status: response.status,
			headers: { 'content-type': response.headers.get('content-type') ?? undefined },
			body,
		},
		ctx,
	);
	if (!decoded.ok) throw new Error(`GetApplicationsPaged failed: ${decoded.fault.message}`);
	return ms;
}

/** Runs benchmark 4 with `size` applications and returns its report section; `keep` leaves the database in place. */
export async function runScaleBenchmark(size: number, log: (line: string) => void, keep = false): Promise<Section[]> {
	const root = mkdtempSync(join(tmpdir(), 'mp-bench-scale-'));
	const dir = join(root, 'data');
	try {
		const bundle = shippedSandboxBundle(join(root, 'shipped'));
		const loadBefore = loadavg();
		const generated = await seedWithCli(bundle, dir, size);
		const load = `load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')} after`;
		log(
			`scale: --size ${size} seeded by dist/sandbox.js in ${fmt(generated.ms / 1000)} s (${fmt(generated.cpuMs / 1000)} s CPU; ${load}), ` +
				`${generated.adverts} adverts, ${generated.applications} applications, ${fmt(generated.sizeMb)} MB`,
		);
		const capture = captureSql();
		const openStarted = Date.now();
		// The answer cache off: the same call repeated 30 times would otherwise be served from memory after
		// the first, and the figures would measure the cache, not the search.
		const emulator = await startEmulator({ host: '127.0.0.1', port: 0, dataDir: dir, answerCache: false });
		const openMs = Date.now() - openStarted;
		try {
			// GetApplicationsPaged takes the API key alone; sUsername would limit every search to that user's
			// adverts, so only the last filter gives it. The others search the key's whole account.
			const login = { sAPIKey: emulator.demo.apiKey };
			const now = new Date();
			const iso = (daysAgo: number): string =>
				new Date(now.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 19);
			const page = { CurrentPage: 1, RowsPerPage: 50 };
			const allTime = { sApplicationStartDateTime: '2000-01-01T00:00:00' };
			const someIds = Array.from({ length: 20 }, (_, i) => 1 + i * 40_000)
				.filter((id) => id <= generated.applications)
				.join(',');
			const filters: [string, AnyParams][] = [
				['sAdvertID', { sAdvertID: '1' }],
				['date range (30 days)', { sApplicationStartDateTime: iso(30), sApplicationEndDateTime: iso(0) }],
				['RankingAsCSV with a job', { sAdvertID: '1', RankingAsCSV: 'Suitable,MaybeSuitable' }],
				['ProgressIDAsCSV with a job', { sAdvertID: '1', ProgressIDAsCSV: '1,2' }],
				['AdvertCandidateIDAsCSV (20 ids)', { AdvertCandidateIDAsCSV: someIds }],
				[
					'DestinationsAsCSV with a date range',
					{
						DestinationsAsCSV: generated.feedIds.join(','),
						sApplicationStartDateTime: iso(30),
						sApplicationEndDateTime: iso(0),
					},
				],
				[
					'DestinationsAsCSV (3 feeds) with a date range',
					{
						DestinationsAsCSV: generated.feedIds.slice(0, 3).join(','),
						sApplicationStartDateTime: iso(30),
						sApplicationEndDateTime: iso(0),
					},
				],
				['sLastScoreDate (with a job)', { sAdvertID: '1', sLastScoreDate: iso(60) }],
				// Filters on application columns without a job: the service asks for a job, a period or ids, so
				// these take the whole period (every application of the account matches it).
				['RankingAsCSV, all time', { RankingAsCSV: 'Suitable,MaybeSuitable', ...allTime }],
				[
					'RankingAsCSV with a date range',
					{
						RankingAsCSV: 'Suitable,MaybeSuitable',
						sApplicationStartDateTime: iso(30),
						sApplicationEndDateTime: iso(0),
					},
				],
				['ProgressIDAsCSV, all time', { ProgressIDAsCSV: '2', ...allTime }],
				['sLastScoreDate (60 days), all time', { sLastScoreDate: iso(60), ...allTime }],
				// What the extension's tree asks to name a user's organisation: every application of the user's adverts.
				[
					"a user's applications, all time",
					{ sUsername: emulator.demo.username, sApplicationStartDateTime: '2000-01-01T00:00:00' },
				],
				[
					"a user's applications, 3 feeds, 30 days",
					{
						sUsername: emulator.demo.username,
						DestinationsAsCSV: generated.feedIds.slice(0, 3).join(','),
						sApplicationStartDateTime: iso(30),
						sApplicationEndDateTime: iso(0),
					},
				],
			];
			// The emulator's first request pays for compiling its code paths and preparing statements; it is
			// timed on its own (one application by id), so the first filter's figures are the filter's.
			const firstRequestMs = await call(emulator, { ...login, AdvertCandidateIDAsCSV: '1', ...page });
			const rows: (string | number)[][] = [];
			const plans: string[] = [];
			for (const [name, filter] of filters) {
				capture.take();
				// Each filter starts on a collected heap, so it does not pay for the garbage of the one before.
				(globalThis as { gc?: () => void }).gc?.();
				const times: number[] = [];
				for (let i = 0; i < CALLS_PER_FILTER; i++) {
					times.push(await call(emulator, { ...login, ...filter, ...page }));
				}
				// The search runs an ordered, paged id query, a count when the page cannot tell the total, then a lookup of the page's rows by id.
				const captured = capture.take();
				const queries = [
					captured.find((q) => /^SELECT ap\.id\b/.test(q.sql)),
					captured.find((q) => /count\(\*\)/.test(q.sql)),
				].filter((q): q is Captured => q !== undefined);
				// Only the application table's access and sorting matter; the joins are primary-key lookups.
				const plan = queries
					.map((q) =>
						(q.db.all(`EXPLAIN QUERY PLAN ${q.sql}`, q.values as never) as { detail: string }[])
							.map((r) => r.detail)
							.filter((d) => /\bap\b|application|B-TREE/.test(d))
							.join('; '),
					)
					.join(' ‖ ');
				const fullScan = /\bSCAN (ap|application)\b(?! USING)/.test(plan);
				rows.push([
					name,
					fmt(quantile(times, 0.5)),
					fmt(quantile(times, 0.99)),
					fullScan ? 'FULL SCAN' : 'index',
				]);
				plans.push(`- ${name}: \`${plan}\``);
				log(
					`  ${name}: p50 ${fmt(quantile(times, 0.5))} ms p99 ${fmt(quantile(times, 0.99))} ms ${fullScan ? 'FULL SCAN' : 'index'}`,
				);
			}
			return [
				{
					title: `4. Scale: ${generated.applications.toLocaleString('en-GB')} applications`,
					body:
						`Seeded by the production CLI (\`node dist/sandbox.js --size ${size === 1_000_000 ? 'large' : size} --data <new folder>\`, bench/largeSandbox.ts) in ${fmt(generated.ms / 1000)} s from spawn to its ready line ` +
						`(${fmt(generated.cpuMs / 1000)} s CPU; ${load}): ${generated.adverts.toLocaleString('en-GB')} adverts, database ${fmt(generated.sizeMb)} MB. ` +
						`Then on that database: emulator open (startEmulator on the existing file) ${openMs} ms; its first request (one application by id) ${fmt(firstRequestMs)} ms; ` +
						`${CALLS_PER_FILTER} sequential GetApplicationsPaged calls (SOAP 1.1, RowsPerPage 50) per filter kind over loopback, decode included, with the answer cache off (every call runs its search).\n\n` +
						table(['filter', 'p50 ms', 'p99 ms', 'plan'], rows) +
						`\n\nQuery plans (page of ids ‖ count):\n\n${plans.join('\n')}`,
				},
			];
		} finally {
			capture.restore();
			await emulator.stop();
		}
	} finally {
		if (keep) log(`scale: kept ${dir}`);
		else rmSync(root, { recursive: true, force: true });
	}
}
