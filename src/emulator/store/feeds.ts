/** Job boards (feeds) and the quota rows that make them available to organisations and users. */
import type { AccountRepository } from './accounts';
import { placeholders } from './database';
import { asNumericId } from './queryParts';
import type { StatementCache } from './statements';
import type { FeedQuotaRow, FeedRow, UserRow } from './types';

const FEED_COLUMNS = `f.id, f.identifier, f.name, f.short_description AS shortDescription, f.logo_url AS logoUrl,
	f.home_page_url AS homePageUrl, f.contact_name AS contactName, f.contact_phone AS contactPhone, f.contact_email AS contactEmail,
	f.culture_id AS cultureId, f.feed_type_id AS feedTypeId, f.free, f.cost, f.cost_type_id AS costTypeId,
	f.html_support AS htmlSupport, f.description_min_length AS descriptionMinLength, f.description_max_length AS descriptionMaxLength,
	f.support_delete AS supportDelete, f.support_fix AS supportFix, f.upload_times AS uploadTimes, f.visibility,
	f.live_date AS liveDate, f.special_handling AS specialHandling`;

const QUOTA_COLUMNS = `${FEED_COLUMNS}, q.organisation_id AS quotaOrganisationId, q.user_id AS quotaUserId, q.currency_id AS currencyId,
	q.effective_quota AS effectiveQuota, q.postings, q.slots, q.spend, q.postings_forward AS postingsForward,
	q.default_selected AS defaultSelected, q.force_selected AS forceSelected, q.restricted,
	q.auth1, q.auth2, q.auth3, q.auth4, q.auth5, q.auth_notes AS authNotes`;

export class FeedRepository {
	constructor(
		private readonly sql: StatementCache,
		private readonly accounts: AccountRepository,
	) {}

	/** A feed by numeric FeedID or FeedIdentifier (case-insensitive). */
	find(idOrIdentifier: string): FeedRow | undefined {
		const id = asNumericId(idOrIdentifier.trim());
		return this.sql.one<FeedRow>(
			`SELECT ${FEED_COLUMNS} FROM feed f WHERE f.id = ? OR f.identifier = ? ORDER BY f.id = ? DESC LIMIT 1`,
			[id ?? -1, idOrIdentifier.trim(), id ?? -1],
		);
	}

	/**
	 * The feeds of an organisation with their quota: its own quota rows, and for other feeds the nearest
	 * ancestor's. Ordered by feed name.
	 */
	organisationQuotas(organisationId: number): FeedQuotaRow[] {
		const chain = this.accounts.ancestorIds(organisationId);
		const rows = this.sql.all<FeedQuotaRow>(
			`SELECT ${QUOTA_COLUMNS} FROM feed_quota q JOIN feed f ON f.id = q.feed_id WHERE q.organisation_id IN (${placeholders(chain.length)})`,
			[...chain],
		);
		return nearestPerFeed(rows, (row) => chain.indexOf(row.quotaOrganisationId ?? -1));
	}

	/** The feeds of a user: the user's own quota rows, then the organisation's (inherited) for other feeds. */
	userQuotas(user: UserRow): FeedQuotaRow[] {
		const own = this.sql.all<FeedQuotaRow>(
			`SELECT ${QUOTA_COLUMNS} FROM feed_quota q JOIN feed f ON f.id = q.feed_id WHERE q.user_id = ?`,
			[user.id],
		);
		const ownFeeds = new Set(own.map((row) => row.id));
		const inherited = this.organisationQuotas(user.organisationId).filter((row) => !ownFeeds.has(row.id));
		return [...own, ...inherited].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
	}
}

function nearestPerFeed(rows: FeedQuotaRow[], distance: (row: FeedQuotaRow) => number): FeedQuotaRow[] {
	const best = new Map<number, FeedQuotaRow>();
	for (const row of rows) {
		const current = best.get(row.id);
		if (!current || distance(row) < distance(current)) best.set(row.id, row);
	}
	return [...best.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}
