/**
 * Group commit through the HTTP pipeline: write requests read in the same turn of the event loop are
 * committed as one batch, each answered with its own result (a failing one with its own fault), and
 * only after the batch committed.
 */
import * as assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { RunningEmulator } from '../../../src/emulator';
import { getBinding } from '../../../src/protocol/bindings';
import { DEFAULT_ENDPOINT_PATHS, type AnyParams } from '../../../src/protocol/catalogue';
import { clientFor, SANDBOX_START_TIMEOUT_MS, startSandbox } from '../../integration/support';

const SOAP = getBinding('soap11');

/** An AddAdvertCandidateNote call as the bytes of one HTTP/1.1 request. */
function noteRequest(emulator: RunningEmulator, params: AnyParams): Buffer {
	const encoded = SOAP.encodeRequest('AddAdvertCandidateNote', params, {
		namespace: emulator.namespace,
		endpointPath: DEFAULT_ENDPOINT_PATHS.posting,
	});
	const body = Buffer.from(encoded.body);
	const headers = Object.entries(encoded.headers).map(([name, value]) => `${name}: ${value}\r\n`);
	const head = `POST ${encoded.path} HTTP/1.1\r\nhost: ${new URL(emulator.baseUrl).host}\r\n${headers.join('')}content-length: ${body.length}\r\n\r\n`;
	return Buffer.concat([Buffer.from(head), body]);
}

/** The next HTTP response on a socket (Content-Length framing, as the sandbox answers). */
function response(socket: Socket): Promise<{ status: number; body: Uint8Array }> {
	return new Promise((resolve, reject) => {
		let received = Buffer.alloc(0);
		const onData = (chunk: Buffer): void => {
			received = Buffer.concat([received, chunk]);
			const end = received.indexOf('\r\n\r\n');
			if (end < 0) return;
			const head = received.subarray(0, end).toString();
			const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
			if (received.length < end + 4 + length) return;
			socket.off('data', onData);
			resolve({ status: Number(head.split(' ')[1]), body: received.subarray(end + 4, end + 4 + length) });
		};
		socket.on('data', onData);
		socket.once('error', reject);
	});
}

describe('emulator: group commit of writes read together', function () {
	this.timeout(SANDBOX_START_TIMEOUT_MS);
	let emulator: RunningEmulator;
	const sockets: Socket[] = [];

	before(async () => {
		emulator = await startSandbox({ size: 'small', passwordCost: 1024 });
	});
	after(async () => {
		for (const socket of sockets) socket.destroy();
		await emulator.stop();
	});

	it('commits 16 notes sent at once in one batch, and answers the one that fails with its own fault', async () => {
		const page = await clientFor(emulator).getApplicationsPaged({
			sApplicationStartDateTime: '2000-01-01T00:00:00',
			CurrentPage: 1,
			RowsPerPage: 15,
		});
		const targets = page.Applications!.map((application) => ({
			sAdvertID: String(application.AdvertID),
			sAdvertCandidateID: String(application.AdvertCandidateID),
		}));
		assert.equal(targets.length, 15);
		// The 16th names an application that does not exist.
		targets.splice(7, 0, { sAdvertID: targets[0].sAdvertID, sAdvertCandidateID: '987654321' });
		const login = {
			sAPIKey: emulator.demo.apiKey,
			sUsername: emulator.demo.username,
			sPassword: emulator.demo.password,
		};
		for (let i = 0; i < targets.length; i++) {
			const socket = connect(Number(new URL(emulator.baseUrl).port), '127.0.0.1');
			await new Promise((resolve) => socket.once('connect', resolve));
			sockets.push(socket);
		}
		const before = emulator.groupCommitStats()!;
		const answers = sockets.map((socket) => response(socket));
		targets.forEach((target, i) =>
			sockets[i].write(noteRequest(emulator, { ...login, ...target, sSubject: 'group', sBody: `note ${i}` })),
		);
		// The event loop is held while every request reaches the sandbox's sockets: one turn reads them all.
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
		const decoded = (await Promise.all(answers)).map(({ status, body }) =>
			SOAP.decodeResponse(
				'AddAdvertCandidateNote',
				{ status, headers: { 'content-type': 'text/xml; charset=utf-8' }, body },
				{ namespace: emulator.namespace, endpointPath: DEFAULT_ENDPOINT_PATHS.posting },
			),
		);
		const after = emulator.groupCommitStats()!;
		assert.deepEqual(
			{ batches: after.batches - before.batches, grouped: after.grouped - before.grouped },
			{ batches: 1, grouped: 16 },
		);
		const failed = decoded.filter((answer) => !answer.ok);
		assert.equal(failed.length, 1);
		assert.equal(decoded[7].ok, false);
		const ids = decoded.flatMap((answer) =>
			answer.ok ? [(answer.result as { AdvertCandidateNoteID: number }).AdvertCandidateNoteID] : [],
		);
		assert.equal(new Set(ids).size, 15, 'fifteen notes, each its own');
		// The next write sees them committed: its note comes after all of them.
		const next = await clientFor(emulator).addAdvertCandidateNote({ ...targets[0], sBody: 'after the batch' });
		assert.equal(next.AdvertCandidateNoteID, Math.max(...ids) + 1);
	});
});
