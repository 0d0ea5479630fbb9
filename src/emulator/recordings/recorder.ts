/**
 * Recordings made from the journal: chosen exchanges (already redacted when they were kept) with their
 * requests and answers as sent and, for reading, decoded with the catalogue. The last step is the check
 * that no credential the journal has seen remains in any form (protocol/recordings/credentials.ts):
 * a recording that fails it is never written.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { OPERATIONS, type Endpoint } from '../../protocol/catalogue';
import { normaliseResult, type Normalised } from '../../protocol/compare';
import { checkedRecordingText } from '../../protocol/recordings/credentials';
import {
	MAX_RECORDED_EXCHANGES,
	RECORDING_FORMAT,
	RECORDING_VERSION,
	type RecordedExchange,
	type Recording,
} from '../../protocol/recordings/format';
import type { Journal } from '../journal/journal';
import { decodeJournaledAnswer } from '../journal/answer';
import type { JournalEntry } from '../journal/types';
import type { VerdictContext } from '../journal/verdict';
import { decodeRequest } from '../pipeline/listener';
import { route } from '../pipeline/dispatch';

/** An exchange that cannot go into a recording, or exchanges that do not belong together. */
export class RecordingError extends Error {
	override readonly name = 'RecordingError';
}

/** How the exchanges of one service are read: its namespace and paths (the sandbox's, or an upstream's). */
export type ServiceContexts = (upstream: string | undefined) => VerdictContext | undefined;

const NOT_RECORDED_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

function kept(headers: Readonly<Record<string, string>>): Record<string, string> {
	const result: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (!NOT_RECORDED_HEADERS.has(name) && !name.startsWith('x-sandbox-')) result[name] = value;
	}
	return result;
}

/** Why an exchange cannot be recorded, or undefined when it can. */
export function unrecordable(entry: JournalEntry): string | undefined {
	if (entry.proxyError) {
		return `exchange ${entry.id} was answered by the proxy itself (${entry.status}: ${entry.proxyError.kind}), not by the service`;
	}
	if (entry.status === 499) return `exchange ${entry.id} has no answer (the client went away first)`;
	for (const side of ['request', 'response'] as const) {
		const body = entry[side].body;
		if (body.truncated) {
			return `exchange ${entry.id}'s ${side} body (${body.bytes} bytes) was kept only in part by the journal`;
		}
	}
	return undefined;
}

/** One exchange as recorded. */
export function recordedExchange(entry: JournalEntry, ctx: VerdictContext): RecordedExchange {
	// Built in the order a reader expects: what it is, then the request, then the answer.
	const exchange = {
		id: entry.id,
		time: entry.time,
		...(entry.operation ? { operation: entry.operation } : {}),
		...(entry.endpoint ? { endpoint: entry.endpoint } : {}),
		...(entry.binding ? { binding: entry.binding } : {}),
		...(entry.otherCredentials ? { otherCredentials: true as const } : {}),
		request: {
			method: entry.method,
			path: entry.path,
			query: entry.query,
			headers: kept(entry.request.headers),
		} as RecordedExchange['request'],
		response: { status: entry.status, headers: kept(entry.response.headers) } as RecordedExchange['response'],
	} satisfies Omit<RecordedExchange, 'request' | 'response'> & Pick<RecordedExchange, 'request' | 'response'>;
	const finish = (): RecordedExchange => {
		exchange.request.body = entry.request.body.text;
		exchange.response.body = entry.response.body.text;
		return exchange;
	};
	if (!entry.operation || !entry.binding || !entry.endpoint) return finish();
	const codec = { namespace: ctx.namespace, endpointPath: ctx.paths[entry.endpoint] };
	try {
		const found = route(entry.method, { path: entry.path, query: entry.query }, entry.contentType, ctx.paths);
		if (found.kind === 'call') {
			const decoded = decodeRequest(
				found.binding,
				{
					method: entry.method,
					subPath: found.subPath,
					query: found.query,
					headers: entry.request.headers,
					body: Buffer.from(entry.request.body.text, 'utf8'),
				},
				codec,
				true,
			);
			const params: Record<string, Normalised> = {};
			for (const spec of OPERATIONS[decoded.operation].params) {
				const value = normaliseResult(decoded.params[spec.name]);
				if (value !== undefined) params[spec.name] = value;
			}
			exchange.request.params = params;
		}
	} catch {
		// Not decodable: the body says what was sent.
	}
	try {
		const decoded = decodeJournaledAnswer(entry, entry.operation, entry.binding, ctx.namespace);
		if (decoded.ok) {
			const result = normaliseResult(decoded.result);
			if (result !== undefined) exchange.response.result = result;
		} else {
			exchange.response.fault = { code: decoded.fault.code, message: decoded.fault.message };
			if (decoded.fault.subcode !== undefined) exchange.response.fault.subcode = decoded.fault.subcode;
		}
	} catch {
		// Not an answer of the operation: the body says what came.
	}
	return finish();
}

/**
 * A recording of these exchanges (oldest first), all of one service, with its file's text; throws a
 * RecordingError naming what cannot be recorded, or a CredentialInRecordingError.
 */
export function makeRecording(
	entries: readonly JournalEntry[],
	contexts: ServiceContexts,
	journal: Pick<Journal, 'secretsInPlay'>,
	now = new Date(),
): { recording: Recording; text: string } {
	if (entries.length === 0) throw new RecordingError('No exchanges to record: choose at least one.');
	if (entries.length > MAX_RECORDED_EXCHANGES) {
		throw new RecordingError(`A recording holds at most ${MAX_RECORDED_EXCHANGES} exchanges.`);
	}
	const upstreams = new Set(entries.map((entry) => entry.upstream));
	if (upstreams.size > 1) {
		const names = [...upstreams].map((upstream) => upstream ?? 'the sandbox').join(', ');
		throw new RecordingError(`A recording holds the exchanges of one service; these come from ${names}.`);
	}
	const upstream = entries[0].upstream;
	const ctx = contexts(upstream);
	if (!ctx) {
		throw new RecordingError(`The namespace of ${upstream ?? 'the sandbox'} is no longer known: inspect it again.`);
	}
	const problems = entries.map(unrecordable).filter((problem): problem is string => problem !== undefined);
	if (problems.length > 0) throw new RecordingError(`Not recorded: ${problems.slice(0, 5).join('; ')}.`);
	const ordered = [...entries].sort((a, b) => a.id - b.id);
	const recording: Recording = {
		format: RECORDING_FORMAT,
		version: RECORDING_VERSION,
		recordedAt: now.toISOString(),
		...(upstream ? { upstream } : {}),
		namespace: ctx.namespace,
		paths: { ...(ctx.paths as Record<Endpoint, string>) },
		exchanges: ordered.map((entry) => recordedExchange(entry, ctx)),
	};
	return { recording, text: checkedRecordingText(recording, journal.secretsInPlay()) };
}

/** Writes a file whole or not at all: a temporary file, fsync, rename. */
export function writeFileAtomically(path: string, text: string): void {
	const temporary = `${path}.${process.pid}.tmp`;
	try {
		const fd = openSync(temporary, 'w', 0o600);
		try {
			writeSync(fd, text);
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
		renameSync(temporary, path);
	} catch (error) {
		rmSync(temporary, { force: true });
		throw error;
	}
}

/** The shortest wait between two writes of a recording made as exchanges come (`--record`). */
const RECORD_WRITE_MIN_MS = 200;

/**
 * `--record FILE`: every proxied exchange the journal keeps goes into one recording, written again
 * (whole, atomically) shortly after each one, so an interrupted session keeps what it saw. What cannot
 * be recorded is reported through `onSkip` and left out.
 */
export function recordToFile(
	path: string,
	journal: Journal,
	contexts: ServiceContexts,
	onSkip: (reason: string) => void,
): { close(): void } {
	const entries: JournalEntry[] = [];
	let timer: NodeJS.Timeout | undefined;
	// Each write makes, checks and writes the whole file: the next one waits ten times as long as the
	// last took, so a long recording under load costs the proxy a tenth of a core at most, not all of it.
	let waitMs = RECORD_WRITE_MIN_MS;
	const write = (): void => {
		timer = undefined;
		if (entries.length === 0) return;
		const started = performance.now();
		try {
			writeFileAtomically(path, makeRecording(entries, contexts, journal).text);
			waitMs = Math.max(RECORD_WRITE_MIN_MS, (performance.now() - started) * 10);
		} catch (error) {
			onSkip(`the recording ${path} was not written: ${error instanceof Error ? error.message : String(error)}`);
		}
	};
	const unsubscribe = journal.subscribe((entry) => {
		if (entry.upstream === undefined) return;
		const problem = unrecordable(entry);
		if (problem) return onSkip(`${problem}; not recorded`);
		if (entries.length > 0 && entries[0].upstream !== entry.upstream) {
			return onSkip(`exchange ${entry.id} went to another upstream (${entry.upstream}); not recorded`);
		}
		if (entries.length >= MAX_RECORDED_EXCHANGES) return onSkip(`exchange ${entry.id}: the recording is full`);
		entries.push(entry);
		timer ??= setTimeout(write, waitMs);
	});
	return {
		close() {
			journal.flush();
			unsubscribe();
			clearTimeout(timer);
			write();
		},
	};
}
