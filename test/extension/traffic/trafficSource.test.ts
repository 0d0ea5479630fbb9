import * as assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TrafficSource } from '../../../src/extension/traffic/trafficSource';

/** A control endpoint with an empty journal: answers the first poll, holds the next ones (long polls). */
function emptyJournal(): Promise<{ server: Server; baseUrl: string; polls: string[]; held: ServerResponse[] }> {
	const polls: string[] = [];
	const held: ServerResponse[] = [];
	const server = createServer((req, res) => {
		polls.push(req.url ?? '');
		if (polls.length > 1) {
			held.push(res);
			return;
		}
		res.setHeader('content-type', 'application/json');
		res.end(JSON.stringify({ requests: [], meta: { kept: 0, lastId: 0, capacity: 500 } }));
	});
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			resolve({ server, baseUrl: `http://127.0.0.1:${port}`, polls, held });
		}),
	);
}

describe('traffic source (long polls of the control endpoint)', () => {
	it('waits for news once it has read an empty journal instead of asking again at once', async () => {
		const { server, baseUrl, polls, held } = await emptyJournal();
		const errors: (string | undefined)[] = [];
		const source = new TrafficSource(
			baseUrl,
			() => undefined,
			(message) => errors.push(message),
		);
		try {
			source.start();
			while (polls.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
			assert.match(polls[0], /[?&]after=0&wait=0&/);
			assert.match(polls[1], /[?&]after=0&wait=20&/);
			assert.deepEqual(errors, [undefined]);
		} finally {
			source.stop();
			for (const res of held) res.destroy();
			await new Promise((resolve) => server.close(resolve));
		}
	});
});
