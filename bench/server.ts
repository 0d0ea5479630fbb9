/**
 * Benchmark 3: requests per second, latency and memory of the emulator on loopback (autocannon),
 * next to a node-soap server answering the same WSDL with fixed results. Each server runs in its
 * own process; runs are short and bounded.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { getBinding, type BindingName } from '../src/protocol/bindings';
import type { AnyParams, OperationName } from '../src/protocol/catalogue';
import { fmt, table, type Section } from './common';

interface Ready {
	url: string;
	postingPath: string;
	namespace: string;
	demo?: { apiKey: string; username: string; password: string };
}

interface Child {
	process: ChildProcess;
	ready: Ready;
	rss(): Promise<number>;
	stop(): Promise<void>;
}

const CONCURRENCY = [1, 16, 64] as const;

function startChild(args: string[]): Promise<Child> {
	const child = fork(join(__dirname, 'serverChild.js'), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`server ${args[0]} did not start within 120 s`)), 120_000);
		child.once('exit', (code) => reject(new Error(`server ${args[0]} exited with ${code}`)));
		child.once('message', (message: { type: string } & Ready) => {
			clearTimeout(timer);
			resolve({
				process: child,
				ready: message,
				rss: () =>
					new Promise((done) => {
						child.once('message', (m: { rss: number }) => done(m.rss));
						child.send({ type: 'rss' });
					}),
				stop: () =>
					new Promise((done) => {
						const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
						child.removeAllListeners('exit');
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

interface RequestSpec {
	method: 'GET' | 'POST';
	path: string;
	headers: Record<string, string>;
	body?: string;
}

function requestFor(binding: BindingName, operation: OperationName, params: AnyParams, ready: Ready): RequestSpec {
	const encoded = getBinding(binding).encodeRequest(operation, params, {
		namespace: ready.namespace,
		endpointPath: ready.postingPath,
	});
	return {
		method: encoded.method,
		path: encoded.path,
		headers: encoded.headers,
		body: encoded.method === 'POST' ? Buffer.from(encoded.body).toString('utf8') : undefined,
	};
}

async function call(binding: BindingName, operation: OperationName, params: AnyParams, ready: Ready): Promise<unknown> {
	const spec = requestFor(binding, operation, params, ready);
	const response = await fetch(ready.url + spec.path, {
		method: spec.method,
		headers: spec.headers,
		body: spec.body,
	});
	const body = new Uint8Array(await response.arrayBuffer());
	const decoded = getBinding(binding).decodeResponse(
		operation,
		{
			status: response.status,
			headers: { 'content-type': response.headers.get('content-type') ?? undefined },
			body,
		},
		{ namespace: ready.namespace, endpointPath: ready.postingPath },
	);
	if (!decoded.ok) throw new Error(`${operation} failed: ${decoded.fault.message}`);
	return decoded.result;
}

interface LoadResult {
	rps: number;
	p50: number;
	p99: number;
	errors: number;
	non2xx: number;
}

async function load(url: string, spec: RequestSpec, connections: number, seconds: number): Promise<LoadResult> {
	const result = await autocannon({
		url: url + spec.path,
		method: spec.method,
		headers: spec.headers,
		body: spec.body,
		connections,
		duration: seconds,
		timeout: 30,
	});
	return {
		rps: result.requests.average,
		p50: result.latency.p50,
		p99: result.latency.p99,
		errors: result.errors + result.timeouts,
		non2xx: result.non2xx,
	};
}

/** Runs benchmark 3 and returns its report section. */
export async function runServerBenchmarks(seconds: number, log: (line: string) => void): Promise<Section[]> {
	const rows: (string | number)[][] = [];
	const emulator = await startChild(['emulator']);
	const dir = mkdtempSync(join(tmpdir(), 'mp-bench-server-'));
	try {
		const demo = emulator.ready.demo!;
		const login = { sAPIKey: demo.apiKey, sUsername: demo.username, sPassword: demo.password };
		const page = (await call(
			'soap11',
			'GetApplicationsPaged',
			{ ...login, sApplicationStartDateTime: '2000-01-01T00:00:00', CurrentPage: 1, RowsPerPage: 1 },
			emulator.ready,
		)) as { Applications: { AdvertCandidateID: number; AdvertID: number }[] };
		const application = page.Applications[0];
		const advertPaged = await call(
			'soap11',
			'GetAdvertPaged',
			{ ...login, CurrentPage: 1, RowsPerPage: 20 },
			emulator.ready,
		);
		const workloads: [OperationName, AnyParams][] = [
			['GetAdvertPaged', { ...login, CurrentPage: 1, RowsPerPage: 20 }],
			[
				'ApplicationScore',
				{
					...login,
					sAdvertID: String(application.AdvertID),
					sAdvertCandidateID: String(application.AdvertCandidateID),
					sScore: 'S',
				},
			],
		];
		const rssBefore = await emulator.rss();
		for (const [operation, params] of workloads) {
			for (const binding of ['soap11', 'httpGet'] as const) {
				const spec = requestFor(binding, operation, params, emulator.ready);
				for (const connections of CONCURRENCY) {
					const r = await load(emulator.ready.url, spec, connections, seconds);
					const rss = await emulator.rss();
					log(
						`  emulator ${operation} ${binding} c=${connections}: ${fmt(r.rps, 0)} req/s p50 ${r.p50} ms p99 ${r.p99} ms rss ${fmt(rss / 1e6, 0)} MB errors ${r.errors} non2xx ${r.non2xx}`,
					);
					rows.push([
						'emulator',
						operation,
						binding,
						connections,
						fmt(r.rps, 0),
						r.p50,
						r.p99,
						fmt(rss / 1e6, 0),
						r.errors + r.non2xx,
					]);
				}
			}
		}
		log(`  emulator rss before load ${fmt(rssBefore / 1e6, 0)} MB`);

		const fixedPath = join(dir, 'fixed.json');
		writeFileSync(
			fixedPath,
			JSON.stringify({
				GetAdvertPaged: { AdvertPaged: advertPaged },
				ApplicationScore: { ApplicationScoreResult: { Success: true } },
			}),
		);
		const nodeSoap = await startChild(['node-soap', fixedPath]);
		try {
			for (const [operation, params] of workloads) {
				const spec = requestFor('soap11', operation, params, nodeSoap.ready);
				for (const connections of CONCURRENCY) {
					const r = await load(nodeSoap.ready.url, spec, connections, seconds);
					const rss = await nodeSoap.rss();
					log(
						`  node-soap ${operation} soap11 c=${connections}: ${fmt(r.rps, 0)} req/s p50 ${r.p50} ms p99 ${r.p99} ms rss ${fmt(rss / 1e6, 0)} MB errors ${r.errors} non2xx ${r.non2xx}`,
					);
					rows.push([
						'node-soap (fixed result)',
						operation,
						'soap11',
						connections,
						fmt(r.rps, 0),
						r.p50,
						r.p99,
						fmt(rss / 1e6, 0),
						r.errors + r.non2xx,
					]);
				}
			}
		} finally {
			await nodeSoap.stop();
		}
		const ratios = workloads.flatMap(([operation]) =>
			CONCURRENCY.map((c) => {
				const ours = rows.find(
					(r) => r[0] === 'emulator' && r[1] === operation && r[2] === 'soap11' && r[3] === c,
				);
				const peer = rows.find((r) => r[0] !== 'emulator' && r[1] === operation && r[3] === c);
				return `${operation} c=${c}: ${ours && peer ? fmt(Number(ours[4]) / Number(peer[4]), 2) : 'n/a'}×`;
			}),
		);
		return [
			{
				title: `3. Server throughput on loopback (autocannon, ${seconds} s per run)`,
				body:
					table(
						[
							'server',
							'operation',
							'binding',
							'connections',
							'requests/s',
							'p50 ms',
							'p99 ms',
							'rss MB after run',
							'errors + non-2xx',
						],
						rows,
					) +
					`\n\nEmulator rss before load: ${fmt(rssBefore / 1e6, 0)} MB. Emulator (SOAP 1.1, real database work) vs node-soap (fixed result), requests/s: ${ratios.join('; ')}.`,
			},
		];
	} finally {
		await emulator.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}
