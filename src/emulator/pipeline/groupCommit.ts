/**
 * Group commit of write requests. A write handler does not run as soon as its request is read: it is
 * queued, and the writes read in the same turn of the event loop (while the sandbox was busy reading
 * and answering others) run together at the end of that turn, synchronously, in one transaction, each
 * in its own savepoint (Store.groupCommit). One commit then carries many writes' pages, and a page
 * several of them change (an index's last leaf) is written once.
 *
 * Trust is unchanged: a batch runs between two turns of the event loop, so no read ever sees one in
 * progress; a failing request rolls back alone; and each request's promise settles only once the
 * COMMIT has returned, so no answer leaves before its write is committed.
 */
import type { UnitOutcome } from '../store/store';

/** Requests in one batch at most; more wait for the next turn (a batch holds the event loop). */
export const MAX_BATCH = 64;

/** Counts since the start (tests and diagnostics). */
export interface GroupCommitStats {
	batches: number;
	units: number;
	/** Units that ran in a batch of more than one. */
	grouped: number;
}

interface Queued {
	work: () => unknown;
	resolve: (value: unknown) => void;
	reject: (error: unknown) => void;
}

export class GroupCommit {
	private queue: Queued[] = [];
	private scheduled = false;
	private readonly counts: GroupCommitStats = { batches: 0, units: 0, grouped: 0 };

	/** `commit` runs the units of one batch and tells what became of each (Store.groupCommit). */
	constructor(private readonly commit: (units: readonly (() => unknown)[]) => UnitOutcome<unknown>[]) {}

	/** Runs `work` in the next batch; settles with its result or error once the batch has committed. */
	run<T>(work: () => T): Promise<T> {
		return new Promise<T>((resolve, reject) => {
			this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
			this.schedule();
		});
	}

	stats(): GroupCommitStats {
		return { ...this.counts };
	}

	private schedule(): void {
		if (this.scheduled) return;
		this.scheduled = true;
		// setImmediate: after the poll phase, so every request read in this turn joins the batch.
		setImmediate(() => this.flush());
	}

	private flush(): void {
		this.scheduled = false;
		const batch = this.queue.splice(0, MAX_BATCH);
		if (this.queue.length > 0) this.schedule();
		let outcomes: UnitOutcome<unknown>[];
		try {
			outcomes = this.commit(batch.map((queued) => queued.work));
		} catch (error) {
			outcomes = batch.map(() => ({ ok: false, error }));
		}
		this.counts.batches++;
		this.counts.units += batch.length;
		if (batch.length > 1) this.counts.grouped += batch.length;
		batch.forEach((queued, i) => {
			const outcome = outcomes[i];
			if (outcome.ok) queued.resolve(outcome.value);
			else queued.reject(outcome.error);
		});
	}
}
