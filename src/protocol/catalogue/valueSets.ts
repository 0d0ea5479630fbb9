/**
 * Value sets named by the spec and the known facts, as typed constants. Sets marked "defined here"
 * have no public list; they are this project's documented choice (docs/sandbox.md "Where the spec is silent").
 */

export interface ValueChoice {
	/** The text sent on the wire. */
	readonly value: string;
	readonly label: string;
	/** Numeric equivalent where the spec gives one (ranking flags, score letters). */
	readonly code?: number;
}

export interface ValueSet {
	readonly doc: string;
	/** false when other values are allowed too (free text with suggestions). */
	readonly closed: boolean;
	readonly values: readonly ValueChoice[];
}

/** Ranking filter values (string or numeric): spec "States and transitions". */
export const RANKING = { Unranked: 0, Unsuitable: 1, MaybeSuitable: 2, Suitable: 4 } as const;
export type RankingName = keyof typeof RANKING;

/** ApplicationScore letters and the flag each sets: the one list of the letters. */
export const SCORE_LETTERS = { S: 4, M: 2, U: 1, F: 64, N: 0 } as const;
export type ScoreLetter = keyof typeof SCORE_LETTERS;

const SCORE_LABELS: Readonly<Record<ScoreLetter, string>> = {
	S: 'Suitable (green flag)',
	M: 'Maybe suitable (blue or yellow flag)',
	U: 'Unsuitable (red flag)',
	F: 'Favourite (star)',
	N: 'None (no flag)',
};

export const PARTNER_TAGS = [
	'PartnerNotReviewed',
	'PartnerAccepted',
	'PartnerRejected',
	'PartnerSubscribed',
	'PartnerBarred',
] as const;
export type PartnerTag = (typeof PARTNER_TAGS)[number];

/** Known facts: AdvertStatusID values. */
export const ADVERT_STATUS = { Created: 0, Deleted: 1, ToAuthorise: 16 } as const;

export const ON_DUPLICATE = ['duplicate', 'ignore', 'update', 'error'] as const;
export type OnDuplicate = (typeof ON_DUPLICATE)[number];

/** LastDeliveryStatusID (defined here): where a posting's delivery stands. */
export const DELIVERY_STATUS = { NotDelivered: 0, Pending: 1, Delivered: 2, Failed: 3, Expired: 4 } as const;

/** Default ProgressID set of the emulator (defined here; each real account has its own). */
export const DEFAULT_PROGRESS = [
	{ id: 1, name: 'New' },
	{ id: 2, name: 'Reviewed' },
	{ id: 3, name: 'Shortlisted' },
	{ id: 4, name: 'Interview' },
	{ id: 5, name: 'Offer' },
	{ id: 6, name: 'Hired' },
	{ id: 7, name: 'Rejected' },
] as const;

/** UserRoleID values (defined here). */
export const USER_ROLE = { Administrator: 1, User: 2 } as const;

/** DocumentType attribute values of application documents (defined here). */
export const DOCUMENT_TYPE = {
	EmailBody: 'EmailBody',
	Attachment: 'Attachment',
	Parsed: 'Parsed',
	Email: 'Email',
} as const;

/** Value sets offered as choices in forms and checked where closed. */
export const VALUE_SETS = {
	ranking: {
		doc: 'Ranking filter: names or numbers, comma-separated in RankingAsCSV.',
		closed: true,
		values: Object.entries(RANKING).map(([label, code]) => ({ value: label, label, code })),
	},
	score: {
		doc: 'ApplicationScore letter.',
		closed: true,
		values: (Object.keys(SCORE_LETTERS) as ScoreLetter[]).map((letter) => ({
			value: letter,
			label: SCORE_LABELS[letter],
			code: SCORE_LETTERS[letter],
		})),
	},
	partnerTag: {
		doc: 'Partner candidate tag.',
		closed: true,
		values: PARTNER_TAGS.map((value) => ({ value, label: value.replace(/^Partner/, '') })),
	},
	advertStatus: {
		doc: 'AdvertStatusID.',
		closed: true,
		values: Object.entries(ADVERT_STATUS).map(([label, code]) => ({ value: String(code), label, code })),
	},
	onDuplicate: {
		doc: 'What AddAdvert does when an advert with the same identifier exists.',
		closed: true,
		values: [
			{ value: 'duplicate', label: 'Create a duplicate' },
			{ value: 'ignore', label: 'Return the existing advert' },
			{ value: 'update', label: 'Update the existing advert' },
			{ value: 'error', label: 'Fail with a message' },
		],
	},
	jobType: {
		doc: 'sJobType.',
		closed: true,
		values: [
			{ value: 'P', label: 'Permanent' },
			{ value: 'C', label: 'Contract' },
			{ value: 'T', label: 'Temporary' },
		],
	},
	jobHours: {
		doc: 'sJobHours.',
		closed: true,
		values: [
			{ value: 'F', label: 'Full time' },
			{ value: 'P', label: 'Part time' },
		],
	},
	salaryPer: {
		doc: 'sSalaryPer.',
		closed: true,
		values: [
			{ value: 'H', label: 'Hour' },
			{ value: 'D', label: 'Day' },
			{ value: 'W', label: 'Week' },
			{ value: 'M', label: 'Month' },
			{ value: 'Y', label: 'Year' },
		],
	},
	currency: {
		doc: 'ISO 4217 currency code.',
		closed: false,
		values: [
			{ value: 'GBP', label: 'Pound sterling' },
			{ value: 'EUR', label: 'Euro' },
			{ value: 'USD', label: 'US dollar' },
		],
	},
	culture: {
		doc: 'Culture name.',
		closed: false,
		values: [
			{ value: 'en', label: 'English' },
			{ value: 'en-GB', label: 'English (UK)' },
			{ value: 'en-US', label: 'English (US)' },
		],
	},
	searchDays: {
		doc: 'Search window in days; -1 for all time; default 30.',
		closed: false,
		values: [
			{ value: '30', label: '30 days (default)' },
			{ value: '7', label: '7 days' },
			{ value: '90', label: '90 days' },
			{ value: '-1', label: 'All time' },
		],
	},
	boolean: {
		doc: 'true or false.',
		closed: true,
		values: [
			{ value: 'true', label: 'true' },
			{ value: 'false', label: 'false' },
		],
	},
	progress: {
		doc: 'ProgressID (the emulator default set; real accounts have their own).',
		closed: false,
		values: DEFAULT_PROGRESS.map((p) => ({ value: String(p.id), label: p.name, code: p.id })),
	},
} as const satisfies Record<string, ValueSet>;

export type ValueSetName = keyof typeof VALUE_SETS;
