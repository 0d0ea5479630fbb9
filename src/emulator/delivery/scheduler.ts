/**
 * Delivery over time: postings wait as Pending (DELIVERY_STATUS 1) until their due time on the
 * emulator's clock, then become Delivered (2) or Failed (3) with the job board's response in the
 * tracking log. Outcomes are deterministic: a posting to a flaky feed fails when a hash of its id
 * and the seed falls in the failing third; every other feed delivers.
 */
import { DELIVERY_STATUS } from '../../protocol/catalogue';
import { DELIVERY_ERRORS } from '../domain/demoContent';
import type { Store } from '../store/store';
import { toStoredDate } from '../store/time';
import type { EmulatorClock } from './clock';

/** Default time between completing a posting and the job board's answer. */
export const DEFAULT_DELIVERY_DELAY_MS = 3_000;
/** Feeds that fail about one delivery in three by default (CV-Library, 104). */
export const DEFAULT_FLAKY_FEED_IDS: readonly number[] = [104];
/** How long a posting stays live on a board. */
export const POSTING_LIFETIME_MS = 28 * 86_400_000;
/** Deliveries handled per tick; the rest wait for the next tick. */
const BATCH = 200;

export interface DeliveryOptions {
	deliveryDelayMs?: number;
	flakyFeedIds?: readonly number[];
	seed?: number;
	/** Told about each delivery outcome (the emulator's event log). */
	onDelivery?: (event: DeliveryEvent) => void;
	/** Job boards a scenario makes reject deliveries or never answer (scenarios/engine.ts). */
	boards?: {
		deliveryOverride(
			feedId: number,
		): { outcome: 'rejected' | 'noAnswer'; message: string; mark: string } | undefined;
		silentFeedIds(): number[];
	};
}

/** One delivery outcome. */
export interface DeliveryEvent {
	postingId: number;
	advertId: number;
	feedId: number;
	statusId: number;
	response: string;
	/** The scenario rule that decided this answer (`<scenario>/<rule>`), when one did. */
	injected?: string;
}

/** A stable 32-bit hash of a posting id and the seed (Knuth's multiplicative hash, then xorshift). */
function mix(id: number, seed: number): number {
	let h = (Math.imul(id, 2654435761) ^ seed) >>> 0;
	h ^= h >>> 13;
	h = Math.imul(h, 0x5bd1e995) >>> 0;
	return (h ^ (h >>> 15)) >>> 0;
}

/** The job board's answer to a delivery: deterministic per posting id, seed and feed. */
export function deliveryOutcome(
	postingId: number,
	feedId: number,
	seed: number,
	flakyFeedIds: readonly number[],
): { statusId: number; errorLevel: string; response: string } {
	const hash = mix(postingId, seed);
	if (flakyFeedIds.includes(feedId) && hash % 3 === 0) {
		return {
			statusId: DELIVERY_STATUS.Failed,
			errorLevel: 'Error',
			response: DELIVERY_ERRORS[hash % DELIVERY_ERRORS.length],
		};
	}
	return {
		statusId: DELIVERY_STATUS.Delivered,
		errorLevel: 'None',
		response: `Delivered: job board reference ${100000 + (hash % 900000)}.`,
	};
}

export class DeliveryScheduler {
	readonly deliveryDelayMs: number;
	private readonly flakyFeedIds: readonly number[];
	private readonly seed: number;
	private removeTick: (() => void) | undefined;

	constructor(
		private readonly store: Store,
		private readonly clock: EmulatorClock,
		private readonly options: DeliveryOptions = {},
	) {
		this.deliveryDelayMs = options.deliveryDelayMs ?? DEFAULT_DELIVERY_DELAY_MS;
		this.flakyFeedIds = options.flakyFeedIds ?? DEFAULT_FLAKY_FEED_IDS;
		this.seed = options.seed ?? 1;
	}

	/** Starts delivering on every clock tick. */
	start(): void {
		this.removeTick ??= this.clock.onTick(() => this.deliverDue());
	}

	stop(): void {
		this.removeTick?.();
		this.removeTick = undefined;
	}

	/**
	 * Queues postings of an advert to these feeds, inside the caller's transaction. They go out
	 * `deliveryDelayMs` after `postAt` (now, or the advert's future post date). Returns the posting ids.
	 */
	enqueue(advertId: number, userId: number, feedIds: readonly number[], postAt: Date): number[] {
		const now = this.clock.now();
		const scheduled = postAt.getTime() > now.getTime();
		const postedAt = toStoredDate(scheduled ? postAt : now);
		// Rounded up to a whole second (stored precision), so a posting is never delivered early.
		const dueAt = toStoredDate(
			new Date(Math.ceil(((scheduled ? postAt.getTime() : now.getTime()) + this.deliveryDelayMs) / 1000) * 1000),
		);
		const expires = toStoredDate(new Date((scheduled ? postAt.getTime() : now.getTime()) + POSTING_LIFETIME_MS));
		return feedIds.map((feedId) => {
			const postingId = this.store.postings.insertPending({
				advertId,
				feedId,
				userId,
				postedAt,
				estimatedExpireAt: expires,
				dueAt,
			});
			this.store.postings.addTrackingLog(
				postingId,
				toStoredDate(now),
				'Pending',
				scheduled ? `Scheduled: goes out at ${postedAt}.` : 'Queued for delivery.',
			);
			return postingId;
		});
	}

	/** Delivers every posting due by now (run on each tick; also callable directly). Returns how many. */
	deliverDue(): number {
		let delivered = 0;
		for (;;) {
			const now = toStoredDate(this.clock.now());
			const due = this.store.postings.due(now, BATCH, this.options.boards?.silentFeedIds());
			for (const posting of due) {
				const override = this.options.boards?.deliveryOverride(posting.feedId);
				const outcome =
					override?.outcome === 'rejected'
						? { statusId: DELIVERY_STATUS.Failed, errorLevel: 'Error', response: override.message }
						: deliveryOutcome(posting.id, posting.feedId, this.seed, this.flakyFeedIds);
				// The board answers at the due time, which may be earlier than now when the clock jumped.
				this.store.postings.recordDelivery({
					postingId: posting.id,
					advertId: posting.advertId,
					statusId: outcome.statusId,
					at: posting.dueAt,
					errorLevel: outcome.errorLevel,
					response: outcome.response,
					postedAt: posting.postedAt,
				});
				this.options.onDelivery?.({
					postingId: posting.id,
					advertId: posting.advertId,
					feedId: posting.feedId,
					statusId: outcome.statusId,
					response: outcome.response,
					injected: override?.outcome === 'rejected' ? override.mark : undefined,
				});
				delivered++;
			}
			if (due.length < BATCH) return delivered;
		}
	}
}
