/**
 * Set-based generation of large demo accounts: adverts (with postings, tracking logs and values) and
 * applications (with candidates, notes and tags) are made by SQL `INSERT … SELECT` over generated
 * series, a batch per transaction, so a million applications take seconds of SQLite work instead of a
 * million round trips from JavaScript.
 *
 * The rows follow the distributions of the detailed generator in seed.ts (owners, titles, dates,
 * statuses, postings and their outcomes, rankings, progress, returning candidates, notes, tags); the
 * randomness is a hash of (seed, row number, purpose), computed in SQL, so the same seed and `now`
 * always give the same rows. Applications made here have no documents (like every application after
 * the first DOCUMENTED_APPLICATIONS).
 */
import { ADVERT_STATUS, DEFAULT_PROGRESS, DELIVERY_STATUS } from '../../protocol/catalogue';
import type { SqlValue } from '../store/database';
import type { Store } from '../store/store';
import { DELIVERY_ERRORS, FEEDS, FIRST_NAMES, JOB_TITLES, LAST_NAMES, SKILLS, STREETS, UK_CITIES } from './demoContent';
import { KNOWN_LOCATIONS } from './advertFields';

/** A user of the seed's fixed account, as the generators see it. */
export interface SeedUser {
	id: number;
	org: number;
	username: string;
	first: string;
	last: string;
	active: number;
}

export interface BulkSeedOptions {
	seed: number;
	now: Date;
	/** Adverts wanted in all; those above the ones already in the store are made here. */
	adverts: number;
	/** Applications wanted in all; likewise. */
	applications: number;
	users: readonly SeedUser[];
	/** Feeds an owner of each group posts to (Acme's and Globex's). */
	groupFeeds: readonly [readonly number[], readonly number[]];
	/** Returning candidates are drawn from at most this many per organisation. */
	candidatePool: number;
	/** Progress report (batches done). */
	onProgress?: (what: string) => void;
}

const ADVERT_BATCH = 10_000;
const APPLICATION_BATCH = 50_000;
const DAY_S = 86_400;
const HOUR_S = 3_600;

type Run = (sql: string, values?: readonly SqlValue[]) => void;

/** Multipliers of the generators, by purpose (full period mod 2^31; the first is glibc's rand()). */
const MULTIPLIERS: Readonly<Record<number, number>> = { 1: 1103515245, 2: 22695477, 3: 134775813 };
const MODULUS = 2 ** 31;

/**
 * Pseudo-random fields of the rows of a series, in SQL: one linear congruential generator mod 2^31
 * per purpose (adverts, postings, applications), consumed a fixed number of outputs per row; each
 * field takes the top 16 bits of its own output. The recursive CTE that makes the series carries the
 * generator's state from row to row; a row's outputs are computed from that state directly (the
 * k-th step of an LCG is again an LCG), and a batch's first state is computed by jumping ahead, so
 * the rows never depend on the batch size.
 */
class RandomColumns {
	private readonly multiplier: number;
	private readonly increment: number;
	private readonly start: number;
	private outputs = 0;

	constructor(seed: number, purpose: number) {
		const base = mix32(mix32(seed ^ 0x5bd1e995) + Math.imul(purpose, 0x9e3779b9));
		this.multiplier = MULTIPLIERS[purpose];
		this.increment = (mix32(base) | 1) % MODULUS;
		this.start = mix32(base + 0x165667b1) % MODULUS;
	}

	/** 16 fresh random bits: an SQL expression in [0, 65536) over the row's state `s`. */
	private bits16(): string {
		this.outputs++;
		const step = power(this.multiplier, this.increment, this.outputs);
		return `(((s * ${step.multiplier} + ${step.increment}) % ${MODULUS}) >> 15)`;
	}

	/** Raw random bits: [0, 65536). */
	raw16(): string {
		return this.bits16();
	}

	/** Raw random bits: [0, 2^32). */
	raw32(): string {
		return `(${this.bits16()} * 65536 + ${this.bits16()})`;
	}

	/** An integer in [0, n), n an SQL expression or a number (above 65536: two outputs). */
	index(n: string | number): string {
		if (typeof n === 'number' && n > 65_536) return `((${this.raw32()} * ${n}) >> 32)`;
		return `((${this.bits16()} * (${n})) >> 16)`;
	}

	/** An integer in [0, n) for n up to 2^31, an SQL expression. */
	wideIndex(n: string): string {
		return `((${this.raw32()} * (${n})) >> 32)`;
	}

	/** An integer in [min, max]. */
	int(min: number, max: number): string {
		return `(${min} + ${this.index(max - min + 1)})`;
	}

	/** 1 with probability p, else 0. */
	chance(p: number): string {
		return `(${this.bits16()} < ${Math.round(p * 65536)})`;
	}

	/** A fraction in [0, 1). */
	fraction(): string {
		return `(${this.bits16()} / 65536.0)`;
	}

	/**
	 * A recursive CTE `name(key, s)` over keys from..to, `s` being the generator's state before the
	 * row's outputs (call it after every field is made: a row consumes all of them).
	 */
	series(name: string, from: number, to: number): string {
		const perRow = power(this.multiplier, this.increment, this.outputs);
		const first = power(this.multiplier, this.increment, this.outputs * from);
		const state = (mulMod(first.multiplier, this.start) + first.increment) % MODULUS;
		return `${name}(key, s) AS (SELECT ${from}, ${state}
			UNION ALL SELECT key + 1, (s * ${perRow.multiplier} + ${perRow.increment}) % ${MODULUS} FROM ${name} WHERE key < ${to})`;
	}
}

/** The affine map x → a·x + c (mod 2^31) applied n times, by repeated squaring. */
function power(a: number, c: number, n: number): { multiplier: number; increment: number } {
	let multiplier = 1;
	let increment = 0;
	let stepMultiplier = a;
	let stepIncrement = c;
	for (let left = n; left > 0; left = Math.floor(left / 2)) {
		if (left % 2 === 1) {
			multiplier = mulMod(multiplier, stepMultiplier);
			increment = (mulMod(increment, stepMultiplier) + stepIncrement) % MODULUS;
		}
		stepIncrement = (mulMod(stepIncrement, stepMultiplier) + stepIncrement) % MODULUS;
		stepMultiplier = mulMod(stepMultiplier, stepMultiplier);
	}
	return { multiplier, increment };
}

/** a·b mod 2^31 (Math.imul is exact mod 2^32). */
function mulMod(a: number, b: number): number {
	return (Math.imul(a, b) >>> 0) % MODULUS;
}

/** A well-mixed 32-bit integer, to derive streams from the seed. */
function mix32(value: number): number {
	let x = value >>> 0;
	x ^= x >>> 16;
	x = Math.imul(x, 0x7feb352d) >>> 0;
	x ^= x >>> 15;
	x = Math.imul(x, 0x846ca68b) >>> 0;
	x ^= x >>> 16;
	return x >>> 0;
}

/** `strftime` of a unix time in seconds into the stored date format. */
function stored(seconds: string): string {
	return `strftime('%Y-%m-%dT%H:%M:%SZ', ${seconds}, 'unixepoch')`;
}

/** Words of the fixed lists, by list name and index (filled once per seeding). */
const WORD_LISTS: Readonly<Record<string, readonly string[]>> = {
	skill: SKILLS,
	benefit: ['Pension, 25 days holiday', 'Company car', 'Private healthcare', 'Hybrid working'],
	error: DELIVERY_ERRORS,
	first: FIRST_NAMES,
	last: LAST_NAMES,
	street: STREETS,
	ukcity: UK_CITIES,
	domain: ['example.com', 'mail.example', 'example.org'],
	tag: ['Reviewed', 'Ignore', 'Shortlist', 'Do not contact'],
	partner: ['PartnerNotReviewed', 'PartnerAccepted', 'PartnerRejected', 'PartnerSubscribed', 'PartnerBarred'],
	interview: ['Pending', 'Confirmed', 'CannotAttend', 'Declined'],
};

/** Letters only, lower case, accents removed: the local part of a generated email (as seed.ts does). */
function asciiName(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[^A-Za-z]/g, '')
		.toLowerCase();
}

function gcd(a: number, b: number): number {
	return b === 0 ? a : gcd(b, a % b);
}

/** Steps through a list of n items that visit distinct items (coprime with n), for sampling without repeats. */
function strides(n: number): number[] {
	return Array.from({ length: Math.max(n - 1, 1) }, (_, k) => k + 1).filter((step) => gcd(step, n) === 1);
}

/**
 * Adds adverts and applications to a store seeded by seedDemoData until it holds `adverts` and
 * `applications`. Returns how many it added.
 */
export function seedBulk(store: Store, options: BulkSeedOptions): { adverts: number; applications: number } {
	const seed = options.seed >>> 0;
	const nowS = Math.floor(options.now.getTime() / 1000);
	const active = options.users.filter((user) => user.active === 1);
	const groups = [active.filter((user) => user.org < 8), active.filter((user) => user.org >= 8)] as const;
	const groupCities = [UK_CITIES, ['Berlin', 'Munich']] as const;
	const feedIdentifier = new Map(FEEDS.map(([id, identifier]) => [id, identifier]));
	let addedAdverts = 0;
	let addedApplications = 0;

	store.bulkLoad((prepare) => {
		const run: Run = (sql, values = []) => void prepare(sql)(values);
		run(
			`CREATE TEMP TABLE bulk_user (grp INTEGER, k INTEGER, id INTEGER, org INTEGER, contact TEXT, email TEXT, PRIMARY KEY (grp, k)) WITHOUT ROWID`,
		);
		run(`CREATE TEMP TABLE bulk_title (k INTEGER PRIMARY KEY, title TEXT, industry TEXT)`);
		run(
			`CREATE TEMP TABLE bulk_city (grp INTEGER, k INTEGER, city TEXT, lat TEXT, lon TEXT, PRIMARY KEY (grp, k)) WITHOUT ROWID`,
		);
		run(
			`CREATE TEMP TABLE bulk_feed (grp INTEGER, k INTEGER, feed_id INTEGER, identifier TEXT, PRIMARY KEY (grp, k)) WITHOUT ROWID`,
		);
		run(
			`CREATE TEMP TABLE bulk_stride (grp INTEGER, k INTEGER, stride INTEGER, PRIMARY KEY (grp, k)) WITHOUT ROWID`,
		);
		run(
			`CREATE TEMP TABLE bulk_word (list TEXT, k INTEGER, word TEXT, ascii TEXT, PRIMARY KEY (list, k)) WITHOUT ROWID`,
		);
		run(`CREATE TEMP TABLE bulk_slot (round INTEGER, slot INTEGER, PRIMARY KEY (round, slot)) WITHOUT ROWID`);
		const user = prepare('INSERT INTO bulk_user VALUES (?, ?, ?, ?, ?, ?)');
		const city = prepare('INSERT INTO bulk_city VALUES (?, ?, ?, ?, ?)');
		const feed = prepare('INSERT INTO bulk_feed VALUES (?, ?, ?, ?)');
		const stride = prepare('INSERT INTO bulk_stride VALUES (?, ?, ?)');
		groups.forEach((members, grp) => {
			members.forEach((member, k) => {
				const domain = grp === 1 ? 'globex.example' : 'acme-recruitment.example';
				user([grp, k, member.id, member.org, `${member.first} ${member.last}`, `${member.username}@${domain}`]);
			});
			groupCities[grp].forEach((name, k) => {
				const coordinates = KNOWN_LOCATIONS[name.toLowerCase()];
				const known = coordinates !== undefined && coordinates[0] !== '';
				city([grp, k, name, known ? coordinates[0] : null, known ? coordinates[1] : null]);
			});
			options.groupFeeds[grp].forEach((feedId, k) =>
				feed([grp, k, feedId, feedIdentifier.get(feedId) ?? String(feedId)]),
			);
			strides(options.groupFeeds[grp].length).forEach((step, k) => stride([grp, k, step]));
		});
		const title = prepare('INSERT INTO bulk_title VALUES (?, ?, ?)');
		JOB_TITLES.forEach(([name, industry], k) => title([k, name, industry]));
		const word = prepare('INSERT INTO bulk_word VALUES (?, ?, ?, ?)');
		for (const [list, words] of Object.entries(WORD_LISTS)) {
			words.forEach((text, k) => word([list, k, text, asciiName(text)]));
		}
		const slot = prepare('INSERT INTO bulk_slot VALUES (?, ?)');
		for (let round = 0; round < 2; round++) for (let k = 0; k < 5; k++) slot([round, k]);
	});

	const counts = (sql: string): number => {
		let value = 0;
		store.bulkLoad((_prepare, query) => {
			value = Number((query(sql)[0] as { n: number | bigint | null }).n ?? 0);
		});
		return value;
	};

	// Adverts, their postings, tracking logs and values.
	const firstAdvert = counts('SELECT coalesce(max(id), 0) AS n FROM advert') + 1;
	for (let from = firstAdvert; from <= options.adverts; from += ADVERT_BATCH) {
		const to = Math.min(options.adverts, from + ADVERT_BATCH - 1);
		const postingBase = counts('SELECT coalesce(max(id), 0) AS n FROM posting');
		store.bulkLoad((prepare, query) => {
			const run: Run = (sql, values = []) => void prepare(sql)(values);
			insertAdverts(run, {
				from,
				to,
				seed,
				nowS,
				groups: groups.map((g) => g.length),
				feeds: options.groupFeeds.map((f) => f.length),
				strides: options.groupFeeds.map((f) => strides(f.length).length),
				postingBase,
				count: (sql) => Number((query(sql)[0] as { n: number | bigint }).n),
			});
		});
		addedAdverts += to - from + 1;
		options.onProgress?.(`adverts ${to}`);
	}

	// Applications with their candidates, notes and tags.
	const firstApplication = counts('SELECT count(*) AS n FROM application') + 1;
	if (firstApplication <= options.applications) {
		store.bulkLoad((prepare) => {
			const run: Run = (sql, values = []) => void prepare(sql)(values);
			prepareApplicationTargets(run, options.candidatePool);
		});
		const targets = counts('SELECT count(*) AS n FROM bulk_target');
		const organisations = counts('SELECT count(DISTINCT org) AS n FROM bulk_target');
		for (let from = firstApplication; from <= options.applications && targets > 0; from += APPLICATION_BATCH) {
			const to = Math.min(options.applications, from + APPLICATION_BATCH - 1);
			const applicationBase = counts('SELECT coalesce(max(id), 0) AS n FROM application');
			const candidateBase = counts('SELECT coalesce(max(id), 0) AS n FROM candidate');
			const poolsFull =
				counts(`SELECT count(*) AS n FROM bulk_pool_size WHERE n < ${options.candidatePool}`) === 0 &&
				counts('SELECT count(*) AS n FROM bulk_pool_size') === organisations;
			store.bulkLoad((prepare) => {
				const run: Run = (sql, values = []) => void prepare(sql)(values);
				insertApplications(run, {
					from,
					to,
					seed,
					nowS,
					targets,
					applicationBase,
					candidateBase,
					pool: options.candidatePool,
					poolsFull,
				});
			});
			addedApplications += to - from + 1;
			options.onProgress?.(`applications ${to}`);
		}
	}

	store.bulkLoad((prepare) => {
		for (const table of [
			'user',
			'title',
			'city',
			'feed',
			'stride',
			'word',
			'slot',
			'ad',
			'post',
			'target',
			'target_post',
			'pool',
			'app',
		]) {
			prepare(`DROP TABLE IF EXISTS temp.bulk_${table}`)([]);
		}
	});
	return { adverts: addedAdverts, applications: addedApplications };
}

interface AdvertBatch {
	from: number;
	to: number;
	seed: number;
	nowS: number;
	/** Active users, feeds and feed strides per group (Acme, Globex). */
	groups: number[];
	feeds: number[];
	strides: number[];
	postingBase: number;
	count: (sql: string) => number;
}

function insertAdverts(run: Run, batch: AdvertBatch): void {
	const { from, to, seed, nowS } = batch;
	const byGroup = (values: number[]) => `CASE grp WHEN 0 THEN ${values[0]} ELSE ${values[1]} END`;
	const r = new RandomColumns(seed, 1);
	// The owner's group first: other fields depend on it.
	const grpExpr = `(1 - ${r.chance(0.9)})`;
	const fields = {
		user_k: r.index(`CASE ${grpExpr} WHEN 0 THEN ${batch.groups[0]} ELSE ${batch.groups[1]} END`),
		title_k: r.index(JOB_TITLES.length),
		days: r.int(0, 120),
		hours: r.int(0, 23),
		future: r.chance(0.04),
		status_roll: r.index(1000),
		city_k: r.index(`CASE ${grpExpr} WHEN 0 THEN ${UK_CITIES.length} ELSE 2 END`),
		reuse: r.chance(0.1),
		back: r.int(1, 64),
		salary: r.int(18, 70),
		spread: r.int(2, 15),
		job_type: r.index(4),
		job_hours: r.index(3),
		benefit: r.index(4),
		hide: r.chance(0.1),
		skill_a: r.index(SKILLS.length),
		skill_b: r.index(SKILLS.length),
		app_url: r.chance(0.2),
		source: r.index(3),
		feed_count: r.int(2, 5),
		two_rounds: r.chance(0.15),
		feed_off: r.index(`CASE ${grpExpr} WHEN 0 THEN ${batch.feeds[0]} ELSE ${batch.feeds[1]} END`),
		stride_k: r.index(`CASE ${grpExpr} WHEN 0 THEN ${batch.strides[0]} ELSE ${batch.strides[1]} END`),
		post_h0: r.int(1, 3),
		post_h1: r.int(1, 3),
		post_d1: r.int(5, 20),
		sched_days: r.int(1, 14),
		value_off: r.index(SKILLS.length),
		value_stride_k: r.index(strides(SKILLS.length).length),
		token_a: r.index(65_536),
		token_b: r.index(65_536),
		token_c: r.index(65_536),
	};
	const valueStrides = strides(SKILLS.length);
	const values = Object.entries(fields)
		.map(([name, expression]) => `${expression} AS ${name}`)
		.join(', ');
	run(`DROP TABLE IF EXISTS temp.bulk_ad`);
	run(`CREATE TEMP TABLE bulk_ad AS
		WITH RECURSIVE ${r.series('n', from, to)},
		v AS MATERIALIZED (SELECT key AS id, ${grpExpr} AS grp, ${values} FROM n),
		w AS (SELECT v.*, ${nowS} - days * ${DAY_S} - hours * ${HOUR_S} AS created_s FROM v)
		SELECT w.id, w.grp, u.id AS user_id, u.org, u.contact, u.email, t.title, t.industry, w.created_s, w.future,
			CASE WHEN status_roll < 60 THEN ${ADVERT_STATUS.Deleted} WHEN status_roll < 90 THEN ${ADVERT_STATUS.ToAuthorise} ELSE ${ADVERT_STATUS.Created} END AS status_id,
			c.city, c.lat, c.lon,
			(CASE w.grp WHEN 0 THEN 'ACME-' ELSE 'GLX-' END) || (1000 + CASE WHEN reuse THEN w.id - back ELSE w.id END) AS identifier,
			printf('REF/%s/%04d', strftime('%Y', created_s, 'unixepoch'), w.id) AS reference,
			salary * 1000 AS salary_from, (salary + spread) * 1000 AS salary_to,
			substr('PPCT', job_type + 1, 1) AS job_type, substr('FFP', job_hours + 1, 1) AS job_hours,
			b.word AS benefits, hide, sa.word AS skill_a, sb.word AS skill_b, app_url,
			CASE source WHEN 2 THEN 'Web' ELSE 'API' END AS source,
			printf('s%x-%04x%04x%04x', w.id, token_a, token_b, token_c) AS token,
			CASE WHEN future THEN ${nowS} + sched_days * ${DAY_S} END AS scheduled_s,
			(NOT future AND NOT (status_roll >= 60 AND status_roll < 90)) AS will_post,
			feed_count, 1 + two_rounds AS rounds, feed_off, s.stride,
			created_s + post_h0 * ${HOUR_S} AS post0_s,
			created_s + post_h1 * ${HOUR_S} + post_d1 * ${DAY_S} AS post1_s,
			value_off, CASE value_stride_k ${valueStrides.map((step, k) => `WHEN ${k} THEN ${step}`).join(' ')} END AS value_stride
		FROM w
		JOIN bulk_user u ON u.grp = w.grp AND u.k = w.user_k
		JOIN bulk_title t ON t.k = w.title_k
		JOIN bulk_city c ON c.grp = w.grp AND c.k = w.city_k
		JOIN bulk_stride s ON s.grp = w.grp AND s.k = w.stride_k
		JOIN bulk_word b ON b.list = 'benefit' AND b.k = w.benefit
		JOIN bulk_word sa ON sa.list = 'skill' AND sa.k = w.skill_a
		JOIN bulk_word sb ON sb.list = 'skill' AND sb.k = w.skill_b
		ORDER BY w.id`);

	// Postings: the same feeds in each round; a round whose date is after now is not posted.
	run(`DROP TABLE IF EXISTS temp.bulk_post`);
	run(`CREATE TEMP TABLE bulk_post (id INTEGER PRIMARY KEY, advert_id INTEGER, feed_id INTEGER, identifier TEXT, user_id INTEGER,
		posted_s INTEGER, failed INTEGER, delivered_s INTEGER, error TEXT, reference INTEGER)`);
	run(`INSERT INTO bulk_post (id, advert_id, feed_id, identifier, user_id, posted_s)
		SELECT ${batch.postingBase} + row_number() OVER (ORDER BY a.id, r.round, r.slot), a.id, f.feed_id, f.identifier, a.user_id,
			CASE r.round WHEN 0 THEN a.post0_s ELSE a.post1_s END
		FROM bulk_ad a
		JOIN bulk_slot r ON r.slot < a.feed_count AND r.round < a.rounds
		JOIN bulk_feed f ON f.grp = a.grp AND f.k = (a.feed_off + r.slot * a.stride) % ${byGroup(batch.feeds).replace(/grp/g, 'a.grp')}
		WHERE a.will_post AND (CASE r.round WHEN 0 THEN a.post0_s ELSE a.post1_s END) <= ${nowS}
		ORDER BY a.id, r.round, r.slot`);
	const postings = batch.count('SELECT count(*) AS n FROM bulk_post');
	const p = new RandomColumns(seed, 2);
	const postFields = {
		failed: p.chance(0.08),
		minutes: p.int(1, 30),
		error_k: p.index(DELIVERY_ERRORS.length),
		reference: p.int(100000, 999999),
	};
	if (postings > 0) {
		run(`WITH RECURSIVE ${p.series('n', batch.postingBase + 1, batch.postingBase + postings)},
		pv AS MATERIALIZED (SELECT key, ${Object.entries(postFields)
			.map(([name, expression]) => `${expression} AS ${name}`)
			.join(', ')} FROM n)
		UPDATE bulk_post SET failed = pv.failed, delivered_s = posted_s + pv.minutes * 60,
			error = (SELECT word FROM bulk_word WHERE list = 'error' AND k = pv.error_k), reference = pv.reference
		FROM pv WHERE pv.key = bulk_post.id`);
	}
	const status = `CASE WHEN failed THEN ${DELIVERY_STATUS.Failed} WHEN posted_s + ${28 * DAY_S} < ${nowS} THEN ${DELIVERY_STATUS.Expired} ELSE ${DELIVERY_STATUS.Delivered} END`;
	const clamp = (seconds: string) => stored(`min(${seconds}, ${nowS})`);

	run(`INSERT INTO advert (id, user_id, organisation_id, identifier, reference, status_id, title, job_type, job_hours, primary_location,
			industry, salary_from, salary_to, salary_currency, salary_per, salary_benefits, salary_hide, contact_name, contact_email, job_description,
			application_url, source, latitude, longitude, completion_token, created_at, scheduled_post_at, last_post_date, last_delivery_date, last_delivery_status_id)
		SELECT a.id, a.user_id, a.org, a.identifier, a.reference, a.status_id, a.title, a.job_type, a.job_hours, a.city,
			a.industry, CAST(a.salary_from AS TEXT), CAST(a.salary_to AS TEXT), CASE a.grp WHEN 1 THEN 'EUR' ELSE 'GBP' END, 'Y', a.benefits, a.hide,
			a.contact, a.email,
			'<p>We are looking for a <strong>' || a.title || '</strong> to join our team in ' || a.city || '.</p><ul><li>' || a.skill_a || '</li><li>' || a.skill_b || '</li></ul>',
			CASE WHEN a.app_url THEN 'https://careers.sandbox.example/jobs/' || a.id END, a.source, a.lat, a.lon, a.token,
			${clamp('a.created_s')}, CASE WHEN a.scheduled_s IS NOT NULL THEN ${stored('a.scheduled_s')} END,
			CASE WHEN g.last_post IS NOT NULL THEN ${clamp('g.last_post')} END,
			CASE WHEN g.last_post IS NOT NULL THEN ${clamp('g.last_delivery')} END,
			coalesce((SELECT ${status} FROM bulk_post l WHERE l.id = g.last_id), 0)
		FROM bulk_ad a
		LEFT JOIN (SELECT advert_id, max(posted_s) AS last_post, max(delivered_s) AS last_delivery, max(id) AS last_id FROM bulk_post GROUP BY advert_id) g
			ON g.advert_id = a.id
		ORDER BY a.id`);
	run(`INSERT INTO posting (id, advert_id, feed_id, user_id, posted_at, estimated_expire_at, corrected_at, delivery_status_id, delivered_at)
		SELECT id, advert_id, feed_id, user_id, ${clamp('posted_s')}, ${stored(`posted_s + ${28 * DAY_S}`)},
			CASE WHEN failed THEN NULL ELSE ${clamp('delivered_s')} END, ${status}, ${clamp('delivered_s')}
		FROM bulk_post ORDER BY id`);
	run(`INSERT INTO tracking_log (posting_id, delivered_at, error_level, response)
		SELECT posting_id, delivered_at, error_level, response FROM (
			SELECT id AS posting_id, 0 AS step, ${clamp('posted_s')} AS delivered_at, 'Pending' AS error_level, 'Queued for delivery.' AS response FROM bulk_post
			UNION ALL
			SELECT id, 1, ${clamp('delivered_s')}, CASE WHEN failed THEN 'Error' ELSE 'None' END,
				CASE WHEN failed THEN error ELSE 'Delivered: job board reference ' || reference || '.' END FROM bulk_post)
		ORDER BY posting_id, step`);
	run(`INSERT INTO advert_value (advert_id, feed_id, field_id, field_identifier, value, values_json)
		SELECT advert_id, feed_id, field_id, field_identifier, value, values_json FROM (
			SELECT a.id AS advert_id, 0 AS feed_id, 1 AS field_id, 'JobCategory' AS field_identifier, a.industry AS value, NULL AS values_json, 0 AS first_post FROM bulk_ad a
			UNION ALL
			SELECT a.id, 0, 2, 'Skills', s1.word || ', ' || s2.word || ', ' || s3.word, json_array(s1.word, s2.word, s3.word), 0
			FROM bulk_ad a
			JOIN bulk_word s1 ON s1.list = 'skill' AND s1.k = a.value_off
			JOIN bulk_word s2 ON s2.list = 'skill' AND s2.k = (a.value_off + a.value_stride) % ${SKILLS.length}
			JOIN bulk_word s3 ON s3.list = 'skill' AND s3.k = (a.value_off + 2 * a.value_stride) % ${SKILLS.length}
			UNION ALL
			SELECT p.advert_id, p.feed_id, p.feed_id * 10 + 1, p.identifier || 'Category', a.industry, NULL, min(p.id)
			FROM bulk_post p JOIN bulk_ad a ON a.id = p.advert_id GROUP BY p.advert_id, p.feed_id
			UNION ALL
			SELECT p.advert_id, p.feed_id, p.feed_id * 10 + 2, p.identifier || 'Duration', '28', NULL, min(p.id)
			FROM bulk_post p GROUP BY p.advert_id, p.feed_id)
		ORDER BY advert_id, first_post, field_id`);
}

/** The posted adverts applications go to (those with a delivered or expired posting), their postings, and the candidate pool. */
function prepareApplicationTargets(run: Run, pool: number): void {
	run(
		`CREATE TEMP TABLE bulk_target_post (k INTEGER PRIMARY KEY, posting_id INTEGER, advert_id INTEGER, feed_id INTEGER, posted_s INTEGER)`,
	);
	run(`INSERT INTO bulk_target_post SELECT row_number() OVER (ORDER BY advert_id, id) - 1, id, advert_id, feed_id, unixepoch(posted_at)
		FROM posting WHERE delivery_status_id IN (${DELIVERY_STATUS.Delivered}, ${DELIVERY_STATUS.Expired}) ORDER BY advert_id, id`);
	run(
		`CREATE TEMP TABLE bulk_target (k INTEGER PRIMARY KEY, advert_id INTEGER, org INTEGER, owner_id INTEGER, first_post INTEGER, posts INTEGER)`,
	);
	run(`INSERT INTO bulk_target SELECT row_number() OVER (ORDER BY p.advert_id) - 1, p.advert_id, a.organisation_id, a.user_id, min(p.k), count(*)
		FROM bulk_target_post p JOIN advert a ON a.id = p.advert_id GROUP BY p.advert_id ORDER BY p.advert_id`);
	run(
		`CREATE TEMP TABLE bulk_pool (org INTEGER, k INTEGER, candidate_id INTEGER, PRIMARY KEY (org, k)) WITHOUT ROWID`,
	);
	run(`INSERT INTO bulk_pool SELECT org, k, id FROM (
			SELECT organisation_id AS org, row_number() OVER (PARTITION BY organisation_id ORDER BY id) - 1 AS k, id FROM candidate)
		WHERE k < ${pool}`);
	run(`CREATE TEMP TABLE bulk_pool_size (org INTEGER PRIMARY KEY, n INTEGER)`);
	run(`INSERT INTO bulk_pool_size SELECT org, count(*) FROM bulk_pool GROUP BY org`);
}

interface ApplicationBatch {
	from: number;
	to: number;
	seed: number;
	nowS: number;
	targets: number;
	applicationBase: number;
	candidateBase: number;
	pool: number;
	/** Every organisation's pool is full: new candidates are not added to it. */
	poolsFull: boolean;
}

function insertApplications(run: Run, batch: ApplicationBatch): void {
	const { from, to, seed, nowS } = batch;
	const progressIds = DEFAULT_PROGRESS.map((progress) => progress.id);
	const r = new RandomColumns(seed, 3);
	const fields = {
		target_k: r.wideIndex(String(batch.targets)),
		post_r: r.raw16(),
		returner: r.chance(0.12),
		pool_r: r.raw32(),
		minutes_before: r.int(0, 59),
		minutes_after: r.int(10, 30 * 24 * 60),
		first_k: r.index(FIRST_NAMES.length),
		last_k: r.index(LAST_NAMES.length),
		domain_k: r.index(3),
		mobile_a: r.int(100, 999),
		mobile_b: r.int(100000, 999999),
		house: r.int(1, 200),
		street_k: r.index(STREETS.length),
		city_k: r.index(UK_CITIES.length),
		has_home: r.chance(0.3),
		home_a: r.int(100, 999),
		home_b: r.int(100000, 999999),
		has_work: r.chance(0.2),
		work_a: r.int(1000, 9999),
		work_b: r.int(1000, 9999),
		has_tag: r.chance(0.05),
		tag_k: r.index(4),
		has_partner: r.chance(0.03),
		partner_k: r.index(5),
		ranking_roll: r.index(1000),
		favourite: r.chance(0.05),
		progress_roll: r.index(1000),
		progress_k: r.int(2, Math.max(...progressIds)),
		interview_k: r.index(4),
		viewed_coin: r.chance(0.5),
		score_extra: r.int(0, 100),
		archived: r.chance(0.04),
		processing: r.chance(0.03),
		has_note: r.chance(0.1),
		note_weeks: r.int(1, 8),
		score_f: r.fraction(),
		progress_f: r.fraction(),
		note_f: r.fraction(),
	};
	const values = Object.entries(fields)
		.map(([name, expression]) => `${expression} AS ${name}`)
		.join(', ');
	const columns = [
		...Object.keys(fields),
		'advert_id',
		'org',
		'owner_id',
		'posting_id',
		'feed_id',
		'applied_s',
		'is_new',
		'candidate_id',
	];
	run(`DROP TABLE IF EXISTS temp.bulk_app`);
	run(`CREATE TEMP TABLE bulk_app (i INTEGER PRIMARY KEY, ${columns.join(', ')})`);
	// A returning candidate comes from the pool of the advert's organisation; a new one is numbered after the application.
	run(`INSERT INTO bulk_app (i, ${columns.join(', ')})
		WITH RECURSIVE ${r.series('n', from, to)},
		v AS (SELECT key AS i, ${values} FROM n),
		j AS (SELECT v.*, t.advert_id, t.org, t.owner_id, p.posting_id, p.feed_id,
				min(${nowS} - v.minutes_before * 60, p.posted_s + v.minutes_after * 60) AS applied_s,
				(v.returner AND coalesce(s.n, 0) > 0) AS returns, s.n AS pool_n
			FROM v
			JOIN bulk_target t ON t.k = v.target_k
			JOIN bulk_target_post p ON p.k = t.first_post + ((v.post_r * t.posts) >> 16)
			LEFT JOIN bulk_pool_size s ON s.org = t.org)
		SELECT i, ${Object.keys(fields).join(', ')}, advert_id, org, owner_id, posting_id, feed_id, applied_s, NOT returns,
			CASE WHEN returns THEN (SELECT candidate_id FROM bulk_pool WHERE org = j.org AND k = (j.pool_r * j.pool_n) >> 32)
				ELSE ${batch.candidateBase} + i - ${from} + 1 END
		FROM j`);

	run(`INSERT INTO candidate (id, organisation_id, email, first_name, last_name, home_phone, work_phone, mobile_phone, address)
		SELECT a.candidate_id, a.org, f.ascii || '.' || l.ascii || a.i || '@' || d.word, f.word, l.word,
			CASE WHEN a.has_home THEN '+44 1' || a.home_a || ' ' || a.home_b END,
			CASE WHEN a.has_work THEN '+44 20 ' || a.work_a || ' ' || a.work_b END,
			'+44 7' || a.mobile_a || ' ' || a.mobile_b,
			a.house || ' ' || st.word || ', ' || c.word
		FROM bulk_app a
		JOIN bulk_word f ON f.list = 'first' AND f.k = a.first_k
		JOIN bulk_word l ON l.list = 'last' AND l.k = a.last_k
		JOIN bulk_word d ON d.list = 'domain' AND d.k = a.domain_k
		JOIN bulk_word st ON st.list = 'street' AND st.k = a.street_k
		JOIN bulk_word c ON c.list = 'ukcity' AND c.k = a.city_k
		WHERE a.is_new ORDER BY a.i`);
	run(`INSERT OR IGNORE INTO candidate_tag (candidate_id, kind, tag, created_at)
		SELECT candidate_id, kind, tag, created_at FROM (
			SELECT a.candidate_id, a.i, 0 AS step, 'tag' AS kind, w.word AS tag, ${stored('min(a.applied_s, ' + nowS + ')')} AS created_at
			FROM bulk_app a JOIN bulk_word w ON w.list = 'tag' AND w.k = a.tag_k WHERE a.is_new AND a.has_tag
			UNION ALL
			SELECT a.candidate_id, a.i, 1, 'partner', w.word, ${stored('min(a.applied_s, ' + nowS + ')')}
			FROM bulk_app a JOIN bulk_word w ON w.list = 'partner' AND w.k = a.partner_k WHERE a.is_new AND a.has_partner)
		ORDER BY i, step`);

	const ranking = `CASE WHEN ranking_roll < 450 THEN 0 WHEN ranking_roll < 600 THEN 1 WHEN ranking_roll < 800 THEN 2 ELSE 4 END`;
	const progress = `CASE WHEN progress_roll < 550 THEN 1 ELSE progress_k END`;
	const later = (fraction: string) =>
		stored(`min(applied_s + CAST(${fraction} * max(${nowS} - applied_s, 0) AS INTEGER), ${nowS})`);
	run(`INSERT INTO application (id, advert_id, organisation_id, candidate_id, posting_id, feed_id, applied_at, viewed, ranking, favourite, score_extra,
			archived, progress_id, interview_status, processing_messages, last_score_date, last_scored_by, last_progress_date, last_progressed_by, last_note_date)
		SELECT ${batch.applicationBase} + i - ${from} + 1, advert_id, org, candidate_id, posting_id, feed_id, ${stored(`min(applied_s, ${nowS})`)},
			CASE WHEN ${ranking} <> 0 OR viewed_coin THEN 1 ELSE 0 END, ${ranking}, favourite, score_extra, archived, ${progress},
			CASE ${progress} WHEN 4 THEN (SELECT word FROM bulk_word WHERE list = 'interview' AND k = interview_k) WHEN 5 THEN 'Confirmed' WHEN 6 THEN 'Confirmed' END,
			CASE WHEN processing THEN 'Attachment could not be parsed: the PDF is password protected.' END,
			CASE WHEN ${ranking} <> 0 OR favourite THEN ${later('score_f')} END,
			CASE WHEN ${ranking} <> 0 OR favourite THEN owner_id END,
			CASE WHEN ${progress} <> 1 THEN ${later('progress_f')} END,
			CASE WHEN ${progress} <> 1 THEN owner_id END,
			CASE WHEN has_note THEN ${later('note_f')} END
		FROM bulk_app ORDER BY i`);
	run(`INSERT INTO note (application_id, user_id, subject, body, created_at)
		SELECT ${batch.applicationBase} + a.i - ${from} + 1, a.owner_id, 'Phone screen',
			'Spoke to ' || c.first_name || '; available in ' || a.note_weeks || ' weeks.', ${later('a.note_f').replace(/applied_s/g, 'a.applied_s')}
		FROM bulk_app a JOIN candidate c ON c.id = a.candidate_id WHERE a.has_note ORDER BY a.i`);

	// New candidates join their organisation's pool of returning candidates, up to its size.
	if (batch.poolsFull) return;
	run(`INSERT INTO bulk_pool (org, k, candidate_id)
		SELECT org, k, candidate_id FROM (
			SELECT a.org, coalesce(s.n, 0) + row_number() OVER (PARTITION BY a.org ORDER BY a.candidate_id) - 1 AS k, a.candidate_id
			FROM bulk_app a LEFT JOIN bulk_pool_size s ON s.org = a.org WHERE a.is_new)
		WHERE k < ${batch.pool}`);
	run(`INSERT OR REPLACE INTO bulk_pool_size SELECT org, count(*) FROM bulk_pool GROUP BY org`);
}
