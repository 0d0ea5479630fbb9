/**
 * The control endpoint's router: JSON routes under `/__admin/` on the sandbox's own port, answered to
 * loopback clients only (anyone else gets 403). Routes register into it by method and path pattern;
 * `:name` segments are handed to the handler decoded. See README.md in this folder.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ByteCollector } from '../../protocol/codecs/byteCollector';

/** Every control route lives under this path. */
export const CONTROL_PREFIX = '/__admin';
/** Largest request body a control route is handed (bigger: 413). */
export const MAX_CONTROL_BODY_BYTES = 256 * 1024;

export type ControlMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a route handler is given. */
export interface ControlRequest {
	method: ControlMethod;
	/** The path without the query string, e.g. `/__admin/requests/12`. */
	path: string;
	/** The pattern's `:name` segments, percent-decoded. */
	params: Readonly<Record<string, string>>;
	query: URLSearchParams;
	/** The body as UTF-8 text ('' for GET), at most MAX_CONTROL_BODY_BYTES. */
	body: string;
	/** Aborted when the client goes away (a long poll stops waiting). */
	signal: AbortSignal;
}

/** What a route handler answers: JSON (`body` is serialised), 200 unless `status` says otherwise. */
export interface ControlAnswer {
	status?: number;
	body?: unknown;
	headers?: Readonly<Record<string, string>>;
}

export type ControlHandler = (request: ControlRequest) => ControlAnswer | Promise<ControlAnswer>;

/** Thrown by a handler for a caller's mistake: answered as `{ "error": message }` with this status. */
export class ControlError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

interface Route {
	method: ControlMethod;
	pattern: string;
	maxBodyBytes: number;
	/** The pattern's segments after the prefix; `:name` matches any one segment. */
	segments: readonly string[];
	handler: ControlHandler;
}

/** True for an address of this machine's loopback interface (IPv4, IPv6 and IPv4-mapped IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
	if (!address) return false;
	const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
	return v4.startsWith('127.') || address === '::1';
}

function segmentsOf(path: string): string[] {
	return path
		.slice(CONTROL_PREFIX.length)
		.split('/')
		.filter((segment) => segment !== '');
}

function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Readonly<Record<string, string>> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	const text = body === undefined ? '' : JSON.stringify(body);
	res.writeHead(status, {
		...headers,
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(text),
		'cache-control': 'no-store',
		'x-content-type-options': 'nosniff',
	});
	res.end(text);
}

function readText(req: IncomingMessage, limit: number): Promise<string> {
	return new Promise((resolve, reject) => {
		if (Number(req.headers['content-length']) > limit) {
			req.resume();
			return reject(new ControlError(413, `The body is larger than ${limit} bytes.`));
		}
		const body = new ByteCollector(limit);
		req.on('data', (chunk: Buffer) => {
			if (!body.add(chunk)) {
				req.destroy();
				reject(new ControlError(413, `The body is larger than ${limit} bytes.`));
			}
		});
		req.on('end', () => resolve(Buffer.from(body.bytes()).toString('utf8')));
		req.on('error', reject);
	});
}

/** A match of `segments` against a route, with its named segments; undefined when it does not match. */
function matchRoute(route: Route, segments: readonly string[]): Record<string, string> | undefined {
	if (route.segments.length !== segments.length) return undefined;
	const params: Record<string, string> = {};
	for (let i = 0; i < segments.length; i++) {
		const expected = route.segments[i];
		if (expected.startsWith(':')) {
			try {
				params[expected.slice(1)] = decodeURIComponent(segments[i]);
			} catch {
				return undefined;
			}
		} else if (expected !== segments[i]) return undefined;
	}
	return params;
}

/**
 * The router of `/__admin/*`. `add` registers a route; `handle` answers a request whose path
 * `matches`: 403 for a client that is not loopback, 404 for an unknown path, 405 (with Allow) for a
 * known path and another method, the handler's answer otherwise. A handler's ControlError becomes
 * `{ "error": message }` with its status; anything else a 500 without details.
 */
export class ControlRouter {
	private readonly routes: Route[] = [];

	/**
	 * Registers `handler` for `method` and `pattern` (e.g. `/__admin/requests/:id`); its body may be up to
	 * `maxBodyBytes` (default MAX_CONTROL_BODY_BYTES). Returns the router.
	 */
	add(
		method: ControlMethod,
		pattern: string,
		handler: ControlHandler,
		{ maxBodyBytes = MAX_CONTROL_BODY_BYTES }: { maxBodyBytes?: number } = {},
	): this {
		if (!pattern.startsWith(`${CONTROL_PREFIX}/`)) {
			throw new Error(`Control routes live under ${CONTROL_PREFIX}/; got ${pattern}.`);
		}
		if (this.routes.some((route) => route.method === method && route.pattern === pattern)) {
			throw new Error(`${method} ${pattern} is registered already.`);
		}
		this.routes.push({ method, pattern, maxBodyBytes, segments: segmentsOf(pattern), handler });
		return this;
	}

	/** The registered routes, as `METHOD pattern`, for the index and the 404 answer. */
	list(): string[] {
		return this.routes.map((route) => `${route.method} ${route.pattern}`);
	}

	/** True when the path belongs to the control endpoint. */
	matches(path: string): boolean {
		return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
	}

	async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		if (!isLoopbackAddress(req.socket.remoteAddress)) {
			return sendJson(res, 403, { error: 'The control endpoint answers loopback clients only.' });
		}
		const segments = segmentsOf(url.pathname);
		const candidates = this.routes
			.map((route) => ({ route, params: matchRoute(route, segments) }))
			.filter((match) => match.params !== undefined);
		if (candidates.length === 0) {
			return sendJson(res, 404, { error: `Nothing is served at ${url.pathname}.`, routes: this.list() });
		}
		const found = candidates.find((match) => match.route.method === req.method);
		if (!found) {
			const allow = [...new Set(candidates.map((match) => match.route.method))].join(', ');
			return sendJson(res, 405, { error: `Method ${req.method} is not allowed here.` }, { allow });
		}
		const abort = new AbortController();
		res.once('close', () => abort.abort());
		try {
			const body = req.method === 'GET' ? '' : await readText(req, found.route.maxBodyBytes);
			const answer = await found.route.handler({
				method: found.route.method,
				path: url.pathname,
				params: found.params!,
				query: url.searchParams,
				body,
				signal: abort.signal,
			});
			sendJson(res, answer.status ?? 200, answer.body, answer.headers);
		} catch (error) {
			if (error instanceof ControlError) sendJson(res, error.status, { error: error.message });
			else {
				sendJson(res, 500, { error: 'The control endpoint failed; see the sandbox log.' });
				throw error;
			}
		}
	}
}
