/**
 * The emulator's clock for everything that happens over time (deliveries, live applications).
 * 'real' follows the wall clock, optionally faster; 'manual' stands still until advance(ms) is called (tests).
 * Listeners registered with onTick run on every tick: a real clock ticks on an unref'd interval,
 * a manual clock ticks synchronously inside advance().
 */

/** How the clock moves. */
export type ClockMode = 'real' | 'manual';

export interface EmulatorClock {
	readonly mode: ClockMode;
	/** The emulator's current time. */
	now(): Date;
	/** Moves a manual clock forward and runs the tick listeners; a real clock refuses. */
	advance(ms: number): void;
	/** Registers a listener run on every tick; returns a function that removes it. */
	onTick(listener: () => void): () => void;
	/** Stops the interval of a real clock; later ticks never run. */
	stop(): void;
}

export interface ClockOptions {
	mode?: ClockMode;
	/** Real clock: how much faster than the wall clock time passes (default 1). */
	speed?: number;
	/** Real clock: wall-clock ms between ticks (default 250). */
	tickMs?: number;
	/** Start time of a manual clock (default now), rounded down to a whole second. */
	start?: Date;
	/** Called when a tick listener throws, so one failure does not stop the others. */
	onError?: (error: unknown) => void;
}

/** Creates a real or manual clock. */
export function createClock(options: ClockOptions = {}): EmulatorClock {
	const listeners = new Set<() => void>();
	const onError = options.onError ?? (() => undefined);
	let stopped = false;
	const runListeners = (): void => {
		if (stopped) return;
		for (const listener of [...listeners]) {
			try {
				listener();
			} catch (error) {
				onError(error);
			}
		}
	};
	if (options.mode === 'manual') {
		// Stored dates have second precision: a manual clock starts on a whole second so that advancing by whole seconds is exact.
		let current = Math.floor((options.start ?? new Date()).getTime() / 1000) * 1000;
		return {
			mode: 'manual',
			now: () => new Date(current),
			advance(ms: number) {
				if (!Number.isFinite(ms) || ms < 0) {
					throw new RangeError('advance(ms) needs a finite, non-negative number of milliseconds.');
				}
				current += ms;
				runListeners();
			},
			onTick(listener) {
				listeners.add(listener);
				return () => listeners.delete(listener);
			},
			stop() {
				stopped = true;
				listeners.clear();
			},
		};
	}
	const speed = options.speed ?? 1;
	if (!Number.isFinite(speed) || speed <= 0) throw new RangeError('The clock speed must be a positive number.');
	const origin = Date.now();
	let timer: NodeJS.Timeout | undefined;
	return {
		mode: 'real',
		now: () => new Date(origin + (Date.now() - origin) * speed),
		advance() {
			throw new Error('Only a manual clock can be advanced; start the emulator with clock: "manual".');
		},
		onTick(listener) {
			listeners.add(listener);
			if (!timer && !stopped) {
				timer = setInterval(runListeners, options.tickMs ?? 250);
				// Never keep the process alive just for the sandbox's background work.
				timer.unref();
			}
			return () => listeners.delete(listener);
		},
		stop() {
			stopped = true;
			if (timer) clearInterval(timer);
			timer = undefined;
			listeners.clear();
		},
	};
}
