/**
 * The sandbox store: every read and write of the emulator's data, as intention-revealing methods over
 * SQLite. All values are bound as parameters; ORDER BY comes only from the whitelist in ordering.ts.
 */
import { hash } from 'node:crypto';
import type { Database } from 'node-sqlite3-wasm';
import {
	isDiskFull,
	openDatabase,
	placeholders,
	schemaVersion,
	storageError,
	type OpenOptions,
	type SqlValue,
} from './database';
import { SEEDED_KEY } from './schema';
import { jsonRow, StatementCache } from './statements';
import {
	ADVERT_ORDER_FIELDS,
	APPLICATION_ORDER_FIELDS,
	DEFAULT_ADVERT_ORDER,
	DEFAULT_APPLICATION_ORDER,
	orderClause,
	type AdvertOrderField,
	type ApplicationOrderField,
	type OrderTerm,
} from './ordering';
import type {
	AdvertFields,
	AdvertRow,
	AdvertStats,
	AdvertValueRow,
	ApplicationRow,
	CandidateRow,
	DocumentRow,
	FeedQuotaRow,
	FeedRow,
	JobTitleRow,
	LookupRow,
	OrganisationRow,
	Page,
	PageWindow,
	PostingRow,
	TrackingLogRow,
	UserRow,
} from './types';

/** What limits an advert search. organisationIds is the caller's scope and is never empty. */
export interface AdvertSearch {
	organisationIds: readonly number[];
	userId?: number;
	advertId?: number;
	identifier?: string;
	reference?: string;
	/** Only adverts posted (or, if never posted, created) at or after this stored date. */
	since?: string;
	statusIds?: readonly number[];
	/** Hide adverts scheduled to post after this stored date. */
	hideScheduledAfter?: string;
	lastScoreSince?: string;
	lastProgressSince?: string;
}

/** What limits an application search. organisationIds is the caller's scope and is never empty. */
export interface ApplicationSearch {
	organisationIds: readonly number[];
	/** The advert owner. */
	userId?: number;
	advertId?: number;
	advertIdentifier?: string;
	advertReference?: string;
	feedIds?: readonly number[];
	appliedFrom?: string;
	appliedTo?: string;
	rankings?: readonly number[];
	progressIds?: readonly number[];
	applicationIds?: readonly number[];
	lastScoreSince?: string;
	lastProgressSince?: string;
}

/** A pending posting that is due for delivery. */
export interface DuePosting {
	id: number;
	advertId: number;
	feedId: number;
	feedIdentifier: string;
	postedAt: string;
	dueAt: string;
}

/** A delivered posting of a live advert that can receive applications. */
export interface LiveTarget {
	advertId: number;
	title: string;
	organisationId: number;
	callbackUrl: string | null;
	postingId: number;
	feedId: number;
	ownerEmail: string | null;
}

export interface NewPosting {
	advertId: number;
	feedId: number;
	userId: number;
	postedAt: string;
	estimatedExpireAt: string;
	deliveryStatusId: number;
	deliveredAt: string | null;
}

const USER_COLUMNS = `u.id, u.organisation_id AS organisationId, u.identifier, u.username, u.password_hash AS passwordHash,
	u.role_id AS roleId, u.active, u.first_name AS firstName, u.last_name AS lastName, u.email,
	u.applications_email AS applicationsEmail, u.phone, u.mobile, u.fax, u.position, u.culture_id AS cultureId, u.website,
	u.address1, u.address2, u.address3, u.state, u.country, u.post_code AS postCode, u.notification_flags AS notificationFlags`;

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

const ADVERT_COLUMNS = `a.id, a.user_id AS userId, a.organisation_id AS organisationId, a.identifier, a.reference, a.status_id AS statusId,
	a.title, a.job_type AS jobType, a.job_hours AS jobHours, a.primary_location AS primaryLocation, a.industry,
	a.salary_from AS salaryFrom, a.salary_to AS salaryTo, a.salary_currency AS salaryCurrency, a.salary_per AS salaryPer,
	a.salary_benefits AS salaryBenefits, a.salary_hide AS salaryHide, a.contact_name AS contactName, a.contact_email AS contactEmail,
	a.job_description AS jobDescription, a.application_url AS applicationUrl, a.callback_url AS callbackUrl, a.source,
	a.latitude, a.longitude, a.redirect_domain AS redirectDomain, a.iframe, a.completion_token AS completionToken,
	a.created_at AS createdAt, a.scheduled_post_at AS scheduledPostAt, a.last_post_date AS lastPostDate,
	a.last_delivery_date AS lastDeliveryDate, a.last_delivery_status_id AS lastDeliveryStatusId`;

/** The advert columns as one JSON value per row (see StatementCache.allJson). */
const ADVERT_JSON = jsonRow(ADVERT_COLUMNS);

const APPLICATION_COLUMNS = `ap.id, ap.advert_id AS advertId, ap.candidate_id AS candidateId, ap.posting_id AS postingId, ap.feed_id AS feedId,
	f.name AS feedName, ap.applied_at AS appliedAt, c.email, c.first_name AS firstName, c.last_name AS lastName,
	c.home_phone AS homePhone, c.work_phone AS workPhone, c.mobile_phone AS mobilePhone, c.address,
	ap.viewed, ap.ranking, ap.favourite, ap.archived, ap.progress_id AS progressId, p.name AS progressName,
	ap.interview_status AS interviewStatus, ap.processing_messages AS processingMessages,
	a.identifier AS advertIdentifier, a.reference AS advertReference, a.title AS advertTitle, a.user_id AS userId,
	a.organisation_id AS organisationId, o.name AS organisationName, o.parsing_enabled AS parsingEnabled,
	ap.last_score_date AS lastScoreDate, ap.last_progress_date AS lastProgressDate, ap.last_note_date AS lastNoteDate`;
const APPLICATION_JSON = jsonRow(APPLICATION_COLUMNS);

const APPLICATION_FROM = `FROM application ap
	JOIN advert a ON a.id = ap.advert_id
	JOIN candidate c ON c.id = ap.candidate_id
	JOIN feed f ON f.id = ap.feed_id
	JOIN organisation o ON o.id = a.organisation_id
	JOIN progress p ON p.id = ap.progress_id`;

/** The tables a search's filters need: the joins of APPLICATION_FROM left out cannot drop a row (NOT NULL foreign keys). */
const APPLICATION_SEARCH_FROM = 'FROM application ap JOIN advert a ON a.id = ap.advert_id';

/** Ids per `IN (...)` when reading a page's rows: far below SQLite's limit of bound values, whatever the page size. */
const ROWS_PER_IN_LIST = 500;

/** Column name → advert field, for updates built only from this fixed list. */
const ADVERT_FIELD_COLUMNS: Readonly<Record<keyof AdvertFields, string>> = {
	identifier: 'identifier',
	reference: 'reference',
	statusId: 'status_id',
	title: 'title',
	jobType: 'job_type',
	jobHours: 'job_hours',
	primaryLocation: 'primary_location',
	industry: 'industry',
	salaryFrom: 'salary_from',
	salaryTo: 'salary_to',
	salaryCurrency: 'salary_currency',
	salaryPer: 'salary_per',
	salaryBenefits: 'salary_benefits',
	contactName: 'contact_name',
	contactEmail: 'contact_email',
	jobDescription: 'job_description',
	applicationUrl: 'application_url',
	callbackUrl: 'callback_url',
	latitude: 'latitude',
	longitude: 'longitude',
	redirectDomain: 'redirect_domain',
	iframe: 'iframe',
	scheduledPostAt: 'scheduled_post_at',
};

/** sha256 of a secret, for values that must be looked up but never stored in clear (API keys, login tokens). */
export function hashSecret(secret: string): string {
	// The one-shot hash() is a third of createHash().update().digest(), and runs on every authenticated request.
	return hash('sha256', secret, 'hex');
}

/** A numeric id when the text is all digits, otherwise undefined (the text is then an identifier). */
function asNumericId(text: string): number | undefined {
	return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

function escapeLike(text: string): string {
	return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** Tables behind the identity lookups: any write naming one of them forgets every kept lookup. */
const IDENTITY_TABLES = /\b(?:organisation|api_key|app_user)\b/i;
/** Most identity lookups kept at once. */
const IDENTITY_CACHE_LIMIT = 4096;
/** Most advert counters and rows kept at once. */
const DERIVED_CACHE_LIMIT = 20_000;

export class Store {
	/** Prepared statements reused across calls (see statements.ts). */
	private readonly sql: StatementCache;
	/**
	 * Lookups of keys, users and the organisation tree: every request needs them, and they are kept,
	 * frozen, until anything writes organisation, api_key or app_user (`sql.watchedWrites`), seeding
	 * and clearAll included. Today only those two write them.
	 */
	private readonly identity = new Map<string, unknown>();
	private identityWrites = 0;
	/**
	 * Application counters by advert (null: no applications), valid for one value of `sql.writes`:
	 * any write empties it, so a page of adverts never shows counters older than the last write.
	 */
	private readonly stats = new Map<number, AdvertStats | null>();
	/** Advert rows by id, under the same rule as `stats`: valid until the next write. */
	private readonly adverts = new Map<number, AdvertRow>();
	private derivedWrites = -1;

	private constructor(
		private readonly db: Database,
		private readonly path: string,
	) {
		this.sql = new StatementCache(db, undefined, IDENTITY_TABLES);
	}

	/** Opens (creating, checking and migrating) a database file, or an in-memory database for ':memory:'. */
	static open(path: string | ':memory:', options?: OpenOptions): Store {
		return new Store(openDatabase(path, options), path);
	}

	close(): void {
		this.identity.clear();
		this.sql.clear();
		if (this.db.isOpen) this.db.close();
	}

	get isOpen(): boolean {
		return this.db.isOpen;
	}

	schemaVersion(): number {
		return schemaVersion(this.db);
	}

	/**
	 * Runs work in one BEGIN IMMEDIATE transaction; an exception rolls back every write in it. Nested
	 * calls join the outer transaction. BEGIN/COMMIT are kept statements (exec would compile them each time).
	 */
	transaction<T>(work: () => T): T {
		if (this.db.inTransaction) return work();
		const writesBefore = this.sql.writes;
		this.sql.control('BEGIN IMMEDIATE');
		try {
			const result = work();
			this.sql.control('COMMIT');
			return result;
		} catch (error) {
			// A read after a write inside the transaction may have kept rows that the rollback undoes.
			if (this.sql.writes !== writesBefore) this.sql.invalidate();
			if (this.db.inTransaction) this.sql.control('ROLLBACK');
			// A full disk says so (the log and the start-up message show it), not a generic SQLite error.
			throw isDiskFull(error) ? storageError(error, this.path) : error;
		}
	}

	/**
	 * Bulk loading with prepared statements (seeding). The callback gets a factory of statements that
	 * are finalized afterwards; everything runs in one transaction.
	 */
	bulkLoad(
		work: (
			prepare: (sql: string) => (values: readonly SqlValue[]) => number,
			query: (sql: string, values?: readonly SqlValue[]) => Record<string, unknown>[],
		) => void,
	): void {
		const statements: ReturnType<Database['prepare']>[] = [];
		try {
			this.transaction(() =>
				work(
					(sql) => {
						const statement = this.db.prepare(sql);
						statements.push(statement);
						return (values) => Number(statement.run(values as SqlValue[]).lastInsertRowid);
					},
					(sql, values) => this.db.all(sql, values as SqlValue[]) as Record<string, unknown>[],
				),
			);
		} finally {
			for (const statement of statements) statement.finalize();
			// Seeding writes around the statement cache: forget what was derived before.
			this.identity.clear();
			this.sql.invalidate();
		}
	}

	/**
	 * Runs work with the tables' non-unique indexes dropped, then builds them again: filling a new
	 * database (seeding into a scratch file) is several times faster that way than keeping every index
	 * up to date row by row. Unique indexes stay, so constraints hold throughout.
	 */
	withoutSecondaryIndexes(work: () => void): void {
		const indexes = this.db.all(
			"SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' ORDER BY name",
		) as { name: string; sql: string }[];
		this.transaction(() => {
			for (const index of indexes) this.db.exec(`DROP INDEX "${index.name.replace(/"/g, '""')}"`);
		});
		work();
		this.transaction(() => {
			for (const index of indexes) this.db.exec(index.sql);
		});
		this.sql.invalidate();
	}

	isEmpty(): boolean {
		return this.sql.get('SELECT 1 AS present FROM organisation LIMIT 1') === null;
	}

	/** What seeding recorded in its last transaction, or undefined when seeding never finished. */
	seedingRecord(): Record<string, unknown> | undefined {
		const row = this.sql.get('SELECT value FROM sandbox_meta WHERE key = ?', [SEEDED_KEY]) as {
			value: string;
		} | null;
		return row === null ? undefined : (JSON.parse(row.value) as Record<string, unknown>);
	}

	/** Records that seeding finished; call it in seeding's last transaction. */
	markSeeded(record: Record<string, unknown>): void {
		this.sql.run('INSERT OR REPLACE INTO sandbox_meta (key, value) VALUES (?, ?)', [
			SEEDED_KEY,
			JSON.stringify(record),
		]);
	}

	// Organisations and keys

	organisationById(id: number): OrganisationRow | undefined {
		return this.one<OrganisationRow>(
			'SELECT id, identifier, name, parent_id AS parentId, parsing_enabled AS parsingEnabled FROM organisation WHERE id = ?',
			[id],
		);
	}

	/** An organisation by numeric id or string identifier. */
	findOrganisation(idOrIdentifier: string): OrganisationRow | undefined {
		const id = asNumericId(idOrIdentifier);
		return this.one<OrganisationRow>(
			'SELECT id, identifier, name, parent_id AS parentId, parsing_enabled AS parsingEnabled FROM organisation WHERE id = ? OR identifier = ? ORDER BY id = ? DESC LIMIT 1',
			[id ?? -1, idOrIdentifier, id ?? -1],
		);
	}

	/** The organisation and all organisations below it. */
	subtreeIds(rootId: number): readonly number[] {
		return this.remember(`tree:${rootId}`, () => {
			const rows = this.sql.all(
				`WITH RECURSIVE tree(id) AS (SELECT id FROM organisation WHERE id = ? UNION ALL SELECT o.id FROM organisation o JOIN tree t ON o.parent_id = t.id)
				SELECT id FROM tree ORDER BY id`,
				[rootId],
			) as { id: number }[];
			return rows.map((row) => row.id);
		}) as readonly number[];
	}

	/** The organisation and its ancestors, nearest first. */
	ancestorIds(organisationId: number): number[] {
		const rows = this.sql.all(
			`WITH RECURSIVE up(id, parent_id, depth) AS (SELECT id, parent_id, 0 FROM organisation WHERE id = ?
				UNION ALL SELECT o.id, o.parent_id, up.depth + 1 FROM organisation o JOIN up ON o.id = up.parent_id)
			SELECT id FROM up ORDER BY depth`,
			[organisationId],
		) as { id: number }[];
		return rows.map((row) => row.id);
	}

	/** The organisation an API key belongs to, or undefined for an unknown key. */
	organisationForApiKey(apiKey: string): OrganisationRow | undefined {
		// Kept by the key's hash: the cache holds no secret.
		const keyHash = hashSecret(apiKey);
		return this.remember(`key:${keyHash}`, () =>
			this.one<OrganisationRow>(
				`SELECT o.id, o.identifier, o.name, o.parent_id AS parentId, o.parsing_enabled AS parsingEnabled
				FROM api_key k JOIN organisation o ON o.id = k.organisation_id WHERE k.key_hash = ?`,
				[keyHash],
			),
		);
	}

	// Users

	findUserByUsername(username: string): UserRow | undefined {
		return this.remember(`user:${username}`, () =>
			this.one<UserRow>(`SELECT ${USER_COLUMNS} FROM app_user u WHERE u.username = ?`, [username]),
		);
	}

	/** A user by numeric UserID or string UserIdentifier. */
	findUser(idOrIdentifier: string): UserRow | undefined {
		const id = asNumericId(idOrIdentifier);
		return this.one<UserRow>(
			`SELECT ${USER_COLUMNS} FROM app_user u WHERE u.id = ? OR u.identifier = ? ORDER BY u.id = ? DESC LIMIT 1`,
			[id ?? -1, idOrIdentifier, id ?? -1],
		);
	}

	userById(id: number): UserRow | undefined {
		return this.one<UserRow>(`SELECT ${USER_COLUMNS} FROM app_user u WHERE u.id = ?`, [id]);
	}

	/** Active users of these organisations, by id. */
	activeUsersIn(organisationIds: readonly number[]): UserRow[] {
		return this.sql.all(
			`SELECT ${USER_COLUMNS} FROM app_user u WHERE u.active = 1 AND u.organisation_id IN (${placeholders(organisationIds.length)}) ORDER BY u.id`,
			[...organisationIds],
		) as unknown as UserRow[];
	}

	// Feeds and quota

	/** A feed by numeric FeedID or FeedIdentifier (case-insensitive). */
	findFeed(idOrIdentifier: string): FeedRow | undefined {
		const id = asNumericId(idOrIdentifier.trim());
		return this.one<FeedRow>(
			`SELECT ${FEED_COLUMNS} FROM feed f WHERE f.id = ? OR f.identifier = ? ORDER BY f.id = ? DESC LIMIT 1`,
			[id ?? -1, idOrIdentifier.trim(), id ?? -1],
		);
	}

	/**
	 * The feeds of an organisation with their quota: its own quota rows, and for other feeds the nearest
	 * ancestor's. Ordered by feed name.
	 */
	organisationFeedQuotas(organisationId: number): FeedQuotaRow[] {
		const chain = this.ancestorIds(organisationId);
		const rows = this.sql.all(
			`SELECT ${QUOTA_COLUMNS} FROM feed_quota q JOIN feed f ON f.id = q.feed_id WHERE q.organisation_id IN (${placeholders(chain.length)})`,
			[...chain],
		) as unknown as FeedQuotaRow[];
		return nearestPerFeed(rows, (row) => chain.indexOf(row.quotaOrganisationId ?? -1));
	}

	/** The feeds of a user: the user's own quota rows, then the organisation's (inherited) for other feeds. */
	userFeedQuotas(user: UserRow): FeedQuotaRow[] {
		const own = this.sql.all(
			`SELECT ${QUOTA_COLUMNS} FROM feed_quota q JOIN feed f ON f.id = q.feed_id WHERE q.user_id = ?`,
			[user.id],
		) as unknown as FeedQuotaRow[];
		const ownFeeds = new Set(own.map((row) => row.id));
		const inherited = this.organisationFeedQuotas(user.organisationId).filter((row) => !ownFeeds.has(row.id));
		return [...own, ...inherited].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
	}

	/** Postings a user made per feed (quota use). */
	postingsUsedByUser(userId: number): Map<number, number> {
		const rows = this.sql.all(
			'SELECT feed_id AS feedId, count(*) AS used FROM posting WHERE user_id = ? GROUP BY feed_id',
			[userId],
		) as {
			feedId: number;
			used: number;
		}[];
		return new Map(rows.map((row) => [row.feedId, row.used]));
	}

	// Adverts

	advertById(id: number): AdvertRow | undefined {
		return this.advertRows([id])[0];
	}

	/** Who owns an advert: enough to check access without reading the whole row. */
	advertOwnership(id: number): Pick<AdvertRow, 'id' | 'userId' | 'organisationId'> | undefined {
		return this.one(`SELECT id, user_id AS userId, organisation_id AS organisationId FROM advert WHERE id = ?`, [
			id,
		]);
	}

	/** One page of adverts matching the search, and the total count. */
	searchAdverts(
		search: AdvertSearch,
		order: readonly OrderTerm<AdvertOrderField>[],
		window?: PageWindow,
	): Page<AdvertRow> {
		const { where, values } = advertWhere(search);
		const orderBy = order.length > 0 ? orderClause(order, ADVERT_ORDER_FIELDS, 'a.id DESC') : DEFAULT_ADVERT_ORDER;
		const limit = window ? ' LIMIT ? OFFSET ?' : '';
		// The query orders and pages ids only; the rows come from those kept since the last write.
		const ids = this.sql
			.all(
				`SELECT a.id FROM advert a WHERE ${where} ORDER BY ${orderBy}${limit}`,
				window ? [...values, window.limit, window.offset] : values,
			)
			.map((row) => row.id as number);
		const total = pageTotal(
			ids.length,
			window,
			() =>
				(this.sql.get(`SELECT count(*) AS total FROM advert a WHERE ${where}`, values) as { total: number })
					.total,
		);
		return { total, rows: this.advertRows(ids) };
	}

	/** The advert rows of these ids, in this order (ids without a row are left out). */
	private advertRows(ids: readonly number[]): AdvertRow[] {
		this.forgetDerivedAfterWrites();
		const missing = ids.filter((id) => !this.adverts.has(id));
		for (let i = 0; i < missing.length; i += 500) {
			const chunk = missing.slice(i, i + 500);
			const rows = this.sql.allJson<AdvertRow>(
				`SELECT ${ADVERT_JSON} FROM advert a WHERE a.id IN (${placeholders(chunk.length)})`,
				chunk,
			);
			for (const row of rows) this.adverts.set(row.id, Object.freeze(row));
		}
		const out: AdvertRow[] = [];
		for (const id of ids) {
			const row = this.adverts.get(id);
			if (row !== undefined) out.push(row);
		}
		return out;
	}

	/** Empties the caches of derived data (counters, advert rows) when anything was written since they were filled. */
	private forgetDerivedAfterWrites(): void {
		if (this.derivedWrites !== this.sql.writes || this.stats.size + this.adverts.size > DERIVED_CACHE_LIMIT) {
			this.stats.clear();
			this.adverts.clear();
			this.derivedWrites = this.sql.writes;
		}
	}

	/** Adverts of these organisations with this identifier, posted or created at or after `since`, newest first; deleted ones excluded. */
	advertsWithIdentifier(
		identifier: string,
		organisationIds: readonly number[],
		since: string | undefined,
	): AdvertRow[] {
		return this.searchAdverts({ organisationIds, identifier, since, statusIds: [0, 16] }, []).rows;
	}

	/** Application counters of these adverts, computed from their applications (kept until the next write). */
	advertStats(advertIds: readonly number[]): Map<number, AdvertStats> {
		this.forgetDerivedAfterWrites();
		const missing = advertIds.filter((id) => !this.stats.has(id));
		if (missing.length > 0) {
			const rows = this.sql.all(
				`SELECT advert_id AS advertId, count(*) AS applications, sum(viewed) AS viewed,
					sum(ranking = 4) AS suitable, sum(ranking = 2) AS maybeSuitable, sum(ranking = 1) AS unsuitable,
					sum(interview_status = 'Confirmed') AS interviewConfirmed, sum(interview_status = 'Pending') AS interviewPending,
					sum(interview_status = 'CannotAttend') AS interviewCannotAttend, sum(interview_status = 'Declined') AS interviewDeclined,
					sum(progress_id <> 1) AS withStatus, sum(progress_id = 1) AS withStatusNew,
					max(last_score_date) AS lastScoreDate, max(last_progress_date) AS lastProgressDate
				FROM application WHERE advert_id IN (${placeholders(missing.length)}) GROUP BY advert_id`,
				missing,
			) as unknown as AdvertStats[];
			for (const id of missing) this.stats.set(id, null);
			for (const row of rows) this.stats.set(row.advertId, Object.freeze(row));
		}
		const result = new Map<number, AdvertStats>();
		for (const id of advertIds) {
			const row = this.stats.get(id);
			if (row) result.set(id, row);
		}
		return result;
	}

	/** Creates an advert and returns its id. */
	insertAdvert(
		advert: AdvertFields & {
			userId: number;
			organisationId: number;
			completionToken: string;
			createdAt: string;
			source: string;
		},
	): number {
		const fields = Object.keys(ADVERT_FIELD_COLUMNS).filter(
			(key) => advert[key as keyof AdvertFields] !== undefined,
		) as (keyof AdvertFields)[];
		const columns = [
			'user_id',
			'organisation_id',
			'completion_token',
			'created_at',
			'source',
			...fields.map((key) => ADVERT_FIELD_COLUMNS[key]),
		];
		const values: SqlValue[] = [
			advert.userId,
			advert.organisationId,
			advert.completionToken,
			advert.createdAt,
			advert.source,
			...fields.map((key) => advert[key] ?? null),
		];
		return Number(
			this.sql.run(`INSERT INTO advert (${columns.join(', ')}) VALUES (${placeholders(values.length)})`, values)
				.lastInsertRowid,
		);
	}

	/** Changes the given fields of an advert; undefined fields stay as they are. */
	updateAdvert(id: number, changes: AdvertFields): void {
		const fields = Object.keys(ADVERT_FIELD_COLUMNS).filter(
			(key) => changes[key as keyof AdvertFields] !== undefined,
		) as (keyof AdvertFields)[];
		if (fields.length === 0) return;
		const assignments = fields.map((key) => `${ADVERT_FIELD_COLUMNS[key]} = ?`).join(', ');
		this.sql.run(`UPDATE advert SET ${assignments} WHERE id = ?`, [
			...fields.map((key) => changes[key] ?? null),
			id,
		]);
	}

	/** Replaces the feeds chosen for an advert. */
	setAdvertDestinations(advertId: number, feedIds: readonly number[]): void {
		this.sql.run('DELETE FROM advert_destination WHERE advert_id = ?', [advertId]);
		for (const feedId of feedIds) {
			this.sql.run('INSERT INTO advert_destination (advert_id, feed_id) VALUES (?, ?)', [advertId, feedId]);
		}
	}

	advertDestinations(advertId: number): number[] {
		return (
			this.sql.all('SELECT feed_id AS feedId FROM advert_destination WHERE advert_id = ? ORDER BY feed_id', [
				advertId,
			]) as { feedId: number }[]
		).map((row) => row.feedId);
	}

	/** Extra values of these adverts, optionally limited to fields (FieldID or FieldIdentifier) and feeds. */
	advertValues(
		advertIds: readonly number[],
		fields: readonly string[] | undefined,
		feedIds: readonly number[] | undefined,
	): AdvertValueRow[] {
		if (advertIds.length === 0) return [];
		let sql = `SELECT advert_id AS advertId, feed_id AS feedId, field_id AS fieldId, field_identifier AS fieldIdentifier, value, values_json AS valuesJson
			FROM advert_value WHERE advert_id IN (${placeholders(advertIds.length)})`;
		const values: SqlValue[] = [...advertIds];
		if (fields && fields.length > 0) {
			const numeric = fields.map(asNumericId).filter((id): id is number => id !== undefined);
			sql += ` AND (field_id IN (${placeholders(numeric.length)}) OR field_identifier COLLATE NOCASE IN (${placeholders(fields.length)}))`;
			values.push(...(numeric.length > 0 ? numeric : [-1]), ...fields);
		}
		if (feedIds && feedIds.length > 0) {
			sql += ` AND feed_id IN (${placeholders(feedIds.length)})`;
			values.push(...feedIds);
		}
		return this.sql.all(`${sql} ORDER BY advert_id, feed_id, field_id, id`, values) as unknown as AdvertValueRow[];
	}

	// Postings and tracking

	/** Feeds an advert has been posted to before. */
	postedFeedIds(advertId: number): number[] {
		return (
			this.sql.all('SELECT DISTINCT feed_id AS feedId FROM posting WHERE advert_id = ? ORDER BY feed_id', [
				advertId,
			]) as { feedId: number }[]
		).map((row) => row.feedId);
	}

	insertPosting(posting: NewPosting): number {
		return Number(
			this.sql.run(
				`INSERT INTO posting (advert_id, feed_id, user_id, posted_at, estimated_expire_at, corrected_at, delivery_status_id, delivered_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				[
					posting.advertId,
					posting.feedId,
					posting.userId,
					posting.postedAt,
					posting.estimatedExpireAt,
					posting.deliveredAt,
					posting.deliveryStatusId,
					posting.deliveredAt,
				],
			).lastInsertRowid,
		);
	}

	postingById(id: number): PostingRow | undefined {
		return this.one<PostingRow>(
			`SELECT id, advert_id AS advertId, feed_id AS feedId, user_id AS userId, posted_at AS postedAt, estimated_expire_at AS estimatedExpireAt,
				corrected_at AS correctedAt, delivery_status_id AS deliveryStatusId, delivered_at AS deliveredAt FROM posting WHERE id = ?`,
			[id],
		);
	}

	addTrackingLog(postingId: number, deliveredAt: string, errorLevel: string, response: string): void {
		this.sql.run('INSERT INTO tracking_log (posting_id, delivered_at, error_level, response) VALUES (?, ?, ?, ?)', [
			postingId,
			deliveredAt,
			errorLevel,
			response,
		]);
	}

	/** Records the outcome of a delivery on the advert. */
	markAdvertDelivered(advertId: number, postedAt: string, deliveredAt: string, deliveryStatusId: number): void {
		this.sql.run(
			'UPDATE advert SET last_post_date = ?, last_delivery_date = ?, last_delivery_status_id = ? WHERE id = ?',
			[postedAt, deliveredAt, deliveryStatusId, advertId],
		);
	}

	/** Tracking log rows of an advert's postings, oldest first. */
	trackingLogs(
		advertId: number,
		postingId: number | undefined,
		feedIds: readonly number[] | undefined,
	): TrackingLogRow[] {
		let sql = `SELECT t.id, t.posting_id AS postingId, p.feed_id AS feedId, f.name AS feedName, t.delivered_at AS deliveredAt,
				t.error_level AS errorLevel, t.response
			FROM tracking_log t JOIN posting p ON p.id = t.posting_id JOIN feed f ON f.id = p.feed_id WHERE p.advert_id = ?`;
		const values: SqlValue[] = [advertId];
		if (postingId !== undefined) {
			sql += ' AND p.id = ?';
			values.push(postingId);
		}
		if (feedIds && feedIds.length > 0) {
			sql += ` AND p.feed_id IN (${placeholders(feedIds.length)})`;
			values.push(...feedIds);
		}
		return this.sql.all(`${sql} ORDER BY t.delivered_at, t.id`, values) as unknown as TrackingLogRow[];
	}

	// Applications

	/**
	 * One page of applications matching the search, and the total count. The filters and the order
	 * need only the application, its advert and (to sort by name or email) the candidate, so the page's
	 * ids are chosen and counted over those tables alone; the joined rows are then read for that page
	 * only. Sorting ids rather than whole rows keeps a search over a million applications to a sort of
	 * keys, and every join left out is a lookup saved per matching row. The joins left out never drop
	 * a row (NOT NULL foreign keys, enforced), so the ids and the total are those of the full join.
	 */
	searchApplications(
		search: ApplicationSearch,
		order: readonly OrderTerm<ApplicationOrderField>[],
		window: PageWindow,
	): Page<ApplicationRow> {
		const { where, values } = applicationWhere(search);
		const orderBy =
			order.length > 0 ? orderClause(order, APPLICATION_ORDER_FIELDS, 'ap.id DESC') : DEFAULT_APPLICATION_ORDER;
		const from = /\bc\./.test(orderBy)
			? `${APPLICATION_SEARCH_FROM} JOIN candidate c ON c.id = ap.candidate_id`
			: APPLICATION_SEARCH_FROM;
		const ids = this.sql
			.all(`SELECT ap.id ${from} WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [
				...values,
				window.limit,
				window.offset,
			])
			.map((row) => row.id as number);
		const total = pageTotal(
			ids.length,
			window,
			() =>
				(
					this.sql.get(`SELECT count(*) AS total ${APPLICATION_SEARCH_FROM} WHERE ${where}`, values) as {
						total: number;
					}
				).total,
		);
		return { total, rows: this.applicationRows(ids) };
	}

	/** The application rows of these ids, in this order. */
	private applicationRows(ids: readonly number[]): ApplicationRow[] {
		const byId = new Map<number, ApplicationRow>();
		for (let start = 0; start < ids.length; start += ROWS_PER_IN_LIST) {
			const chunk = ids.slice(start, start + ROWS_PER_IN_LIST);
			const rows = this.sql.allJson<ApplicationRow>(
				`SELECT ${APPLICATION_JSON} ${APPLICATION_FROM} WHERE ap.id IN (${placeholders(chunk.length)})`,
				chunk,
			);
			for (const row of rows) byId.set(row.id, row);
		}
		const rows: ApplicationRow[] = [];
		for (const id of ids) {
			const row = byId.get(id);
			if (row !== undefined) rows.push(row);
		}
		return rows;
	}

	applicationById(id: number): ApplicationRow | undefined {
		return this.sql.allJson<ApplicationRow>(`SELECT ${APPLICATION_JSON} ${APPLICATION_FROM} WHERE ap.id = ?`, [
			id,
		])[0];
	}

	/**
	 * An application action's target in one query: the application's state and its advert's owner,
	 * when the application belongs to that advert; otherwise undefined (see advertOwnership / applicationState).
	 */
	applicationOfAdvert(
		applicationId: number,
		advertId: number,
	):
		| {
				application: Pick<ApplicationRow, 'id' | 'advertId' | 'ranking' | 'favourite' | 'interviewStatus'>;
				advert: Pick<AdvertRow, 'id' | 'userId' | 'organisationId'>;
		  }
		| undefined {
		const row = this.one<{
			id: number;
			advertId: number;
			ranking: number;
			favourite: number;
			interviewStatus: string | null;
			userId: number;
			organisationId: number;
		}>(
			`SELECT ap.id, ap.advert_id AS advertId, ap.ranking, ap.favourite, ap.interview_status AS interviewStatus, a.user_id AS userId, a.organisation_id AS organisationId
			FROM application ap JOIN advert a ON a.id = ap.advert_id WHERE ap.id = ?`,
			[applicationId],
		);
		// Compared here, not in SQL: with both ids in the WHERE the planner scans the advert's applications.
		if (row === undefined || row.advertId !== advertId) return undefined;
		return {
			application: {
				id: row.id,
				advertId: row.advertId,
				ranking: row.ranking,
				favourite: row.favourite,
				interviewStatus: row.interviewStatus,
			},
			advert: { id: row.advertId, userId: row.userId, organisationId: row.organisationId },
		};
	}

	/** What an application action changes, without the joins of the full row. */
	applicationState(
		id: number,
	): Pick<ApplicationRow, 'id' | 'advertId' | 'ranking' | 'favourite' | 'interviewStatus'> | undefined {
		return this.one(
			'SELECT id, advert_id AS advertId, ranking, favourite, interview_status AS interviewStatus FROM application WHERE id = ?',
			[id],
		);
	}

	/** Documents of these applications, of the given kinds. */
	documents(applicationIds: readonly number[], kinds: readonly string[]): DocumentRow[] {
		if (applicationIds.length === 0 || kinds.length === 0) return [];
		return this.sql.all(
			`SELECT application_id AS applicationId, kind, file_name AS fileName, encoding_type AS encodingType, document_source AS documentSource,
				document_format AS documentFormat, text, bytes
			FROM application_document WHERE application_id IN (${placeholders(applicationIds.length)}) AND kind IN (${placeholders(kinds.length)})`,
			[...applicationIds, ...kinds],
		) as unknown as DocumentRow[];
	}

	/** Sets ranking and favourite flags and records who scored and when. */
	scoreApplication(id: number, ranking: number, favourite: boolean, byUserId: number, at: string): void {
		this.sql.run(
			'UPDATE application SET ranking = ?, favourite = ?, viewed = 1, last_score_date = ?, last_scored_by = ? WHERE id = ?',
			[ranking, favourite ? 1 : 0, at, byUserId, id],
		);
	}

	/** Sets the progress; moving to Interview starts a pending interview. */
	progressApplication(
		id: number,
		progressId: number,
		interviewStatus: string | null,
		byUserId: number,
		at: string,
	): void {
		this.sql.run(
			'UPDATE application SET progress_id = ?, interview_status = ?, viewed = 1, last_progress_date = ?, last_progressed_by = ? WHERE id = ?',
			[progressId, interviewStatus, at, byUserId, id],
		);
	}

	/** Adds a note and returns its id (AdvertCandidateNoteID). */
	addNote(applicationId: number, userId: number, subject: string, body: string, at: string): number {
		const id = Number(
			this.sql.run(
				'INSERT INTO note (application_id, user_id, subject, body, created_at) VALUES (?, ?, ?, ?, ?)',
				[applicationId, userId, subject, body, at],
			).lastInsertRowid,
		);
		this.sql.run('UPDATE application SET last_note_date = ? WHERE id = ?', [at, applicationId]);
		return id;
	}

	notesOf(applicationId: number): { id: number; userId: number; subject: string; body: string; createdAt: string }[] {
		return this.sql.all(
			'SELECT id, user_id AS userId, subject, body, created_at AS createdAt FROM note WHERE application_id = ? ORDER BY id',
			[applicationId],
		) as unknown as { id: number; userId: number; subject: string; body: string; createdAt: string }[];
	}

	progressById(id: number): { id: number; name: string } | undefined {
		return this.one<{ id: number; name: string }>('SELECT id, name FROM progress WHERE id = ?', [id]);
	}

	progressList(): { id: number; name: string }[] {
		return this.sql.all('SELECT id, name FROM progress ORDER BY id') as unknown as { id: number; name: string }[];
	}

	// Candidates and tags

	/** Candidates with this email in these organisations, lowest id first. */
	candidatesByEmail(email: string, organisationIds: readonly number[]): CandidateRow[] {
		return this.sql.all(
			`SELECT id, organisation_id AS organisationId, email, first_name AS firstName, last_name AS lastName FROM candidate
			WHERE email = ? AND organisation_id IN (${placeholders(organisationIds.length)}) ORDER BY id`,
			[email, ...organisationIds],
		) as unknown as CandidateRow[];
	}

	/** Adds a free tag (kept once per candidate). */
	addCandidateTag(candidateId: number, tag: string, at: string): void {
		this.sql.run(
			"INSERT OR IGNORE INTO candidate_tag (candidate_id, kind, tag, created_at) VALUES (?, 'tag', ?, ?)",
			[candidateId, tag, at],
		);
	}

	/** Sets the candidate's partner tag, replacing the previous one. */
	setPartnerTag(candidateId: number, tag: string, at: string): void {
		this.sql.run("DELETE FROM candidate_tag WHERE candidate_id = ? AND kind = 'partner'", [candidateId]);
		this.sql.run("INSERT INTO candidate_tag (candidate_id, kind, tag, created_at) VALUES (?, 'partner', ?, ?)", [
			candidateId,
			tag,
			at,
		]);
	}

	candidateTags(candidateId: number): { kind: string; tag: string }[] {
		return this.sql.all('SELECT kind, tag FROM candidate_tag WHERE candidate_id = ? ORDER BY kind, tag', [
			candidateId,
		]) as unknown as {
			kind: string;
			tag: string;
		}[];
	}

	// Lookups

	lookupValues(list: 'currency' | 'weeks'): LookupRow[] {
		return this.sql.all(
			'SELECT field_id AS fieldId, value, description, sort_order AS sortOrder FROM lookup_value WHERE list = ? ORDER BY sort_order, field_id',
			[list],
		) as unknown as LookupRow[];
	}

	/** Job titles containing the text, prefix matches first, then by popularity. */
	queryJobTitles(text: string, industry: string | undefined, limit: number): JobTitleRow[] {
		const values: SqlValue[] = [`%${escapeLike(text)}%`];
		let sql = "SELECT title, industry, description, popularity FROM job_title WHERE title LIKE ? ESCAPE '\\'";
		if (industry) {
			sql += ' AND industry = ?';
			values.push(industry);
		}
		values.push(`${escapeLike(text)}%`, limit);
		return this.sql.all(
			`${sql} ORDER BY (title LIKE ? ESCAPE '\\') DESC, popularity DESC, title LIMIT ?`,
			values,
		) as unknown as JobTitleRow[];
	}

	// Login tokens

	/** Stores a one-time login token (only its hash). */
	createLoginToken(
		token: string,
		userId: number,
		returnUrl: string | null,
		redirectDomain: string | null,
		expiresAt: string,
	): void {
		this.sql.run(
			'INSERT INTO login_token (token_hash, user_id, return_url, redirect_domain, expires_at) VALUES (?, ?, ?, ?, ?)',
			[hashSecret(token), userId, returnUrl, redirectDomain, expiresAt],
		);
	}

	/**
	 * Uses a login token once: returns its user and return URL when the token exists, is unused and has
	 * not expired at `now`; marks it used. Otherwise undefined.
	 */
	consumeLoginToken(token: string, now: string): { userId: number; returnUrl: string | null } | undefined {
		return this.transaction(() => {
			const row = this.one<{ userId: number; returnUrl: string | null }>(
				'SELECT user_id AS userId, return_url AS returnUrl FROM login_token WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
				[hashSecret(token), now],
			);
			if (row) this.sql.run('UPDATE login_token SET used_at = ? WHERE token_hash = ?', [now, hashSecret(token)]);
			return row;
		});
	}

	/** An advert by the token of its completion URL (for the completion page). */
	advertByCompletionToken(token: string): AdvertRow | undefined {
		return this.sql.allJson<AdvertRow>(`SELECT ${ADVERT_JSON} FROM advert a WHERE a.completion_token = ?`, [
			token,
		])[0];
	}

	// Delivery over time, completion and live applications

	/** Inserts a posting waiting for delivery (DELIVERY_STATUS Pending) that the scheduler delivers at `dueAt`. */
	insertPendingPosting(posting: Omit<NewPosting, 'deliveryStatusId' | 'deliveredAt'> & { dueAt: string }): number {
		return Number(
			this.sql.run(
				`INSERT INTO posting (advert_id, feed_id, user_id, posted_at, estimated_expire_at, corrected_at, delivery_status_id, delivered_at, due_at)
				VALUES (?, ?, ?, ?, ?, NULL, 1, NULL, ?)`,
				[
					posting.advertId,
					posting.feedId,
					posting.userId,
					posting.postedAt,
					posting.estimatedExpireAt,
					posting.dueAt,
				],
			).lastInsertRowid,
		);
	}

	/** Pending postings due at or before `now`, oldest first (index posting_pending_due). */
	duePostings(now: string, limit: number): DuePosting[] {
		return this.sql.all(
			`SELECT p.id, p.advert_id AS advertId, p.feed_id AS feedId, p.posted_at AS postedAt, p.due_at AS dueAt, f.identifier AS feedIdentifier
			FROM posting p JOIN feed f ON f.id = p.feed_id WHERE p.delivery_status_id = 1 AND p.due_at <= ? ORDER BY p.due_at, p.id LIMIT ?`,
			[now, limit],
		) as unknown as DuePosting[];
	}

	/** The earliest due date of a pending posting, if any. */
	nextDueAt(): string | undefined {
		const row = this.one<{ dueAt: string | null }>(
			'SELECT min(due_at) AS dueAt FROM posting WHERE delivery_status_id = 1',
			[],
		);
		return row?.dueAt ?? undefined;
	}

	/** Records a delivery outcome on the posting, its tracking log and its advert, in one transaction. */
	recordDelivery(delivery: {
		postingId: number;
		advertId: number;
		statusId: number;
		at: string;
		errorLevel: string;
		response: string;
		postedAt: string;
	}): void {
		this.transaction(() => {
			this.sql.run(
				'UPDATE posting SET delivery_status_id = ?, delivered_at = ? WHERE id = ? AND delivery_status_id = 1',
				[delivery.statusId, delivery.at, delivery.postingId],
			);
			this.addTrackingLog(delivery.postingId, delivery.at, delivery.errorLevel, delivery.response);
			this.sql.run(
				`UPDATE advert SET last_delivery_date = ?, last_delivery_status_id = ?,
					last_post_date = CASE WHEN last_post_date IS NULL OR last_post_date < ? THEN ? ELSE last_post_date END WHERE id = ?`,
				[delivery.at, delivery.statusId, delivery.postedAt, delivery.postedAt, delivery.advertId],
			);
		});
	}

	/** Marks the advert's posting as completed (the completion page was submitted). */
	markAdvertCompleted(advertId: number, at: string): void {
		this.sql.run('UPDATE advert SET completed_at = ?, last_delivery_status_id = 1 WHERE id = ?', [at, advertId]);
	}

	/** When the advert's posting was completed, or undefined. */
	advertCompletedAt(advertId: number): string | undefined {
		return (
			this.one<{ completedAt: string | null }>('SELECT completed_at AS completedAt FROM advert WHERE id = ?', [
				advertId,
			])?.completedAt ?? undefined
		);
	}

	/** Postings of an advert, oldest first. */
	postingsOf(advertId: number): (PostingRow & { feedName: string })[] {
		return this.sql.all(
			`SELECT p.id, p.advert_id AS advertId, p.feed_id AS feedId, f.name AS feedName, p.user_id AS userId, p.posted_at AS postedAt,
				p.estimated_expire_at AS estimatedExpireAt, p.corrected_at AS correctedAt, p.delivery_status_id AS deliveryStatusId, p.delivered_at AS deliveredAt
			FROM posting p JOIN feed f ON f.id = p.feed_id WHERE p.advert_id = ? ORDER BY p.id`,
			[advertId],
		) as unknown as (PostingRow & { feedName: string })[];
	}

	/** Postings of adverts in these organisations, newest first, with a total (web interface). */
	postingsPage(
		organisationIds: readonly number[],
		window: PageWindow,
		userId?: number,
	): Page<PostingRow & { feedName: string; advertTitle: string }> {
		const where = `a.organisation_id IN (${placeholders(organisationIds.length)})${userId === undefined ? '' : ' AND a.user_id = ?'}`;
		const scope: SqlValue[] = userId === undefined ? [...organisationIds] : [...organisationIds, userId];
		const total = (
			this.sql.get(
				`SELECT count(*) AS total FROM posting p JOIN advert a ON a.id = p.advert_id WHERE ${where}`,
				scope,
			) as { total: number }
		).total;
		const rows = this.sql.all(
			`SELECT p.id, p.advert_id AS advertId, p.feed_id AS feedId, f.name AS feedName, a.title AS advertTitle, p.user_id AS userId, p.posted_at AS postedAt,
				p.estimated_expire_at AS estimatedExpireAt, p.corrected_at AS correctedAt, p.delivery_status_id AS deliveryStatusId, p.delivered_at AS deliveredAt
			FROM posting p JOIN advert a ON a.id = p.advert_id JOIN feed f ON f.id = p.feed_id WHERE ${where} ORDER BY p.posted_at DESC, p.id DESC LIMIT ? OFFSET ?`,
			[...scope, window.limit, window.offset],
		) as unknown as (PostingRow & { feedName: string; advertTitle: string })[];
		return { total, rows };
	}

	/** Live adverts (status Created, posted to a board that delivered), for new applications in live mode. */
	liveAdvertTargets(limit: number): LiveTarget[] {
		return this.sql.all(
			`SELECT a.id AS advertId, a.title, a.organisation_id AS organisationId, a.callback_url AS callbackUrl, p.id AS postingId, p.feed_id AS feedId,
				u.applications_email AS ownerEmail
			FROM advert a JOIN posting p ON p.advert_id = a.id JOIN app_user u ON u.id = a.user_id
			WHERE a.status_id = 0 AND p.delivery_status_id = 2 ORDER BY p.delivered_at DESC, p.id DESC LIMIT ?`,
			[limit],
		) as unknown as LiveTarget[];
	}

	/** Inserts a candidate (or finds the one with this email in the organisation) and returns its id. */
	upsertCandidate(candidate: {
		organisationId: number;
		email: string;
		firstName: string;
		lastName: string;
		mobilePhone: string;
		address: string;
	}): number {
		const existing = this.one<{ id: number }>('SELECT id FROM candidate WHERE organisation_id = ? AND email = ?', [
			candidate.organisationId,
			candidate.email,
		]);
		if (existing) return existing.id;
		return Number(
			this.sql.run(
				'INSERT INTO candidate (organisation_id, email, first_name, last_name, mobile_phone, address) VALUES (?, ?, ?, ?, ?, ?)',
				[
					candidate.organisationId,
					candidate.email,
					candidate.firstName,
					candidate.lastName,
					candidate.mobilePhone,
					candidate.address,
				],
			).lastInsertRowid,
		);
	}

	/** Inserts a new (unranked, progress New) application and returns its id (AdvertCandidateID). */
	insertNewApplication(application: {
		advertId: number;
		candidateId: number;
		postingId: number;
		feedId: number;
		appliedAt: string;
		scoreExtra: number;
	}): number {
		return Number(
			this.sql.run(
				'INSERT INTO application (advert_id, candidate_id, posting_id, feed_id, applied_at, score_extra) VALUES (?, ?, ?, ?, ?, ?)',
				[
					application.advertId,
					application.candidateId,
					application.postingId,
					application.feedId,
					application.appliedAt,
					application.scoreExtra,
				],
			).lastInsertRowid,
		);
	}

	/** Stores one document of an application (kind from DOCUMENT_TYPE). */
	insertDocument(
		document: Omit<DocumentRow, 'text' | 'bytes'> & { text: string | null; bytes: Uint8Array | null },
	): void {
		this.sql.run(
			`INSERT INTO application_document (application_id, kind, file_name, encoding_type, document_source, document_format, text, bytes)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			[
				document.applicationId,
				document.kind,
				document.fileName,
				document.encodingType,
				document.documentSource,
				document.documentFormat,
				document.text,
				document.bytes,
			],
		);
	}

	/** Deletes every row of every table (reset before seeding again); the schema stays. */
	clearAll(): void {
		this.identity.clear();
		this.transaction(() => {
			for (const table of [
				// First: a reset that does not finish leaves a database that is seeded again at the next start.
				'sandbox_meta',
				'login_token',
				'candidate_tag',
				'note',
				'application_document',
				'application',
				'candidate',
				'tracking_log',
				'posting',
				'advert_value',
				'advert_destination',
				'advert',
				'feed_quota',
				'feed',
				'api_key',
				'app_user',
				'organisation',
				'progress',
				'lookup_value',
				'job_title',
			] as const) {
				this.sql.run(`DELETE FROM ${table}`);
			}
		});
	}

	/** Refreshes the planner's statistics (after seeding), so selective indexes win on large accounts. */
	analyze(): void {
		this.db.exec('ANALYZE');
	}

	/** The query plan of the count query of an advert search (tests check that documented filters use indexes). */
	explainAdvertSearch(search: AdvertSearch): string[] {
		const { where, values } = advertWhere(search);
		return this.explain(`SELECT count(*) AS total FROM advert a WHERE ${where}`, values);
	}

	/** The query plan of the count query of an application search. */
	explainApplicationSearch(search: ApplicationSearch): string[] {
		const { where, values } = applicationWhere(search);
		return this.explain(`SELECT count(*) AS total ${APPLICATION_SEARCH_FROM} WHERE ${where}`, values);
	}

	private explain(sql: string, values: SqlValue[]): string[] {
		return (this.sql.all(`EXPLAIN QUERY PLAN ${sql}`, values) as { detail: string }[]).map((row) => row.detail);
	}

	/** Row counts per table (diagnostics and tests). */
	counts(): Record<string, number> {
		const tables = [
			'organisation',
			'app_user',
			'api_key',
			'feed',
			'feed_quota',
			'advert',
			'posting',
			'tracking_log',
			'candidate',
			'application',
			'application_document',
			'note',
			'candidate_tag',
			'advert_value',
		] as const;
		const result: Record<string, number> = {};
		for (const table of tables) {
			result[table] = (this.sql.get(`SELECT count(*) AS n FROM ${table}`) as { n: number }).n;
		}
		return result;
	}

	/** A found identity lookup, kept frozen until the next write of its tables; misses are not kept. */
	private remember<T extends object>(key: string, load: () => T | undefined): T | undefined {
		if (this.identityWrites !== this.sql.watchedWrites) {
			this.identity.clear();
			this.identityWrites = this.sql.watchedWrites;
		}
		const kept = this.identity.get(key) as T | undefined;
		if (kept !== undefined) return kept;
		const value = load();
		if (value === undefined) return undefined;
		// Bounded against a caller cycling through many usernames; refilling is cheap.
		if (this.identity.size >= IDENTITY_CACHE_LIMIT) this.identity.clear();
		this.identity.set(key, Object.freeze(value));
		return value;
	}

	private one<T>(sql: string, values: SqlValue[]): T | undefined {
		return (this.sql.get(sql, values) as T | null) ?? undefined;
	}
}

/**
 * The total of a search, from its page when the page tells it exactly: without a window every row is
 * there; a page that is not full (and not past the end) ends the result. Otherwise it is counted.
 */
function pageTotal(found: number, window: PageWindow | undefined, count: () => number): number {
	if (window === undefined) return found;
	if (found < window.limit && (found > 0 || window.offset === 0)) return window.offset + found;
	return count();
}

function nearestPerFeed(rows: FeedQuotaRow[], distance: (row: FeedQuotaRow) => number): FeedQuotaRow[] {
	const best = new Map<number, FeedQuotaRow>();
	for (const row of rows) {
		const current = best.get(row.id);
		if (!current || distance(row) < distance(current)) best.set(row.id, row);
	}
	return [...best.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/**
 * `column IN (ids)`, or `column BETWEEN first AND last` when the ids are consecutive integers in order
 * (a subtree usually is): the same rows, without the temporary index SQLite builds for an IN list on
 * every run of the statement.
 */
function organisationClause(column: string, ids: readonly number[]): { clause: string; values: SqlValue[] } {
	let consecutive = ids.length > 2;
	for (let i = 1; consecutive && i < ids.length; i++) consecutive = ids[i] === ids[0] + i;
	if (consecutive && Number.isSafeInteger(ids[0])) {
		return { clause: `${column} BETWEEN ? AND ?`, values: [ids[0], ids[ids.length - 1]] };
	}
	return { clause: `${column} IN (${placeholders(ids.length)})`, values: [...ids] };
}

function advertWhere(search: AdvertSearch): { where: string; values: SqlValue[] } {
	const scope = organisationClause('a.organisation_id', search.organisationIds);
	const clauses = [scope.clause];
	const values: SqlValue[] = scope.values;
	if (search.userId !== undefined) {
		clauses.push('a.user_id = ?');
		values.push(search.userId);
	}
	if (search.advertId !== undefined) {
		clauses.push('a.id = ?');
		values.push(search.advertId);
	}
	if (search.identifier !== undefined) {
		clauses.push('a.identifier = ? COLLATE NOCASE');
		values.push(search.identifier);
	}
	if (search.reference !== undefined) {
		clauses.push('a.reference = ? COLLATE NOCASE');
		values.push(search.reference);
	}
	if (search.since !== undefined) {
		clauses.push('coalesce(a.last_post_date, a.created_at) >= ?');
		values.push(search.since);
	}
	if (search.statusIds !== undefined) {
		clauses.push(`a.status_id IN (${placeholders(search.statusIds.length)})`);
		values.push(...(search.statusIds.length > 0 ? search.statusIds : [-1]));
	}
	if (search.hideScheduledAfter !== undefined) {
		clauses.push('(a.scheduled_post_at IS NULL OR a.scheduled_post_at <= ?)');
		values.push(search.hideScheduledAfter);
	}
	if (search.lastScoreSince !== undefined) {
		clauses.push('a.id IN (SELECT advert_id FROM application WHERE last_score_date >= ?)');
		values.push(search.lastScoreSince);
	}
	if (search.lastProgressSince !== undefined) {
		clauses.push('a.id IN (SELECT advert_id FROM application WHERE last_progress_date >= ?)');
		values.push(search.lastProgressSince);
	}
	return { where: clauses.join(' AND '), values };
}

function applicationWhere(search: ApplicationSearch): { where: string; values: SqlValue[] } {
	// An IN list here: with a range the planner drives the joins from the organisations instead of the filter's index.
	const clauses = [`a.organisation_id IN (${placeholders(search.organisationIds.length)})`];
	const values: SqlValue[] = [...search.organisationIds];
	const add = (clause: string, ...clauseValues: SqlValue[]) => {
		clauses.push(clause);
		values.push(...clauseValues);
	};
	const addIn = (column: string, list: readonly number[]) =>
		add(`${column} IN (${placeholders(list.length)})`, ...(list.length > 0 ? list : [-1]));
	if (search.userId !== undefined) add('a.user_id = ?', search.userId);
	if (search.advertId !== undefined) add('ap.advert_id = ?', search.advertId);
	if (search.advertIdentifier !== undefined) add('a.identifier = ? COLLATE NOCASE', search.advertIdentifier);
	if (search.advertReference !== undefined) add('a.reference = ? COLLATE NOCASE', search.advertReference);
	if (search.feedIds !== undefined) addIn('ap.feed_id', search.feedIds);
	if (search.appliedFrom !== undefined) add('ap.applied_at >= ?', search.appliedFrom);
	if (search.appliedTo !== undefined) add('ap.applied_at <= ?', search.appliedTo);
	if (search.rankings !== undefined) addIn('ap.ranking', search.rankings);
	if (search.progressIds !== undefined) addIn('ap.progress_id', search.progressIds);
	if (search.applicationIds !== undefined) addIn('ap.id', search.applicationIds);
	if (search.lastScoreSince !== undefined) add('ap.last_score_date >= ?', search.lastScoreSince);
	if (search.lastProgressSince !== undefined) add('ap.last_progress_date >= ?', search.lastProgressSince);
	return { where: clauses.join(' AND '), values };
}
