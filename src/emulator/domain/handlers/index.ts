/**
 * The 20 operations of the service over the sandbox store, one module per resource. Handlers get
 * parameters already decoded by a binding and return plain records; anything the caller did wrong is
 * a client FaultError. The table below is typed as every operation: one missing, or a name the
 * catalogue does not have, does not compile.
 */
import type { QuotaStates } from '../quota';
import type { OperationName } from '../../../protocol/catalogue';
import type { Store } from '../../store/store';
import { setHashingBudget } from '../access';
import type { HashingBudgetOptions } from '../hashingBudget';
import { AdvertRecords } from '../advertRecords';
import { accountHandlers } from './accounts';
import { advertHandlers } from './adverts';
import { applicationHandlers } from './applications';
import { candidateHandlers } from './candidates';
import { feedHandlers } from './feeds';
import type { HandlerDeps, OperationHandlers } from './handler';
import { lookupHandlers } from './lookups';

export type { OperationHandlers } from './handler';

export interface OperationOptions {
	/** Largest RowsPerPage accepted (default 500). */
	maxPageSize?: number;
	/** Lifetime of GetLoginURL tokens (default 5 minutes). */
	loginUrlTtlMs?: number;
	/** How much password hashing a client and the whole sandbox may cause (defaults: hashingBudget.ts). */
	hashingBudget?: HashingBudgetOptions;
	/** Quota states held by failure scenarios (none without them). */
	quotaStates?: QuotaStates;
}

/**
 * Whether each operation writes. The pipeline commits writes read in the same turn as one group
 * (pipeline/groupCommit.ts); a read runs at once. Typed as every operation: a new one must say.
 */
export const WRITING_OPERATIONS: Readonly<Record<OperationName, boolean>> = {
	UserFeedsAndQuotaWithDestinations: false,
	GetAdvertWithValuesPaged: false,
	GetAdvertWithValues: false,
	GetAdvertPaged: false,
	ExpressPostAdvert: true,
	AddAdvert: true,
	AdvertTrackingResponseLog: false,
	CandidateTagPartner: true,
	CandidateTag: true,
	QueryJobTitle: false,
	// A one-time login token.
	GetLoginURL: true,
	GetCurrency: false,
	ApplicationScore: true,
	AddAdvertCandidateNote: true,
	ApplicationProgress: true,
	GetApplicationsPaged: false,
	UserList: false,
	FeedQuotaList: false,
	GetWeeksToAdvertise: false,
	FeedList: false,
};

export const DEFAULT_MAX_PAGE_SIZE = 500;
export const DEFAULT_LOGIN_URL_TTL_MS = 5 * 60_000;

export function createOperationHandlers(store: Store, options: OperationOptions = {}): OperationHandlers {
	if (options.hashingBudget) setHashingBudget(store, options.hashingBudget);
	const deps: HandlerDeps = {
		store,
		maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE,
		loginUrlTtlMs: options.loginUrlTtlMs ?? DEFAULT_LOGIN_URL_TTL_MS,
		advertRecords: new AdvertRecords(store),
		quotaStates: options.quotaStates,
	};
	return {
		...feedHandlers(deps),
		...advertHandlers(deps),
		...applicationHandlers(deps),
		...candidateHandlers(deps),
		...lookupHandlers(deps),
		...accountHandlers(deps),
	};
}
