/** Per-server settings and per-request state shared by the pipeline steps. */
import type { BindingName } from '../../protocol/bindings/types';
import type { Endpoint, OperationName } from '../../protocol/catalogue';
import type { OperationHandlers } from '../domain/handlers';

/** One line of the access log. Never carries parameters (they hold credentials). */
export interface AccessLogEntry {
	time: Date;
	method: string;
	/** Path without the query string. */
	path: string;
	binding?: BindingName;
	operation?: OperationName;
	status: number;
	durationMs: number;
	/** The real error of an internal failure (HTTP 500 Server fault); for the server's own log only. */
	error?: unknown;
}

/** Settings of a running emulator, read by every request. */
export interface PipelineConfig {
	handlers: OperationHandlers;
	/** The XML namespace requests must use. */
	namespace: string;
	/** http://host:port, without a trailing slash. */
	baseUrl: string;
	paths: Readonly<Record<Endpoint, string>>;
	maxRequestBytes: number;
	requestTimeoutMs: number;
	logger?: (entry: AccessLogEntry) => void;
	/** WSDL documents by endpoint, generated once the address is known. */
	wsdl: Readonly<Record<Endpoint, string>>;
}

/** What the pipeline has learnt about a request so far; used for the answer's format and the log. */
export interface RequestState {
	readonly startedAt: number;
	readonly method: string;
	readonly path: string;
	endpoint?: Endpoint;
	binding?: BindingName;
	operation?: OperationName;
	/** The answer has been written (or the connection dropped): later steps must not write again. */
	done: boolean;
	error?: unknown;
}
