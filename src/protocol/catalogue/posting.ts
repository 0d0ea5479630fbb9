/** The 16 operations of the posting endpoint, in the spec's order, parameters in the spec's order. */
import * as p from './params';
import type { OperationDeclaration } from './transportNames';

const advertSearch = [...p.searchScope, p.sAdvertIdentifier, p.sAdvertReference, p.sAdvertID, p.sSearchDays] as const;
const advertFilters = [p.sAdvertStatusIDs, p.sHideFutureJobs, p.sLastScoreDate, p.sLastProgressDate] as const;
const paging = [p.CurrentPage, p.RowsPerPage, p.OrderBy] as const;
const applicationAction = [...p.login, p.sAdvertID, p.sAdvertCandidateID] as const;

export const POSTING_OPERATIONS = {
	UserFeedsAndQuotaWithDestinations: {
		endpoint: 'posting',
		doc: 'Feeds and quota configured for a user.',
		params: [...p.login, p.Destinations],
		result: { kind: 'list', record: 'CPostFeed' },
	},
	GetAdvertWithValuesPaged: {
		endpoint: 'posting',
		doc: 'Paged search of adverts with their extra field values.',
		params: [...advertSearch, p.FieldIDsAsCSV, p.DestinationsAsCSV, ...advertFilters, ...paging],
		result: { kind: 'record', record: 'AdvertWithValuesPaged' },
		rules: [
			{
				kind: 'required',
				params: ['CurrentPage', 'RowsPerPage'],
				message: 'CurrentPage and RowsPerPage must be supplied.',
			},
		],
	},
	GetAdvertWithValues: {
		endpoint: 'posting',
		doc: 'Search of adverts with their extra field values (unpaged).',
		params: [...advertSearch, p.FieldIDsAsCSV, p.DestinationsAsCSV, ...advertFilters],
		result: { kind: 'list', record: 'APIAdvertWithValues' },
	},
	GetAdvertPaged: {
		endpoint: 'posting',
		doc: 'Paged search of adverts (all instances of an advert) with basic information.',
		params: [...advertSearch, ...advertFilters, ...paging],
		result: { kind: 'record', record: 'AdvertPaged' },
		rules: [
			{
				kind: 'required',
				params: ['CurrentPage', 'RowsPerPage'],
				message: 'CurrentPage and RowsPerPage must be supplied.',
			},
		],
	},
	ExpressPostAdvert: {
		endpoint: 'posting',
		changesData: true,
		doc: 'Delivers an advert again, unaltered, to job boards it was posted to before.',
		params: [...advertSearch, p.DestinationsAsCSV],
		result: { kind: 'record', record: 'APIAdvertWithPostings' },
		rules: [
			{
				kind: 'anyOf',
				params: ['sAdvertID', 'sAdvertIdentifier', 'sAdvertReference'],
				subcode: 'MissingParameter',
				message: 'Give sAdvertID, sAdvertIdentifier or sAdvertReference to choose the advert to post again.',
			},
		],
	},
	AddAdvert: {
		endpoint: 'posting',
		changesData: true,
		doc: 'Creates an advert and returns the URL at which the user completes the posting.',
		params: [
			...p.login,
			p.sAdvertIdentifier,
			p.sAdvertReference,
			p.sSearchDays,
			{
				name: 'sOnDuplicate',
				type: 'string',
				valueSet: 'onDuplicate',
				doc: 'What to do when the identifier exists within sSearchDays.',
			},
			{ name: 'sJobTitle', type: 'string', doc: 'Job title.' },
			{ name: 'sJobType', type: 'string', valueSet: 'jobType', doc: 'P, C or T.' },
			{ name: 'sJobHours', type: 'string', valueSet: 'jobHours', doc: 'F or P.' },
			{ name: 'sPrimaryLocation', type: 'string', doc: 'Main location.' },
			{ name: 'sIndustry', type: 'string', doc: 'Industry.' },
			{ name: 'sSalaryFrom', type: 'string', format: 'decimal', doc: 'Lowest salary (numeric).' },
			{ name: 'sSalaryTo', type: 'string', format: 'decimal', doc: 'Highest salary (numeric).' },
			{
				name: 'sSalaryCurrency',
				type: 'string',
				format: 'currency',
				valueSet: 'currency',
				doc: 'ISO 4217 code.',
			},
			{ name: 'sSalaryPer', type: 'string', valueSet: 'salaryPer', doc: 'H, D, W, M or Y.' },
			{ name: 'sSalaryBenefits', type: 'string', doc: 'Benefits.' },
			{ name: 'sContactName', type: 'string', doc: 'Contact name.' },
			{ name: 'sContactEmail', type: 'string', format: 'email', doc: 'Contact email.' },
			{ name: 'sJobDescription', type: 'string', doc: 'Job description (HTML allowed by some feeds).' },
			{ name: 'sApplicationURL', type: 'string', format: 'url', doc: 'Where candidates apply, if not by email.' },
			p.DestinationsAsCSV,
			{
				name: 'sFuturePostDateTimeInUtc',
				type: 'string',
				format: 'dateTime',
				doc: 'Post at this UTC date and time instead of now.',
			},
			p.sRedirectDomain,
			{
				name: 'sAdvertStatusID',
				type: 'string',
				format: 'integer',
				valueSet: 'advertStatus',
				doc: 'Initial AdvertStatusID (default 0).',
			},
			{ name: 'sAdvertID', type: 'string', format: 'id', doc: 'Existing AdvertID to update.' },
			{
				name: 'sApplicationCallbackURL',
				type: 'string',
				format: 'url',
				doc: 'Notified when an application arrives.',
			},
			{
				name: 'sIframe',
				type: 'string',
				format: 'boolean',
				valueSet: 'boolean',
				doc: 'Render the completion page for an iframe.',
			},
		],
		result: { kind: 'record', record: 'AddAdvertResult' },
		rules: [
			{
				kind: 'order',
				first: 'sSalaryFrom',
				second: 'sSalaryTo',
				message: 'sSalaryFrom is higher than sSalaryTo.',
			},
		],
	},
	AdvertTrackingResponseLog: {
		endpoint: 'posting',
		doc: "Delivery response logs of an advert's postings.",
		params: [
			...p.searchScope,
			p.sAdvertID,
			{ name: 'sPostingID', type: 'string', format: 'id', doc: 'Limit to one posting.' },
			p.Destinations,
		],
		result: { kind: 'list', record: 'AdvertTrackingLog' },
		rules: [
			{
				kind: 'required',
				params: ['sAdvertID'],
				message: 'Give the numeric AdvertID whose delivery logs you want.',
			},
		],
	},
	CandidateTagPartner: {
		endpoint: 'posting',
		changesData: true,
		doc: 'Tags a candidate with a partner tag shown in the recruiter interface.',
		params: [
			p.sAPIKey,
			...p.candidateParams,
			{ name: 'PartnerTag', type: 'string', valueSet: 'partnerTag', doc: 'One of the five partner tags.' },
		],
		result: { kind: 'record', record: 'CandidateTagResult' },
		rules: [
			{
				kind: 'required',
				params: ['sCandidateEmail', 'PartnerTag'],
				message: "Give the candidate's email address and one of the five partner tags.",
			},
		],
	},
	CandidateTag: {
		endpoint: 'posting',
		changesData: true,
		doc: 'Tags a candidate with any short phrase.',
		params: [
			p.sAPIKey,
			...p.candidateParams,
			{ name: 'Tag', type: 'string', maxLength: 50, doc: 'A short phrase, e.g. Reviewed.' },
		],
		result: { kind: 'record', record: 'CandidateTagResult' },
		rules: [
			{
				kind: 'required',
				params: ['sCandidateEmail', 'Tag'],
				message: "Give the candidate's email address and a short phrase such as Reviewed.",
			},
		],
	},
	QueryJobTitle: {
		endpoint: 'posting',
		doc: 'Job title suggestions.',
		params: [
			p.sCultureID,
			p.sAPIKey,
			{ name: 'q', type: 'string', doc: 'At least 2 characters.' },
			{ name: 'Industry', type: 'string', doc: 'Limit to an industry.' },
		],
		result: { kind: 'list', record: 'CQueryJobTitle' },
		rules: [{ kind: 'minLength', param: 'q', min: 2, message: 'q must have at least 2 characters.' }],
	},
	GetLoginURL: {
		endpoint: 'posting',
		doc: 'A URL that logs the user into the web interface.',
		params: [
			...p.login,
			p.sRedirectDomain,
			{
				name: 'returnUrl',
				type: 'string',
				format: 'localPath',
				doc: 'Page to land on after login, e.g. /web/adverts.',
			},
		],
		result: { kind: 'record', record: 'GetLoginURLResult' },
	},
	GetCurrency: {
		endpoint: 'posting',
		doc: 'Currency lookup rows.',
		params: [p.sCultureID, p.sAPIKey],
		result: { kind: 'list', record: 'GetValue' },
	},
	ApplicationScore: {
		endpoint: 'posting',
		changesData: true,
		doc: 'Scores an application as the user or as the job owner.',
		params: [
			...applicationAction,
			{ name: 'sScore', type: 'string', valueSet: 'score', doc: 'S, M, U, F or N.' },
			{ name: 'sScoreAsJobOwner', type: 'boolean', default: false, doc: 'Act as the job owner.' },
		],
		result: { kind: 'record', record: 'ApplicationScoreResult' },
		rules: [
			{
				kind: 'required',
				params: ['sAdvertID', 'sAdvertCandidateID', 'sScore'],
				message: 'Give the application (sAdvertID and sAdvertCandidateID) and the score letter.',
			},
		],
	},
	AddAdvertCandidateNote: {
		endpoint: 'posting',
		changesData: true,
		doc: 'Attaches a note to an application.',
		params: [
			...applicationAction,
			{ name: 'sSubject', type: 'string', maxLength: 200, doc: 'Subject.' },
			{ name: 'sBody', type: 'string', maxLength: 10_000, doc: 'Text of the note.' },
		],
		result: { kind: 'record', record: 'AddAdvertCandidateNoteResult' },
		rules: [
			{
				kind: 'required',
				params: ['sAdvertID', 'sAdvertCandidateID', 'sBody'],
				message: 'Give the application (sAdvertID and sAdvertCandidateID) and the text of the note.',
			},
		],
	},
	ApplicationProgress: {
		endpoint: 'posting',
		changesData: true,
		doc: 'Progresses an application on behalf of a recruitment system.',
		params: [
			...applicationAction,
			{ name: 'sProgressID', type: 'string', format: 'integer', valueSet: 'progress', doc: 'ProgressID.' },
			// Not typed in the spec, so a string (rule 7) holding true or false.
			{
				name: 'sProgressAsJobOwner',
				type: 'string',
				format: 'boolean',
				valueSet: 'boolean',
				doc: 'Act as the job owner.',
			},
		],
		result: { kind: 'record', record: 'ApplicationProgressResult' },
		rules: [
			{
				kind: 'required',
				params: ['sAdvertID', 'sAdvertCandidateID', 'sProgressID'],
				message: 'Give the application (sAdvertID and sAdvertCandidateID) and the ProgressID.',
			},
		],
	},
	GetApplicationsPaged: {
		endpoint: 'posting',
		doc: 'Paged search of applications by job, job board or time, with optional documents.',
		params: [
			...p.searchScope,
			p.sAdvertIdentifier,
			p.sAdvertReference,
			p.sAdvertID,
			p.DestinationsAsCSV,
			{
				name: 'sApplicationStartDateTime',
				type: 'string',
				format: 'dateTime',
				doc: 'Applications at or after (UTC).',
			},
			{
				name: 'sApplicationEndDateTime',
				type: 'string',
				format: 'dateTime',
				doc: 'Applications before or at (UTC).',
			},
			{
				name: 'RankingAsCSV',
				type: 'string',
				format: 'csv',
				valueSet: 'ranking',
				doc: 'Rankings, names or numbers.',
			},
			{
				name: 'ProgressIDAsCSV',
				type: 'string',
				format: 'integerCsv',
				valueSet: 'progress',
				doc: 'ProgressIDs.',
			},
			{ name: 'AdvertCandidateIDAsCSV', type: 'string', format: 'integerCsv', doc: 'Exact applications.' },
			{
				name: 'boolIncludeEmailBody',
				type: 'string',
				format: 'boolean',
				valueSet: 'boolean',
				doc: 'Include the email body.',
			},
			{
				name: 'boolIncludeAttachment',
				type: 'string',
				format: 'boolean',
				valueSet: 'boolean',
				doc: 'Include the most appropriate attachment.',
			},
			{
				name: 'boolIncludeParsed',
				type: 'string',
				format: 'boolean',
				valueSet: 'boolean',
				doc: 'Include parsed data (HR-XML).',
			},
			{
				name: 'boolIncludeEmail',
				type: 'string',
				format: 'boolean',
				valueSet: 'boolean',
				doc: 'Include the full email.',
			},
			p.sLastScoreDate,
			p.sLastProgressDate,
			...paging,
		],
		result: { kind: 'record', record: 'ApplicationPaged' },
		rules: [
			{
				kind: 'required',
				params: ['CurrentPage', 'RowsPerPage'],
				message: 'CurrentPage and RowsPerPage must always be supplied.',
			},
			{
				kind: 'order',
				first: 'sApplicationStartDateTime',
				second: 'sApplicationEndDateTime',
				message: 'sApplicationStartDateTime is after sApplicationEndDateTime; give the earlier date first.',
			},
			{
				kind: 'anyOf',
				params: [
					'sAdvertIdentifier',
					'sAdvertReference',
					'sAdvertID',
					'sApplicationStartDateTime',
					'sApplicationEndDateTime',
					'AdvertCandidateIDAsCSV',
				],
				message:
					'At least one search filter must be given: a job (sAdvertIdentifier, sAdvertReference, sAdvertID), an application time period (sApplicationStartDateTime, sApplicationEndDateTime) or AdvertCandidateIDAsCSV.',
			},
		],
	},
} as const satisfies Record<string, OperationDeclaration>;
