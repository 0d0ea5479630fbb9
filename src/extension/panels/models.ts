/**
 * Pure view models of the detail panels: turn service records into the formatted groups, counters and
 * logs the webviews render, and resolve command arguments (refs or tree nodes). No VS Code imports.
 */
import type {
	Advert,
	AdvertTrackingLog,
	APIAdvertWithValues,
	APIApplication,
	ValueSetName,
} from '../../protocol/catalogue';
import { ADVERT_STATUS, VALUE_SETS } from '../../protocol/catalogue';
import { isoDateTime, isUnsetDate, parseDateTime } from '../../shared/dates';
import type { UntrustedHtml } from '../../shared/panelMessages';
import type { ActivityEntry } from '../actions/activity';
import { deliveryText } from '../tree/descriptors';
import { deliveryOutcome, RANKING_WORDS, rankingOf } from '../vocabulary';
import { htmlPrefix } from './documents/documents';
import type {
	AdvertView,
	ApplicationView,
	CounterBar,
	DocumentTab,
	FeedValues,
	FieldGroup,
	FieldRow,
	TrackingEntry,
} from '../../shared/panelMessages';
import type { AdvertRef, ApplicationRef } from '../services';

type Scalar = string | number | boolean | undefined;

function format(value: Scalar): string {
	if (value === undefined || value === '') return '';
	if (typeof value === 'boolean') return value ? 'Yes' : 'No';
	return String(value);
}

function rows(pairs: [string, Scalar][]): FieldRow[] {
	return pairs.filter(([, v]) => format(v) !== '').map(([label, v]) => ({ label, value: format(v) }));
}

function group(title: string, pairs: [string, Scalar][]): FieldGroup | undefined {
	const list = rows(pairs);
	return list.length > 0 ? { title, rows: list } : undefined;
}

/**
 * A date row: the dateTime's instant for the webview to show in the user's locale, with the service's
 * own text (the s-prefixed rendering, else the dateTime) as the value; none for an unset date.
 */
function dateRow(label: string, text: string | undefined, raw: string | undefined): FieldRow | undefined {
	if (isUnsetDate(raw) && !text) return undefined;
	const instant = isUnsetDate(raw) ? undefined : parseDateTime(raw!);
	return { label, value: text || raw!, ...(instant ? { iso: isoDateTime(instant) } : {}) };
}

function dateGroup(title: string, dates: [string, string | undefined, string | undefined][]): FieldGroup | undefined {
	const list = dates.map(([label, text, raw]) => dateRow(label, text, raw)).filter((r): r is FieldRow => !!r);
	return list.length > 0 ? { title, rows: list } : undefined;
}

function nameOf<T extends Record<string, number>>(set: T, id: number | undefined): string | undefined {
	if (id === undefined) return undefined;
	const entry = Object.entries(set).find(([, v]) => v === id);
	return entry ? entry[0].replace(/([a-z])([A-Z])/g, '$1 $2') : String(id);
}

/** The label of a value-set code (P → Permanent); the code itself when the set does not know it. */
export function valueLabel(set: ValueSetName, code: string | undefined): string | undefined {
	if (code === undefined || code === '') return undefined;
	return VALUE_SETS[set].values.find((v) => v.value.toLowerCase() === code.toLowerCase())?.label ?? code;
}

function escapeText(text: string): string {
	return text.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
	);
}

/** The job description as HTML for the sanitised frame: HTML as sent, plain text with its line breaks. */
export function descriptionHtml(description: string | undefined): UntrustedHtml {
	const text = description ?? '';
	const html = /<[a-z!/][^>]*>/i.test(text) ? text : escapeText(text).replace(/\r?\n/g, '<br>');
	return htmlPrefix(html);
}

/** The advert panel's view: field groups, counters, per-feed values and the delivery log. */
export function buildAdvertView(
	advert: Advert,
	extra: {
		values?: APIAdvertWithValues[];
		tracking?: AdvertTrackingLog[];
		/** Job boards' names by FeedID (the login's feeds), for the values' headings. */
		feedNames?: ReadonlyMap<number, string>;
		warnings?: string[];
		completionLink?: string;
		loading?: boolean;
	} = {},
): AdvertView {
	const salaryRange = [advert.SalaryFrom, advert.SalaryTo].filter(Boolean).join(' – ');
	const groups = [
		group('Job', [
			['Title', advert.AdvertTitle],
			['Type', valueLabel('jobType', advert.AdvertType)],
			['Hours', valueLabel('jobHours', advert.AdvertHours)],
			['Industry', advert.Industry],
			['Identifier', advert.AdvertIdentifier],
			['Reference', advert.AdvertReference],
			['Advert ID', advert.AdvertID],
			['Source', advert.Source],
			['User ID', advert.UserID],
			['Organisation ID', advert.OrganisationID],
			['Schema', advert.SchemaIdentifier],
		]),
		group('Salary', [
			['Range', salaryRange],
			['Currency', valueLabel('currency', advert.SalaryCurrency)],
			['Per', valueLabel('salaryPer', advert.SalaryPer)],
			['Benefits', advert.SalaryBenefits],
			['Hidden', advert.SalaryHide],
		]),
		group('Location', [
			['Primary location', advert.PrimaryLocation],
			['Latitude', advert.latitude],
			['Longitude', advert.longitude],
		]),
		group('Contact', [
			['Name', advert.ContactName],
			['Email', advert.ContactEmail],
		]),
		dateGroup('Dates', [
			['Last posted', advert.sLastPostDate, advert.LastPostDate],
			['Last delivered', advert.sLastDeliveryDate, advert.LastDeliveryDate],
			['Last scored', advert.sLastScoreDate, advert.LastScoreDate],
			['Last progressed', advert.sLastProgressDate, advert.LastProgressDate],
		]),
		group('Status', [
			['Advert status', nameOf(ADVERT_STATUS, advert.AdvertStatusID)],
			['Posting', deliveryText(advert)],
			['With status', advert.WithStatus],
			['With status “new”', advert.WithStatusNew],
		]),
	].filter((g): g is FieldGroup => g !== undefined);

	const counter = (label: string, value: number | undefined, kind: CounterBar['kind']): CounterBar => ({
		label,
		value: value ?? 0,
		kind,
	});
	const counters: CounterBar[] = [
		counter('Applications', advert.Applications, 'total'),
		counter('Viewed', advert.Viewed, 'viewed'),
		counter('Suitable', advert.Suitable, 'suitable'),
		counter('Maybe', advert.MaybeSuitable, 'maybe'),
		counter('Unsuitable', advert.Unsuitable, 'unsuitable'),
		counter('Interview confirmed', advert.InterviewConfirmed, 'interview'),
		counter('Interview pending', advert.InterviewPending, 'interview'),
		counter('Cannot attend', advert.InterviewCannotAttend, 'interview'),
		counter('Interview declined', advert.InterviewDeclined, 'interview'),
	];

	return {
		advertId: advert.AdvertID ?? 0,
		title: advert.AdvertTitle || `Advert ${advert.AdvertID ?? ''}`,
		subtitle: [advert.PrimaryLocation, advert.AdvertReference, advert.AdvertIdentifier].filter(Boolean).join(' · '),
		groups,
		description: descriptionHtml(advert.JobDescription),
		counters,
		values: feedValues(advert.AdvertID, extra.values ?? [], namesOfFeeds(extra.tracking ?? [], extra.feedNames)),
		tracking: (extra.tracking ?? []).map(trackingEntry),
		warnings: extra.warnings ?? [],
		posting: deliveryText(advert),
		completionLink: !!extra.completionLink,
		loading: extra.loading ?? false,
	};
}

/** Job boards' names: those the delivery log gives, then the login's feeds. */
function namesOfFeeds(
	tracking: readonly AdvertTrackingLog[],
	known: ReadonlyMap<number, string> = new Map(),
): Map<number, string> {
	const names = new Map(known);
	for (const log of tracking) if (log.FeedID !== undefined && log.FeedName) names.set(log.FeedID, log.FeedName);
	return names;
}

/**
 * The extra values of the advert, grouped per feed (FeedID 0 or absent: values of every feed), each
 * headed by its job board's name when known.
 */
export function feedValues(
	advertId: number | undefined,
	records: APIAdvertWithValues[],
	feedNames: ReadonlyMap<number, string> = new Map(),
): FeedValues[] {
	const byFeed = new Map<string, FieldRow[]>();
	for (const record of records) {
		if (advertId !== undefined && record.Advert?.AdvertID !== undefined && record.Advert.AdvertID !== advertId) {
			continue;
		}
		for (const value of record.AdvertValues ?? []) {
			const name = value.FeedID ? feedNames.get(value.FeedID) : undefined;
			const feed = !value.FeedID
				? 'All job boards'
				: name
					? `${name} (${value.FeedID})`
					: `Job board ${value.FeedID}`;
			const text = value.Value ?? (value.Values ?? []).join(', ');
			const list = byFeed.get(feed) ?? [];
			list.push({ label: value.FieldIdentifier || `Field ${value.FieldID ?? '?'}`, value: text });
			byFeed.set(feed, list);
		}
	}
	return [...byFeed].map(([feed, list]) => ({ feed, rows: list }));
}

function trackingEntry(log: AdvertTrackingLog): TrackingEntry {
	const delivered = log.DeliveryDate && !isUnsetDate(log.DeliveryDate) ? parseDateTime(log.DeliveryDate) : undefined;
	return {
		postingId: format(log.PostingID),
		feed: log.FeedName
			? `${log.FeedName}${log.FeedID !== undefined ? ` (${log.FeedID})` : ''}`
			: format(log.FeedID),
		deliveryDate: format(log.DeliveryDate),
		...(delivered ? { deliveryIso: isoDateTime(delivered) } : {}),
		outcome: deliveryOutcome(log.ErrorLevel),
		errorLevel: format(log.ErrorLevel),
		response: format(log.Response),
	};
}

/** The application panel's overview; `activity` is what was done to it in this session. */
export function buildApplicationView(app: APIApplication, activity: readonly ActivityEntry[] = []): ApplicationView {
	const name =
		[app.FirstName, app.LastName].filter(Boolean).join(' ') ||
		app.EmailAddress ||
		`Application ${app.AdvertCandidateID ?? ''}`;
	const badges = rows([
		['Ranking', RANKING_WORDS[rankingOf(app.Score, app.Ranking)]],
		['Favourite', app.Favourite ? 'Yes' : undefined],
		[
			'Progress',
			app.Progress
				? `${app.Progress}${app.ProgressID !== undefined ? ` (${app.ProgressID})` : ''}`
				: app.ProgressID,
		],
		['Viewed', app.Viewed],
	]);
	const groups = [
		group('Candidate', [
			['Name', name],
			['Email', app.EmailAddress],
			['Home phone', app.HomePhone],
			['Work phone', app.WorkPhone],
			['Mobile', app.MobilePhone],
			['Address', app.Address],
			['Candidate ID', app.CandidateID],
		]),
		group('Application', [
			['Application ID', app.AdvertCandidateID],
			['Advert', app.AdvertTitle],
			['Advert ID', app.AdvertID],
			['Advert reference', app.AdvertReference],
			['Advert identifier', app.AdvertIdentifier],
			['Feed', app.FeedName ? `${app.FeedName} (${app.FeedID ?? '?'})` : app.FeedID],
			['Posting ID', app.PostingID],
			[
				'Organisation',
				app.OrganisationName ? `${app.OrganisationName} (${app.OrganisationID ?? '?'})` : app.OrganisationID,
			],
			['User ID', app.UserID],
			['Archived', app.Archived],
		]),
		dateGroup('Dates', [
			['Applied', app.sApplicationDate, app.ApplicationDate],
			['Last scored', app.sLastScoreDate, app.LastScoreDate],
			['Last progressed', app.sLastProgressDate, app.LastProgressDate],
			['Last note', app.sLastNoteDate, app.LastNoteDate],
		]),
	].filter((g): g is FieldGroup => g !== undefined);
	return {
		advertId: app.AdvertID ?? 0,
		advertCandidateId: app.AdvertCandidateID ?? 0,
		title: name,
		subtitle: [app.AdvertTitle, app.FeedName].filter(Boolean).join(' · '),
		badges,
		groups,
		processingMessages: app.APIProcessingMessages ?? '',
		activity: activity.map((entry) => ({ at: isoDateTime(entry.at), text: entry.text })),
	};
}

function record(value: unknown): Record<string, unknown> | undefined {
	return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

function positiveInt(value: unknown): number | undefined {
	const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
	return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * The advert a command was invoked on: an AdvertRef, a tree node (`.advert`, `.advertId`, or
 * `.data.advert`), or an Advert record. Undefined when none can be found.
 */
export function toAdvertRef(arg: unknown): AdvertRef | undefined {
	const value = record(arg);
	if (!value) return undefined;
	const data = record(value.data);
	const advert = record(value.advert) ?? record(data?.advert) ?? (value.AdvertID !== undefined ? value : undefined);
	const advertId = positiveInt(value.advertId) ?? positiveInt(advert?.AdvertID);
	if (advertId === undefined) return undefined;
	const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
	const ref: AdvertRef = {
		advertId,
		advertIdentifier: text(value.advertIdentifier) ?? text(advert?.AdvertIdentifier),
		advertReference: text(value.advertReference) ?? text(advert?.AdvertReference),
		title: text(value.title) ?? text(advert?.AdvertTitle),
	};
	return Object.fromEntries(Object.entries(ref).filter(([, v]) => v !== undefined)) as unknown as AdvertRef;
}

/** The application a command was invoked on: an ApplicationRef, a tree node (`.application`, `.data.application`) or an APIApplication. */
export function toApplicationRef(arg: unknown): ApplicationRef | undefined {
	const value = record(arg);
	if (!value) return undefined;
	const data = record(value.data);
	const app =
		record(value.application) ??
		record(data?.application) ??
		(value.AdvertCandidateID !== undefined ? value : undefined);
	const advertCandidateId = positiveInt(value.advertCandidateId) ?? positiveInt(app?.AdvertCandidateID);
	const advertId = positiveInt(value.advertId) ?? positiveInt(app?.AdvertID);
	if (advertCandidateId === undefined || advertId === undefined) return undefined;
	const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
	const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
	const ref: ApplicationRef = {
		advertId,
		advertCandidateId,
		candidateEmail: text(value.candidateEmail) ?? text(app?.EmailAddress),
		firstName: text(value.firstName) ?? text(app?.FirstName),
		lastName: text(value.lastName) ?? text(app?.LastName),
		score: number(value.score) ?? number(app?.Score),
		favourite:
			typeof value.favourite === 'boolean'
				? value.favourite
				: typeof app?.Favourite === 'boolean'
					? app.Favourite
					: undefined,
		progressId: number(value.progressId) ?? number(app?.ProgressID),
	};
	// Only what is known: an absent field must not hide one that another source gave.
	return Object.fromEntries(Object.entries(ref).filter(([, v]) => v !== undefined)) as unknown as ApplicationRef;
}

/** The boolInclude* flag that fetches each document tab. */
export const INCLUDE_FLAG = {
	emailBody: 'boolIncludeEmailBody',
	attachment: 'boolIncludeAttachment',
	parsed: 'boolIncludeParsed',
	email: 'boolIncludeEmail',
} as const satisfies Record<DocumentTab, string>;

/** The document of a tab inside an application record. */
export function documentOf(app: APIApplication | undefined, tab: DocumentTab): APIApplication['EmailBody'] {
	if (!app) return undefined;
	switch (tab) {
		case 'emailBody':
			return app.EmailBody;
		case 'attachment':
			return app.EmailFirstAttachment;
		case 'parsed':
			return app.Parsed;
		case 'email':
			return app.Email;
	}
}
