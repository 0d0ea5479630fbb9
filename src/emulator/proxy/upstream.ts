/**
 * The way to the live service: its base URL, the agent that connects to it (HTTPS with certificate
 * verification always on, extra CA certificates for a corporate TLS inspection, an outbound HTTP(S)
 * proxy reached with CONNECT for HTTPS or the absolute form for HTTP) and the classification of a
 * failure, so the client is told it came from the proxy.
 */
import {
	Agent as HttpAgent,
	request as httpRequest,
	type ClientRequest,
	type IncomingMessage,
	type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import * as tlsModule from 'node:tls';
import { connect as tlsConnect, rootCertificates, type ConnectionOptions } from 'node:tls';
import type { ProxyFailure } from '../journal/types';

export interface UpstreamOptions {
	/** Base URL of the live service (http or https), optionally with a path prefix. */
	baseUrl: string;
	/** Extra CA certificates (PEM text) trusted beside the system's, e.g. a corporate TLS inspection's. */
	ca?: readonly string[];
	/** An outbound HTTP(S) proxy, `http://[user:password@]host:port`. */
	via?: string;
	/** Longest wait for a connection, for the answer's head, and between two pieces of its body (ms). */
	timeoutMs: number;
}

/** Where requests go: the target's URL pieces and an agent that keeps connections alive. */
export interface Upstream {
	/** The base URL without credentials, as journaled and shown. */
	readonly label: string;
	readonly url: URL;
	readonly timeoutMs: number;
	/** Starts a request for `pathAndQuery` (the path as the client sent it) with these headers. */
	request(method: string, pathAndQuery: string, headers: Record<string, string | string[]>): ClientRequest;
	close(): void;
}

/** An upstream URL or an outbound proxy URL that cannot be used. */
export class UpstreamConfigError extends Error {
	override readonly name = 'UpstreamConfigError';
}

/** A URL as shown and logged: without user and password. */
export function withoutCredentials(url: URL): string {
	const shown = new URL(url.href);
	shown.username = '';
	shown.password = '';
	return shown.href.replace(/\/$/, '');
}

function parseUrl(text: string, what: string): URL {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw new UpstreamConfigError(`${what} must be an absolute http or https URL; got "${text}".`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new UpstreamConfigError(`${what} must be an http or https URL; got "${url.protocol}".`);
	}
	return url;
}

/** A URL's host as node:http takes it: IPv6 without its brackets. */
function hostOf(url: URL): string {
	return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function portOf(url: URL): number {
	return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

function proxyAuthorization(via: URL): string | undefined {
	if (!via.username) return undefined;
	const user = decodeURIComponent(via.username);
	const password = decodeURIComponent(via.password);
	return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** An HTTPS agent whose connections go through an outbound proxy's CONNECT tunnel. */
class TunnelAgent extends HttpsAgent {
	constructor(
		private readonly via: URL,
		private readonly tls: ConnectionOptions,
		private readonly timeoutMs: number,
	) {
		super({ keepAlive: true, maxSockets: 64, ...tls });
	}

	override createConnection(
		options: RequestOptions,
		callback?: (error: Error | null, stream: Duplex) => void,
	): undefined {
		if (!callback) throw new Error('The tunnel is made asynchronously: a callback is needed.');
		const host = (options.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
		const port = options.port ?? 443;
		const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
		const headers: Record<string, string> = { host: authority };
		const authorization = proxyAuthorization(this.via);
		if (authorization) headers['proxy-authorization'] = authorization;
		const connect = (this.via.protocol === 'https:' ? httpsRequest : httpRequest)({
			host: hostOf(this.via),
			port: portOf(this.via),
			method: 'CONNECT',
			path: authority,
			headers,
			agent: false,
			timeout: this.timeoutMs,
			...(this.via.protocol === 'https:' ? this.tls : {}),
		});
		let done = false;
		const fail = (error: Error): void => {
			if (done) return;
			done = true;
			connect.destroy();
			callback(error, undefined as never);
		};
		connect.once('timeout', () => fail(new ProxyStepError('timeout', `the outbound proxy did not answer CONNECT`)));
		connect.once('error', (error) => fail(new ProxyStepError('proxy', `the outbound proxy: ${error.message}`)));
		connect.once('connect', (answer: IncomingMessage, socket: Socket) => {
			if (answer.statusCode !== 200) {
				socket.destroy();
				return fail(
					new ProxyStepError(
						'proxy',
						`the outbound proxy refused the tunnel to ${authority}: HTTP ${answer.statusCode}`,
					),
				);
			}
			done = true;
			const servername = (options as { servername?: string }).servername ?? (isIP(host) ? undefined : host);
			const secure = tlsConnect({ ...this.tls, socket, ...(servername ? { servername } : {}) });
			secure.once('secureConnect', () => callback(null, secure));
			secure.once('error', (error) => callback(error, undefined as never));
		});
		connect.end();
		return undefined;
	}
}

/** A failure on the way to the upstream that is already classified (the outbound proxy's). */
export class ProxyStepError extends Error {
	constructor(
		readonly kind: ProxyFailure['kind'],
		message: string,
	) {
		super(message);
	}
}

const TLS_CODES = /^(CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS|ERR_SSL|HOSTNAME_MISMATCH|ERR_CERT)/;

/** What went wrong on the way to the upstream, in the proxy's words. */
export function classifyUpstreamError(error: unknown, upstream: string): ProxyFailure {
	if (error instanceof ProxyStepError) return { kind: error.kind, message: error.message };
	const code = (error as NodeJS.ErrnoException).code ?? '';
	const message = error instanceof Error ? error.message : String(error);
	if (TLS_CODES.test(code) || /certificate|ssl|tls/i.test(message)) {
		return {
			kind: 'tls',
			message: `the TLS connection to ${upstream} failed: ${message} (certificates are always verified; a corporate TLS inspection needs its CA certificate, --proxy-ca)`,
		};
	}
	if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
		return { kind: 'reset', message: `${upstream} closed the connection before its answer was complete` };
	}
	if (code === 'ETIMEDOUT') return { kind: 'timeout', message: `${upstream} did not answer in time` };
	return { kind: 'unreachable', message: `${upstream} could not be reached: ${message}` };
}

/** The CA certificates Node trusts by default: the bundled ones and NODE_EXTRA_CA_CERTS (where Node lists them). */
function defaultCertificates(): readonly string[] {
	const list = (tlsModule as { getCACertificates?: (type: string) => string[] }).getCACertificates;
	return list ? list('default') : rootCertificates;
}

/** The upstream of a proxy. */
export function createUpstream(options: UpstreamOptions): Upstream {
	const url = parseUrl(options.baseUrl, 'The upstream');
	const via = options.via ? parseUrl(options.via, 'The outbound proxy') : undefined;
	const tls: ConnectionOptions = {
		rejectUnauthorized: true,
		...(options.ca?.length ? { ca: [...defaultCertificates(), ...options.ca] } : {}),
	};
	const secure = url.protocol === 'https:';
	const agent = secure
		? via
			? new TunnelAgent(via, tls, options.timeoutMs)
			: new HttpsAgent({ keepAlive: true, maxSockets: 64, ...tls })
		: new HttpAgent({ keepAlive: true, maxSockets: 64 });
	const prefix = url.pathname.replace(/\/+$/, '');
	const label = withoutCredentials(url);
	return {
		label,
		url,
		timeoutMs: options.timeoutMs,
		request(method, pathAndQuery, headers) {
			const path = `${prefix}${pathAndQuery}`;
			// Plain HTTP through an outbound proxy: the absolute form, to the proxy.
			if (!secure && via) {
				const authorization = proxyAuthorization(via);
				return httpRequest({
					host: hostOf(via),
					port: portOf(via),
					method,
					path: `${url.protocol}//${url.host}${path}`,
					headers: authorization ? { ...headers, 'proxy-authorization': authorization } : headers,
					agent,
				});
			}
			return (secure ? httpsRequest : httpRequest)({
				host: hostOf(url),
				port: portOf(url),
				servername: secure && !/^[\d.]+$|:/.test(hostOf(url)) ? hostOf(url) : undefined,
				method,
				path,
				headers,
				agent,
			});
		},
		close: () => agent.destroy(),
	};
}
