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

/** The user's feeds with quota use, ordered by feed name. Read it inside the transaction that posts. */
export function feedAllowances(store: Store, user: UserRow): FeedAllowance[] {
	const used = store.postings.usedByUser(user.id);
	return store.feeds.userQuotas(user).map((feed) => ({
		feed,
		used: used.get(feed.id) ?? 0,
		quota: Number(feed.effectiveQuota) || 0,
	}));
}

/** Whether one more posting would spend more than the quota. */
export function isUsedUp(allowance: { used: number; quota: number }): boolean {
	return allowance.used >= allowance.quota;
}
