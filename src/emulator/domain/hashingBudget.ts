/**
 * A bound on password-hashing work. A password that has to be hashed (scrypt: about 35 ms of blocking
 * CPU at the seeded cost) spends from two token buckets, the client's (its remote address) and the
 * sandbox's; when either is empty the check is not made and the login is refused at once, saying when
 * to try again. The failed-login throttle bounds the guesses per account; this bounds the hashing of a
 * caller who spreads them over many usernames. Work is counted in hashes at the seeded cost
 * (DEFAULT_PASSWORD_COST), so a hash of a cheaper cost (tests) spends less.
 */
import { DEFAULT_PASSWORD_COST } from './passwords';

export interface HashingBudgetOptions {
	/** Hashes per second one client may have checked, on average (default 4). */
	perClientPerSecond?: number;
	/** Hashes one client may have checked at once after a quiet spell (default 8). */
	perClientBurst?: number;
	/** Hashes per second of the whole sandbox (default 8: about a third of one core). */
	overallPerSecond?: number;
	/** Hashes of the whole sandbox at once after a quiet spell (default 16). */
	overallBurst?: number;
	/** Clients tracked at most; the least recently seen are forgotten first (default 10,000). */
	maxClients?: number;
}

interface Bucket {
	/** Hashes left at `at`. */
	level: number;
	at: number;
}

export class HashingBudget {
	private readonly options: Required<HashingBudgetOptions>;
	private readonly clients = new Map<string, Bucket>();
	private readonly overall: Bucket;

	constructor(options: HashingBudgetOptions = {}) {
		this.options = {
			perClientPerSecond: options.perClientPerSecond ?? 4,
			perClientBurst: options.perClientBurst ?? 8,
			overallPerSecond: options.overallPerSecond ?? 8,
			overallBurst: options.overallBurst ?? 16,
			maxClients: options.maxClients ?? 10_000,
		};
		this.overall = { level: this.options.overallBurst, at: 0 };
	}

	/**
	 * Spends one hash of scrypt cost `cost` for `client` when both buckets hold it, and returns 0;
	 * otherwise spends nothing and returns the milliseconds until both will.
	 */
	spend(client: string, cost: number, now: number): number {
		const { perClientPerSecond, perClientBurst, overallPerSecond, overallBurst } = this.options;
		// A hash dearer than a bucket holds would never fit: it costs a full bucket instead.
		const units = Math.min(cost / DEFAULT_PASSWORD_COST, perClientBurst, overallBurst);
		const mine = this.clients.get(client) ?? { level: perClientBurst, at: now };
		const mineLevel = refilled(mine, perClientPerSecond, perClientBurst, now);
		const allLevel = refilled(this.overall, overallPerSecond, overallBurst, now);
		if (mineLevel < units || allLevel < units) {
			return Math.ceil(
				Math.max(
					((units - mineLevel) * 1000) / perClientPerSecond,
					((units - allLevel) * 1000) / overallPerSecond,
				),
			);
		}
		this.overall.level = allLevel - units;
		this.overall.at = now;
		// Re-inserted so the map stays in order of last use (the oldest forgotten first).
		this.clients.delete(client);
		this.clients.set(client, { level: mineLevel - units, at: now });
		while (this.clients.size > this.options.maxClients) {
			this.clients.delete(this.clients.keys().next().value as string);
		}
		return 0;
	}
}

function refilled(bucket: Bucket, perSecond: number, burst: number, now: number): number {
	return Math.min(burst, bucket.level + (Math.max(0, now - bucket.at) * perSecond) / 1000);
}
