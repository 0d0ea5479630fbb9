/**
 * The inspecting proxy's memory follows its caps, not what the upstream or the client sends: an
 * endless answer is cut at the answer cap, an answer of one-byte chunks is passed on whole, a slow
 * upstream and a client that does not read are passed at the client's pace (backpressure), an
 * oversized request body is refused. The proxy runs in a child process (this file, forked with
 * MPW_PROXY_MEMORY_CHILD=1 and --expose-gc) whose peak resident size and retained memory are read
 * before and after, as test/hardening/bodyMemory.test.ts does for the sandbox. Memory is asserted; no
 * time is.
 */
import * as assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { rawUpstream, type RawUpstream } from '../builders/rawUpstream';
import { startSandbox } from '../integration/support';

const MiB = 1024 * 1024;
const CHILD_FLAG = 'MPW_PROXY_MEMORY_CHILD';
/** The answer cap the child's proxy is started with. */
const MAX_RESPONSE_BYTES = 16 * MiB;

interface ChildMemory {
	retained: number;
	peakRss: number;
}

/** What the child's journal says of its newest exchange. */
interface Journaled {
	status: number;
	upstream?: string;
	proxyError?: { kind: string; message: string };
	responseBytes: number;
	responseKeptChars: number;
}

/* ------------------------------------------------------------------ child ------------------------------------------------------------------ */

async function childMain(): Promise<void> {
	const sandbox = await startSandbox({ size: 'small', passwordCost: 1024 });
	const answerMemory = async (): Promise<void> => {
		// The journal keeps the head of each answer on purpose: forgotten before measuring what remains.
		sandbox.journal?.clear();
		const gc = (globalThis as { gc?: () => void }).gc;
		gc?.();
		await delay(50);
		gc?.();
		const usage = process.memoryUsage();
		const memory: ChildMemory = {
			retained: usage.heapUsed + usage.external,
			peakRss: process.resourceUsage().maxRSS * 1024,
		};
		process.send!(memory);
	};
	process.on('message', (message: string | { upstream: string }) => {
		if (message === 'memory') void answerMemory();
		else if (message === 'journal') {
			const [entry] = sandbox.journal?.list({ limit: 1 }) ?? [];
			const journaled: Journaled = {
				status: entry?.status ?? 0,
				upstream: entry?.upstream,
				proxyError: entry?.proxyError,
				responseBytes: entry?.response.body.bytes ?? 0,
				responseKeptChars: entry?.response.body.text.length ?? 0,
			};
			process.send!(journaled);
		} else if (message === 'stop') {
			void sandbox.stop().then(() => process.exit(0));
		} else if (typeof message === 'object') {
			void sandbox.proxy
				.start({
					upstream: message.upstream,
					port: 0,
					namespace: 'http://tempuri.org/',
					timeoutMs: 30_000,
					maxResponseBytes: MAX_RESPONSE_BYTES,
				})
				.then((info) => process.send!({ url: info.url }));
		}
	});
	process.send!({ ready: true });
}

/* ------------------------------------------------------------------ test ------------------------------------------------------------------- */

/** What the client got: the status, the body bytes read, and whether the answer was cut. */
interface Outcome {
	status: number;
	bytes: number;
	cut: boolean;
	proxyHeader?: string;
	text: string;
}

/** A GET through the proxy, read to the end (or to the cut), counting bytes and keeping only the first 1 KiB. */
function get(url: string): Promise<Outcome> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(url, { agent: false }, (res) => {
			let bytes = 0;
			let text = '';
			res.on('data', (chunk: Buffer) => {
				bytes += chunk.byteLength;
				if (text.length < 1024) text += chunk.toString('latin1', 0, Math.min(chunk.byteLength, 1024));
			});
			const done = (cut: boolean) => () =>
				resolve({
					status: res.statusCode ?? 0,
					bytes,
					cut,
					proxyHeader: res.headers['x-multiposting-proxy'] as string | undefined,
					text,
				});
			res.on('end', done(false));
			res.on('aborted', done(true));
			res.on('error', done(true));
		});
		req.setTimeout(120_000, () => req.destroy(new Error('no answer within 120 s')));
		req.on('error', reject);
		req.end();
	});
}

/** Resolves when the socket drains or closes, leaving no listener behind. */
function drainedOrClosed(socket: Socket): Promise<void> {
	return new Promise((resolve) => {
		const done = (): void => {
			socket.off('drain', done);
			socket.off('close', done);
			resolve();
		};
		socket.on('drain', done);
		socket.on('close', done);
	});
}

/** Writes `piece` until `total` bytes or the socket closes, waiting for drain. Resolves with the bytes the socket took. */
async function writeUntil(
	socket: Socket,
	piece: Buffer | string,
	total: number,
	progress?: (bytes: number) => void,
): Promise<number> {
	const size = Buffer.byteLength(piece);
	let written = 0;
	while (written < total && !socket.destroyed && socket.writable) {
		const ok = socket.write(piece);
		written += size;
		progress?.(written);
		if (!ok) await drainedOrClosed(socket);
	}
	return written;
}

function report(what: string, before: ChildMemory, after: ChildMemory): void {
	console.log(
		`      ${what}: peak rss ${(before.peakRss / MiB).toFixed(0)} → ${(after.peakRss / MiB).toFixed(0)} MiB, ` +
			`retained ${(before.retained / MiB).toFixed(1)} → ${(after.retained / MiB).toFixed(1)} MiB`,
	);
}

if (process.env[CHILD_FLAG] === '1') {
	void childMain();
} else {
	describe('hardening: memory through the inspecting proxy', function () {
		this.timeout(240_000);
		let child: ChildProcess;
		const servers: RawUpstream[] = [];

		const ask = <T>(message: unknown): Promise<T> =>
			new Promise((resolve) => {
				child.once('message', (answer) => resolve(answer as T));
				child.send(message as string);
			});
		const memory = (): Promise<ChildMemory> => ask<ChildMemory>('memory');

		/** Starts the child's proxy to a new raw upstream; resolves with the proxy's URL. */
		async function proxyTo(
			answer: (socket: Socket) => Promise<void> | void,
		): Promise<{ url: string; upstream: string }> {
			const upstream = await rawUpstream(answer);
			servers.push(upstream);
			const { url } = await ask<{ url: string }>({ upstream: upstream.url });
			return { url, upstream: upstream.url };
		}

		before(async function () {
			this.timeout(60_000);
			child = fork(__filename, [], {
				execArgv: ['--expose-gc'],
				env: { ...process.env, [CHILD_FLAG]: '1' },
				stdio: 'inherit',
			});
			await new Promise((ready, failed) => {
				child.once('message', ready);
				child.once('exit', (code) => failed(new Error(`the proxy's child process exited (${code})`)));
			});
		});

		after(async () => {
			if (child?.connected) child.send('stop');
			for (const upstream of servers) await upstream.close();
		});

		it('cuts an endless answer at the answer cap: the client gets the head and bytes up to the cap, then the cut', async () => {
			const written: number[] = [];
			const LIMIT = 1024 * MiB;
			const proxy = await proxyTo(async (socket) => {
				socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n');
				written.push(await writeUntil(socket, Buffer.alloc(64 * 1024, 0x61), LIMIT));
			});
			await get(`${proxy.url}/warm-up`);
			const before = await memory();
			const outcomes: Outcome[] = [];
			const journaled: Journaled[] = [];
			for (let round = 0; round < 3; round++) {
				outcomes.push(await get(`${proxy.url}/endless`));
				journaled.push(await ask<Journaled>('journal'));
			}
			const after = await memory();
			report('endless answer', before, after);
			for (const outcome of outcomes) {
				assert.equal(outcome.status, 200);
				assert.equal(outcome.cut, true, 'the answer is cut, not ended as if complete');
				assert.ok(outcome.bytes <= MAX_RESPONSE_BYTES, `${outcome.bytes} bytes passed on, at most the cap`);
			}
			for (const entry of journaled) {
				assert.equal(entry.proxyError?.kind, 'tooLarge');
				assert.equal(entry.upstream, proxy.upstream);
				assert.ok(entry.responseKeptChars <= 4 * MiB + 1024, 'the journal keeps a head only');
			}
			// The upstream was stopped: each connection closed long before the writer's own limit.
			for (let attempt = 0; attempt < 100 && written.length < 4; attempt++) await delay(50);
			assert.equal(written.length, 4);
			for (const bytes of written) {
				assert.ok(bytes < LIMIT / 4, `the upstream wrote ${bytes} bytes before the cut`);
			}
			assert.ok(after.peakRss - before.peakRss < 64 * MiB, 'peak resident size grew by less than 64 MiB');
			assert.ok(after.retained - before.retained < 2 * MiB, 'retained memory grew by less than 2 MiB');
		});

		it('answers 502 tooLarge at once to an answer declaring more than the cap', async () => {
			const proxy = await proxyTo((socket) => {
				socket.write(
					`HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: ${10 * MAX_RESPONSE_BYTES}\r\nConnection: close\r\n\r\n<start`,
				);
			});
			const outcome = await get(`${proxy.url}/declared`);
			assert.equal(outcome.status, 502);
			assert.equal(outcome.proxyHeader, 'tooLarge');
			assert.match(outcome.text, /^Multiposting Workbench proxy: .*more than the proxy passes on/);
			assert.equal((await ask<Journaled>('journal')).proxyError?.kind, 'tooLarge');
		});

		it('passes on whole an answer of 1,000,000 one-byte chunks, three times, with its memory bounded', async () => {
			const proxy = await proxyTo(async (socket) => {
				socket.write(
					'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
				);
				await writeUntil(socket, '1\r\nx\r\n'.repeat(10_000), 6 * 1_000_000);
				socket.end('0\r\n\r\n');
			});
			await get(`${proxy.url}/warm-up`);
			const before = await memory();
			const outcomes: Outcome[] = [];
			for (let round = 0; round < 3; round++) outcomes.push(await get(`${proxy.url}/tiny-chunks`));
			const after = await memory();
			report('one-byte chunks', before, after);
			for (const outcome of outcomes) {
				assert.equal(outcome.status, 200, outcome.text.slice(0, 300));
				assert.equal(outcome.cut, false);
				assert.equal(outcome.bytes, 1_000_000);
				assert.match(outcome.text, /^x+$/);
			}
			assert.ok(after.peakRss - before.peakRss < 64 * MiB, 'peak resident size grew by less than 64 MiB');
			assert.ok(
				after.retained - before.retained < 2 * MiB,
				'retained memory grew by less than 2 MiB (the three answers kept would be 2.9)',
			);
		});

		it('passes a slow upstream to twenty clients at once, whole, with memory of the order of its pieces', async () => {
			const proxy = await proxyTo(async (socket) => {
				socket.write(
					'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
				);
				for (let piece = 0; piece < 50 && !socket.destroyed; piece++) {
					socket.write(`400\r\n${'s'.repeat(1024)}\r\n`);
					await delay(20);
				}
				socket.end('0\r\n\r\n');
			});
			const before = await memory();
			const outcomes = await Promise.all(Array.from({ length: 20 }, () => get(`${proxy.url}/slow`)));
			const after = await memory();
			report('slow upstream', before, after);
			for (const outcome of outcomes) {
				assert.equal(outcome.status, 200);
				assert.equal(outcome.cut, false);
				assert.equal(outcome.bytes, 50 * 1024);
			}
			assert.ok(after.peakRss - before.peakRss < 32 * MiB, 'peak resident size grew by less than 32 MiB');
			assert.ok(after.retained - before.retained < 2 * MiB, 'retained memory grew by less than 2 MiB');
		});

		it('holds the upstream back when the client does not read (backpressure), with memory bounded', async () => {
			const TOTAL = 256 * MiB;
			let written = 0;
			let closed = false;
			const proxy = await proxyTo(async (socket) => {
				socket.once('close', () => (closed = true));
				socket.write(
					`HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${TOTAL}\r\nConnection: close\r\n\r\n`,
				);
				await writeUntil(socket, Buffer.alloc(MiB, 0x62), TOTAL, (bytes) => (written = bytes));
			});
			const before = await memory();
			const client = connect(Number(new URL(proxy.url).port), '127.0.0.1');
			client.on('error', () => undefined);
			await new Promise((connected) => client.once('connect', connected));
			client.write(`GET /big HTTP/1.1\r\nHost: ${new URL(proxy.url).host}\r\nConnection: close\r\n\r\n`);
			client.pause();
			// Until the upstream's writes stop moving (bounded): the buffers on the way are full.
			let last = -1;
			for (let steady = 0, attempt = 0; steady < 5 && attempt < 200; attempt++) {
				await delay(100);
				steady = written === last ? steady + 1 : 0;
				last = written;
			}
			const during = await memory();
			report('client not reading', before, during);
			assert.ok(written > 0, 'the upstream began its answer');
			assert.ok(written < 64 * MiB, `the upstream could write only ${written} bytes of ${TOTAL}`);
			assert.ok(during.peakRss - before.peakRss < 64 * MiB, 'peak resident size grew by less than 64 MiB');
			client.destroy();
			for (let attempt = 0; attempt < 100 && !closed; attempt++) await delay(50);
			assert.equal(closed, true, 'the request upstream is given up with the client');
		});

		it('refuses an oversized client body (declared or chunked), three times, with its memory bounded', async () => {
			let reached = 0;
			const proxy = await proxyTo((socket) => {
				reached++;
				socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
			});
			const port = Number(new URL(proxy.url).port);
			/** Sends a POST of `bytes` bytes (chunked, or with its Content-Length) until the proxy answers or closes. */
			const post = (bytes: number, chunked: boolean): Promise<{ status: number; text: string }> =>
				new Promise((resolve, reject) => {
					const socket = connect(port, '127.0.0.1');
					let received = '';
					let answered = false;
					socket.on('data', (data: Buffer) => {
						received += data.toString('latin1');
						answered = true;
					});
					socket.on('error', () => undefined);
					socket.on('close', () => {
						const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]);
						if (Number.isNaN(status)) reject(new Error(`no answer: ${received.slice(0, 200)}`));
						else resolve({ status, text: received });
					});
					socket.on('connect', async () => {
						socket.write(
							`POST /SOAP/Posting.asmx HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/xml\r\n` +
								(chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${bytes}\r\n\r\n`),
						);
						const piece = Buffer.alloc(64 * 1024, 0x63);
						const framed = chunked
							? Buffer.concat([Buffer.from('10000\r\n'), piece, Buffer.from('\r\n')])
							: piece;
						for (let sent = 0; sent < bytes && !answered && !socket.destroyed; sent += piece.byteLength) {
							if (!socket.write(framed)) await drainedOrClosed(socket);
						}
						// Once answered, the client stops sending and closes its side, as a client does.
						if (!socket.destroyed) socket.end(!answered && chunked ? '0\r\n\r\n' : '');
					});
				});
			const before = await memory();
			const outcomes = [];
			for (let round = 0; round < 3; round++) {
				outcomes.push(await post(32 * MiB, true));
				outcomes.push(await post(32 * MiB, false));
			}
			const after = await memory();
			report('oversized request', before, after);
			for (const outcome of outcomes) {
				assert.equal(outcome.status, 413, outcome.text.slice(0, 300));
				assert.match(outcome.text, /x-multiposting-proxy: tooLarge/i);
				assert.match(outcome.text, /Multiposting Workbench proxy: /);
			}
			assert.equal(reached, 0, 'nothing was sent upstream');
			assert.ok(after.peakRss - before.peakRss < 64 * MiB, 'peak resident size grew by less than 64 MiB');
			assert.ok(after.retained - before.retained < 2 * MiB, 'retained memory grew by less than 2 MiB');
		});
	});
}
