/**
 * The request listener: runs the pipeline steps in order, and turns anything thrown on the way into
 * an answer (see errors.ts for the choices). Order matters:
 *   1. dispatch   endpoint, binding and kind of request from method, path and headers only
 *   2. lookup     GET/POST: the operation named by the path must be on this endpoint
 *   3. read       the body, capped (413 before parsing)
 *   4. decode     binding.decodeRequest -> operation and typed parameters; for SOAP it is also the
 *                 guard: XML that is not well-formed, has a DOCTYPE or nests deeper than 100 is 400
 *   5. check      the operation belongs to this endpoint
 *   6. handle     the domain handler
 *   7. encode     binding.encodeResponse
 * A time budget covers steps 3 to 7; an internal failure is logged, never sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getBinding } from '../../protocol/bindings';
import { MalformedXmlError } from '../../protocol/bindings/soap';
import type {
	BindingName,
	CodecContext,
	DecodedRequest,
	EncodedResponse,
	ReceivedRequest,
} from '../../protocol/bindings/types';
import { OPERATIONS, type Endpoint, type OperationName } from '../../protocol/catalogue';
import { FaultError, type Fault } from '../../protocol/faults';
import { checkParams } from '../../protocol/rules';
import { createNonce, pageCsp } from '../pages/html';
import { serviceNameOf } from '../../protocol/wsdl';
import {
	renderDisco,
	renderIndexPage,
	renderOperationPage,
	renderServicePage,
	type PageContext,
} from '../pages/servicePage';
import { endOfSecond } from './answerCache';
import { ClientAbortedError, readBody } from './body';
import { bodyAsUtf8 } from './charset';
import {
	SANDBOX_INJECTED,
	SANDBOX_WARNING,
	SANDBOX_WARNING_PREFIX,
	type AccessLogEntry,
	type PipelineConfig,
	type RequestState,
} from './context';
import { lookupPathOperation, route, splitTarget, type Route } from './dispatch';
import { classifyError, malformedRequest, timeout, unknownOperation } from './errors';
import { invokeHandler } from './handle';
import { chunkedWriter, dropConnection, failureAnswer, injectedDelay, truncatingWriter } from './injection';
import { WRITING_OPERATIONS } from '../domain/handlers';
import type { Replayer } from '../replay/replayer';

const TEXT_PLAIN = 'text/plain; charset=utf-8';

/**
 * Operations whose answers carry a login token (GetLoginURL's sign-in link, AddAdvert's completion
 * link): sent with Cache-Control: no-store, as the web pages those links open are.
 */
const LOGIN_TOKEN_ANSWERS: ReadonlySet<OperationName> = new Set<OperationName>(['GetLoginURL', 'AddAdvert']);

/** The header value of a leniency: printable ASCII only (names in a request may be anything). */
function warningHeader(leniency: string): string {
	return SANDBOX_WARNING_PREFIX + leniency.replace(/[^\x20-\x7e]/g, '?').slice(0, 500);
}

type CallRoute = Extract<Route, { kind: 'call' }>;

/** Thrown by a queued write whose request was answered (timed out) before its group ran. */
const ABANDONED = Symbol('abandoned');

function codecContext(config: PipelineConfig, endpoint: Endpoint): CodecContext {
	return { namespace: config.namespace, endpointPath: config.paths[endpoint] };
}

/** Writes an answer once; later attempts (after a timeout or an abort) are ignored. */
function send(state: RequestState, res: ServerResponse, answer: EncodedResponse, close = false): void {
	if (state.done || res.headersSent || res.destroyed) return;
	state.done = true;
	// Not `{ ...answer.headers, 'content-length': … }`: in V8 11 properties after a spread in a
	// literal are defined one by one at runtime, about 1 µs each on every answer.
	const headers: Record<string, string | number | string[]> = Object.assign({}, answer.headers);
	headers['content-length'] = answer.body.byteLength;
	headers['x-content-type-options'] = 'nosniff';
	if (close) headers.connection = 'close';
	if (state.warnings !== undefined) headers[SANDBOX_WARNING] = state.warnings.map(warningHeader);
	if (state.injection !== undefined) headers[SANDBOX_INJECTED] = state.injection.mark;
	res.writeHead(answer.status, headers);
	state.answerHeaders = headers;
	state.answerBody = answer.body;
	if (state.writeBody) state.writeBody(res, answer.body);
	else res.end(answer.body);
	// The body was not read to its end, so the connection cannot carry another request.
	if (close) res.once('finish', () => res.socket?.destroySoon());
}

/** A fault in the format of the binding, or as plain text when no binding applies. */
function faultAnswer(
	config: PipelineConfig,
	state: RequestState,
	fault: Fault,
	status: number | undefined,
	plainText: boolean,
): EncodedResponse {
	if (state.binding && state.endpoint && !plainText) {
		const encoded = getBinding(state.binding).encodeFault(fault, codecContext(config, state.endpoint));
		return status === undefined ? encoded : Object.assign({}, encoded, { status });
	}
	return {
		status: status ?? 500,
		headers: { 'content-type': TEXT_PLAIN },
		body: new TextEncoder().encode(fault.message),
	};
}

function sendError(config: PipelineConfig, state: RequestState, res: ServerResponse, error: unknown): void {
	const classified = classifyError(error);
	if (classified.internal) state.error = error;
	state.fault = classified.fault;
	const answer = faultAnswer(config, state, classified.fault, classified.status, classified.plainText);
	send(
		state,
		res,
		Object.assign({}, answer, { headers: Object.assign({}, answer.headers, classified.headers) }),
		classified.closeConnection,
	);
}

function pageContext(config: PipelineConfig): PageContext {
	return { baseUrl: config.baseUrl, namespace: config.namespace, paths: config.paths };
}

function sendPage(state: RequestState, res: ServerResponse, render: (nonce: string) => string): void {
	const nonce = createNonce();
	const body = new TextEncoder().encode(render(nonce));
	send(state, res, {
		status: 200,
		headers: {
			'content-type': 'text/html; charset=utf-8',
			'content-security-policy': pageCsp(nonce),
			'cache-control': 'no-store',
		},
		body,
	});
}

/** Serves the pages and the WSDL; these never read a body. */
function serveDocument(
	config: PipelineConfig,
	state: RequestState,
	res: ServerResponse,
	target: Exclude<Route, { kind: 'call' }>,
): void {
	switch (target.kind) {
		case 'index':
			return sendPage(state, res, (nonce) => renderIndexPage(pageContext(config), nonce));
		case 'servicePage':
			return sendPage(state, res, (nonce) => renderServicePage(target.endpoint, pageContext(config), nonce));
		case 'operationPage':
			return sendPage(state, res, (nonce) => renderOperationPage(target.operation, pageContext(config), nonce));
		case 'disco':
			return send(state, res, {
				status: 200,
				headers: { 'content-type': 'text/xml; charset=utf-8' },
				body: new TextEncoder().encode(
					renderDisco(
						target.endpoint,
						pageContext(config),
						serviceNameOf(target.endpoint, config.paths[target.endpoint]),
					),
				),
			});
		case 'wsdl':
			return send(state, res, {
				status: 200,
				headers: { 'content-type': 'text/xml; charset=utf-8' },
				body: new TextEncoder().encode(config.wsdl[target.endpoint]),
			});
	}
}

/** Steps 2 to 7 of an operation call. */
async function serveCall(
	config: PipelineConfig,
	state: RequestState,
	req: IncomingMessage,
	res: ServerResponse,
	target: CallRoute,
	/** The body, when replay has read it already. */
	readBefore?: Uint8Array,
): Promise<void> {
	const { endpoint, binding } = target;
	const ctx = codecContext(config, endpoint);
	// 2. lookup (GET/POST): before reading, so an unknown operation costs nothing.
	if (binding === 'httpGet' || binding === 'httpPost') {
		state.operation = lookupPathOperation(target.subPath, endpoint, ctx.endpointPath);
	}
	// 3. read, capped.
	const raw = readBefore ?? (await readBody(req, config.maxRequestBytes));
	state.requestBody = raw;
	if (state.done) return;
	// 3a. the same read as before, with nothing changed since: its kept answer (answerCache.ts).
	// While a scenario is on, answers are neither kept nor served again: each request meets it.
	const answers = config.scenarios?.isActive ? undefined : config.answers;
	const key = answers?.cache.keyOf({
		method: state.method,
		url: req.url ?? '/',
		contentType: req.headers['content-type'],
		soapAction: req.headers.soapaction as string | undefined,
		body: raw,
	});
	if (answers && key !== undefined) {
		const kept = answers.cache.get(key, answers.changeCount(), Date.now());
		if (kept) {
			state.operation = kept.operation;
			send(state, res, kept.answer);
			return;
		}
	}
	// 3b. a declared charset other than UTF-8 is decoded, never read as UTF-8 by mistake.
	const body = bodyAsUtf8(raw, req.headers['content-type'], binding);
	// 4. decode; the binding's one XML pass refuses unsafe or broken XML.
	const decoded = decodeRequest(
		binding,
		{ method: state.method, subPath: target.subPath, query: target.query, headers: receivedHeaders(req), body },
		ctx,
		config.loose,
	);
	if (decoded.leniencies.length > 0) state.warnings = decoded.leniencies;
	state.params = decoded.params;
	// The catalogue's parameter rules, as the client checks them: the same message, as a Client fault.
	const problem = checkParams(decoded.operation, decoded.params, { maxPageSize: config.maxPageSize })[0];
	if (problem) {
		state.operation = decoded.operation;
		throw FaultError.client(problem.subcode, problem.message);
	}
	// 5. check.
	if (OPERATIONS[decoded.operation].endpoint !== endpoint) {
		throw unknownOperation(decoded.operation, ctx.endpointPath);
	}
	state.operation = decoded.operation;
	// 5a. scenarios: a failure instead of the answer happens here, before anything is handled.
	const injection = config.scenarios?.decide({
		operation: decoded.operation,
		binding,
		endpoint,
		params: decoded.params,
	});
	if (injection) {
		state.injection = injection;
		if (injection.delayMs !== undefined && injection.chunks === undefined) {
			await injectedDelay(injection.delayMs, res);
			if (state.done || res.destroyed) return;
		}
		if (injection.failure && !injection.afterCommit && injection.failure.kind !== 'truncated') {
			return sendInjected(state, res, failureAnswer(injection.failure, binding, ctx));
		}
	}
	// 5b. admit: a heavy query waits for a slot, released once its answer is delivered or dropped.
	if (config.limits?.isHeavy(decoded.operation, decoded.params)) {
		const release = await config.limits.admit(() => state.done || res.destroyed);
		if (state.done || res.destroyed) return release();
		res.once('close', release);
	}
	// 6. handle; whether it read the clock decides how long its answer may be kept, whether it wrote
	// whether it may be kept at all. A write waits for its group's commit (groupCommit.ts).
	let changeCount: number | undefined;
	let wroteNothing = false;
	let clockRead = false;
	let handledAt = 0;
	const handle = (): unknown => {
		// A request timed out while it waited for its group is not run: its caller was told it failed.
		if (state.done) throw ABANDONED;
		changeCount = answers?.changeCount();
		// Taken here, after any wait for a heavy-query slot or for the group, as before the cache.
		handledAt = Date.now();
		const now = new Date(handledAt);
		const result = invokeHandler(config.handlers, decoded.operation, decoded.params, {
			endpoint,
			binding,
			baseUrl: config.baseUrl,
			client: req.socket.remoteAddress,
			get now() {
				clockRead = true;
				return now;
			},
		});
		wroteNothing = answers?.changeCount() === changeCount;
		return result;
	};
	let result: unknown;
	if (config.groupCommit !== undefined && WRITING_OPERATIONS[decoded.operation]) {
		try {
			result = await config.groupCommit.run(handle);
		} catch (error) {
			if (error === ABANDONED) return;
			throw error;
		}
	} else {
		result = handle();
	}
	// 7. encode; an answer carrying a login token is never kept by a browser or proxy cache.
	const encoded = getBinding(binding).encodeResponse(
		decoded.operation,
		injection?.rewrite ? injection.rewrite(result) : result,
		ctx,
	);
	const answer = LOGIN_TOKEN_ANSWERS.has(decoded.operation)
		? Object.assign({}, encoded, { headers: Object.assign({}, encoded.headers, { 'cache-control': 'no-store' }) })
		: encoded;
	// 7a. scenarios: what happens to the answer once the request has committed.
	if (injection?.failure && (injection.afterCommit || injection.failure.kind === 'truncated')) {
		const failed = failureAnswer(injection.failure, binding, ctx);
		if (failed === 'truncated') return sendInjected(state, res, answer, truncatingWriter);
		return sendInjected(state, res, failed);
	}
	if (injection?.chunks !== undefined) state.writeBody = chunkedWriter(injection.chunks, injection.delayMs ?? 0);
	if (answers && key !== undefined && state.warnings === undefined && wroteNothing) {
		answers.cache.set(key, {
			operation: decoded.operation,
			answer,
			changeCount: changeCount!,
			validUntil: clockRead ? endOfSecond(handledAt) : Infinity,
		});
	}
	send(state, res, answer);
}

/** Sends what a scenario answers instead: an HTTP answer (written by `writeBody` if given), or a dropped connection. */
function sendInjected(
	state: RequestState,
	res: ServerResponse,
	answer: EncodedResponse | 'reset' | 'empty' | 'truncated',
	writeBody?: RequestState['writeBody'],
): void {
	if (answer === 'truncated') throw new Error('A truncated answer needs the real answer to cut.');
	if (answer === 'reset' || answer === 'empty') {
		state.done = true;
		dropConnection(res, answer);
		return;
	}
	if (writeBody) state.writeBody = writeBody;
	send(state, res, answer);
}

/**
 * Replay (replay/replayer.ts): a request the recordings hold gets its recorded answer; one they do not
 * hold gets the strict mode's NotRecorded fault, or goes on to the sandbox in fall-through mode.
 */
async function serveReplay(
	config: PipelineConfig,
	state: RequestState,
	req: IncomingMessage,
	res: ServerResponse,
	replayer: Replayer,
	call: CallRoute,
	target: { path: string; query: string },
): Promise<void> {
	state.endpoint = call.endpoint;
	state.binding = call.binding;
	const body = await readBody(req, config.maxRequestBytes);
	state.requestBody = body;
	if (state.done) return;
	const headers = receivedHeaders(req);
	const match = replayer.match({ method: state.method, ...target, headers, body, url: req.url ?? '/' });
	state.replay = match.outcome;
	state.operation = match.operation;
	state.params = match.params;
	if (match.answer) return send(state, res, match.answer);
	// Fall-through: the sandbox answers, as it would without replay.
	let own: Route;
	try {
		own = route(state.method, target, req.headers['content-type'], config.paths);
	} catch (error) {
		state.binding = undefined;
		throw error;
	}
	if (own.kind !== 'call') return serveDocument(config, state, res, own);
	state.endpoint = own.endpoint;
	state.binding = own.binding;
	return serveCall(config, state, req, res, own, body);
}

/** Decodes a request; XML that cannot be read safely is a 400 (the body is not a SOAP message at all). */
export function decodeRequest(
	binding: BindingName,
	request: ReceivedRequest,
	ctx: CodecContext,
	loose: boolean,
): DecodedRequest {
	try {
		return getBinding(binding).decodeRequest(request, ctx, { loose });
	} catch (error) {
		if (error instanceof MalformedXmlError) throw malformedRequest(error.message);
		throw error;
	}
}

/**
 * The request headers with list values (only Set-Cookie) joined. node:http already gives the names in
 * lower case, so the headers are copied only when a list has to be joined.
 */
export function receivedHeaders(req: Pick<IncomingMessage, 'headers'>): Record<string, string | undefined> {
	const headers = req.headers;
	for (const name in headers) {
		if (Array.isArray(headers[name])) return joinListHeaders(headers);
	}
	return headers as Record<string, string | undefined>;
}

function joinListHeaders(headers: IncomingMessage['headers']): Record<string, string | undefined> {
	const joined: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(headers)) {
		joined[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
	}
	return joined;
}

function describeInjection(injection: NonNullable<RequestState['injection']>): string {
	const what = [
		injection.delayMs !== undefined
			? `${injection.delayMs} ms ${injection.chunks ? 'between chunks' : 'delay'}`
			: '',
		injection.failure?.kind ?? (injection.rewrite ? 'answer changed' : (injection.state ?? '')),
		injection.afterCommit ? 'after commit' : '',
	].filter(Boolean);
	return `${injection.mark}: ${what.join(', ')}`;
}

function log(
	config: PipelineConfig,
	state: RequestState,
	status: number,
	durationMs: number,
	injected: string | undefined,
): void {
	if (!config.logger) return;
	try {
		const entry: AccessLogEntry = {
			time: new Date(state.startedAt),
			method: state.method,
			path: state.path,
			binding: state.binding,
			operation: state.operation,
			status,
			durationMs,
			error: state.error,
			warnings: state.warnings,
		};
		if (injected !== undefined) entry.injected = injected;
		if (state.replay) {
			entry.replayed =
				state.replay.outcome === 'served'
					? `${state.replay.recording}#${state.replay.exchange}`
					: `unmatched (${state.replay.mode === 'strict' ? 'NotRecorded fault' : 'the sandbox answered'})`;
		}
		config.logger(entry);
	} catch {
		// A failing logger must not take the server down.
	}
}

/** The node:http request listener of the emulator. Never throws and never rejects. */
export function createRequestListener(config: PipelineConfig): (req: IncomingMessage, res: ServerResponse) => void {
	return (req, res) => {
		const method = req.method ?? 'GET';
		const target = splitTarget(req.url ?? '/');
		const state: RequestState = { startedAt: Date.now(), method, path: target.path, done: false };
		const limits = config.limits;
		if (limits) state.writeBody = (response, body) => limits.writeBody(response, body);
		let logged = false;
		const finish = (status: number): void => {
			if (logged) return;
			logged = true;
			clearTimeout(timer);
			// Described once for the access log and the journal.
			const durationMs = Date.now() - state.startedAt;
			const injected = state.injection && describeInjection(state.injection);
			log(config, state, status, durationMs, injected);
			config.journal?.record({
				startedAt: state.startedAt,
				durationMs,
				client: req.socket?.remoteAddress,
				method,
				path: target.path,
				query: target.query,
				requestHeaders: req.headers,
				requestBody: state.requestBody,
				endpoint: state.endpoint,
				binding: state.binding,
				operation: state.operation,
				params: state.params,
				status,
				responseHeaders: state.answerHeaders,
				responseBody: state.answerBody,
				fault: state.fault,
				error: state.error,
				warnings: state.warnings,
				injected,
				replay: state.replay,
			});
		};
		res.on('finish', () => finish(res.statusCode));
		res.on('close', () => finish(res.writableFinished ? res.statusCode : 499));
		res.on('error', () => undefined);
		req.on('error', () => undefined);
		// The time budget of the whole request, body included (slow senders get a Timeout fault).
		const timer = setTimeout(() => sendError(config, state, res, timeout()), config.requestTimeoutMs);
		timer.unref();

		const fail = (error: unknown): void => {
			if (error instanceof ClientAbortedError) {
				state.done = true;
				return;
			}
			try {
				sendError(config, state, res, error);
			} catch (fatal) {
				// Even encoding the fault failed: answer bare and record why.
				state.error = fatal;
				if (!res.headersSent && !res.destroyed) {
					state.done = true;
					res.writeHead(500, { 'content-type': TEXT_PLAIN, connection: 'close' }).end(
						'Server was unable to process request.',
					);
				} else {
					res.destroy();
				}
			}
		};

		// 0. replay: a call in a recording's paths is answered from the recordings first.
		const replayer = config.replay?.current;
		const replayed = replayer?.callOf(method, target, req.headers['content-type']);
		if (replayer && replayed) {
			serveReplay(config, state, req, res, replayer, replayed, target).catch(fail);
			return;
		}
		// 1. dispatch, synchronously: only an operation call waits for anything (its body).
		let call: CallRoute;
		try {
			const found = route(method, target, req.headers['content-type'], config.paths);
			if (found.kind !== 'call') {
				serveDocument(config, state, res, found);
				return;
			}
			call = found;
		} catch (error) {
			fail(error);
			return;
		}
		state.endpoint = call.endpoint;
		state.binding = call.binding satisfies BindingName;
		serveCall(config, state, req, res, call).catch(fail);
	};
}
