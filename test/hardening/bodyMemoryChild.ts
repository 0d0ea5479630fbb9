/**
 * A child process for test/hardening/bodyMemory.test.ts whose memory the test reads between attacks.
 * Started with --expose-gc through fork(). As a sandbox (small, in memory; no argument) it sends
 * { port, path } once it listens. With the argument 'client <url>' it reads that URL's response with
 * the client's transport and sends { bytes, failure }. Both answer 'memory' with their memory after a
 * full collection and their peak resident size.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { sendRequest } from '../../src/client/transport';
import { startSandbox } from '../integration/support';

export interface ChildMemory {
	/** V8 heap in use plus memory outside it (buffers), after a full collection, in bytes. */
	retained: number;
	/** Peak resident set size of the process so far, in bytes. */
	peakRss: number;
}

/**
 * V8 frees the memory of dead buffers after a collection, concurrently, not during it: measured right
 * after one collection, up to 20 MiB of buffers already dead still counted (seen in CI and by hand). So:
 * collect, let the release finish, collect again.
 */
async function answerMemory(): Promise<void> {
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
}

async function readAsClient(url: string): Promise<void> {
	process.on('message', (message) => {
		if (message === 'memory') void answerMemory();
		else if (message === 'read') {
			void sendRequest(
				{ method: 'GET', url, headers: {}, body: new Uint8Array(0) },
				{
					timeoutMs: 60_000,
					maxBodyBytes: 4 * 1024 * 1024,
				},
			).then((result) =>
				process.send!({ bytes: result.response?.body.byteLength, failure: result.failure?.kind }),
			);
		} else if (message === 'stop') process.exit(0);
	});
	process.send!({ ready: true });
}

async function main(): Promise<void> {
	if (process.argv[2] === 'client') return readAsClient(process.argv[3]);
	const emulator = await startSandbox({ size: 'small', passwordCost: 1024 });
	process.on('message', (message) => {
		if (message === 'memory') {
			void answerMemory();
		} else if (message === 'stop') {
			void emulator.stop().then(() => process.exit(0));
		}
	});
	process.send!({ port: new URL(emulator.postingUrl).port, path: new URL(emulator.postingUrl).pathname });
}

void main();
