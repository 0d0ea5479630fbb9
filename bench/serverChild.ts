/**
 * A server under load, in its own process so that the load generator does not share its event loop:
 * `node serverChild.js emulator` or `node serverChild.js node-soap <fixed results JSON file>`.
 * Sends `{ url, namespace, demo }` to the parent once listening, and `{ rss }` when asked.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as soap from 'soap';
import { startEmulator } from '../src/emulator';
import { generateWsdl } from '../src/protocol/wsdl';

const NODE_SOAP_NAMESPACE = 'https://api.example.com/';
const POSTING_PATH = '/SOAP/Posting.asmx';

async function main(): Promise<void> {
	const kind = process.argv[2];
	let ready: Record<string, unknown>;
	let stop: () => Promise<void>;
	if (kind === 'emulator') {
		const emulator = await startEmulator({ host: '127.0.0.1', port: 0, dataDir: ':memory:', seed: 7 });
		ready = {
			url: emulator.baseUrl,
			postingPath: new URL(emulator.postingUrl).pathname,
			namespace: emulator.namespace,
			demo: emulator.demo,
		};
		stop = () => emulator.stop();
	} else if (kind === 'node-soap') {
		const fixed = JSON.parse(readFileSync(process.argv[3], 'utf8')) as Record<string, unknown>;
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const port = (server.address() as AddressInfo).port;
		const wsdl = generateWsdl('posting', {
			namespace: NODE_SOAP_NAMESPACE,
			location: `http://127.0.0.1:${port}${POSTING_PATH}`,
		});
		// Every operation of every port answers its fixed result: node-soap does only XML work.
		const handlers: Record<string, () => unknown> = {};
		for (const [operation, result] of Object.entries(fixed)) handlers[operation] = () => result;
		const soapServer = soap.listen(
			server,
			POSTING_PATH,
			{ Posting: { PostingSoap: handlers, PostingSoap12: handlers } },
			wsdl,
		);
		soapServer.log = () => undefined;
		ready = { url: `http://127.0.0.1:${port}`, postingPath: POSTING_PATH, namespace: NODE_SOAP_NAMESPACE };
		stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
	} else {
		throw new Error(`unknown server kind ${kind}`);
	}
	process.on('message', (message: { type: string }) => {
		if (message.type === 'rss') process.send?.({ type: 'rss', rss: process.memoryUsage().rss });
		if (message.type === 'stop') {
			void stop().then(() => process.exit(0));
		}
	});
	process.send?.({ type: 'ready', ...ready });
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
