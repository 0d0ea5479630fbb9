/** The request pipeline's own steps: headers handed to the bindings, routing, body reading and the answer's bytes. */
import * as assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/server';
import { mediaTypeOf, route, splitTarget } from '../../../src/emulator/pipeline/dispatch';
import { receivedHeaders } from '../../../src/emulator/pipeline/listener';
import { API_KEY, envelope, fakeHandlers, send, type Recorded } from './helpers';

interface Answer {
	status: number;
	/** Header lines as sent, in order, without Date (it changes every second). */
	rawHeaders: string[];
	body: Buffer;
}

/** Sends a POST whose body is written in the given pieces, waiting a little between them. */
function sendInPieces(url: string, headers: Record<string, string | number>, pieces: string[]): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(url, { method: 'POST', headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => {
				const rawHeaders: string[] = [];
				for (let i = 0; i < res.rawHeaders.length; i += 2) {
					if (res.rawHeaders[i].toLowerCase() !== 'date') {
						rawHeaders.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
					}
				}
				resolve({ status: res.statusCode ?? 0, rawHeaders, body: Buffer.concat(chunks) });
			});
			res.on('error', reject);
		});
		req.on('error', reject);
		req.flushHeaders();
		const writeNext = (index: number): void => {
			if (index === pieces.length) {
				req.end();
				return;
			}
			req.write(pieces[index]);
			setTimeout(() => writeNext(index + 1), 10);
		};
		writeNext(0);
	});
}

function inPieces(text: string, count: number): string[] {
	const size = Math.ceil(text.length / count);
	const pieces: string[] = [];
	for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
	return pieces;
}

describe('emulator server: pipeline', () => {
	describe('headers handed to the bindings', () => {
		it("passes node's lower-case headers through unchanged", () => {
			const headers: IncomingHttpHeaders = {
				'content-type': 'text/xml',
				soapaction: '"x"',
				'content-length': '12',
			};
			assert.deepEqual(receivedHeaders({ headers }), {
				'content-type': 'text/xml',
				soapaction: '"x"',
				'content-length': '12',
			});
		});

		it('joins a header node gives as a list', () => {
			const headers: IncomingHttpHeaders = { 'content-type': 'text/xml', 'set-cookie': ['a=1', 'b=2'] };
			assert.deepEqual(receivedHeaders({ headers }), { 'content-type': 'text/xml', 'set-cookie': 'a=1, b=2' });
		});
	});

	describe('routing', () => {
		it('reads the media type of a Content-Type: lower case, without parameters or spaces', () => {
			assert.equal(mediaTypeOf(undefined), '');
			assert.equal(mediaTypeOf(''), '');
			assert.equal(mediaTypeOf('text/xml'), 'text/xml');
			assert.equal(mediaTypeOf(' Text/XML ; charset=utf-8'), 'text/xml');
			assert.equal(mediaTypeOf('application/soap+xml; charset=utf-8; action="urn:x;y"'), 'application/soap+xml');
			assert.equal(mediaTypeOf(';charset=utf-8'), '');
		});

		it('matches each paths table on its own paths, ignoring case and a trailing slash', () => {
			const first = { posting: '/SOAP/Posting.asmx/', administration: '/SOAP/Admin.asmx' };
			const second = { posting: '/other/Posting.asmx', administration: '/other/Admin.asmx' };
			const call = (paths: typeof first, target: string, contentType?: string) =>
				route('POST', splitTarget(target), contentType, paths);
			assert.deepEqual(call(first, '/soap/posting.ASMX', 'text/xml'), {
				kind: 'call',
				endpoint: 'posting',
				binding: 'soap11',
				subPath: '',
				query: '',
			});
			assert.deepEqual(call(first, '/SOAP/Admin.asmx/UserList?x=1', 'application/x-www-form-urlencoded'), {
				kind: 'call',
				endpoint: 'administration',
				binding: 'httpPost',
				subPath: '/UserList',
				query: 'x=1',
			});
			assert.deepEqual(call(second, '/OTHER/posting.asmx', 'application/soap+xml'), {
				kind: 'call',
				endpoint: 'posting',
				binding: 'soap12',
				subPath: '',
				query: '',
			});
			assert.throws(
				() => call(second, '/SOAP/Posting.asmx', 'text/xml'),
				(error: Error & { status?: number }) => error.status === 404,
			);
			assert.throws(
				() => call(first, '/SOAP/Posting.asmxx', 'text/xml'),
				(error: Error & { status?: number }) => error.status === 404,
			);
		});
	});

	describe('answers', () => {
		let emulator: RunningEmulator;
		let ns: string;
		const calls: Recorded[] = [];

		before(async () => {
			emulator = await startEmulator({ handlers: fakeHandlers(calls) });
			ns = emulator.namespace;
		});
		after(() => emulator.stop());

		const score = (version: '1.1' | '1.2'): string =>
			envelope(
				version,
				'ApplicationScore',
				ns,
				`<sAPIKey>${API_KEY}</sAPIKey><sUsername>demo</sUsername><sPassword>secret-pw</sPassword><sAdvertID>1</sAdvertID><sAdvertCandidateID>2</sAdvertCandidateID><sScore>S</sScore>`,
			);

		it('writes a SOAP 1.1 answer with exactly these headers and bytes', async () => {
			const body = score('1.1');
			const answer = await sendInPieces(
				emulator.postingUrl,
				{ 'content-type': 'text/xml; charset=utf-8', 'content-length': Buffer.byteLength(body) },
				[body],
			);
			const expected =
				'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
				`<soap:Body><ApplicationScoreResponse xmlns="${ns}"><ApplicationScoreResult><Success>true</Success></ApplicationScoreResult></ApplicationScoreResponse></soap:Body></soap:Envelope>`;
			assert.equal(answer.status, 200);
			assert.equal(answer.body.toString('utf8'), expected);
			assert.deepEqual(answer.rawHeaders, [
				'content-type: text/xml; charset=utf-8',
				`content-length: ${Buffer.byteLength(expected)}`,
				'x-content-type-options: nosniff',
				'Connection: keep-alive',
				'Keep-Alive: timeout=5',
			]);
		});

		it('writes a SOAP 1.2 answer and fault with the media type and charset only', async () => {
			const ok = await sendInPieces(
				emulator.postingUrl,
				{ 'content-type': `application/soap+xml; charset=utf-8; action="${ns}ApplicationScore"` },
				[score('1.2')],
			);
			assert.equal(ok.status, 200);
			assert.ok(ok.rawHeaders.includes('content-type: application/soap+xml; charset=utf-8'));
			assert.match(
				ok.body.toString('utf8'),
				/^<\?xml version="1\.0" encoding="utf-8"\?><soap12:Envelope [^>]*><soap12:Body><ApplicationScoreResponse /,
			);
			const fault = await sendInPieces(
				emulator.postingUrl,
				{ 'content-type': 'application/soap+xml; charset=utf-8' },
				[envelope('1.2', 'GetCurrency', ns, '<sAPIKey>wrong</sAPIKey>')],
			);
			assert.equal(fault.status, 500);
			assert.ok(fault.rawHeaders.includes('content-type: application/soap+xml; charset=utf-8'));
			assert.match(
				fault.body.toString('utf8'),
				/<soap12:Fault>.*Invalid API key\..*<\/soap12:Fault><\/soap12:Body><\/soap12:Envelope>$/,
			);
		});

		it('answers a body that arrives in many pieces exactly as one sent at once', async () => {
			const body = score('1.1');
			const whole = await sendInPieces(
				emulator.postingUrl,
				{ 'content-type': 'text/xml; charset=utf-8', 'content-length': Buffer.byteLength(body) },
				[body],
			);
			const chunked = await sendInPieces(
				emulator.postingUrl,
				{ 'content-type': 'text/xml; charset=utf-8' },
				inPieces(body, 7),
			);
			const counted = await sendInPieces(
				emulator.postingUrl,
				{ 'content-type': 'text/xml; charset=utf-8', 'content-length': Buffer.byteLength(body) },
				inPieces(body, 3),
			);
			for (const answer of [chunked, counted]) {
				assert.equal(answer.status, 200);
				assert.deepEqual(answer.rawHeaders, whole.rawHeaders);
				assert.deepEqual(answer.body, whole.body);
			}
		});

		it('reads a multi-byte character split across pieces', async () => {
			const body = Buffer.from(score('1.1').replace('<sScore>S</sScore>', '<sScore>é</sScore>'), 'utf8');
			const split = body.indexOf(Buffer.from('é', 'utf8')) + 1;
			const answer = await new Promise<string>((resolve, reject) => {
				const req = httpRequest(
					emulator.postingUrl,
					{ method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8' } },
					(res) => {
						const chunks: Buffer[] = [];
						res.on('data', (chunk: Buffer) => chunks.push(chunk));
						res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
					},
				);
				req.on('error', reject);
				req.write(body.subarray(0, split));
				setTimeout(() => req.end(body.subarray(split)), 10);
			});
			// Refused by the catalogue's rules, with the character read whole from the two pieces.
			assert.match(answer, /sScore must be one of S, M, U, F, N; got 'é'\./);
			// The handler got the whole character, not two halves decoded apart.
			const plain = await send(emulator.postingUrl, {
				method: 'POST',
				headers: { 'content-type': 'text/xml; charset=utf-8' },
				body,
			});
			assert.equal(answer, plain.body);
		});
	});
});
