/**
 * Resource limits of the emulator's answers, so that slow or stalled readers can neither pin memory
 * nor starve other callers (a health check stays fast while sixty connections ask for a 6 MB page and
 * never read it):
 *
 * - Write deadline (a minimum transfer rate, as IIS's minBytesPerSecond and Kestrel's
 *   MinResponseDataRate): a large answer is written in chunks of 64 KiB, and each chunk must be taken
 *   within max(writeGraceMs, 64 KiB / minResponseBytesPerSecond); otherwise the connection is closed
 *   and the answer's memory released. The grace is generous because the kernel wakes a writer only
 *   when half of its send buffer (up to 4 MB on loopback) is free again, so even a steady reader's
 *   progress arrives in bursts.
 * - Memory: the bytes of large answers not yet handed to the operating system are counted; while they
 *   exceed maxHeldResponseBytes, no new heavy query starts.
 * - Heavy queries (paged searches of many rows or with documents) run at most maxHeavyRequests at a
 *   time, counted until their answer is delivered or dropped; the others wait in a bounded queue
 *   (full: 503 ServerBusy), within the request's time budget. Light calls never wait.
 */
import type { ServerResponse } from 'node:http';
import { OPERATIONS, type AnyParams, type OperationName } from '../../protocol/catalogue';
import { HttpError } from '../pipeline/errors';

export interface ResourceLimitOptions {
	/** Heavy queries in flight at once (default 4). */
	maxHeavyRequests?: number;
	/** Heavy queries waiting for a slot; more are refused with 503 (default 64). */
	maxQueuedHeavyRequests?: number;
	/** Bytes of large answers not yet delivered above which heavy queries wait (default 32 MiB). */
	maxHeldResponseBytes?: number;
	/** Slowest accepted reader, bytes per second (default 8 KiB/s). */
	minResponseBytesPerSecond?: number;
	/** Time a chunk may always take, whatever the rate (default 10000 ms). */
	writeGraceMs?: number;
}

export const DEFAULT_RESOURCE_LIMITS: Readonly<Required<ResourceLimitOptions>> = Object.freeze({
	maxHeavyRequests: 4,
	maxQueuedHeavyRequests: 64,
	maxHeldResponseBytes: 32 * 1024 * 1024,
	minResponseBytesPerSecond: 8 * 1024,
	writeGraceMs: 10_000,
});

/** Answers at least this large are written in chunks under a deadline and counted as held memory. */
export const LARGE_ANSWER_BYTES = 64 * 1024;
/** Size of one chunk of a large answer. */
const CHUNK_BYTES = 64 * 1024;
/** More rows than this make a paged search heavy. */
const HEAVY_ROWS = 100;

/** What the limits have seen; for tests and the log. */
export interface ResourceStats {
	heavyActive: number;
	heavyQueued: number;
	/** Bytes of large answers not yet handed to the operating system. */
	heldBytes: number;
	/** Highest heldBytes seen. */
	peakHeldBytes: number;
	/** Connections closed because the client read too slowly. */
	slowReadersClosed: number;
	/** Heavy queries refused because the queue was full. */
	refusedBusy: number;
}

interface Waiter {
	grant: (release: () => void) => void;
	cancelled: () => boolean;
}

export class ResourceLimits {
	private readonly options: Required<ResourceLimitOptions>;
	private heavyActive = 0;
	private heldBytes = 0;
	private readonly queue: Waiter[] = [];
	private drainScheduled = false;
	private readonly counters = { peakHeldBytes: 0, slowReadersClosed: 0, refusedBusy: 0 };

	constructor(options: ResourceLimitOptions = {}) {
		this.options = { ...DEFAULT_RESOURCE_LIMITS, ...definedOnly(options) };
	}

	stats(): ResourceStats {
		return {
			heavyActive: this.heavyActive,
			heavyQueued: this.queue.length,
			heldBytes: this.heldBytes,
			...this.counters,
		};
	}

	/** Paged searches of more than HEAVY_ROWS rows, or with any document included. */
	isHeavy(operation: OperationName, params: AnyParams): boolean {
		if (OPERATIONS[operation].pagedList === undefined) return false;
		if (typeof params.RowsPerPage === 'number' && params.RowsPerPage > HEAVY_ROWS) return true;
		for (const name in params) {
			if (name.startsWith('boolInclude') && String(params[name]).toLowerCase() === 'true') return true;
		}
		return false;
	}

	/**
	 * Waits for a heavy-query slot; resolves with its release (call it once the answer is delivered or
	 * dropped). `cancelled` is asked while waiting: a request answered meanwhile (time budget) or whose
	 * client left gives its place up. Rejects with a 503 ServerBusy HttpError when the queue is full.
	 */
	admit(cancelled: () => boolean): Promise<() => void> {
		if (this.queue.length >= this.options.maxQueuedHeavyRequests) {
			this.pruneQueue();
			if (this.queue.length >= this.options.maxQueuedHeavyRequests) {
				this.counters.refusedBusy++;
				return Promise.reject(
					new HttpError(503, {
						code: 'Server',
						subcode: 'ServerBusy',
						message: 'The sandbox is busy with other large queries; try again in a moment.',
					}),
				);
			}
		}
		return new Promise((grant) => {
			this.queue.push({ grant, cancelled });
			this.scheduleDrain();
		});
	}

	/**
	 * Writes an answer's body and ends the response. A large body goes in chunks, each under the write
	 * deadline, and is counted as held memory until it is delivered or the connection closes.
	 */
	writeBody(res: ServerResponse, body: Uint8Array): void {
		if (body.byteLength < LARGE_ANSWER_BYTES) {
			res.end(body);
			return;
		}
		this.hold(body.byteLength);
		let released = false;
		let timer: NodeJS.Timeout | undefined;
		const release = (): void => {
			if (released) return;
			released = true;
			clearTimeout(timer);
			this.hold(-body.byteLength);
		};
		res.once('close', release);
		const deadlineMs = Math.max(
			this.options.writeGraceMs,
			(CHUNK_BYTES * 1000) / this.options.minResponseBytesPerSecond,
		);
		const arm = (): void => {
			clearTimeout(timer);
			timer = setTimeout(() => {
				// Slower than the minimum rate: close the connection, which releases the memory.
				this.counters.slowReadersClosed++;
				res.destroy();
			}, deadlineMs);
			timer.unref();
		};
		// Every chunk is queued at once (views of the same bytes, no copy); each one taken by the
		// client is progress and restarts the deadline.
		let left = Math.ceil(body.byteLength / CHUNK_BYTES);
		const taken = (error?: Error | null): void => {
			if (error || released) return;
			if (--left === 0) release();
			else arm();
		};
		arm();
		for (let offset = 0; offset < body.byteLength; offset += CHUNK_BYTES) {
			const chunk = body.subarray(offset, Math.min(body.byteLength, offset + CHUNK_BYTES));
			if (offset + CHUNK_BYTES >= body.byteLength) res.end(chunk, taken);
			else res.write(chunk, taken);
		}
	}

	private canStart(): boolean {
		return this.heavyActive < this.options.maxHeavyRequests && this.heldBytes < this.options.maxHeldResponseBytes;
	}

	private take(): () => void {
		this.heavyActive++;
		let done = false;
		return () => {
			if (done) return;
			done = true;
			this.heavyActive--;
			this.scheduleDrain();
		};
	}

	private hold(bytes: number): void {
		this.heldBytes += bytes;
		if (this.heldBytes > this.counters.peakHeldBytes) this.counters.peakHeldBytes = this.heldBytes;
		if (bytes < 0) this.scheduleDrain();
	}

	/**
	 * Starts the next waiting heavy query when there is room, one per turn of the event loop: a heavy
	 * query runs synchronously, so light calls that arrived meanwhile get their turn in between.
	 */
	private scheduleDrain(): void {
		if (this.drainScheduled) return;
		this.drainScheduled = true;
		setImmediate(() => {
			this.drainScheduled = false;
			while (this.queue.length > 0 && this.canStart()) {
				const waiter = this.queue.shift()!;
				if (waiter.cancelled()) continue;
				waiter.grant(this.take());
				break;
			}
			if (this.queue.length > 0 && this.canStart()) this.scheduleDrain();
		});
	}

	private pruneQueue(): void {
		for (let i = this.queue.length - 1; i >= 0; i--) {
			if (this.queue[i].cancelled()) this.queue.splice(i, 1);
		}
	}
}

function definedOnly<T extends object>(options: T): Partial<T> {
	return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
