/** Test helpers: a scriptable HTTP server on 127.0.0.1:0 and sample results built from the catalogue. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getBinding } from '../../src/protocol/bindings/index';
import type { BindingName, CodecContext } from '../../src/protocol/bindings/types';
import {
	OPERATIONS,
	RECORDS,
	defaultNamespace,
	DEFAULT_ENDPOINT_PATHS,
	type FieldType,
	type OperationName,
} from '../../src/protocol/catalogue';

/** A request as the server read it. */
export interface RecordedRequest {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: Buffer;
}

export type Handler = (request: RecordedRequest, response: http.ServerResponse) => void;

/** An in-process server whose answer each test scripts through `handler`. */
export class ScriptedServer {
	readonly requests: RecordedRequest[] = [];
	handler: Handler = (_request, response) => {
		response.writeHead(599).end();
	};

	private constructor(
		private readonly server: http.Server,
		readonly baseUrl: string,
	) {}

	static async start(): Promise<ScriptedServer> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		const scripted = new ScriptedServer(server, `http://127.0.0.1:${port}`);
		server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			request.on('end', () => {
				const recorded = {
					method: request.method ?? '',
					url: request.url ?? '',
					headers: request.headers,
					body: Buffer.concat(chunks),
				};
				scripted.requests.push(recorded);
				scripted.handler(recorded, response);
			});
		});
		return scripted;
	}

	/** Answers every request with these bytes. */
	answer(status: number, headers: Record<string, string>, body: Uint8Array | string): void {
		this.handler = (_request, response) => {
			response.writeHead(status, headers).end(typeof body === 'string' ? body : Buffer.from(body));
		};
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

/** The codec context a client with default options uses against this base URL. */
export function contextFor(baseUrl: string, operation: OperationName): CodecContext {
	return {
		namespace: defaultNamespace(baseUrl),
		endpointPath: DEFAULT_ENDPOINT_PATHS[OPERATIONS[operation].endpoint],
	};
}

/** Makes the server answer with `result` encoded by the binding, as a service would. */
export function answerWithResult(
	server: ScriptedServer,
	binding: BindingName,
	operation: OperationName,
	result: unknown,
): void {
	const encoded = getBinding(binding).encodeResponse(operation, result, contextFor(server.baseUrl, operation));
	server.answer(encoded.status, encoded.headers, encoded.body);
}

/** A record filled with a value for each field (nested records and lists down to `depth`). */
export function sampleRecord(recordName: string, depth = 2): Record<string, unknown> {
	const record: Record<string, unknown> = {};
	for (const field of (RECORDS as Record<string, { fields: readonly { name: string; type: FieldType }[] }>)[
		recordName
	].fields) {
		const value = sampleValue(field.name, field.type, depth);
		if (value !== undefined) {
			record[field.name] = value;
		}
	}
	return record;
}

function sampleValue(name: string, type: FieldType, depth: number): unknown {
	if (typeof type === 'string') {
		switch (type) {
			case 'string':
				return `${name} <&> é`;
			case 'int':
				return 42;
			case 'short':
				return 7;
			case 'unsignedByte':
				return 3;
			case 'decimal':
				return '12.5';
			case 'boolean':
				return true;
			case 'dateTime':
				return '2024-05-06T07:08:09Z';
			case 'base64Binary':
				return new Uint8Array([1, 2, 3, 250]);
		}
	}
	if (depth <= 0) {
		return undefined;
	}
	if ('record' in type) {
		return sampleRecord(type.record, depth - 1);
	}
	if ('list' in type) {
		return [sampleRecord(type.list, depth - 1), sampleRecord(type.list, depth - 1)];
	}
	return type.scalarList === 'int' ? [1, 2] : ['one', 'two'];
}

/** A sample result of an operation: one record, or a list of two. */
export function sampleResult(operation: OperationName): unknown {
	const result = OPERATIONS[operation].result;
	return result.kind === 'list'
		? [sampleRecord(result.record), sampleRecord(result.record)]
		: sampleRecord(result.record);
}

/** Fails the current test when a promise rejection goes unhandled while it runs. */
export function guardUnhandledRejections(): void {
	let unhandled: unknown[] = [];
	const listener = (reason: unknown): void => {
		unhandled.push(reason);
	};
	beforeEach(() => {
		unhandled = [];
		process.on('unhandledRejection', listener);
	});
	afterEach(async () => {
		// Give rejections from the test's last microtasks a turn to surface.
		await new Promise((resolve) => setImmediate(resolve));
		process.off('unhandledRejection', listener);
		if (unhandled.length > 0) {
			throw new Error(`Unhandled rejection during the test: ${String(unhandled[0])}`);
		}
	});
}
