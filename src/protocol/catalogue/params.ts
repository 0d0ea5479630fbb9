/** Parameter descriptions shared by many operations (spec "Shared parameters"). */
import type { ParamSpec } from './types';

export const sCultureID = {
	name: 'sCultureID',
	type: 'string',
	role: 'culture',
	valueSet: 'culture',
	doc: 'Culture identifier, e.g. en-GB.',
} as const satisfies ParamSpec;
export const sAPIKey = {
	name: 'sAPIKey',
	type: 'string',
	role: 'apiKey',
	doc: 'API key of the organisation.',
} as const satisfies ParamSpec;
/** sUsername of operations that authenticate a user (with sPassword). */
export const sUsernameLogin = {
	name: 'sUsername',
	type: 'string',
	role: 'username',
	doc: 'Login name.',
} as const satisfies ParamSpec;
export const sPassword = {
	name: 'sPassword',
	type: 'string',
	role: 'password',
	doc: 'Password of sUsername.',
} as const satisfies ParamSpec;
/** sUsername of search operations: an optional filter, no password (spec Authentication rule 4). */
export const sUsernameFilter = {
	name: 'sUsername',
	type: 'string',
	doc: 'Limits the search to this user.',
} as const satisfies ParamSpec;
export const sUserIdentifier = {
	name: 'sUserIdentifier',
	type: 'string',
	format: 'idOrIdentifier',
	doc: 'A user: numeric UserID or string UserIdentifier.',
} as const satisfies ParamSpec;
export const sStartOrganisation = {
	name: 'sStartOrganisation',
	type: 'string',
	format: 'idOrIdentifier',
	doc: 'Limits the search to the organisation tree below this organisation (numeric id or identifier).',
} as const satisfies ParamSpec;
export const sOrganisationIdentifier = {
	name: 'sOrganisationIdentifier',
	type: 'string',
	format: 'idOrIdentifier',
	doc: 'An organisation: numeric id or string identifier.',
} as const satisfies ParamSpec;
export const sAdvertIdentifier = {
	name: 'sAdvertIdentifier',
	type: 'string',
	doc: 'Identifier of the advert (several instances may share it).',
} as const satisfies ParamSpec;
export const sAdvertReference = {
	name: 'sAdvertReference',
	type: 'string',
	doc: 'Reference of the advert.',
} as const satisfies ParamSpec;
export const sAdvertID = {
	name: 'sAdvertID',
	type: 'string',
	format: 'id',
	doc: 'AdvertID.',
} as const satisfies ParamSpec;
export const sSearchDays = {
	name: 'sSearchDays',
	type: 'string',
	format: 'integer',
	range: { min: -1, max: 36_500 },
	valueSet: 'searchDays',
	doc: 'Search window in days; -1 for all time (default 30).',
} as const satisfies ParamSpec;
export const FieldIDsAsCSV = {
	name: 'FieldIDsAsCSV',
	type: 'string',
	format: 'csv',
	doc: 'Field identifiers filtering the extra values returned.',
} as const satisfies ParamSpec;
export const DestinationsAsCSV = {
	name: 'DestinationsAsCSV',
	type: 'string',
	format: 'csv',
	doc: 'Feeds: numeric FeedIDs or FeedIdentifiers, comma-separated.',
} as const satisfies ParamSpec;
export const Destinations = {
	name: 'Destinations',
	type: 'string[]',
	itemElement: 'string',
	doc: 'Feeds: numeric FeedIDs or FeedIdentifiers.',
} as const satisfies ParamSpec;
export const sAdvertStatusIDs = {
	name: 'sAdvertStatusIDs',
	type: 'string',
	format: 'integerCsv',
	valueSet: 'advertStatus',
	doc: 'Advert status ids, comma-separated.',
} as const satisfies ParamSpec;
export const sHideFutureJobs = {
	name: 'sHideFutureJobs',
	type: 'string',
	format: 'boolean',
	valueSet: 'boolean',
	doc: 'Hide adverts set to post in the future.',
} as const satisfies ParamSpec;
export const sLastScoreDate = {
	name: 'sLastScoreDate',
	type: 'string',
	format: 'dateTime',
	doc: 'Only items scored at or after this UTC date and time.',
} as const satisfies ParamSpec;
export const sLastProgressDate = {
	name: 'sLastProgressDate',
	type: 'string',
	format: 'dateTime',
	doc: 'Only items progressed at or after this UTC date and time.',
} as const satisfies ParamSpec;
export const CurrentPage = {
	name: 'CurrentPage',
	type: 'int',
	range: { min: 0 },
	doc: 'Page number (1-based; 0 is read as 1).',
} as const satisfies ParamSpec;
export const RowsPerPage = {
	name: 'RowsPerPage',
	type: 'int',
	pageSize: true,
	doc: 'Page size (1 to the maximum, 500 in the sandbox).',
} as const satisfies ParamSpec;
export const OrderBy = {
	name: 'OrderBy',
	type: 'string',
	doc: 'Sort order, e.g. "ApplicationDate desc".',
} as const satisfies ParamSpec;
export const sAdvertCandidateID = {
	name: 'sAdvertCandidateID',
	type: 'string',
	format: 'id',
	doc: 'Application identifier (AdvertCandidateID).',
} as const satisfies ParamSpec;
export const sRedirectDomain = {
	name: 'sRedirectDomain',
	type: 'string',
	doc: 'Branded domain for the returned URL (optional).',
} as const satisfies ParamSpec;
export const candidateParams = [
	{ name: 'sCandidateEmail', type: 'string', format: 'email', doc: 'Email address of the candidate.' },
	{ name: 'sCandidateFirstName', type: 'string', doc: 'First name of the candidate.' },
	{ name: 'sCandidateLastName', type: 'string', doc: 'Last name of the candidate.' },
] as const satisfies readonly ParamSpec[];

/** The search scope of the advert and application searches. */
export const searchScope = [sCultureID, sAPIKey, sUsernameFilter, sUserIdentifier, sStartOrganisation] as const;
/** The credentials of operations that authenticate a user. */
export const login = [sCultureID, sAPIKey, sUsernameLogin, sPassword] as const;
