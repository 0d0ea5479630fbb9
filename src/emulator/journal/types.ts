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
	/** Proxied to a live service: its base URL (never with credentials). */
	upstream?: string;
	/** The proxy could not get an answer from the upstream and answered 502 itself. */
	proxyError?: ProxyFailure;
	/** Bytes of the answer not kept (the proxy keeps the head of a very large answer only). */
	responseOmittedBytes?: number;
	/** Characters of a body kept before it is cut (default: the journal's; proxied exchanges keep more, for recordings). */
	maxBodyChars?: number;
	/** What replay did with this request. */
	replay?: ReplayOutcome;
	/** What a breakpoint did with this request. */
	breakpoint?: string;
	/** The request carried credentials other than the connection's own (when the proxy was told those). */
	otherCredentials?: boolean;
}

/** Why the proxy answered instead of the upstream. */
export interface ProxyFailure {
	/** unreachable (DNS, refused), tls (certificate), timeout, reset (connection lost), tooLarge (answer over the cap). */
	kind: 'unreachable' | 'tls' | 'timeout' | 'reset' | 'tooLarge' | 'proxy';
	message: string;
}

/** Replay's answer to a request: a recorded exchange, or none (strict: a fault naming the closest one). */
export type ReplayOutcome =
	| { outcome: 'served'; recording: string; exchange: number }
	| {
			outcome: 'unmatched';
			mode: 'strict' | 'fallThrough';
			/** The closest recorded request: its recording, exchange id and what differs. */
			closest?: { recording: string; exchange: number; operation?: string; differs: string[] };
			/** Why nothing is close (no recorded request of this operation). */
			why?: string;
	  };

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
	/** Proxied to this live service (its base URL); absent for the sandbox's own answers. */
	upstream?: string;
	/** The upstream gave no answer: the proxy answered 502 itself, and why. */
	proxyError?: ProxyFailure;
	/** Replay served this request from a recording, or found no recorded answer for it. */
	replay?: ReplayOutcome;
	/** A breakpoint held this request: what was done with it. */
	breakpoint?: string;
	/** The request carried credentials other than the connection's own (a wrong key sent on purpose, say). */
	otherCredentials?: boolean;
}
