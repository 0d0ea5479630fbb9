/**
 * WireMock, the mock server integrators pick for SOAP, as a peer of the server benchmark: the
 * standalone jar that the npm package `wiremock` ships, run on the machine's Java (Debian's
 * default-jre-headless; bench/setup.sh installs it). It answers the same canned bytes as the bare
 * node:http peer, each stub matching the exact method, URL and body (one stub for a load step that
 * takes several requests with one answer in turn, see Stub).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { CannedEntry } from './serverChild';

export interface WireMock {
	url: string;
	pid: number;
	version: string;
	/** Replaces every stub with these. */
	setStubs(entries: readonly Stub[]): Promise<void>;
	stop(): Promise<void>;
}

/**
 * A canned answer, matched by method, URL and body. `shared` makes one stub answer every request of a
 * load step that takes several in turn (all with this same answer), matched as a hand-written mock
 * would: method, path and, for SOAP, the operation's element in the body. Sixty-four stubs compared
 * body by body would make WireMock, not the sandbox, the thing measured.
 */
export interface Stub extends CannedEntry {
	shared?: { urlPath: string; bodyContains?: string };
}

/** The jar of the npm package, or undefined. */
function jarPath(): string | undefined {
	try {
		const dir = join(dirname(require.resolve('wiremock/package.json')), 'build');
		const jar = readdirSync(dir).find((name) => /^wiremock-standalone-.*\.jar$/.test(name));
		return jar ? join(dir, jar) : undefined;
	} catch {
		return undefined;
	}
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

async function admin(url: string, method: string, body?: unknown): Promise<void> {
	const response = await fetch(`${url}/__admin/mappings`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	await response.arrayBuffer();
	if (!response.ok) throw new Error(`WireMock admin ${method} answered ${response.status}`);
}

/** As its documentation advises for load: no journal of requests, no logging of each one. */
const STUB_SERVER_ARGS = ['--no-request-journal', '--disable-request-logging'];

/**
 * Starts WireMock on a free loopback port; a string says why it cannot run here. `args` replace the
 * stub server's defaults (e.g. `--proxy-all <url>` for its proxy mode, with its journal on).
 */
export async function startWireMock(args: readonly string[] = STUB_SERVER_ARGS): Promise<WireMock | string> {
	const jar = jarPath();
	if (!jar) return 'the wiremock npm package (its standalone jar) is not installed: run npm install';
	const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
	if (java.status !== 0) return 'no Java on this machine: run bash bench/setup.sh (installs default-jre-headless)';
	const javaVersion = /version "([^"]+)"/.exec(java.stderr)?.[1] ?? 'unknown';
	const port = await freePort();
	const child: ChildProcess = spawn(
		'java',
		['-jar', jar, '--port', String(port), '--bind-address', '127.0.0.1', '--disable-banner', ...args],
		{ stdio: 'ignore' },
	);
	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + 120_000;
	let exited = false;
	child.once('exit', () => (exited = true));
	for (;;) {
		if (exited) return 'WireMock exited during start';
		try {
			const response = await fetch(`${url}/__admin/health`);
			await response.arrayBuffer();
			if (response.ok) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			child.kill('SIGKILL');
			return 'WireMock did not start within 120 s';
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return {
		url,
		pid: child.pid ?? 0,
		version: `WireMock ${/wiremock-standalone-(.*)\.jar$/.exec(jar)?.[1] ?? '?'} on Java ${javaVersion}`,
		async setStubs(entries) {
			await admin(url, 'DELETE');
			for (const entry of entries) {
				const { shared } = entry;
				await admin(url, 'POST', {
					request: shared
						? {
								method: entry.method,
								urlPath: shared.urlPath,
								...(shared.bodyContains ? { bodyPatterns: [{ contains: shared.bodyContains }] } : {}),
							}
						: {
								method: entry.method,
								url: entry.url,
								...(entry.body.length > 0 ? { bodyPatterns: [{ equalTo: entry.body }] } : {}),
							},
					response: {
						status: entry.status,
						headers: { 'Content-Type': entry.contentType },
						base64Body: entry.response,
					},
				});
			}
		},
		stop: () =>
			new Promise<void>((resolve) => {
				if (exited) return resolve();
				const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
				child.once('exit', () => {
					clearTimeout(kill);
					resolve();
				});
				child.kill('SIGTERM');
			}),
	};
}
