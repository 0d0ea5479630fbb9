/**
 * A peer server under load, in its own process so that the load generator does not share its event
 * loop (the sandbox itself runs as its CLI, dist/sandbox.js):
 *
 *   node serverChild.js bare          answers canned responses by exact request (the ceiling for Node);
 *                                     `{ type: 'fixed', file, contentType }` makes it answer every request
 *                                     with that file's bytes (the client benchmark)
 *   node serverChild.js node-soap <results JSON file>   node-soap from the WSDL, fixed results
 *   node serverChild.js forward <upstream URL>   a bare node:http forwarder to the upstream (keep-alive
 *                                     agent, bodies piped, hop-by-hop headers dropped): the ceiling for a
 *                                     proxy written on Node (the proxy benchmark)
 *
 * Sends `{ type: 'ready', url }` to the parent once listening; `{ type: 'canned', entries }` replaces
 * the bare server's table (answered by `{ type: 'canned-set' }`); `{ type: 'stop' }` ends it.
 */
import { readFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as soap from 'soap';
import { generateWsdl } from '../src/protocol/wsdl';

/** One canned exchange: the exact request and the bytes to answer it with. */
export interface CannedEntry {
	method: string;
	/** Path and query, as sent. */
	url: string;
	/** The request body as text ('' for GET). */
	body: string;
	status: number;
	contentType: string;
	/** The response body, base64. */
	response: string;
}

export const BENCH_NAMESPACE = 'https://api.example.com/';
export const POSTING_PATH = '/SOAP/Posting.asmx';

function readBody(request: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () =>
			resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')),
		);
		request.on('error', reject);
	});
}

async function main(): Promise<void> {
	const kind = process.argv[2];
	// Connections stay open between the benchmark's rounds (Node's default closes them after 5 s idle).
	const server = createServer({ keepAliveTimeout: 120_000 });
	let table = new Map<string, { status: number; headers: Record<string, string | number>; body: Buffer }>();
	let fixedAnswer: { headers: Record<string, string | number>; body: Buffer } | undefined;
	if (kind === 'bare') {
		server.on('request', (request, response) => {
			void readBody(request).then((body) => {
				if (fixedAnswer) {
					response.writeHead(200, fixedAnswer.headers).end(fixedAnswer.body);
					return;
				}
				const canned = table.get(`${request.method} ${request.url}\n${body}`);
				if (!canned) {
					response.writeHead(404, { 'content-type': 'text/plain' }).end('no canned response');
					return;
				}
				response.writeHead(canned.status, canned.headers).end(canned.body);
			});
		});
	} else if (kind === 'forward') {
		const upstream = new URL(process.argv[3]);
		const agent = new Agent({ keepAlive: true, maxSockets: 64 });
		const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'te', 'upgrade'];
		const endToEnd = (headers: IncomingMessage['headers']): IncomingMessage['headers'] => {
			const kept = { ...headers };
			for (const name of HOP_BY_HOP) delete kept[name];
			return kept;
		};
		server.on('request', (request, response) => {
			const outgoing = httpRequest(
				{
					host: upstream.hostname,
					port: upstream.port,
					method: request.method,
					path: request.url,
					headers: { ...endToEnd(request.headers), host: upstream.host },
					agent,
				},
				(answer) => {
					response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
					answer.pipe(response);
				},
			);
			outgoing.on('error', () => {
				if (response.headersSent) response.destroy();
				else response.writeHead(502, { 'content-type': 'text/plain' }).end('upstream failed');
			});
			request.pipe(outgoing);
		});
	} else if (kind !== 'node-soap') {
		throw new Error(`unknown server kind ${kind}`);
	}
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	if (kind === 'node-soap') {
		const fixed = JSON.parse(readFileSync(process.argv[3], 'utf8')) as Record<
			string,
			{ result: unknown; withDocuments?: unknown }
		>;
		// Every operation answers its fixed result: node-soap does only the XML work.
		const handlers: Record<string, (args: Record<string, unknown>) => unknown> = {};
		for (const [operation, { result, withDocuments }] of Object.entries(fixed)) {
			handlers[operation] = (args) =>
				withDocuments !== undefined && String(args.boolIncludeEmailBody) === 'true' ? withDocuments : result;
		}
		const wsdl = generateWsdl('posting', {
			namespace: BENCH_NAMESPACE,
			location: `http://127.0.0.1:${port}${POSTING_PATH}`,
		});
		const soapServer = soap.listen(
			server,
			POSTING_PATH,
			{ Posting: { PostingSoap: handlers, PostingSoap12: handlers } },
			wsdl,
		);
		soapServer.log = () => undefined;
	}
	process.on('message', (message: { type: string; entries?: CannedEntry[]; file?: string; contentType?: string }) => {
		if (message.type === 'fixed') {
			const body = readFileSync(message.file ?? '');
			fixedAnswer = {
				headers: { 'content-type': message.contentType ?? 'text/xml', 'content-length': body.length },
				body,
			};
			process.send?.({ type: 'canned-set' });
		}
		if (message.type === 'canned') {
			fixedAnswer = undefined;
			table = new Map(
				(message.entries ?? []).map((entry) => {
					const body = Buffer.from(entry.response, 'base64');
					return [
						`${entry.method} ${entry.url}\n${entry.body}`,
						{
							status: entry.status,
							headers: { 'content-type': entry.contentType, 'content-length': body.length },
							body,
						},
					];
				}),
			);
			process.send?.({ type: 'canned-set' });
		}
		if (message.type === 'stop') {
			server.closeAllConnections();
			server.close(() => process.exit(0));
		}
	});
	process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
}

// Imported by bench/server.ts for its types and constants: runs only as the child process.
if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
