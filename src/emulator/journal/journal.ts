/**
 * The journal: the last exchanges the sandbox served, redacted, in a ring bounded by count and by
 * size. The pipeline hands over references (ExchangeCapture) as each answer finishes; they are
 * redacted, cut and kept in a batch after the current I/O turn, so answering never waits for it.
 */
import type { BindingName } from '../../protocol/bindings/types';
import { bodyAsUtf8 } from '../pipeline/charset';
import { SECRET_ROLES, type ConnectionValues } from '../../protocol/requestFiles/placeholders';
import type { RoleSecret } from '../../protocol/requestFiles/placeholderRedactor';
import {
	credentialsOf,
	CREDENTIAL_ROLES,
	exchangeRedactor,
	headerTexts,
	keptHeaders,
	redactEach,
	type Redact,
} from './redact';
import { Repeats, type RequestPart, type ResponsePart } from './repeats';
import type { ExchangeCapture, JournalEntry, KeptBody } from './types';

export const DEFAULT_JOURNAL_CAPACITY = 500;
export const DEFAULT_JOURNAL_MAX_BYTES = 16 * 1024 * 1024;
/** Bodies longer than this are kept as a head (three quarters) and a tail. */
export const DEFAULT_MAX_BODY_CHARS = 64 * 1024;
/** Credentials remembered (in memory only) for the last check before a recording is written. */
const REMEMBERED_SECRETS = 64;

export interface JournalOptions {
	/** Exchanges kept (default 500); the oldest goes first. */
	capacity?: number;
	/** Bytes of kept text (UTF-16, as held in memory) at most (default 16 MiB). */
	maxBytes?: number;
	/** Characters of one body kept before it is cut to a head and a tail (default 64 Ki). */
	maxBodyChars?: number;
	/** The sandbox's own credentials, hidden wherever they appear. */
	knownSecrets?: ConnectionValues;
}

/** Which exchanges to list; every given filter must hold. */
export interface JournalFilter {
	operation?: string;
	/** An exact status (`500`) or a class (`5xx`). */
	status?: string;
	client?: string;
	/** Only exchanges proxied to an upstream whose URL contains this text; `sandbox` for the sandbox's own. */
	upstream?: string;
	/** Only exchanges that arrived at or after this time. */
	since?: Date;
	/** Only exchanges with a larger id (polling). */
	afterId?: number;
	/** Text found (ignoring case) in the path, query, operation, fault or either body. */
	text?: string;
	/** At most this many, newest first. */
	limit?: number;
}

const utf8 = new TextDecoder('utf-8');
const CUT_MARKER = (omitted: number): string =>
	`\n… ${omitted} characters cut here: the journal keeps the head and the tail of a large body …\n`;

/**
 * A flat copy of a string built from slices: V8 keeps the whole string a slice was taken from alive, so
 * a head and tail of a 4 MB body would otherwise hold the 4 MB. UTF-16 code units copied as they are (lone
 * surrogates too), several times faster than the JSON round trip this was (8 % of a page with documents).
 */
function detached(text: string): string {
	return Buffer.from(text, 'utf16le').toString('utf16le');
}

/** A body of which only the head came to the journal (`omitted` bytes did not), said so like a cut one. */
function headOnly(kept: KeptBody, omitted: number): KeptBody {
	const headChars = kept.truncated ? kept.truncated.headChars : kept.text.length;
	const head = kept.truncated ? kept.text.slice(0, headChars) : kept.text;
	return {
		text: head + `\n… the rest of the body (${omitted} bytes) did not come to the journal …\n`,
		bytes: kept.bytes + omitted,
		truncated: { headChars, tailChars: 0, omittedChars: omitted + (kept.truncated?.omittedChars ?? 0) },
	};
}

/** Text of a body, cut to head and tail when longer than `max` characters. */
export function keptBody(text: string, bytes: number, max: number): KeptBody {
	if (text.length <= max) return { text, bytes };
	const headChars = Math.floor((max * 3) / 4);
	const tailChars = max - headChars;
	const omittedChars = text.length - headChars - tailChars;
	return {
		text: detached(text.slice(0, headChars) + CUT_MARKER(omittedChars) + text.slice(text.length - tailChars)),
		bytes,
		truncated: { headChars, tailChars, omittedChars },
	};
}

function requestText(capture: ExchangeCapture): string {
	const body = capture.requestBody;
	if (!body || body.byteLength === 0) return '';
	if (capture.binding) {
		try {
			return utf8.decode(bodyAsUtf8(body, header(capture.requestHeaders['content-type']), capture.binding));
		} catch {
			// An undecodable charset: the bytes as UTF-8 show what they can.
		}
	}
	return utf8.decode(body);
}

function header(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value.join(', ') : value;
}

/** The SOAPAction of a request: the SOAP 1.1 header, or SOAP 1.2's `action` parameter. */
function soapActionOf(capture: ExchangeCapture, binding: BindingName | undefined): string | undefined {
	if (binding === 'soap11') return header(capture.requestHeaders.soapaction)?.replace(/^"|"$/g, '');
	const action = /;\s*action\s*=\s*"?([^";]*)"?/i.exec(header(capture.requestHeaders['content-type']) ?? '');
	return action?.[1];
}

function statusMatches(status: number, wanted: string): boolean {
	const pattern = wanted.trim().toLowerCase();
	if (/^[1-5]xx$/.test(pattern)) return Math.floor(status / 100) === Number(pattern[0]);
	return String(status) === pattern;
}

function textMatches(entry: JournalEntry, text: string): boolean {
	const wanted = text.toLowerCase();
	return [
		entry.path,
		entry.query,
		entry.operation ?? '',
		entry.fault?.message ?? '',
		entry.request.body.text,
		entry.response.body.text,
	].some((field) => field.toLowerCase().includes(wanted));
}

function upstreamMatches(upstream: string | undefined, wanted: string): boolean {
	if (wanted.toLowerCase() === 'sandbox') return upstream === undefined;
	return upstream !== undefined && upstream.toLowerCase().includes(wanted.toLowerCase());
}

/** True when the entry passes every filter given (limit and order aside). */
export function entryMatches(entry: JournalEntry, filter: JournalFilter): boolean {
	if (filter.operation && (entry.operation ?? '').toLowerCase() !== filter.operation.toLowerCase()) return false;
	if (filter.status && !statusMatches(entry.status, filter.status)) return false;
	if (filter.client && !entry.client.includes(filter.client)) return false;
	if (filter.upstream && !upstreamMatches(entry.upstream, filter.upstream)) return false;
	if (filter.since && Date.parse(entry.time) < filter.since.getTime()) return false;
	if (filter.afterId !== undefined && entry.id <= filter.afterId) return false;
	return !filter.text || textMatches(entry, filter.text);
}

export class Journal {
	private readonly capacity: number;
	private readonly maxBytes: number;
	private readonly maxBodyChars: number;
	private readonly known: ConnectionValues;
	private readonly repeats = new Repeats();
	private lastStart = Number.NaN;
	private lastTime = '';
	/** Oldest first. */
	private kept: JournalEntry[] = [];
	/** The size of each kept entry (its parts shared with others counted in full), in the same order. */
	private keptSizes: number[] = [];
	private keptBytes = 0;
	private pending: ExchangeCapture[] = [];
	private flushScheduled = false;
	private nextId = 1;
	private readonly listeners = new Set<(entry: JournalEntry) => void>();
	private readonly responses = new WeakMap<Uint8Array, { redact: Redact; kept: KeptBody }>();
	/** The credential values requests carried lately, most recent last (memory only: never served or written). */
	private readonly secrets = new Map<string, RoleSecret['role']>();

	constructor(options: JournalOptions = {}) {
		this.capacity = Math.max(1, options.capacity ?? DEFAULT_JOURNAL_CAPACITY);
		this.maxBytes = Math.max(64 * 1024, options.maxBytes ?? DEFAULT_JOURNAL_MAX_BYTES);
		this.maxBodyChars = Math.max(256, options.maxBodyChars ?? DEFAULT_MAX_BODY_CHARS);
		this.known = options.knownSecrets ?? {};
	}

	/** Takes an exchange as references; it is redacted and kept after the current I/O turn. */
	record(capture: ExchangeCapture): void {
		this.pending.push(capture);
		// Captures beyond the capacity would be dropped at once: do not hold their buffers.
		if (this.pending.length > this.capacity) this.pending.shift();
		if (!this.flushScheduled) {
			this.flushScheduled = true;
			setImmediate(() => this.flush());
		}
	}

	/** Redacts and keeps every exchange handed over so far (reads call it first). */
	flush(): void {
		this.flushScheduled = false;
		const batch = this.pending;
		if (batch.length === 0) return;
		this.pending = [];
		for (const capture of batch) this.keep(this.redacted(capture));
	}

	/** Exchanges passing the filter, newest first. */
	list(filter: JournalFilter = {}): JournalEntry[] {
		this.flush();
		const limit = filter.limit ?? this.capacity;
		const found: JournalEntry[] = [];
		for (let i = this.kept.length - 1; i >= 0 && found.length < limit; i--) {
			if (entryMatches(this.kept[i], filter)) found.push(this.kept[i]);
		}
		return found;
	}

	get(id: number): JournalEntry | undefined {
		this.flush();
		return this.kept.find((entry) => entry.id === id);
	}

	/** Forgets every exchange; returns how many. Ids keep counting up. */
	clear(): number {
		this.flush();
		const count = this.kept.length;
		this.kept = [];
		this.keptSizes = [];
		this.keptBytes = 0;
		return count;
	}

	/** Calls `listener` with each exchange as it is kept; returns the unsubscribe function. */
	subscribe(listener: (entry: JournalEntry) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Resolves when an exchange with an id above `afterId` is kept, after `ms`, or when `signal` aborts. */
	waitForNewer(afterId: number, ms: number, signal?: AbortSignal): Promise<void> {
		this.flush();
		if (this.nextId - 1 > afterId || signal?.aborted) return Promise.resolve();
		return new Promise((resolve) => {
			const done = (): void => {
				clearTimeout(timer);
				unsubscribe();
				signal?.removeEventListener('abort', done);
				resolve();
			};
			const timer = setTimeout(done, ms);
			timer.unref();
			const unsubscribe = this.subscribe(done);
			signal?.addEventListener('abort', done);
		});
	}

	/**
	 * The credentials in play: the sandbox's own and those requests carried lately. Only for the check
	 * that no credential remains in a recording before it is written; never served.
	 */
	secretsInPlay(): RoleSecret[] {
		this.flush();
		const known = SECRET_ROLES.flatMap((role) => (this.known[role] ? [{ role, value: this.known[role] }] : []));
		return [...known, ...[...this.secrets].map(([value, role]) => ({ role, value }))];
	}

	stats(): { count: number; bytes: number; capacity: number; maxBytes: number; lastId: number } {
		this.flush();
		return {
			count: this.kept.length,
			bytes: this.keptBytes,
			capacity: this.capacity,
			maxBytes: this.maxBytes,
			lastId: this.nextId - 1,
		};
	}

	private keep({ entry, size }: { entry: JournalEntry; size: number }): void {
		this.kept.push(entry);
		this.keptSizes.push(size);
		this.keptBytes += size;
		while (this.kept.length > this.capacity || (this.keptBytes > this.maxBytes && this.kept.length > 1)) {
			this.kept.shift();
			this.keptBytes -= this.keptSizes.shift()!;
		}
		for (const listener of this.listeners) {
			try {
				listener(entry);
			} catch {
				// A failing listener must not stop the journal.
			}
		}
	}

	/** A response body as kept: an answer served again from the answer cache is the same bytes, redacted once. */
	private keptResponse(body: Uint8Array | undefined, redact: Redact, maxChars: number): KeptBody {
		if (!body) return { text: '', bytes: 0 };
		const earlier = this.responses.get(body);
		if (earlier?.redact === redact) return earlier.kept;
		const kept = keptBody(redact(utf8.decode(body)), body.byteLength, maxChars);
		this.responses.set(body, { redact, kept });
		return kept;
	}

	/** The request side redacted: the query, SOAPAction, Content-Type, headers and body. */
	private requestPart(capture: ExchangeCapture, credentials: readonly string[]): RequestPart {
		const body = requestText(capture);
		const redact = exchangeRedactor(this.known, credentials, [capture.query, body]);
		const contentType = header(capture.requestHeaders['content-type']);
		const soapAction = soapActionOf(capture, capture.binding);
		const headers = headerTexts(capture.requestHeaders);
		// The small texts in one pass; the body apart: texts split from one string are slices that keep all
		// of it alive, a 4 MB body included (test/hardening/bodyMemory).
		const [query, action, type, ...values] = redactEach(
			[capture.query, soapAction ?? '', contentType ?? '', ...headerValues(headers)],
			redact,
		);
		const request = {
			headers: keptHeaders(headers, values),
			body: keptBody(redact(body), capture.requestBody?.byteLength ?? 0, this.bodyChars(capture)),
		};
		return {
			redact,
			query,
			soapAction: soapAction === undefined ? undefined : action,
			contentType: contentType === undefined ? undefined : type,
			request,
			size: sideSize(request) + query.length * 2,
		};
	}

	private responsePart(capture: ExchangeCapture, redact: Redact): ResponsePart {
		const headers = headerTexts(capture.responseHeaders ?? {});
		let body = this.keptResponse(capture.responseBody, redact, this.bodyChars(capture));
		if (capture.responseOmittedBytes) body = headOnly(body, capture.responseOmittedBytes);
		const response = { headers: keptHeaders(headers, redactEach(headerValues(headers), redact)), body };
		return { response, size: sideSize(response) };
	}

	private bodyChars(capture: ExchangeCapture): number {
		return Math.max(this.maxBodyChars, capture.maxBodyChars ?? 0);
	}

	private time(startedAt: number): string {
		// Many exchanges start within the same millisecond under load.
		if (startedAt !== this.lastStart) {
			this.lastStart = startedAt;
			this.lastTime = new Date(startedAt).toISOString();
		}
		return this.lastTime;
	}

	private remember(credentials: readonly string[]): void {
		CREDENTIAL_ROLES.forEach((role, i) => {
			const value = credentials[i];
			if (!value) return;
			this.secrets.delete(value);
			this.secrets.set(value, role);
			if (this.secrets.size > REMEMBERED_SECRETS) this.secrets.delete(this.secrets.keys().next().value!);
		});
	}

	private redacted(capture: ExchangeCapture): { entry: JournalEntry; size: number } {
		const credentials = credentialsOf(capture.params);
		this.remember(credentials);
		const inputs = {
			binding: capture.binding,
			query: capture.query,
			credentials,
			bytes: capture.requestBody,
			headers: capture.requestHeaders,
		};
		const request = this.repeats.requestPart(inputs, () => this.requestPart(capture, credentials));
		const { redact } = request;
		const response = this.repeats.responsePart(redact, capture.responseBody, capture.responseHeaders ?? {}, () =>
			this.responsePart(capture, redact),
		);
		const entry: JournalEntry = {
			id: this.nextId++,
			time: this.time(capture.startedAt),
			client: capture.client ?? '-',
			method: capture.method,
			path: capture.path,
			query: request.query,
			endpoint: capture.endpoint,
			binding: capture.binding,
			operation: capture.operation,
			soapAction: request.soapAction,
			contentType: request.contentType,
			status: capture.status,
			durationMs: capture.durationMs,
			request: request.request,
			response: response.response,
		};
		let size = request.size + response.size + capture.path.length * 2 + 512;
		const reason =
			capture.error === undefined
				? undefined
				: capture.error instanceof Error
					? capture.error.message
					: String(capture.error);
		if (capture.fault || reason !== undefined || capture.warnings?.length) {
			// Faults, internal failures and leniencies: rarer, redacted each time.
			const [message, detail, why, ...leniencies] = redactEach(
				[capture.fault?.message ?? '', capture.fault?.detail ?? '', reason ?? '', ...(capture.warnings ?? [])],
				redact,
			);
			if (capture.fault) {
				entry.fault = {
					...capture.fault,
					message,
					detail: capture.fault.detail === undefined ? undefined : detail,
				};
			}
			if (reason !== undefined) entry.internalReason = why;
			if (capture.warnings?.length) entry.leniencies = leniencies;
			size += (message.length + detail.length + why.length + leniencies.join('').length) * 2;
		}
		if (capture.injected !== undefined) entry.injected = capture.injected;
		if (capture.upstream !== undefined) entry.upstream = capture.upstream;
		if (capture.proxyError !== undefined) {
			entry.proxyError = { kind: capture.proxyError.kind, message: redact(capture.proxyError.message) };
		}
		if (capture.replay !== undefined) entry.replay = capture.replay;
		if (capture.breakpoint !== undefined) entry.breakpoint = capture.breakpoint;
		if (capture.otherCredentials) entry.otherCredentials = true;
		return { entry, size };
	}
}

function headerValues(headers: readonly [string, string | undefined][]): string[] {
	const values: string[] = [];
	for (const [, value] of headers) if (value !== undefined) values.push(value);
	return values;
}

/** Bytes a request or response side holds (UTF-16, as in memory). */
function sideSize(side: JournalEntry['request']): number {
	let chars = side.body.text.length;
	for (const name in side.headers) chars += name.length + side.headers[name].length;
	return chars * 2;
}
