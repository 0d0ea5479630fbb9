/**
 * Every record of the spec ("Resources and their fields"), fields in response order.
 * Where the spec is silent, the choice is noted next to the field and in docs/sandbox.md.
 */
import type { FieldSpec, RecordSpec } from './types';

const str = <N extends string>(name: N) => ({ name, type: 'string' }) as const;
const int = <N extends string>(name: N) => ({ name, type: 'int' }) as const;
const bool = <N extends string>(name: N) => ({ name, type: 'boolean' }) as const;
const dec = <N extends string>(name: N) => ({ name, type: 'decimal' }) as const;
const ubyte = <N extends string>(name: N) => ({ name, type: 'unsignedByte' }) as const;
/**
 * Nullable value types (.NET `int?`, `DateTime?`): minOccurs=1 nillable=true, written as xsi:nil when
 * unknown (known facts "Record schema facts"). Dates that have not happened yet (never delivered,
 * never scored) are nil too.
 */
const date = <N extends string>(name: N) => ({ name, type: 'dateTime', nillable: true }) as const;
const nilInt = <N extends string>(name: N) => ({ name, type: 'int', nillable: true }) as const;
const nilDec = <N extends string>(name: N) => ({ name, type: 'decimal', nillable: true }) as const;
const nilUbyte = <N extends string>(name: N) => ({ name, type: 'unsignedByte', nillable: true }) as const;
/** A dateTime that always has a value (.NET `DateTime`): minOccurs=1, never nil. */
const when = <N extends string>(name: N) => ({ name, type: 'dateTime' }) as const;

const ADVERT_FIELDS = [
	str('SchemaIdentifier'),
	int('AdvertID'),
	int('UserID'),
	int('OrganisationID'),
	// Known facts: LastPostDate is minOccurs=1 and not nillable (the creation date until first posted).
	when('LastPostDate'),
	date('LastDeliveryDate'),
	int('LastDeliveryStatusID'),
	str('AdvertIdentifier'),
	str('AdvertReference'),
	{ name: 'AdvertStatusID', type: 'short' },
	str('AdvertTitle'),
	str('AdvertType'),
	str('AdvertHours'),
	str('PrimaryLocation'),
	str('Industry'),
	str('SalaryFrom'),
	str('SalaryTo'),
	str('SalaryCurrency'),
	str('SalaryPer'),
	str('SalaryBenefits'),
	str('ContactName'),
	str('ContactEmail'),
	int('Applications'),
	int('Viewed'),
	str('Source'),
	str('JobDescription'),
	int('Suitable'),
	int('MaybeSuitable'),
	int('Unsuitable'),
	bool('SalaryHide'),
	// Known facts: unknown coordinates are xsi:nil, never left out and never 0.
	nilDec('latitude'),
	nilDec('longitude'),
	int('InterviewConfirmed'),
	int('InterviewPending'),
	int('InterviewCannotAttend'),
	int('InterviewDeclined'),
	int('WithStatus'),
	int('WithStatusNew'),
	date('LastScoreDate'),
	date('LastProgressDate'),
	str('sLastPostDate'),
	str('sLastDeliveryDate'),
	str('sLastScoreDate'),
	str('sLastProgressDate'),
] as const satisfies readonly FieldSpec[];

const PAGE_FIELDS = [int('PageCount'), int('PageIndex'), int('TotalItemCount')] as const;

const DOCUMENT = { record: 'APIDocument' } as const;

/** All records, keyed by their XML type name. */
export const RECORDS = {
	Advert: {
		doc: 'A job advert (element Advert inside wrappers, APIAdvert inside AdvertPaged).',
		fields: ADVERT_FIELDS,
	},
	APIAdvertValue: {
		doc: 'An extra per-advert or per-feed field value.',
		fields: [
			str('SchemaIdentifier'),
			int('AdvertID'),
			int('FeedID'),
			int('FieldID'),
			str('FieldIdentifier'),
			// Known facts: Values is a list of `string` elements; nil when unused (rule 6).
			{ name: 'Values', type: { scalarList: 'string', item: 'string' }, nillable: true },
			str('Value'),
		],
	},
	APIAdvertWithValues: {
		doc: 'An advert with its extra field values.',
		fields: [
			{ name: 'Advert', type: { record: 'Advert' } },
			{ name: 'AdvertValues', type: { list: 'APIAdvertValue', item: 'APIAdvertValue' } },
		],
	},
	APIPosting: {
		doc: 'One delivery of an advert to a feed, as returned by ExpressPostAdvert.',
		fields: [str('sPostDate'), str('sEstimatedExpireDate'), str('sCorrectDate')],
	},
	APIAdvertWithPostings: {
		doc: 'Result of ExpressPostAdvert: the advert and the postings it was delivered in.',
		fields: [
			{ name: 'Advert', type: { record: 'Advert' } },
			{ name: 'Postings', type: { list: 'APIPosting', item: 'APIPosting' } },
		],
	},
	AdvertPaged: {
		doc: 'A page of adverts.',
		fields: [...PAGE_FIELDS, { name: 'Adverts', type: { list: 'Advert', item: 'APIAdvert' } }],
	},
	AdvertWithValuesPaged: {
		doc: 'A page of adverts with their extra field values.',
		fields: [
			...PAGE_FIELDS,
			{ name: 'AdvertWithValues', type: { list: 'APIAdvertWithValues', item: 'APIAdvertWithValues' } },
		],
	},
	ApplicationPaged: {
		doc: 'A page of applications.',
		fields: [...PAGE_FIELDS, { name: 'Applications', type: { list: 'APIApplication', item: 'APIApplication' } }],
	},
	APIDocument: {
		doc: 'A document of an application (email body, first attachment, parsed data, full email).',
		fields: [
			{ name: 'FileName', type: 'string', attribute: true },
			{ name: 'DocumentType', type: 'string', attribute: true },
			{ name: 'EncodingType', type: 'string', attribute: true },
			{ name: 'DocumentSource', type: 'string', attribute: true },
			{ name: 'DocumentFormat', type: 'string', attribute: true },
			// Known facts: the email body comes as text in Document; the others as bytes.
			str('Document'),
			{ name: 'DocumentBytes', type: 'base64Binary' },
		],
	},
	APIApplication: {
		doc: 'An application (AdvertCandidateID) of a candidate to an advert.',
		fields: [
			str('SchemaIdentifier'),
			int('AdvertCandidateID'),
			int('AdvertID'),
			int('CandidateID'),
			int('PostingID'),
			int('FeedID'),
			str('FeedName'),
			when('ApplicationDate'),
			str('EmailAddress'),
			str('LastName'),
			str('FirstName'),
			str('HomePhone'),
			str('WorkPhone'),
			str('MobilePhone'),
			bool('Viewed'),
			{ name: 'Score', type: 'short' },
			str('Ranking'),
			int('ProgressID'),
			str('Progress'),
			str('AdvertIdentifier'),
			str('AdvertReference'),
			str('AdvertTitle'),
			int('UserID'),
			int('OrganisationID'),
			str('OrganisationName'),
			str('Address'),
			bool('Archived'),
			bool('Favourite'),
			{ name: 'EmailBody', type: DOCUMENT, nillable: true },
			{ name: 'EmailFirstAttachment', type: DOCUMENT, nillable: true },
			{ name: 'Parsed', type: DOCUMENT, nillable: true },
			{ name: 'Email', type: DOCUMENT, nillable: true },
			str('APIProcessingMessages'),
			date('LastScoreDate'),
			date('LastProgressDate'),
			date('LastNoteDate'),
			str('sApplicationDate'),
			str('sLastNoteDate'),
			str('sLastScoreDate'),
			str('sLastProgressDate'),
		],
	},
	CPostFeed: {
		// Known facts: FeedID and the three flags always written; every other value-type field nillable.
		doc: 'A feed (job board) available to a user, with its quota.',
		fields: [
			str('CultureID'),
			str('CurrencyID'),
			nilDec('EffectiveQuota'),
			int('FeedID'),
			str('FeedIdentifier'),
			str('FeedName'),
			str('LogoURL'),
			nilDec('Postings'),
			str('ShortDescription'),
			nilDec('Slots'),
			nilDec('Spend'),
			nilInt('UserID'),
			ubyte('DefaultSelected'),
			ubyte('ForceSelected'),
			ubyte('Restricted'),
			nilDec('FeedCost'),
			nilUbyte('FeedCostTypeID'),
			str('FeedCostType'),
			nilInt('JobDescriptionMinimumLength'),
			nilInt('JobDescriptionMaximumLength'),
			str('HTMLSupport'),
			nilDec('PostingsUsed'),
			nilDec('SpendUsed'),
			str('SpendUsedCurrencyID'),
			nilDec('PostingsForward'),
		],
	},
	CFeedQuotaWithFeedList: {
		doc: 'Feed credentials and quota of an organisation or user.',
		fields: [
			str('Auth1'),
			str('Auth2'),
			str('Auth3'),
			str('Auth4'),
			str('Auth5'),
			str('AuthNotes'),
			str('CultureID'),
			str('FeedName'),
			ubyte('FeedTypeID'),
			ubyte('Free'),
			str('HomePageURL'),
			str('LogoURL'),
			str('ContactName'),
			str('ContactPhone'),
			str('ContactEmail'),
			bool('SupportDelete'),
			bool('SupportFix'),
			str('UploadTimes'),
			str('UploadTimesCache'),
			int('Visibility'),
			date('LiveDate'),
			str('ShortDescription'),
			bool('SpecialHandlingRequired'),
			// The operation description also names FeedIdentifier and FeedCost; appended so both readings work.
			str('FeedIdentifier'),
			dec('FeedCost'),
		],
	},
	CFeed: {
		// The spec shows CFeed items as empty elements. These three fields are this project's choice
		// (docs/sandbox.md "Where the spec is silent"); clients built for empty items ignore them.
		doc: 'A feed configured for an organisation or user (FeedList).',
		fields: [int('FeedID'), str('FeedIdentifier'), str('FeedName')],
	},
	CUser: {
		doc: 'A user of the service.',
		fields: [
			int('UserID'),
			int('OrganisationID'),
			str('UserIdentifier'),
			str('FirstName'),
			str('LastName'),
			str('Phone'),
			str('Email'),
			str('ApplicationsEmail'),
			str('Fax'),
			str('Username'),
			str('Password'),
			int('UserRoleID'),
			str('UserCultureID'),
			str('WebSite'),
			str('UserAddress1'),
			str('UserAddress2'),
			str('UserAddress3'),
			str('UserState'),
			str('UserCountry'),
			str('UserPostCode'),
			str('UserWebSite'),
			str('Mobile'),
			str('Position'),
			bool('BBDCopySentMessages'),
			bool('BBDLiveAdvertEmail'),
			bool('BBDExpiringEmail'),
			bool('BBDExpiredEmail'),
			bool('DailyNewCandidatesEmail'),
			bool('BBDInformCandidatesEmail'),
			bool('BBDRemovedManuallyEmail'),
		],
	},
	AdvertTrackingLog: {
		doc: 'A job board response to one delivery of a posting.',
		fields: [
			int('PostingID'),
			int('FeedID'),
			str('FeedName'),
			date('DeliveryDate'),
			str('ErrorLevel'),
			str('Response'),
		],
	},
	CQueryJobTitle: {
		doc: 'A job title suggestion.',
		fields: [str('CultureID'), str('Description'), str('Industry'), str('JobTitle'), int('Score')],
	},
	GetValue: {
		doc: 'A lookup row (currency, weeks to advertise).',
		fields: [
			str('CultureID'),
			str('Description'),
			int('FieldID'),
			int('OrganisationID'),
			nilInt('SortOrder'),
			str('Value'),
		],
	},
	AddAdvertResult: {
		doc: 'Result of AddAdvert: where the user completes the posting.',
		fields: [int('AdvertID'), int('UserID'), int('OrganisationID'), str('RedirectUrl'), str('LocationLookupLogs')],
	},
	GetLoginURLResult: {
		doc: 'Result of GetLoginURL: a URL that signs the user into the web interface.',
		fields: [int('UserID'), int('OrganisationID'), str('RedirectUrl'), bool('LoginSuccess'), str('LoginMessage')],
	},
	CandidateTagResult: {
		doc: 'Result of CandidateTag and CandidateTagPartner.',
		fields: [
			bool('Success'),
			int('CandidateID'),
			str('CandidateEmail'),
			str('CandidateFirstName'),
			str('CandidateLastName'),
			str('Tag'),
			{ name: 'OrganisationID', type: { scalarList: 'int', item: 'int' } },
		],
	},
	ApplicationScoreResult: { doc: 'Result of ApplicationScore.', fields: [bool('Success')] },
	ApplicationProgressResult: { doc: 'Result of ApplicationProgress.', fields: [bool('Success')] },
	AddAdvertCandidateNoteResult: { doc: 'Result of AddAdvertCandidateNote.', fields: [int('AdvertCandidateNoteID')] },
} as const satisfies Record<string, RecordSpec>;

export type RecordName = keyof typeof RECORDS;
