/**
 * Slow readers: sixty connections that ask for a 6 MB page and never read it must neither pin the
 * memory of sixty answers nor make the sandbox unresponsive; a health check (GetCurrency) keeps being
 * answered while it happens. The page comes from an injected handler, so the test measures the
 * server's limits, not SQLite. Figures are printed, never asserted as times.
 */
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { DEFAULT_ENDPOINT_PATHS } from '../../src/protocol/catalogue';
import { API_KEY, fakeHandlers } from '../emulator/server/helpers';
import { delay } from '../integration/support';
import { asmxQuery } from '../emulator/web/helpers';

const ATTACKERS = 60;
const ROWS = 500;
const MAX_HEAVY = 4;
const BUDGET = 16 * 1024 * 1024;

/** A page of ROWS applications of about 12 KB each: about 6 MB of XML. */
function bigPage(): unknown {
	const filler = 'Curriculum vitae, experience and education. '.repeat(270);
	const applications = Array.from({ length: ROWS }, (_, i) => ({
		AdvertCandidateID: i + 1,
		AdvertID: 1,
		CandidateID: i + 1,
		PostingID: 1,
		FeedID: 108,
		ApplicationDate: '2025-01-01T00:00:00Z',
		Viewed: false,
		Score: 0,
		ProgressID: 1,
		UserID: 1,
		OrganisationID: 1,
		Archived: false,
		Favourite: false,
		LastName: `Candidate ${i}`,
		EmailBody: { DocumentType: 'EmailBody', Document: filler },
	}));
	return { PageCount: 1, PageIndex: 1, TotalItemCount: ROWS, Applications: applications };
}

function pageTarget(): string {
	const query = asmxQuery('GetApplicationsPaged', {
		sAPIKey: API_KEY,
		sApplicationStartDateTime: '2020-01-01T00:00:00',
		CurrentPage: '1',
		RowsPerPage: String(ROWS),
	});
	return `${DEFAULT_ENDPOINT_PATHS.posting}/GetApplicationsPaged?${query}`;
}

/** Asks for the page and never reads: the socket stays paused, so the kernel buffers fill up and stay full. */
function stalledReader(port: number): Promise<{ socket: Socket }> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1', () => {
			socket.write(`GET ${pageTarget()} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
			socket.pause();
			resolve({ socket });
		});
		socket.once('error', reject);
	});
}

/** One GetCurrency over HTTP GET; resolves with its status and time, rejects after `limitMs` (a hang). */
function healthCheck(port: number, limitMs: number): Promise<{ status: number; ms: number }> {
	const started = performance.now();
	const query = asmxQuery('GetCurrency', { sAPIKey: API_KEY });
	return new Promise((resolve, reject) => {
		const req = request(
			{ host: '127.0.0.1', port, path: `${DEFAULT_ENDPOINT_PATHS.posting}/GetCurrency?${query}`, agent: false },
			(res) => {
				res.resume();
				res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
			},
		);
		req.setTimeout(limitMs, () => req.destroy(new Error(`no answer within ${limitMs} ms`)));
		req.on('error', reject);
		req.end();
	});
}

describe('hardening: slow readers', function () {
	this.timeout(180_000);
	let emulator: RunningEmulator;
	let port: number;
	const page = bigPage();

	before(async () => {
		const handlers = fakeHandlers();
		handlers.GetApplicationsPaged = () => page as never;
		emulator = await startEmulator({
			handlers,
			limits: {
				maxHeavyRequests: MAX_HEAVY,
				maxHeldResponseBytes: BUDGET,
				minResponseBytesPerSecond: 64 * 1024,
				writeGraceMs: 2_000,
			},
		});
		port = Number(new URL(emulator.baseUrl).port);
	});
	after(() => emulator?.stop());

	it('closes sixty stalled readers of a 6 MB page, bounds the memory they hold and keeps answering health checks', async () => {
		// The size of one answer, read normally.
		const one = await fetch(`${emulator.baseUrl}${pageTarget()}`);
		const answerBytes = (await one.arrayBuffer()).byteLength;
		assert.equal(one.status, 200);
		assert.ok(answerBytes > 5_000_000, `a page of about 6 MB, got ${answerBytes} bytes`);

		const rssBefore = process.memoryUsage().rss;
		// The server's side of each connection (by the client's port): a paused client never notices the close itself.
		const serverSide = new Map<number, Promise<void>>();
		const onConnection = (socket: Socket): void => {
			serverSide.set(socket.remotePort!, new Promise((resolve) => socket.once('close', () => resolve())));
		};
		emulator.server.on('connection', onConnection);
		const readers = await Promise.all(Array.from({ length: ATTACKERS }, () => stalledReader(port)));
		const ports = readers.map((r) => r.socket.localPort!);
		for (let i = 0; i < 100 && !ports.every((p) => serverSide.has(p)); i++) await delay(50);
		emulator.server.off('connection', onConnection);
		const attackSockets = ports.map((p) => serverSide.get(p)).filter((p) => p !== undefined);
		let finished = false;
		void Promise.all(attackSockets).then(() => (finished = true));

		// Health checks every 100 ms while the readers are stalled (bounded: at most 150 s).
		const checks: { status: number; ms: number }[] = [];
		let peakRss = rssBefore;
		const stopAt = Date.now() + 150_000;
		while (!finished && Date.now() < stopAt) {
			checks.push(await healthCheck(port, 10_000));
			peakRss = Math.max(peakRss, process.memoryUsage().rss);
			await delay(100);
		}
		assert.equal(attackSockets.length, ATTACKERS);
		assert.ok(finished, 'every stalled reader was closed by the server');
		for (const r of readers) r.socket.destroy();

		const stats = emulator.resources();
		const sorted = checks.map((c) => c.ms).sort((a, b) => a - b);
		console.log(
			`      ${ATTACKERS} stalled readers of ${(answerBytes / 1e6).toFixed(1)} MB: ${stats.slowReadersClosed} closed for reading too slowly, ` +
				`peak held ${(stats.peakHeldBytes / 1e6).toFixed(1)} MB (budget ${BUDGET / 1e6} MB), rss +${((peakRss - rssBefore) / 1e6).toFixed(0)} MB; ` +
				`${checks.length} health checks, p50 ${sorted[sorted.length >> 1]?.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms`,
		);
		assert.ok(checks.length > 0 && checks.every((c) => c.status === 200), 'every health check answered 200');
		// Never more held than the budget plus what the admitted heavy queries made before seeing it.
		assert.ok(
			stats.peakHeldBytes <= BUDGET + MAX_HEAVY * answerBytes,
			`peak held ${stats.peakHeldBytes} bytes exceeds ${BUDGET} + ${MAX_HEAVY} answers`,
		);
		assert.ok(stats.slowReadersClosed >= 1, 'stalled answers were cut by the write deadline');
		assert.equal(stats.heldBytes, 0, 'nothing is held once they are gone');
		assert.equal(stats.heavyActive, 0);
		assert.equal(stats.heavyQueued, 0);
	});

	it('delivers a large page intact to a reader that is slow but above the minimum rate', async () => {
		const handlers = fakeHandlers();
		handlers.GetApplicationsPaged = () => page as never;
		// The default write deadline (10 s a chunk): the kernel hands the reader's progress over in bursts.
		const patient = await startEmulator({ handlers });
		const patientPort = Number(new URL(patient.baseUrl).port);
		try {
			const fast = Buffer.from(await (await fetch(`${patient.baseUrl}${pageTarget()}`)).arrayBuffer());
			const socket = connect(patientPort, '127.0.0.1');
			await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
			socket.write(`GET ${pageTarget()} HTTP/1.1\r\nHost: 127.0.0.1:${patientPort}\r\nConnection: close\r\n\r\n`);
			// Read about 512 KiB a second: slow, but far above the minimum rate.
			const chunks: Buffer[] = [];
			let thisSecond = 0;
			const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
			socket.on('data', (chunk: Buffer) => {
				chunks.push(chunk);
				thisSecond += chunk.length;
				if (thisSecond >= 512 * 1024) socket.pause();
			});
			const pacer = setInterval(() => {
				thisSecond = 0;
				socket.resume();
			}, 1_000);
			try {
				await Promise.race([closed, delay(60_000)]);
			} finally {
				clearInterval(pacer);
				socket.destroy();
			}
			const raw = Buffer.concat(chunks);
			const body = raw.subarray(raw.indexOf('\r\n\r\n') + 4);
			assert.ok(raw.subarray(0, 15).toString().startsWith('HTTP/1.1 200'), raw.subarray(0, 100).toString());
			assert.equal(body.length, fast.length);
			assert.ok(body.equals(fast), 'the same bytes as a fast reader got');
			assert.equal(patient.resources().slowReadersClosed, 0);
		} finally {
			await patient.stop();
		}
	});

	it('refuses heavy queries beyond the queue with 503 ServerBusy while light calls still pass', async () => {
		const handlers = fakeHandlers();
		handlers.GetApplicationsPaged = () => page as never;
		const small = await startEmulator({
			handlers,
			limits: { maxHeavyRequests: 1, maxQueuedHeavyRequests: 2, writeGraceMs: 2_000 },
		});
		const smallPort = Number(new URL(small.baseUrl).port);
		try {
			// One stalls in flight, two wait: the fourth is refused at once.
			const readers = [];
			for (let i = 0; i < 3; i++) {
				readers.push(await stalledReader(smallPort));
				await delay(100);
			}
			const refused = await fetch(`${small.baseUrl}${pageTarget()}`);
			assert.equal(refused.status, 503);
			assert.match(await refused.text(), /busy with other large queries/);
			assert.equal((await healthCheck(smallPort, 10_000)).status, 200);
			assert.equal(small.resources().refusedBusy, 1);
			for (const r of readers) r.socket.destroy();
		} finally {
			await small.stop();
		}
	});
});
