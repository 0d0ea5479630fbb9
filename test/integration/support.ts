/** Shared helpers of the integration and hardening suites: a real sandbox, clients and raw HTTP. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { MultipostingClient, type ClientOptions, type Credentials } from '../../src/client';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator';
import type { SandboxInfo } from '../../src/emulator/server';
import { DEMO_CREDENTIALS, NORTH_API_KEY, OTHER_TREE_API_KEY } from '../../src/emulator/domain/seed';

export { DEMO_CREDENTIALS, NORTH_API_KEY, OTHER_TREE_API_KEY };

/** Password shared by every seeded user (sandbox only). */
export const DEMO_PASSWORD = DEMO_CREDENTIALS.password;

/** Time a full sandbox (200 adverts, 5,000 applications) may take to seed and start. */
export const SANDBOX_START_TIMEOUT_MS = 60_000;

/** Starts an in-memory sandbox on 127.0.0.1, port 0. */
export function startSandbox(options: EmulatorOptions = {}): Promise<RunningEmulator> {
	return startEmulator({ host: '127.0.0.1', port: 0, dataDir: ':memory:', seed: 1, ...options });
}

/** What a client needs of a sandbox, in this process, on a worker thread or as its CLI printed it. */
export type SandboxAddress = Pick<SandboxInfo, 'baseUrl' | 'namespace' | 'demo'>;

/** Client options of a sandbox's client; credentials given here replace the demo administrator's one by one. */
export type SandboxClientOptions = Partial<Omit<ClientOptions, 'baseUrl' | 'namespace' | 'credentials'>> & {
	credentials?: Partial<Credentials>;
};

/** A client of the sandbox logged in as the demo administrator unless told otherwise (SOAP 1.1, 15 s). */
export function clientFor(
	sandbox: SandboxAddress,
	{ credentials, ...options }: SandboxClientOptions = {},
): MultipostingClient {
	const { apiKey, username, password } = sandbox.demo;
	return new MultipostingClient({
		baseUrl: sandbox.baseUrl,
		namespace: sandbox.namespace,
		timeoutMs: 15_000,
		...options,
		credentials: { apiKey, username, password, ...credentials },
	});
}

export interface RawResponse {
	status: number;
	headers: IncomingHttpHeaders;
	body: string;
	ms: number;
}

/** One raw HTTP request with a hard deadline; resolves with the whole answer. */
export function rawRequest(
	url: string,
	options: {
		method?: string;
		headers?: Record<string, string | number>;
		body?: string | Uint8Array;
		deadlineMs?: number;
	} = {},
): Promise<RawResponse> {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			url,
			{ method: options.method ?? 'GET', headers: options.headers, agent: false },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(chunks).toString('utf8'),
						ms: Date.now() - started,
					}),
				);
				res.on('error', reject);
			},
		);
		req.setTimeout(options.deadlineMs ?? 15_000, () =>
			req.destroy(new Error(`no answer within ${options.deadlineMs ?? 15_000} ms`)),
		);
		req.on('error', reject);
		req.end(options.body === undefined ? undefined : Buffer.from(options.body));
	});
}

export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';

/** A SOAP envelope around an operation element in namespace `ns`, with raw inner XML. */
export function envelope(
	version: '1.1' | '1.2',
	operation: string,
	ns: string,
	inner: string,
	prolog = '<?xml version="1.0" encoding="utf-8"?>',
): string {
	return `${prolog}<soap:Envelope xmlns:soap="${version === '1.1' ? SOAP11_NS : SOAP12_NS}"><soap:Body><${operation} xmlns="${ns}">${inner}</${operation}></soap:Body></soap:Envelope>`;
}

/** Headers of a SOAP 1.1 call of `operation`. */
export function soap11Headers(namespace: string, operation: string): Record<string, string> {
	return { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${namespace}${operation}"` };
}

/** Parameter elements of the demo login. */
export function loginXml(password: string = DEMO_PASSWORD): string {
	return `<sAPIKey>${DEMO_CREDENTIALS.apiKey}</sAPIKey><sUsername>${DEMO_CREDENTIALS.username}</sUsername><sPassword>${password}</sPassword>`;
}

/** Resolves after `ms`, for bounded polling. */
export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
