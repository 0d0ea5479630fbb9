/**
 * The inspecting proxy against a "live service" that is a second sandbox behind HTTPS with a test CA:
 * bytes forwarded unchanged (hop-by-hop headers aside), certificates verified, an outbound proxy's
 * CONNECT tunnel, the proxy's own 502s (never a SOAP fault), the journal (upstream, verdict, no
 * credential in any encoding) and breakpoints.
 */
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer as createHttpServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest, type Server as HttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { RunningEmulator } from '../../../src/emulator';
import type { JournalEntry } from '../../../src/emulator/journal/types';
import { PROXY_HEADER } from '../../../src/emulator/proxy/proxy';
import { getBinding } from '../../../src/protocol/bindings';
import type { BindingName } from '../../../src/protocol/bindings/types';
import {
	DEFAULT_ENDPOINT_PATHS,
	OPERATIONS,
	type AnyParams,
	type OperationName,
} from '../../../src/protocol/catalogue';
import type { TestCertificates } from '../../builders/certificates';
import { startLiveStandIn, type LiveStandIn } from '../../builders/liveStandIn';
import { rawUpstream } from '../../builders/rawUpstream';
import { SANDBOX_START_TIMEOUT_MS } from '../../integration/support';

interface Raw {
	status: number;
	rawHeaders: string[];
	body: Buffer;
}

/** One request with node:http(s), no agent; the whole answer as bytes and raw headers. */
function send(
	url: string,
	options: { method?: string; headers?: Record<string, string>; body?: Uint8Array | string; ca?: string } = {},
): Promise<Raw> {
	return new Promise((resolve, reject) => {
		const secure = url.startsWith('https:');
		const req = (secure ? httpsRequest : httpRequest)(
			url,
			{
				method: options.method ?? 'GET',
				headers: options.headers,
				agent: false,
				...(secure ? { ca: options.ca } : {}),
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
				);
				res.on('error', reject);
			},
		);
		req.setTimeout(15_000, () => req.destroy(new Error('no answer within 15 s')));
		req.on('error', reject);
		req.end(options.body === undefined ? undefined : Buffer.from(options.body));
	});
}

function header(raw: Raw, name: string): string | undefined {
	const values: string[] = [];
	for (let i = 0; i < raw.rawHeaders.length; i += 2) {
		if (raw.rawHeaders[i].toLowerCase() === name) values.push(raw.rawHeaders[i + 1]);
	}
	return values.length ? values.join(', ') : undefined;
}

/** End-to-end headers as [name, value] pairs, without those that differ between two answers by design. */
function comparable(raw: Raw): string[][] {
	const pairs: string[][] = [];
	const skip = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
	for (let i = 0; i < raw.rawHeaders.length; i += 2) {
		if (!skip.has(raw.rawHeaders[i].toLowerCase())) pairs.push([raw.rawHeaders[i], raw.rawHeaders[i + 1]]);
	}
	return pairs;
}

async function listen<T extends Server | HttpServer | HttpsServer>(server: T): Promise<T & { port: number }> {
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	return Object.assign(server, { port: (server.address() as AddressInfo).port });
}

function close(server: Server | undefined, sockets: Set<Socket> = new Set()): Promise<void> {
	for (const socket of sockets) socket.destroy();
	return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

const SECRET_PASSWORD = 'pä&ss<wörd> +%"x';
const SECRET_KEY = 'key&<k>+ =%ünknown';

function escapeXml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&apos;');
}

/** Every written form of a secret a journal could hold. */
function encodings(secret: string): string[] {
	return [
		secret,
		encodeURIComponent(secret),
		new URLSearchParams({ x: secret }).toString().slice(2),
		escapeXml(secret),
		escapeXml(secret).replace(/&quot;/g, '"'),
	];
}

describe('inspecting proxy to an HTTPS live service', function () {
	this.timeout(SANDBOX_START_TIMEOUT_MS * 2);
	let standIn: LiveStandIn;
	let certificates: TestCertificates;
	let live: RunningEmulator;
	let front: LiveStandIn['front'];
	let sandbox: RunningEmulator;
	let proxyUrl: string;

	before(async () => {
		standIn = await startLiveStandIn({ loose: true });
		({ certificates, live, front, sandbox } = standIn);
	});
	after(() => standIn?.stop());
	beforeEach(async () => {
		proxyUrl = (await sandbox.proxy.start({ upstream: front.baseUrl, port: 0, ca: [certificates.ca] })).url;
	});
	afterEach(async () => {
		await sandbox.proxy.stop();
		sandbox.breakpoints.clear();
	});

	/** The newest journal entries after `afterId`, read with the control endpoint (waits a little for one). */
	async function journaledAfter(afterId: number): Promise<JournalEntry & { verdict: Record<string, unknown> }> {
		for (let attempt = 0; attempt < 20; attempt++) {
			const list = await send(`${sandbox.baseUrl}/__admin/requests?after=${afterId}&wait=1`);
			const requests = (JSON.parse(list.body.toString('utf8')) as { requests: JournalEntry[] }).requests;
			if (requests.length > 0) {
				const one = await send(`${sandbox.baseUrl}/__admin/requests/${requests[requests.length - 1].id}`);
				assert.equal(one.status, 200);
				return JSON.parse(one.body.toString('utf8')) as JournalEntry & { verdict: Record<string, unknown> };
			}
		}
		throw new Error(`nothing journaled after ${afterId}`);
	}
	const lastId = (): number => sandbox.journal?.stats().lastId ?? 0;

	function encoded(binding: BindingName, operation: OperationName, params: AnyParams) {
		return getBinding(binding).encodeRequest(operation, params, {
			namespace: live.namespace,
			endpointPath: DEFAULT_ENDPOINT_PATHS[OPERATIONS[operation].endpoint],
		});
	}

	describe('forwarding', () => {
		for (const binding of ['soap11', 'soap12', 'httpGet', 'httpPost'] as const) {
			it(`answers a ${binding} call byte for byte as the service does directly, and journals it with the upstream`, async () => {
				const request = encoded(binding, 'GetCurrency', { sCultureID: 'en-GB', sAPIKey: live.demo.apiKey });
				const options = {
					method: request.method,
					headers: request.headers,
					body: request.method === 'GET' ? undefined : request.body,
				};
				const direct = await send(front.baseUrl + request.path, { ...options, ca: certificates.ca });
				const before = lastId();
				const proxied = await send(proxyUrl + request.path, options);
				assert.equal(direct.status, 200, direct.body.toString('utf8'));
				assert.equal(proxied.status, direct.status);
				assert.ok(proxied.body.equals(direct.body), 'the body bytes are the same');
				assert.deepEqual(comparable(proxied), comparable(direct));
				assert.equal(header(proxied, PROXY_HEADER), undefined);
				const entry = await journaledAfter(before);
				assert.equal(entry.upstream, front.baseUrl);
				assert.equal(entry.binding, binding);
				assert.equal(entry.operation, 'GetCurrency');
				assert.equal(entry.status, 200);
				assert.equal(entry.proxyError, undefined);
			});
		}

		it('forwards an answer that is not 200 (a fault) unchanged too', async () => {
			const request = encoded('soap11', 'UserList', {
				sCultureID: 'en-GB',
				sAPIKey: live.demo.apiKey,
				sUsername: live.demo.username,
				sPassword: 'wrong-password',
			});
			const options = { method: request.method, headers: request.headers, body: request.body };
			const direct = await send(front.baseUrl + request.path, { ...options, ca: certificates.ca });
			const proxied = await send(proxyUrl + request.path, options);
			assert.equal(direct.status, 500);
			assert.equal(proxied.status, 500);
			assert.ok(proxied.body.equals(direct.body));
			assert.deepEqual(comparable(proxied), comparable(direct));
		});

		it('removes hop-by-hop headers both ways and passes a chunked answer and request on whole', async () => {
			let seen: Record<string, string | string[] | undefined> = {};
			let seenBody = '';
			const upstream = await listen(
				createHttpsServer({ key: certificates.key, cert: certificates.cert }, (req, res) => {
					seen = req.headers;
					const chunks: Buffer[] = [];
					req.on('data', (chunk: Buffer) => chunks.push(chunk));
					req.on('end', () => {
						seenBody = Buffer.concat(chunks).toString('utf8');
						res.writeHead(200, {
							'content-type': 'text/plain',
							'x-end-to-end': 'kept',
							'x-named-hop': 'dropped',
							connection: 'x-named-hop',
							'keep-alive': 'timeout=99, max=7',
							'proxy-authenticate': 'Basic realm="upstream"',
							'proxy-connection': 'keep-alive',
							trailer: 'x-checksum',
						});
						res.write('first piece, ');
						res.write('second piece');
						res.addTrailers({ 'x-checksum': 'abc' });
						res.end();
					});
				}),
			);
			try {
				const started = await sandbox.proxy.start({
					upstream: `https://127.0.0.1:${upstream.port}`,
					port: 0,
					ca: [certificates.ca],
					namespace: live.namespace,
				});
				const answer = await new Promise<Raw & { trailers: string[] }>((resolve, reject) => {
					const req = httpRequest(
						`${started.url}/anything?x=1`,
						{
							method: 'POST',
							agent: false,
							headers: {
								'content-type': 'text/plain',
								'x-client-end-to-end': 'kept',
								'x-client-hop': 'dropped',
								connection: 'x-client-hop',
								'keep-alive': 'timeout=42',
								'proxy-authorization': 'Basic c2VjcmV0OnNlY3JldA==',
								'proxy-connection': 'keep-alive',
								te: 'trailers',
								'transfer-encoding': 'chunked',
							},
						},
						(res) => {
							const chunks: Buffer[] = [];
							res.on('data', (chunk: Buffer) => chunks.push(chunk));
							res.on('end', () =>
								resolve({
									status: res.statusCode ?? 0,
									rawHeaders: res.rawHeaders,
									body: Buffer.concat(chunks),
									trailers: res.rawTrailers,
								}),
							);
						},
					);
					req.on('error', reject);
					req.write('a chunked ');
					req.end('request body');
				});
				assert.equal(answer.status, 200);
				assert.equal(answer.body.toString('utf8'), 'first piece, second piece');
				assert.equal(header(answer, 'x-end-to-end'), 'kept');
				assert.equal(header(answer, 'x-named-hop'), undefined);
				assert.doesNotMatch(header(answer, 'keep-alive') ?? '', /99/);
				assert.doesNotMatch(header(answer, 'connection') ?? '', /x-named-hop/);
				assert.equal(header(answer, 'proxy-authenticate'), undefined);
				assert.equal(header(answer, 'proxy-connection'), undefined);
				assert.equal(header(answer, 'trailer'), undefined);
				assert.ok(!answer.trailers.map((t) => t.toLowerCase()).includes('x-checksum'));

				assert.equal(seenBody, 'a chunked request body');
				assert.equal(seen['x-client-end-to-end'], 'kept');
				assert.equal(seen['x-client-hop'], undefined);
				assert.notEqual(seen['keep-alive'], 'timeout=42');
				assert.equal(seen['proxy-authorization'], undefined);
				assert.equal(seen['proxy-connection'], undefined);
				assert.equal(seen.te, undefined);
				assert.equal(seen['transfer-encoding'], undefined);
				assert.equal(seen['content-length'], String(Buffer.byteLength('a chunked request body')));
				assert.equal(seen.host, `127.0.0.1:${upstream.port}`);
			} finally {
				upstream.closeAllConnections();
				await close(upstream);
			}
		});
	});

	describe("the upstream's namespace", () => {
		it('is read from its WSDL, and is no guess', async () => {
			const started = await sandbox.proxy.start({ upstream: front.baseUrl, port: 0, ca: [certificates.ca] });
			assert.equal(started.namespace, live.namespace);
			assert.equal(started.namespaceFrom, 'wsdl');
			assert.equal(started.namespaceNote, undefined);
		});

		it('given, the WSDL is not asked for', async () => {
			const asked: string[] = [];
			const upstream = await rawUpstream((socket) => {
				asked.push('request');
				socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
			});
			try {
				const started = await sandbox.proxy.start({ upstream: upstream.url, port: 0, namespace: 'urn:given' });
				assert.equal(started.namespace, 'urn:given');
				assert.equal(started.namespaceFrom, 'option');
				assert.equal(started.namespaceNote, undefined);
				assert.deepEqual(asked, []);
			} finally {
				await upstream.close();
			}
		});

		const guesses: [string, (socket: Socket) => void, RegExp][] = [
			[
				'answers 404',
				(socket) => socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'),
				/it answered HTTP 404/,
			],
			[
				'answers a page that is no WSDL',
				(socket) =>
					socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\n\r\n<html></html>'),
				/it has no targetNamespace/,
			],
			[
				'resets the connection',
				(socket) => socket.resetAndDestroy(),
				/http:\/\/127\.0\.0\.1:\d+ closed the connection before its answer was complete/,
			],
		];
		for (const [what, answer, why] of guesses) {
			it(`is guessed from the base URL, and the guess said with why, when the WSDL ${what}`, async () => {
				const upstream = await rawUpstream(answer);
				try {
					const started = await sandbox.proxy.start({ upstream: upstream.url, port: 0 });
					assert.equal(started.namespace, `${upstream.url}/`);
					assert.equal(started.namespaceFrom, 'base-url');
					const note = started.namespaceNote ?? '';
					assert.match(
						note,
						new RegExp(`WSDL \\(${upstream.url}/SOAP/Posting\\.asmx\\?WSDL\\) could not be read`),
					);
					assert.match(note, why);
					assert.match(note, /--proxy-namespace/);
				} finally {
					await upstream.close();
				}
			});
		}
	});

	describe('certificates and the outbound proxy', () => {
		it('verifies the certificate: without the CA a 502 of kind tls, journaled; with `ca` the call goes through', async () => {
			const started = await sandbox.proxy.start({
				upstream: front.baseUrl,
				port: 0,
				namespace: live.namespace,
			});
			const before = lastId();
			const refused = await send(`${started.url}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=k`);
			assert.equal(refused.status, 502);
			assert.equal(header(refused, PROXY_HEADER), 'tls');
			assert.match(header(refused, 'content-type') ?? '', /^text\/plain/);
			assert.match(refused.body.toString('utf8'), /inspecting proxy/);
			const entry = await journaledAfter(before);
			assert.equal(entry.proxyError?.kind, 'tls');
			assert.equal(entry.upstream, front.baseUrl);

			const withCa = await sandbox.proxy.start({ upstream: front.baseUrl, port: 0, ca: [certificates.ca] });
			const trusted = await send(
				`${withCa.url}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${live.demo.apiKey}`,
			);
			assert.equal(trusted.status, 200);
		});

		it('goes through an outbound proxy with a CONNECT tunnel (`via`)', async () => {
			const tunnels: string[] = [];
			const sockets = new Set<Socket>();
			const outbound = await listen(
				createHttpServer((_req, res) => {
					res.writeHead(405).end();
				}),
			);
			outbound.on('connect', (req, client: Socket, head: Buffer) => {
				tunnels.push(req.url ?? '');
				sockets.add(client);
				client.on('error', () => undefined);
				const [host, port] = (req.url ?? '').split(':');
				const target = connect(Number(port), host, () => {
					client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
					target.write(head);
					target.pipe(client);
					client.pipe(target);
				});
				sockets.add(target);
				target.on('error', () => client.destroy());
			});
			try {
				const started = await sandbox.proxy.start({
					upstream: front.baseUrl,
					port: 0,
					ca: [certificates.ca],
					via: `http://127.0.0.1:${outbound.port}`,
				});
				assert.equal(started.via, `http://127.0.0.1:${outbound.port}`);
				const path = `/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${live.demo.apiKey}`;
				const direct = await send(front.baseUrl + path, { ca: certificates.ca });
				const before = tunnels.length;
				const proxied = await send(started.url + path);
				assert.equal(proxied.status, 200);
				assert.ok(proxied.body.equals(direct.body));
				assert.ok(tunnels.length > 0, 'a tunnel was asked for');
				assert.ok(tunnels.length >= before);
				assert.ok(
					tunnels.every((authority) => authority === new URL(front.baseUrl).host),
					tunnels.join(),
				);
			} finally {
				await sandbox.proxy.stop();
				outbound.closeAllConnections();
				await close(outbound, sockets);
			}
		});
	});

	describe("the proxy's own answers when the upstream gives none", () => {
		/** Asserts a 502 from the proxy of this kind, never a SOAP fault, journaled as a proxy error. */
		async function assertProxy502(
			upstream: string,
			kind: string,
			extra: { timeoutMs?: number; ca?: string[] } = {},
		): Promise<void> {
			const started = await sandbox.proxy.start({ upstream, port: 0, namespace: live.namespace, ...extra });
			const before = lastId();
			const request = encoded('soap11', 'GetCurrency', { sCultureID: 'en-GB', sAPIKey: live.demo.apiKey });
			const answer = await send(started.url + request.path, {
				method: 'POST',
				headers: request.headers,
				body: request.body,
			});
			const text = answer.body.toString('utf8');
			assert.equal(answer.status, 502, text);
			assert.equal(header(answer, PROXY_HEADER), kind, text);
			assert.match(header(answer, 'content-type') ?? '', /^text\/plain/);
			assert.match(text, /^Multiposting Workbench proxy: /);
			assert.match(text, /comes from the inspecting proxy/);
			assert.doesNotMatch(text, /Envelope|Fault|<\?xml/);
			const entry = await journaledAfter(before);
			assert.equal(entry.status, 502);
			assert.equal(entry.proxyError?.kind, kind);
			assert.equal(entry.upstream, upstream);
			assert.equal(entry.operation, 'GetCurrency');
			assert.equal(entry.fault, undefined);
		}

		it('unreachable: nothing listens on the port', async () => {
			const probe = await listen(createNetServer());
			const port = probe.port;
			await close(probe);
			await assertProxy502(`http://127.0.0.1:${port}`, 'unreachable');
		});

		it('timeout: the upstream takes the request and never answers', async () => {
			const upstream = await rawUpstream(() => undefined);
			try {
				await assertProxy502(upstream.url, 'timeout', { timeoutMs: 300 });
			} finally {
				await upstream.close();
			}
		});

		it('reset: the upstream drops the connection in the middle of its answer head', async () => {
			const upstream = await rawUpstream((socket) => {
				socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Le', () => socket.resetAndDestroy());
			});
			try {
				await assertProxy502(upstream.url, 'reset');
			} finally {
				await upstream.close();
			}
		});

		it('reset in the middle of the body: the client sees the answer cut, the journal a reset', async () => {
			const upstream = await rawUpstream((socket) => {
				socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 1000\r\n\r\n<half', () =>
					setTimeout(() => socket.resetAndDestroy(), 50),
				);
			});
			try {
				const started = await sandbox.proxy.start({
					upstream: upstream.url,
					port: 0,
					namespace: live.namespace,
				});
				const before = lastId();
				await assert.rejects(send(`${started.url}/SOAP/Posting.asmx/GetCurrency?sCultureID=en&sAPIKey=k`));
				const entry = await journaledAfter(before);
				assert.equal(entry.proxyError?.kind, 'reset');
				assert.equal(entry.upstream, upstream.url);
			} finally {
				await upstream.close();
			}
		});

		it('tls: the upstream does not speak TLS on its https:// port', async () => {
			const upstream = await listen(createHttpServer((_req, res) => res.end('plain')));
			try {
				await assertProxy502(`https://127.0.0.1:${upstream.port}`, 'tls', { ca: [certificates.ca] });
			} finally {
				upstream.closeAllConnections();
				await close(upstream);
			}
		});

		it('tls: the certificate is signed by a CA that is not trusted', async () => {
			await assertProxy502(front.baseUrl, 'tls');
		});
	});

	describe('the journal of proxied exchanges', () => {
		it('keeps no credential in any encoding (plain, URL-encoded, XML-escaped), and marks other credentials', async () => {
			const started = await sandbox.proxy.start({
				upstream: front.baseUrl,
				port: 0,
				ca: [certificates.ca],
				credentials: { apiKey: live.demo.apiKey, password: live.demo.password },
			});
			const secrets = [live.demo.apiKey, live.demo.password, SECRET_PASSWORD, SECRET_KEY];
			const before = lastId();
			const sentOther: boolean[] = [];
			for (const binding of ['soap11', 'soap12', 'httpGet', 'httpPost'] as const) {
				for (const [apiKey, password, other] of [
					[live.demo.apiKey, live.demo.password, false],
					[live.demo.apiKey, SECRET_PASSWORD, true],
					[SECRET_KEY, live.demo.password, true],
				] as const) {
					const request = encoded(binding, 'UserList', {
						sCultureID: 'en-GB',
						sAPIKey: apiKey,
						sUsername: live.demo.username,
						sPassword: password,
					});
					const answer = await send(started.url + request.path, {
						method: request.method,
						headers: request.headers,
						body: request.method === 'GET' ? undefined : request.body,
					});
					assert.equal(answer.status === 200, !other, `${binding}: ${answer.status}`);
					sentOther.push(other);
				}
			}
			const ids: number[] = [];
			for (let attempt = 0; attempt < 20 && ids.length < sentOther.length; attempt++) {
				const list = await send(`${sandbox.baseUrl}/__admin/requests?after=${before}&limit=100&wait=1`);
				ids.splice(
					0,
					ids.length,
					...(JSON.parse(list.body.toString('utf8')) as { requests: JournalEntry[] }).requests.map(
						(e) => e.id,
					),
				);
			}
			assert.equal(ids.length, sentOther.length);
			const texts: string[] = [];
			for (const id of [...ids].sort((a, b) => a - b)) {
				const one = await send(`${sandbox.baseUrl}/__admin/requests/${id}`);
				texts.push(one.body.toString('utf8'));
				const entry = JSON.parse(one.body.toString('utf8')) as JournalEntry;
				assert.equal(entry.upstream, front.baseUrl);
				assert.equal(entry.operation, 'UserList');
				assert.equal(entry.otherCredentials === true, sentOther[texts.length - 1], `exchange ${id}`);
			}
			const list = await send(`${sandbox.baseUrl}/__admin/requests?limit=1000`);
			texts.push(list.body.toString('utf8'));
			const all = texts.join('\n');
			// JSON escapes quotes and non-ASCII letters may come as \u escapes: both forms are looked for.
			const asJson = (text: string): string => JSON.stringify(text).slice(1, -1);
			for (const secret of secrets) {
				for (const form of encodings(secret)) {
					assert.ok(!all.includes(form), `the journal holds a credential as ${JSON.stringify(form)}`);
					assert.ok(
						!all.includes(asJson(form)),
						`the journal holds a credential as JSON ${JSON.stringify(form)}`,
					);
				}
			}
		});

		it("computes production's verdict on a request a loose service accepted and production refuses", async () => {
			const before = lastId();
			const answer = await send(`${proxyUrl}/SOAP/Posting.asmx/GetCurrency?sAPIKey=${live.demo.apiKey}`);
			assert.equal(answer.status, 200, 'the loose stand-in accepts it');
			const entry = await journaledAfter(before);
			assert.equal(entry.upstream, front.baseUrl);
			assert.equal(entry.status, 200);
			const verdict = entry.verdict as { refusal?: { fault: { message: string } }; summary: string };
			assert.equal(
				verdict.refusal?.fault.message,
				'System.InvalidOperationException: Missing parameter: sCultureID.',
			);
		});
	});

	describe('breakpoints', () => {
		interface Held {
			id: number;
			query: string;
			body: string;
			upstream?: string;
			operation?: string;
		}

		async function heldOne(): Promise<Held> {
			for (let attempt = 0; attempt < 20; attempt++) {
				const answer = await send(
					`${sandbox.baseUrl}/__admin/held?after=${sandbox.breakpoints.version}&wait=1`,
				);
				const held = (JSON.parse(answer.body.toString('utf8')) as { held: Held[] }).held;
				if (held.length > 0) return held[0];
			}
			throw new Error('no request was held');
		}

		async function breakAt(operation: string, holdMs?: number): Promise<void> {
			const set = await send(`${sandbox.baseUrl}/__admin/breakpoints`, {
				method: 'POST',
				body: JSON.stringify({ operation, ...(holdMs ? { holdMs } : {}) }),
			});
			assert.equal(set.status, 201, set.body.toString('utf8'));
		}

		async function decide(id: number, decision: unknown): Promise<void> {
			const answer = await send(`${sandbox.baseUrl}/__admin/held/${id}`, {
				method: 'POST',
				body: JSON.stringify(decision),
			});
			assert.equal(answer.status, 200, answer.body.toString('utf8'));
		}

		const soap = (culture: string) =>
			encoded('soap11', 'GetCurrency', { sCultureID: culture, sAPIKey: live.demo.apiKey });
		const viaProxy = (request: ReturnType<typeof soap>) =>
			send(proxyUrl + request.path, { method: 'POST', headers: request.headers, body: request.body });
		const directly = (request: ReturnType<typeof soap>) =>
			send(front.baseUrl + request.path, {
				method: 'POST',
				headers: request.headers,
				body: request.body,
				ca: certificates.ca,
			});

		it('releases a held request unchanged', async () => {
			await breakAt('GetCurrency');
			const before = lastId();
			const answering = viaProxy(soap('en-GB'));
			const held = await heldOne();
			assert.equal(held.upstream, front.baseUrl);
			assert.equal(held.operation, 'GetCurrency');
			assert.ok(!held.body.includes(live.demo.apiKey), 'the held body shows no credential');
			await decide(held.id, { action: 'release' });
			const answer = await answering;
			const direct = await directly(soap('en-GB'));
			assert.equal(answer.status, 200);
			assert.ok(answer.body.equals(direct.body));
			const entry = await journaledAfter(before);
			assert.match(entry.breakpoint ?? '', /released unchanged$/);
		});

		it('sends a held request on as edited, with its credentials put back', async () => {
			await breakAt('GetCurrency');
			const before = lastId();
			const answering = viaProxy(soap('en-GB'));
			const held = await heldOne();
			assert.match(held.body, /en-GB/);
			await decide(held.id, { action: 'send', body: held.body.replace('en-GB', 'fr-FR') });
			const answer = await answering;
			const direct = await directly(soap('fr-FR'));
			const unedited = await directly(soap('en-GB'));
			assert.equal(answer.status, 200, answer.body.toString('utf8'));
			assert.ok(answer.body.equals(direct.body), 'the answer is the edited request’s');
			assert.ok(!answer.body.equals(unedited.body), 'the two cultures answer differently');
			const entry = await journaledAfter(before);
			assert.match(entry.breakpoint ?? '', /sent on as edited/);
		});

		it('answers a held request with a fault in its binding, sending nothing on', async () => {
			await breakAt('GetCurrency');
			const liveBefore = live.journal?.stats().lastId ?? 0;
			const before = lastId();
			const answering = viaProxy(soap('en-GB'));
			const held = await heldOne();
			await decide(held.id, { action: 'fault', fault: { code: 'Server', message: 'Held and refused here' } });
			const answer = await answering;
			assert.equal(answer.status, 500);
			assert.equal(header(answer, PROXY_HEADER), 'breakpoint');
			assert.match(answer.body.toString('utf8'), /soap:Fault[\s\S]*Held and refused here/);
			assert.equal(live.journal?.stats().lastId ?? 0, liveBefore, 'the service got nothing');
			const entry = await journaledAfter(before);
			assert.match(entry.breakpoint ?? '', /answered here with the fault Server/);
		});

		it('releases a held request unchanged when nobody decides in time', async () => {
			await breakAt('GetCurrency', 1000);
			const before = lastId();
			const answer = await viaProxy(soap('en-GB'));
			const direct = await directly(soap('en-GB'));
			assert.equal(answer.status, 200);
			assert.ok(answer.body.equals(direct.body));
			const entry = await journaledAfter(before);
			assert.match(entry.breakpoint ?? '', /released unchanged \(nobody decided in time\)/);
		});
	});
});
