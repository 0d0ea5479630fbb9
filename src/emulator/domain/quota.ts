/**
 * Feed quota as a user spends it: the user's own quota rows, else the nearest organisation's, against
 * the postings the user made. Every posting (completion page, ExpressPostAdvert) checks it and makes
 * its postings in one transaction, so racing postings cannot spend more than the quota.
 */
import type { Store } from '../store/store';
import type { FeedQuotaRow, UserRow } from '../store/types';

/** A feed a user may post to, with what the user has used of its quota. */
export interface FeedAllowance {
	feed: FeedQuotaRow;
	used: number;
	quota: number;
}

/**
 * A quota state a failure scenario holds (scenarios/engine.ts): the feed's use reads as its quota
 * (exhausted) or one below (nearly exhausted) in every read and check, without writing anything.
 */
export interface QuotaStates {
	quotaState(feedId: number): 'exhausted' | 'nearlyExhausted' | undefined;
}

/** The use of a feed's quota as reads and checks see it: the postings made, or the scenario's state. */
export function usedUnder(states: QuotaStates | undefined, feedId: number, used: number, quota: number): number {
	const state = states?.quotaState(feedId);
	if (state === 'exhausted') return Math.max(used, quota);
	if (state === 'nearlyExhausted') return Math.max(used, quota - 1, 0);
	return used;
}

/** The user's feeds with quota use, ordered by feed name. Read it inside the transaction that posts. */
export function feedAllowances(store: Store, user: UserRow, states?: QuotaStates): FeedAllowance[] {
	const used = store.postings.usedByUser(user.id);
	return store.feeds.userQuotas(user).map((feed) => {
		const quota = Number(feed.effectiveQuota) || 0;
		return { feed, used: usedUnder(states, feed.id, used.get(feed.id) ?? 0, quota), quota };
	});
}

/** Whether one more posting would spend more than the quota. */
export function isUsedUp(allowance: { used: number; quota: number }): boolean {
	return allowance.used >= allowance.quota;
}
