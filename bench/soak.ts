/**
 * Soak test: an in-process sandbox and the typed client on loopback, at a steady request rate with
 * mixed operations and bindings, for a bounded time. Samples memory every 10 s and prints requests
 * served, errors and memory at start and end.
 *
 *   node out/bench/soak.js --minutes 3 [--rate 200]
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { MultipostingClient, MultipostingError } from '../src/client';
import { startEmulator } from '../src/emulator';
import { BINDING_NAMES, type BindingName } from '../src/protocol/bindings/types';

const SAMPLE_EVERY_MS = 10_000;
/** Requests allowed in flight; beyond this a tick is skipped and counted as "behind". */
const MAX_IN_FLIGHT = 128;

interface Sample {
	atS: number;
	rssMb: number;
	heapUsedMb: number;
	served: number;
}

function memory(): { rssMb: number; heapUsedMb: number } {
	const usage = process.memoryUsage();
	return { rssMb: Math.round(usage.rss / 1e5) / 10, heapUsedMb: Math.round(usage.heapUsed / 1e5) / 10 };
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: { minutes: { type: 'string', default: '3' }, rate: { type: 'string', default: '200' } },
	});
	const minutes = Number(values.minutes);
	const rate = Number(values.rate);
	if (!(minutes > 0 && minutes <= 120) || !(rate > 0 && rate <= 5000)) {
		throw new Error('--minutes must be in (0, 120] and --rate in (0, 5000].');
	}
	const durationMs = minutes * 60_000;
	const maxRequests = Math.ceil((durationMs / 1000) * rate);

	const emulator = await startEmulator({ host: '127.0.0.1', port: 0, dataDir: ':memory:', seed: 1 });
	const client = new MultipostingClient({
		baseUrl: emulator.baseUrl,
		namespace: emulator.namespace,
		timeoutMs: 10_000,
		credentials: {
			apiKey: emulator.demo.apiKey,
			username: emulator.demo.username,
			password: emulator.demo.password,
		},
	});
	const firstPage = await client.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 500 });
	const advertIds = (firstPage.Adverts ?? []).filter((a) => (a.Applications ?? 0) > 0).map((a) => String(a.AdvertID));

	let sequence = 0;
	const pick = <T>(items: readonly T[]): T => items[sequence % items.length];
	/** The mix: mostly searches and lookups, some writes, an occasional password check (scrypt). */
	const mix: ((binding: BindingName) => Promise<unknown>)[] = [
		(binding) => client.getCurrency({}, { binding }),
		(binding) =>
			client.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1 + (sequence % 7), RowsPerPage: 25 }, { binding }),
		(binding) =>
			client.getApplicationsPaged({ sAdvertID: pick(advertIds), CurrentPage: 1, RowsPerPage: 20 }, { binding }),
		(binding) =>
			client.getApplicationsPaged(
				{ sAdvertID: pick(advertIds), boolIncludeEmailBody: 'true', CurrentPage: 1, RowsPerPage: 5 },
				{ binding },
			),
		(binding) => client.queryJobTitle({ q: pick(['de', 'man', 'nu', 'sa', 'en']) }, { binding }),
		(binding) => client.getWeeksToAdvertise({}, { binding }),
		(binding) => client.advertTrackingResponseLog({ sAdvertID: pick(advertIds) }, { binding }),
		(binding) => client.getAdvertWithValues({ sAdvertID: pick(advertIds) }, { binding }),
		(binding) =>
			client.candidateTag(
				{ sCandidateEmail: `soak-${sequence % 50}@nowhere.example`, Tag: 'Reviewed' },
				{ binding },
			),
	];
	const withLogin: ((binding: BindingName) => Promise<unknown>)[] = [
		(binding) => client.userList({}, { binding }),
		(binding) => client.feedList({}, { binding }),
	];

	let served = 0;
	let errors = 0;
	let behind = 0;
	let inFlight = 0;
	const errorCodes = new Map<string, number>();
	const latencies: number[] = [];
	const start = memory();
	const samples: Sample[] = [{ atS: 0, ...start, served: 0 }];
	const startedAt = Date.now();
	const sampler = setInterval(
		() => samples.push({ atS: Math.round((Date.now() - startedAt) / 1000), ...memory(), served }),
		SAMPLE_EVERY_MS,
	);

	const fire = (): void => {
		if (inFlight >= MAX_IN_FLIGHT) {
			behind += 1;
			return;
		}
		sequence += 1;
		const binding = BINDING_NAMES[sequence % BINDING_NAMES.length];
		const operation =
			sequence % 50 === 0 ? withLogin[(sequence / 50) % withLogin.length] : mix[sequence % mix.length];
		inFlight += 1;
		const began = performance.now();
		operation(binding)
			.then(
				() => {
					served += 1;
					latencies.push(performance.now() - began);
				},
				(error: unknown) => {
					errors += 1;
					const code = error instanceof MultipostingError ? error.code : 'OTHER';
					errorCodes.set(code, (errorCodes.get(code) ?? 0) + 1);
				},
			)
			.finally(() => {
				inFlight -= 1;
			});
	};

	// A steady rate: every 10 ms, fire as many requests as the schedule says are due.
	let fired = 0;
	await new Promise<void>((resolve) => {
		const ticker = setInterval(() => {
			const elapsed = Date.now() - startedAt;
			if (elapsed >= durationMs || fired >= maxRequests) {
				clearInterval(ticker);
				resolve();
				return;
			}
			const due = Math.min(maxRequests, Math.floor((elapsed / 1000) * rate));
			while (fired < due) {
				fired += 1;
				fire();
			}
		}, 10);
	});
	for (let waited = 0; inFlight > 0 && waited < 30_000; waited += 50) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	clearInterval(sampler);
	const end = memory();
	samples.push({ atS: Math.round((Date.now() - startedAt) / 1000), ...end, served });
	await client.close();
	await emulator.stop();

	latencies.sort((a, b) => a - b);
	const percentile = (p: number): number =>
		Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0);
	const seconds = (Date.now() - startedAt) / 1000;
	const report = {
		node: process.version,
		cpus: availableParallelism(),
		minutes,
		targetRate: rate,
		fired,
		served,
		errors,
		errorCodes: Object.fromEntries(errorCodes),
		skippedBecauseBehind: behind,
		achievedRate: Math.round((served / seconds) * 10) / 10,
		latencyMs: {
			p50: percentile(0.5),
			p95: percentile(0.95),
			p99: percentile(0.99),
			max: Math.round(latencies[latencies.length - 1] ?? 0),
		},
		memoryStart: start,
		memoryEnd: end,
		samples,
	};
	console.log(
		`soak: ${served} served, ${errors} errors in ${Math.round(seconds)} s (${report.achievedRate} req/s); rss ${start.rssMb} -> ${end.rssMb} MB, heapUsed ${start.heapUsedMb} -> ${end.heapUsedMb} MB`,
	);
	console.log(JSON.stringify(report, null, 2));
	if (errors > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
