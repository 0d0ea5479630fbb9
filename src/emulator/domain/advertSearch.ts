/** The advert search shared by the GetAdvert* operations and ExpressPostAdvert. */
import { ADVERT_STATUS } from '../../protocol/catalogue';
import type { AdvertSearch } from '../store/adverts';
import { ADVERT_ORDER_FIELDS, type OrderTerm } from '../store/ordering';
import type { Store } from '../store/store';
import { daysBefore, toStoredDate } from '../store/time';
import { searchScope, type KeyScope } from './access';
import type { RequestContext } from './context';
import { orderTerms } from './paging';
import type { ParamReader } from './paramReader';

/** Largest sSearchDays accepted (100 years); -1 means all time. */
export const MAX_SEARCH_DAYS = 36_500;
/** sSearchDays when the caller gives none. */
export const DEFAULT_SEARCH_DAYS = 30;

/** The parameters that choose adverts (every advert search has them). */
export type AdvertSearchParam =
	| 'sStartOrganisation'
	| 'sUsername'
	| 'sUserIdentifier'
	| 'sAdvertID'
	| 'sAdvertIdentifier'
	| 'sAdvertReference'
	| 'sSearchDays';

/** The further filters of the GetAdvert* searches. */
export type AdvertFilterParam = 'sAdvertStatusIDs' | 'sHideFutureJobs' | 'sLastScoreDate' | 'sLastProgressDate';

/** The earliest stored date sSearchDays lets a search see, or undefined for all time (-1). */
export function searchSince(params: ParamReader<'sSearchDays'>, now: Date): string | undefined {
	const searchDays = params.integer('sSearchDays', { min: -1, max: MAX_SEARCH_DAYS }) ?? DEFAULT_SEARCH_DAYS;
	return searchDays === -1 ? undefined : toStoredDate(daysBefore(now, searchDays));
}

/** An advert search from the parameters, inside the key's scope; live statuses (Created, ToAuthorise) only. */
export function advertSearch(
	store: Store,
	params: ParamReader<AdvertSearchParam>,
	ctx: RequestContext,
	key: KeyScope,
): AdvertSearch {
	const scope = searchScope(store, key, params);
	const advertId = params.id('sAdvertID');
	const since = searchSince(params, ctx.now);
	return {
		organisationIds: scope.organisationIds,
		userId: scope.userId,
		advertId,
		identifier: params.text('sAdvertIdentifier'),
		reference: params.text('sAdvertReference'),
		// An AdvertID names one advert exactly, so the search window does not apply to it.
		since: advertId !== undefined ? undefined : since,
		statusIds: [ADVERT_STATUS.Created, ADVERT_STATUS.ToAuthorise],
	};
}

/** An advert search with the GetAdvert* filters (statuses, future jobs, score and progress dates). */
export function filteredAdvertSearch(
	store: Store,
	params: ParamReader<AdvertSearchParam | AdvertFilterParam>,
	ctx: RequestContext,
	key: KeyScope,
): AdvertSearch {
	const search = advertSearch(store, params, ctx, key);
	search.statusIds = params.numericCsv('sAdvertStatusIDs') ?? search.statusIds;
	search.hideScheduledAfter = params.flag('sHideFutureJobs') ? toStoredDate(ctx.now) : undefined;
	search.lastScoreSince = params.dateTime('sLastScoreDate');
	search.lastProgressSince = params.dateTime('sLastProgressDate');
	return search;
}

/** The OrderBy of an advert search. */
export function advertOrder(params: ParamReader<'OrderBy'>): OrderTerm<keyof typeof ADVERT_ORDER_FIELDS>[] {
	return orderTerms(params, ADVERT_ORDER_FIELDS);
}
