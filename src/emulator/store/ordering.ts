/**
 * The OrderBy whitelist. A caller's OrderBy text is parsed into terms whose field names must be keys of
 * these maps; only the mapped SQL expressions ever reach a query, never the caller's text.
 */

/** Sortable advert fields (OrderBy of GetAdvertPaged and GetAdvertWithValuesPaged). */
export const ADVERT_ORDER_FIELDS = {
	AdvertID: 'a.id',
	AdvertTitle: 'a.title COLLATE NOCASE',
	AdvertIdentifier: 'a.identifier COLLATE NOCASE',
	AdvertReference: 'a.reference COLLATE NOCASE',
	AdvertStatusID: 'a.status_id',
	LastPostDate: 'a.last_post_date',
	LastDeliveryDate: 'a.last_delivery_date',
	PrimaryLocation: 'a.primary_location COLLATE NOCASE',
	UserID: 'a.user_id',
	OrganisationID: 'a.organisation_id',
} as const;

/** Sortable application fields (OrderBy of GetApplicationsPaged). */
export const APPLICATION_ORDER_FIELDS = {
	AdvertCandidateID: 'ap.id',
	ApplicationDate: 'ap.applied_at',
	LastName: 'c.last_name COLLATE NOCASE',
	FirstName: 'c.first_name COLLATE NOCASE',
	EmailAddress: 'c.email COLLATE NOCASE',
	Score: 'ap.ranking',
	Ranking: 'ap.ranking',
	Favourite: 'ap.favourite',
	ProgressID: 'ap.progress_id',
	AdvertID: 'ap.advert_id',
	AdvertTitle: 'a.title COLLATE NOCASE',
	FeedID: 'ap.feed_id',
	LastScoreDate: 'ap.last_score_date',
	LastProgressDate: 'ap.last_progress_date',
	LastNoteDate: 'ap.last_note_date',
} as const;

export type AdvertOrderField = keyof typeof ADVERT_ORDER_FIELDS;
export type ApplicationOrderField = keyof typeof APPLICATION_ORDER_FIELDS;

export interface OrderTerm<F extends string> {
	field: F;
	descending: boolean;
}

/** Default advert order: most recently posted first (never-posted adverts last), newest id first. */
export const DEFAULT_ADVERT_ORDER = 'coalesce(a.last_post_date, a.created_at) DESC, a.id DESC';

/** ScorePreSort, the first term of the default order (the first column of application_page_order). */
export const PAGE_GROUP = '(CASE WHEN ap.archived = 1 THEN 2 WHEN ap.ranking = 0 THEN 0 ELSE 1 END)';

/**
 * Default application order (spec rule 6). ScorePreSort: 0 = not yet ranked (needs triage),
 * 1 = ranked, 2 = archived. Score = the ranking flag (Suitable 4 > Maybe 2 > Unsuitable 1).
 * ScoreExtra = the CV-to-job match score of the parser (0–100).
 */
export const DEFAULT_APPLICATION_ORDER = `${PAGE_GROUP} ASC, ap.ranking DESC, ap.score_extra DESC, ap.favourite DESC, ap.applied_at DESC, ap.id DESC`;

/**
 * Parses "Field [asc|desc][, Field [asc|desc]]…" (case-insensitive) against a whitelist. Returns
 * undefined when a field or direction is not allowed.
 */
export function parseOrderBy<F extends string>(
	text: string,
	allowed: Readonly<Record<F, string>>,
): OrderTerm<F>[] | undefined {
	const byLowerName = new Map(Object.keys(allowed).map((name) => [name.toLowerCase(), name as F]));
	const terms: OrderTerm<F>[] = [];
	for (const part of text.split(',')) {
		const words = part
			.trim()
			.split(/\s+/)
			.filter((word) => word !== '');
		if (words.length === 0 || words.length > 2) return undefined;
		const field = byLowerName.get(words[0].toLowerCase());
		const direction = (words[1] ?? 'asc').toLowerCase();
		if (!field || (direction !== 'asc' && direction !== 'desc')) return undefined;
		terms.push({ field, descending: direction === 'desc' });
	}
	return terms;
}

/** The ORDER BY expression for whitelisted terms, with the id as a tie-breaker so paging is stable. */
export function orderClause<F extends string>(
	terms: readonly OrderTerm<F>[],
	allowed: Readonly<Record<F, string>>,
	tieBreaker: string,
): string {
	const parts = terms.map((term) => `${allowed[term.field]} ${term.descending ? 'DESC' : 'ASC'}`);
	return [...parts, tieBreaker].join(', ');
}
