/** Postings of adverts to job boards, their tracking log, quota use and the delivery queue. */
import { placeholders, type SqlValue } from './database';
import type { StatementCache } from './statements';
import type { Page, PageWindow, PostingRow, TrackingLogRow } from './types';

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

/** The outcome of one delivery, as recorded on the posting, its tracking log and its advert. */
export interface DeliveryOutcome {
	postingId: number;
	advertId: number;
	statusId: number;
	at: string;
	errorLevel: string;
	response: string;
	postedAt: string;
}

const POSTING_COLUMNS = `p.id, p.advert_id AS advertId, p.feed_id AS feedId, f.name AS feedName, p.user_id AS userId, p.posted_at AS postedAt,
				p.estimated_expire_at AS estimatedExpireAt, p.corrected_at AS correctedAt, p.delivery_status_id AS deliveryStatusId, p.delivered_at AS deliveredAt`;

export class PostingRepository {
	constructor(
		private readonly sql: StatementCache,
		private readonly transaction: <T>(work: () => T) => T,
	) {}

	/** Postings a user made per feed (quota use). */
	usedByUser(userId: number): Map<number, number> {
		const rows = this.sql.all<{ feedId: number; used: number }>(
			'SELECT feed_id AS feedId, count(*) AS used FROM posting WHERE user_id = ? GROUP BY feed_id',
			[userId],
		);
		return new Map(rows.map((row) => [row.feedId, row.used]));
	}

	/** Feeds an advert has been posted to before. */
	postedFeedIds(advertId: number): number[] {
		return this.sql
			.all<{
				feedId: number;
			}>('SELECT DISTINCT feed_id AS feedId FROM posting WHERE advert_id = ? ORDER BY feed_id', [advertId])
			.map((row) => row.feedId);
	}

	insert(posting: NewPosting): number {
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

	/**
	 * Inserts a posting waiting for delivery (DELIVERY_STATUS Pending) that the scheduler delivers at
	 * `dueAt`. The advert counts as posted from now on: its LastPostDate is this posting's date (the
	 * same moment ExpressPostAdvert starts accepting it), not the delivery's.
	 */
	insertPending(posting: Omit<NewPosting, 'deliveryStatusId' | 'deliveredAt'> & { dueAt: string }): number {
		this.sql.run(
			'UPDATE advert SET last_post_date = ? WHERE id = ? AND (last_post_date IS NULL OR last_post_date < ?)',
			[posting.postedAt, posting.advertId, posting.postedAt],
		);
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

	byId(id: number): PostingRow | undefined {
		return this.sql.one<PostingRow>(
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
		return this.sql.all<TrackingLogRow>(`${sql} ORDER BY t.delivered_at, t.id`, values);
	}

	/**
	 * Pending postings due at or before `now`, oldest first (index posting_pending_due), leaving out
	 * those to `skipFeedIds` (boards a scenario keeps silent).
	 */
	due(now: string, limit: number, skipFeedIds: readonly number[] = []): DuePosting[] {
		const skip = skipFeedIds.length > 0 ? ` AND p.feed_id NOT IN (${placeholders(skipFeedIds.length)})` : '';
		return this.sql.all<DuePosting>(
			`SELECT p.id, p.advert_id AS advertId, p.feed_id AS feedId, p.posted_at AS postedAt, p.due_at AS dueAt, f.identifier AS feedIdentifier
			FROM posting p JOIN feed f ON f.id = p.feed_id WHERE p.delivery_status_id = 1 AND p.due_at <= ?${skip} ORDER BY p.due_at, p.id LIMIT ?`,
			[now, ...skipFeedIds, limit],
		);
	}

	/** The earliest due date of a pending posting, if any. */
	nextDueAt(): string | undefined {
		const row = this.sql.one<{ dueAt: string | null }>(
			'SELECT min(due_at) AS dueAt FROM posting WHERE delivery_status_id = 1',
			[],
		);
		return row?.dueAt ?? undefined;
	}

	/** Records a delivery outcome on the posting, its tracking log and its advert, in one transaction. */
	recordDelivery(delivery: DeliveryOutcome): void {
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

	/** Postings of an advert, oldest first. */
	ofAdvert(advertId: number): (PostingRow & { feedName: string })[] {
		return this.sql.all<PostingRow & { feedName: string }>(
			`SELECT ${POSTING_COLUMNS}
			FROM posting p JOIN feed f ON f.id = p.feed_id WHERE p.advert_id = ? ORDER BY p.id`,
			[advertId],
		);
	}

	/** Postings of adverts in these organisations, newest first, with a total (web interface). */
	page(
		organisationIds: readonly number[],
		window: PageWindow,
		userId?: number,
	): Page<PostingRow & { feedName: string; advertTitle: string }> {
		const where = `a.organisation_id IN (${placeholders(organisationIds.length)})${userId === undefined ? '' : ' AND a.user_id = ?'}`;
		const scope: SqlValue[] = userId === undefined ? [...organisationIds] : [...organisationIds, userId];
		const total =
			this.sql.one<{ total: number }>(
				`SELECT count(*) AS total FROM posting p JOIN advert a ON a.id = p.advert_id WHERE ${where}`,
				scope,
			)?.total ?? 0;
		const rows = this.sql.all<PostingRow & { feedName: string; advertTitle: string }>(
			`SELECT ${POSTING_COLUMNS}, a.title AS advertTitle
			FROM posting p JOIN advert a ON a.id = p.advert_id JOIN feed f ON f.id = p.feed_id WHERE ${where} ORDER BY p.posted_at DESC, p.id DESC LIMIT ? OFFSET ?`,
			[...scope, window.limit, window.offset],
		);
		return { total, rows };
	}

	/** Live adverts (status Created, posted to a board that delivered), for new applications in live mode. */
	liveTargets(limit: number): LiveTarget[] {
		return this.sql.all<LiveTarget>(
			`SELECT a.id AS advertId, a.title, a.organisation_id AS organisationId, a.callback_url AS callbackUrl, p.id AS postingId, p.feed_id AS feedId,
				u.applications_email AS ownerEmail
			FROM advert a JOIN posting p ON p.advert_id = a.id JOIN app_user u ON u.id = a.user_id
			WHERE a.status_id = 0 AND p.delivery_status_id = 2 ORDER BY p.delivered_at DESC, p.id DESC LIMIT ?`,
			[limit],
		);
	}
}
