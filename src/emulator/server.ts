/**
 * The emulator's HTTP server: node:http with the request pipeline of ./pipeline, serving both
 * endpoints in the four bindings, their WSDL and ASMX-style service pages.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DEFAULT_ENDPOINT_PATHS, defaultNamespace, type Endpoint } from '../protocol/catalogue';
import { generateWsdl } from '../protocol/wsdl';
import type { OperationHandlers } from './domain/operations';
import type { AccessLogEntry, PipelineConfig } from './pipeline/context';
import { createRequestListener } from './pipeline/listener';
import { openSandbox, type DemoCredentials } from './sandbox';

export type { AccessLogEntry } from './pipeline/context';

/** Default cap of a request body: 4 MiB. */
export const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** Default time budget of one request, body included. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Largest request head accepted (request line plus headers). */
export const MAX_HEADER_BYTES = 16 * 1024;

export interface EmulatorOptions {
	/** Interface to bind; default 127.0.0.1. */
	host?: string;
	/** Port; 0 (default) picks a free one. */
	port?: number;
	/** Folder of the sandbox database, or ':memory:'; default ':memory:'. Ignored with `handlers`. */
	dataDir?: string | ':memory:';
	/** Seed of the generated demo data. */
	seed?: number;
	/** Start from fresh demo data. */
	reset?: boolean;
	/** A fixed XML namespace; default the spec's rule, base URL + '/'. */
	namespace?: string;
	/** Path of the posting endpoint; default DEFAULT_ENDPOINT_PATHS.posting. */
	postingPath?: string;
	/** Largest accepted body in bytes; default 4 MiB. Larger bodies get 413. */
	maxRequestBytes?: number;
	/** Time budget of one request in ms; default 30000. */
	requestTimeoutMs?: number;
	/** Largest RowsPerPage the sandbox accepts (larger is a Client fault); ignored with `handlers`. */
	maxPageSize?: number;
	/** Called once per request; entries never contain parameters. */
	logger?: (entry: AccessLogEntry) => void;
	/** Handlers used instead of opening a sandbox (tests). */
	handlers?: OperationHandlers;
}

export interface RunningEmulator {
	/** http://host:port */
	baseUrl: string;
	postingUrl: string;
	adminUrl: string;
	postingWsdl: string;
	adminWsdl: string;
	namespace: string;
	/** Credentials of the demo account (empty strings when handlers were injected). */
	demo: DemoCredentials;
	server: Server;
	/** Stops listening, closes every connection (keep-alive included) and closes the sandbox. */
	stop(): Promise<void>;
}

/** The host to write into URLs; a wildcard address is reached through loopback. */
function urlHost(address: string): string {
	if (address === '0.0.0.0') return '127.0.0.1';
	if (address === '::') return '[::1]';
	return address.includes(':') ? `[${address}]` : address;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
	return new Promise((resolve, reject) => {
		const onError = (error: Error): void => reject(error);
		server.once('error', onError);
		server.listen(port, host, () => {
			server.off('error', onError);
			resolve(server.address() as AddressInfo);
		});
	});
}

/** Answers malformed HTTP (bad request line, oversized head) without involving the pipeline. */
function onClientError(error: Error & { code?: string }, socket: Socket): void {
	if (socket.writable && !socket.writableEnded) {
		const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
		socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
	}
	socket.destroy();
}

/** Starts the emulator and resolves once it is listening. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
	const host = options.host ?? '127.0.0.1';
	const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
	const paths: Record<Endpoint, string> = { posting: options.postingPath ?? DEFAULT_ENDPOINT_PATHS.posting, administration: DEFAULT_ENDPOINT_PATHS.administration };

	const sandbox = options.handlers ? undefined : openSandbox({ dataDir: options.dataDir ?? ':memory:', seed: options.seed, reset: options.reset, maxPageSize: options.maxPageSize });
	const handlers = options.handlers ?? sandbox!.handlers;
	const demo: DemoCredentials = sandbox?.demo ?? { apiKey: '', username: '', password: '' };
	const close = (): void => sandbox?.close();

	const config: PipelineConfig = {
		handlers,
		namespace: options.namespace ?? '',
		baseUrl: '',
		paths,
		maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
		requestTimeoutMs,
		logger: options.logger,
		wsdl: { posting: '', administration: '' },
	};
	const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, createRequestListener(config));
	// Node's own limits sit just above the pipeline's budget, which answers with a proper fault first.
	server.headersTimeout = requestTimeoutMs;
	server.requestTimeout = requestTimeoutMs + 5_000;
	server.keepAliveTimeout = 5_000;
	server.on('clientError', onClientError);

	let address: AddressInfo;
	try {
		address = await listen(server, options.port ?? 0, host);
	} catch (error) {
		close();
		throw error;
	}
	const baseUrl = `http://${urlHost(address.address)}:${address.port}`;
	config.baseUrl = baseUrl;
	config.namespace = options.namespace ?? defaultNamespace(baseUrl);
	config.wsdl = {
		posting: generateWsdl('posting', { namespace: config.namespace, location: baseUrl + paths.posting }),
		administration: generateWsdl('administration', { namespace: config.namespace, location: baseUrl + paths.administration }),
	};

	let stopping: Promise<void> | undefined;
	const stop = (): Promise<void> => {
		stopping ??= new Promise<void>((resolve) => {
			server.close(() => {
				close();
				resolve();
			});
			server.closeAllConnections();
		});
		return stopping;
	};

	return {
		baseUrl,
		postingUrl: baseUrl + paths.posting,
		adminUrl: baseUrl + paths.administration,
		postingWsdl: `${baseUrl}${paths.posting}?WSDL`,
		adminWsdl: `${baseUrl}${paths.administration}?WSDL`,
		namespace: config.namespace,
		demo,
		server,
		stop,
	};
}
