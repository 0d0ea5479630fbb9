/**
 * Store rows → catalogue records. Absent values (SQL NULL) are omitted, never invented: the record
 * writer then follows the ASMX rule of each field (nullable → xsi:nil, string → left out, plain value
 * type → its default, e.g. the UserID 0 of a failed login).
 */
import type {
	Advert,
	AdvertTrackingLog,
	APIAdvertValue,
	APIApplication,
	APIDocument,
	CFeedQuotaWithFeedList,
	CPostFeed,
	CUser,
} from '../../protocol/catalogue';
import { DOCUMENT_TYPE, RANKING } from '../../protocol/catalogue';
import { renderDateText } from '../../protocol/codecs/scalars';
import type {
	AdvertRow,
	AdvertStats,
	AdvertValueRow,
	ApplicationRow,
	DocumentRow,
	FeedQuotaRow,
	TrackingLogRow,
	UserRow,
} from '../store/types';

/** SchemaIdentifier written on Advert, APIAdvertValue and APIApplication records (meaning not published). */
export const SCHEMA_IDENTIFIER = 'MultipostingSandbox/1';

/** Notification preference bits of CUser, in field order. */
export const NOTIFICATION_FLAGS = [
	'BBDCopySentMessages',
	'BBDLiveAdvertEmail',
	'BBDExpiringEmail',
	'BBDExpiredEmail',
	'DailyNewCandidatesEmail',
	'BBDInformCandidatesEmail',
	'BBDRemovedManuallyEmail',
] as const;

const RANKING_NAMES = new Map<number, string>(Object.entries(RANKING).map(([name, code]) => [code, name]));

/** Ranking flag → name (0 Unranked, 1 Unsuitable, 2 MaybeSuitable, 4 Suitable). */
export function rankingName(code: number): string {
	return RANKING_NAMES.get(code) ?? 'Unranked';
}

function present<T>(value: T | null | undefined): T | undefined {
	return value === null ? undefined : value;
}

function textDate(stored: string | null | undefined): string | undefined {
	return stored ? renderDateText(stored) : undefined;
}

/**
 * The record without its undefined properties, so records carry only present fields. Copied into a
 * new object rather than deleted in place: `delete` turns an object into a slow dictionary, and the
 * encoder then reads every field of every row of a page through it.
 */
function compact<T extends object>(record: T): T {
	const out: Record<string, unknown> = {};
	for (const key in record) {
		const value = record[key];
		if (value !== undefined) out[key] = value;
	}
	return out as T;
}

export function advertRecord(row: AdvertRow, stats: AdvertStats | undefined): Advert {
	const count = (value: number | undefined | null) => value ?? 0;
	return compact<Advert>({
		SchemaIdentifier: SCHEMA_IDENTIFIER,
		AdvertID: row.id,
		UserID: row.userId,
		OrganisationID: row.organisationId,
		// LastPostDate is the date of the last completed posting. It is always written (not nillable):
		// until a posting completes it is left unset, which the encoder writes as .NET's default,
		// 0001-01-01T00:00:00, as ASMX does for a DateTime without a value (docs/sandbox.md). Searches
		// and the default order use the creation date for such an advert (store/adverts.ts).
		LastPostDate: present(row.lastPostDate),
		LastDeliveryDate: present(row.lastDeliveryDate),
		LastDeliveryStatusID: row.lastDeliveryStatusId,
		AdvertIdentifier: present(row.identifier),
		AdvertReference: present(row.reference),
		AdvertStatusID: row.statusId,
		AdvertTitle: row.title,
		AdvertType: present(row.jobType),
		AdvertHours: present(row.jobHours),
		PrimaryLocation: present(row.primaryLocation),
		Industry: present(row.industry),
		SalaryFrom: present(row.salaryFrom),
		SalaryTo: present(row.salaryTo),
		SalaryCurrency: present(row.salaryCurrency),
		SalaryPer: present(row.salaryPer),
		SalaryBenefits: present(row.salaryBenefits),
		ContactName: present(row.contactName),
		ContactEmail: present(row.contactEmail),
		Applications: count(stats?.applications),
		Viewed: count(stats?.viewed),
		Source: row.source,
		JobDescription: present(row.jobDescription),
		Suitable: count(stats?.suitable),
		MaybeSuitable: count(stats?.maybeSuitable),
		Unsuitable: count(stats?.unsuitable),
		SalaryHide: row.salaryHide === 1,
		latitude: present(row.latitude),
		longitude: present(row.longitude),
		InterviewConfirmed: count(stats?.interviewConfirmed),
		InterviewPending: count(stats?.interviewPending),
		InterviewCannotAttend: count(stats?.interviewCannotAttend),
		InterviewDeclined: count(stats?.interviewDeclined),
		WithStatus: count(stats?.withStatus),
		WithStatusNew: count(stats?.withStatusNew),
		LastScoreDate: present(stats?.lastScoreDate),
		LastProgressDate: present(stats?.lastProgressDate),
		sLastPostDate: textDate(row.lastPostDate),
		sLastDeliveryDate: textDate(row.lastDeliveryDate),
		sLastScoreDate: textDate(stats?.lastScoreDate),
		sLastProgressDate: textDate(stats?.lastProgressDate),
	});
}

export function advertValueRecord(row: AdvertValueRow): APIAdvertValue {
	return compact<APIAdvertValue>({
		SchemaIdentifier: SCHEMA_IDENTIFIER,
		AdvertID: row.advertId,
		FeedID: row.feedId,
		FieldID: row.fieldId,
		FieldIdentifier: row.fieldIdentifier,
		Values: row.valuesJson ? (JSON.parse(row.valuesJson) as string[]) : undefined,
		Value: row.value,
	});
}

export function documentRecord(row: DocumentRow): APIDocument {
	return compact<APIDocument>({
		FileName: row.fileName,
		DocumentType: row.kind,
		EncodingType: row.encodingType,
		DocumentSource: row.documentSource,
		DocumentFormat: row.documentFormat,
		Document: present(row.text),
		DocumentBytes: present(row.bytes),
	});
}

/** Which documents an application search includes (boolInclude* flags). */
export interface DocumentSelection {
	emailBody: boolean;
	attachment: boolean;
	parsed: boolean;
	email: boolean;
}

/** The DOCUMENT_TYPE kinds a selection asks for. */
export function selectedKinds(selection: DocumentSelection): string[] {
	const kinds: string[] = [];
	if (selection.emailBody) kinds.push(DOCUMENT_TYPE.EmailBody);
	if (selection.attachment) kinds.push(DOCUMENT_TYPE.Attachment);
	if (selection.parsed) kinds.push(DOCUMENT_TYPE.Parsed);
	if (selection.email) kinds.push(DOCUMENT_TYPE.Email);
	return kinds;
}

export function applicationRecord(row: ApplicationRow, documents: ReadonlyMap<string, DocumentRow>): APIApplication {
	const doc = (kind: string) => {
		const found = documents.get(kind);
		return found ? documentRecord(found) : undefined;
	};
	return compact<APIApplication>({
		SchemaIdentifier: SCHEMA_IDENTIFIER,
		AdvertCandidateID: row.id,
		AdvertID: row.advertId,
		CandidateID: row.candidateId,
		// Not nillable (known facts): an application that came without a posting carries PostingID 0.
		PostingID: row.postingId ?? 0,
		FeedID: row.feedId,
		FeedName: row.feedName,
		ApplicationDate: row.appliedAt,
		EmailAddress: row.email,
		LastName: row.lastName,
		FirstName: row.firstName,
		HomePhone: present(row.homePhone),
		WorkPhone: present(row.workPhone),
		MobilePhone: present(row.mobilePhone),
		Viewed: row.viewed === 1,
		Score: row.ranking,
		Ranking: rankingName(row.ranking),
		ProgressID: row.progressId,
		Progress: row.progressName,
		AdvertIdentifier: present(row.advertIdentifier),
		AdvertReference: present(row.advertReference),
		AdvertTitle: row.advertTitle,
		UserID: row.userId,
		OrganisationID: row.organisationId,
		OrganisationName: row.organisationName,
		Address: present(row.address),
		Archived: row.archived === 1,
		Favourite: row.favourite === 1,
		EmailBody: doc(DOCUMENT_TYPE.EmailBody),
		EmailFirstAttachment: doc(DOCUMENT_TYPE.Attachment),
		Parsed: row.parsingEnabled === 1 ? doc(DOCUMENT_TYPE.Parsed) : undefined,
		Email: doc(DOCUMENT_TYPE.Email),
		APIProcessingMessages: present(row.processingMessages),
		LastScoreDate: present(row.lastScoreDate),
		LastProgressDate: present(row.lastProgressDate),
		LastNoteDate: present(row.lastNoteDate),
		sApplicationDate: textDate(row.appliedAt),
		sLastNoteDate: textDate(row.lastNoteDate),
		sLastScoreDate: textDate(row.lastScoreDate),
		sLastProgressDate: textDate(row.lastProgressDate),
	});
}

function centsOf(decimal: string): number {
	return Math.round(Number(decimal) * 100);
}

function decimalOf(cents: number): string {
	return (cents / 100).toFixed(2);
}

export const FEED_COST_TYPES: Readonly<Record<number, string>> = { 1: 'Posting', 2: 'Week' };

export function postFeedRecord(row: FeedQuotaRow, userId: number, postingsUsed: number): CPostFeed {
	return compact<CPostFeed>({
		CultureID: row.cultureId,
		CurrencyID: row.currencyId,
		EffectiveQuota: row.effectiveQuota,
		FeedID: row.id,
		FeedIdentifier: row.identifier,
		FeedName: row.name,
		LogoURL: row.logoUrl,
		Postings: row.postings,
		ShortDescription: row.shortDescription,
		Slots: row.slots,
		Spend: row.spend,
		UserID: userId,
		DefaultSelected: row.defaultSelected,
		ForceSelected: row.forceSelected,
		Restricted: row.restricted,
		FeedCost: row.cost,
		FeedCostTypeID: row.costTypeId,
		FeedCostType: FEED_COST_TYPES[row.costTypeId],
		JobDescriptionMinimumLength: row.descriptionMinLength,
		JobDescriptionMaximumLength: row.descriptionMaxLength,
		HTMLSupport: row.htmlSupport,
		PostingsUsed: String(postingsUsed),
		SpendUsed: decimalOf(centsOf(row.cost) * postingsUsed),
		SpendUsedCurrencyID: row.currencyId,
		PostingsForward: row.postingsForward,
	});
}

export function feedQuotaRecord(row: FeedQuotaRow): CFeedQuotaWithFeedList {
	return compact<CFeedQuotaWithFeedList>({
		Auth1: present(row.auth1),
		Auth2: present(row.auth2),
		Auth3: present(row.auth3),
		Auth4: present(row.auth4),
		Auth5: present(row.auth5),
		AuthNotes: present(row.authNotes),
		CultureID: row.cultureId,
		FeedName: row.name,
		FeedTypeID: row.feedTypeId,
		Free: row.free,
		HomePageURL: row.homePageUrl,
		LogoURL: row.logoUrl,
		ContactName: present(row.contactName),
		ContactPhone: present(row.contactPhone),
		ContactEmail: present(row.contactEmail),
		SupportDelete: row.supportDelete === 1,
		SupportFix: row.supportFix === 1,
		UploadTimes: present(row.uploadTimes),
		UploadTimesCache: present(row.uploadTimes),
		Visibility: row.visibility,
		LiveDate: row.liveDate,
		ShortDescription: row.shortDescription,
		SpecialHandlingRequired: row.specialHandling === 1,
		FeedIdentifier: row.identifier,
		FeedCost: row.cost,
	});
}

/** A user record. The Password field is never returned: only a hash is stored. */
export function userRecord(row: UserRow): CUser {
	const record: CUser = compact<CUser>({
		UserID: row.id,
		OrganisationID: row.organisationId,
		UserIdentifier: row.identifier,
		FirstName: row.firstName,
		LastName: row.lastName,
		Phone: present(row.phone),
		Email: row.email,
		ApplicationsEmail: present(row.applicationsEmail),
		Fax: present(row.fax),
		Username: row.username,
		UserRoleID: row.roleId,
		UserCultureID: row.cultureId,
		WebSite: present(row.website),
		UserAddress1: present(row.address1),
		UserAddress2: present(row.address2),
		UserAddress3: present(row.address3),
		UserState: present(row.state),
		UserCountry: present(row.country),
		UserPostCode: present(row.postCode),
		UserWebSite: present(row.website),
		Mobile: present(row.mobile),
		Position: present(row.position),
	});
	NOTIFICATION_FLAGS.forEach((name, bit) => {
		record[name] = (row.notificationFlags & (1 << bit)) !== 0;
	});
	return record;
}

export function trackingLogRecord(row: TrackingLogRow): AdvertTrackingLog {
	return {
		PostingID: row.postingId,
		FeedID: row.feedId,
		FeedName: row.feedName,
		DeliveryDate: row.deliveredAt,
		ErrorLevel: row.errorLevel,
		Response: row.response,
	};
}
