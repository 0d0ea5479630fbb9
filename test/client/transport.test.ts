import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sendRequest, type OutgoingRequest } from '../../src/client';
import { ScriptedServer, guardUnhandledRejections } from './helpers';

describe('transport (sendRequest)', () => {
	guardUnhandledRejections();
	let server: ScriptedServer;
	beforeEach(async () => {
		server = await ScriptedServer.start();
	});
	afterEach(async () => {
		await server.close();
	});

	const post = (body = 'hello'): OutgoingRequest => ({
		method: 'POST',
		url: `${server.baseUrl}/SOAP/Posting.asmx?x=1`,
		headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"urn:a"' },
		body: new Uint8Array(Buffer.from(body)),
	});
	const options = { timeoutMs: 5_000, maxBodyBytes: 1024 * 1024 };

	it('sends the request as prepared and returns status, headers and body', async () => {
		server.handler = (_request, response) => {
			response.setHeader('X-Twice', ['a', 'b']);
			response.writeHead(201, { 'Content-Type': 'text/xml' }).end('<ok/>');
		};
		const sent = await sendRequest(post('<body>é</body>'), options);
		assert.equal(sent.failure, undefined);
		assert.equal(sent.response?.status, 201);
		assert.equal(sent.response?.headers['content-type'], 'text/xml');
		assert.equal(sent.response?.headers['x-twice'], 'a, b');
		assert.equal(Buffer.from(sent.response!.body).toString('utf8'), '<ok/>');
		assert.ok(sent.headersMs !== undefined && sent.headersMs <= sent.totalMs);
		assert.ok(sent.startedAt > 0);
		const received = server.requests[0];
		assert.equal(received.method, 'POST');
		assert.equal(received.url, '/SOAP/Posting.asmx?x=1');
		assert.equal(received.headers.soapaction, '"urn:a"');
		assert.equal(received.body.toString('utf8'), '<body>é</body>');
	});

	it('takes headers as pairs and sends no body with GET', async () => {
		server.answer(200, {}, 'x');
		await sendRequest(
			{ method: 'GET', url: `${server.baseUrl}/a`, headers: [['X-One', '1']], body: new Uint8Array([1, 2]) },
			options,
		);
		assert.equal(server.requests[0].headers['x-one'], '1');
		assert.equal(server.requests[0].body.length, 0);
	});

	it('gives a body its own memory, never a view of a larger buffer (which may hold the headers)', async () => {
		for (const size of [0, 10, 3000, 200_000]) {
			server.answer(200, { 'set-cookie': 'session=SECRET-COOKIE' }, Buffer.alloc(size, 0x61));
			const body = (await sendRequest(post(), options)).response!.body;
			assert.equal(body.length, size);
			assert.equal(body.byteOffset, 0);
			assert.equal(body.buffer.byteLength, size);
		}
	});

	it('gives the same bytes in memory of their own with a declared length, without one, and when a declared body stops short', async () => {
		const big = Buffer.alloc(500_000);
		for (let i = 0; i < big.length; i++) big[i] = (i * 7) % 253;
		const ownMemory = (body: Uint8Array, expected: Uint8Array): void => {
			assert.deepEqual(Buffer.from(body), Buffer.from(expected));
			assert.equal(body.byteOffset, 0);
			assert.equal(body.buffer.byteLength, expected.length);
		};
		// Declared length (node:http sets content-length for end(buffer)), in one write.
		server.answer(200, {}, big);
		ownMemory((await sendRequest(post(), options)).response!.body, big);
		// No declared length: chunked transfer encoding, several writes.
		server.handler = (_request, response) => {
			response.writeHead(200);
			response.write(big.subarray(0, 100_000));
			response.write(big.subarray(100_000, 300_000));
			response.end(big.subarray(300_000));
		};
		ownMemory((await sendRequest(post(), options)).response!.body, big);
		// A declared length larger than what comes: the bytes received, nothing of the space left unfilled.
		server.handler = (_request, response) => {
			response.writeHead(200, { 'content-length': String(big.length) });
			response.write(big.subarray(0, 200_000), () => setTimeout(() => response.socket?.destroy(), 20));
		};
		const short = await sendRequest(post(), options);
		assert.equal(short.failure?.kind, 'body');
		ownMemory(short.response!.body, big.subarray(0, 200_000));
		// A declared length above the cap: cut at the cap, in a buffer of exactly that size.
		server.answer(200, {}, big);
		const cut = await sendRequest(post(), { ...options, maxBodyBytes: 123_457 });
		assert.equal(cut.failure?.kind, 'too-large');
		ownMemory(cut.response!.body, big.subarray(0, 123_457));
	});

	it('cuts a body longer than maxBodyBytes at exactly that many bytes', async () => {
		const big = Buffer.alloc(300_000);
		for (let i = 0; i < big.length; i++) big[i] = i % 251;
		server.answer(200, { 'content-type': 'application/octet-stream' }, big);
		const sent = await sendRequest(post(), { ...options, maxBodyBytes: 100_000 });
		assert.equal(sent.failure?.kind, 'too-large');
		assert.equal(sent.response?.status, 200);
		assert.deepEqual(Buffer.from(sent.response!.body), big.subarray(0, 100_000));
	});

	it('times out before the headers and while the body trickles', async () => {
		server.handler = () => undefined;
		let sent = await sendRequest(post(), { ...options, timeoutMs: 150 });
		assert.equal(sent.failure?.kind, 'timeout');
		assert.equal(sent.response, undefined);

		server.handler = (_request, response) => {
			response.writeHead(200, { 'content-type': 'text/xml' });
			response.write('<a>');
			const timer = setInterval(() => response.write('.'), 20);
			response.on('close', () => clearInterval(timer));
		};
		sent = await sendRequest(post(), { ...options, timeoutMs: 200 });
		assert.equal(sent.failure?.kind, 'timeout');
		assert.equal(sent.response?.status, 200);
		assert.ok(Buffer.from(sent.response!.body).toString().startsWith('<a>'));
		assert.ok(sent.totalMs < 5_000);
	});

	it('reports the caller aborting, before sending and during the body', async () => {
		const early = new AbortController();
		early.abort(new Error('stop'));
		let sent = await sendRequest(post(), { ...options, signal: early.signal });
		assert.equal(sent.failure?.kind, 'aborted');
		assert.equal(server.requests.length, 0, 'nothing was sent');

		server.handler = (_request, response) => {
			response.writeHead(200).write('partial');
		};
		const late = new AbortController();
		const pending = sendRequest(post(), { ...options, signal: late.signal });
		setTimeout(() => late.abort(), 100);
		sent = await pending;
		assert.equal(sent.failure?.kind, 'aborted');
		assert.equal(Buffer.from(sent.response!.body).toString(), 'partial');
	});

	it('reports a refused connection as a network failure and a reset body as a body failure', async () => {
		const closed = net.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		let sent = await sendRequest({ ...post(), url: `http://127.0.0.1:${port}/` }, options);
		assert.equal(sent.failure?.kind, 'network');
		assert.equal(sent.response, undefined);

		server.handler = (_request, response) => {
			response.writeHead(200, { 'content-length': '1000' });
			response.write('0123456789', () => setTimeout(() => response.socket?.destroy(), 20));
		};
		sent = await sendRequest(post(), options);
		assert.equal(sent.failure?.kind, 'body');
		assert.equal(Buffer.from(sent.response!.body).toString(), '0123456789');
	});

	it('leaves no listener on a long-lived caller signal after its calls end', async () => {
		server.answer(200, {}, 'ok');
		const longLived = new AbortController();
		for (let i = 0; i < 20; i++) {
			const sent = await sendRequest(post(), { ...options, signal: longLived.signal });
			assert.equal(sent.failure, undefined);
		}
		assert.equal(getEventListeners(longLived.signal, 'abort').length, 0);
	});
});
