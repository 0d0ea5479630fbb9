/**
 * The journal's control routes, as WireMock's `/__admin/requests`: list (filters), one exchange with
 * production's verdict, clear. Read-only for the sandbox's data: clearing forgets the journal only.
 */
import type { Journal, JournalFilter } from '../journal/journal';
import type { JournalEntry } from '../journal/types';
import { cachedVerdictOf, type VerdictContext } from '../journal/verdict';
import { ControlError, type ControlRouter } from './router';

/** Longest a list request may wait for a newer exchange (`wait`, seconds). */
export const MAX_WAIT_SECONDS = 30;
const DEFAULT_LIMIT = 100;

function integer(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
	const text = query.get(name);
	if (text === null || text === '') return undefined;
	const value = Number(text);
	if (!Number.isInteger(value) || value < min || value > max) {
		throw new ControlError(400, `${name} must be a whole number from ${min} to ${max}; got "${text}".`);
	}
	return value;
}

/** The filters of `GET /__admin/requests` from its query. */
export function filterOf(query: URLSearchParams): JournalFilter {
	const since = query.get('since');
	const sinceDate = since ? new Date(since) : undefined;
	if (sinceDate && Number.isNaN(sinceDate.getTime())) {
		throw new ControlError(400, `since must be a date and time (ISO 8601); got "${since}".`);
	}
	const status = query.get('status') ?? undefined;
	if (status && !/^([1-5]\d\d|[1-5]xx)$/i.test(status)) {
		throw new ControlError(400, `status must be a status code (500) or a class (5xx); got "${status}".`);
	}
	return {
		operation: query.get('operation') ?? undefined,
		status,
		client: query.get('client') ?? undefined,
		upstream: query.get('upstream') ?? undefined,
		text: query.get('text') ?? undefined,
		since: sinceDate,
		afterId: integer(query, 'after', 0, Number.MAX_SAFE_INTEGER),
		limit: integer(query, 'limit', 1, 10_000) ?? DEFAULT_LIMIT,
	};
}

/** Registers `/__admin/requests` (GET, DELETE) and `/__admin/requests/:id` (GET). */
export function registerJournalRoutes(
	router: ControlRouter,
	journal: Journal,
	verdicts: (entry: JournalEntry) => VerdictContext,
): void {
	router
		.add('GET', '/__admin/requests', async ({ query, signal }) => {
			const filter = filterOf(query);
			const wait = integer(query, 'wait', 0, MAX_WAIT_SECONDS);
			if (wait && filter.afterId !== undefined) await journal.waitForNewer(filter.afterId, wait * 1000, signal);
			const stats = journal.stats();
			return {
				body: {
					requests: journal.list(filter),
					meta: { kept: stats.count, lastId: stats.lastId, capacity: stats.capacity },
				},
			};
		})
		.add('GET', '/__admin/requests/:id', async ({ params }) => {
			const id = Number(params.id);
			const entry = Number.isInteger(id) ? journal.get(id) : undefined;
			if (!entry) {
				throw new ControlError(
					404,
					`No exchange ${params.id} in the journal (it keeps the last ${journal.stats().capacity}).`,
				);
			}
			return { body: { ...entry, verdict: await cachedVerdictOf(entry, verdicts(entry)) } };
		})
		.add('DELETE', '/__admin/requests', () => ({ body: { cleared: journal.clear() } }));
}
