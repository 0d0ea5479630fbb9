/**
 * Breakpoints, as Fiddler's: a request that matches one (by operation, or by a Traffic-view filter) is
 * held before it is sent on, shown to a person as its redacted text, and then sent on as it was or as
 * edited, answered locally with a chosen fault, or released unchanged when nobody decides in time.
 * What a person sees and edits carries placeholders, never the credentials: they are put back only
 * when the request is sent on, and never leave this process.
 */
import type { BindingName } from '../../protocol/bindings/types';
import type { Endpoint, OperationName } from '../../protocol/catalogue';
import type { Fault } from '../../protocol/faults';
import { parseFilter } from '../journal/filterText';
import type { JournalFilter } from '../journal/journal';

/** Longest a request is held by default before it is released unchanged. */
export const DEFAULT_HOLD_MS = 60_000;
/** Requests held at once at most; more pass on unheld (and say so in the journal). */
export const MAX_HELD = 20;
const MAX_BREAKPOINTS = 50;

export interface BreakpointSpec {
	/** Hold every request of this operation. */
	operation?: string;
	/** Hold requests that pass this Traffic-view filter (`op:`, `client:`, `upstream:` and free text). */
	filter?: string;
	/** Longest hold, ms (default 60 s; at most 10 minutes). */
	holdMs?: number;
}

export interface Breakpoint extends BreakpointSpec {
	id: number;
	/** What it holds, in words. */
	description: string;
}

/** A request as held: redacted (credentials as placeholders), for a person to read and edit. */
export interface HeldRequest {
	id: number;
	breakpoint: number;
	time: string;
	/** When it is released unchanged unless decided. */
	releaseAt: string;
	client: string;
	upstream?: string;
	method: string;
	path: string;
	query: string;
	headers: Record<string, string>;
	body: string;
	endpoint?: Endpoint;
	binding?: BindingName;
	operation?: OperationName;
}

/** What is done with a held request. */
export type HoldDecision =
	/** Sent on; `query` and `body` replace the held ones when given (placeholders are filled in again). */
	| { action: 'send'; query?: string; body?: string }
	/** Answered here with this fault, in the request's binding; nothing is sent on. */
	| { action: 'fault'; fault: Fault }
	/** Sent on unchanged (also what a timeout does). */
	| { action: 'release' };

/** What the holder learns about a request before it is held. */
export interface HoldCandidate {
	client: string;
	upstream?: string;
	operation?: OperationName;
	path: string;
	query: string;
	/** The body as redacted text. */
	body: string;
}

interface Holding {
	request: HeldRequest;
	resolve(decision: HoldDecision & { timedOut?: boolean }): void;
	timer: NodeJS.Timeout;
}

function describe(spec: BreakpointSpec): string {
	return [spec.operation ? `operation ${spec.operation}` : '', spec.filter ? `filter "${spec.filter}"` : '']
		.filter(Boolean)
		.join(' and ');
}

function matches(filter: JournalFilter, candidate: HoldCandidate): boolean {
	if (filter.operation && (candidate.operation ?? '').toLowerCase() !== filter.operation.toLowerCase()) return false;
	if (filter.client && !candidate.client.includes(filter.client)) return false;
	if (filter.upstream) {
		const wanted = filter.upstream.toLowerCase();
		if (
			wanted === 'sandbox'
				? candidate.upstream !== undefined
				: !candidate.upstream?.toLowerCase().includes(wanted)
		) {
			return false;
		}
	}
	if (filter.text) {
		const wanted = filter.text.toLowerCase();
		const fields = [candidate.path, candidate.query, candidate.operation ?? '', candidate.body];
		if (!fields.some((field) => field.toLowerCase().includes(wanted))) return false;
	}
	return true;
}

export class Breakpoints {
	private readonly breakpoints: { breakpoint: Breakpoint; filter: JournalFilter }[] = [];
	private readonly holding = new Map<number, Holding>();
	private nextBreakpoint = 1;
	private nextHeld = 1;
	private readonly waiters = new Set<() => void>();
	/** Counts every change of the held requests, so a poller misses none between two polls. */
	private versionValue = 0;

	get version(): number {
		return this.versionValue;
	}

	/** True when any breakpoint is set: requests are checked only then. */
	get armed(): boolean {
		return this.breakpoints.length > 0;
	}

	add(spec: BreakpointSpec): Breakpoint {
		if (!spec.operation && !spec.filter?.trim()) {
			throw new Error('A breakpoint needs an operation or a filter.');
		}
		if (this.breakpoints.length >= MAX_BREAKPOINTS) throw new Error(`At most ${MAX_BREAKPOINTS} breakpoints.`);
		const holdMs = Math.min(Math.max(spec.holdMs ?? DEFAULT_HOLD_MS, 1_000), 600_000);
		const breakpoint: Breakpoint = { id: this.nextBreakpoint++, ...spec, holdMs, description: describe(spec) };
		const filter = parseFilter(spec.filter ?? '');
		if (spec.operation) filter.operation = spec.operation;
		this.breakpoints.push({ breakpoint, filter });
		return breakpoint;
	}

	remove(id: number): boolean {
		const index = this.breakpoints.findIndex((item) => item.breakpoint.id === id);
		if (index < 0) return false;
		this.breakpoints.splice(index, 1);
		return true;
	}

	/** Removes every breakpoint and releases every held request unchanged. */
	clear(): void {
		this.breakpoints.length = 0;
		for (const id of [...this.holding.keys()]) this.decide(id, { action: 'release' });
	}

	list(): Breakpoint[] {
		return this.breakpoints.map((item) => item.breakpoint);
	}

	/** The first breakpoint the request meets, if any. */
	match(candidate: HoldCandidate): Breakpoint | undefined {
		return this.breakpoints.find((item) => matches(item.filter, candidate))?.breakpoint;
	}

	/** True when another request may be held now. */
	get room(): boolean {
		return this.holding.size < MAX_HELD;
	}

	/** Holds a request until decided or until its breakpoint's time is up (then it is released unchanged). */
	hold(
		breakpoint: Breakpoint,
		request: Omit<HeldRequest, 'id' | 'breakpoint' | 'time' | 'releaseAt'>,
		signal?: AbortSignal,
	): Promise<HoldDecision & { timedOut?: boolean }> {
		const now = Date.now();
		const holdMs = breakpoint.holdMs ?? DEFAULT_HOLD_MS;
		const held: HeldRequest = {
			id: this.nextHeld++,
			breakpoint: breakpoint.id,
			time: new Date(now).toISOString(),
			releaseAt: new Date(now + holdMs).toISOString(),
			...request,
		};
		return new Promise((resolve) => {
			const finish = (decision: HoldDecision & { timedOut?: boolean }): void => {
				clearTimeout(timer);
				signal?.removeEventListener('abort', onAbort);
				this.holding.delete(held.id);
				this.changed();
				resolve(decision);
			};
			const onAbort = (): void => finish({ action: 'release' });
			const timer = setTimeout(() => finish({ action: 'release', timedOut: true }), holdMs);
			timer.unref();
			signal?.addEventListener('abort', onAbort);
			this.holding.set(held.id, { request: held, resolve: finish, timer });
			this.changed();
		});
	}

	held(): HeldRequest[] {
		return [...this.holding.values()].map((holding) => holding.request);
	}

	get(id: number): HeldRequest | undefined {
		return this.holding.get(id)?.request;
	}

	/** Decides a held request; false when it is no longer held. */
	decide(id: number, decision: HoldDecision): boolean {
		const holding = this.holding.get(id);
		if (!holding) return false;
		holding.resolve(decision);
		return true;
	}

	/** Resolves once the held requests changed since `afterVersion`, after `ms`, or when `signal` aborts. */
	waitForChange(afterVersion: number, ms: number, signal?: AbortSignal): Promise<void> {
		if (this.versionValue !== afterVersion || signal?.aborted) return Promise.resolve();
		return new Promise((resolve) => {
			const done = (): void => {
				clearTimeout(timer);
				this.waiters.delete(done);
				signal?.removeEventListener('abort', done);
				resolve();
			};
			const timer = setTimeout(done, ms);
			timer.unref();
			this.waiters.add(done);
			signal?.addEventListener('abort', done);
		});
	}

	private changed(): void {
		this.versionValue++;
		for (const waiter of [...this.waiters]) waiter();
	}
}
