/**
 * Throttling of failed logins, per username. A wrong password costs a scrypt hash (about 35 ms of
 * blocking CPU); after a few failures in a row, the next attempts for that username are refused at
 * once, without hashing, for a short and growing wait. Successful logins are never slowed: a password
 * verified before is recognised from the verification cache without touching the throttle, and a
 * success clears the username's failures. Unknown usernames are tracked exactly like known ones, so
 * the throttle tells nothing about which usernames exist.
 */

export interface LoginThrottleOptions {
	/** Failures in a row before the username has to wait (default 3). */
	freeFailures?: number;
	/** Wait after the first throttled failure; doubles with each further failure (default 1000 ms). */
	baseDelayMs?: number;
	/** Longest wait (default 30 s). */
	maxDelayMs?: number;
	/** A username without failures for this long starts afresh (default 15 minutes). */
	forgetAfterMs?: number;
	/** Usernames tracked at most; the oldest are forgotten first (default 10,000). */
	maxTracked?: number;
	/** Called after each change of what the throttle holds (a failure counted, failures cleared). */
	onChange?: () => void;
}

interface Failures {
	count: number;
	lastAt: number;
	blockedUntil: number;
}

export class LoginThrottle {
	private readonly failures = new Map<string, Failures>();
	private readonly options: Required<Omit<LoginThrottleOptions, 'onChange'>>;
	private readonly onChange: () => void;

	constructor(options: LoginThrottleOptions = {}) {
		this.options = {
			freeFailures: options.freeFailures ?? 3,
			baseDelayMs: options.baseDelayMs ?? 1_000,
			maxDelayMs: options.maxDelayMs ?? 30_000,
			forgetAfterMs: options.forgetAfterMs ?? 15 * 60_000,
			maxTracked: options.maxTracked ?? 10_000,
		};
		this.onChange = options.onChange ?? (() => undefined);
	}

	/** Milliseconds before a login of `username` is checked again; 0 when it may be checked now. */
	retryAfterMs(username: string, now: number): number {
		const entry = this.current(username, now);
		return entry ? Math.max(0, entry.blockedUntil - now) : 0;
	}

	/** Records a failed check; after freeFailures of them in a row the username waits before the next. */
	failed(username: string, now: number): void {
		const entry = this.current(username, now) ?? { count: 0, lastAt: now, blockedUntil: 0 };
		entry.count++;
		entry.lastAt = now;
		const over = entry.count - this.options.freeFailures;
		if (over >= 0) {
			entry.blockedUntil =
				now + Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** Math.min(over, 30));
		}
		// Re-inserted so the map stays in order of last failure (the oldest first, forgotten first).
		this.failures.delete(username);
		this.failures.set(username, entry);
		while (this.failures.size > this.options.maxTracked) {
			this.failures.delete(this.failures.keys().next().value as string);
		}
		this.onChange();
	}

	succeeded(username: string): void {
		if (this.failures.delete(username)) this.onChange();
	}

	private current(username: string, now: number): Failures | undefined {
		const entry = this.failures.get(username);
		if (entry && now - entry.lastAt > this.options.forgetAfterMs && now >= entry.blockedUntil) {
			this.failures.delete(username);
			this.onChange();
			return undefined;
		}
		return entry;
	}
}
