/**
 * Applications: search, rows, actions (score, progress, notes), documents and the progress list.
 * An application search orders, pages and counts over `application JOIN advert` only, then reads the
 * page's rows with every join (see the domain README).
 */
import { placeholders, type SqlValue } from './database';
import {
	APPLICATION_ORDER_FIELDS,
	DEFAULT_APPLICATION_ORDER,
	orderClause,
	PAGE_GROUP,
	type ApplicationOrderField,
	type OrderTerm,
} from './ordering';
import { pageTotal } from './queryParts';
import type { StatementCache } from './statements';
import type { AdvertOwnership } from './adverts';
import type { ApplicationRow, DocumentRow, Page, PageWindow } from './types';

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

/** What an application action changes, without the joins of the full row. */
export type ApplicationState = Pick<ApplicationRow, 'id' | 'advertId' | 'ranking' | 'favourite' | 'interviewStatus'>;

export interface NoteRow {
	id: number;
	userId: number;
	subject: string;
	body: string;
	createdAt: string;
}

export interface ProgressRow {
	id: number;
	name: string;
}

const APPLICATION_COLUMNS = `ap.id, ap.advert_id AS advertId, ap.candidate_id AS candidateId, ap.posting_id AS postingId, ap.feed_id AS feedId,
	f.name AS feedName, ap.applied_at AS appliedAt, c.email, c.first_name AS firstName, c.last_name AS lastName,
	c.home_phone AS homePhone, c.work_phone AS workPhone, c.mobile_phone AS mobilePhone, c.address,
	ap.viewed, ap.ranking, ap.favourite, ap.archived, ap.progress_id AS progressId, p.name AS progressName,
	ap.interview_status AS interviewStatus, ap.processing_messages AS processingMessages,
	a.identifier AS advertIdentifier, a.reference AS advertReference, a.title AS advertTitle, a.user_id AS userId,
	a.organisation_id AS organisationId, o.name AS organisationName, o.parsing_enabled AS parsingEnabled,
	ap.last_score_date AS lastScoreDate, ap.last_progress_date AS lastProgressDate, ap.last_note_date AS lastNoteDate`;

const APPLICATION_FROM = `FROM application ap
	JOIN advert a ON a.id = ap.advert_id
	JOIN candidate c ON c.id = ap.candidate_id
	JOIN feed f ON f.id = ap.feed_id
	JOIN organisation o ON o.id = a.organisation_id
	JOIN progress p ON p.id = ap.progress_id`;

/** The tables a search's filters need: the joins of APPLICATION_FROM left out cannot drop a row (NOT NULL foreign keys). */
const APPLICATION_SEARCH_FROM = 'FROM application ap JOIN advert a ON a.id = ap.advert_id';

/** Above this many organisations in a scope, the date bounds of a search are kept as given (see appliedSpan). */
const MAX_SPAN_ORGANISATIONS = 64;

/** Ids per `IN (...)` when reading a page's rows: far below SQLite's limit of bound values, whatever the page size. */
const ROWS_PER_IN_LIST = 500;

export class ApplicationRepository {
	private keptProgress: { writes: number; rows: readonly ProgressRow[] } | undefined;

	constructor(private readonly sql: StatementCache) {}

	/**
	 * One page of applications matching the search, and the total count. The filters and the order
	 * need only the application, its advert and (to sort by name or email) the candidate, so the page's
	 * ids are chosen and counted over those tables alone; the joined rows are then read for that page
	 * only. Sorting ids rather than whole rows keeps a search over a million applications to a sort of
	 * keys, and every join left out is a lookup saved per matching row. The joins left out never drop
	 * a row (NOT NULL foreign keys, enforced), so the ids and the total are those of the full join.
	 */
	search(
		search: ApplicationSearch,
		order: readonly OrderTerm<ApplicationOrderField>[],
		window: PageWindow,
	): Page<ApplicationRow> {
		const query = this.pageQuery(search, order, window);
		const ids = this.sql.all<{ id: number }>(query.sql, query.values).map((row) => row.id);
		const total = query.total ?? pageTotal(ids.length, window, () => this.countOf(query.filter));
		return { total, rows: this.rowsOf(ids) };
	}

	/** The query plan of the page query a search runs (tests check that it walks an index in page order). */
	explainPage(
		search: ApplicationSearch,
		order: readonly OrderTerm<ApplicationOrderField>[],
		window: PageWindow,
	): string[] {
		const query = this.pageQuery(search, order, window);
		return this.sql
			.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`, query.values)
			.map((row) => row.detail);
	}

	/**
	 * The query of a page's ids. In the default order without an advert or id filter (a date range over
	 * the whole account, say), the matches are counted first: when they are a large enough share of the
	 * applications, the page walks application_page_order in page order and stops after the page, instead
	 * of sorting every match; when they are few, sorting them is cheaper than skipping the others.
	 */
	private pageQuery(
		search: ApplicationSearch,
		order: readonly OrderTerm<ApplicationOrderField>[],
		window: PageWindow,
	): { sql: string; values: SqlValue[]; filter: SearchFilter; total?: number } {
		const filter = this.filterOf(search);
		const pageValues = [window.limit, window.offset];
		if (order.length === 0 && walksPageOrder(search)) {
			const total = this.countOf(filter);
			if (total > 0 && pageOrderPays(total, window, this.applicationIdCeiling())) {
				// The advert's conditions checked per application read, so the applications stay the outer loop:
				// one owner's adverts are few, read once into a list (3× faster per entry walked than a lookup
				// each, measured); a scope's adverts may be tens of thousands, looked up per entry instead.
				const adverts = `SELECT a.id FROM advert a WHERE ${filter.advert.clauses.join(' AND ')}`;
				const advert =
					filter.advert.clauses.length === 0
						? []
						: search.userId !== undefined
							? [`ap.advert_id IN (${adverts})`]
							: [`EXISTS (${adverts} AND a.id = ap.advert_id)`];
				// Unranked applications come first in page order: a filter of several rankings, none 0, starts
				// after them (one ranking alone is found by SQLite's skip-scan, which this range would prevent).
				const ranked =
					search.rankings !== undefined && search.rankings.length > 1 && !search.rankings.includes(0)
						? [`${PAGE_GROUP} >= 1`]
						: [];
				return {
					sql: `SELECT ap.id FROM application ap INDEXED BY application_page_order WHERE ${whereOf([...advert, ...ranked, ...filter.application.clauses])} ORDER BY ${DEFAULT_APPLICATION_ORDER} LIMIT ? OFFSET ?`,
					values: [...filter.advert.values, ...filter.application.values, ...pageValues],
					filter,
					total,
				};
			}
			const { from, where, values } = searchParts(filter);
			return {
				sql: `SELECT ap.id ${from} WHERE ${where} ORDER BY ${DEFAULT_APPLICATION_ORDER} LIMIT ? OFFSET ?`,
				values: [...values, ...pageValues],
				filter,
				total,
			};
		}
		const orderBy =
			order.length > 0 ? orderClause(order, APPLICATION_ORDER_FIELDS, 'ap.id DESC') : DEFAULT_APPLICATION_ORDER;
		// Ordering by an advert field needs the advert even when no filter does.
		const { from, where, values } = searchParts(filter, /\ba\./.test(orderBy));
		const withCandidate = /\bc\./.test(orderBy) ? `${from} JOIN candidate c ON c.id = ap.candidate_id` : from;
		return {
			sql: `SELECT ap.id ${withCandidate} WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
			values: [...values, ...pageValues],
			filter,
		};
	}

	/** How many applications match a search's conditions (the joins of APPLICATION_FROM left out never drop a row). */
	private countOf(filter: SearchFilter): number {
		const { from, where, values } = searchParts(filter);
		return this.sql.one<{ total: number }>(`SELECT count(*) AS total ${from} WHERE ${where}`, values)?.total ?? 0;
	}

	/**
	 * A search's conditions. A date bound that every application of the scope meets is left out ("all
	 * time" is a start date in 2000, the usual way to search without a job): the filter's index then
	 * counts its range without comparing each entry's date.
	 */
	private filterOf(search: ApplicationSearch): SearchFilter {
		if (namesAdverts(search) || (search.appliedFrom === undefined && search.appliedTo === undefined)) {
			return applicationFilter(search);
		}
		const span = this.appliedSpan(search.organisationIds);
		if (span === undefined) return applicationFilter(search);
		return applicationFilter({
			...search,
			appliedFrom:
				search.appliedFrom !== undefined && search.appliedFrom <= span.first ? undefined : search.appliedFrom,
			appliedTo: search.appliedTo !== undefined && search.appliedTo >= span.last ? undefined : search.appliedTo,
		});
	}

	/**
	 * The first and last application dates of these organisations, two index seeks each; undefined when
	 * they have no application, or are too many organisations for the seeks to be worth it.
	 */
	private appliedSpan(organisationIds: readonly number[]): { first: string; last: string } | undefined {
		if (organisationIds.length > MAX_SPAN_ORGANISATIONS) return undefined;
		let first: string | undefined;
		let last: string | undefined;
		for (const id of new Set(organisationIds)) {
			const row = this.sql.one<{ first: string | null; last: string | null }>(
				// Two scalar subqueries: min and max in one SELECT would read the whole range instead of its ends.
				'SELECT (SELECT min(applied_at) FROM application WHERE organisation_id = ?) AS first, (SELECT max(applied_at) FROM application WHERE organisation_id = ?) AS last',
				[id, id],
			);
			if (row === undefined || row.first === null || row.last === null) continue;
			if (first === undefined || row.first < first) first = row.first;
			if (last === undefined || row.last > last) last = row.last;
		}
		return first === undefined || last === undefined ? undefined : { first, last };
	}

	/** The highest application id: about the number of applications, read from the end of the table's b-tree. */
	private applicationIdCeiling(): number {
		return this.sql.one<{ id: number | null }>('SELECT max(id) AS id FROM application')?.id ?? 0;
	}

	byId(id: number): ApplicationRow | undefined {
		return this.sql.all<ApplicationRow>(`SELECT ${APPLICATION_COLUMNS} ${APPLICATION_FROM} WHERE ap.id = ?`, [
			id,
		])[0];
	}

	/**
	 * An application action's target in one query: the application's state and its advert's owner,
	 * when the application belongs to that advert; otherwise undefined (see AdvertRepository.ownership and state).
	 */
	ofAdvert(
		applicationId: number,
		advertId: number,
	): { application: ApplicationState; advert: AdvertOwnership } | undefined {
		const row = this.sql.one<ApplicationState & { userId: number; organisationId: number }>(
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
	state(id: number): ApplicationState | undefined {
		return this.sql.one<ApplicationState>(
			'SELECT id, advert_id AS advertId, ranking, favourite, interview_status AS interviewStatus FROM application WHERE id = ?',
			[id],
		);
	}

	/** Documents of these applications, of the given kinds. */
	documents(applicationIds: readonly number[], kinds: readonly string[]): DocumentRow[] {
		if (applicationIds.length === 0 || kinds.length === 0) return [];
		return this.sql.all<DocumentRow>(
			`SELECT application_id AS applicationId, kind, file_name AS fileName, encoding_type AS encodingType, document_source AS documentSource,
				document_format AS documentFormat, text, bytes
			FROM application_document WHERE application_id IN (${placeholders(applicationIds.length)}) AND kind IN (${placeholders(kinds.length)})`,
			[...applicationIds, ...kinds],
		);
	}

	/**
	 * Sets ranking and favourite flags and records who scored and when. The same score by the same user
	 * in the same second (dates have second precision) finds the row already so and changes nothing:
	 * nothing is written and kept answers stay true.
	 */
	score(id: number, ranking: number, favourite: boolean, byUserId: number, at: string): void {
		const values = [ranking, favourite ? 1 : 0, at, byUserId];
		this.sql.run(
			'UPDATE application SET ranking = ?, favourite = ?, viewed = 1, last_score_date = ?, last_scored_by = ? ' +
				'WHERE id = ? AND NOT (ranking IS ? AND favourite IS ? AND viewed = 1 AND last_score_date IS ? AND last_scored_by IS ?)',
			[...values, id, ...values],
		);
	}

	/**
	 * Sets the progress; moving to Interview starts a pending interview. The same again in the same
	 * second changes nothing (see score).
	 */
	progress(id: number, progressId: number, interviewStatus: string | null, byUserId: number, at: string): void {
		const values = [progressId, interviewStatus, at, byUserId];
		this.sql.run(
			'UPDATE application SET progress_id = ?, interview_status = ?, viewed = 1, last_progress_date = ?, last_progressed_by = ? ' +
				'WHERE id = ? AND NOT (progress_id IS ? AND interview_status IS ? AND viewed = 1 AND last_progress_date IS ? AND last_progressed_by IS ?)',
			[...values, id, ...values],
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

	notesOf(applicationId: number): NoteRow[] {
		return this.sql.all<NoteRow>(
			'SELECT id, user_id AS userId, subject, body, created_at AS createdAt FROM note WHERE application_id = ? ORDER BY id',
			[applicationId],
		);
	}

	progressById(id: number): ProgressRow | undefined {
		return this.sql.one<ProgressRow>('SELECT id, name FROM progress WHERE id = ?', [id]);
	}

	/** The progress steps (a lookup only seeding writes), kept until the next write: every page of applications names them. */
	progressList(): readonly ProgressRow[] {
		if (this.keptProgress?.writes !== this.sql.writes) {
			const rows = this.sql
				.all<ProgressRow>('SELECT id, name FROM progress ORDER BY id')
				.map((row) => Object.freeze(row));
			this.keptProgress = { writes: this.sql.writes, rows: Object.freeze(rows) };
		}
		return this.keptProgress.rows;
	}

	/** Inserts a new (unranked, progress New) application and returns its id (AdvertCandidateID). */
	insert(application: {
		advertId: number;
		/** The advert's organisation (a trigger refuses any other). */
		organisationId: number;
		candidateId: number;
		postingId: number;
		feedId: number;
		appliedAt: string;
		scoreExtra: number;
	}): number {
		return Number(
			this.sql.run(
				'INSERT INTO application (advert_id, organisation_id, candidate_id, posting_id, feed_id, applied_at, score_extra) VALUES (?, ?, ?, ?, ?, ?, ?)',
				[
					application.advertId,
					application.organisationId,
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

	/** The query plan of the count query of a search (tests check that documented filters use indexes). */
	explainSearch(search: ApplicationSearch): string[] {
		const { from, where, values } = searchParts(this.filterOf(search));
		return this.sql
			.all<{ detail: string }>(`EXPLAIN QUERY PLAN SELECT count(*) AS total ${from} WHERE ${where}`, values)
			.map((row) => row.detail);
	}

	/** The application rows of these ids, in this order. */
	private rowsOf(ids: readonly number[]): ApplicationRow[] {
		const byId = new Map<number, ApplicationRow>();
		for (let start = 0; start < ids.length; start += ROWS_PER_IN_LIST) {
			const chunk = ids.slice(start, start + ROWS_PER_IN_LIST);
			// Plain columns: node:sqlite builds the row objects faster than JSON.parse would (157 against 266 µs
			// for 50 rows, measured), unlike the WebAssembly binding for which StatementCache.allJson was made.
			const rows = this.sql.all<ApplicationRow>(
				`SELECT ${APPLICATION_COLUMNS} ${APPLICATION_FROM} WHERE ap.id IN (${placeholders(chunk.length)})`,
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
}

/** Searches that no index narrows better than the page order: no advert and no application ids. */
function walksPageOrder(search: ApplicationSearch): boolean {
	return (
		search.advertId === undefined &&
		search.advertIdentifier === undefined &&
		search.advertReference === undefined &&
		search.applicationIds === undefined
	);
}

/** A sorted match against a skipped index entry (a rough ratio; the choice is not sensitive to it). */
const SORT_COST_PER_MATCH = 2;

/**
 * Whether walking the page order beats sorting the matches. The walk reads about
 * (offset + limit) × applications / matches index entries (the matches are spread through the order);
 * the sort reads every match and sorts it, which costs more per row than an entry skipped by the walk.
 */
function pageOrderPays(matches: number, window: PageWindow, applications: number): boolean {
	const walked = ((window.offset + window.limit) * Math.max(applications, matches)) / matches;
	return walked <= matches * SORT_COST_PER_MATCH;
}

/** Conditions of a search and their values: on the advert (needs the join) and on the application itself. */
interface SearchFilter {
	advert: { clauses: string[]; values: SqlValue[] };
	application: { clauses: string[]; values: SqlValue[] };
}

/** FROM and WHERE of a search's count and sorted page: the advert is joined only when a condition needs it. */
function searchParts(filter: SearchFilter, needsAdvert = false): { from: string; where: string; values: SqlValue[] } {
	const withAdvert = needsAdvert || filter.advert.clauses.length > 0;
	return {
		from: withAdvert ? APPLICATION_SEARCH_FROM : 'FROM application ap',
		where: whereOf([...filter.advert.clauses, ...filter.application.clauses]),
		values: [...filter.advert.values, ...filter.application.values],
	};
}

function whereOf(clauses: readonly string[]): string {
	return clauses.length > 0 ? clauses.join(' AND ') : '1';
}

/** Whether a search names its adverts (by id, owner or identifiers) rather than searching the whole scope. */
function namesAdverts(search: ApplicationSearch): boolean {
	return (
		search.advertId !== undefined ||
		search.userId !== undefined ||
		search.advertIdentifier !== undefined ||
		search.advertReference !== undefined
	);
}

function applicationFilter(search: ApplicationSearch): SearchFilter {
	const filter: SearchFilter = { advert: { clauses: [], values: [] }, application: { clauses: [], values: [] } };
	const onAdvert = (clause: string, ...values: SqlValue[]) => {
		filter.advert.clauses.push(clause);
		filter.advert.values.push(...values);
	};
	const add = (clause: string, ...values: SqlValue[]) => {
		filter.application.clauses.push(clause);
		filter.application.values.push(...values);
	};
	const addIn = (column: string, list: readonly number[]) =>
		add(`${column} IN (${placeholders(list.length)})`, ...(list.length > 0 ? list : [-1]));
	// The scope on the application's own copy of its advert's organisation (migration 7), which the filter
	// indexes hold, unless the search names adverts (by id, owner or identifiers): then on the advert,
	// looked up once per advert, and the applications are read from the advert's covering indexes.
	if (namesAdverts(search)) {
		onAdvert(`a.organisation_id IN (${placeholders(search.organisationIds.length)})`, ...search.organisationIds);
	} else {
		addIn('ap.organisation_id', search.organisationIds);
	}
	if (search.userId !== undefined) onAdvert('a.user_id = ?', search.userId);
	if (search.advertIdentifier !== undefined) onAdvert('a.identifier = ? COLLATE NOCASE', search.advertIdentifier);
	if (search.advertReference !== undefined) onAdvert('a.reference = ? COLLATE NOCASE', search.advertReference);
	if (search.advertId !== undefined) add('ap.advert_id = ?', search.advertId);
	if (search.feedIds !== undefined) addIn('ap.feed_id', search.feedIds);
	if (search.appliedFrom !== undefined) add('ap.applied_at >= ?', search.appliedFrom);
	if (search.appliedTo !== undefined) add('ap.applied_at <= ?', search.appliedTo);
	if (search.rankings !== undefined) addIn('ap.ranking', search.rankings);
	if (search.progressIds !== undefined) addIn('ap.progress_id', search.progressIds);
	if (search.applicationIds !== undefined) addIn('ap.id', search.applicationIds);
	if (search.lastScoreSince !== undefined) add('ap.last_score_date >= ?', search.lastScoreSince);
	if (search.lastProgressSince !== undefined) add('ap.last_progress_date >= ?', search.lastProgressSince);
	return filter;
}
