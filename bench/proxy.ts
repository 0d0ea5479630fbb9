/**
 * Benchmark 6: the inspecting proxy (src/emulator/proxy/proxy.ts) and replay
 * (src/emulator/replay/replayer.ts), as users run them: the production bundle dist/sandbox.js started as
 * its CLI with `--proxy-to <upstream> --proxy-port 0`, and with `--replay <recording>`.
 *
 * The upstream is one standalone sandbox (the same bundle on its database file), the same process for
 * every peer. In the same run and with the same autocannon settings, each in its own process:
 *   - a direct connection to the upstream (the baseline);
 *   - our proxy (its journal on, as it always is with --proxy-to; no recording);
 *   - a bare node:http forwarder (bench/serverChild.ts `forward`): the ceiling for a proxy on Node;
 *   - WireMock's proxy mode (`--proxy-all <upstream>`, its request journal on, as by default);
 *   - mitmproxy's reverse mode (`mitmdump --mode reverse:<upstream> -q`, Debian's package).
 * GetCurrency and a 50-row GetAdvertPaged in SOAP 1.1 at 1 and 16 connections: every server is warmed
 * up, then loaded in turn for three rounds, each round starting with the next server; a cell is the
 * median round, a ratio the median of the round-by-round ratios. The CPU time each process spent
 * (/proc/<pid>/stat) is divided by the requests answered: what a request costs the proxy, the upstream
 * and the load generator. Then replay of a recording made through the proxy (`--record`) against the
 * same sandbox's kept answer, the proxy with `--record` under load, and a CPU profile of the proxy.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { describeMachine, fmt, median, quantile, table, type Section } from './common';
import { summariseProfile } from './profile';
import { bundles, requestFor, rssMbOf, startPeer, startSandbox, type RequestSpec, type Sandbox } from './server';
import { freePort, startWireMock } from './wiremock';

const CONNECTIONS = [1, 16] as const;
const ROWS = 50;
/** The product's targets: within 10 % of a direct connection, ahead of both peers; replay at least as fast. */
const DIRECT_TARGET = 0.9;
/** A live service is across a network: every answer of the remote upstream waits this long (a scenario's latency). */
const REMOTE_MS = 20;
const REPLAY_TARGET = 1.0;

interface Workload {
	name: string;
	spec: RequestSpec;
}

/** A server under load: where it listens and the process doing its work (none for the direct connection). */
interface Target {
	name: string;
	url: string;
	pid?: number;
}

interface Round {
	rps: number;
	/** Latency of the 2xx answers, µs (from every response's own time, not autocannon's 1 ms histogram). */
	p50: number;
	p99: number;
	errors: number;
	requests: number;
	/** CPU time per request answered, µs, per watched process, and of the load generator (this process). */
	cpu: Record<string, number>;
}

/** A server's figures in one cell: the medians of its rounds (errors summed), and the rounds. */
interface Measured {
	rps: number;
	p50: number;
	p99: number;
	errors: number;
	cpu: Record<string, number>;
	rounds: Round[];
}

function measured(rounds: Round[]): Measured {
	const cpu: Record<string, number> = {};
	for (const name of Object.keys(rounds[0]?.cpu ?? {})) cpu[name] = median(rounds.map((r) => r.cpu[name]));
	return {
		rps: median(rounds.map((r) => r.rps)),
		p50: median(rounds.map((r) => r.p50)),
		p99: median(rounds.map((r) => r.p99)),
		errors: rounds.reduce((sum, r) => sum + r.errors, 0),
		cpu,
		rounds,
	};
}

/** The median of the round-by-round ratios a ÷ b (the two measured within seconds of each other). */
function ratioOf(a: Measured | undefined, b: Measured | undefined): number {
	if (!a || !b || b.rounds.some((round) => round.rps <= 0)) return NaN;
	return median(a.rounds.map((round, k) => round.rps / b.rounds[k].rps));
}

let tickMs: number | undefined;
/** CPU time (user + system, every thread) a process has used so far, ms. */
function cpuMsOf(pid: number): number {
	if (tickMs === undefined) {
		let ticks = 100;
		try {
			ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
		} catch {
			// Linux's usual 100 Hz.
		}
		tickMs = 1000 / ticks;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// After the command name (which may hold spaces): field 3 on; utime and stime are fields 14 and 15.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * tickMs;
	} catch {
		return NaN;
	}
}

/** One load of `seconds` on `url`, with the CPU time of the `watch`ed processes and this one per request. */
async function load(
	url: string,
	spec: RequestSpec,
	connections: number,
	seconds: number,
	watch: Record<string, number | undefined>,
): Promise<Round> {
	const watched = Object.entries(watch).filter((entry): entry is [string, number] => entry[1] !== undefined);
	const before = watched.map(([, pid]) => cpuMsOf(pid));
	const ownBefore = process.cpuUsage();
	const latencies: number[] = [];
	const instance = autocannon({
		url: url + spec.path,
		method: spec.method,
		headers: spec.headers,
		...(spec.method === 'POST' ? { body: spec.body } : {}),
		connections,
		duration: seconds,
		timeout: 30,
	});
	instance.on('response', (_client, status, _bytes, ms) => {
		if (status >= 200 && status < 300) latencies.push(ms);
	});
	const result = await instance;
	const own = process.cpuUsage(ownBefore);
	const requests = result.requests.total;
	const perRequest = (ms: number): number => (requests > 0 ? (ms * 1000) / requests : NaN);
	const cpu: Record<string, number> = { 'load generator': perRequest((own.user + own.system) / 1000) };
	watched.forEach(([name, pid], i) => (cpu[name] = perRequest(cpuMsOf(pid) - before[i])));
	return {
		rps: requests / Math.max(0.001, result.duration),
		p50: latencies.length > 0 ? quantile(latencies, 0.5) * 1000 : NaN,
		p99: latencies.length > 0 ? quantile(latencies, 0.99) * 1000 : NaN,
		errors: result.errors + result.timeouts + result.non2xx,
		requests,
		cpu,
	};
}

interface Timing {
	rounds: number;
	seconds: number;
	warm: number;
}

/** Every target warmed up, then `rounds` rounds in turn, each starting with the next target. */
async function measureCell(
	targets: readonly Target[],
	spec: RequestSpec,
	connections: number,
	timing: Timing,
	upstreamPid: number | undefined,
	log: (line: string) => void,
	label: string,
): Promise<Map<string, Measured>> {
	const watchOf = (target: Target): Record<string, number | undefined> => ({
		...(target.pid !== undefined && target.pid !== upstreamPid ? { server: target.pid } : {}),
		...(upstreamPid !== undefined ? { upstream: upstreamPid } : {}),
	});
	for (const target of targets) await load(target.url, spec, connections, timing.warm, {});
	const runs = new Map<string, Round[]>(targets.map((target) => [target.name, []]));
	for (let round = 0; round < timing.rounds; round++) {
		for (let k = 0; k < targets.length; k++) {
			const target = targets[(k + round) % targets.length];
			runs.get(target.name)!.push(await load(target.url, spec, connections, timing.seconds, watchOf(target)));
		}
	}
	const cell = new Map<string, Measured>();
	for (const [name, rounds] of runs) {
		const result = measured(rounds);
		cell.set(name, result);
		log(
			`  ${label} c=${connections} ${name}: ${fmt(result.rps, 0)} req/s (rounds ${rounds.map((r) => fmt(r.rps, 0)).join(', ')}) p50 ${fmt(result.p50, 0)} µs p99 ${fmt(result.p99, 0)} µs, CPU/request ${Object.entries(
				result.cpu,
			)
				.map(([who, us]) => `${who} ${fmt(us, 0)} µs`)
				.join(', ')}, errors ${result.errors}`,
		);
	}
	return cell;
}

/** A peer proxy in its own process. */
interface External {
	url: string;
	pid: number;
	version: string;
	stop(): Promise<void>;
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
		child.once('exit', () => {
			clearTimeout(kill);
			resolve();
		});
		child.kill(signal);
	});
}

/** Resolves once `url` answers 200 through the proxy (the upstream's WSDL), or says why not. */
async function waitUntilAnswering(url: string, child: ChildProcess, what: string): Promise<string | undefined> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		if (child.exitCode !== null || child.signalCode !== null) return `${what} exited during start`;
		try {
			const response = await fetch(url);
			await response.arrayBuffer();
			if (response.ok) return undefined;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) return `${what} did not answer within 60 s`;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** mitmproxy in reverse mode in front of the upstream, or a string saying why it cannot run here. */
async function startMitmproxy(upstream: string, probePath: string): Promise<External | string> {
	const version = spawnSync('mitmdump', ['--version'], { encoding: 'utf8' });
	if (version.error || version.status !== 0) {
		return 'no mitmdump on this machine: run bash bench/setup.sh (installs the Debian package mitmproxy)';
	}
	const mitm = /Mitmproxy:\s*(\S+)/.exec(version.stdout)?.[1] ?? '?';
	const python = /Python:\s*(\S+)/.exec(version.stdout)?.[1] ?? '?';
	const port = await freePort();
	const child = spawn(
		'mitmdump',
		['--mode', `reverse:${upstream}`, '--listen-host', '127.0.0.1', '--listen-port', String(port), '-q'],
		{ stdio: 'ignore' },
	);
	const url = `http://127.0.0.1:${port}`;
	const failed = await waitUntilAnswering(url + probePath, child, 'mitmdump');
	if (failed) {
		await stopChild(child, 'SIGKILL');
		return failed;
	}
	return {
		url,
		pid: child.pid ?? 0,
		version: `mitmproxy ${mitm} (Python ${python})`,
		stop: () => stopChild(child, 'SIGTERM'),
	};
}

/** One answer as a client gets it. */
interface Answer {
	status: number;
	headers: Map<string, string>;
	body: Buffer;
}

async function send(url: string, spec: RequestSpec): Promise<Answer> {
	const response = await fetch(url + spec.path, {
		method: spec.method,
		headers: spec.headers,
		body: spec.method === 'POST' ? spec.body : undefined,
	});
	const body = Buffer.from(await response.arrayBuffer());
	return { status: response.status, headers: new Map(response.headers), body };
}

/** How an answer through a proxy differs from the direct one: same status and bytes, headers added or dropped. */
function fidelity(direct: Answer, proxied: Answer): string {
	const same = proxied.status === direct.status && proxied.body.equals(direct.body);
	const ignored = new Set(['date', 'connection', 'keep-alive']);
	const added = [...proxied.headers.keys()].filter((name) => !direct.headers.has(name) && !ignored.has(name));
	const dropped = [...direct.headers.keys()].filter((name) => !proxied.headers.has(name) && !ignored.has(name));
	const headers = [
		...added.map((name) => `+\`${name}: ${proxied.headers.get(name)}\``),
		...dropped.map((name) => `−\`${name}\``),
	];
	return `${same ? 'same status and bytes' : `**differs** (${proxied.status}, ${proxied.body.length} bytes)`}${headers.length > 0 ? `, headers ${headers.join(' ')}` : ''}`;
}

interface RawProfile {
	startTime: number;
	nodes: {
		id: number;
		callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
		children?: number[];
	}[];
	samples: number[];
	timeDeltas: number[];
}

/** A part of the work, told by a frame on the stack (its function name and source file after the map). */
interface Part {
	label: string;
	test: (name: string, source: string) => boolean;
}

/**
 * Inclusive time of each part (a sample counts for a part when one of its frames is on the stack), as a
 * share of the busy time in the window. Parts may overlap.
 */
function inclusiveShares(
	profilePath: string,
	sourceMapPath: string,
	window: { fromUs: number; toUs: number },
	parts: readonly Part[],
): number[] {
	const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as RawProfile;
	const map = existsSync(sourceMapPath)
		? new SourceMap(JSON.parse(readFileSync(sourceMapPath, 'utf8')) as ConstructorParameters<typeof SourceMap>[0])
		: undefined;
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const own = new Map<number, number[]>();
	for (const node of profile.nodes) {
		const frame = node.callFrame;
		let source = frame.url;
		if (map && frame.url.endsWith('.js') && !frame.url.startsWith('node:')) {
			const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string };
			if (entry.originalSource) source = entry.originalSource;
		}
		own.set(
			node.id,
			parts.flatMap((part, i) => (part.test(frame.functionName, source) ? [i] : [])),
		);
	}
	const onStack = new Map<number, Set<number>>();
	const stackOf = (id: number): Set<number> => {
		const known = onStack.get(id);
		if (known) return known;
		const up = parent.get(id);
		const set = new Set(up === undefined ? [] : stackOf(up));
		for (const i of own.get(id) ?? []) set.add(i);
		onStack.set(id, set);
		return set;
	};
	const totals = parts.map(() => 0);
	let busy = 0;
	let at = profile.startTime;
	profile.samples.forEach((id, k) => {
		const delta = profile.timeDeltas[k] ?? 0;
		at += delta;
		if (at < window.fromUs || at > window.toUs) return;
		if (byId.get(id)?.callFrame.functionName === '(idle)') return;
		busy += delta;
		for (const i of stackOf(id)) totals[i] += delta;
	});
	return totals.map((us) => us / Math.max(1, busy));
}

const PROXY_PARTS: Part[] = [
	{
		label: "the proxy's code (src/emulator/proxy, with all it calls: the request upstream and the answer's bytes to the client, their socket writes included)",
		test: (_name, source) => source.includes('src/emulator/proxy/'),
	},
	{
		label: '`decodeAsUpstream` (proxy.ts: routing and the SOAP decoder, reading each request as the service would)',
		test: (name) => name === 'decodeAsUpstream',
	},
	{
		label: 'reading the request body (src/emulator/pipeline/body.ts)',
		test: (_name, source) => source.endsWith('src/emulator/pipeline/body.ts'),
	},
	{
		label: "keeping the answer's first bytes for the journal (`ByteCollector`)",
		test: (_name, source) => source.endsWith('src/protocol/codecs/byteCollector.ts'),
	},
	{
		label: 'the journal (src/emulator/journal: redacting and keeping each exchange, after the answer)',
		test: (_name, source) => source.includes('src/emulator/journal/'),
	},
	{
		label: 'the access log (a line per exchange)',
		test: (_name, source) => /src\/emulator\/(batchedLines|logFormat)\.ts$/.test(source),
	},
	{
		label: 'socket writes (native `writev` / `writeBuffer` / `writeString`, wherever called)',
		test: (name, source) => source === '' && /^(writev|writeBuffer|write\w*String)$/.test(name),
	},
	{ label: 'garbage collection', test: (name) => name === '(garbage collector)' },
];

/** Runs benchmark 6 and returns its report sections. */
export async function runProxyBenchmark(
	seconds: number,
	log: (line: string) => void,
	options: { rounds?: number; profile?: boolean } = {},
): Promise<Section[]> {
	const machineBefore = describeMachine();
	log(`  machine: ${machineBefore}`);
	const startedAt = new Date();
	const dir = mkdtempSync(join(tmpdir(), 'mp-bench-proxy-'));
	const stops: (() => Promise<void>)[] = [];
	const stopLater = (stop: () => Promise<void>): void => {
		stops.push(stop);
	};
	try {
		const { shipped, profiled } = await bundles(dir);
		const upstream = await startSandbox(shipped, join(dir, 'upstream'));
		stopLater(() => upstream.stop());
		const upstreamPid = upstream.process.pid;
		const login = {
			sAPIKey: upstream.demo.apiKey,
			sUsername: upstream.demo.username,
			sPassword: upstream.demo.password,
		};
		const workloads: Workload[] = [
			{
				name: 'GetCurrency',
				spec: requestFor('soap11', 'GetCurrency', { sAPIKey: upstream.demo.apiKey, sCultureID: 'en-GB' }),
			},
			{
				name: `GetAdvertPaged (${ROWS} rows)`,
				spec: requestFor('soap11', 'GetAdvertPaged', { ...login, CurrentPage: 1, RowsPerPage: ROWS }),
			},
		];
		const probePath = `${workloads[0].spec.path.split('?')[0]}?WSDL`;

		const proxySandbox = await startSandbox(
			shipped,
			join(dir, 'proxy'),
			[],
			['--proxy-to', upstream.baseUrl, '--proxy-port', '0'],
		);
		stopLater(() => proxySandbox.stop());
		const proxyUrl = String(proxySandbox.ready.proxyUrl);
		const forwarder = await startPeer(['forward', upstream.baseUrl]);
		stopLater(() => forwarder.stop());
		// WireMock's proxy mode with its request journal on, as by default (no --no-request-journal); its
		// journal keeps every request unless --max-request-journal-entries is given.
		const wireMock = await startWireMock(['--proxy-all', upstream.baseUrl]);
		if (typeof wireMock !== 'string') stopLater(() => wireMock.stop());
		const mitm = await startMitmproxy(upstream.baseUrl, probePath);
		if (typeof mitm !== 'string') stopLater(() => mitm.stop());
		log(
			`  upstream ${upstream.baseUrl}; our proxy ${proxyUrl}; forwarder ${forwarder.url}; ${typeof wireMock === 'string' ? `WireMock not measured: ${wireMock}` : wireMock.version}; ${typeof mitm === 'string' ? `mitmproxy not measured: ${mitm}` : mitm.version}`,
		);

		const targets: Target[] = [
			{ name: 'direct', url: upstream.baseUrl },
			{ name: 'our proxy', url: proxyUrl, pid: proxySandbox.process.pid },
			{ name: 'bare node:http forwarder', url: forwarder.url, pid: forwarder.process.pid },
			...(typeof wireMock !== 'string' ? [{ name: 'WireMock proxy', url: wireMock.url, pid: wireMock.pid }] : []),
			...(typeof mitm !== 'string' ? [{ name: 'mitmproxy', url: mitm.url, pid: mitm.pid }] : []),
		];

		// Every peer passes the upstream's answer on: the same status and bytes as the direct connection.
		const fidelityNotes: string[] = [];
		const sizes = new Map<string, number>();
		for (const workload of workloads) {
			const direct = await send(upstream.baseUrl, workload.spec);
			if (direct.status !== 200) throw new Error(`${workload.name} answered ${direct.status} directly`);
			sizes.set(workload.name, direct.body.length);
			for (const target of targets.slice(1)) {
				fidelityNotes.push(
					`${target.name}, ${workload.name}: ${fidelity(direct, await send(target.url, workload.spec))}`,
				);
			}
		}

		const rounds = Math.max(1, options.rounds ?? 3);
		const timing: Timing = {
			rounds,
			seconds: Math.max(1, Math.round(seconds / rounds)),
			warm: Math.max(1, Math.round(seconds / 3)),
		};
		// The JVM (and V8) compile as they go: every server gets the same longer warm-up first.
		const firstWarm = Math.max(5, seconds);
		for (const target of targets) await load(target.url, workloads[0].spec, 16, firstWarm, {});

		const cells = new Map<string, Map<string, Measured>>();
		for (const workload of workloads) {
			for (const connections of CONNECTIONS) {
				cells.set(
					`${workload.name}|${connections}`,
					await measureCell(targets, workload.spec, connections, timing, upstreamPid, log, workload.name),
				);
			}
		}
		const rss: Record<string, number> = {
			upstream: rssMbOf(upstreamPid),
			'our proxy': rssMbOf(proxySandbox.process.pid),
			'bare node:http forwarder': rssMbOf(forwarder.process.pid),
			...(typeof wireMock !== 'string' ? { 'WireMock proxy': rssMbOf(wireMock.pid) } : {}),
			...(typeof mitm !== 'string' ? { mitmproxy: rssMbOf(mitm.pid) } : {}),
		};
		const journals = await journalCounts(proxyUrl, typeof wireMock === 'string' ? undefined : wireMock.url);

		// The proxy with --record (every proxied exchange written to the recording) against the same proxy
		// without, one load each, back to back.
		const recording = await recordUnderLoad(shipped, dir, upstream, workloads[0].spec, proxyUrl, seconds);
		log(
			`  --record: ${fmt(recording.withRecord.rps, 0)} req/s against ${fmt(recording.without.rps, 0)} without; ${recording.exchanges} exchanges, ${fmt(recording.bytes / 1e6, 1)} MB`,
		);

		const replay = await replaySection(shipped, dir, upstream, workloads[0], timing, firstWarm, log);
		const remote = await remoteSection(shipped, dir, workloads[0].name, probePath, timing, log);

		const sections: Section[] = [
			throughputSection(
				workloads,
				targets,
				cells,
				timing,
				firstWarm,
				sizes,
				fidelityNotes,
				rss,
				journals,
				recording,
				typeof wireMock === 'string' ? `not measured: ${wireMock}` : wireMock.version,
				typeof mitm === 'string' ? `not measured: ${mitm}` : mitm.version,
				{ before: machineBefore, startedAt },
			),
			remote,
			replay,
		];
		if (options.profile !== false) {
			sections.push(await profileSection(profiled, dir, upstream, workloads, seconds, log));
		}
		log(`  load average at the end: ${loadAverage()}`);
		sections[0].body += `\n\nLoad average at the end of the proxy benchmark: ${loadAverage()}.`;
		return sections;
	} finally {
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
		rmSync(dir, { recursive: true, force: true });
	}
}

function loadAverage(): string {
	return loadavg()
		.map((l) => l.toFixed(2))
		.join(' ');
}

/** Exchanges each journal has seen and keeps: ours (GET /__admin/requests), WireMock's (its count). */
async function journalCounts(ours: string, wireMock: string | undefined): Promise<string> {
	const parts: string[] = [];
	try {
		const response = await fetch(`${ours}/__admin/requests?limit=1`);
		const { meta } = (await response.json()) as { meta: { kept: number; lastId: number; capacity: number } };
		parts.push(
			`our proxy's journal saw ${meta.lastId} exchanges and keeps the last ${meta.kept} (capacity ${meta.capacity}, and 16 MiB)`,
		);
	} catch (error) {
		parts.push(`our proxy's journal: not read (${(error as Error).message})`);
	}
	if (wireMock) {
		try {
			const response = await fetch(`${wireMock}/__admin/requests/count`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ method: 'ANY', urlPattern: '.*' }),
			});
			const { count } = (await response.json()) as { count: number };
			parts.push(
				`WireMock's journal keeps all ${count} requests it proxied (no limit unless --max-request-journal-entries)`,
			);
		} catch (error) {
			parts.push(`WireMock's journal: not read (${(error as Error).message})`);
		}
	}
	return parts.join('; ');
}

interface RecordUnderLoad {
	seconds: number;
	without: Round;
	withRecord: Round;
	exchanges: number;
	bytes: number;
}

/** One load of the proxy with --record on a fresh proxy sandbox, right after one of the proxy without. */
async function recordUnderLoad(
	bundle: string,
	dir: string,
	upstream: Sandbox,
	spec: RequestSpec,
	proxyUrl: string,
	seconds: number,
): Promise<RecordUnderLoad> {
	const file = join(dir, 'under-load.mprec.json');
	const without = await load(proxyUrl, spec, 16, seconds, { upstream: upstream.process.pid });
	const recorder = await startSandbox(
		bundle,
		join(dir, 'record-proxy'),
		[],
		['--proxy-to', upstream.baseUrl, '--proxy-port', '0', '--record', file],
	);
	try {
		const withRecord = await load(String(recorder.ready.proxyUrl), spec, 16, seconds, {
			server: recorder.process.pid,
			upstream: upstream.process.pid,
		});
		await recorder.stop();
		const exchanges = existsSync(file)
			? (JSON.parse(readFileSync(file, 'utf8')) as { exchanges: unknown[] }).exchanges.length
			: 0;
		return { seconds, without, withRecord, exchanges, bytes: existsSync(file) ? statSync(file).size : 0 };
	} finally {
		await recorder.stop();
	}
}

/** Replay of a one-exchange recording (made through the proxy with --record) against the sandbox's kept answer. */
async function replaySection(
	bundle: string,
	dir: string,
	upstream: Sandbox,
	workload: Workload,
	timing: Timing,
	firstWarm: number,
	log: (line: string) => void,
): Promise<Section> {
	const file = join(dir, 'GetCurrency.mprec.json');
	const recorder = await startSandbox(
		bundle,
		join(dir, 'recorder'),
		[],
		['--proxy-to', upstream.baseUrl, '--proxy-port', '0', '--record', file],
	);
	try {
		const recorded = await send(String(recorder.ready.proxyUrl), workload.spec);
		if (recorded.status !== 200) throw new Error(`the request to record answered ${recorded.status}`);
	} finally {
		// The recording is written at the latest when the sandbox stops.
		await recorder.stop();
	}
	const exchanges = (JSON.parse(readFileSync(file, 'utf8')) as { exchanges: unknown[] }).exchanges.length;
	if (exchanges !== 1) throw new Error(`the recording holds ${exchanges} exchanges, not 1`);
	const replayer = await startSandbox(bundle, join(dir, 'replay'), [], ['--replay', file]);
	try {
		const direct = await send(upstream.baseUrl, workload.spec);
		const replayed = await send(replayer.baseUrl, workload.spec);
		const check = `${replayed.status === direct.status && replayed.body.equals(direct.body) ? 'the same status and bytes as the sandbox' : `**not the sandbox's answer** (${replayed.status}, ${replayed.body.length} bytes)`}, \`x-sandbox-replayed: ${replayed.headers.get('x-sandbox-replayed') ?? '(absent)'}\``;
		const targets: Target[] = [
			{ name: 'sandbox, kept answer', url: upstream.baseUrl, pid: upstream.process.pid },
			{ name: 'replay', url: replayer.baseUrl, pid: replayer.process.pid },
		];
		for (const target of targets) await load(target.url, workload.spec, 16, firstWarm, {});
		const rows: string[][] = [];
		const ratios: number[] = [];
		for (const connections of CONNECTIONS) {
			const cell = await measureCell(targets, workload.spec, connections, timing, undefined, log, 'replay');
			const cached = cell.get('sandbox, kept answer')!;
			const served = cell.get('replay')!;
			const ratio = ratioOf(served, cached);
			ratios.push(ratio);
			rows.push([
				String(connections),
				shown(cached),
				shown(served),
				fmt(ratio, 2),
				`${fmt(cached.cpu.server, 0)} / ${fmt(served.cpu.server, 0)}`,
				`${fmt(cached.cpu['load generator'], 0)} / ${fmt(served.cpu['load generator'], 0)}`,
			]);
		}
		const info = (await (await fetch(`${replayer.baseUrl}/__admin/replay`)).json()) as {
			replay: { served: number; unmatched: number } | null;
		};
		const met = ratios.filter((ratio) => ratio >= REPLAY_TARGET).length;
		return {
			title: `6b. Replay: a recording served by \`dist/sandbox.js --replay\` against the sandbox's kept answer (GetCurrency SOAP 1.1, ${timing.rounds} rounds of ${timing.seconds} s after ${timing.warm} s of warm-up)`,
			body: [
				`The recording: one GetCurrency exchange made through a proxy sandbox started with \`--record <file>\` (${exchanges} exchange, credentials as placeholders), then \`dist/sandbox.js --replay <file>\` (strict, the default) on its own data folder. Both servers first got ${firstWarm} s of load at 16 connections. Against it: a plain sandbox (the upstream of 6) answering the same request from its answer cache. Both journal every exchange. The replayed answer: ${check}. After the loads, the replay sandbox counted ${info.replay?.served ?? 'n/a'} requests served from the recording and ${info.replay?.unmatched ?? 'n/a'} not in it.`,
				'',
				"Cells: requests/s (p50 / p99 latency ms), the median of the rounds; the ratio is the median of the round-by-round ratios. CPU: the server process's CPU time per request answered (user + system, /proc), and the load generator's.",
				'',
				table(
					[
						'conn.',
						'sandbox, kept answer',
						'replay',
						'replay ÷ kept answer',
						'server CPU µs/request (kept / replay)',
						'load generator CPU µs/request',
					],
					rows,
				),
				'',
				`Target replay ÷ kept answer ≥ ${fmt(REPLAY_TARGET, 1)}: met in ${met} of ${ratios.length} cells.`,
			].join('\n'),
		};
	} finally {
		await replayer.stop();
	}
}

function shown(result: Measured | undefined): string {
	if (!result) return 'n/a';
	const latency =
		result.rps > 0 ? ` (${fmt(result.p50 / 1000, 2)} / ${fmt(result.p99 / 1000, 2)})` : ' (none completed)';
	return `${fmt(result.rps, 0)}${latency}${result.errors > 0 ? ` **${result.errors} errors**` : ''}`;
}

function throughputSection(
	workloads: readonly Workload[],
	targets: readonly Target[],
	cells: Map<string, Map<string, Measured>>,
	timing: Timing,
	firstWarm: number,
	sizes: Map<string, number>,
	fidelityNotes: readonly string[],
	rss: Record<string, number>,
	journals: string,
	recording: RecordUnderLoad,
	wireMock: string,
	mitm: string,
	machine: { before: string; startedAt: Date },
): Section {
	const names = targets.map((target) => target.name);
	const peers = names.slice(1);
	const throughput: string[][] = [];
	const overhead: string[][] = [];
	const vsDirect: number[] = [];
	const ahead = { wireMock: 0, mitm: 0, cells: 0 };
	for (const workload of workloads) {
		for (const connections of CONNECTIONS) {
			const cell = cells.get(`${workload.name}|${connections}`);
			if (!cell) continue;
			const direct = cell.get('direct');
			const ours = cell.get('our proxy');
			const ratio = (peer: string): number => ratioOf(ours, cell.get(peer));
			vsDirect.push(ratio('direct'));
			ahead.cells++;
			if (ratio('WireMock proxy') > 1) ahead.wireMock++;
			if (ratio('mitmproxy') > 1) ahead.mitm++;
			throughput.push([
				workload.name,
				String(connections),
				fmt((sizes.get(workload.name) ?? NaN) / 1024, 1),
				...names.map((name) => shown(cell.get(name))),
				fmt(ratio('direct'), 2),
				fmt(ratio('bare node:http forwarder'), 2),
				fmt(ratio('WireMock proxy'), 2),
				fmt(ratio('mitmproxy'), 2),
			]);
			for (const peer of peers) {
				const result = cell.get(peer);
				if (!result || !direct) continue;
				overhead.push([
					workload.name,
					String(connections),
					peer,
					fmt(ratioOf(result, direct), 2),
					fmt(result.p50 - direct.p50, 0),
					fmt(result.p99 - direct.p99, 0),
					fmt(result.cpu.server, 0),
					`${fmt(result.cpu.upstream, 0)} (direct ${fmt(direct.cpu.upstream, 0)})`,
					`${fmt(result.cpu['load generator'], 0)} (direct ${fmt(direct.cpu['load generator'], 0)})`,
				]);
			}
		}
	}
	const range = (list: number[]): string =>
		list.length === 0 ? 'n/a' : `${fmt(Math.min(...list), 2)}× to ${fmt(Math.max(...list), 2)}×`;
	return {
		title: `6. The inspecting proxy against a direct connection, a bare node:http forwarder, WireMock's proxy and mitmproxy (autocannon, ${timing.rounds} rounds of ${timing.seconds} s per server and cell after ${timing.warm} s of warm-up)`,
		body: [
			`Run of ${machine.startedAt.toISOString()}. Machine at the start: ${machine.before}.`,
			'',
			`The upstream: one dist/sandbox.js (production bundle) started as its CLI on its database file, the same process behind every peer, answering these reads from its answer cache. Our proxy: dist/sandbox.js \`--proxy-to <upstream> --proxy-port 0\` on its own data folder (journal on, no recording, access log written to a discarded stderr). Bare node:http forwarder: bench/serverChild.ts \`forward\` (a keep-alive agent, bodies piped, nothing journaled): what a proxy on Node costs at least. WireMock: ${wireMock}, \`--proxy-all <upstream>\`, its request journal on (its default, which keeps every request: no limit unless \`--max-request-journal-entries\`), no recording. mitmproxy: ${mitm}, \`mitmdump --mode reverse:<upstream> -q\`. SOAP 1.1; GetCurrency, and GetAdvertPaged of ${ROWS} rows of the demo administrator.`,
			'',
			`Every server first got ${firstWarm} s of load at 16 connections; in a cell every server is warmed up ${timing.warm} s, then loaded ${timing.seconds} s at a time in turn, each round starting with the next server. Cells: requests/s (p50 / p99 latency ms, from each response's own time), the median of ${timing.rounds} rounds; a ratio is the median of the round-by-round ratios.`,
			'',
			table(
				[
					'operation',
					'conn.',
					'response KiB',
					...names,
					'ours ÷ direct',
					'ours ÷ forwarder',
					'ours ÷ WireMock',
					'ours ÷ mitmproxy',
				],
				throughput,
			),
			'',
			`Our proxy ÷ direct ${range(vsDirect)} (target ≥ ${fmt(DIRECT_TARGET, 2)}: met in ${vsDirect.filter((r) => r >= DIRECT_TARGET).length} of ${vsDirect.length} cells); ahead of WireMock's proxy in ${ahead.wireMock} of ${ahead.cells} cells, of mitmproxy in ${ahead.mitm} of ${ahead.cells}.`,
			'',
			"What each proxy adds: its throughput ÷ direct, latency added (µs, its median round's p50 and p99 minus the direct connection's), and CPU time per request answered (µs, user + system of every thread, from /proc/<pid>/stat over the round; the load generator is autocannon in the benchmark's process). On 2 vCPUs the three processes share two cores: a proxy's CPU per request is what it takes from the upstream and the load generator.",
			'',
			table(
				[
					'operation',
					'conn.',
					'through',
					'÷ direct',
					'added p50 µs',
					'added p99 µs',
					'proxy CPU µs/request',
					'upstream CPU µs/request',
					'load generator CPU µs/request',
				],
				overhead,
			),
			'',
			`Answers through each proxy against the direct one (before the loads; date, connection and keep-alive aside): ${fidelityNotes.join('; ')}.`,
			`Journals after the loads: ${journals}. Resident memory after the loads: ${Object.entries(rss)
				.map(([name, mb]) => `${name} ${fmt(mb, 0)} MB`)
				.join(', ')}.`,
			'',
			`With \`--record <file>\` (every proxied exchange written to the recording): a fresh proxy sandbox, GetCurrency at 16 connections, one load of ${recording.seconds} s right after one of the proxy above without it: **${fmt(recording.withRecord.rps, 0)} req/s** (p99 ${fmt(recording.withRecord.p99 / 1000, 1)} ms, proxy CPU ${fmt(recording.withRecord.cpu.server, 0)} µs/request${recording.withRecord.errors > 0 ? `, ${recording.withRecord.errors} errors` : ''}) against ${fmt(recording.without.rps, 0)} req/s (p99 ${fmt(recording.without.p99 / 1000, 1)} ms) without; the recording then held ${recording.exchanges} exchanges, ${fmt(recording.bytes / 1e6, 1)} MB.`,
		].join('\n'),
	};
}

/** The proxy sandbox (names kept, source map) under `node --cpu-prof`, each workload at 16 connections. */
async function profileSection(
	bundle: string,
	dir: string,
	upstream: Sandbox,
	workloads: readonly Workload[],
	seconds: number,
	log: (line: string) => void,
): Promise<Section> {
	const lines: string[] = [
		`Our proxy once more per workload (SOAP 1.1, 16 connections, ${seconds} s after a warm-up) as a proxy sandbox under \`node --cpu-prof\`: the production bundle built with its names kept and a source map (bench/server.ts \`bundles\`), in front of the same upstream. Only the samples taken while the measured load ran count. Shares are of the time the proxy process was busy (idle excluded); "per request" divides the busy time by the requests answered. Areas (self time, as in 3b: the proxy and the journal are both under src/emulator), then inclusive time of the parts named (a sample counts for a part when one of its functions is on the stack, so parts overlap: the proxy's code includes \`decodeAsUpstream\`, the body reading and most socket writes).`,
		'',
	];
	for (const workload of workloads) {
		const profileDir = mkdtempSync(join(tmpdir(), 'mp-bench-proxy-prof-'));
		try {
			const sandbox = await startSandbox(
				bundle,
				join(dir, 'profiled-proxy'),
				['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
				['--proxy-to', upstream.baseUrl, '--proxy-port', '0'],
			);
			let result: Round;
			let fromUs: number;
			let toUs: number;
			try {
				const url = String(sandbox.ready.proxyUrl);
				await load(url, workload.spec, 16, Math.max(2, Math.round(seconds / 2)), {});
				fromUs = Number(process.hrtime.bigint() / 1000n);
				result = await load(url, workload.spec, 16, seconds, { server: sandbox.process.pid });
				toUs = Number(process.hrtime.bigint() / 1000n);
			} finally {
				await sandbox.stop();
			}
			const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
			if (!file) throw new Error('no profile was written');
			const window = { fromUs, toUs };
			const summary = summariseProfile(join(profileDir, file), `${bundle}.map`, window, 12);
			const shares = inclusiveShares(join(profileDir, file), `${bundle}.map`, window, PROXY_PARTS);
			const perRequest = (summary.busyMs * 1000) / Math.max(1, result.requests);
			log(
				`  profile ${workload.name}: ${fmt(result.rps, 0)} req/s, ${fmt(perRequest, 0)} µs busy per request; ${PROXY_PARTS.map((part, i) => `${part.label.split(' ')[0]} ${fmt(shares[i] * 100, 0)} %`).join(', ')}`,
			);
			lines.push(
				`**${workload.name}** (${fmt(result.rps, 0)} req/s while profiled; busy ${fmt((1 - summary.idleShare) * 100, 0)} % of the time, **${fmt(perRequest, 0)} µs of CPU per request**; /proc says ${fmt(result.cpu.server, 0)} µs): ` +
					summary.areas
						.filter((a) => a.share >= 0.01)
						.map((a) => `${a.area} ${fmt(a.share * 100, 0)} %`)
						.join(', ') +
					'.',
				'',
				table(
					['part (inclusive)', 'share', 'µs per request'],
					PROXY_PARTS.map((part, i) => [
						part.label,
						`${fmt(shares[i] * 100, 1)} %`,
						fmt(shares[i] * perRequest, 1),
					]),
				),
				'',
				table(
					['self time', 'function', 'where'],
					summary.top
						.slice(0, 10)
						.map((f) => [`${fmt(f.share * 100, 1)} %`, `\`${f.name}\``, f.where || f.area]),
				),
				'',
			);
		} catch (error) {
			lines.push(`**${workload.name}**: not profiled (${(error as Error).message}).`, '');
		} finally {
			rmSync(profileDir, { recursive: true, force: true });
		}
	}
	return { title: '6c. Where the proxy spends its time under load (CPU profiles)', body: lines.join('\n').trimEnd() };
}

/**
 * The same comparison with the upstream where a live service is: across a network. A second sandbox
 * answers every request REMOTE_MS late (a latency scenario), so each peer's own cost is measured
 * against a real round trip instead of against a neighbour process sharing the two cores.
 */
async function remoteSection(
	shipped: string,
	dir: string,
	workloadName: string,
	probePath: string,
	timing: Timing,
	log: (line: string) => void,
): Promise<Section> {
	const scenarioFile = join(dir, 'remote-latency.json');
	writeFileSync(
		scenarioFile,
		JSON.stringify({
			name: 'remote-service',
			title: 'A service across a network',
			description: `Every answer waits ${REMOTE_MS} ms.`,
			rules: [{ name: 'round-trip', latency: { ms: REMOTE_MS } }],
		}),
	);
	const stops: (() => Promise<void>)[] = [];
	try {
		const upstream = await startSandbox(shipped, join(dir, 'remote'), [], ['--scenario', scenarioFile]);
		stops.push(() => upstream.stop());
		const spec = requestFor('soap11', 'GetCurrency', { sAPIKey: upstream.demo.apiKey, sCultureID: 'en-GB' });
		const proxy = await startSandbox(
			shipped,
			join(dir, 'remote-proxy'),
			[],
			['--proxy-to', upstream.baseUrl, '--proxy-port', '0'],
		);
		stops.push(() => proxy.stop());
		const wireMock = await startWireMock(['--proxy-all', upstream.baseUrl]);
		if (typeof wireMock !== 'string') stops.push(() => wireMock.stop());
		const mitm = await startMitmproxy(upstream.baseUrl, probePath);
		if (typeof mitm !== 'string') stops.push(() => mitm.stop());
		const targets: Target[] = [
			{ name: 'direct', url: upstream.baseUrl },
			{ name: 'our proxy', url: String(proxy.ready.proxyUrl), pid: proxy.process.pid },
			...(typeof wireMock !== 'string' ? [{ name: 'WireMock proxy', url: wireMock.url, pid: wireMock.pid }] : []),
			...(typeof mitm !== 'string' ? [{ name: 'mitmproxy', url: mitm.url, pid: mitm.pid }] : []),
		];
		const rows: (string | number)[][] = [];
		for (const connections of CONNECTIONS) {
			const cell = await measureCell(
				targets,
				spec,
				connections,
				timing,
				upstream.process.pid,
				log,
				`${workloadName} (${REMOTE_MS} ms away)`,
			);
			const direct = cell.get('direct');
			for (const target of targets) {
				const result = cell.get(target.name);
				if (!result) continue;
				const ratio = target.name === 'direct' ? NaN : ratioOf(result, direct);
				const added = (q: 'p50' | 'p99'): string =>
					target.name === 'direct' || !direct ? '' : fmt((result[q] - direct[q]) / 1000, 2);
				rows.push([
					connections,
					target.name,
					shown(result),
					target.name === 'direct'
						? ''
						: `${fmt(ratio, 3)}${target.name === 'our proxy' ? (ratio >= DIRECT_TARGET ? ' ✓' : ' ✗') : ''}`,
					added('p50'),
					added('p99'),
					fmt(result.cpu.server ?? NaN, 0),
				]);
			}
		}
		return {
			title: `6a. The proxy in front of a service ${REMOTE_MS} ms away (GetCurrency SOAP 1.1)`,
			body: [
				`The upstream is a sandbox whose every answer waits ${REMOTE_MS} ms (a latency scenario), as a live service across a network does; direct, our proxy (journal on), WireMock's --proxy-all and mitmdump's reverse mode in front of it, loaded in turn as above. The target: within ${fmt((1 - DIRECT_TARGET) * 100, 0)} % of direct throughput (ratio ≥ ${DIRECT_TARGET}).`,
				'',
				table(
					[
						'connections',
						'server',
						'req/s (p50 / p99 ms)',
						'÷ direct',
						'added p50 ms',
						'added p99 ms',
						'proxy CPU µs/request',
					],
					rows,
				),
			].join('\n'),
		};
	} finally {
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
	}
}
