/**
 * The client against misbehaving loopback servers: timeouts, resets, trickling and truncated bodies,
 * non-XML and HTML answers, redirects, odd faults and empty bodies. Every case must end in a typed
 * MultipostingError with a stable code, within a bound, with no unhandled rejection.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
	HttpStatusError,
	MultipostingClient,
	MultipostingError,
	NetworkError,
	SoapFaultError,
	TimeoutError,
	UnexpectedResponseError,
	type MultipostingErrorCode,
} from '../../src/client';
import { SOAP11_NS } from '../integration/support';

const TIMEOUT_MS = 400;
/** Upper bound of any one case: the client's timeout plus generous slack. */
const CASE_BOUND_MS = 5_000;

type Script = (req: http.IncomingMessage, res: http.ServerResponse, socket: Socket) => void;

describe('hardening: client resilience against scripted servers', function () {
	this.timeout(20_000);
	let server: http.Server;
	let baseUrl: string;
	let script: Script = (_req, res) => res.end();
	const timers = new Set<NodeJS.Timeout>();
	const unhandled: unknown[] = [];
	const onUnhandled = (reason: unknown): void => {
		unhandled.push(reason);
	};

	before(async () => {
		process.on('unhandledRejection', onUnhandled);
		server = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => script(req, res, req.socket));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});

	afterEach(async () => {
		for (const timer of timers) clearInterval(timer);
		timers.clear();
		await new Promise((resolve) => setImmediate(resolve));
		assert.deepEqual(unhandled, [], 'no unhandled rejection');
	});

	after(async () => {
		process.off('unhandledRejection', onUnhandled);
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	/** A bounded interval that afterEach always clears. */
	const every = (ms: number, times: number, tick: (count: number) => void): void => {
		let count = 0;
		const timer = setInterval(() => {
			count += 1;
			if (count > times) {
				clearInterval(timer);
				return;
			}
			tick(count);
		}, ms);
		timers.add(timer);
	};

	const expectError = async (
		errorClass: new (...args: never[]) => MultipostingError,
		code: MultipostingErrorCode,
		check?: (error: MultipostingError) => void,
	): Promise<void> => {
		const client = new MultipostingClient({
			baseUrl,
			credentials: { apiKey: 'resilience-key' },
			timeoutMs: TIMEOUT_MS,
		});
		const started = Date.now();
		try {
			await assert.rejects(client.getCurrency(), (error: unknown) => {
				assert.ok(error instanceof errorClass, `expected ${errorClass.name}, got ${String(error)}`);
				assert.equal((error as MultipostingError).code, code);
				assert.ok((error as MultipostingError).message.length > 20, 'a clear message');
				check?.(error as MultipostingError);
				return true;
			});
		} finally {
			await client.close();
		}
		assert.ok(Date.now() - started < CASE_BOUND_MS, `settled in ${Date.now() - started} ms`);
	};

	const soap = (inner: string): string =>
		`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
	const xmlHeaders = { 'content-type': 'text/xml; charset=utf-8' };

	it('times out when no headers come', async () => {
		script = () => undefined;
		await expectError(TimeoutError, 'MP_ERR_TIMEOUT');
	});

	it('times out on a body trickling beyond the timeout', async () => {
		script = (_req, res) => {
			res.writeHead(200, xmlHeaders);
			res.write('<?xml version="1.0"?>');
			every(50, 200, () => res.write(' '));
		};
		await expectError(TimeoutError, 'MP_ERR_TIMEOUT');
	});

	it('reports a connection reset before the headers as a network error', async () => {
		script = (_req, _res, socket) => socket.destroy();
		await expectError(NetworkError, 'MP_ERR_NETWORK');
	});

	it('reports a reset in the middle of the headers as a network error', async () => {
		script = (_req, _res, socket) => {
			socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Le');
			socket.destroy();
		};
		await expectError(NetworkError, 'MP_ERR_NETWORK');
	});

	it('reports a reset in the middle of the body as a truncated response', async () => {
		script = (_req, _res, socket) => {
			socket.write(
				'HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 5000\r\n\r\n<?xml version="1.0"?><soap:Envelope',
			);
			setTimeout(() => socket.destroy(), 20);
		};
		await expectError(UnexpectedResponseError, 'MP_ERR_UNEXPECTED_RESPONSE', (error) =>
			assert.equal((error as UnexpectedResponseError).reason, 'TRUNCATED'),
		);
	});

	it('refuses a complete but truncated XML document', async () => {
		script = (_req, res) =>
			res
				.writeHead(200, xmlHeaders)
				.end(soap('<GetCurrencyResponse xmlns="http://x/"><GetCurrencyResult><GetValue>'));
		await expectError(UnexpectedResponseError, 'MP_ERR_UNEXPECTED_RESPONSE');
	});

	it('refuses HTTP 200 with JSON, with plain text and with an HTML page', async () => {
		script = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
		await expectError(UnexpectedResponseError, 'MP_ERR_UNEXPECTED_RESPONSE');
		script = (_req, res) => res.writeHead(200, xmlHeaders).end('this is not xml at all');
		await expectError(UnexpectedResponseError, 'MP_ERR_UNEXPECTED_RESPONSE');
		script = (_req, res) =>
			res
				.writeHead(200, { 'content-type': 'text/html' })
				.end('<!DOCTYPE html><html><body><h1>Sign in</h1></body></html>');
		await expectError(UnexpectedResponseError, 'MP_ERR_UNEXPECTED_RESPONSE', (error) =>
			assert.equal((error as UnexpectedResponseError).reason, 'HTML_PAGE'),
		);
	});

	it('does not follow redirects', async () => {
		let followed = 0;
		script = (req, res) => {
			if (req.url?.startsWith('/elsewhere')) followed += 1;
			res.writeHead(302, { location: `${baseUrl}/elsewhere` }).end();
		};
		await expectError(HttpStatusError, 'MP_ERR_HTTP_STATUS', (error) =>
			assert.equal((error as HttpStatusError).location, `${baseUrl}/elsewhere`),
		);
		assert.equal(followed, 0);
	});

	it('reports other statuses (404, 502) as HTTP status errors', async () => {
		script = (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
		await expectError(HttpStatusError, 'MP_ERR_HTTP_STATUS', (error) =>
			assert.equal((error as HttpStatusError).status, 404),
		);
		script = (_req, res) =>
			res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
		await expectError(HttpStatusError, 'MP_ERR_HTTP_STATUS', (error) =>
			assert.equal((error as HttpStatusError).status, 502),
		);
	});

	it('handles faults of unexpected shape', async () => {
		script = (_req, res) =>
			res.writeHead(500, xmlHeaders).end(soap('<soap:Fault><faultcode>soap:Client</faultcode></soap:Fault>'));
		await expectError(MultipostingError, 'MP_ERR_FAULT', (error) => assert.ok(error instanceof SoapFaultError));
		script = (_req, res) =>
			res
				.writeHead(500, xmlHeaders)
				.end(
					soap(
						`<soap:Fault><faultcode>soap:Server</faultcode><faultstring>boom<x><y>junk</y></x></faultstring><detail>${'<d>'.repeat(50)}${'</d>'.repeat(50)}</detail></soap:Fault>`,
					),
				);
		await expectError(MultipostingError, 'MP_ERR_FAULT');
		script = (_req, res) => res.writeHead(500, xmlHeaders).end(soap('<soap:Fault/>'));
		await expectError(MultipostingError, 'MP_ERR_FAULT');
	});

	it('reports an empty body, with 200 and with 500', async () => {
		script = (_req, res) => res.writeHead(200, xmlHeaders).end();
		await expectError(UnexpectedResponseError, 'MP_ERR_UNEXPECTED_RESPONSE', (error) =>
			assert.equal((error as UnexpectedResponseError).reason, 'EMPTY_BODY'),
		);
		script = (_req, res) => res.writeHead(500, xmlHeaders).end();
		await expectError(HttpStatusError, 'MP_ERR_HTTP_STATUS');
	});

	it('reports a refused connection as a network error', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const client = new MultipostingClient({
			baseUrl: `http://127.0.0.1:${port}`,
			credentials: { apiKey: 'k' },
			timeoutMs: TIMEOUT_MS,
		});
		try {
			await assert.rejects(
				client.getCurrency(),
				(error: unknown) => error instanceof NetworkError && error.code === 'MP_ERR_NETWORK',
			);
		} finally {
			await client.close();
		}
	});

	it('aborts through a signal while the server is silent', async () => {
		script = () => undefined;
		const client = new MultipostingClient({ baseUrl, credentials: { apiKey: 'k' }, timeoutMs: 10_000 });
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 50);
		try {
			await assert.rejects(
				client.getCurrency({}, { signal: controller.signal }),
				(error: unknown) => error instanceof MultipostingError && error.code === 'MP_ERR_ABORTED',
			);
		} finally {
			await client.close();
		}
	});
});
