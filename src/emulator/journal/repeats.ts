/**
 * Exchanges like recent ones. A load test, a polling loop or a retrying client sends the same request
 * again and again and gets the same answer; decoding and redacting every copy was most of what the
 * journal cost. A request whose bytes, query, decoded credentials, binding and headers are those of
 * one of the last RECENT_PARTS requests shares that one's redacted part, and an answer whose redactor,
 * bytes and headers are those of a recent answer shares its part: compared, never hashed, so nothing is
 * decoded or redacted again. Every input of the redaction is compared, so a shared part is exactly what
 * redacting again would give (test/emulator/journal/repeats.test.ts). Raw bytes and headers are held
 * for the comparison in this process's memory only (bodies of at most REPEAT_MAX_BYTES, REPEAT_HELD_BYTES
 * on each side in all), as the redactor cache holds the secrets themselves.
 */
import type { BindingName } from '../../protocol/bindings/types';
import type { Redact } from './redact';
import type { JournalEntry } from './types';

/** Parts remembered on each side (the least recently matched goes first). */
export const RECENT_PARTS = 16;
/** Bodies longer than this are not remembered (a page of 50 applications with documents is 190 KiB). */
export const REPEAT_MAX_BYTES = 256 * 1024;
/** Bytes of bodies held for comparison on each side at most; the least recently matched go first. */
export const REPEAT_HELD_BYTES = 2 * 1024 * 1024;

type RawHeaders = Readonly<Record<string, string | number | readonly string[] | undefined>>;

/** The request side of an entry, redacted; `request` is frozen and shared by the entries of repeats. */
export interface RequestPart {
	redact: Redact;
	query: string;
	soapAction?: string;
	contentType?: string;
	request: JournalEntry['request'];
	/** Bytes the part counts for in the journal's cap. */
	size: number;
}

/** The answer side of an entry, redacted; `response` is frozen and shared by the entries of repeats. */
export interface ResponsePart {
	response: JournalEntry['response'];
	size: number;
}

interface SeenRequest {
	binding: BindingName | undefined;
	query: string;
	credentials: readonly string[];
	bytes: Uint8Array | undefined;
	headers: readonly string[];
	part: RequestPart;
}

interface SeenResponse {
	redact: Redact;
	bytes: Uint8Array | undefined;
	headers: readonly string[];
	part: ResponsePart;
}

/** A copy: a buffer the server reuses must not change what a remembered part is compared with. */
function copied(bytes: Uint8Array | undefined): Uint8Array | undefined {
	return bytes && Uint8Array.prototype.slice.call(bytes);
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
	if (a === b) return true;
	if (!a || !b || a.byteLength !== b.byteLength) return false;
	return Buffer.compare(a, b) === 0;
}

/** Names and values in order, or undefined when a value is a list (such headers are not remembered). */
function flatHeaders(headers: RawHeaders): string[] | undefined {
	const flat: string[] = [];
	for (const name in headers) {
		const value = headers[name];
		if (value === undefined) continue;
		if (typeof value !== 'string' && typeof value !== 'number') return undefined;
		flat.push(name, String(value));
	}
	return flat;
}

function sameHeaders(headers: RawHeaders, flat: readonly string[]): boolean {
	let i = 0;
	for (const name in headers) {
		const value = headers[name];
		if (value === undefined) continue;
		if (flat[i] !== name) return false;
		if (typeof value === 'number' ? flat[i + 1] !== String(value) : flat[i + 1] !== value) return false;
		i += 2;
	}
	return i === flat.length;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
	return true;
}

/** A short list, most recently matched first, bounded in count and in the bytes its items hold. */
class Recent<T extends { bytes: Uint8Array | undefined }> {
	private readonly items: T[] = [];
	private held = 0;
	find(matches: (item: T) => boolean): T | undefined {
		const index = this.items.findIndex(matches);
		if (index < 0) return undefined;
		const item = this.items[index];
		if (index > 0) {
			this.items.splice(index, 1);
			this.items.unshift(item);
		}
		return item;
	}
	add(item: T): void {
		this.items.unshift(item);
		this.held += item.bytes?.byteLength ?? 0;
		while (this.items.length > 1 && (this.items.length > RECENT_PARTS || this.held > REPEAT_HELD_BYTES)) {
			this.held -= this.items.pop()!.bytes?.byteLength ?? 0;
		}
	}
}

/** What the request side of an exchange is compared by. */
export interface RequestInputs {
	binding: BindingName | undefined;
	query: string;
	credentials: readonly string[];
	bytes: Uint8Array | undefined;
	headers: RawHeaders;
}

/** The redacted parts of recent exchanges, for exchanges that repeat them byte for byte. */
export class Repeats {
	private readonly requests = new Recent<SeenRequest>();
	private readonly responses = new Recent<SeenResponse>();

	/** The part of a recent request with exactly these inputs, else `make()`'s (remembered when small). */
	requestPart(inputs: RequestInputs, make: () => RequestPart): RequestPart {
		const seen = this.requests.find(
			(item) =>
				item.query === inputs.query &&
				item.binding === inputs.binding &&
				sameBytes(item.bytes, inputs.bytes) &&
				sameStrings(item.credentials, inputs.credentials) &&
				sameHeaders(inputs.headers, item.headers),
		);
		if (seen) return seen.part;
		const part = make();
		deepFreeze(part.request);
		const headers = flatHeaders(inputs.headers);
		if (headers && (inputs.bytes?.byteLength ?? 0) <= REPEAT_MAX_BYTES && inputs.query.length <= REPEAT_MAX_BYTES) {
			this.requests.add({
				...inputs,
				bytes: copied(inputs.bytes),
				credentials: [...inputs.credentials],
				headers,
				part,
			});
		}
		return part;
	}

	/** The part of a recent answer with this redactor, bytes and headers, else `make()`'s (remembered when small). */
	responsePart(
		redact: Redact,
		bytes: Uint8Array | undefined,
		headers: RawHeaders,
		make: () => ResponsePart,
	): ResponsePart {
		const seen = this.responses.find(
			(item) => item.redact === redact && sameBytes(item.bytes, bytes) && sameHeaders(headers, item.headers),
		);
		if (seen) return seen.part;
		const part = make();
		deepFreeze(part.response);
		const flat = flatHeaders(headers);
		if (flat && (bytes?.byteLength ?? 0) <= REPEAT_MAX_BYTES) {
			this.responses.add({ redact, bytes: copied(bytes), headers: flat, part });
		}
		return part;
	}
}

/** Shared by several entries: nobody may change one through another. */
function deepFreeze(side: JournalEntry['request']): void {
	Object.freeze(side.headers);
	Object.freeze(side.body.truncated);
	Object.freeze(side.body);
	Object.freeze(side);
}
