/**
 * The sandbox's memory per request follows the bytes of the body, not the pieces it arrives in. A
 * sandbox in a child process is sent bodies in chunked encoding of a byte (or 16 bytes) per chunk;
 * its peak resident size and its retained memory are read before and after. Memory is asserted; no
 * time is.
 */
import * as assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { ChildMemory } from './bodyMemoryChild';

const MiB = 1024 * 1024;

/** What came back for one request sent in chunks. */
interface ChunkedOutcome {
	status: number;
	body: string;
}

/**
 * POSTs a SOAP 1.1 request whose body is `chunks` chunks of `chunkBytes` bytes each, written as fast
 * as the socket takes them, until the sandbox answers or closes the connection.
 */
function sendChunked(port: number, path: string, chunks: number, chunkBytes: number): Promise<ChunkedOutcome> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1');
		let received = '';
		let answered = false;
		const piece = `${chunkBytes.toString(16)}\r\n${'x'.repeat(chunkBytes)}\r\n`;
		const batch = piece.repeat(Math.max(1, Math.floor((64 * 1024) / piece.length)));
		const perBatch = batch.length / piece.length;
		const finish = (): void => {
			const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]);
			if (Number.isNaN(status)) reject(new Error(`no answer: ${received.slice(0, 200)}`));
			else resolve({ status, body: received.slice(received.indexOf('\r\n\r\n') + 4) });
		};
		socket.on('data', (data: Buffer) => {
			received += data.toString('latin1');
			answered = true;
		});
		// Writes fail once the sandbox has closed the connection after its answer.
		socket.on('error', () => undefined);
		socket.on('close', finish);
		socket.on('connect', async () => {
			socket.write(
				`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/xml; charset=utf-8\r\n` +
					'SOAPAction: "http://tempuri.org/GetCurrency"\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n',
			);
			for (let sent = 0; sent < chunks && !answered && !socket.destroyed; sent += perBatch) {
				const count = Math.min(perBatch, chunks - sent);
				const ok = socket.write(count === perBatch ? batch : piece.repeat(count));
				if (!ok) await new Promise((drained) => socket.once('drain', drained).once('close', drained));
			}
			if (!answered && !socket.destroyed) socket.write('0\r\n\r\n');
		});
	});
}

function report(before: ChildMemory, after: ChildMemory): void {
	console.log(
		`      peak rss ${(before.peakRss / MiB).toFixed(0)} → ${(after.peakRss / MiB).toFixed(0)} MiB, ` +
			`retained ${(before.retained / MiB).toFixed(1)} → ${(after.retained / MiB).toFixed(1)} MiB`,
	);
}

describe('hardening: request body memory whatever the chunking', function () {
	this.timeout(180_000);
	let child: ChildProcess;
	let port: number;
	let path: string;

	const memory = (): Promise<ChildMemory> =>
		new Promise((resolve) => {
			child.once('message', (message) => resolve(message as ChildMemory));
			child.send('memory');
		});

	before(async function () {
		this.timeout(60_000);
		child = fork(join(__dirname, 'bodyMemoryChild.js'), [], { execArgv: ['--expose-gc'], stdio: 'inherit' });
		const ready = await new Promise<{ port: string; path: string }>((resolve) =>
			child.once('message', (message) => resolve(message as { port: string; path: string })),
		);
		port = Number(ready.port);
		path = ready.path;
	});

	after(() => {
		child?.send('stop');
	});

	it('refuses a 1 MB body sent as 1,000,000 one-byte chunks, three times, with its memory bounded', async () => {
		const before = await memory();
		const outcomes: ChunkedOutcome[] = [];
		for (let round = 0; round < 3; round++) outcomes.push(await sendChunked(port, path, 1_000_000, 1));
		const after = await memory();
		report(before, after);
		assert.ok(after.peakRss - before.peakRss < 64 * MiB, 'peak resident size grew by less than 64 MiB');
		assert.ok(
			after.retained - before.retained < 2 * MiB,
			'retained memory grew by less than 2 MiB (three bodies kept would be 2.9)',
		);
		for (const outcome of outcomes) {
			assert.equal(outcome.status, 400, outcome.body.slice(0, 300));
			assert.match(
				outcome.body,
				/arrived in \d+ pieces for \d+ bytes .*send it with a Content-Length or in larger chunks/,
			);
		}
	});

	it('reads four 3.8 MB bodies in 16-byte chunks at once with memory of the order of their bytes', async () => {
		const before = await memory();
		const outcomes = await Promise.all(Array.from({ length: 4 }, () => sendChunked(port, path, 240_000, 16)));
		const after = await memory();
		report(before, after);
		// 4 × 3.8 MB of bodies, each held in a buffer of at most twice its bytes, and decoded once.
		assert.ok(after.peakRss - before.peakRss < 128 * MiB, 'peak resident size grew by less than 128 MiB');
		assert.ok(
			after.retained - before.retained < 3 * MiB,
			'retained memory grew by less than 3 MiB (one body kept would be 3.7)',
		);
		for (const outcome of outcomes) {
			// Read to the end (under the 4 MiB cap, in pieces large enough), then refused as not XML.
			assert.equal(outcome.status, 400, outcome.body.slice(0, 300));
			assert.match(outcome.body, /not well-formed XML/);
		}
	});

	it('still answers a request whose body arrives whole', async () => {
		const outcome = await sendChunked(port, path, 1, 1);
		assert.equal(outcome.status, 400);
		assert.match(outcome.body, /not well-formed XML/);
	});

	describe("the client's response reader (typed client, playground, request-file runner)", () => {
		let server: Server;
		let reader: ChildProcess;
		const sockets = new Set<Socket>();

		/** Answers any request with a body of 1,000,000 one-byte chunks. */
		const answerInTinyChunks = (socket: Socket): void => {
			sockets.add(socket);
			socket.on('error', () => undefined);
			socket.once('data', async () => {
				socket.write(
					'HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
				);
				const batch = '1\r\nx\r\n'.repeat(10_000);
				for (let sent = 0; sent < 1_000_000 && !socket.destroyed; sent += 10_000) {
					if (!socket.write(batch)) {
						await new Promise((drained) => socket.once('drain', drained).once('close', drained));
					}
				}
				socket.end('0\r\n\r\n');
			});
		};

		const ask = <T>(message: string): Promise<T> =>
			new Promise((resolve) => {
				reader.once('message', (answer) => resolve(answer as T));
				reader.send(message);
			});

		before(async () => {
			server = createServer(answerInTinyChunks);
			await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
			const { port: serverPort } = server.address() as { port: number };
			reader = fork(join(__dirname, 'bodyMemoryChild.js'), ['client', `http://127.0.0.1:${serverPort}/`], {
				execArgv: ['--expose-gc'],
				stdio: 'inherit',
			});
			await new Promise((ready) => reader.once('message', ready));
		});

		after(async () => {
			reader?.send('stop');
			for (const socket of sockets) socket.destroy();
			await new Promise((closed) => server?.close(closed));
		});

		it('reads a 1 MB response sent as 1,000,000 one-byte chunks, three times, with its memory bounded', async () => {
			// A first read loads undici's parser (WebAssembly), which stays.
			await ask('read');
			const before = await ask<ChildMemory>('memory');
			const reads: { bytes?: number; failure?: string }[] = [];
			for (let round = 0; round < 3; round++) reads.push(await ask('read'));
			const after = await ask<ChildMemory>('memory');
			report(before, after);
			assert.ok(after.peakRss - before.peakRss < 64 * MiB, 'peak resident size grew by less than 64 MiB');
			assert.ok(
				after.retained - before.retained < 2 * MiB,
				'retained memory grew by less than 2 MiB (the three bodies kept would be 2.9)',
			);
			// Whole bodies, without a failure (IPC leaves undefined out).
			assert.deepEqual(reads, Array(3).fill({ bytes: 1_000_000 }));
		});
	});
});
