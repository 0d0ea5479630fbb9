/**
 * The deterministic demo data of the sandbox: the same seed and `now` always give the same rows.
 * Randomness comes only from a seeded mulberry32 generator; dates are relative to `now`.
 */
import { ADVERT_STATUS, DEFAULT_PROGRESS, DELIVERY_STATUS, DOCUMENT_TYPE, USER_ROLE } from '../../protocol/catalogue';
import { hashSecret } from '../store/secrets';
import type { Store } from '../store/store';
import { toStoredDate } from '../store/time';
import {
	cvText,
	DELIVERY_ERRORS,
	emailBodyHtml,
	FEEDS,
	FIRST_NAMES,
	HOSTILE_FRAGMENTS,
	JOB_TITLES,
	LAST_NAMES,
	SKILLS,
	STREETS,
	UK_CITIES,
	type Person,
} from './demoContent';
import { createApplicationDocuments, createMimeEmail, cvBaseName, type ResumeFacts } from '../documents';
import { KNOWN_LOCATIONS } from './advertFields';
import { hashPassword } from './passwords';
import { seedBulk } from './bulkSeed';

/** Sandbox-only credentials of the demo administrator. Never use them for a real service. */
export const DEMO_CREDENTIALS = {
	apiKey: 'sandbox-api-key',
	username: 'demo.admin',
	password: 'sandbox-password',
} as const;
/** Every seeded user has this sandbox-only password. */
export const DEMO_PASSWORD = DEMO_CREDENTIALS.password;
/** A key of a second, unrelated organisation tree (Globex), for trying out scoping. */
export const OTHER_TREE_API_KEY = 'globex-sandbox-key';
/** A key of a regional subtree (Acme North and its branches). */
export const NORTH_API_KEY = 'sandbox-north-key';

export interface SeedOptions {
	seed: number;
	now: Date;
	/** Number of adverts (default 200). */
	adverts?: number;
	/** Number of applications (default 5000). */
	applications?: number;
	/** scrypt cost of the seeded password hash (default 16384; tests use less to run faster). */
	passwordCost?: number;
}

/** mulberry32: a small, fast, seedable PRNG. */
export function mulberry32(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

class Random {
	private readonly next: () => number;
	constructor(seed: number) {
		this.next = mulberry32(seed);
	}
	float(): number {
		return this.next();
	}
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}
	chance(probability: number): boolean {
		return this.next() < probability;
	}
	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}
	sample<T>(items: readonly T[], count: number): T[] {
		const pool = [...items];
		const result: T[] = [];
		while (result.length < count && pool.length > 0) {
			result.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]);
		}
		return result;
	}
	bytes(length: number): Uint8Array {
		return Uint8Array.from({ length }, () => Math.floor(this.next() * 256));
	}
	token(): string {
		return Buffer.from(this.bytes(18)).toString('base64url');
	}
}

const ORGANISATIONS = [
	{ id: 1, identifier: 'acme-group', name: 'Acme Recruitment Group', parent: null, parsing: 1 },
	{ id: 2, identifier: 'acme-north', name: 'Acme North', parent: 1, parsing: 1 },
	{ id: 3, identifier: 'acme-south', name: 'Acme South', parent: 1, parsing: 1 },
	{ id: 4, identifier: 'acme-manchester', name: 'Acme Manchester', parent: 2, parsing: 1 },
	{ id: 5, identifier: 'acme-leeds', name: 'Acme Leeds', parent: 2, parsing: 1 },
	{ id: 6, identifier: 'acme-london', name: 'Acme London', parent: 3, parsing: 1 },
	{ id: 7, identifier: 'acme-bristol', name: 'Acme Bristol', parent: 3, parsing: 1 },
	// Parsing is not activated for Globex: Parsed is never returned for its applications.
	{ id: 8, identifier: 'globex', name: 'Globex Staffing', parent: null, parsing: 0 },
	{ id: 9, identifier: 'globex-berlin', name: 'Globex Berlin', parent: 8, parsing: 0 },
] as const;

const USERS = [
	{
		id: 1,
		org: 1,
		username: 'demo.admin',
		role: USER_ROLE.Administrator,
		first: 'Dana',
		last: 'Whitfield',
		position: 'Group Talent Director',
		active: 1,
	},
	{
		id: 2,
		org: 2,
		username: 'north.admin',
		role: USER_ROLE.Administrator,
		first: 'Callum',
		last: 'Fraser',
		position: 'Regional Manager North',
		active: 1,
	},
	{
		id: 3,
		org: 3,
		username: 'south.admin',
		role: USER_ROLE.Administrator,
		first: 'Priya',
		last: 'Raman',
		position: 'Regional Manager South',
		active: 1,
	},
	{
		id: 4,
		org: 4,
		username: 'manchester.recruiter',
		role: USER_ROLE.User,
		first: 'Tom',
		last: 'Ashworth',
		position: 'Senior Recruiter',
		active: 1,
	},
	{
		id: 5,
		org: 4,
		username: 'manchester.assistant',
		role: USER_ROLE.User,
		first: 'Ngozi',
		last: 'Eze',
		position: 'Recruitment Assistant',
		active: 1,
	},
	{
		id: 6,
		org: 5,
		username: 'leeds.recruiter',
		role: USER_ROLE.User,
		first: 'Hannah',
		last: 'Brooks',
		position: 'Recruiter',
		active: 1,
	},
	{
		id: 7,
		org: 6,
		username: 'london.recruiter',
		role: USER_ROLE.User,
		first: 'Marco',
		last: 'Bianchi',
		position: 'Senior Recruiter',
		active: 1,
	},
	{
		id: 8,
		org: 6,
		username: 'london.hiring',
		role: USER_ROLE.User,
		first: 'Grace',
		last: 'Liu',
		position: 'Hiring Manager',
		active: 1,
	},
	{
		id: 9,
		org: 7,
		username: 'bristol.recruiter',
		role: USER_ROLE.User,
		first: 'Owen',
		last: 'Price',
		position: 'Recruiter',
		active: 1,
	},
	{
		id: 10,
		org: 1,
		username: 'group.user',
		role: USER_ROLE.User,
		first: 'Sam',
		last: 'Okoro',
		position: 'Talent Partner',
		active: 1,
	},
	{
		id: 11,
		org: 8,
		username: 'globex.admin',
		role: USER_ROLE.Administrator,
		first: 'Klara',
		last: 'Hoffmann',
		position: 'Head of Talent',
		active: 1,
	},
	{
		id: 12,
		org: 9,
		username: 'berlin.recruiter',
		role: USER_ROLE.User,
		first: 'Jonas',
		last: 'Weber',
		position: 'Recruiter',
		active: 1,
	},
	{
		id: 13,
		org: 4,
		username: 'former.recruiter',
		role: USER_ROLE.User,
		first: 'Rita',
		last: 'Moss',
		position: 'Recruiter (left)',
		active: 0,
	},
] as const;

/** Feeds configured per organisation (inherited by the organisations below). */
const ORGANISATION_FEEDS: Readonly<Record<number, readonly number[]>> = {
	1: FEEDS.map(([feedId]) => feedId).filter((feedId) => feedId !== 112),
	6: [108],
	8: [101, 102, 105, 111, 112],
};
/** Feeds with a user's own quota and credentials. */
const USER_FEEDS: Readonly<Record<number, readonly number[]>> = { 7: [108, 102], 4: [103] };

const CURRENCIES = [
	['GBP', 'Pound sterling'],
	['EUR', 'Euro'],
	['USD', 'US dollar'],
	['AUD', 'Australian dollar'],
	['CAD', 'Canadian dollar'],
	['CHF', 'Swiss franc'],
	['SEK', 'Swedish krona'],
	['PLN', 'Polish złoty'],
] as const;
const WEEKS = [1, 2, 3, 4, 6, 8] as const;

const PREVIOUS_EMPLOYERS = [
	'Litware Inc',
	'Adventure Works',
	'Proseware',
	'Woodgrove Bank',
	'Lucerne Publishing',
] as const;
const DEGREES = [
	'BSc Computer Science',
	'BA Business Studies',
	'MSc Data Science',
	'BEng Mechanical Engineering',
	'BA History',
] as const;

/** Applications per seeding transaction. */
const SEED_BATCH = 10_000;
/** Returning candidates are drawn from at most this many per organisation. */
const CANDIDATE_POOL = 20_000;
/** Applications with generated documents (email body, CV, HR-XML, email); later ones have none. */
export const DOCUMENTED_APPLICATIONS = 5_000;
/**
 * Adverts and applications made one by one, in JavaScript, with every detail (documents included);
 * a larger account gets the rest from the set-based generator (bulkSeed.ts), so `--size large`
 * holds the default account as its first adverts and applications.
 */
export const DETAILED_ADVERTS = 200;

/** Why the parser could not read an application's attachment, matching the attachment it has. */
export function processingMessage(format: 'pdf' | 'docx' | 'txt' | undefined): string {
	switch (format) {
		case 'pdf':
			return 'Attachment could not be parsed: the PDF is password protected.';
		case 'docx':
			return 'Attachment could not be parsed: the Word document uses an unsupported template.';
		case 'txt':
			return 'Attachment could not be parsed: no CV sections were found in the text.';
		default:
			return 'The application arrived without a CV attachment; nothing was parsed.';
	}
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface SeedSummary {
	organisations: number;
	users: number;
	feeds: number;
	adverts: number;
	applications: number;
}

/**
 * Seeds an empty store completely: the demo data, the planner's statistics, and last, in its own
 * transaction, the marker that says seeding finished (a store without it is seeded again).
 */
export function seedSandbox(store: Store, options: SeedOptions, how: { newFile?: boolean } = {}): SeedSummary {
	const adverts = options.adverts ?? 200;
	const applications = options.applications ?? 5000;
	let summary: SeedSummary | undefined;
	// A new file is thrown away if seeding fails, so its indexes can be built once at the end.
	const fill = () => (summary = fillSandbox(store, options, adverts, applications));
	if (how.newFile === true) store.withoutSecondaryIndexesAndTriggers(fill);
	else fill();
	const seeded = summary as SeedSummary;
	store.analyze();
	store.transaction(() =>
		store.markSeeded({
			seed: options.seed,
			now: options.now.toISOString(),
			adverts: seeded.adverts,
			applications: seeded.applications,
			at: new Date().toISOString(),
		}),
	);
	return seeded;
}

function fillSandbox(store: Store, options: SeedOptions, adverts: number, applications: number): SeedSummary {
	const summary = seedDemoData(store, {
		...options,
		adverts: Math.min(adverts, DETAILED_ADVERTS),
		applications: Math.min(applications, DOCUMENTED_APPLICATIONS),
	});
	if (adverts > DETAILED_ADVERTS || applications > DOCUMENTED_APPLICATIONS) {
		const added = seedBulk(store, {
			seed: options.seed,
			now: options.now,
			adverts,
			applications,
			users: USERS,
			groupFeeds: [ORGANISATION_FEEDS[1], ORGANISATION_FEEDS[8]],
			candidatePool: CANDIDATE_POOL,
		});
		summary.adverts += added.adverts;
		summary.applications += added.applications;
	}
	return summary;
}

/** Fills an empty store with the demo data, in one transaction with prepared statements. */
export function seedDemoData(store: Store, options: SeedOptions): SeedSummary {
	const random = new Random(options.seed);
	const now = options.now.getTime();
	const advertCount = options.adverts ?? 200;
	const applicationCount = options.applications ?? 5000;
	const at = (ms: number) => toStoredDate(new Date(Math.min(ms, now)));
	const atFuture = (ms: number) => toStoredDate(new Date(ms));
	// All seeded users share the documented sandbox password, so one scrypt hash (the slow part) serves them all.
	const sharedPasswordHash = hashPassword(DEMO_PASSWORD, random.bytes(16), options.passwordCost);
	let applicationTotal = 0;

	interface PostedAdvert {
		id: number;
		orgId: number;
		ownerId: number;
		title: string;
		ownerEmail: string;
		postings: { id: number; feedId: number; postedAt: number }[];
	}
	const posted: PostedAdvert[] = [];
	const identifiersByOrg = new Map<number, string[]>();

	store.bulkLoad((prepare) => {
		const insertOrganisation = prepare(
			'INSERT INTO organisation (id, identifier, name, parent_id, parsing_enabled) VALUES (?, ?, ?, ?, ?)',
		);
		for (const org of ORGANISATIONS) {
			insertOrganisation([org.id, org.identifier, org.name, org.parent, org.parsing]);
		}

		const insertKey = prepare('INSERT INTO api_key (key_hash, organisation_id, label) VALUES (?, ?, ?)');
		insertKey([hashSecret(DEMO_CREDENTIALS.apiKey), 1, 'Sandbox key of Acme Recruitment Group']);
		insertKey([hashSecret(NORTH_API_KEY), 2, 'Sandbox key of Acme North']);
		insertKey([hashSecret(OTHER_TREE_API_KEY), 8, 'Sandbox key of Globex Staffing']);

		const insertUser =
			prepare(`INSERT INTO app_user (id, organisation_id, identifier, username, password_hash, role_id, active, first_name, last_name,
			email, applications_email, phone, mobile, fax, position, culture_id, website, address1, address2, address3, state, country, post_code, notification_flags)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
		USERS.forEach((user) => {
			const org = ORGANISATIONS.find((o) => o.id === user.org);
			const domain = user.org >= 8 ? 'globex.example' : 'acme-recruitment.example';
			insertUser([
				user.id,
				user.org,
				`U${String(user.id).padStart(4, '0')}`,
				user.username,
				sharedPasswordHash,
				user.role,
				user.active,
				user.first,
				user.last,
				`${user.username}@${domain}`,
				`applications+${user.username}@${domain}`,
				`+44 161 555 ${String(1000 + user.id * 37).slice(-4)}`,
				`+44 7700 900${String(100 + user.id).slice(-3)}`,
				null,
				user.position,
				user.org >= 8 ? 'de-DE' : 'en-GB',
				`https://${domain}`,
				`${user.id * 3} ${random.pick(STREETS)}`,
				org?.name ?? null,
				null,
				null,
				user.org >= 8 ? 'DE' : 'GB',
				user.org >= 8 ? '10115' : `M${user.id} 1AB`,
				random.int(0, 127),
			]);
		});

		const insertFeed =
			prepare(`INSERT INTO feed (id, identifier, name, short_description, logo_url, home_page_url, contact_name, contact_phone, contact_email,
			culture_id, feed_type_id, free, cost, cost_type_id, html_support, description_min_length, description_max_length, support_delete, support_fix,
			upload_times, visibility, live_date, special_handling) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
		const feedCosts = new Map<number, string>();
		for (const [feedId, identifier, name, homePage] of FEEDS) {
			const free = feedId === 111 || feedId === 101 ? 1 : 0;
			const cost = free ? '0.00' : `${random.int(3, 40) * 5}.00`;
			feedCosts.set(feedId, cost);
			insertFeed([
				feedId,
				identifier,
				name,
				`${name}: job board for ${feedId === 115 ? 'healthcare' : 'all sectors'}.`,
				`https://logos.sandbox.example/${identifier.toLowerCase()}.png`,
				homePage,
				`${name} Support`,
				`+44 20 7946 0${String(feedId).slice(-3)}`,
				`support@${identifier.toLowerCase()}.example`,
				feedId === 112 ? 'de-DE' : 'en-GB',
				random.int(1, 3),
				free,
				cost,
				random.chance(0.7) ? 1 : 2,
				random.pick(['Full', 'Basic', 'None']),
				random.pick([0, 100, 250]),
				random.pick([4000, 8000, 20000]),
				random.chance(0.8) ? 1 : 0,
				random.chance(0.5) ? 1 : 0,
				'02:00,14:00',
				1,
				atFuture(now - random.int(400, 3000) * DAY_MS),
				random.chance(0.1) ? 1 : 0,
			]);
		}

		const insertQuota =
			prepare(`INSERT INTO feed_quota (feed_id, organisation_id, user_id, currency_id, effective_quota, postings, slots, spend, postings_forward,
			default_selected, force_selected, restricted, auth1, auth2, auth3, auth4, auth5, auth_notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
		const quota = (feedId: number, organisationId: number | null, userId: number | null) => {
			const postings = random.int(2, 40) * 5;
			insertQuota([
				feedId,
				organisationId,
				userId,
				organisationId !== null && organisationId >= 8 ? 'EUR' : 'GBP',
				String(postings),
				String(postings),
				String(random.int(1, 10)),
				`${postings * 40}.00`,
				String(random.int(0, 5)),
				random.chance(0.3) ? 1 : 0,
				random.chance(0.05) ? 1 : 0,
				random.chance(0.1) ? 1 : 0,
				`sandbox-account-${feedId}-${organisationId ?? `u${userId}`}`,
				`sandbox-secret-${random.int(1000, 9999)}`,
				null,
				null,
				null,
				'Sandbox credentials; not valid on any real job board.',
			]);
		};
		for (const [orgId, feedIds] of Object.entries(ORGANISATION_FEEDS)) {
			for (const feedId of feedIds) quota(feedId, Number(orgId), null);
		}
		for (const [userId, feedIds] of Object.entries(USER_FEEDS)) {
			for (const feedId of feedIds) quota(feedId, null, Number(userId));
		}

		const insertProgress = prepare('INSERT INTO progress (id, name) VALUES (?, ?)');
		for (const progress of DEFAULT_PROGRESS) insertProgress([progress.id, progress.name]);
		const insertLookup = prepare(
			'INSERT INTO lookup_value (list, field_id, value, description, sort_order) VALUES (?, ?, ?, ?, ?)',
		);
		CURRENCIES.forEach(([code, name], index) => insertLookup(['currency', index + 1, code, name, index + 1]));
		WEEKS.forEach((weeks, index) =>
			insertLookup(['weeks', weeks, String(weeks), weeks === 1 ? '1 week' : `${weeks} weeks`, index + 1]),
		);
		const insertJobTitle = prepare(
			'INSERT INTO job_title (title, industry, description, popularity) VALUES (?, ?, ?, ?)',
		);
		for (const [title, industry] of JOB_TITLES) {
			insertJobTitle([title, industry, `${title} (${industry})`, random.int(1, 100)]);
		}

		// Adverts, postings, tracking logs and extra values.
		const insertAdvert =
			prepare(`INSERT INTO advert (id, user_id, organisation_id, identifier, reference, status_id, title, job_type, job_hours, primary_location,
			industry, salary_from, salary_to, salary_currency, salary_per, salary_benefits, salary_hide, contact_name, contact_email, job_description, application_url,
			source, latitude, longitude, completion_token, created_at, scheduled_post_at, last_post_date, last_delivery_date, last_delivery_status_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
		const insertPosting =
			prepare(`INSERT INTO posting (advert_id, feed_id, user_id, posted_at, estimated_expire_at, corrected_at, delivery_status_id, delivered_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
		const insertLog = prepare(
			'INSERT INTO tracking_log (posting_id, delivered_at, error_level, response) VALUES (?, ?, ?, ?)',
		);
		const insertValue = prepare(
			'INSERT INTO advert_value (advert_id, feed_id, field_id, field_identifier, value, values_json) VALUES (?, ?, ?, ?, ?, ?)',
		);

		const activeUsers = USERS.filter((user) => user.active === 1);
		const acmeUsers = activeUsers.filter((user) => user.org < 8);
		const globexUsers = activeUsers.filter((user) => user.org >= 8);
		const feedsFor = (user: (typeof USERS)[number]): number[] => {
			const chain = user.org >= 8 ? [8] : [1];
			const set = new Set<number>([
				...chain.flatMap((orgId) => ORGANISATION_FEEDS[orgId] ?? []),
				...(USER_FEEDS[user.id] ?? []),
			]);
			return [...set];
		};

		for (let index = 1; index <= advertCount; index++) {
			const user = random.chance(0.9) ? random.pick(acmeUsers) : random.pick(globexUsers);
			const [title, industry] = random.pick(JOB_TITLES);
			const createdAt = now - random.int(0, 120) * DAY_MS - random.int(0, 23) * HOUR_MS;
			const future = random.chance(0.04);
			const roll = random.float();
			const status =
				roll < 0.06 ? ADVERT_STATUS.Deleted : roll < 0.09 ? ADVERT_STATUS.ToAuthorise : ADVERT_STATUS.Created;
			const city = user.org >= 8 ? random.pick(['Berlin', 'Munich']) : random.pick(UK_CITIES);
			const coordinates = KNOWN_LOCATIONS[city.toLowerCase()];
			const known = identifiersByOrg.get(user.org) ?? [];
			// About one advert in ten is another instance of an earlier advert (same AdvertIdentifier).
			const identifier =
				known.length > 0 && random.chance(0.1)
					? random.pick(known)
					: `${user.org >= 8 ? 'GLX' : 'ACME'}-${1000 + index}`;
			known.push(identifier);
			identifiersByOrg.set(user.org, known);
			const salaryFrom = random.int(18, 70) * 1000;
			const scheduled = future ? now + random.int(1, 14) * DAY_MS : null;
			const postings: PostedAdvert['postings'] = [];
			let lastPost: number | null = null;
			let lastDelivery: number | null = null;
			let lastStatus: number = DELIVERY_STATUS.NotDelivered;
			const advertId = index;
			const willPost = !future && status !== ADVERT_STATUS.ToAuthorise;
			const pendingPostings: { feedId: number; postedAt: number; failed: boolean }[] = [];
			if (willPost) {
				const feeds = random.sample(feedsFor(user), random.int(2, 5));
				const rounds = random.chance(0.15) ? 2 : 1;
				for (let round = 0; round < rounds; round++) {
					const postedAt = createdAt + random.int(1, 3) * HOUR_MS + round * random.int(5, 20) * DAY_MS;
					if (postedAt > now) continue;
					for (const feedId of feeds) pendingPostings.push({ feedId, postedAt, failed: random.chance(0.08) });
				}
			}
			insertAdvert([
				advertId,
				user.id,
				user.org,
				identifier,
				`REF/${new Date(createdAt).getUTCFullYear()}/${String(index).padStart(4, '0')}`,
				status,
				title,
				random.pick(['P', 'P', 'C', 'T']),
				random.pick(['F', 'F', 'P']),
				city,
				industry,
				String(salaryFrom),
				String(salaryFrom + random.int(2, 15) * 1000),
				user.org >= 8 ? 'EUR' : 'GBP',
				'Y',
				random.pick(['Pension, 25 days holiday', 'Company car', 'Private healthcare', 'Hybrid working']),
				random.chance(0.1) ? 1 : 0,
				`${user.first} ${user.last}`,
				`${user.username}@${user.org >= 8 ? 'globex.example' : 'acme-recruitment.example'}`,
				`<p>We are looking for a <strong>${title}</strong> to join our team in ${city}.</p><ul><li>${random.pick(SKILLS)}</li><li>${random.pick(SKILLS)}</li></ul>`,
				random.chance(0.2) ? `https://careers.sandbox.example/jobs/${advertId}` : null,
				random.pick(['API', 'API', 'Web']),
				coordinates && coordinates[0] !== '' ? coordinates[0] : null,
				coordinates && coordinates[1] !== '' ? coordinates[1] : null,
				random.token(),
				at(createdAt),
				scheduled === null ? null : atFuture(scheduled),
				null,
				null,
				0,
			]);
			for (const pending of pendingPostings) {
				const deliveredAt = pending.postedAt + random.int(1, 30) * 60_000;
				const expires = pending.postedAt + 28 * DAY_MS;
				const deliveryStatus = pending.failed
					? DELIVERY_STATUS.Failed
					: expires < now
						? DELIVERY_STATUS.Expired
						: DELIVERY_STATUS.Delivered;
				const postingId = insertPosting([
					advertId,
					pending.feedId,
					user.id,
					at(pending.postedAt),
					atFuture(expires),
					pending.failed ? null : at(deliveredAt),
					deliveryStatus,
					at(deliveredAt),
				]);
				insertLog([postingId, at(pending.postedAt), 'Pending', 'Queued for delivery.']);
				insertLog([
					postingId,
					at(deliveredAt),
					pending.failed ? 'Error' : 'None',
					pending.failed
						? random.pick(DELIVERY_ERRORS)
						: `Delivered: job board reference ${random.int(100000, 999999)}.`,
				]);
				if (!pending.failed) {
					postings.push({ id: postingId, feedId: pending.feedId, postedAt: pending.postedAt });
				}
				lastPost = Math.max(lastPost ?? 0, pending.postedAt);
				lastDelivery = Math.max(lastDelivery ?? 0, deliveredAt);
				lastStatus = deliveryStatus;
			}
			if (lastPost !== null) {
				store.adverts.markDelivered(advertId, at(lastPost), at(lastDelivery ?? lastPost), lastStatus);
			}
			const skills = random.sample(SKILLS, 3);
			insertValue([advertId, 0, 1, 'JobCategory', industry, null]);
			insertValue([advertId, 0, 2, 'Skills', skills.join(', '), JSON.stringify(skills)]);
			for (const feedId of new Set(pendingPostings.map((p) => p.feedId))) {
				const feedIdentifier = FEEDS.find(([fid]) => fid === feedId)?.[1] ?? String(feedId);
				insertValue([advertId, feedId, feedId * 10 + 1, `${feedIdentifier}Category`, industry, null]);
				insertValue([advertId, feedId, feedId * 10 + 2, `${feedIdentifier}Duration`, '28', null]);
			}
			if (postings.length > 0) {
				posted.push({
					id: advertId,
					orgId: user.org,
					ownerId: user.id,
					title,
					ownerEmail: `applications+${user.username}@example.com`,
					postings,
				});
			}
		}
	});

	// Candidates, applications, documents, notes and tags: SEED_BATCH applications per transaction,
	// so memory and the rollback journal stay bounded however large the account is.
	const candidatesByOrg = new Map<number, { id: number; person: Person }[]>();
	const encoder = new TextEncoder();
	for (let batchStart = 1; batchStart <= applicationCount && posted.length > 0; batchStart += SEED_BATCH) {
		const batchEnd = Math.min(applicationCount, batchStart + SEED_BATCH - 1);
		store.bulkLoad((prepare) => {
			const insertCandidate =
				prepare(`INSERT INTO candidate (organisation_id, email, first_name, last_name, home_phone, work_phone, mobile_phone, address)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
			const insertApplication =
				prepare(`INSERT INTO application (advert_id, organisation_id, candidate_id, posting_id, feed_id, applied_at, viewed, ranking, favourite, score_extra,
				archived, progress_id, interview_status, processing_messages, last_score_date, last_scored_by, last_progress_date, last_progressed_by, last_note_date)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
			const insertDocument =
				prepare(`INSERT INTO application_document (application_id, kind, file_name, encoding_type, document_source, document_format, text, bytes)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
			const insertNote = prepare(
				'INSERT INTO note (application_id, user_id, subject, body, created_at) VALUES (?, ?, ?, ?, ?)',
			);
			const insertTag = prepare(
				'INSERT OR IGNORE INTO candidate_tag (candidate_id, kind, tag, created_at) VALUES (?, ?, ?, ?)',
			);
			for (let index = batchStart; index <= batchEnd; index++) {
				const advert = random.pick(posted);
				const posting = random.pick(advert.postings);
				const appliedAt = Math.min(
					now - random.int(0, 59) * 60_000,
					posting.postedAt + random.int(10, 30 * 24 * 60) * 60_000,
				);
				const existing = candidatesByOrg.get(advert.orgId) ?? [];
				let candidate: { id: number; person: Person };
				if (existing.length > 0 && random.chance(0.12)) {
					candidate = random.pick(existing);
				} else {
					const firstName = random.pick(FIRST_NAMES);
					const lastName = random.pick(LAST_NAMES);
					const ascii = (text: string) =>
						text
							.normalize('NFD')
							.replace(/[^A-Za-z]/g, '')
							.toLowerCase();
					const person: Person = {
						firstName,
						lastName,
						email: `${ascii(firstName)}.${ascii(lastName)}${index}@${random.pick(['example.com', 'mail.example', 'example.org'])}`,
						phone: `+44 7${random.int(100, 999)} ${random.int(100000, 999999)}`,
						address: `${random.int(1, 200)} ${random.pick(STREETS)}, ${random.pick(UK_CITIES)}`,
					};
					const candidateId = insertCandidate([
						advert.orgId,
						person.email,
						firstName,
						lastName,
						random.chance(0.3) ? `+44 1${random.int(100, 999)} ${random.int(100000, 999999)}` : null,
						random.chance(0.2) ? `+44 20 ${random.int(1000, 9999)} ${random.int(1000, 9999)}` : null,
						person.phone,
						person.address,
					]);
					candidate = { id: candidateId, person };
					// The pool of returning candidates is bounded so that memory stays flat at any size.
					if (existing.length < CANDIDATE_POOL) existing.push(candidate);
					candidatesByOrg.set(advert.orgId, existing);
					if (random.chance(0.05)) {
						insertTag([
							candidateId,
							'tag',
							random.pick(['Reviewed', 'Ignore', 'Shortlist', 'Do not contact']),
							at(appliedAt),
						]);
					}
					if (random.chance(0.03)) {
						insertTag([
							candidateId,
							'partner',
							random.pick([
								'PartnerNotReviewed',
								'PartnerAccepted',
								'PartnerRejected',
								'PartnerSubscribed',
								'PartnerBarred',
							]),
							at(appliedAt),
						]);
					}
				}
				const rankingRoll = random.float();
				const ranking = rankingRoll < 0.45 ? 0 : rankingRoll < 0.6 ? 1 : rankingRoll < 0.8 ? 2 : 4;
				const favourite = random.chance(0.05) ? 1 : 0;
				const progressRoll = random.float();
				const progressId = progressRoll < 0.55 ? 1 : random.int(2, 7);
				const interview =
					progressId === 4
						? random.pick(['Pending', 'Confirmed', 'CannotAttend', 'Declined'])
						: progressId === 5 || progressId === 6
							? 'Confirmed'
							: null;
				// Actions happen between the application and now.
				const later = () => at(appliedAt + Math.floor(random.float() * Math.max(now - appliedAt, 0)));
				const scoredAt = ranking !== 0 || favourite ? later() : null;
				const progressedAt = progressId !== 1 ? later() : null;
				const hasNote = random.chance(0.1);
				const notedAt = hasNote ? later() : null;
				const ownerId = advert.ownerId;
				// PDF and DOCX alternate with plain text (by index, so the random sequence stays as before).
				const format = index % 3 === 0 ? 'pdf' : index % 3 === 1 ? 'docx' : 'txt';
				const unparsed = random.chance(0.03);
				const applicationId = insertApplication([
					advert.id,
					advert.orgId,
					candidate.id,
					posting.id,
					posting.feedId,
					at(appliedAt),
					ranking !== 0 || random.chance(0.5) ? 1 : 0,
					ranking,
					favourite,
					random.int(0, 100),
					random.chance(0.04) ? 1 : 0,
					progressId,
					interview,
					unparsed ? processingMessage(index <= DOCUMENTED_APPLICATIONS ? format : undefined) : null,
					scoredAt,
					scoredAt ? ownerId : null,
					progressedAt,
					progressedAt ? ownerId : null,
					notedAt,
				]);
				applicationTotal++;
				if (hasNote && notedAt) {
					insertNote([
						applicationId,
						ownerId,
						'Phone screen',
						`Spoke to ${candidate.person.firstName}; available in ${random.int(1, 8)} weeks.`,
						notedAt,
					]);
				}

				// Past the first DOCUMENTED_APPLICATIONS, applications carry no documents: large accounts stay a reasonable file.
				if (index <= DOCUMENTED_APPLICATIONS) {
					const skills = random.sample(SKILLS, 4);
					const employer = random.pick([
						'Northwind Ltd',
						'Contoso plc',
						'Fabrikam GmbH',
						'Tailspin Toys',
						'Wide World Importers',
						'Blue Yonder Airlines',
					]);
					const years = random.int(1, 15);
					const hostile =
						index % 12 === 0 ? HOSTILE_FRAGMENTS[(index / 12) % HOSTILE_FRAGMENTS.length] : undefined;
					const html = emailBodyHtml(candidate.person, advert.title, hostile);
					const school = random.pick([
						'University of Leeds',
						'TU Berlin',
						'University of Lagos',
						'Universidad de Chile',
					]);
					// The extra facts come from the index so the random sequence stays as before.
					const facts: ResumeFacts = {
						...candidate.person,
						countryCode: advert.orgId >= 8 ? 'DE' : 'GB',
						jobTitle: advert.title,
						employer,
						startYear: 2026 - years,
						previousEmployer: PREVIOUS_EMPLOYERS[index % PREVIOUS_EMPLOYERS.length],
						previousTitle: `Junior ${advert.title}`,
						school,
						degree: DEGREES[index % DEGREES.length],
						graduationYear: 2026 - years - 2 - (index % 6),
						skills,
					};
					const documents = createApplicationDocuments(facts, format === 'txt' ? 'pdf' : format, {
						to: advert.ownerEmail,
						subject: `Application: ${advert.title}`,
						date: new Date(Math.min(appliedAt, now)),
						html,
						messageId: `seed-${options.seed}-${index}`,
					});
					let attachment = documents.attachment as {
						fileName: string;
						contentType: string;
						bytes: Uint8Array;
						format: string;
					};
					let email = documents.email;
					if (format === 'txt') {
						attachment = {
							fileName: `${cvBaseName(facts)}.txt`,
							contentType: 'text/plain',
							bytes: encoder.encode(cvText(candidate.person, advert.title, skills, employer, years)),
							format: 'txt',
						};
						email = encoder.encode(
							createMimeEmail({
								fromName: `${facts.firstName} ${facts.lastName}`,
								fromAddress: facts.email,
								to: advert.ownerEmail,
								subject: `Application: ${advert.title}`,
								date: new Date(Math.min(appliedAt, now)),
								id: `seed-${options.seed}-${index}`,
								html,
								attachment,
							}),
						);
					}
					const parsed = documents.parsed;
					const baseName = cvBaseName(facts);
					insertDocument([
						applicationId,
						DOCUMENT_TYPE.EmailBody,
						'body.html',
						'UTF-8',
						'Email',
						'html',
						html,
						null,
					]);
					insertDocument([
						applicationId,
						DOCUMENT_TYPE.Attachment,
						attachment.fileName,
						'binary',
						'Email',
						attachment.format,
						null,
						attachment.bytes,
					]);
					insertDocument([
						applicationId,
						DOCUMENT_TYPE.Parsed,
						`${baseName}.xml`,
						'UTF-8',
						'Parser',
						'HR-XML',
						null,
						parsed,
					]);
					insertDocument([
						applicationId,
						DOCUMENT_TYPE.Email,
						'application.eml',
						'UTF-8',
						'Email',
						'eml',
						null,
						email,
					]);
				}
			}
		});
	}
	return {
		organisations: ORGANISATIONS.length,
		users: USERS.length,
		feeds: FEEDS.length,
		adverts: advertCount,
		applications: applicationTotal,
	};
}
