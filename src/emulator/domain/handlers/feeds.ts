/** Feed operations: a user's feeds with quota, and the feed lists of the administration endpoint. */
import { actingTarget, authenticateUser } from '../access';
import { feedQuotasOf, resolveFeeds } from '../feedLookup';
import { usedUnder } from '../quota';
import { feedQuotaRecord, postFeedRecord } from '../records';
import { guarded, type HandlerDeps, type HandlersFor } from './handler';

export type FeedOperation = 'UserFeedsAndQuotaWithDestinations' | 'FeedQuotaList' | 'FeedList';

export function feedHandlers({ store, quotaStates }: HandlerDeps): HandlersFor<FeedOperation> {
	return {
		UserFeedsAndQuotaWithDestinations: guarded(store, 'UserFeedsAndQuotaWithDestinations', (params, ctx, key) => {
			const user = authenticateUser(store, key, params, ctx);
			const feedIds = resolveFeeds(store, params.csv('Destinations'), 'Destinations');
			const used = store.postings.usedByUser(user.id);
			return store.feeds
				.userQuotas(user)
				.filter((row) => !feedIds || feedIds.includes(row.id))
				.map((row) =>
					postFeedRecord(
						row,
						user.id,
						usedUnder(quotaStates, row.id, used.get(row.id) ?? 0, Number(row.effectiveQuota) || 0),
					),
				);
		}),

		FeedQuotaList: guarded(store, 'FeedQuotaList', (params, ctx, key) => {
			const login = authenticateUser(store, key, params, ctx);
			const feedIds = resolveFeeds(store, params.csv('DestinationsAsCSV'), 'DestinationsAsCSV');
			return feedQuotasOf(store, actingTarget(store, key, login, params))
				.filter((row) => !feedIds || feedIds.includes(row.id))
				.map(feedQuotaRecord);
		}),

		FeedList: guarded(store, 'FeedList', (params, ctx, key) => {
			const login = authenticateUser(store, key, params, ctx);
			const search = params.text('sFeedNameSearch')?.toLowerCase();
			return feedQuotasOf(store, actingTarget(store, key, login, params))
				.filter(
					(row) =>
						search === undefined ||
						row.name.toLowerCase().includes(search) ||
						row.identifier.toLowerCase().includes(search),
				)
				.map((row) => ({ FeedID: row.id, FeedIdentifier: row.identifier, FeedName: row.name }));
		}),
	};
}
