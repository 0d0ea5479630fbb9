/**
 * Replay: the sandbox answers from recordings. A request that means the same as a recorded one
 * (protocol/recordings/meaning.ts: operation, endpoint, binding family and parameter values, whatever
 * the writing) gets the recorded answer byte for byte; several recorded answers to one request come in
 * order, then the last again (as WireMock's scenarios step through states). A request the recordings
 * do not hold is, in strict mode, a Client fault `NotRecorded` in the binding's own shape that names
 * the closest recorded request and what differs; in fall-through mode it goes on to the sandbox.
 * Requests are read in each recording's own namespace and paths, not the sandbox's.
 */
import { getBinding } from '../../protocol/bindings';
import type { EncodedResponse } from '../../protocol/bindings/types';
import { OPERATIONS, type AnyParams, type Endpoint, type OperationName } from '../../protocol/catalogue';
import type { Recording } from '../../protocol/recordings/format';
import {
	describeParamDifference,
	meaningKey,
	meaningOf,
	paramDifferences,
	type RequestMeaning,
} from '../../protocol/recordings/meaning';
import type { ReplayOutcome } from '../journal/types';
import { bodyAsUtf8 } from '../pipeline/charset';
import { route, type Route } from '../pipeline/dispatch';
import { decodeRequest } from '../pipeline/listener';

export type ReplayMode = 'strict' | 'fallThrough';

/** The header that marks an answer replay gave: `<recording>#<exchange>`, or `unmatched`. */
export const REPLAY_HEADER = 'x-sandbox-replayed';
/** The fault subcode of a request no recording holds (strict mode). */
export const NOT_RECORDED = 'NotRecorded';
/** Exact requests remembered with what they mean, so a repeated one is not decoded again. */
const MEMO_ENTRIES = 2_000;
const MEMO_MAX_BODY = 16 * 1024;

export interface LoadedRecording {
	/** How the recording is named in answers and the journal (its file name). */
	name: string;
	recording: Recording;
}

interface RecordedAnswer {
	recording: string;
	exchange: number;
	status: number;
	headers: Record<string, string>;
	body: Uint8Array;
}

interface Slot {
	answers: RecordedAnswer[];
	next: number;
	served: number;
}

/** Recordings sharing one namespace and endpoint paths: read alike. */
interface Group {
	namespace: string;
	paths: Record<Endpoint, string>;
	slots: Map<string, Slot>;
	/** Every recorded meaning, for the closest one to an unmatched request. */
	meanings: { meaning: RequestMeaning; recording: string; exchange: number }[];
	/** Exact request text -> what it means (or its raw key) and its operation. */
	memo: Map<string, { key: string; operation?: OperationName }>;
}

/** What replay makes of a request. */
export type ReplayMatch =
	| {
			kind: 'served';
			answer: EncodedResponse;
			outcome: ReplayOutcome;
			operation?: OperationName;
			params?: AnyParams;
	  }
	| {
			kind: 'unmatched';
			outcome: Extract<ReplayOutcome, { outcome: 'unmatched' }>;
			/** Strict mode: the fault to answer. */
			answer?: EncodedResponse;
			operation?: OperationName;
			params?: AnyParams;
	  };

/** A request as replay is handed it. */
export interface ReplayRequest {
	method: string;
	path: string;
	query: string;
	headers: Record<string, string | undefined>;
	body: Uint8Array;
	url: string;
}

export interface ReplayInfo {
	mode: ReplayMode;
	recordings: { name: string; exchanges: number; namespace: string; upstream?: string }[];
	/** Requests answered from the recordings, and those not found in them. */
	served: number;
	unmatched: number;
}

const DROPPED_HEADERS = new Set([
	'content-length',
	'transfer-encoding',
	'connection',
	'keep-alive',
	'content-encoding',
]);

function rawKey(method: string, path: string, query: string, body: string): string {
	return JSON.stringify(['raw', method, path.toLowerCase(), query, body]);
}

type CallRoute = Extract<Route, { kind: 'call' }>;

export class Replayer {
	private readonly groups: Group[] = [];
	private served = 0;
	private unmatched = 0;

	constructor(
		private readonly recordings: readonly LoadedRecording[],
		readonly mode: ReplayMode,
	) {
		for (const { name, recording } of recordings) {
			const group = this.groupOf(recording);
			for (const exchange of recording.exchanges) {
				const request = exchange.request;
				const headers: Record<string, string | undefined> = request.headers;
				const read = this.read(group, request.method, { path: request.path, query: request.query }, headers, {
					bytes: Buffer.from(request.body, 'utf8'),
					url: request.path,
				});
				const answer: RecordedAnswer = {
					recording: name,
					exchange: exchange.id,
					status: exchange.response.status,
					headers: exchange.response.headers,
					body: Buffer.from(exchange.response.body, 'utf8'),
				};
				let slot = group.slots.get(read.key);
				if (!slot) {
					slot = { answers: [], next: 0, served: 0 };
					group.slots.set(read.key, slot);
				}
				slot.answers.push(answer);
				if (read.meaning) {
					group.meanings.push({ meaning: read.meaning, recording: name, exchange: exchange.id });
				}
			}
		}
	}

	/** The call a request is, in the paths of a recording; undefined when it is none (a page, another path). */
	callOf(
		method: string,
		target: { path: string; query: string },
		contentType: string | undefined,
	): CallRoute | undefined {
		for (const group of this.groups) {
			try {
				const found = route(method, target, contentType, group.paths);
				if (found.kind === 'call') return found;
			} catch {
				// Not a call there.
			}
		}
		return undefined;
	}

	/** The recorded answer to a request, or what replay says instead. */
	match(request: ReplayRequest): ReplayMatch {
		let best: { group: Group; key: string; meaning?: RequestMeaning; params?: AnyParams } | undefined;
		for (const group of this.groups) {
			const read = this.read(group, request.method, request, request.headers, {
				bytes: request.body,
				url: request.url,
			});
			const slot = group.slots.get(read.key);
			if (slot) {
				const answer = slot.answers[Math.min(slot.next, slot.answers.length - 1)];
				slot.next++;
				slot.served++;
				this.served++;
				return {
					kind: 'served',
					answer: this.encoded(answer),
					outcome: { outcome: 'served', recording: answer.recording, exchange: answer.exchange },
					operation: read.operation ?? read.meaning?.operation,
					params: read.params,
				};
			}
			best ??= { group, ...read };
			if (read.meaning && !best.meaning) best = { group, ...read };
		}
		this.unmatched++;
		const outcome = this.unmatchedOutcome(best?.meaning);
		const match: ReplayMatch = {
			kind: 'unmatched',
			outcome,
			operation: best?.meaning?.operation,
			params: best?.params,
		};
		if (this.mode === 'strict') match.answer = this.notRecorded(request, outcome, best);
		return match;
	}

	info(): ReplayInfo {
		return {
			mode: this.mode,
			recordings: this.recordings.map(({ name, recording }) => ({
				name,
				exchanges: recording.exchanges.length,
				namespace: recording.namespace,
				...(recording.upstream ? { upstream: recording.upstream } : {}),
			})),
			served: this.served,
			unmatched: this.unmatched,
		};
	}

	private groupOf(recording: Recording): Group {
		const found = this.groups.find(
			(group) =>
				group.namespace === recording.namespace &&
				group.paths.posting.toLowerCase() === recording.paths.posting.toLowerCase() &&
				group.paths.administration.toLowerCase() === recording.paths.administration.toLowerCase(),
		);
		if (found) return found;
		const group: Group = {
			namespace: recording.namespace,
			paths: { ...recording.paths },
			slots: new Map(),
			meanings: [],
			memo: new Map(),
		};
		this.groups.push(group);
		return group;
	}

	/** What a request means in a group's namespace and paths, as a key (raw when it does not decode). */
	private read(
		group: Group,
		method: string,
		target: { path: string; query: string },
		headers: Record<string, string | undefined>,
		body: { bytes: Uint8Array; url: string },
	): { key: string; meaning?: RequestMeaning; params?: AnyParams; operation?: OperationName } {
		const exact =
			body.bytes.byteLength <= MEMO_MAX_BODY
				? `${method} ${body.url}?${target.query}\n${headers['content-type'] ?? ''}\n${headers.soapaction ?? ''}\n${Buffer.from(body.bytes).toString('latin1')}`
				: undefined;
		const remembered = exact === undefined ? undefined : group.memo.get(exact);
		// A remembered key carries no meaning: only served answers use it (an unmatched request is read again).
		if (remembered !== undefined && group.slots.has(remembered.key)) return remembered;
		const decoded = this.decode(group, method, target, headers, body.bytes);
		const key = decoded
			? meaningKey(decoded.meaning)
			: rawKey(method, target.path, target.query, Buffer.from(body.bytes).toString('utf8'));
		if (exact !== undefined) {
			if (group.memo.size >= MEMO_ENTRIES) group.memo.delete(group.memo.keys().next().value!);
			group.memo.set(exact, { key, operation: decoded?.meaning.operation });
		}
		return decoded ? { key, meaning: decoded.meaning, params: decoded.params } : { key };
	}

	private decode(
		group: Group,
		method: string,
		target: { path: string; query: string },
		headers: Record<string, string | undefined>,
		bytes: Uint8Array,
	): { meaning: RequestMeaning; params: AnyParams } | undefined {
		try {
			const found = route(method, target, headers['content-type'], group.paths);
			if (found.kind !== 'call') return undefined;
			const decoded = decodeRequest(
				found.binding,
				{
					method,
					subPath: found.subPath,
					query: found.query,
					headers,
					body: bodyAsUtf8(bytes, headers['content-type'], found.binding),
				},
				{ namespace: group.namespace, endpointPath: group.paths[found.endpoint] },
				true,
			);
			if (OPERATIONS[decoded.operation].endpoint !== found.endpoint) return undefined;
			return {
				meaning: meaningOf(decoded.operation, found.endpoint, found.binding, decoded.params),
				params: decoded.params,
			};
		} catch {
			return undefined;
		}
	}

	private unmatchedOutcome(meaning: RequestMeaning | undefined): Extract<ReplayOutcome, { outcome: 'unmatched' }> {
		const outcome: Extract<ReplayOutcome, { outcome: 'unmatched' }> = { outcome: 'unmatched', mode: this.mode };
		if (!meaning) {
			outcome.why = 'the request does not decode as an operation call, and no recorded request has its bytes';
			return outcome;
		}
		let closest: { differs: string[]; recording: string; exchange: number; size: number } | undefined;
		for (const group of this.groups) {
			for (const recorded of group.meanings) {
				if (
					recorded.meaning.operation !== meaning.operation ||
					recorded.meaning.endpoint !== meaning.endpoint
				) {
					continue;
				}
				const differs = paramDifferences(meaning, recorded.meaning).map(describeParamDifference);
				if (recorded.meaning.family !== meaning.family) {
					differs.unshift(`binding: ${meaning.family} sent, ${recorded.meaning.family} recorded`);
				}
				if (!closest || differs.length < closest.size) {
					closest = {
						differs,
						recording: recorded.recording,
						exchange: recorded.exchange,
						size: differs.length,
					};
				}
			}
		}
		if (closest) {
			outcome.closest = {
				recording: closest.recording,
				exchange: closest.exchange,
				operation: meaning.operation,
				differs: closest.differs,
			};
		} else {
			const recorded = [
				...new Set(this.groups.flatMap((group) => group.meanings.map((m) => m.meaning.operation))),
			];
			outcome.why = `no ${meaning.operation} request is recorded${recorded.length ? ` (the recordings hold ${recorded.join(', ')})` : ''}`;
		}
		return outcome;
	}

	private notRecorded(
		request: ReplayRequest,
		outcome: Extract<ReplayOutcome, { outcome: 'unmatched' }>,
		best: { group: Group } | undefined,
	): EncodedResponse {
		const closest = outcome.closest
			? `; the closest recorded request is ${outcome.closest.recording} #${outcome.closest.exchange}, where ${outcome.closest.differs.join('; ') || 'only the credentials differ'}`
			: `: ${outcome.why}`;
		const message = `Not in the recording (strict replay)${closest}.`;
		const group = best?.group ?? this.groups[0];
		const call = group ? this.callOf(request.method, request, request.headers['content-type']) : undefined;
		const fault = { code: 'Client' as const, subcode: NOT_RECORDED, message };
		const encoded =
			call && group
				? getBinding(call.binding).encodeFault(fault, {
						namespace: group.namespace,
						endpointPath: group.paths[call.endpoint],
					})
				: { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(message) };
		return { ...encoded, headers: { ...encoded.headers, [REPLAY_HEADER]: 'unmatched' } };
	}

	private encoded(answer: RecordedAnswer): EncodedResponse {
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(answer.headers)) {
			if (!DROPPED_HEADERS.has(name)) headers[name] = value;
		}
		headers[REPLAY_HEADER] = `${answer.recording}#${answer.exchange}`;
		return { status: answer.status, headers, body: answer.body };
	}
}
