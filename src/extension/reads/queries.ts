/**
 * The extension's read side: every search it sends, named for what it asks. The tree, the panels,
 * the keys and Find read through these (the writes live in ../actions/). Stateless: each takes a client.
 */
import type { MultipostingClient } from '../../client';
import type { Advert, APIApplication, CUser } from '../../protocol/catalogue';

/** The earliest application date, for searches that need a time period but mean "ever". */
export const ALL_TIME_START = '2000-01-01 00:00:00';
/** sSearchDays meaning every advert, however old. */
const ALL_DAYS = '-1';
/** The service's largest page. */
export const MAX_ROWS_PER_PAGE = 500;

export interface ReadOptions {
	signal?: AbortSignal;
}

/** One page of a search. */
export interface Page<T> {
	items: T[];
	pageCount?: number;
	total?: number;
}

/** Whose adverts: a user, by username when known, else by UserID. */
export interface UserScope {
	userId: number;
	username?: string;
}

export interface AdvertFilters {
	/** sSearchDays; default every advert. */
	searchDays?: string;
	/** sAdvertStatusIDs, comma-separated. */
	advertStatusIds?: string;
}

export interface ApplicationFilters {
	orderBy?: string;
	ranking?: string;
	progressIds?: string;
	from?: string;
	to?: string;
}

/** The document an application read includes (each is a boolInclude* flag of the search). */
export type IncludedDocument =
	| 'boolIncludeEmailBody'
	| 'boolIncludeAttachment'
	| 'boolIncludeParsed'
	| 'boolIncludeEmail';

/** Identifies one application: its id, and its advert's when known (which narrows the search). */
export interface ApplicationKey {
	advertCandidateId: number;
	advertId?: number;
}

export type FindBy = 'advertId' | 'advertIdentifier' | 'advertReference' | 'applicationId';

/** A page of a paged search's answer. */
function pageOf<T>(items: T[] | undefined, result: { PageCount?: number; TotalItemCount?: number }): Page<T> {
	return { items: items ?? [], pageCount: result.PageCount, total: result.TotalItemCount };
}

function scopeOf(user: UserScope): { sUsername?: string; sUserIdentifier?: string } {
	return user.username ? { sUsername: user.username } : { sUserIdentifier: String(user.userId) };
}

function advertFilterParams(filters: AdvertFilters): { sSearchDays: string; sAdvertStatusIDs?: string } {
	return { sSearchDays: filters.searchDays ?? ALL_DAYS, sAdvertStatusIDs: filters.advertStatusIds };
}

/** The users visible to the login (UserList; administrators only), from an organisation down when given. */
export function usersUnder(
	client: MultipostingClient,
	startOrganisation: string | undefined,
	options: ReadOptions = {},
): Promise<CUser[]> {
	return client.userList({ sStartOrganisation: startOrganisation }, options);
}

/** The adverts of a part of the account (every date), for logins that cannot list users. */
export async function advertsUnder(
	client: MultipostingClient,
	startOrganisation: string | undefined,
	options: ReadOptions = {},
): Promise<Advert[]> {
	const page = await client.getAdvertPaged(
		{
			sStartOrganisation: startOrganisation,
			sSearchDays: ALL_DAYS,
			CurrentPage: 1,
			RowsPerPage: MAX_ROWS_PER_PAGE,
		},
		options,
	);
	return page.Adverts ?? [];
}

/** One advert by AdvertID (every date); undefined when the login cannot see it. */
export async function advertById(
	client: MultipostingClient,
	advertId: number,
	options: ReadOptions = {},
): Promise<Advert | undefined> {
	const page = await client.getAdvertPaged(
		{ sAdvertID: String(advertId), sSearchDays: ALL_DAYS, CurrentPage: 1, RowsPerPage: 1 },
		options,
	);
	return page.Adverts?.find((a) => a.AdvertID === advertId) ?? page.Adverts?.[0];
}

/** The extra field values of one advert (every date). */
export function advertValues(client: MultipostingClient, advertId: number, options: ReadOptions = {}) {
	return client.getAdvertWithValues({ sAdvertID: String(advertId), sSearchDays: ALL_DAYS }, options);
}

/** The names of the job boards of the login, by FeedID. */
export async function feedNames(client: MultipostingClient, options: ReadOptions = {}): Promise<Map<number, string>> {
	const feeds = await client.userFeedsAndQuotaWithDestinations({}, options);
	return new Map(
		feeds.filter((f) => f.FeedID !== undefined && f.FeedName).map((f) => [f.FeedID!, f.FeedName!] as const),
	);
}

/** A page of a user's adverts. */
export async function advertsOfUser(
	client: MultipostingClient,
	user: UserScope,
	filters: AdvertFilters,
	page: number,
	rowsPerPage: number,
	options: ReadOptions = {},
): Promise<Page<Advert>> {
	const result = await client.getAdvertPaged(
		{ ...scopeOf(user), ...advertFilterParams(filters), CurrentPage: page, RowsPerPage: rowsPerPage },
		options,
	);
	return pageOf(result.Adverts, result);
}

/** How many of a user's adverts match the filters. */
export async function advertCountOfUser(
	client: MultipostingClient,
	user: UserScope,
	filters: AdvertFilters,
	options: ReadOptions = {},
): Promise<number | undefined> {
	return (await advertsOfUser(client, user, filters, 1, 1, options)).total;
}

/** A page of an advert's applications. */
export async function applicationsOfAdvert(
	client: MultipostingClient,
	advertId: number,
	filters: ApplicationFilters,
	page: number,
	rowsPerPage: number,
	options: ReadOptions = {},
): Promise<Page<APIApplication>> {
	const result = await client.getApplicationsPaged(
		{
			sAdvertID: String(advertId),
			OrderBy: filters.orderBy,
			RankingAsCSV: filters.ranking,
			ProgressIDAsCSV: filters.progressIds,
			sApplicationStartDateTime: filters.from,
			sApplicationEndDateTime: filters.to,
			CurrentPage: page,
			RowsPerPage: rowsPerPage,
		},
		options,
	);
	return pageOf(result.Applications, result);
}

/** The first application of a user's adverts received since a date (a sample, e.g. for an organisation's name). */
export async function applicationOfUserSince(
	client: MultipostingClient,
	user: UserScope,
	start: string,
	options: ReadOptions = {},
): Promise<Page<APIApplication>> {
	const result = await client.getApplicationsPaged(
		{ ...scopeOf(user), sApplicationStartDateTime: start, CurrentPage: 1, RowsPerPage: 1 },
		options,
	);
	return pageOf(result.Applications, result);
}

/**
 * The GetApplicationsPaged parameters that read exactly one application, with one document when asked.
 * Without its advert the search needs a time period, so it covers all time.
 */
export function applicationParams(key: ApplicationKey, include?: IncludedDocument) {
	return {
		AdvertCandidateIDAsCSV: String(key.advertCandidateId),
		...(key.advertId !== undefined
			? { sAdvertID: String(key.advertId) }
			: { sApplicationStartDateTime: ALL_TIME_START }),
		...(include ? { [include]: 'true' } : {}),
		CurrentPage: 1,
		RowsPerPage: 1,
	};
}

/** One application by AdvertCandidateID; undefined when the login cannot see it. */
export async function applicationById(
	client: MultipostingClient,
	key: ApplicationKey,
	include?: IncludedDocument,
	options: ReadOptions = {},
): Promise<APIApplication | undefined> {
	const page = await client.getApplicationsPaged(applicationParams(key, include), options);
	return page.Applications?.find((a) => a.AdvertCandidateID === key.advertCandidateId);
}

/** Adverts or applications matching what the user has (Find), optionally from an organisation down. */
export async function find(
	client: MultipostingClient,
	by: FindBy,
	text: string,
	startOrganisation?: string,
	options: ReadOptions = {},
): Promise<Array<{ advert: Advert } | { application: APIApplication }>> {
	const value = text.trim();
	if (by === 'applicationId') {
		const page = await client.getApplicationsPaged(
			{
				sStartOrganisation: startOrganisation,
				AdvertCandidateIDAsCSV: value,
				sApplicationStartDateTime: ALL_TIME_START,
				CurrentPage: 1,
				RowsPerPage: 10,
			},
			options,
		);
		return (page.Applications ?? []).map((application) => ({ application }));
	}
	const filter =
		by === 'advertId'
			? { sAdvertID: value }
			: by === 'advertIdentifier'
				? { sAdvertIdentifier: value }
				: { sAdvertReference: value };
	const page = await client.getAdvertPaged(
		{ ...filter, sStartOrganisation: startOrganisation, sSearchDays: ALL_DAYS, CurrentPage: 1, RowsPerPage: 50 },
		options,
	);
	return (page.Adverts ?? []).map((advert) => ({ advert }));
}
