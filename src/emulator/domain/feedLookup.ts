/** Feeds named in parameters, and the feeds with quota of whoever an operation acts for. */
import { FaultError } from '../../protocol/faults';
import type { Store } from '../store/store';
import type { FeedQuotaRow } from '../store/types';
import type { ActingTarget } from './access';

/** FeedIDs of FeedID or FeedIdentifier tokens; an unknown one is a fault naming the parameter. */
export function resolveFeeds(
	store: Store,
	tokens: readonly string[] | undefined,
	parameter: string,
): number[] | undefined {
	if (!tokens) return undefined;
	return tokens.map((token) => {
		const feed = store.feeds.find(token);
		if (!feed) {
			throw FaultError.client(
				'InvalidParameter',
				`${parameter}: '${token}' is not a known FeedID or FeedIdentifier.`,
			);
		}
		return feed.id;
	});
}

/** A user's feeds (own quota, else inherited), or an organisation's when acting for one. */
export function feedQuotasOf(store: Store, target: ActingTarget): FeedQuotaRow[] {
	return target.user ? store.feeds.userQuotas(target.user) : store.feeds.organisationQuotas(target.organisationId);
}
