/** Per-server settings and per-request state shared by the pipeline steps. */
import type { Replayer } from '../replay/replayer';
import type { ReplayOutcome } from '../journal/types';
import type { ServerResponse } from 'node:http';
import type { BindingName } from '../../protocol/bindings/types';
import type { Endpoint, OperationName } from '../../protocol/catalogue';
import type { OperationHandlers } from '../domain/handlers';
import type { ResourceLimits } from '../resources/limits';
import type { Injection, ScenarioEngine } from '../scenarios/engine';
import type { AnswerCache } from './answerCache';
import type { GroupCommit } from './groupCommit';
import type { AnyParams } from '../../protocol/catalogue';
import type { Fault } from '../../protocol/faults';
import type { Journal } from '../journal/journal';

/** Loose mode: the response header carrying one leniency applied to the request (one header each). */
export const SANDBOX_WARNING = 'x-sandbox-warning';
/** The start of every X-Sandbox-Warning value and warning log line. */
export const SANDBOX_WARNING_PREFIX = 'production would refuse this request: ';

/** The response header marking an answer a scenario made (or delayed): `<scenario>/<rule>`. */
export const SANDBOX_INJECTED = 'x-sandbox-injected';

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
	/** Loose mode: what this request did that production would refuse or ignore (never parameter values). */
	warnings?: string[];
	/** What a scenario did to this request: `<scenario>/<rule>` and the effect, e.g. `service-down/all: unavailable`. */
	injected?: string;
	/** Proxied to this live service (its base URL, without credentials). */
	upstream?: string;
	/** Answered from a recording (`<recording>#<exchange>`), or `unmatched` in strict replay. */
	replayed?: string;
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
	/** Accept what ASMX refuses or ignores, reporting each leniency (X-Sandbox-Warning and the log). */
	loose: boolean;
	/** Largest RowsPerPage, for the parameter rules (default 500). */
	maxPageSize?: number;
	/** Write deadlines, held-memory budget and heavy-query slots (resources/limits.ts). */
	limits?: ResourceLimits;
	/** Active failure scenarios (scenarios/engine.ts); absent: none can be turned on. */
	scenarios?: ScenarioEngine;
	/** Writes read in the same turn are committed as one group (groupCommit.ts); absent: each commits alone. */
	groupCommit?: GroupCommit;
	/** Answers of reads kept until the sandbox's state changes (answerCache.ts); absent: every request runs. */
	answers?: {
		cache: AnswerCache;
		/** Moves with every change of state (Store.changeCount). */
		changeCount(): number;
	};
	/** The journal of exchanges (journal/journal.ts); absent: nothing is recorded. */
	journal?: Journal;
	/** Recordings served instead of the sandbox (replay/replayer.ts), when any are loaded. */
	replay?: { readonly current: Replayer | undefined };
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
	/** Writes the body and ends the response (under the write deadline when limits apply). */
	writeBody?: (res: ServerResponse, body: Uint8Array) => void;
	error?: unknown;
	/** Loose mode: the leniencies applied, sent as X-Sandbox-Warning headers and logged. */
	warnings?: string[];
	/** What a scenario decided for this request. */
	injection?: Injection;
	/** What replay did with the request. */
	replay?: ReplayOutcome;
	/** For the journal (references only): the body read, the decoded parameters, the answer and its fault. */
	requestBody?: Uint8Array;
	params?: AnyParams;
	answerHeaders?: Record<string, string | number | string[]>;
	answerBody?: Uint8Array;
	fault?: Fault;
}
