/**
 * The inspecting proxy: a local endpoint (loopback by default, its own port) that forwards every
 * request of any client to a live service and answers with the service's bytes unchanged (hop-by-hop
 * headers aside), while the journal records the exchange as it records the sandbox's: redacted, with
 * production's verdict computed here and the upstream's real answer beside it.
 *
 * The request body is read whole first, under the sandbox's caps (it is judged, may be held at a
 * breakpoint, and must be complete to be forwarded unchanged); the answer streams through with the
 * client's pace (backpressure), and only its first bytes are kept for the journal. A failure to get an
 * answer is a 502 that says it came from the proxy (`X-Multiposting-Proxy`), never dressed as a fault.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { getBinding } from '../../protocol/bindings';
import type { BindingName, DecodedRequest } from '../../protocol/bindings/types';
import { DEFAULT_ENDPOINT_PATHS, OPERATIONS, type Endpoint } from '../../protocol/catalogue';
import { ByteCollector } from '../../protocol/codecs/byteCollector';
import { escapeXml } from '../../protocol/codecs/xml';
import { substitutePlaceholders, type ConnectionValues } from '../../protocol/requestFiles/placeholders';
import { generateWsdl } from '../../protocol/wsdl';
import { Breakpoints, type HoldDecision } from '../breakpoints/breakpoints';
import type { ControlRouter } from '../control/router';
import { explainListenError } from '../portHolder';
import type { Journal } from '../journal/journal';
import { credentialsOf, CREDENTIAL_ROLES, exchangeRedactor } from '../journal/redact';
import { writtenCredentials } from '../../protocol/requestFiles/credentialPlaces';
import type { ExchangeCapture, ProxyFailure } from '../journal/types';
import type { VerdictContext } from '../journal/verdict';
import { ClientAbortedError, readBody } from '../pipeline/body';
import { bodyAsUtf8 } from '../pipeline/charset';
import type { AccessLogEntry } from '../pipeline/context';
import { route, splitTarget } from '../pipeline/dispatch';
import { HttpError } from '../pipeline/errors';
import { decodeRequest } from '../pipeline/listener';
import { MAX_RECORDED_BODY_CHARS } from '../../protocol/recordings/format';
import { classifyUpstreamError, createUpstream, type Upstream } from './upstream';

/** Default port of the proxy (CLI `--proxy-port`, setting `multiposting.inspect.port`): the sandbox's + 1. */
export const DEFAULT_PROXY_PORT = 24818;
/** The header that marks an answer the proxy gave itself (a 502, a 413, a breakpoint's fault). */
export const PROXY_HEADER = 'x-multiposting-proxy';
export const DEFAULT_PROXY_TIMEOUT_MS = 60_000;
/** Largest answer passed on; a larger one is cut (the connection closed) and journaled as such. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Bytes of one answer kept for the journal (the head of a larger one). */
const CAPTURE_BYTES = MAX_RECORDED_BODY_CHARS;
/** Bytes of answers being kept for the journal at once, over all exchanges in flight. */
const CAPTURE_BUDGET_BYTES = 64 * 1024 * 1024;

export interface ProxyOptions {
	/** The live service's base URL (http or https), e.g. https://api.example.com. */
	upstream: string;
	/** Interface to bind (default 127.0.0.1). */
	host?: string;
	/** Port (default DEFAULT_PROXY_PORT; 0: any free port). */
	port?: number;
	/** The upstream's XML namespace, for reading requests and answers; default: from its WSDL, else base URL + '/'. */
	namespace?: string;
	/** The upstream's posting endpoint path (default /SOAP/Posting.asmx). */
	postingPath?: string;
	/** Extra CA certificates (PEM text) trusted beside the system's. */
	ca?: readonly string[];
	/** Outbound HTTP(S) proxy URL. */
	via?: string;
	/** Connect, answer-head and idle timeout, ms (default 60 s). */
	timeoutMs?: number;
	/** Largest request body, bytes (default: the sandbox's 4 MiB). */
	maxRequestBytes?: number;
	/** Largest answer passed on, bytes (default 64 MiB). */
	maxResponseBytes?: number;
	/**
	 * The connection's own credentials, when known (the extension's connection, MP_API_KEY and MP_PASSWORD
	 * for the CLI): redacted like the others, and a request carrying other ones is marked so, for the drift
	 * check to send it with wrong ones too. Memory only: never shown, logged or written.
	 */
	credentials?: { apiKey?: string; password?: string };
}

/** What the proxy shares with the sandbox it runs beside: one journal, one control endpoint, one log. */
export interface ProxyParts {
	journal?: Journal;
	control: ControlRouter;
	breakpoints: Breakpoints;
	logger?: (entry: AccessLogEntry) => void;
	/** The credentials the sandbox knows (its demo login), redacted like any other. */
	knownSecrets?: ConnectionValues;
}

/** What a running proxy tells its callers. */
export interface ProxyInfo {
	/** Where clients send requests instead of the upstream: http://127.0.0.1:port */
	url: string;
	postingUrl: string;
	adminUrl: string;
	/** The upstream's base URL without credentials. */
	upstream: string;
	namespace: string;
	/** Where the namespace came from: given, the upstream's WSDL, or the spec's rule (base URL + '/'). */
	namespaceFrom: 'option' | 'wsdl' | 'base-url';
	/** Why the namespace is a guess (the WSDL could not be read), for the person starting the proxy. */
	namespaceNote?: string;
	paths: Record<Endpoint, string>;
	/** Through an outbound proxy (its URL without credentials). */
	via?: string;
	timeoutMs: number;
	startedAt: string;
}

export interface RunningProxy extends ProxyInfo {
	server: Server;
	/** How requests to this upstream are judged (its namespace, paths and WSDL). */
	verdicts: VerdictContext;
	info(): ProxyInfo;
	stop(): Promise<void>;
}

const HOP_BY_HOP = new Set([
	'connection',
	'keep-alive',
	'proxy-connection',
	'proxy-authenticate',
	'proxy-authorization',
	'te',
	'trailer',
	'transfer-encoding',
	'upgrade',
]);

/** Raw headers (name, value, name, value…) without the hop-by-hop ones, those Connection names and `drop`. */
function endToEnd(raw: readonly string[], drop: ReadonlySet<string> = new Set()): string[] {
	const named = new Set<string>();
	for (let i = 0; i < raw.length; i += 2) {
		if (raw[i].toLowerCase() === 'connection') {
			for (const name of raw[i + 1].split(',')) named.add(name.trim().toLowerCase());
		}
	}
	const kept: string[] = [];
	for (let i = 0; i < raw.length; i += 2) {
		const lower = raw[i].toLowerCase();
		if (HOP_BY_HOP.has(lower) || named.has(lower) || drop.has(lower)) continue;
		kept.push(raw[i], raw[i + 1]);
	}
	return kept;
}

/** The same raw headers as one object of lower-case names (lists joined), as the journal keeps them. */
function headerObject(raw: readonly string[]): Record<string, string> {
	const headers: Record<string, string> = {};
	for (let i = 0; i < raw.length; i += 2) {
		const name = raw[i].toLowerCase();
		headers[name] = headers[name] === undefined ? raw[i + 1] : `${headers[name]}, ${raw[i + 1]}`;
	}
	return headers;
}

/** Reads the upstream's namespace from its posting WSDL (`targetNamespace`), or says why it cannot. */
function namespaceFromWsdl(upstream: Upstream, postingPath: string): Promise<{ namespace: string } | { why: string }> {
	return new Promise((resolve) => {
		const request = upstream.request('GET', `${postingPath}?WSDL`, { accept: 'text/xml' });
		let why: string | undefined;
		const waitMs = Math.min(upstream.timeoutMs, 10_000);
		const timer = setTimeout(() => {
			why ??= `no answer within ${Math.round(waitMs / 1000)} s`;
			request.destroy();
		}, waitMs);
		const failed = (error: Error): void => {
			clearTimeout(timer);
			resolve({ why: why ?? classifyUpstreamError(error, upstream.label).message });
		};
		request.once('error', failed);
		request.once('response', (answer) => {
			const collector = new ByteCollector(4 * 1024 * 1024);
			answer.on('data', (piece: Buffer) => {
				if (!collector.add(piece)) {
					why = 'it is larger than 4 MiB';
					request.destroy();
				}
			});
			answer.once('error', failed);
			answer.once('end', () => {
				clearTimeout(timer);
				if (answer.statusCode !== 200) return resolve({ why: `it answered HTTP ${answer.statusCode}` });
				const text = Buffer.from(collector.bytes()).toString('utf8');
				const found = /targetNamespace\s*=\s*"([^"]+)"/.exec(text);
				resolve(found ? { namespace: found[1] } : { why: 'it has no targetNamespace' });
			});
		});
		request.end();
	});
}

function safeDecode(value: string): string {
	try {
		return decodeURIComponent(value.replace(/\+/g, ' '));
	} catch {
		return value;
	}
}

/** Decompressed answer bytes for the journal, or the bytes as they are when they cannot be. */
function readable(bytes: Uint8Array, encoding: string | undefined): Uint8Array {
	const kind = (encoding ?? '').trim().toLowerCase();
	if (kind === '' || kind === 'identity') return bytes;
	try {
		const options = { maxOutputLength: CAPTURE_BYTES };
		if (kind === 'gzip' || kind === 'x-gzip') return gunzipSync(bytes, options);
		if (kind === 'deflate') return inflateSync(bytes, options);
		if (kind === 'br') return brotliDecompressSync(bytes, options);
	} catch {
		// Shown as the bytes that came.
	}
	return bytes;
}

interface Decoded {
	endpoint?: Endpoint;
	binding?: BindingName;
	request?: DecodedRequest;
}

/** What the request is, read as the upstream reads it; nothing when it is not an operation call. */
function decodeAsUpstream(
	method: string,
	target: { path: string; query: string },
	headers: IncomingMessage['headers'],
	body: Uint8Array,
	verdicts: VerdictContext,
): Decoded {
	try {
		const found = route(method, target, headers['content-type'], verdicts.paths);
		if (found.kind !== 'call') return {};
		const decoded: Decoded = { endpoint: found.endpoint, binding: found.binding };
		try {
			const text = bodyAsUtf8(body, headers['content-type'], found.binding);
			decoded.request = decodeRequest(
				found.binding,
				{
					method,
					subPath: found.subPath,
					query: found.query,
					headers: headers as Record<string, string | undefined>,
					body: text,
				},
				{ namespace: verdicts.namespace, endpointPath: verdicts.paths[found.endpoint] },
				true,
			);
			if (OPERATIONS[decoded.request.operation].endpoint !== found.endpoint) decoded.request = undefined;
		} catch {
			// Not decodable: the verdict says why; the request is forwarded all the same.
		}
		return decoded;
	} catch {
		return {};
	}
}

/** Starts the proxy; resolves once it listens (and the upstream's namespace is known). */
export async function startProxy(options: ProxyOptions, parts: ProxyParts): Promise<RunningProxy> {
	const timeoutMs = options.timeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS;
	const upstream = createUpstream({ baseUrl: options.upstream, ca: options.ca, via: options.via, timeoutMs });
	const paths: Record<Endpoint, string> = {
		posting: options.postingPath ?? DEFAULT_ENDPOINT_PATHS.posting,
		administration: DEFAULT_ENDPOINT_PATHS.administration,
	};
	let namespace = options.namespace;
	let namespaceFrom: ProxyInfo['namespaceFrom'] = 'option';
	let namespaceNote: string | undefined;
	if (!namespace) {
		const read = await namespaceFromWsdl(upstream, paths.posting);
		if ('namespace' in read) {
			namespace = read.namespace;
			namespaceFrom = 'wsdl';
		} else {
			namespace = `${upstream.label}/`;
			namespaceFrom = 'base-url';
			// A guess: say so, or every request would be judged against a namespace nobody chose.
			namespaceNote =
				`the upstream's WSDL (${upstream.label}${paths.posting}?WSDL) could not be read: ${read.why}. ` +
				`Requests are judged against the namespace ${namespace} (base URL + '/', the spec's rule); ` +
				`if the service uses another, give it (--proxy-namespace, or "namespace" to /__admin/proxy).`;
		}
	}
	const verdicts: VerdictContext = {
		namespace,
		paths,
		wsdl: {
			posting: generateWsdl('posting', { namespace, location: upstream.label + paths.posting }),
			administration: generateWsdl('administration', {
				namespace,
				location: upstream.label + paths.administration,
			}),
		},
	};
	const maxRequestBytes = options.maxRequestBytes ?? 4 * 1024 * 1024;
	const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
	let captureHeld = 0;

	const listener = (req: IncomingMessage, res: ServerResponse): void => {
		const target = splitTarget(req.url ?? '/');
		if (parts.control.matches(target.path)) {
			parts.control.handle(req, res).catch(() => undefined);
			return;
		}
		void forward(req, res, target);
	};

	const forward = async (
		req: IncomingMessage,
		res: ServerResponse,
		target: { path: string; query: string },
	): Promise<void> => {
		const startedAt = Date.now();
		const method = req.method ?? 'GET';
		const capture: ExchangeCapture = {
			startedAt,
			durationMs: 0,
			client: req.socket.remoteAddress,
			method,
			path: target.path,
			query: target.query,
			requestHeaders: req.headers,
			status: 0,
			upstream: upstream.label,
			maxBodyChars: MAX_RECORDED_BODY_CHARS,
		};
		let finished = false;
		const finish = (status: number): void => {
			if (finished) return;
			finished = true;
			capture.status = status;
			capture.durationMs = Date.now() - startedAt;
			try {
				parts.logger?.({
					time: new Date(startedAt),
					method,
					path: target.path,
					binding: capture.binding,
					operation: capture.operation,
					status,
					durationMs: capture.durationMs,
					upstream: upstream.label,
				});
			} catch {
				// A failing logger must not stop the proxy.
			}
			parts.journal?.record(capture);
		};
		res.on('error', () => undefined);
		req.on('error', () => undefined);
		const proxyAnswer = (status: number, failure: ProxyFailure, extra: Record<string, string> = {}): void => {
			capture.proxyError = failure;
			if (res.headersSent || res.destroyed) {
				res.destroy();
				finish(499);
				return;
			}
			const body = Buffer.from(
				`Multiposting Workbench proxy: ${failure.message}.\n` +
					`This answer comes from the inspecting proxy at ${req.headers.host ?? 'localhost'}, not from the service.\n`,
			);
			const headers = {
				'content-type': 'text/plain; charset=utf-8',
				'content-length': String(body.byteLength),
				[PROXY_HEADER]: failure.kind,
				...extra,
			};
			res.writeHead(status, headers);
			capture.responseHeaders = headers;
			capture.responseBody = body;
			res.end(body);
			finish(status);
		};

		let body: Uint8Array;
		try {
			body = await readBody(req, maxRequestBytes);
		} catch (error) {
			if (error instanceof ClientAbortedError) return finish(499);
			const message = error instanceof HttpError ? error.message : String(error);
			const status = error instanceof HttpError ? error.status : 400;
			// A client still sending its body would get the close as a reset that loses the answer: after
			// it, the rest is read and dropped (Node dumps the request) until the client closes, 5 s at most.
			const socket = req.socket;
			socket.destroySoon = () => {
				socket.end();
				req.resume();
				const linger = setTimeout(() => socket.destroy(), 5_000).unref();
				socket.once('close', () => clearTimeout(linger));
			};
			return proxyAnswer(status, { kind: 'tooLarge', message }, { connection: 'close' });
		}
		capture.requestBody = body;
		const decoded = decodeAsUpstream(method, target, req.headers, body, verdicts);
		capture.endpoint = decoded.endpoint;
		capture.binding = decoded.binding;
		capture.operation = decoded.request?.operation;
		capture.params = decoded.request?.params;
		if (options.credentials) capture.otherCredentials = carriesOtherCredentials(capture, options.credentials);

		let query = target.query;
		let sentBody = body;
		if (parts.breakpoints.armed) {
			const decision = await holdIfMatched(req, capture, body);
			if (decision?.action === 'fault') {
				const binding = capture.binding && capture.endpoint ? capture.binding : undefined;
				const answer = binding
					? getBinding(binding).encodeFault(decision.fault, {
							namespace,
							endpointPath: paths[capture.endpoint!],
						})
					: {
							status: 500,
							headers: { 'content-type': 'text/plain; charset=utf-8' },
							body: Buffer.from(decision.fault.message),
						};
				const headers = {
					...answer.headers,
					'content-length': String(answer.body.byteLength),
					[PROXY_HEADER]: 'breakpoint',
				};
				res.writeHead(answer.status, headers);
				capture.responseHeaders = headers;
				capture.responseBody = answer.body;
				res.end(answer.body);
				return finish(answer.status);
			}
			if (decision?.action === 'send') {
				const restore = restorer(capture);
				if (decision.query !== undefined) query = restore(decision.query, encodeURIComponent);
				if (decision.body !== undefined) {
					sentBody = Buffer.from(
						restore(decision.body, capture.binding === 'httpPost' ? encodeURIComponent : escapeXml),
					);
				}
			}
		}

		const headers = endToEnd(req.rawHeaders, new Set(['host', 'content-length', 'expect']));
		headers.push('host', upstream.url.host);
		if (sentBody.byteLength > 0 || method === 'POST' || method === 'PUT') {
			headers.push('content-length', String(sentBody.byteLength));
		}
		const outgoing = upstream.request(method, query ? `${target.path}?${query}` : target.path, headers as never);
		let answered = false;
		const headTimer = setTimeout(() => {
			outgoing.destroy();
			proxyAnswer(502, { kind: 'timeout', message: `${upstream.label} did not answer within ${timeoutMs} ms` });
		}, timeoutMs);
		// The client gave up: so does the request upstream.
		res.once('close', () => {
			if (!res.writableFinished) {
				outgoing.destroy();
				clearTimeout(headTimer);
				finish(499);
			}
		});
		outgoing.once('error', (error) => {
			clearTimeout(headTimer);
			if (finished) return;
			if (!answered) proxyAnswer(502, classifyUpstreamError(error, upstream.label));
		});
		outgoing.once('response', (answer) => {
			clearTimeout(headTimer);
			answered = true;
			if (finished) {
				answer.destroy();
				return;
			}
			relay(answer, res, capture, finish, proxyAnswer);
		});
		outgoing.end(sentBody);
	};

	/** Streams the upstream's answer to the client, keeping its first bytes for the journal. */
	const relay = (
		answer: IncomingMessage,
		res: ServerResponse,
		capture: ExchangeCapture,
		finish: (status: number) => void,
		proxyAnswer: (status: number, failure: ProxyFailure) => void,
	): void => {
		const status = answer.statusCode ?? 502;
		const raw = endToEnd(answer.rawHeaders);
		capture.responseHeaders = headerObject(raw);
		const declared = Number(answer.headers['content-length']);
		if (Number.isFinite(declared) && declared > maxResponseBytes) {
			answer.destroy();
			proxyAnswer(502, {
				kind: 'tooLarge',
				message: `${upstream.label} answered ${declared} bytes, more than the proxy passes on (${maxResponseBytes})`,
			});
			return;
		}
		res.sendDate = false;
		res.writeHead(status, answer.statusMessage, raw);
		const budget = Math.min(CAPTURE_BYTES, Math.max(0, CAPTURE_BUDGET_BYTES - captureHeld));
		captureHeld += budget;
		const kept = new ByteCollector(budget, Math.min(declared || 0, 64 * 1024));
		let total = 0;
		let whole = true;
		const release = (): void => {
			captureHeld -= budget;
		};
		let idle: NodeJS.Timeout | undefined;
		const touch = (): void => {
			clearTimeout(idle);
			idle = setTimeout(() => {
				capture.proxyError = {
					kind: 'timeout',
					message: `${upstream.label} sent nothing for ${upstream.timeoutMs} ms in the middle of its answer`,
				};
				answer.destroy();
				res.destroy();
			}, upstream.timeoutMs);
			idle.unref();
		};
		touch();
		// Small pieces that come in one read (an answer of one-byte chunks: thousands) are copied into one
		// buffer and written as one: a write per piece costs the response's buffers hundreds of bytes each,
		// and pieces kept until the write would outlive the young generation. The usual answer, one
		// piece, is written as it is: the buffer is made only when a second small piece joins it.
		let single: Buffer | undefined;
		let batch: Buffer | undefined;
		let batched = 0;
		const send = (bytes: Buffer): void => {
			if (res.destroyed) return;
			if (!res.write(bytes)) {
				answer.pause();
				res.once('drain', () => answer.resume());
			}
		};
		const flush = (): void => {
			if (single) {
				const bytes = single;
				single = undefined;
				send(bytes);
			} else if (batch && batched > 0) {
				const bytes = Buffer.from(batch.subarray(0, batched));
				batched = 0;
				send(bytes);
			}
		};
		const add = (piece: Buffer): void => {
			if (!single && batched === 0) {
				single = piece;
				setImmediate(flush);
				return;
			}
			batch ??= Buffer.allocUnsafe(64 * 1024);
			if (single) {
				batched = single.copy(batch, 0);
				single = undefined;
			}
			if (batched + piece.byteLength > batch.byteLength) {
				flush();
				setImmediate(flush);
			}
			batched += piece.copy(batch, batched);
		};
		answer.on('data', (piece: Buffer) => {
			touch();
			total += piece.byteLength;
			if (whole && !kept.add(piece)) whole = false;
			if (total > maxResponseBytes) {
				capture.proxyError = {
					kind: 'tooLarge',
					message: `${upstream.label}'s answer passed ${maxResponseBytes} bytes: the proxy cut it`,
				};
				answer.destroy();
				res.destroy();
				return;
			}
			if (piece.byteLength >= 16 * 1024) {
				flush();
				send(piece);
				return;
			}
			add(piece);
		});
		answer.once('end', () => {
			clearTimeout(idle);
			flush();
			const bytes = kept.bytes();
			capture.responseBody = whole ? readable(bytes, answer.headers['content-encoding']) : bytes;
			if (!whole) capture.responseOmittedBytes = total - bytes.byteLength;
			release();
			res.end();
			res.once('finish', () => finish(status));
		});
		answer.once('error', () => undefined);
		answer.once('close', () => {
			clearTimeout(idle);
			if (answer.complete) return;
			release();
			capture.proxyError ??= {
				kind: 'reset',
				message: `${upstream.label} closed the connection in the middle of its answer`,
			};
			capture.responseBody = kept.bytes();
			res.destroy();
			finish(status);
		});
	};

	/** The breakpoint the request meets, if any: held until decided (or released by its timeout). */
	const holdIfMatched = async (
		req: IncomingMessage,
		capture: ExchangeCapture,
		body: Uint8Array,
	): Promise<HoldDecision | undefined> => {
		const redact = redactorOf(capture, body);
		const text = redact(Buffer.from(body).toString('utf8'));
		const query = redact(capture.query);
		const candidate = {
			client: capture.client ?? '-',
			upstream: upstream.label,
			operation: capture.operation,
			path: capture.path,
			query,
			body: text,
		};
		const breakpoint = parts.breakpoints.match(candidate);
		if (!breakpoint) return undefined;
		if (!parts.breakpoints.room) {
			capture.breakpoint = `not held: too many requests held already (breakpoint ${breakpoint.id})`;
			return undefined;
		}
		const abort = new AbortController();
		req.socket.once('close', () => abort.abort());
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(req.headers)) {
			if (value === undefined) continue;
			const lower = name.toLowerCase();
			headers[lower] = /^(authorization|proxy-authorization|cookie)$/.test(lower)
				? '[redacted]'
				: redact(Array.isArray(value) ? value.join(', ') : value);
		}
		const decision = await parts.breakpoints.hold(
			breakpoint,
			{
				client: candidate.client,
				upstream: upstream.label,
				method: capture.method,
				path: capture.path,
				query,
				headers,
				body: text,
				endpoint: capture.endpoint,
				binding: capture.binding,
				operation: capture.operation,
			},
			abort.signal,
		);
		capture.breakpoint =
			decision.action === 'fault'
				? `held by breakpoint ${breakpoint.id}, answered here with the fault ${decision.fault.code}${decision.fault.subcode ? `/${decision.fault.subcode}` : ''}`
				: decision.action === 'send'
					? `held by breakpoint ${breakpoint.id}, sent on${decision.body !== undefined || decision.query !== undefined ? ' as edited' : ''}`
					: `held by breakpoint ${breakpoint.id}, released unchanged${decision.timedOut ? ' (nobody decided in time)' : ''}`;
		return decision;
	};

	const redactorOf = (capture: ExchangeCapture, body: Uint8Array) =>
		exchangeRedactor({ ...parts.knownSecrets, ...options.credentials }, credentialsOf(capture.params), [
			capture.query,
			Buffer.from(body).toString('utf8'),
		]);

	/** The credentials a request carries, decoded, or as written in it when it did not decode. */
	const credentialsIn = (capture: ExchangeCapture): ConnectionValues => {
		const values: ConnectionValues = {};
		credentialsOf(capture.params).forEach((value, i) => {
			if (value) values[CREDENTIAL_ROLES[i]] = value;
		});
		const raw = [capture.query, Buffer.from(capture.requestBody ?? new Uint8Array()).toString('utf8')];
		for (const written of raw.flatMap((text) => writtenCredentials(text))) {
			values[written.role] ??= written.kind === 'field' ? safeDecode(written.raw) : written.raw;
		}
		return values;
	};

	const carriesOtherCredentials = (
		capture: ExchangeCapture,
		own: NonNullable<ProxyOptions['credentials']>,
	): boolean => {
		const sent = credentialsIn(capture);
		return (['apiKey', 'password'] as const).some(
			(role) => own[role] !== undefined && sent[role] !== undefined && sent[role] !== own[role],
		);
	};

	/** Puts the request's own credentials back where an edited text has their placeholders. */
	const restorer = (capture: ExchangeCapture) => {
		const values = credentialsIn(capture);
		return (text: string, encode: (value: string) => string): string =>
			substitutePlaceholders(text, values, encode);
	};

	const server = createServer({ maxHeaderSize: 16 * 1024 }, listener);
	server.headersTimeout = 30_000;
	server.requestTimeout = 0;
	server.keepAliveTimeout = 5_000;
	server.on('clientError', (_error: Error, socket: Socket) => {
		if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
		socket.destroy();
	});
	const host = options.host ?? '127.0.0.1';
	const port = options.port ?? DEFAULT_PROXY_PORT;
	let address: AddressInfo;
	try {
		address = await new Promise<AddressInfo>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, host, () => {
				server.off('error', reject);
				resolve(server.address() as AddressInfo);
			});
		});
	} catch (error) {
		upstream.close();
		throw await explainListenError(error, host, port);
	}
	const shownHost = address.address.includes(':') ? `[${address.address}]` : address.address;
	const url = `http://${shownHost}:${address.port}`;
	const via = options.via ? createUpstream({ baseUrl: options.via, timeoutMs }).label : undefined;
	const info: ProxyInfo = {
		url,
		postingUrl: url + paths.posting,
		adminUrl: url + paths.administration,
		upstream: upstream.label,
		namespace,
		namespaceFrom,
		...(namespaceNote ? { namespaceNote } : {}),
		paths,
		...(via ? { via } : {}),
		timeoutMs,
		startedAt: new Date().toISOString(),
	};
	let stopping: Promise<void> | undefined;
	return {
		...info,
		server,
		verdicts,
		info: () => ({ ...info }),
		stop: () => {
			stopping ??= new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
				upstream.close();
			});
			return stopping;
		},
	};
}
