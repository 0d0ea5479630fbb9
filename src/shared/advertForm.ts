/**
 * The Create Advert form: its fields, generated from the catalogue's AddAdvert parameters (value
 * sets become choices), the checks it makes as the user types, the quota and cost preview, and the
 * messages between the form's webview and the host. Pure: the webview, the host and plain-Node tests
 * all run this one module.
 */
import { OPERATIONS, VALUE_SETS, type ParamSpec, type ValueSetName } from '../protocol/catalogue';
import { checkValue } from '../protocol/rules';

export type FieldKind = 'text' | 'textarea' | 'choice' | 'number' | 'email' | 'url' | 'dateTime' | 'feeds';
export type FieldSection = 'job' | 'salary' | 'contact' | 'boards' | 'identity' | 'delivery';

export interface AdvertField {
	/** The AddAdvert parameter. */
	name: string;
	label: string;
	/** The catalogue's description, shown under the field. */
	hint?: string;
	kind: FieldKind;
	section: FieldSection;
	required: boolean;
	choices?: { value: string; label: string }[];
	/** Choices are suggestions; other values are allowed too. */
	openChoices?: boolean;
	placeholder?: string;
}

/** The form's sections, in order: the job boards right after the description whose length they set. */
export const SECTION_TITLES: Readonly<Record<FieldSection, string>> = {
	job: 'Job',
	boards: 'Job boards',
	salary: 'Salary',
	contact: 'Contact and applying',
	identity: 'Identifier and duplicates',
	delivery: 'Posting and notifications',
};

/** How each offered parameter is presented; parameters not listed here are not offered. */
const PRESENTATION: Readonly<
	Record<
		string,
		{
			label: string;
			section: FieldSection;
			kind?: FieldKind;
			required?: boolean;
			placeholder?: string;
			/** Offer only the value set's choices (the service refuses other codes). */
			closed?: boolean;
		}
	>
> = {
	sJobTitle: { label: 'Job title', section: 'job', required: true, placeholder: 'e.g. Staff nurse' },
	sJobDescription: { label: 'Job description', section: 'job', kind: 'textarea', required: true },
	sJobType: { label: 'Type', section: 'job', closed: true },
	sJobHours: { label: 'Hours', section: 'job', closed: true },
	sPrimaryLocation: { label: 'Location', section: 'job', placeholder: 'e.g. Leeds' },
	sIndustry: { label: 'Industry', section: 'job' },
	sSalaryFrom: { label: 'From', section: 'salary', kind: 'number', placeholder: 'e.g. 28000' },
	sSalaryTo: { label: 'To', section: 'salary', kind: 'number', placeholder: 'e.g. 34000' },
	sSalaryCurrency: { label: 'Currency', section: 'salary' },
	sSalaryPer: { label: 'Per', section: 'salary', closed: true },
	sSalaryBenefits: { label: 'Benefits', section: 'salary' },
	sContactName: { label: 'Contact name', section: 'contact' },
	sContactEmail: { label: 'Contact email', section: 'contact', kind: 'email' },
	sApplicationURL: { label: 'Application page', section: 'contact', kind: 'url' },
	DestinationsAsCSV: { label: 'Job boards', section: 'boards', kind: 'feeds' },
	sFuturePostDateTimeInUtc: {
		label: 'Post later at (UTC)',
		section: 'delivery',
		kind: 'dateTime',
		placeholder: 'yyyy-MM-dd HH:mm:ss',
	},
	sApplicationCallbackURL: { label: 'Application callback URL', section: 'delivery', kind: 'url' },
	sAdvertIdentifier: { label: 'Identifier', section: 'identity' },
	sAdvertReference: { label: 'Reference', section: 'identity' },
	sOnDuplicate: { label: 'When the identifier exists', section: 'identity' },
	sSearchDays: { label: 'Look for duplicates within (days)', section: 'identity' },
	sAdvertStatusID: { label: 'Initial status', section: 'identity' },
};

function kindOf(param: ParamSpec, given?: FieldKind): FieldKind {
	if (given) return given;
	if (param.valueSet) return 'choice';
	switch (param.format) {
		case 'decimal':
		case 'integer':
			return 'number';
		case 'email':
			return 'email';
		case 'url':
			return 'url';
		case 'dateTime':
			return 'dateTime';
		default:
			return 'text';
	}
}

/** The catalogue's description as a hint, unless it only repeats the label or lists the codes the choices show. */
function usefulHint(param: ParamSpec, label: string): string | undefined {
	const doc = param.doc?.trim();
	if (!doc) return undefined;
	if (doc.replace(/\.$/, '').toLowerCase() === label.toLowerCase()) return undefined;
	if (param.valueSet && /^([A-Z]{1,3}(, | or )?)+\.$/.test(doc)) return undefined;
	return doc;
}

/** The form's fields, in the catalogue's parameter order within each section. */
export function advertFormFields(): AdvertField[] {
	const fields: AdvertField[] = [];
	for (const param of OPERATIONS.AddAdvert.params) {
		const shown = PRESENTATION[param.name];
		if (!shown || param.role) continue;
		const kind = kindOf(param, shown.kind);
		const set = param.valueSet && kind === 'choice' ? VALUE_SETS[param.valueSet as ValueSetName] : undefined;
		fields.push({
			name: param.name,
			label: shown.label,
			hint: usefulHint(param, shown.label),
			kind,
			section: shown.section,
			required: shown.required ?? false,
			placeholder: shown.placeholder,
			choices: set?.values.map((v) => ({ value: v.value, label: v.label })),
			openChoices: set ? !set.closed && !shown.closed : undefined,
		});
	}
	const order = Object.keys(SECTION_TITLES);
	return fields.sort((a, b) => order.indexOf(a.section) - order.indexOf(b.section));
}

/** A job board as the form offers it (from UserFeedsAndQuotaWithDestinations). */
export interface FeedOption {
	feedId: number;
	name: string;
	description?: string;
	/** Always posted (ForceSelected): counted in the description checks and the cost. */
	forced: boolean;
	preselected: boolean;
	minLength: number;
	maxLength?: number;
	/** HTMLSupport: 'Full' counts markup; anything else counts text without tags. */
	htmlSupport?: string;
	quota?: number;
	used?: number;
	cost?: number;
	currency?: string;
	costType?: string;
}

/** The form's answers: parameter name to text (DestinationsAsCSV holds the chosen FeedIDs). */
export type AdvertFormValues = Record<string, string>;

/** The description length a job board counts: tags and entities removed unless it takes full HTML. */
export function descriptionLength(description: string, htmlSupport: string | undefined): number {
	const text =
		htmlSupport === 'Full' ? description : description.replace(/<[^>]*>/g, '').replace(/&[a-z#0-9]+;/gi, ' ');
	return [...text].length;
}

export function chosenFeedIds(values: AdvertFormValues): number[] {
	return (values.DestinationsAsCSV ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter((s) => /^\d+$/.test(s))
		.map(Number);
}

/** The boards the advert will go to: the chosen ones and those always posted. */
export function boardsOf(values: AdvertFormValues, feeds: readonly FeedOption[]): FeedOption[] {
	const chosen = new Set(chosenFeedIds(values));
	return feeds.filter((f) => f.forced || chosen.has(f.feedId));
}

const DECIMAL = /^\d{1,12}(\.\d{1,4})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?Z?$/;

/** A real date and time in yyyy-MM-dd[ HH:mm[:ss]], or undefined. */
export function parseDateTime(text: string): Date | undefined {
	const m = DATE_TIME.exec(text.trim());
	if (!m) return undefined;
	const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1);
	const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
	const same =
		date.getUTCFullYear() === +y &&
		date.getUTCMonth() === +mo - 1 &&
		date.getUTCDate() === +d &&
		date.getUTCHours() === +h &&
		date.getUTCMinutes() === +mi &&
		date.getUTCSeconds() === +s;
	return same ? date : undefined;
}

function webUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/**
 * The problems of the answers, by field name (empty when the advert can be created). `now` is
 * given so that the check of a later post date is testable.
 */
export function validateAdvertForm(
	values: AdvertFormValues,
	fields: readonly AdvertField[],
	feeds: readonly FeedOption[],
	now: Date = new Date(),
): Record<string, string> {
	const problems: Record<string, string> = {};
	const value = (name: string) => (values[name] ?? '').trim();
	for (const field of fields) {
		const text = value(field.name);
		if (text === '') {
			if (field.required) problems[field.name] = `${field.label} is required.`;
			continue;
		}
		switch (field.kind) {
			case 'number':
				if (!DECIMAL.test(text)) {
					problems[field.name] = 'Enter a number without signs or separators, e.g. 28000 or 12.50.';
				}
				break;
			case 'email':
				if (!EMAIL.test(text)) problems[field.name] = 'Enter an email address, e.g. jobs@example.com.';
				break;
			case 'url':
				if (!webUrl(text)) problems[field.name] = 'Enter an http:// or https:// address.';
				break;
			case 'dateTime': {
				const date = parseDateTime(text);
				if (!date) problems[field.name] = 'Enter a real date and time as yyyy-MM-dd HH:mm:ss (UTC).';
				else if (date.getTime() <= now.getTime()) {
					problems[field.name] = 'Give a time in the future, or leave empty to post now.';
				}
				break;
			}
			case 'choice':
				if (field.choices && !field.openChoices && !field.choices.some((c) => c.value === text)) {
					problems[field.name] = `Choose one of ${field.choices.map((c) => c.label).join(', ')}.`;
				}
				break;
			default:
				break;
		}
	}
	// The catalogue's rules (formats, closed sets, lengths) as the client and the sandbox apply them;
	// the checks above only phrase the common mistakes for a form.
	for (const field of fields) {
		const text = value(field.name);
		if (text === '' || problems[field.name]) continue;
		const param = OPERATIONS.AddAdvert.params.find((p) => p.name === field.name);
		const issue = param ? checkValue(param, text) : undefined;
		if (issue) problems[field.name] = issue.message;
	}
	const from = value('sSalaryFrom');
	const to = value('sSalaryTo');
	if (!problems.sSalaryFrom && !problems.sSalaryTo && from && to && Number(from) > Number(to)) {
		problems.sSalaryTo = `“To” (${to}) is below “From” (${from}).`;
	}
	const currency = value('sSalaryCurrency');
	if (currency && !/^[A-Za-z]{3}$/.test(currency)) {
		problems.sSalaryCurrency = 'Use a 3-letter ISO 4217 code such as GBP, EUR or USD.';
	}
	const search = value('sSearchDays');
	if (search && !/^(-1|\d{1,5})$/.test(search)) problems.sSearchDays = 'Enter a number of days, or -1 for all time.';
	const description = values.sJobDescription ?? '';
	if (!problems.sJobDescription && description.trim() !== '') {
		const lengthProblems = descriptionProblems(description, boardsOf(values, feeds));
		if (lengthProblems.length > 0) problems.sJobDescription = lengthProblems.join(' ');
	}
	const known = new Set(feeds.map((f) => f.feedId));
	const unknown = chosenFeedIds(values).filter((id) => !known.has(id));
	if (unknown.length > 0) problems.DestinationsAsCSV = `Job board ${unknown.join(', ')} is not available to you.`;
	return problems;
}

/** The length problems of a description on each board it goes to. */
export function descriptionProblems(description: string, boards: readonly FeedOption[]): string[] {
	const problems: string[] = [];
	for (const board of boards) {
		const length = descriptionLength(description, board.htmlSupport);
		if (length < board.minLength) {
			problems.push(`Too short for ${board.name}: at least ${board.minLength} characters (now ${length}).`);
		}
		if (board.maxLength && length > board.maxLength) {
			problems.push(`Too long for ${board.name}: at most ${board.maxLength} characters (now ${length}).`);
		}
	}
	return problems;
}

/** The description's length limits over the boards it goes to: [largest minimum, smallest maximum]. */
export function descriptionLimits(boards: readonly FeedOption[]): { min: number; max?: number } {
	const min = Math.max(0, ...boards.map((b) => b.minLength));
	const maxes = boards.map((b) => b.maxLength).filter((m): m is number => !!m);
	return { min, max: maxes.length > 0 ? Math.min(...maxes) : undefined };
}

export interface CostLine {
	name: string;
	forced: boolean;
	/** "£25.00 per posting", "free", or undefined when the service gives no cost. */
	cost?: string;
	/** "7 of 10 postings left", "no quota left". */
	quota?: string;
	exhausted: boolean;
}

export interface CostPreview {
	lines: CostLine[];
	/** Total of the per-posting costs by currency, e.g. "£40.00"; empty when nothing costs. */
	total: string;
	/** Some boards charge per week: their cost is not in the total. */
	weekly: boolean;
}

/** An amount in its currency ("£25.00"), or the amount and code when the currency is unknown. */
export function formatMoney(amount: number, currency: string | undefined): string {
	if (currency && /^[A-Z]{3}$/.test(currency)) {
		try {
			return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
		} catch {
			// An unknown code: fall through.
		}
	}
	return `${amount.toFixed(2)}${currency ? ` ${currency}` : ''}`;
}

/** What posting to the chosen (and forced) boards uses of the quota and costs. */
export function costPreview(values: AdvertFormValues, feeds: readonly FeedOption[]): CostPreview {
	const boards = boardsOf(values, feeds);
	const totals = new Map<string, number>();
	let weekly = false;
	const lines = boards.map((b) => {
		const perWeek = !!b.costType && /week/i.test(b.costType);
		if (b.cost !== undefined && b.cost > 0) {
			if (perWeek) weekly = true;
			else totals.set(b.currency ?? '', (totals.get(b.currency ?? '') ?? 0) + b.cost);
		}
		const left = b.quota === undefined ? undefined : Math.max(b.quota - (b.used ?? 0), 0);
		return {
			name: b.name,
			forced: b.forced,
			cost:
				b.cost === undefined
					? undefined
					: b.cost === 0
						? 'free'
						: `${formatMoney(b.cost, b.currency)} ${perWeek ? 'per week' : 'per posting'}`,
			quota:
				left === undefined ? undefined : left === 0 ? 'no quota left' : `${left} of ${b.quota} postings left`,
			exhausted: left === 0,
		};
	});
	const total = [...totals].map(([currency, amount]) => formatMoney(amount, currency || undefined)).join(' + ');
	return { lines, total, weekly };
}

/**
 * The field a service message is about: AddAdvert's faults name the parameter ("sSalaryFrom must
 * be numeric…", "DestinationsAsCSV: feed 7 is not configured…"). Undefined when none is named.
 */
export function fieldOfMessage(message: string, fields: readonly AdvertField[]): string | undefined {
	let best: { name: string; at: number } | undefined;
	for (const field of fields) {
		const at = message.search(new RegExp(`\\b${field.name}\\b`));
		if (at >= 0 && (!best || at < best.at)) best = { name: field.name, at };
	}
	return best?.name;
}

/**
 * A service message in the form's own words: `sOnDuplicate=update` becomes “When the identifier
 * exists: Update the existing advert”, another value of that field named next to it (“or duplicate”)
 * its choice's label, and a bare parameter name its field's label.
 */
export function inFormWords(message: string, fields: readonly AdvertField[]): string {
	let text = message;
	for (const field of fields) {
		const choice = (value: string) => field.choices?.find((c) => c.value.toLowerCase() === value.toLowerCase());
		text = text.replace(new RegExp(`\\b${field.name}=([\\w.-]+)`, 'g'), (whole, value: string) => {
			const found = choice(value);
			if (!found) return whole;
			return `“${field.label}: ${found.label}”`;
		});
		if (field.choices && text.includes(`“${field.label}: `)) {
			text = text.replace(/\b(or|and) ([\w-]+)\b/g, (whole, joint: string, value: string) => {
				const found = choice(value);
				return found ? `${joint} “${found.label}”` : whole;
			});
		}
		text = text.replace(new RegExp(`\\b${field.name}\\b`, 'g'), `“${field.label}”`);
	}
	return text;
}

/** Messages from the host to the Create Advert webview. */
export type HostToAdvertFormMessage =
	| {
			type: 'init';
			fields: AdvertField[];
			feeds: FeedOption[];
			/** Why the boards could not be read, if they could not. */
			feedsProblem?: string;
			values: AdvertFormValues;
	  }
	| { type: 'busy'; busy: boolean; label?: string }
	/** The service refused: its message, next to the field it names when it names one. */
	| { type: 'refused'; message: string; field?: string }
	| { type: 'created'; advertId?: number; title: string; redirectUrl?: string };

/** Messages from the Create Advert webview to the host. */
export type AdvertFormToHostMessage =
	| { type: 'ready' }
	| { type: 'keepOpen' }
	| { type: 'submit'; values: AdvertFormValues }
	/** The answers as typed, kept by the host while the form is open. */
	| { type: 'draft'; values: AdvertFormValues }
	| { type: 'openCompletion' }
	| { type: 'copyCompletion' }
	| { type: 'showAdvert' }
	| { type: 'startOver' };

const MAX_VALUE = 100_000;

function isValues(value: unknown): value is AdvertFormValues {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const entries = Object.entries(value as Record<string, unknown>);
	return (
		entries.length <= 64 &&
		entries.every(([k, v]) => /^[A-Za-z]{1,40}$/.test(k) && typeof v === 'string' && v.length <= MAX_VALUE)
	);
}

/** True for a well-formed message of the form's webview; anything else must be ignored. */
export function isAdvertFormToHostMessage(value: unknown): value is AdvertFormToHostMessage {
	if (typeof value !== 'object' || value === null) return false;
	const message = value as { type?: unknown; values?: unknown };
	switch (message.type) {
		case 'ready':
		case 'keepOpen':
		case 'openCompletion':
		case 'copyCompletion':
		case 'showAdvert':
		case 'startOver':
			return true;
		case 'submit':
		case 'draft':
			return isValues(message.values);
		default:
			return false;
	}
}
