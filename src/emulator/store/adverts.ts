/**
 * Adverts: search, rows, application counters, fields, destinations, extra values and completion.
 * Counters and rows by id are kept until the next `run()` of any statement (`StatementCache.writes`),
 * so a read never returns data older than the last write.
 */
import { placeholders, type SqlValue } from './database';
import {
	ADVERT_ORDER_FIELDS,
	DEFAULT_ADVERT_ORDER,
	orderClause,
	type AdvertOrderField,
	type OrderTerm,
} from './ordering';
import { asNumericId, organisationClause, pageTotal } from './queryParts';
import { jsonRow, type StatementCache } from './statements';
import type { AdvertFields, AdvertRow, AdvertStats, AdvertValueRow, Page, PageWindow } from './types';

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

/** Who owns an advert: enough to check access without reading the whole row. */
export type AdvertOwnership = Pick<AdvertRow, 'id' | 'userId' | 'organisationId'>;

/** A new advert: its fields and who created it. */
export type NewAdvert = AdvertFields & {
	userId: number;
	organisationId: number;
	completionToken: string;
	createdAt: string;
	source: string;
};

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

/** Most advert counters and rows kept at once. */
const DERIVED_CACHE_LIMIT = 20_000;
/** Ids per `IN (...)` when reading rows by id. */
const ROWS_PER_IN_LIST = 500;

export class AdvertRepository {
	/**
	 * Application counters by advert (null: no applications), valid for one value of `sql.writes`:
	 * any write empties it, so a page of adverts never shows counters older than the last write.
	 */
	private readonly kept = new Map<number, AdvertStats | null>();
	/** Advert rows by id, under the same rule as `kept`: valid until the next write. */
	private readonly rows = new Map<number, AdvertRow>();
	private derivedWrites = -1;

	constructor(private readonly sql: StatementCache) {}

	byId(id: number): AdvertRow | undefined {
		return this.rowsOf([id])[0];
	}

	/** Who owns an advert, without reading the whole row. */
	ownership(id: number): AdvertOwnership | undefined {
		return this.sql.one<AdvertOwnership>(
			`SELECT id, user_id AS userId, organisation_id AS organisationId FROM advert WHERE id = ?`,
			[id],
		);
	}

	/** One page of adverts matching the search, and the total count. */
	search(search: AdvertSearch, order: readonly OrderTerm<AdvertOrderField>[], window?: PageWindow): Page<AdvertRow> {
		const { where, values } = advertWhere(search);
		const orderBy = order.length > 0 ? orderClause(order, ADVERT_ORDER_FIELDS, 'a.id DESC') : DEFAULT_ADVERT_ORDER;
		const limit = window ? ' LIMIT ? OFFSET ?' : '';
		// The query orders and pages ids only; the rows come from those kept since the last write.
		const ids = this.sql
			.all<{
				id: number;
			}>(
				`SELECT a.id FROM advert a WHERE ${where} ORDER BY ${orderBy}${limit}`,
				window ? [...values, window.limit, window.offset] : values,
			)
			.map((row) => row.id);
		const total = pageTotal(
			ids.length,
			window,
			() =>
				this.sql.one<{ total: number }>(`SELECT count(*) AS total FROM advert a WHERE ${where}`, values)
					?.total ?? 0,
		);
		return { total, rows: this.rowsOf(ids) };
	}

	/** Adverts of these organisations with this identifier, posted or created at or after `since`, newest first; deleted ones excluded. */
	withIdentifier(identifier: string, organisationIds: readonly number[], since: string | undefined): AdvertRow[] {
		return this.search({ organisationIds, identifier, since, statusIds: [0, 16] }, []).rows;
	}

	/** An advert by the token of its completion URL (for the completion page). */
	byCompletionToken(token: string): AdvertRow | undefined {
		return this.sql.allJson<AdvertRow>(`SELECT ${ADVERT_JSON} FROM advert a WHERE a.completion_token = ?`, [
			token,
		])[0];
	}

	/** Application counters of these adverts, computed from their applications (kept until the next write). */
	stats(advertIds: readonly number[]): Map<number, AdvertStats> {
		this.forgetDerivedAfterWrites();
		const missing = advertIds.filter((id) => !this.kept.has(id));
		if (missing.length > 0) {
			const rows = this.sql.all<AdvertStats>(
				`SELECT advert_id AS advertId, count(*) AS applications, sum(viewed) AS viewed,
					sum(ranking = 4) AS suitable, sum(ranking = 2) AS maybeSuitable, sum(ranking = 1) AS unsuitable,
					sum(interview_status = 'Confirmed') AS interviewConfirmed, sum(interview_status = 'Pending') AS interviewPending,
					sum(interview_status = 'CannotAttend') AS interviewCannotAttend, sum(interview_status = 'Declined') AS interviewDeclined,
					sum(progress_id <> 1) AS withStatus, sum(progress_id = 1) AS withStatusNew,
					max(last_score_date) AS lastScoreDate, max(last_progress_date) AS lastProgressDate
				FROM application WHERE advert_id IN (${placeholders(missing.length)}) GROUP BY advert_id`,
				missing,
			);
			for (const id of missing) this.kept.set(id, null);
			for (const row of rows) this.kept.set(row.advertId, Object.freeze(row));
		}
		const result = new Map<number, AdvertStats>();
		for (const id of advertIds) {
			const row = this.kept.get(id);
			if (row) result.set(id, row);
		}
		return result;
	}

	/** Creates an advert and returns its id. */
	insert(advert: NewAdvert): number {
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
	update(id: number, changes: AdvertFields): void {
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
	setDestinations(advertId: number, feedIds: readonly number[]): void {
		this.sql.run('DELETE FROM advert_destination WHERE advert_id = ?', [advertId]);
		for (const feedId of feedIds) {
			this.sql.run('INSERT INTO advert_destination (advert_id, feed_id) VALUES (?, ?)', [advertId, feedId]);
		}
	}

	destinations(advertId: number): number[] {
		return this.sql
			.all<{
				feedId: number;
			}>('SELECT feed_id AS feedId FROM advert_destination WHERE advert_id = ? ORDER BY feed_id', [advertId])
			.map((row) => row.feedId);
	}

	/** Extra values of these adverts, optionally limited to fields (FieldID or FieldIdentifier) and feeds. */
	values(
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
		return this.sql.all<AdvertValueRow>(`${sql} ORDER BY advert_id, feed_id, field_id, id`, values);
	}

	/** Records the outcome of a delivery on the advert. */
	markDelivered(advertId: number, postedAt: string, deliveredAt: string, deliveryStatusId: number): void {
		this.sql.run(
			'UPDATE advert SET last_post_date = ?, last_delivery_date = ?, last_delivery_status_id = ? WHERE id = ?',
			[postedAt, deliveredAt, deliveryStatusId, advertId],
		);
	}

	/**
	 * Marks the advert's posting as completed (the completion page was submitted), only if it is not
	 * completed yet. Returns whether this call completed it.
	 */
	markCompleted(advertId: number, at: string): boolean {
		return (
			this.sql.run(
				'UPDATE advert SET completed_at = ?, last_delivery_status_id = 1 WHERE id = ? AND completed_at IS NULL',
				[at, advertId],
			).changes === 1
		);
	}

	/** When the advert's posting was completed, or undefined. */
	completedAt(advertId: number): string | undefined {
		return (
			this.sql.one<{ completedAt: string | null }>(
				'SELECT completed_at AS completedAt FROM advert WHERE id = ?',
				[advertId],
			)?.completedAt ?? undefined
		);
	}

	/** The query plan of the count query of a search (tests check that documented filters use indexes). */
	explainSearch(search: AdvertSearch): string[] {
		const { where, values } = advertWhere(search);
		return this.sql
			.all<{ detail: string }>(`EXPLAIN QUERY PLAN SELECT count(*) AS total FROM advert a WHERE ${where}`, values)
			.map((row) => row.detail);
	}

	/** The advert rows of these ids, in this order (ids without a row are left out). */
	private rowsOf(ids: readonly number[]): AdvertRow[] {
		this.forgetDerivedAfterWrites();
		const missing = ids.filter((id) => !this.rows.has(id));
		for (let i = 0; i < missing.length; i += ROWS_PER_IN_LIST) {
			const chunk = missing.slice(i, i + ROWS_PER_IN_LIST);
			const rows = this.sql.allJson<AdvertRow>(
				`SELECT ${ADVERT_JSON} FROM advert a WHERE a.id IN (${placeholders(chunk.length)})`,
				chunk,
			);
			for (const row of rows) this.rows.set(row.id, Object.freeze(row));
		}
		const out: AdvertRow[] = [];
		for (const id of ids) {
			const row = this.rows.get(id);
			if (row !== undefined) out.push(row);
		}
		return out;
	}

	/** Empties the caches of derived data (counters, advert rows) when anything was written since they were filled. */
	private forgetDerivedAfterWrites(): void {
		if (this.derivedWrites !== this.sql.writes || this.kept.size + this.rows.size > DERIVED_CACHE_LIMIT) {
			this.kept.clear();
			this.rows.clear();
			this.derivedWrites = this.sql.writes;
		}
	}
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
