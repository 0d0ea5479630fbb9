/** Helpers of the emulator's web and background tests: calls over HTTP GET and a headless browser. */
import { mkdirSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { OPERATIONS, type OperationName } from '../../../src/protocol/catalogue';
import { parseXml, type XmlElement } from '../../../src/protocol/codecs/xml';
import type { RunningEmulator } from '../../../src/emulator';

/**
 * Calls an operation with the HTTP GET binding and returns the parsed result element. Like an
 * ASMX-generated proxy, it sends every parameter of the operation, empty where not given (the
 * sandbox, as ASMX, refuses a missing one).
 */
/**
 * The query string an ASMX proxy sends: every parameter of the operation, in catalogue order, empty
 * when not given (strict mode refuses a missing one). A name the operation does not have is a test bug.
 */
export function asmxQuery(operation: OperationName, params: Record<string, string>): string {
	const names = OPERATIONS[operation].params.map((param) => param.name);
	const unknown = Object.keys(params).filter((name) => !names.includes(name));
	if (unknown.length) throw new Error(`${operation} has no parameter ${unknown.join(', ')}`);
	const query = new URLSearchParams();
	for (const name of names) query.append(name, params[name] ?? '');
	return query.toString();
}

export async function callGet(
	emulator: RunningEmulator,
	endpoint: 'posting' | 'administration',
	operation: OperationName,
	params: Record<string, string>,
): Promise<XmlElement> {
	const base = endpoint === 'posting' ? emulator.postingUrl : emulator.adminUrl;
	const response = await fetch(`${base}/${operation}?${asmxQuery(operation, params)}`);
	const text = await response.text();
	if (response.status !== 200) throw new Error(`${operation}: HTTP ${response.status}: ${text}`);
	return parseXml(text);
}

/** The text of the first descendant element with this local name. */
export function field(element: XmlElement, local: string): string | undefined {
	if (element.local === local) return element.text;
	for (const child of element.children) {
		const found = field(child, local);
		if (found !== undefined) return found;
	}
	return undefined;
}

/** The demo login as GET parameters. */
export function demoLogin(emulator: RunningEmulator): Record<string, string> {
	return { sAPIKey: emulator.demo.apiKey, sUsername: emulator.demo.username, sPassword: emulator.demo.password };
}

/** Headless Chromium (Debian's) with the flags the test environment needs. */
export function launchBrowser(): Promise<Browser> {
	return chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
			'--disable-quic',
		],
	});
}

/** Where screenshots of the pages go. */
export const SCREENSHOT_DIR = 'test-results/emulator';

export function screenshotPath(name: string): string {
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	return `${SCREENSHOT_DIR}/${name}.png`;
}

/**
 * A proxy that serves `target` under `/proxy/<port>/` the way code-server does, stripping the prefix,
 * but without rewriting Location headers: pages must get the prefix right by themselves.
 */
export async function startPrefixProxy(
	target: string,
): Promise<{ origin: string; prefix: string; requests: string[]; stop(): Promise<void> }> {
	const upstream = new URL(target);
	const prefix = `/proxy/${upstream.port}/`;
	const requests: string[] = [];
	const server = createServer((req, res) => {
		const path = req.url ?? '/';
		requests.push(path);
		if (!path.startsWith(prefix) && `${path}/` !== prefix) {
			res.writeHead(404, { 'content-type': 'text/plain' }).end('not under the proxy prefix');
			return;
		}
		const forwarded = request(
			{
				host: upstream.hostname,
				port: upstream.port,
				method: req.method,
				path: `/${path.slice(prefix.length)}`,
				headers: { ...req.headers, host: upstream.host },
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		forwarded.on('error', () => res.writeHead(502).end());
		req.pipe(forwarded);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		prefix,
		requests,
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
