/** The journal's records: what the pipeline hands over, and what is kept (redacted) and served. */
import type { IncomingHttpHeaders } from 'node:http';
import type { BindingName } from '../../protocol/bindings/types';
import type { AnyParams, Endpoint, OperationName } from '../../protocol/catalogue';
import type { Fault } from '../../protocol/faults';

/**
 * One exchange as the pipeline saw it: references only (the bodies are the buffers that were read and
 * sent), taken when the answer is finished. Held until the journal redacts it, never served.
 */
export interface ExchangeCapture {
	startedAt: number;
	durationMs: number;
	client: string | undefined;
	method: string;
	path: string;
	/** Raw query string without '?'. */
	query: string;
	requestHeaders: IncomingHttpHeaders;
	requestBody?: Uint8Array;
	endpoint?: Endpoint;
	binding?: BindingName;
	operation?: OperationName;
	/** Parameters as decoded (their credential values are what redaction looks for). */
	params?: AnyParams;
	status: number;
	responseHeaders?: Readonly<Record<string, string | number | readonly string[]>>;
	responseBody?: Uint8Array;
	fault?: Fault;
	/** The real error of an internal failure. */
	error?: unknown;
	/** Loose mode: the leniencies applied. */
	warnings?: readonly string[];
	/** What a failure scenario did to this exchange (`<scenario>/<rule>: effect`). */
	injected?: string;
}

/** A body as kept: redacted text, cut to a head and a tail when large (and said so). */
export interface KeptBody {
	text: string;
	/** Size of the body on the wire, in bytes. */
	bytes: number;
	/** Present when the middle was cut out: `text` is the head, a marker line, then the tail. */
	truncated?: { headChars: number; tailChars: number; omittedChars: number };
}

/** One exchange of the journal, redacted: safe to show, serve and write. */
export interface JournalEntry {
	/** Increasing from 1 within one sandbox run; never reused, also after a clear. */
	id: number;
	/** ISO time the request arrived. */
	time: string;
	/** Address of the client. */
	client: string;
	method: string;
	path: string;
	/** The query string with credentials replaced by placeholders ('' when none). */
	query: string;
	endpoint?: Endpoint;
	binding?: BindingName;
	operation?: OperationName;
	soapAction?: string;
	contentType?: string;
	status: number;
	durationMs: number;
	request: { headers: Record<string, string>; body: KeptBody };
	response: { headers: Record<string, string>; body: KeptBody };
	/** The fault answered, if any. */
	fault?: Fault;
	/** Why an internal failure happened (the error's message; the client saw only a fixed text). */
	internalReason?: string;
	/** Loose mode: what this request did that production refuses or ignores. */
	leniencies?: string[];
	/** What a failure scenario did to this exchange (`<scenario>/<rule>: effect`): injected on purpose, not a sandbox bug. */
	injected?: string;
}
