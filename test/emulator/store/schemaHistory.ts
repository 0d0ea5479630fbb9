import type { Database } from '../../../src/emulator/store/engine';

/**
 * Takes a database of the latest schema back to version 6, as an earlier version left it: without
 * migration 7's column, triggers and indexes, with the indexes version 6 had. Upgrade tests start
 * from this.
 */
export function backToSchema6(db: Database): void {
	db.exec(`DROP TRIGGER application_organisation_insert;
		DROP TRIGGER application_organisation_update;
		DROP TRIGGER advert_organisation_fixed;
		DROP INDEX application_organisation_applied;
		DROP INDEX application_feed;
		DROP INDEX application_ranking;
		DROP INDEX application_progress;
		DROP INDEX application_last_score;
		DROP INDEX application_last_progress;
		DROP INDEX application_page_order;
		DROP INDEX application_advert_applied;
		CREATE INDEX application_advert_applied ON application(advert_id, applied_at);
		ALTER TABLE application DROP COLUMN organisation_id;
		CREATE INDEX application_advert ON application(advert_id);
		CREATE INDEX application_feed ON application(feed_id);
		CREATE INDEX application_applied ON application(applied_at);
		CREATE INDEX application_ranking ON application(ranking);
		CREATE INDEX application_progress ON application(progress_id);
		CREATE INDEX application_last_score ON application(last_score_date);
		CREATE INDEX application_last_progress ON application(last_progress_date);
		CREATE INDEX application_page_order ON application((CASE WHEN archived = 1 THEN 2 WHEN ranking = 0 THEN 0 ELSE 1 END), ranking DESC, score_extra DESC, favourite DESC, applied_at DESC, id DESC, advert_id);
		DELETE FROM schema_version WHERE version >= 7;`);
}
