/** Advert operations: the GetAdvert* searches, AddAdvert, ExpressPostAdvert and the tracking log. */
import type { APIPosting } from '../../../protocol/catalogue';
import { DELIVERY_STATUS } from '../../../protocol/catalogue';
import { renderDateText } from '../../../protocol/codecs/scalars';
import { FaultError } from '../../../protocol/faults';
import { daysBefore, toStoredDate } from '../../store/time';
import type { AdvertRow } from '../../store/types';
import { authenticateUser, searchScope, userSeesAdvert, type KeyScope } from '../access';
import { advertFields, lookupLocation } from '../advertFields';
import { advertOrder, advertSearch, filteredAdvertSearch, searchSince } from '../advertSearch';
import type { RequestContext } from '../context';
import { resolveFeeds } from '../feedLookup';
import { pageInfo } from '../paging';
import { feedAllowances, isUsedUp } from '../quota';
import { pageOf, type OperationParams } from '../paramReader';
import { trackingLogRecord } from '../records';
import { guarded, type HandlerDeps, type HandlersFor } from './handler';
import { randomToken } from '../tokens';

/** A posting is expected to stay live for this long. */
const POSTING_LIFETIME_DAYS = 28;

export type AdvertOperation =
	| 'GetAdvertWithValuesPaged'
	| 'GetAdvertWithValues'
	| 'GetAdvertPaged'
	| 'ExpressPostAdvert'
	| 'AddAdvert'
	| 'AdvertTrackingResponseLog';

export function advertHandlers(deps: HandlerDeps): HandlersFor<AdvertOperation> {
	const { store, maxPageSize, advertRecords } = deps;
	return {
		GetAdvertWithValuesPaged: guarded(store, 'GetAdvertWithValuesPaged', (params, ctx, key) => {
			const search = filteredAdvertSearch(store, params, ctx, key);
			const page = pageOf(params, maxPageSize);
			const result = store.adverts.search(search, advertOrder(params), {
				offset: page.offset,
				limit: page.rowsPerPage,
			});
			return Object.assign(pageInfo(result.total, page), {
				AdvertWithValues: advertRecords.withValues(result.rows, params),
			});
		}),

		GetAdvertWithValues: guarded(store, 'GetAdvertWithValues', (params, ctx, key) => {
			const rows = store.adverts.search(filteredAdvertSearch(store, params, ctx, key), []).rows;
			return advertRecords.withValues(rows, params);
		}),

		GetAdvertPaged: guarded(store, 'GetAdvertPaged', (params, ctx, key) => {
			const search = filteredAdvertSearch(store, params, ctx, key);
			const page = pageOf(params, maxPageSize);
			const result = store.adverts.search(search, advertOrder(params), {
				offset: page.offset,
				limit: page.rowsPerPage,
			});
			return Object.assign(pageInfo(result.total, page), { Adverts: advertRecords.of(result.rows) });
		}),

		ExpressPostAdvert: guarded(store, 'ExpressPostAdvert', (params, ctx, key) =>
			expressPostAdvert(deps, params, ctx, key),
		),

		AddAdvert: guarded(store, 'AddAdvert', (params, ctx, key) => addAdvert(deps, params, ctx, key)),

		AdvertTrackingResponseLog: guarded(store, 'AdvertTrackingResponseLog', (params, _ctx, key) => {
			const scope = searchScope(store, key, params);
			const advertId = params.requiredId('sAdvertID');
			const advert = store.adverts.byId(advertId);
			if (
				!advert ||
				!scope.organisationIds.includes(advert.organisationId) ||
				(scope.userId !== undefined && advert.userId !== scope.userId)
			) {
				throw FaultError.client('NotFound', `sAdvertID ${advertId} is not an advert within your scope.`);
			}
			const postingId = params.id('sPostingID');
			if (postingId !== undefined && store.postings.byId(postingId)?.advertId !== advertId) {
				throw FaultError.client('NotFound', `sPostingID ${postingId} is not a posting of advert ${advertId}.`);
			}
			const feedIds = resolveFeeds(store, params.csv('Destinations'), 'Destinations');
			return store.postings.trackingLogs(advertId, postingId, feedIds).map(trackingLogRecord);
		}),
	};
}

/** Posts an advert again, at once, to feeds it was posted to before. */
function expressPostAdvert(
	deps: HandlerDeps,
	params: OperationParams<'ExpressPostAdvert'>,
	ctx: RequestContext,
	key: KeyScope,
) {
	const { store, advertRecords } = deps;
	const choosers = ['sAdvertID', 'sAdvertIdentifier', 'sAdvertReference'] as const;
	if (!choosers.some((name) => params.text(name) !== undefined)) {
		throw FaultError.client(
			'MissingParameter',
			'Give sAdvertID, sAdvertIdentifier or sAdvertReference to choose the advert to post again.',
		);
	}
	// Several instances may match; the most recently posted one is posted again.
	const advert = store.adverts.search(advertSearch(store, params, ctx, key), [], { offset: 0, limit: 1 }).rows[0];
	if (!advert) {
		throw FaultError.client(
			'NotFound',
			'No advert matches the given sAdvertID, sAdvertIdentifier or sAdvertReference within sSearchDays and your scope.',
		);
	}
	const previous = store.postings.postedFeedIds(advert.id);
	if (previous.length === 0) {
		throw FaultError.client(
			'InvalidParameter',
			`Advert ${advert.id} has never been posted, so it cannot be express posted. Complete its posting first.`,
		);
	}
	const requested = resolveFeeds(store, params.csv('DestinationsAsCSV'), 'DestinationsAsCSV');
	const notPosted = (requested ?? []).filter((feedId) => !previous.includes(feedId));
	if (notPosted.length > 0) {
		throw FaultError.client(
			'InvalidParameter',
			`DestinationsAsCSV: advert ${advert.id} was never posted to feed ${notPosted.join(', ')}; express posting only repeats earlier postings (${previous.join(', ')}).`,
		);
	}
	const feedIds = requested ? [...new Set(requested)] : previous;
	const now = toStoredDate(ctx.now);
	const expires = toStoredDate(daysBefore(ctx.now, -POSTING_LIFETIME_DAYS));
	const postings: APIPosting[] = store.transaction(() => {
		// Quota is checked and charged in this transaction, against the advert owner's feeds as they are now.
		assertQuotaLeft(deps, advert.userId, feedIds);
		const created = feedIds.map((feedId) => {
			const postingId = store.postings.insert({
				advertId: advert.id,
				feedId,
				userId: advert.userId,
				postedAt: now,
				estimatedExpireAt: expires,
				deliveryStatusId: DELIVERY_STATUS.Delivered,
				deliveredAt: now,
			});
			store.postings.addTrackingLog(postingId, now, 'Pending', 'Express post queued for delivery.');
			store.postings.addTrackingLog(postingId, now, 'None', 'Delivered: the job board accepted the advert.');
			return {
				sPostDate: renderDateText(now),
				sEstimatedExpireDate: renderDateText(expires),
				sCorrectDate: renderDateText(now),
			};
		});
		store.adverts.markDelivered(advert.id, now, now, DELIVERY_STATUS.Delivered);
		return created;
	});
	const updated = store.adverts.byId(advert.id) ?? advert;
	return { Advert: advertRecords.of([updated])[0], Postings: postings };
}

/** Refuses (QuotaExceeded) when one more posting to any of the feeds would spend more than the owner's quota. */
function assertQuotaLeft({ store, quotaStates }: HandlerDeps, ownerId: number, feedIds: readonly number[]): void {
	const owner = store.accounts.userById(ownerId);
	const allowances = owner ? feedAllowances(store, owner, quotaStates) : [];
	const exhausted = feedIds.flatMap((feedId) => {
		const allowance = allowances.find(({ feed }) => feed.id === feedId);
		if (!allowance) return [`feed ${feedId} (no longer configured for the owner)`];
		return isUsedUp(allowance) ? [`${allowance.feed.name} (${allowance.used} of ${allowance.quota} used)`] : [];
	});
	if (exhausted.length > 0) {
		throw FaultError.client(
			'QuotaExceeded',
			`The posting quota of the advert's owner is used up for ${exhausted.join(', ')}; nothing was posted. Raise the quota or choose other feeds with DestinationsAsCSV.`,
		);
	}
}

/** Creates an advert (or updates one: sAdvertID, sOnDuplicate) and returns its completion link. */
function addAdvert({ store }: HandlerDeps, params: OperationParams<'AddAdvert'>, ctx: RequestContext, key: KeyScope) {
	const user = authenticateUser(store, key, params, ctx);
	const fields = advertFields(params);
	const destinations = resolveFeeds(store, params.csv('DestinationsAsCSV'), 'DestinationsAsCSV');
	if (destinations) {
		const available = new Set(store.feeds.userQuotas(user).map((row) => row.id));
		const unavailable = destinations.filter((feedId) => !available.has(feedId));
		if (unavailable.length > 0) {
			throw FaultError.client(
				'InvalidParameter',
				`DestinationsAsCSV: feed ${unavailable.join(', ')} is not configured for user '${user.username}'.`,
			);
		}
	}
	const location = lookupLocation(fields.primaryLocation ?? undefined);
	const identifier = fields.identifier ?? undefined;
	if (location.coordinates) [fields.latitude, fields.longitude] = location.coordinates;
	// A value outside the set is refused by the rules before dispatch.
	const onDuplicate = (params.text('sOnDuplicate') ?? 'duplicate').toLowerCase();
	const userScope = store.accounts.subtreeIds(user.organisationId);
	const result = (advert: AdvertRow) => ({
		AdvertID: advert.id,
		UserID: advert.userId,
		OrganisationID: advert.organisationId,
		RedirectUrl: `${ctx.baseUrl}/complete-posting/${advert.completionToken}`,
		LocationLookupLogs: location.log,
	});
	return store.transaction(() => {
		const existingId = params.id('sAdvertID');
		let existing: AdvertRow | undefined;
		if (existingId !== undefined) {
			existing = store.adverts.byId(existingId);
			if (
				!existing ||
				!key.organisationIds.includes(existing.organisationId) ||
				!userSeesAdvert(store, user, existing)
			) {
				throw FaultError.client(
					'NotFound',
					`sAdvertID ${existingId} is not an advert user '${user.username}' can update.`,
				);
			}
		} else if (identifier !== undefined && onDuplicate !== 'duplicate') {
			const since = searchSince(params, ctx.now);
			// The same rule as sAdvertID: only an advert the user sees (owns, or administers from above) counts.
			const duplicate = store.adverts
				.withIdentifier(identifier, userScope, since)
				.find((advert) => userSeesAdvert(store, user, advert));
			if (duplicate && onDuplicate === 'ignore') return result(duplicate);
			if (duplicate && onDuplicate === 'error') {
				throw FaultError.client(
					'Duplicate',
					`An advert with identifier '${identifier}' already exists (AdvertID ${duplicate.id}). Use sOnDuplicate=update to change it or duplicate to create another instance.`,
				);
			}
			existing = duplicate;
		}
		if (existing) {
			store.adverts.update(existing.id, fields);
			if (destinations) store.adverts.setDestinations(existing.id, destinations);
			return result(store.adverts.byId(existing.id) ?? existing);
		}
		const advertId = store.adverts.insert({
			...fields,
			userId: user.id,
			organisationId: user.organisationId,
			completionToken: randomToken(18),
			createdAt: toStoredDate(ctx.now),
			source: 'API',
		});
		if (destinations) store.adverts.setDestinations(advertId, destinations);
		const created = store.adverts.byId(advertId);
		if (!created) throw FaultError.server('The advert could not be read back after it was created.');
		return result(created);
	});
}
