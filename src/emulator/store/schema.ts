/**
 * The sandbox database schema as numbered migrations. A migration is never edited once released:
 * changes go into a new migration so that existing sandbox files upgrade in place.
 */

import type { Database } from './engine';

export interface Migration {
	readonly version: number;
	readonly description: string;
	readonly sql: string;
	/** Work after the SQL, in the same transaction; `from` is the version the database had before migrating. */
	readonly after?: (db: Database, from: number) => void;
}

/** Key of the row of `sandbox_meta` that seeding writes in its last transaction. */
export const SEEDED_KEY = 'seeded';

export const MIGRATIONS: readonly Migration[] = [
	{
		version: 1,
		description: 'Organisations, users, keys, feeds, adverts, postings, applications, documents, lookups',
		sql: `
CREATE TABLE organisation (
	id INTEGER PRIMARY KEY,
	identifier TEXT NOT NULL UNIQUE COLLATE NOCASE,
	name TEXT NOT NULL,
	parent_id INTEGER REFERENCES organisation(id),
	parsing_enabled INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX organisation_parent ON organisation(parent_id);

CREATE TABLE api_key (
	key_hash TEXT PRIMARY KEY,
	organisation_id INTEGER NOT NULL REFERENCES organisation(id),
	label TEXT NOT NULL
);
CREATE INDEX api_key_organisation ON api_key(organisation_id);

CREATE TABLE app_user (
	id INTEGER PRIMARY KEY,
	organisation_id INTEGER NOT NULL REFERENCES organisation(id),
	identifier TEXT NOT NULL UNIQUE COLLATE NOCASE,
	username TEXT NOT NULL UNIQUE COLLATE NOCASE,
	password_hash TEXT NOT NULL,
	role_id INTEGER NOT NULL,
	active INTEGER NOT NULL DEFAULT 1,
	first_name TEXT NOT NULL,
	last_name TEXT NOT NULL,
	email TEXT NOT NULL,
	applications_email TEXT,
	phone TEXT,
	mobile TEXT,
	fax TEXT,
	position TEXT,
	culture_id TEXT NOT NULL DEFAULT 'en-GB',
	website TEXT,
	address1 TEXT,
	address2 TEXT,
	address3 TEXT,
	state TEXT,
	country TEXT,
	post_code TEXT,
	notification_flags INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX app_user_organisation ON app_user(organisation_id);

CREATE TABLE feed (
	id INTEGER PRIMARY KEY,
	identifier TEXT NOT NULL UNIQUE COLLATE NOCASE,
	name TEXT NOT NULL,
	short_description TEXT NOT NULL,
	logo_url TEXT NOT NULL,
	home_page_url TEXT NOT NULL,
	contact_name TEXT,
	contact_phone TEXT,
	contact_email TEXT,
	culture_id TEXT NOT NULL,
	feed_type_id INTEGER NOT NULL,
	free INTEGER NOT NULL,
	cost TEXT NOT NULL,
	cost_type_id INTEGER NOT NULL,
	html_support TEXT NOT NULL,
	description_min_length INTEGER NOT NULL,
	description_max_length INTEGER NOT NULL,
	support_delete INTEGER NOT NULL,
	support_fix INTEGER NOT NULL,
	upload_times TEXT,
	visibility INTEGER NOT NULL,
	live_date TEXT NOT NULL,
	special_handling INTEGER NOT NULL
);
CREATE INDEX feed_name ON feed(name COLLATE NOCASE);

-- Quota and credentials of a feed for exactly one organisation or one user.
CREATE TABLE feed_quota (
	id INTEGER PRIMARY KEY,
	feed_id INTEGER NOT NULL REFERENCES feed(id),
	organisation_id INTEGER REFERENCES organisation(id),
	user_id INTEGER REFERENCES app_user(id),
	currency_id TEXT NOT NULL,
	effective_quota TEXT NOT NULL,
	postings TEXT NOT NULL,
	slots TEXT NOT NULL,
	spend TEXT NOT NULL,
	postings_forward TEXT NOT NULL,
	default_selected INTEGER NOT NULL,
	force_selected INTEGER NOT NULL,
	restricted INTEGER NOT NULL,
	auth1 TEXT, auth2 TEXT, auth3 TEXT, auth4 TEXT, auth5 TEXT,
	auth_notes TEXT,
	CHECK ((organisation_id IS NULL) <> (user_id IS NULL))
);
CREATE UNIQUE INDEX feed_quota_organisation ON feed_quota(organisation_id, feed_id) WHERE organisation_id IS NOT NULL;
CREATE UNIQUE INDEX feed_quota_user ON feed_quota(user_id, feed_id) WHERE user_id IS NOT NULL;

CREATE TABLE advert (
	id INTEGER PRIMARY KEY,
	user_id INTEGER NOT NULL REFERENCES app_user(id),
	organisation_id INTEGER NOT NULL REFERENCES organisation(id),
	identifier TEXT,
	reference TEXT,
	status_id INTEGER NOT NULL DEFAULT 0,
	title TEXT NOT NULL DEFAULT '',
	job_type TEXT,
	job_hours TEXT,
	primary_location TEXT,
	industry TEXT,
	salary_from TEXT,
	salary_to TEXT,
	salary_currency TEXT,
	salary_per TEXT,
	salary_benefits TEXT,
	salary_hide INTEGER NOT NULL DEFAULT 0,
	contact_name TEXT,
	contact_email TEXT,
	job_description TEXT,
	application_url TEXT,
	callback_url TEXT,
	source TEXT NOT NULL DEFAULT 'API',
	latitude TEXT,
	longitude TEXT,
	redirect_domain TEXT,
	iframe INTEGER NOT NULL DEFAULT 0,
	completion_token TEXT NOT NULL UNIQUE,
	created_at TEXT NOT NULL,
	scheduled_post_at TEXT,
	last_post_date TEXT,
	last_delivery_date TEXT,
	last_delivery_status_id INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX advert_organisation ON advert(organisation_id);
CREATE INDEX advert_user ON advert(user_id);
CREATE INDEX advert_identifier ON advert(identifier COLLATE NOCASE);
CREATE INDEX advert_reference ON advert(reference COLLATE NOCASE);
CREATE INDEX advert_status ON advert(status_id);
CREATE INDEX advert_search_date ON advert(coalesce(last_post_date, created_at));
CREATE INDEX advert_last_post_date ON advert(last_post_date);
CREATE INDEX advert_last_delivery_date ON advert(last_delivery_date);
CREATE INDEX advert_scheduled ON advert(scheduled_post_at);
CREATE INDEX advert_title ON advert(title COLLATE NOCASE);
CREATE INDEX advert_location ON advert(primary_location COLLATE NOCASE);

-- Feeds chosen in AddAdvert (posting is completed later in the web interface).
CREATE TABLE advert_destination (
	advert_id INTEGER NOT NULL REFERENCES advert(id),
	feed_id INTEGER NOT NULL REFERENCES feed(id),
	PRIMARY KEY (advert_id, feed_id)
);

-- Extra values; feed_id 0 marks a value of the advert itself rather than of one feed.
CREATE TABLE advert_value (
	id INTEGER PRIMARY KEY,
	advert_id INTEGER NOT NULL REFERENCES advert(id),
	feed_id INTEGER NOT NULL,
	field_id INTEGER NOT NULL,
	field_identifier TEXT NOT NULL,
	value TEXT NOT NULL,
	values_json TEXT
);
CREATE INDEX advert_value_advert ON advert_value(advert_id, feed_id, field_id);

CREATE TABLE posting (
	id INTEGER PRIMARY KEY,
	advert_id INTEGER NOT NULL REFERENCES advert(id),
	feed_id INTEGER NOT NULL REFERENCES feed(id),
	user_id INTEGER NOT NULL REFERENCES app_user(id),
	posted_at TEXT NOT NULL,
	estimated_expire_at TEXT NOT NULL,
	corrected_at TEXT,
	delivery_status_id INTEGER NOT NULL,
	delivered_at TEXT
);
CREATE INDEX posting_advert ON posting(advert_id, feed_id);
CREATE INDEX posting_user_feed ON posting(user_id, feed_id);

CREATE TABLE tracking_log (
	id INTEGER PRIMARY KEY,
	posting_id INTEGER NOT NULL REFERENCES posting(id),
	delivered_at TEXT NOT NULL,
	error_level TEXT NOT NULL,
	response TEXT NOT NULL
);
CREATE INDEX tracking_log_posting ON tracking_log(posting_id, delivered_at);

CREATE TABLE candidate (
	id INTEGER PRIMARY KEY,
	organisation_id INTEGER NOT NULL REFERENCES organisation(id),
	email TEXT NOT NULL COLLATE NOCASE,
	first_name TEXT NOT NULL,
	last_name TEXT NOT NULL,
	home_phone TEXT,
	work_phone TEXT,
	mobile_phone TEXT,
	address TEXT,
	UNIQUE (organisation_id, email)
);
CREATE INDEX candidate_email ON candidate(email COLLATE NOCASE);

CREATE TABLE progress (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL
);

CREATE TABLE application (
	id INTEGER PRIMARY KEY,
	advert_id INTEGER NOT NULL REFERENCES advert(id),
	candidate_id INTEGER NOT NULL REFERENCES candidate(id),
	posting_id INTEGER REFERENCES posting(id),
	feed_id INTEGER NOT NULL REFERENCES feed(id),
	applied_at TEXT NOT NULL,
	viewed INTEGER NOT NULL DEFAULT 0,
	ranking INTEGER NOT NULL DEFAULT 0,
	favourite INTEGER NOT NULL DEFAULT 0,
	score_extra INTEGER NOT NULL DEFAULT 0,
	archived INTEGER NOT NULL DEFAULT 0,
	progress_id INTEGER NOT NULL DEFAULT 1 REFERENCES progress(id),
	interview_status TEXT,
	processing_messages TEXT,
	last_score_date TEXT,
	last_scored_by INTEGER REFERENCES app_user(id),
	last_progress_date TEXT,
	last_progressed_by INTEGER REFERENCES app_user(id),
	last_note_date TEXT
);
CREATE INDEX application_advert ON application(advert_id);
CREATE INDEX application_candidate ON application(candidate_id);
CREATE INDEX application_feed ON application(feed_id);
CREATE INDEX application_applied ON application(applied_at);
CREATE INDEX application_ranking ON application(ranking);
CREATE INDEX application_progress ON application(progress_id);
CREATE INDEX application_last_score ON application(last_score_date);
CREATE INDEX application_last_progress ON application(last_progress_date);
CREATE INDEX application_last_note ON application(last_note_date);
CREATE INDEX application_default_order ON application(advert_id, archived, ranking, score_extra, favourite, applied_at, id);

-- kind is one of DOCUMENT_TYPE: EmailBody (text), Attachment, Parsed, Email (bytes).
CREATE TABLE application_document (
	application_id INTEGER NOT NULL REFERENCES application(id),
	kind TEXT NOT NULL,
	file_name TEXT NOT NULL,
	encoding_type TEXT NOT NULL,
	document_source TEXT NOT NULL,
	document_format TEXT NOT NULL,
	text TEXT,
	bytes BLOB,
	PRIMARY KEY (application_id, kind)
);

CREATE TABLE note (
	id INTEGER PRIMARY KEY,
	application_id INTEGER NOT NULL REFERENCES application(id),
	user_id INTEGER NOT NULL REFERENCES app_user(id),
	subject TEXT NOT NULL,
	body TEXT NOT NULL,
	created_at TEXT NOT NULL
);
CREATE INDEX note_application ON note(application_id);

-- kind 'tag' (free phrase, many per candidate) or 'partner' (one current partner tag).
CREATE TABLE candidate_tag (
	id INTEGER PRIMARY KEY,
	candidate_id INTEGER NOT NULL REFERENCES candidate(id),
	kind TEXT NOT NULL CHECK (kind IN ('tag', 'partner')),
	tag TEXT NOT NULL,
	created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX candidate_tag_unique ON candidate_tag(candidate_id, kind, tag);

CREATE TABLE login_token (
	token_hash TEXT PRIMARY KEY,
	user_id INTEGER NOT NULL REFERENCES app_user(id),
	return_url TEXT,
	redirect_domain TEXT,
	expires_at TEXT NOT NULL,
	used_at TEXT
);
CREATE INDEX login_token_expiry ON login_token(expires_at);

-- Lookup lists: 'currency' and 'weeks'.
CREATE TABLE lookup_value (
	list TEXT NOT NULL,
	field_id INTEGER NOT NULL,
	value TEXT NOT NULL,
	description TEXT NOT NULL,
	sort_order INTEGER NOT NULL,
	PRIMARY KEY (list, field_id)
);

CREATE TABLE job_title (
	id INTEGER PRIMARY KEY,
	title TEXT NOT NULL COLLATE NOCASE,
	industry TEXT NOT NULL COLLATE NOCASE,
	description TEXT NOT NULL,
	popularity INTEGER NOT NULL
);
CREATE INDEX job_title_title ON job_title(title COLLATE NOCASE);
CREATE INDEX job_title_industry ON job_title(industry COLLATE NOCASE);
`,
	},
	{
		version: 2,
		description: 'Delivery over time (posting due date), posting completion, live applications',
		sql: `
-- When a pending posting is due to reach its job board (the delivery scheduler's queue).
ALTER TABLE posting ADD COLUMN due_at TEXT;
CREATE INDEX posting_pending_due ON posting(delivery_status_id, due_at);
-- When the posting was completed on the completion page (NULL: not yet).
ALTER TABLE advert ADD COLUMN completed_at TEXT;
-- Search by advert owner and date, and by organisation and date, without scanning.
CREATE INDEX advert_org_search_date ON advert(organisation_id, coalesce(last_post_date, created_at));
CREATE INDEX application_advert_applied ON application(advert_id, applied_at);
`,
	},
	{
		version: 3,
		description: 'Covering index of advert searches by owner',
		sql: `
-- A user's adverts by date, newest first, filtered by organisation and status inside the index
-- (the most common search: the account tree and GetAdvertPaged with sUsername).
CREATE INDEX advert_user_search_date ON advert(user_id, coalesce(last_post_date, created_at), id, organisation_id, status_id);
-- An existing database gets statistics for the new index at once (seeding analyzes everything).
ANALYZE advert;
`,
	},
	{
		version: 4,
		description: 'Seeding marker (sandbox_meta)',
		sql: `
-- Facts about the database itself. 'seeded' is written in the last transaction of seeding: a database
-- without it was not seeded completely and is seeded again.
CREATE TABLE sandbox_meta (
	key TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
`,
		after: (db, from) => {
			// Earlier versions ended seeding with a full ANALYZE, the only one that gives the organisation table
			// statistics (migration 3 analyzes adverts only): that is how a database they seeded completely is told apart.
			if (from === 0) return;
			const analyzed = db.get(
				"SELECT 1 AS yes FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'",
			);
			if (analyzed === undefined) return;
			const seeded = db.get("SELECT 1 AS yes FROM sqlite_stat1 WHERE tbl = 'organisation' LIMIT 1");
			if (seeded === undefined) return;
			db.run('INSERT INTO sandbox_meta (key, value) VALUES (?, ?)', [
				SEEDED_KEY,
				JSON.stringify({ by: 'an earlier version', at: new Date().toISOString() }),
			]);
		},
	},
	{
		version: 5,
		description: 'Application searches in the default page order without an advert filter',
		sql: `
-- The default order of a paged application search (DEFAULT_APPLICATION_ORDER, term for term), then the
-- advert: a search by date range, ranking or feed without an advert filter walks this index in page
-- order and stops after the page, instead of sorting every match (the advert joins for the scope check).
CREATE INDEX application_page_order ON application((CASE WHEN archived = 1 THEN 2 WHEN ranking = 0 THEN 0 ELSE 1 END), ranking DESC, score_extra DESC, favourite DESC, applied_at DESC, id DESC, advert_id);
`,
	},
	{
		version: 6,
		description: 'No advert indexes that a longer one starts with',
		sql: `
-- advert_org_search_date and advert_user_search_date begin with organisation_id and user_id and serve
-- every lookup these two served (foreign-key checks included); each index costs one more b-tree
-- insert, and a page in the write-ahead log, for every new advert.
DROP INDEX IF EXISTS advert_organisation;
DROP INDEX IF EXISTS advert_user;
`,
	},
	{
		version: 7,
		description: "Applications carry their advert's organisation (account-wide searches count in one index)",
		sql: `
-- A search's scope is a set of organisations. Kept on the application, it is checked inside the filter's
-- index instead of by a join per match: counting a month of a million-application account reads one
-- index range per organisation (about 20 ms) instead of one per advert (70 ms to over a second).
-- An advert never changes organisation and an application never changes advert; the triggers hold
-- the copy to its advert's value whatever writes it.
ALTER TABLE application ADD COLUMN organisation_id INTEGER REFERENCES organisation(id);
UPDATE application SET organisation_id = (SELECT organisation_id FROM advert WHERE advert.id = application.advert_id);
CREATE TRIGGER application_organisation_insert BEFORE INSERT ON application
WHEN NEW.organisation_id IS NOT (SELECT organisation_id FROM advert WHERE id = NEW.advert_id)
BEGIN SELECT RAISE(ABORT, 'application.organisation_id must be its advert''s organisation'); END;
CREATE TRIGGER application_organisation_update BEFORE UPDATE OF advert_id, organisation_id ON application
WHEN NEW.organisation_id IS NOT (SELECT organisation_id FROM advert WHERE id = NEW.advert_id)
BEGIN SELECT RAISE(ABORT, 'application.organisation_id must be its advert''s organisation'); END;
CREATE TRIGGER advert_organisation_fixed BEFORE UPDATE OF organisation_id ON advert
WHEN NEW.organisation_id IS NOT OLD.organisation_id
BEGIN SELECT RAISE(ABORT, 'an advert keeps its organisation'); END;
-- Each filter index continues with the organisation and the date, so a scoped count, with or without
-- a date range, reads only the matching entries and never leaves the index.
-- application_advert is dropped: three longer indexes begin with advert_id.
DROP INDEX IF EXISTS application_advert;
DROP INDEX IF EXISTS application_applied;
-- A user's applications (the scope on the advert, by its owner) with a feed filter and a date range.
DROP INDEX IF EXISTS application_advert_applied;
CREATE INDEX application_advert_applied ON application(advert_id, applied_at, feed_id);
CREATE INDEX application_organisation_applied ON application(organisation_id, applied_at);
DROP INDEX IF EXISTS application_feed;
CREATE INDEX application_feed ON application(feed_id, organisation_id, applied_at);
DROP INDEX IF EXISTS application_ranking;
CREATE INDEX application_ranking ON application(ranking, organisation_id, applied_at);
DROP INDEX IF EXISTS application_progress;
CREATE INDEX application_progress ON application(progress_id, organisation_id, applied_at);
DROP INDEX IF EXISTS application_last_score;
-- The dates scored and progressed after the organisation: one range per organisation, no check per entry.
CREATE INDEX application_last_score ON application(organisation_id, last_score_date, applied_at);
DROP INDEX IF EXISTS application_last_progress;
CREATE INDEX application_last_progress ON application(organisation_id, last_progress_date, applied_at);
DROP INDEX IF EXISTS application_page_order;
CREATE INDEX application_page_order ON application((CASE WHEN archived = 1 THEN 2 WHEN ranking = 0 THEN 0 ELSE 1 END), ranking DESC, score_extra DESC, favourite DESC, applied_at DESC, id DESC, advert_id, organisation_id);
`,
		after: (db, from) => {
			// A database seeded earlier gets statistics for the new indexes at once (seeding analyzes everything).
			if (from > 0) db.exec('ANALYZE application');
		},
	},
];

/** The schema version a fully migrated database has. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
