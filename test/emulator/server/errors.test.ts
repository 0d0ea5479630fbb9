import * as assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { startEmulator, type AccessLogEntry, type RunningEmulator } from '../../../src/emulator/server';
import { allFields, API_KEY, envelope, fakeHandlers, send } from './helpers';

const SOAP11 = { 'content-type': 'text/xml; charset=utf-8' };
const SOAP12 = { 'content-type': 'application/soap+xml; charset=utf-8' };

/** The SOAP 1.1 fault as the emulator writes it: the sub-code in a WCF ExceptionDetail (Type). */
function soap11Fault(_ns: string, code: string, message: string, subcode: string): string {
	return (
		'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
		`<soap:Body><soap:Fault><faultcode>soap:${code}</faultcode><faultstring>${message}</faultstring><detail><ExceptionDetail xmlns="http://schemas.datacontract.org/2004/07/System.ServiceModel"><Message>${message}</Message><Type>${subcode}</Type></ExceptionDetail></detail></soap:Fault></soap:Body></soap:Envelope>`
	);
}

/** Sends raw bytes on a fresh connection and resolves with everything the server writes until it closes. */
function rawExchange(port: number, head: string, body = ''): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket: Socket = connect(port, '127.0.0.1', () => socket.write(head + body));
		const chunks: Buffer[] = [];
		socket.on('data', (chunk: Buffer) => chunks.push(chunk));
		socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
		socket.on('error', reject);
	});
}

describe('emulator server: errors', () => {
	let emulator: RunningEmulator;
	let ns: string;
	let port: number;
	const log: AccessLogEntry[] = [];

	before(async () => {
		emulator = await startEmulator({
			handlers: fakeHandlers(),
			logger: (entry) => log.push(entry),
			maxRequestBytes: 64 * 1024,
			requestTimeoutMs: 400,
		});
		ns = emulator.namespace;
		port = Number(new URL(emulator.baseUrl).port);
	});
	after(() => emulator.stop());

	it('answers bad credentials with HTTP 500 and a soap:Client fault', async () => {
		const res = await send(emulator.postingUrl, {
			method: 'POST',
			headers: SOAP11,
			body: envelope('1.1', 'GetCurrency', ns, '<sAPIKey>wrong</sAPIKey>'),
		});
		assert.equal(res.status, 500);
		assert.equal(res.headers['content-type'], 'text/xml; charset=utf-8');
		assert.equal(res.body, soap11Fault(ns, 'Client', 'Invalid API key.', 'AuthenticationFailed'));
	});

	it('answers a missing filter on SOAP 1.2 with HTTP 500 and env:Sender, as ASMX does', async () => {
		const res = await send(emulator.postingUrl, {
			method: 'POST',
			headers: SOAP12,
			body: envelope(
				'1.2',
				'GetApplicationsPaged',
				ns,
				`<sAPIKey>${API_KEY}</sAPIKey><CurrentPage>1</CurrentPage><RowsPerPage>10</RowsPerPage>`,
			),
		});
		assert.equal(res.status, 500);
		assert.equal(res.headers['content-type'], 'application/soap+xml; charset=utf-8');
		assert.match(
			res.body,
			/<soap12:Code><soap12:Value>soap12:Sender<\/soap12:Value><soap12:Subcode><soap12:Value xmlns:mp="[^"]+">mp:MissingFilter<\/soap12:Value>/,
		);
		assert.match(res.body, /<soap12:Text xml:lang="en">At least one search filter must be given: /);
	});

	it('answers GET and POST caller errors with HTTP 500 text/plain short messages', async () => {
		const get = await send(`${emulator.postingUrl}/GetCurrency?sCultureID=en`);
		assert.equal(get.status, 500);
		assert.equal(get.headers['content-type'], 'text/plain; charset=utf-8');
		// ASMX's answer to a GET or POST without one of the operation's fields (strict by default).
		assert.equal(get.body, 'System.InvalidOperationException: Missing parameter: sAPIKey.');
		const post = await send(`${emulator.postingUrl}/ApplicationScore`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: allFields('ApplicationScore', { sAPIKey: API_KEY, sScoreAsJobOwner: 'maybe' }),
		});
		assert.equal(post.status, 500);
		assert.equal(post.headers['content-type'], 'text/plain; charset=utf-8');
		assert.equal(post.body, "sScoreAsJobOwner must be true or false; got 'maybe'.");
	});

	it('answers an internal failure with soap:Server, logs the real error and sends no detail of it', async () => {
		log.length = 0;
		const res = await send(emulator.adminUrl, {
			method: 'POST',
			headers: SOAP11,
			body: envelope('1.1', 'FeedList', ns, `<sAPIKey>${API_KEY}</sAPIKey>`),
		});
		assert.equal(res.status, 500);
		assert.equal(res.body, soap11Fault(ns, 'Server', 'Server was unable to process request.', 'InternalError'));
		assert.ok(!res.body.includes('exploded') && !res.body.includes('/secret/path') && !res.body.includes('at '));
		assert.equal(log.length, 1);
		assert.ok(log[0].error instanceof Error);
		assert.equal(log[0].error.message, 'database exploded at /secret/path');
	});

	it('names an unknown SOAP operation, including one of the other endpoint', async () => {
		const unknown = await send(emulator.postingUrl, {
			method: 'POST',
			headers: SOAP11,
			body: envelope('1.1', 'DeleteEverything', ns, ''),
		});
		assert.equal(unknown.status, 500);
		assert.equal(
			unknown.body,
			soap11Fault(ns, 'Client', 'Unknown operation DeleteEverything on /SOAP/Posting.asmx.', 'UnknownOperation'),
		);
		const elsewhere = await send(emulator.postingUrl, {
			method: 'POST',
			headers: SOAP11,
			body: envelope('1.1', 'UserList', ns, ''),
		});
		assert.equal(
			elsewhere.body,
			soap11Fault(ns, 'Client', 'Unknown operation UserList on /SOAP/Posting.asmx.', 'UnknownOperation'),
		);
	});

	it('names an unknown GET or POST operation in a 500 text answer', async () => {
		const get = await send(`${emulator.adminUrl}/GetCurrency?sCultureID=&sAPIKey=${API_KEY}`);
		assert.equal(get.status, 500);
		assert.equal(get.headers['content-type'], 'text/plain; charset=utf-8');
		assert.equal(get.body, 'Unknown operation GetCurrency on /SOAP/Administration.asmx.');
		const post = await send(`${emulator.postingUrl}/Nope`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: '',
		});
		assert.equal(post.status, 500);
		assert.equal(post.body, 'Unknown operation Nope on /SOAP/Posting.asmx.');
	});

	it('refuses a body element in another namespace and says which namespace is expected', async () => {
		const res = await send(emulator.postingUrl, {
			method: 'POST',
			headers: SOAP11,
			body: envelope('1.1', 'GetCurrency', 'http://example.com/other/', ''),
		});
		assert.equal(res.status, 500);
		assert.match(res.body, /<faultcode>soap:Client<\/faultcode>/);
		assert.ok(res.body.includes(`expects "${ns}"`), res.body);
	});

	it('answers 415 for a content type that fits no binding', async () => {
		const json = await send(emulator.postingUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		assert.equal(json.status, 415);
		assert.equal(json.headers['content-type'], 'text/plain; charset=utf-8');
		assert.equal(
			json.body,
			"Unsupported Content-Type 'application/json'; expected text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2).",
		);
		const form = await send(`${emulator.postingUrl}/GetCurrency`, {
			method: 'POST',
			headers: SOAP11,
			body: '<x/>',
		});
		assert.equal(form.status, 415);
		assert.equal(
			form.body,
			"Unsupported Content-Type 'text/xml; charset=utf-8'; expected application/x-www-form-urlencoded.",
		);
	});

	it('answers 405 with Allow for a wrong method', async () => {
		const put = await send(emulator.postingUrl, { method: 'PUT', headers: SOAP11, body: '<x/>' });
		assert.equal(put.status, 405);
		assert.equal(put.headers.allow, 'GET, POST');
		const del = await send(`${emulator.baseUrl}/`, { method: 'DELETE' });
		assert.equal(del.status, 405);
		assert.equal(del.headers.allow, 'GET');
	});

	it('answers 404 for paths outside the endpoints', async () => {
		const res = await send(`${emulator.baseUrl}/favicon.ico`);
		assert.equal(res.status, 404);
		assert.equal(res.body, 'Nothing is served at /favicon.ico.');
	});

	it('answers 400 with a Client fault for malformed XML', async () => {
		const res = await send(emulator.postingUrl, {
			method: 'POST',
			headers: SOAP11,
			body: '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>',
		});
		assert.equal(res.status, 400);
		assert.equal(res.headers['content-type'], 'text/xml; charset=utf-8');
		assert.match(
			res.body,
			/<faultcode>soap:Client<\/faultcode><faultstring>The request is not well-formed XML: [^<]+<\/faultstring><detail><ExceptionDetail [^>]+><Message>[^<]+<\/Message><Type>MalformedRequest</,
		);
	});

	it('answers 400 for a DOCTYPE without expanding entities', async () => {
		const body =
			'<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
			envelope('1.1', 'GetCurrency', ns, '<sAPIKey>&b;</sAPIKey>').replace(/^<\?xml[^>]*\?>/, '');
		const res = await send(emulator.postingUrl, { method: 'POST', headers: SOAP12, body });
		assert.equal(res.status, 400);
		assert.equal(res.headers['content-type'], 'application/soap+xml; charset=utf-8');
		assert.match(res.body, /<soap12:Text xml:lang="en">A DOCTYPE is not allowed in requests.<\/soap12:Text>/);
	});

	it('answers 400 for nesting deeper than 100 elements', async () => {
		const deep = `${'<a>'.repeat(101)}${'</a>'.repeat(101)}`;
		const res = await send(emulator.postingUrl, {
			method: 'POST',
			headers: SOAP11,
			body: envelope('1.1', 'GetCurrency', ns, `<sAPIKey>${deep}</sAPIKey>`),
		});
		assert.equal(res.status, 400);
		assert.match(res.body, /<faultstring>The XML is nested deeper than 100 elements.<\/faultstring>/);
	});

	it('answers 413 from Content-Length alone, without waiting for the body', async () => {
		const head = `POST /SOAP/Posting.asmx HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`;
		// Only the head is sent: an answer proves the server did not wait for 100 MB.
		const answer = await rawExchange(port, head, '<soap:Envelope');
		assert.match(answer, /^HTTP\/1\.1 413 Payload Too Large\r\n/);
		assert.match(answer, /\r\nConnection: close\r\n/i);
		assert.match(
			answer,
			/<faultcode>soap:Client<\/faultcode><faultstring>Request body exceeds the limit of 65536 bytes.<\/faultstring>/,
		);
	});

	it('answers 413 when a chunked body grows past the limit', async () => {
		const head =
			'POST /SOAP/Posting.asmx/GetCurrency HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n';
		const chunk = 'a'.repeat(32 * 1024);
		const chunks = `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(3);
		const answer = await rawExchange(port, head, chunks);
		assert.match(answer, /^HTTP\/1\.1 413 Payload Too Large\r\n/);
		assert.match(answer, /\r\n\r\nRequest body exceeds the limit of 65536 bytes.$/);
	});

	it('answers a body that trickles in too slowly with a Server fault "Timeout" within the time budget', async () => {
		const head = `POST /SOAP/Posting.asmx HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 500\r\n\r\n`;
		// 10 of 500 bytes, then silence: only the 400 ms budget can end this exchange.
		const answer = await rawExchange(port, head, '<soap:Env');
		assert.match(answer, /^HTTP\/1\.1 500 Internal Server Error\r\n/);
		assert.match(
			answer,
			/<faultcode>soap:Server<\/faultcode><faultstring>Timeout<\/faultstring><detail><ExceptionDetail [^>]+><Message>Timeout<\/Message><Type>Timeout<\/Type>/,
		);
	});

	it('answers an oversized request head with 431 and stays up', async () => {
		const answer = await rawExchange(
			port,
			`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'x'.repeat(20 * 1024)}\r\n\r\n`,
		);
		assert.match(answer, /^HTTP\/1\.1 431 /);
		const after = await send(`${emulator.postingUrl}/GetCurrency?sCultureID=&sAPIKey=${API_KEY}`);
		assert.equal(after.status, 200);
	});

	it('survives a client that disconnects mid-body', async () => {
		await new Promise<void>((resolve, reject) => {
			const socket = connect(port, '127.0.0.1', () => {
				socket.write(
					'POST /SOAP/Posting.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 1000\r\n\r\n<soap',
					() => socket.destroy(),
				);
			});
			socket.on('close', () => resolve());
			socket.on('error', reject);
		});
		const after = await send(`${emulator.postingUrl}/GetCurrency?sCultureID=&sAPIKey=${API_KEY}`);
		assert.equal(after.status, 200);
	});
});
