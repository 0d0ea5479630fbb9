/** Rows as the Store returns them: camelCase, SQLite integers for booleans (0/1), dates as stored ISO text. */

export interface OrganisationRow {
	id: number;
	identifier: string;
	name: string;
	parentId: number | null;
	parsingEnabled: number;
}

export interface UserRow {
	id: number;
	organisationId: number;
	identifier: string;
	username: string;
	passwordHash: string;
	roleId: number;
	active: number;
	firstName: string;
	lastName: string;
	email: string;
	applicationsEmail: string | null;
	phone: string | null;
	mobile: string | null;
	fax: string | null;
	position: string | null;
	cultureId: string;
	website: string | null;
	address1: string | null;
	address2: string | null;
	address3: string | null;
	state: string | null;
	country: string | null;
	postCode: string | null;
	notificationFlags: number;
}

export interface FeedRow {
	id: number;
	identifier: string;
	name: string;
	shortDescription: string;
	logoUrl: string;
	homePageUrl: string;
	contactName: string | null;
	contactPhone: string | null;
	contactEmail: string | null;
	cultureId: string;
	feedTypeId: number;
	free: number;
	cost: string;
	costTypeId: number;
	htmlSupport: string;
	descriptionMinLength: number;
	descriptionMaxLength: number;
	supportDelete: number;
	supportFix: number;
	uploadTimes: string | null;
	visibility: number;
	liveDate: string;
	specialHandling: number;
}

/** A feed with the quota and credentials that apply to one organisation or user. */
export interface FeedQuotaRow extends FeedRow {
	quotaOrganisationId: number | null;
	quotaUserId: number | null;
	currencyId: string;
	effectiveQuota: string;
	postings: string;
	slots: string;
	spend: string;
	postingsForward: string;
	defaultSelected: number;
	forceSelected: number;
	restricted: number;
	auth1: string | null;
	auth2: string | null;
	auth3: string | null;
	auth4: string | null;
	auth5: string | null;
	authNotes: string | null;
}

export interface AdvertRow {
	id: number;
	userId: number;
	organisationId: number;
	identifier: string | null;
	reference: string | null;
	statusId: number;
	title: string;
	jobType: string | null;
	jobHours: string | null;
	primaryLocation: string | null;
	industry: string | null;
	salaryFrom: string | null;
	salaryTo: string | null;
	salaryCurrency: string | null;
	salaryPer: string | null;
	salaryBenefits: string | null;
	salaryHide: number;
	contactName: string | null;
	contactEmail: string | null;
	jobDescription: string | null;
	applicationUrl: string | null;
	callbackUrl: string | null;
	source: string;
	latitude: string | null;
	longitude: string | null;
	redirectDomain: string | null;
	iframe: number;
	completionToken: string;
	createdAt: string;
	scheduledPostAt: string | null;
	lastPostDate: string | null;
	lastDeliveryDate: string | null;
	lastDeliveryStatusId: number;
}

/** Advert fields a caller can set (AddAdvert); undefined leaves a field unchanged on update. */
export type AdvertFields = Partial<
	Pick<
		AdvertRow,
		| 'identifier'
		| 'reference'
		| 'statusId'
		| 'title'
		| 'jobType'
		| 'jobHours'
		| 'primaryLocation'
		| 'industry'
		| 'salaryFrom'
		| 'salaryTo'
		| 'salaryCurrency'
		| 'salaryPer'
		| 'salaryBenefits'
		| 'contactName'
		| 'contactEmail'
		| 'jobDescription'
		| 'applicationUrl'
		| 'callbackUrl'
		| 'latitude'
		| 'longitude'
		| 'redirectDomain'
		| 'iframe'
		| 'scheduledPostAt'
	>
>;

/** Counters computed from the applications of an advert, so they are always consistent. */
export interface AdvertStats {
	advertId: number;
	applications: number;
	viewed: number;
	suitable: number;
	maybeSuitable: number;
	unsuitable: number;
	interviewConfirmed: number;
	interviewPending: number;
	interviewCannotAttend: number;
	interviewDeclined: number;
	withStatus: number;
	withStatusNew: number;
	lastScoreDate: string | null;
	lastProgressDate: string | null;
}

export interface AdvertValueRow {
	advertId: number;
	feedId: number;
	fieldId: number;
	fieldIdentifier: string;
	value: string;
	valuesJson: string | null;
}

export interface PostingRow {
	id: number;
	advertId: number;
	feedId: number;
	userId: number;
	postedAt: string;
	estimatedExpireAt: string;
	correctedAt: string | null;
	deliveryStatusId: number;
	deliveredAt: string | null;
}

export interface TrackingLogRow {
	id: number;
	postingId: number;
	feedId: number;
	feedName: string;
	deliveredAt: string;
	errorLevel: string;
	response: string;
}

export interface ApplicationRow {
	id: number;
	advertId: number;
	candidateId: number;
	postingId: number | null;
	feedId: number;
	feedName: string;
	appliedAt: string;
	email: string;
	firstName: string;
	lastName: string;
	homePhone: string | null;
	workPhone: string | null;
	mobilePhone: string | null;
	address: string | null;
	viewed: number;
	ranking: number;
	favourite: number;
	archived: number;
	progressId: number;
	progressName: string;
	interviewStatus: string | null;
	processingMessages: string | null;
	advertIdentifier: string | null;
	advertReference: string | null;
	advertTitle: string;
	userId: number;
	organisationId: number;
	organisationName: string;
	parsingEnabled: number;
	lastScoreDate: string | null;
	lastProgressDate: string | null;
	lastNoteDate: string | null;
}

export interface DocumentRow {
	applicationId: number;
	kind: string;
	fileName: string;
	encodingType: string;
	documentSource: string;
	documentFormat: string;
	text: string | null;
	bytes: Uint8Array | null;
}

export interface CandidateRow {
	id: number;
	organisationId: number;
	email: string;
	firstName: string;
	lastName: string;
}

export interface LookupRow {
	fieldId: number;
	value: string;
	description: string;
	sortOrder: number;
}

export interface JobTitleRow {
	title: string;
	industry: string;
	description: string;
	popularity: number;
}

export interface Page<T> {
	total: number;
	rows: T[];
}

/** Which rows of a page: offset and limit. */
export interface PageWindow {
	offset: number;
	limit: number;
}
