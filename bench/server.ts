/**
 * Benchmark 3: the sandbox as users run it, against the servers they would pick instead.
 *
 * The sandbox is the production bundle (dist/sandbox.js, built by `node esbuild.mjs --production`)
 * started as its CLI on a database file, as `npm run sandbox` and `multiposting-sandbox` start it.
 * Its peers, in the same run and each in its own process, answer the same bytes:
 *   - WireMock (bench/wiremock.ts) with the sandbox's responses as canned stubs, matched by method,
 *     URL and body;
 *   - a bare node:http server answering the same canned bytes (the ceiling for Node here);
 *   - node-soap from the same WSDL returning the sandbox's results as fixed values (SOAP only).
 * Every operation runs in every binding at 1 and 16 connections (autocannon), each server in turn
 * for each cell, so a change in the machine's load hits them alike. Then the sandbox runs once more
 * per operation under `node --cpu-prof` (the same bundle with its names kept and a source map) and
 * the profile says where its time goes.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import {
	copyFileSync,
	symlinkSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { BINDING_NAMES, getBinding, type BindingName } from '../src/protocol/bindings';
import { OPERATIONS, RECORDS, type AnyParams, type FieldType, type OperationName } from '../src/protocol/catalogue';
import { SANDBOX_FILE_NAME } from '../src/emulator/sandbox';
import { fmt, median, quantile, table, type Section } from './common';
import { summariseProfile, type ProfileSummary } from './profile';
import { BENCH_NAMESPACE, POSTING_PATH, type CannedEntry } from './serverChild';
import { startWireMock, type Stub, type WireMock } from './wiremock';

const ROOT = join(__dirname, '..', '..');
const CONNECTIONS = [1, 16] as const;
const SEED = 7;
const ROWS = 50;

/** One request as autocannon sends it. */
export interface RequestSpec {
	method: 'GET' | 'POST';
	path: string;
	headers: Record<string, string>;
	body: string;
}

type Call = [OperationName, AnyParams];

/**
 * One step of a load. Most steps send one request. A write that must change something every time
 * has lanes: connection k keeps to lane k and takes that lane's requests in turn (score an
 * application Suitable, then Unsuitable), so no two connections ever send the same change and every
 * request writes. The lists stay static, so the load generator builds no request on the fly.
 */
interface Step {
	lanes: Call[][];
}

/** A load: one step repeated, or a mix of steps sent in turn on each connection. */
interface Workload {
	name: string;
	steps: Step[];
}

function step(call: Call): Step {
	return { lanes: [[call]] };
}

/** Every distinct call of a workload (what the peers must answer). */
function callsOf(workload: Workload): Call[] {
	return workload.steps.flatMap((s) => s.lanes.flat());
}

/** A workload's requests in one binding: per step, per lane. */
interface LoadPlan {
	binding: BindingName;
	steps: RequestSpec[][][];
}

function planOf(workload: Workload, binding: BindingName): LoadPlan {
	return {
		binding,
		steps: workload.steps.map((s) => s.lanes.map((lane) => lane.map((call) => requestFor(binding, ...call)))),
	};
}

/** Every request of a plan. */
function specsOf(plan: LoadPlan): RequestSpec[] {
	return plan.steps.flat(2);
}

/** What connection `k` sends, in turn: each step from its lane, for as many rounds as the longest lane. */
function requestsOfConnection(plan: LoadPlan, k: number): RequestSpec[] {
	const rounds = Math.max(...plan.steps.map((lanes) => Math.max(...lanes.map((lane) => lane.length))));
	const out: RequestSpec[] = [];
	for (let round = 0; round < rounds; round++) {
		for (const lanes of plan.steps) {
			const lane = lanes[k % lanes.length];
			out.push(lane[round % lane.length]);
		}
	}
	return out;
}

interface LoadResult {
	rps: number;
	p50: number;
	p99: number;
	errors: number;
}

/** A server's figures in one cell: the medians of its rounds (errors summed), and the rounds. */
interface Measured extends LoadResult {
	rounds: LoadResult[];
}

function measured(rounds: LoadResult[]): Measured {
	return {
		rps: median(rounds.map((round) => round.rps)),
		p50: median(rounds.map((round) => round.p50)),
		p99: median(rounds.map((round) => round.p99)),
		errors: rounds.reduce((sum, round) => sum + round.errors, 0),
		rounds,
	};
}

export interface Sandbox {
	process: ChildProcess;
	baseUrl: string;
	demo: { apiKey: string; username: string; password: string };
	/** The whole ready line (with --proxy-to also proxyUrl, with --replay also replay). */
	ready: Record<string, unknown>;
	stop(): Promise<void>;
}

/** Starts a sandbox bundle as its CLI; resolves with the JSON line it prints when ready. */
export function startSandbox(
	bundle: string,
	dataDir: string,
	nodeArgs: string[] = [],
	cliArgs: string[] = [],
): Promise<Sandbox> {
	const child = spawn(
		process.execPath,
		[
			...nodeArgs,
			bundle,
			'--port',
			'0',
			'--data',
			dataDir,
			'--seed',
			String(SEED),
			'--namespace',
			BENCH_NAMESPACE,
			...cliArgs,
		],
		// The access log (stderr) goes nowhere, as it would to a terminal nobody scrolls; it is still written.
		{ stdio: ['ignore', 'pipe', 'ignore'] },
	);
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error('the sandbox did not start within 300 s'));
		}, 300_000);
		child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code} before it was ready`)));
		const lines = createInterface({ input: child.stdout! });
		lines.once('line', (line) => {
			clearTimeout(timer);
			child.removeAllListeners('exit');
			const ready = JSON.parse(line) as { baseUrl: string; apiKey: string; username: string; password: string };
			resolve({
				process: child,
				baseUrl: ready.baseUrl,
				demo: { apiKey: ready.apiKey, username: ready.username, password: ready.password },
				ready,
				stop: () => stopProcess(child, 'SIGINT'),
			});
		});
	});
}

/** Empties a (stopped) sandbox's data folder and puts a copy of the seeded database file in it. */
function resetDataFolder(folder: string, seeded: string): void {
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	copyFileSync(seeded, join(folder, SANDBOX_FILE_NAME));
}

function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
		child.once('exit', () => {
			clearTimeout(kill);
			resolve();
		});
		child.kill(signal);
	});
}

/** A peer in its own process (bench/serverChild.ts). */
export interface Peer {
	url: string;
	process: ChildProcess;
	setCanned(entries: readonly CannedEntry[]): Promise<void>;
	/** Answer every request with this file's bytes. */
	setFixed(file: string, contentType: string): Promise<void>;
	stop(): Promise<void>;
}

export function startPeer(args: string[]): Promise<Peer> {
	const child = fork(join(__dirname, 'serverChild.js'), args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`${args[0]} did not start within 60 s`)), 60_000);
		child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
		child.once('message', (message: { url: string }) => {
			clearTimeout(timer);
			child.removeAllListeners('exit');
			resolve({
				url: message.url,
				process: child,
				setCanned: (entries) =>
					new Promise((done) => {
						child.once('message', () => done());
						child.send({ type: 'canned', entries });
					}),
				setFixed: (file, contentType) =>
					new Promise((done) => {
						child.once('message', () => done());
						child.send({ type: 'fixed', file, contentType });
					}),
				stop: () =>
					new Promise((done) => {
						const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
						child.once('exit', () => {
							clearTimeout(kill);
							done();
						});
						child.send({ type: 'stop' });
					}),
			});
		});
	});
}

export function requestFor(binding: BindingName, operation: OperationName, params: AnyParams): RequestSpec {
	const encoded = getBinding(binding).encodeRequest(operation, params, {
		namespace: BENCH_NAMESPACE,
		endpointPath: POSTING_PATH,
	});
	return {
		method: encoded.method,
		path: encoded.path,
		headers: encoded.headers,
		body: encoded.method === 'POST' ? Buffer.from(encoded.body).toString('utf8') : '',
	};
}

/** Sends one request to the sandbox and keeps the answer as a canned exchange. */
async function capture(baseUrl: string, spec: RequestSpec): Promise<CannedEntry> {
	const response = await fetch(baseUrl + spec.path, {
		method: spec.method,
		headers: spec.headers,
		body: spec.method === 'POST' ? spec.body : undefined,
	});
	const body = Buffer.from(await response.arrayBuffer());
	if (response.status !== 200) {
		throw new Error(
			`${spec.method} ${spec.path} answered ${response.status}: ${body.toString('utf8').slice(0, 300)}`,
		);
	}
	return {
		method: spec.method,
		url: spec.path,
		body: spec.body,
		status: response.status,
		contentType: response.headers.get('content-type') ?? 'text/xml',
		response: body.toString('base64'),
	};
}

function decode(binding: BindingName, operation: OperationName, entry: CannedEntry): unknown {
	const decoded = getBinding(binding).decodeResponse(
		operation,
		{
			status: entry.status,
			headers: { 'content-type': entry.contentType },
			body: Buffer.from(entry.response, 'base64'),
		},
		{ namespace: BENCH_NAMESPACE, endpointPath: POSTING_PATH },
	);
	if (!decoded.ok) throw new Error(`${operation} failed: ${decoded.fault.message}`);
	return decoded.result;
}

/** A decoded value in the shape node-soap serialises from the WSDL: list items under their element, attributes apart. */
function toNodeSoap(value: unknown, type: FieldType): unknown {
	if (value === undefined || value === null) return value;
	if (typeof type === 'string') return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;
	if ('scalarList' in type) return { [type.item]: value };
	if ('list' in type) {
		return { [type.item]: (value as unknown[]).map((item) => toNodeSoap(item, { record: type.list })) };
	}
	const spec = (
		RECORDS as Record<string, { fields: readonly { name: string; type: FieldType; attribute?: boolean }[] }>
	)[type.record];
	const out: Record<string, unknown> = {};
	const attributes: Record<string, unknown> = {};
	for (const field of spec.fields) {
		const fieldValue = (value as Record<string, unknown>)[field.name];
		if (fieldValue === undefined) continue;
		if (field.attribute) attributes[field.name] = fieldValue;
		else out[field.name] = toNodeSoap(fieldValue, field.type);
	}
	if (Object.keys(attributes).length > 0) out.attributes = attributes;
	return out;
}

function nodeSoapResult(operation: OperationName, result: unknown): unknown {
	const spec = OPERATIONS[operation];
	const type: FieldType =
		spec.result.kind === 'list'
			? { list: spec.result.record, item: spec.result.record }
			: { record: spec.result.record };
	return { [spec.soapResult]: toNodeSoap(result, type) };
}

async function load(url: string, plan: LoadPlan, connections: number, seconds: number): Promise<LoadResult> {
	const widest = Math.max(...plan.steps.map((lanes) => lanes.length));
	if (widest > 1 && connections > widest) {
		throw new Error(`${connections} connections would share the ${widest} lanes of a write`);
	}
	const request = (spec: RequestSpec) => ({
		method: spec.method,
		path: spec.path,
		headers: spec.headers,
		...(spec.method === 'POST' ? { body: spec.body } : {}),
	});
	let connection = 0;
	const result = await autocannon({
		url,
		connections,
		duration: seconds,
		timeout: 30,
		requests: requestsOfConnection(plan, 0).map(request),
		// Each connection its own lane (autocannon calls this once per connection, as it makes it).
		setupClient: (client) => client.setRequests(requestsOfConnection(plan, connection++).map(request)),
	});
	return {
		rps: result.requests.total / Math.max(0.001, result.duration),
		p50: result.latency.p50,
		p99: result.latency.p99,
		errors: result.errors + result.timeouts + result.non2xx,
	};
}

/** Builds the shipped sandbox bundle and a copy with its names kept and a source map (for profiles). */
export async function bundles(dir: string): Promise<{ shipped: string; profiled: string }> {
	execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
	const shippedDir = join(dir, 'shipped');
	const profiledDir = join(dir, 'profiled');
	mkdirSync(shippedDir);
	mkdirSync(profiledDir);
	copyFileSync(join(ROOT, 'dist', 'sandbox.js'), join(shippedDir, 'sandbox.js'));
	// The options of esbuild.mjs --production, with identifiers kept so the profile names functions.
	await build({
		entryPoints: [join(ROOT, 'src/emulator/cli.ts')],
		outfile: join(profiledDir, 'sandbox.js'),
		bundle: true,
		minifyWhitespace: true,
		minifySyntax: true,
		sourcemap: true,
		platform: 'node',
		format: 'cjs',
		target: 'node22',
		logLevel: 'silent',
		// As esbuild.mjs: libxml2-wasm (top-level await) is loaded at run time from dist/vendor.
		plugins: [
			{
				name: 'libxml2-external',
				setup(built) {
					built.onResolve({ filter: /^libxml2-wasm$/ }, () => ({
						path: './vendor/libxml2-wasm/lib/index.mjs',
						external: true,
					}));
				},
			},
		],
	});
	for (const copy of [shippedDir, profiledDir]) symlinkSync(join(ROOT, 'dist', 'vendor'), join(copy, 'vendor'));
	// Back to the development build the rest of the tooling expects in dist/.
	execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
	return { shipped: join(shippedDir, 'sandbox.js'), profiled: join(profiledDir, 'sandbox.js') };
}

export function rssMbOf(pid: number | undefined): number {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
	} catch {
		return NaN;
	}
}

/** The operations of the workloads that change the sandbox's state. */
const WRITES: ReadonlySet<OperationName> = new Set<OperationName>(['ApplicationScore', 'AddAdvert']);

/** Applications ApplicationScore scores, one per connection: room for 32 connections, 16 are used. */
const SCORED_APPLICATIONS = 32;

/** The workloads, from the sandbox's own data. */
function workloads(
	demo: Sandbox['demo'],
	applications: readonly { AdvertID: number; AdvertCandidateID: number }[],
): Workload[] {
	const login = { sAPIKey: demo.apiKey, sUsername: demo.username, sPassword: demo.password };
	const search = {
		...login,
		sApplicationStartDateTime: '2000-01-01T00:00:00',
		CurrentPage: 1,
		RowsPerPage: ROWS,
	};
	const reads: Record<string, Call> = {
		GetCurrency: ['GetCurrency', { sAPIKey: demo.apiKey, sCultureID: 'en-GB' }],
		GetAdvertPaged: ['GetAdvertPaged', { ...login, CurrentPage: 1, RowsPerPage: ROWS }],
		GetApplicationsPaged: ['GetApplicationsPaged', search],
		'GetApplicationsPaged with documents': [
			'GetApplicationsPaged',
			{ ...search, boolIncludeEmailBody: 'true', boolIncludeAttachment: 'true' },
		],
	};
	// The same score again in the same second changes nothing and writes nothing. Each connection
	// scores an application of its own, Suitable then Unsuitable, so every request changes a row (one
	// application alternating on 16 connections left most requests writing nothing).
	const scoring: Step = {
		lanes: applications.map((application): Call[] =>
			(['S', 'U'] as const).map(
				(sScore): Call => [
					'ApplicationScore',
					{
						...login,
						sAdvertID: String(application.AdvertID),
						sAdvertCandidateID: String(application.AdvertCandidateID),
						sScore,
					},
				],
			),
		),
	};
	const addAdvert: Call = [
		'AddAdvert',
		{
			...login,
			sAdvertIdentifier: 'BENCH-ADVERT',
			sAdvertReference: 'REF/1',
			sJobTitle: 'Senior Software Engineer',
			sPrimaryLocation: 'London',
			sSalaryFrom: '50000',
			sSalaryTo: '70000',
			sContactName: 'Jane Doe',
			sContactEmail: 'jane@example.com',
			sJobDescription:
				'<p>We are looking for an engineer to join a small team building &amp; running services.</p>'.repeat(8),
			sApplicationURL: 'https://example.com/apply?id=1&src=bench',
		},
	];
	return [
		...Object.entries(reads).map(([name, call]) => ({ name, steps: [step(call)] })),
		{ name: 'ApplicationScore', steps: [scoring] },
		// AddAdvert creates an advert every time (sOnDuplicate left at duplicate).
		{ name: 'AddAdvert', steps: [step(addAdvert)] },
		{
			// Eight reads and two writes, in turn on every connection.
			name: 'mixed (8 reads : 2 writes)',
			steps: [
				step(reads.GetAdvertPaged),
				step(reads.GetApplicationsPaged),
				step(reads.GetCurrency),
				scoring,
				step(reads.GetApplicationsPaged),
				step(reads.GetAdvertPaged),
				step(reads['GetApplicationsPaged with documents']),
				step(reads.GetCurrency),
				step(addAdvert),
				step(reads.GetApplicationsPaged),
			],
		},
	];
}

/** WireMock's stubs for a load: one per request, or one for a write's lanes, which share their answer. */
function stubsOf(workload: Workload, plan: LoadPlan, answerOf: (spec: RequestSpec) => CannedEntry): Stub[] {
	const stubs = new Map<string, Stub>();
	plan.steps.forEach((lanes, i) => {
		const specs = lanes.flat();
		const answers = specs.map(answerOf);
		if (answers.length > 1 && answers.every((answer) => answer.response === answers[0].response)) {
			const urlPath = specs[0].path.split('?')[0];
			// SOAP requests share one path: the operation's element tells them apart.
			const [operation] = workload.steps[i].lanes[0][0];
			const soap = plan.binding === 'soap11' || plan.binding === 'soap12';
			const bodyContains = soap ? `<${operation} ` : undefined;
			stubs.set(`${specs[0].method} ${urlPath} ${bodyContains ?? ''}`, {
				...answers[0],
				shared: { urlPath, bodyContains },
			});
		} else {
			for (const answer of answers) stubs.set(`${answer.method} ${answer.url}\n${answer.body}`, answer);
		}
	});
	return [...stubs.values()];
}

type ServerName = 'sandbox' | 'sandbox, no answer cache' | 'WireMock' | 'bare node:http' | 'node-soap';

/** The sandbox measured a second time with every request run in full, in this binding only (time). */
const FULL_RUN_BINDING: BindingName = 'soap11';

/** Runs benchmark 3 and returns its report sections. */
export async function runServerBenchmarks(
	seconds: number,
	log: (line: string) => void,
	options: {
		bindings?: readonly BindingName[];
		profile?: boolean;
		/** Only the workloads with these names (all when absent). */
		operations?: readonly string[];
		/** Only these connection counts (1 and 16 when absent). */
		connections?: readonly number[];
		/**
		 * Rounds per cell (default 3): each server is loaded `seconds` ÷ rounds at a time, the servers in
		 * turn, so a drift of the machine falls on all of them alike and a cell is the median round.
		 */
		rounds?: number;
	} = {},
): Promise<Section[]> {
	const dir = mkdtempSync(join(tmpdir(), 'mp-bench-server-'));
	const stops: (() => Promise<void>)[] = [];
	try {
		const { shipped, profiled } = await bundles(dir);
		const dataDir = join(dir, 'data');
		const firstStart = Date.now();
		let sandbox = await startSandbox(shipped, dataDir);
		const seedMs = Date.now() - firstStart;
		stops.push(() => sandbox.stop());
		const dbFiles = readdirSync(dataDir).map(
			(name) => `${name} ${fmt(statSync(join(dataDir, name)).size / 1e6)} MB`,
		);
		log(`  sandbox (dist/sandbox.js, production) seeded and ready in ${seedMs} ms: ${dbFiles.join(', ')}`);
		// The seeded file, kept: every workload starts from it, not from what the writes before it added
		// (AddAdvert's cells alone add tens of thousands of adverts).
		await sandbox.stop();
		const seeded = join(dir, 'seeded.sqlite');
		copyFileSync(join(dataDir, SANDBOX_FILE_NAME), seeded);
		// The same sandbox with its answer cache off, on a copy of the seeded file (one owner per folder).
		const fullRunDir = join(dir, 'data-full-run');
		let fullRun: Sandbox | undefined;
		stops.push(async () => fullRun?.stop());
		/** Both sandboxes restarted on fresh copies of the seeded file; returns the one without answer cache. */
		const restartOnSeededData = async (): Promise<Sandbox> => {
			await sandbox.stop();
			await fullRun?.stop();
			resetDataFolder(dataDir, seeded);
			resetDataFolder(fullRunDir, seeded);
			sandbox = await startSandbox(shipped, dataDir);
			fullRun = await startSandbox(shipped, fullRunDir, [], ['--no-answer-cache']);
			return fullRun;
		};
		sandbox = await startSandbox(shipped, dataDir);

		const probe = decode(
			'soap11',
			'GetApplicationsPaged',
			await capture(
				sandbox.baseUrl,
				requestFor('soap11', 'GetApplicationsPaged', {
					sAPIKey: sandbox.demo.apiKey,
					sUsername: sandbox.demo.username,
					sPassword: sandbox.demo.password,
					sApplicationStartDateTime: '2000-01-01T00:00:00',
					CurrentPage: 1,
					RowsPerPage: SCORED_APPLICATIONS,
				}),
			),
		) as { Applications: { AdvertCandidateID: number; AdvertID: number }[] };
		const loads = workloads(sandbox.demo, probe.Applications).filter(
			(workload) => !options.operations || options.operations.includes(workload.name),
		);
		const connectionCounts = options.connections ?? CONNECTIONS;
		const bindings = options.bindings ?? BINDING_NAMES;

		// Every request of every workload once, to the sandbox: its answer is what the peers serve. The
		// reads first, in every binding, then the writes: a score captured first would move applications
		// up the page that the next binding's read captures, and the sandbox serves its seeded state.
		const canned = new Map<string, CannedEntry>();
		const keyOf = (spec: RequestSpec): string => `${spec.method} ${spec.path}\n${spec.body}`;
		for (const writes of [false, true]) {
			for (const binding of bindings) {
				for (const workload of loads) {
					for (const [operation, params] of callsOf(workload)) {
						if (WRITES.has(operation) !== writes) continue;
						const spec = requestFor(binding, operation, params);
						if (!canned.has(keyOf(spec))) canned.set(keyOf(spec), await capture(sandbox.baseUrl, spec));
					}
				}
			}
		}

		// node-soap's fixed results: the sandbox's own, decoded.
		const fixed: Record<string, { result: unknown; withDocuments?: unknown }> = {};
		for (const workload of loads) {
			const calls = callsOf(workload);
			const [operation, params] = calls[0];
			if (calls.some(([other]) => other !== operation)) continue;
			const spec = requestFor('soap11', operation, params);
			const entry = canned.get(keyOf(spec)) ?? (await capture(sandbox.baseUrl, spec));
			const value = nodeSoapResult(operation, decode('soap11', operation, entry));
			if (workload.name.endsWith('with documents')) fixed[operation].withDocuments = value;
			else fixed[operation] = { result: value };
		}
		const fixedPath = join(dir, 'fixed.json');
		writeFileSync(fixedPath, JSON.stringify(fixed));

		const bare = await startPeer(['bare']);
		stops.push(() => bare.stop());
		const nodeSoap = await startPeer(['node-soap', fixedPath]);
		stops.push(() => nodeSoap.stop());
		const wireMock: WireMock | string = await startWireMock();
		if (typeof wireMock !== 'string') stops.push(() => wireMock.stop());
		log(
			`  peers: bare node:http, node-soap, ${typeof wireMock === 'string' ? `WireMock not measured: ${wireMock}` : wireMock.version}`,
		);

		// The JVM compiles as it goes: every server gets the same warm-up before each measured cell,
		// and WireMock a longer one first.
		const warm = Math.max(1, Math.round(seconds / 3));
		if (typeof wireMock !== 'string') {
			const warmUp = planOf({ name: 'warm-up', steps: [step(callsOf(loads[0])[0])] }, bindings[0]);
			await wireMock.setStubs([canned.get(keyOf(specsOf(warmUp)[0]))!]);
			await load(wireMock.url, warmUp, 16, Math.max(5, seconds));
		}

		const rounds = Math.max(1, options.rounds ?? 3);
		const roundSeconds = Math.max(1, Math.round(seconds / rounds));
		type Cell = Partial<Record<ServerName, Measured>> & { bytes: number };
		const cells = new Map<string, Cell>();
		const rssAfter: Record<string, number> = {};
		for (const workload of loads) {
			const full = await restartOnSeededData();
			for (const binding of bindings) {
				const plan = planOf(workload, binding);
				const specs = specsOf(plan);
				const entries = [...new Map(specs.map((spec) => [keyOf(spec), canned.get(keyOf(spec))!])).values()];
				await bare.setCanned(entries);
				if (typeof wireMock !== 'string') {
					await wireMock.setStubs(stubsOf(workload, plan, (spec) => canned.get(keyOf(spec))!));
				}
				// The mean response of the workload's steps (a step's own mean over the requests it takes in turn).
				const sizeOf = (spec: RequestSpec): number =>
					Buffer.from(canned.get(keyOf(spec))!.response, 'base64').length;
				const bytes =
					plan.steps.reduce((sum, lanes) => {
						const stepSpecs = lanes.flat();
						return sum + stepSpecs.reduce((n, spec) => n + sizeOf(spec), 0) / stepSpecs.length;
					}, 0) / plan.steps.length;
				const servers: [ServerName, string][] = [
					['sandbox', sandbox.baseUrl],
					...(binding === FULL_RUN_BINDING
						? [['sandbox, no answer cache', full.baseUrl] as [ServerName, string]]
						: []),
					...(typeof wireMock !== 'string' ? [['WireMock', wireMock.url] as [ServerName, string]] : []),
					['bare node:http', bare.url],
					...(binding === 'soap11' || binding === 'soap12'
						? [['node-soap', nodeSoap.url] as [ServerName, string]]
						: []),
				];
				for (const connections of connectionCounts) {
					for (const [, url] of servers) await load(url, plan, connections, warm);
					const runs = new Map<ServerName, LoadResult[]>(servers.map(([server]) => [server, []]));
					for (let round = 0; round < rounds; round++) {
						// Each round starts with another server, so none is always measured first or last.
						for (let k = 0; k < servers.length; k++) {
							const [server, url] = servers[(k + round) % servers.length];
							runs.get(server)!.push(await load(url, plan, connections, roundSeconds));
						}
					}
					const cell: Cell = { bytes };
					for (const [server, results] of runs) {
						const result = measured(results);
						cell[server] = result;
						log(
							`  ${workload.name} ${binding} c=${connections} ${server}: ${fmt(result.rps, 0)} req/s (rounds ${results.map((r) => fmt(r.rps, 0)).join(', ')}) p99 ${result.p99} ms errors ${result.errors}`,
						);
					}
					cells.set(`${workload.name}|${binding}|${connections}`, cell);
				}
			}
		}
		rssAfter.sandbox = rssMbOf(sandbox.process.pid);
		rssAfter.fullRun = fullRun ? rssMbOf(fullRun.process.pid) : NaN;
		rssAfter.bare = rssMbOf(bare.process.pid);
		rssAfter.nodeSoap = rssMbOf(nodeSoap.process.pid);
		if (typeof wireMock !== 'string') rssAfter.wireMock = rssMbOf(wireMock.pid);
		await sandbox.stop();
		await fullRun?.stop();

		const sections: Section[] = [
			throughputSection(
				{ rounds, seconds: roundSeconds, warm },
				bindings,
				connectionCounts,
				loads,
				cells,
				seedMs,
				dbFiles,
				rssAfter,
				wireMock,
			),
		];
		if (options.profile !== false) {
			sections.push(await profileSection(profiled, dataDir, seeded, loads, seconds, log));
		}
		return sections;
	} finally {
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
		rmSync(dir, { recursive: true, force: true });
	}
}

function throughputSection(
	timing: { rounds: number; seconds: number; warm: number },
	bindings: readonly BindingName[],
	connectionCounts: readonly number[],
	loads: readonly Workload[],
	cells: Map<string, Partial<Record<ServerName, Measured>> & { bytes: number }>,
	seedMs: number,
	dbFiles: string[],
	rssAfter: Record<string, number>,
	wireMock: WireMock | string,
): Section {
	const rows: (string | number)[][] = [];
	const ratios = {
		wireMock: [] as number[],
		bare: [] as number[],
		nodeSoap: [] as number[],
		fullRunWireMock: [] as number[],
	};
	const shown = (r: LoadResult | undefined): string => {
		if (!r) return 'n/a';
		const latency = r.rps > 0 ? ` (${r.p99})` : ' (none completed)';
		return `${fmt(r.rps, 0)}${latency}${r.errors > 0 ? ` **${r.errors} errors**` : ''}`;
	};
	// Round by round: the two servers were measured next to each other in each round.
	const roundRatios = (ours: Measured | undefined, peer: Measured | undefined): number[] | undefined =>
		!ours || !peer || peer.rounds.some((round) => round.rps <= 0)
			? undefined
			: ours.rounds.map((round, k) => round.rps / peer.rounds[k].rps);
	const ratio = (ours: Measured | undefined, peer: Measured | undefined, list: number[]): string => {
		const perRound = roundRatios(ours, peer);
		if (!perRound) return 'n/a';
		const value = median(perRound);
		list.push(value);
		return fmt(value, 2);
	};
	// How far one round is from another: a server's spread in a cell, and the sandbox against WireMock
	// round by round.
	const spreads: number[] = [];
	const pairs = { always: 0, never: 0, cells: 0 };
	for (const cell of cells.values()) {
		for (const server of Object.values(cell)) {
			if (typeof server !== 'object' || server.rps <= 0) continue;
			const rps = server.rounds.map((round) => round.rps);
			spreads.push((Math.max(...rps) - Math.min(...rps)) / server.rps);
		}
		const vsWireMock = roundRatios(cell.sandbox, cell.WireMock);
		if (!vsWireMock) continue;
		const won = vsWireMock.filter((value) => value >= 1).length;
		pairs.cells++;
		if (won === vsWireMock.length) pairs.always++;
		if (won === 0) pairs.never++;
	}
	for (const workload of loads) {
		for (const binding of bindings) {
			for (const connections of connectionCounts) {
				const cell = cells.get(`${workload.name}|${binding}|${connections}`);
				if (!cell) continue;
				rows.push([
					workload.name,
					binding,
					connections,
					fmt(cell.bytes / 1024, 1),
					shown(cell.sandbox),
					shown(cell['sandbox, no answer cache']),
					shown(cell.WireMock),
					shown(cell['bare node:http']),
					shown(cell['node-soap']),
					ratio(cell.sandbox, cell.WireMock, ratios.wireMock),
					ratio(cell.sandbox, cell['bare node:http'], ratios.bare),
					ratio(cell.sandbox, cell['node-soap'], ratios.nodeSoap),
					ratio(cell['sandbox, no answer cache'], cell.WireMock, ratios.fullRunWireMock),
				]);
			}
		}
	}
	const range = (list: number[]): string =>
		list.length === 0 ? 'n/a' : `${fmt(Math.min(...list), 2)}× to ${fmt(Math.max(...list), 2)}×`;
	const met = (list: number[], target: number): string =>
		`${list.filter((value) => value >= target).length} of ${list.length} cells`;
	return {
		title: `3. Server throughput on loopback: the sandbox as shipped vs WireMock, bare node:http and node-soap (autocannon, ${timing.rounds} rounds of ${timing.seconds} s per server and cell after ${timing.warm} s of warm-up)`,
		body: [
			`The sandbox: dist/sandbox.js (production bundle) started as its CLI with \`--data <folder> --seed ${SEED}\`, on its database file (${dbFiles.join(', ')} after seeding); first start with seeding ${fmt(seedMs / 1000, 1)} s. ` +
				`Every workload starts on a fresh copy of the seeded file (both sandboxes are restarted on it), so no workload measures the data an earlier one wrote; within a workload, its writes stay (AddAdvert's cells add adverts one after another, the mix's ApplicationScore and AddAdvert affect its reads). Peers answer the bytes the sandbox gave for the same request (WireMock: ${typeof wireMock === 'string' ? `not measured, ${wireMock}` : `${wireMock.version}, stubs matching method, URL and body (a write's lanes: one stub matching method, path and, in SOAP, the operation's element), --no-request-journal --disable-request-logging`}; bare node:http: a lookup by method, URL and body; node-soap ${soapVersion()}: the sandbox's results as fixed values, SOAP bindings only). ` +
				`Reads: ${ROWS} rows per page; GetApplicationsPaged by a date range over every application of the demo administrator, "with documents" adds the email body and the attachment. ApplicationScore: each connection scores an application of its own (of ${SCORED_APPLICATIONS}), Suitable and Unsuitable in turn, so every request changes a row (the same score again in the same second would change nothing and write nothing); AddAdvert creates an advert each time (sOnDuplicate left at duplicate); the mix sends 8 reads and 2 writes (that ApplicationScore and AddAdvert) in turn on each connection. ` +
				`The sandbox keeps the answer of a read until its state changes (src/emulator/pipeline/answerCache.ts): a load repeating one read is served from memory after its first request, a write runs in full every time and makes the reads after it run in full, as in the mix. "sandbox, no answer cache" is the same bundle with \`--no-answer-cache\` on a copy of the same seeded file, measured in ${FULL_RUN_BINDING} only: what every request costs when it runs in full.`,
			'',
			`Cells: requests/s (p99 latency ms), the median of ${timing.rounds} rounds. In a cell every server is warmed up once, then loaded ${timing.seconds} s at a time in turn, each round starting with the next server: a drift of the machine falls on every server alike, and one bad round does not make the figure. A ratio is the median of the round-by-round ratios (the two servers measured within seconds of each other), so it can differ a little from the ratio of the two medians shown.`,
			'',
			table(
				[
					'operation',
					'binding',
					'conn.',
					'response KiB',
					'sandbox',
					'sandbox, no answer cache',
					'WireMock',
					'bare node:http',
					'node-soap',
					'sandbox ÷ WireMock',
					'sandbox ÷ bare',
					'sandbox ÷ node-soap',
					'no answer cache ÷ WireMock',
				],
				rows,
			),
			'',
			`Ratios: sandbox ÷ WireMock ${range(ratios.wireMock)} (target ≥ 1.0×: ${met(ratios.wireMock, 1)}); sandbox ÷ bare node:http ${range(ratios.bare)} (target ≥ 0.3×: ${met(ratios.bare, 0.3)}); sandbox ÷ node-soap ${range(ratios.nodeSoap)}; with no answer cache ÷ WireMock ${range(ratios.fullRunWireMock)} (${met(ratios.fullRunWireMock, 1)} at ≥ 1.0×).`,
			`How steady the rounds were: a server's rounds in a cell spread over ${fmt(100 * median(spreads), 0)} % of its median at the median, ${fmt(100 * quantile(spreads, 0.9), 0)} % at the 90th percentile. Round by round, the sandbox was ahead of WireMock in every round in ${pairs.always} of ${pairs.cells} cells and in none in ${pairs.never}; the other ${pairs.cells - pairs.always - pairs.never} are within the machine's noise of parity.`,
			`Resident memory after the runs: sandbox ${fmt(rssAfter.sandbox, 0)} MB (with no answer cache ${fmt(rssAfter.fullRun, 0)} MB), WireMock ${fmt(rssAfter.wireMock ?? NaN, 0)} MB, bare node:http ${fmt(rssAfter.bare, 0)} MB, node-soap ${fmt(rssAfter.nodeSoap, 0)} MB.`,
		].join('\n'),
	};
}

function soapVersion(): string {
	try {
		return (JSON.parse(readFileSync(require.resolve('soap/package.json'), 'utf8')) as { version: string }).version;
	} catch {
		return '';
	}
}

/** Runs each single-operation workload (SOAP 1.1, 16 connections) under a CPU profile of the sandbox. */
async function profileSection(
	bundle: string,
	dataDir: string,
	seeded: string,
	loads: readonly Workload[],
	seconds: number,
	log: (line: string) => void,
): Promise<Section> {
	const lines: string[] = [
		'Each operation (SOAP 1.1, 16 connections, on a fresh copy of the seeded database file) once more with the sandbox under `node --cpu-prof` and `--no-answer-cache` (every request runs in full: a kept answer costs only the HTTP exchange): the production bundle built with its names kept and a source map, which maps every function back to its source file. Only the samples taken while the measured load ran count (not start-up or warm-up). Shares are of the time the sandbox was busy (idle excluded); areas group functions by where they live.',
		'',
	];
	for (const workload of loads) {
		const profileDir = mkdtempSync(join(tmpdir(), 'mp-bench-prof-'));
		try {
			resetDataFolder(dataDir, seeded);
			// With the answer cache off: the profile shows what a request costs when it runs in full.
			const sandbox = await startSandbox(
				bundle,
				dataDir,
				['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
				['--no-answer-cache'],
			);
			const plan = planOf(workload, 'soap11');
			await load(sandbox.baseUrl, plan, 16, Math.max(1, Math.round(seconds / 3)));
			const fromUs = Number(process.hrtime.bigint() / 1000n);
			const result = await load(sandbox.baseUrl, plan, 16, seconds);
			const toUs = Number(process.hrtime.bigint() / 1000n);
			await sandbox.stop();
			const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
			if (!file) throw new Error('no profile was written');
			const summary: ProfileSummary = summariseProfile(join(profileDir, file), `${bundle}.map`, {
				fromUs,
				toUs,
			});
			log(
				`  profile ${workload.name}: ${fmt(result.rps, 0)} req/s; ${summary.areas
					.slice(0, 4)
					.map((a) => `${a.area} ${fmt(a.share * 100, 0)} %`)
					.join(', ')}`,
			);
			lines.push(
				`**${workload.name}** (${fmt(result.rps, 0)} req/s while profiled; busy ${fmt((1 - summary.idleShare) * 100, 0)} % of the time): ` +
					summary.areas
						.filter((a) => a.share >= 0.01)
						.map((a) => `${a.area} ${fmt(a.share * 100, 0)} %`)
						.join(', ') +
					'.',
				'',
				table(
					['self time', 'function', 'where'],
					summary.top
						.slice(0, 8)
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
	return {
		title: '3b. Where the sandbox spends its time under load (CPU profiles)',
		body: lines.join('\n').trimEnd(),
	};
}
