/**
 * Answers of reads kept by the exact request, as an ASP.NET output cache would keep them, but never
 * stale: an answer is served again only for the same request bytes while the sandbox's state has not
 * changed since it was computed (Store.changeCount moves with every write, rollback and login-throttle
 * change) and, when the handler read the clock, within the same second (stored dates have second
 * precision, so every date a handler derives from the time is the same within it). Only successful
 * answers computed without a write and without a leniency are kept; faults always run in full.
 *
 * Keys are SHA-256 digests of the request, so the credentials in request bodies are not held here.
 */
import { createHash } from 'node:crypto';
import type { EncodedResponse } from '../../protocol/bindings/types';
import type { OperationName } from '../../protocol/catalogue';

/** Bytes of answer bodies kept at most (default). */
export const DEFAULT_ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
/** A larger answer is not kept: one would push out many small ones. */
const LARGEST_KEPT_BYTES = 4 * 1024 * 1024;

export interface KeptAnswer {
	operation: OperationName;
	answer: EncodedResponse;
	/** Store.changeCount when the answer was computed. */
	changeCount: number;
	/** Date.now() before which the answer holds (Infinity when the handler did not read the clock). */
	validUntil: number;
}

/** What identifies a request for the cache: everything a binding reads to decode it. */
export interface RequestIdentity {
	method: string;
	/** Path and query, as received. */
	url: string;
	contentType: string | undefined;
	soapAction: string | undefined;
	body: Uint8Array;
}

export interface AnswerCacheStats {
	entries: number;
	bytes: number;
	/** Requests answered from the cache. */
	hits: number;
	/** Requests looked up and run in full (not kept, or no longer true). */
	misses: number;
}

export class AnswerCache {
	/** Insertion order is recency order: a hit moves its entry to the end. */
	private readonly entries = new Map<string, KeptAnswer>();
	private bytes = 0;
	private hitCount = 0;
	private missCount = 0;

	constructor(private readonly maxBytes = DEFAULT_ANSWER_CACHE_BYTES) {}

	keyOf(request: RequestIdentity): string {
		const hash = createHash('sha256');
		hash.update(`${request.method}\n${request.url}\n${request.contentType ?? ''}\n${request.soapAction ?? ''}\n`);
		hash.update(request.body);
		return hash.digest('base64');
	}

	/** The kept answer of a request, if it still holds at this change count and time. */
	get(key: string, changeCount: number, now: number): KeptAnswer | undefined {
		const kept = this.entries.get(key);
		if (kept === undefined) {
			this.missCount++;
			return undefined;
		}
		this.entries.delete(key);
		if (kept.changeCount !== changeCount || now >= kept.validUntil) {
			this.bytes -= kept.answer.body.byteLength;
			this.missCount++;
			return undefined;
		}
		this.entries.set(key, kept);
		this.hitCount++;
		return kept;
	}

	set(key: string, kept: KeptAnswer): void {
		const size = kept.answer.body.byteLength;
		if (size > LARGEST_KEPT_BYTES || size > this.maxBytes) return;
		const previous = this.entries.get(key);
		if (previous !== undefined) {
			this.entries.delete(key);
			this.bytes -= previous.answer.body.byteLength;
		}
		while (this.bytes + size > this.maxBytes) this.evictOldest();
		this.entries.set(key, kept);
		this.bytes += size;
	}

	/** Forgets everything (a reset of the sandbox). */
	clear(): void {
		this.entries.clear();
		this.bytes = 0;
	}

	stats(): AnswerCacheStats {
		return { entries: this.entries.size, bytes: this.bytes, hits: this.hitCount, misses: this.missCount };
	}

	private evictOldest(): void {
		const oldest = this.entries.entries().next();
		if (oldest.done === true) return;
		this.entries.delete(oldest.value[0]);
		this.bytes -= oldest.value[1].answer.body.byteLength;
	}
}

/** The end of the second `now` falls in: a time-dependent answer holds until then. */
export function endOfSecond(now: number): number {
	return Math.floor(now / 1000) * 1000 + 1000;
}
