/**
 * The 20 operations of the service over the sandbox store. Handlers get parameters already decoded by
 * a binding and return plain records; anything the caller did wrong is a client FaultError.
 */
import { randomBytes } from 'node:crypto';
import type { Advert, AnyParams, APIApplication, APIPosting, OperationName, ResultOf } from '../../protocol/catalogue';
import {
	ADVERT_STATUS,
	DELIVERY_STATUS,
	OPERATIONS,
	PARTNER_TAGS,
	RANKING,
	SCORE_LETTERS,
	VALUE_SETS,
} from '../../protocol/catalogue';
import { renderDateText } from '../../protocol/codecs/scalars';
import { FaultError } from '../../protocol/faults';
import { ADVERT_ORDER_FIELDS, APPLICATION_ORDER_FIELDS, parseOrderBy, type OrderTerm } from '../store/ordering';
import type { AdvertSearch } from '../store/adverts';
import type { Store } from '../store/store';
import { daysBefore, toStoredDate } from '../store/time';
import type { AdvertFields, AdvertRow, AdvertStats, DocumentRow, FeedQuotaRow, UserRow } from '../store/types';
import {
	authenticateKey,
	authenticateUser,
	checkLogin,
	isAdministrator,
	resolveOrganisation,
	resolveUser,
	searchScope,
	userSeesAdvert,
	type KeyScope,
} from './access';
import type { RequestContext } from './context';
import {
	checkRules,
	csv,
	dateTime,
	flag,
	httpUrl,
	id,
	includeFlag,
	integer,
	numericCsv,
	paging,
	requiredId,
	requiredText,
	text,
} from './params';
import {
	advertRecord,
	advertValueRecord,
	applicationRecord,
	feedQuotaRecord,
	postFeedRecord,
	selectedKinds,
	trackingLogRecord,
	userRecord,
} from './records';

export type OperationHandlers = { [O in OperationName]: (params: AnyParams, ctx: RequestContext) => ResultOf<O> };

export interface OperationOptions {
	/** Largest RowsPerPage accepted (default 500). */
	maxPageSize?: number;
	/** Lifetime of GetLoginURL tokens (default 5 minutes). */
	loginUrlTtlMs?: number;
}

export const DEFAULT_MAX_PAGE_SIZE = 500;
export const DEFAULT_LOGIN_URL_TTL_MS = 5 * 60_000;
/** Largest sSearchDays accepted (100 years); -1 means all time. */
export const MAX_SEARCH_DAYS = 36_500;
/** sSearchDays when the caller gives none. */
export const DEFAULT_SEARCH_DAYS = 30;
/** A posting is expected to stay live for this long. */
const POSTING_LIFETIME_DAYS = 28;
/** Interview progress (DEFAULT_PROGRESS): moving there starts a pending interview. */
const INTERVIEW_PROGRESS_ID = 4;
const MAX_TAG_LENGTH = 50;
const MAX_NOTE_SUBJECT_LENGTH = 200;
const MAX_NOTE_BODY_LENGTH = 10_000;
const JOB_TITLE_LIMIT = 25;

/** Cities the location lookup of AddAdvert knows (latitude, longitude). */
export const KNOWN_LOCATIONS: Readonly<Record<string, readonly [string, string]>> = {
	london: ['51.5074', '-0.1278'],
	manchester: ['53.4808', '-2.2426'],
	leeds: ['53.8008', '-1.5491'],
	bristol: ['51.4545', '-2.5879'],
	birmingham: ['52.4862', '-1.8904'],
	glasgow: ['55.8642', '-4.2518'],
	edinburgh: ['55.9533', '-3.1883'],
	liverpool: ['53.4084', '-2.9916'],
	cardiff: ['51.4816', '-3.1791'],
	belfast: ['54.5973', '-5.9301'],
	newcastle: ['54.9783', '-1.6178'],
	sheffield: ['53.3811', '-1.4701'],
	nottingham: ['52.9548', '-1.1581'],
	cambridge: ['52.2053', '0.1218'],
	oxford: ['51.7520', '-1.2577'],
	berlin: ['52.5200', '13.4050'],
	munich: ['48.1351', '11.5820'],
	dublin: ['53.3498', '-6.2603'],
	remote: ['', ''],
};

type Handler<O extends OperationName> = (params: AnyParams, ctx: RequestContext, key: KeyScope) => ResultOf<O>;

export function createOperationHandlers(store: Store, options: OperationOptions = {}): OperationHandlers {
	const maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
	const loginUrlTtlMs = options.loginUrlTtlMs ?? DEFAULT_LOGIN_URL_TTL_MS;

	/** Every operation: API key first, then the catalogue's rules, then the operation itself. */
	const guarded =
		<O extends OperationName>(operation: O, handler: Handler<O>) =>
		(params: AnyParams, ctx: RequestContext): ResultOf<O> => {
			const key = authenticateKey(store, params);
			checkRules(OPERATIONS[operation].rules, params);
			return handler(params, ctx, key);
		};

	const resolveFeeds = (tokens: readonly string[] | undefined, parameter: string): number[] | undefined => {
		if (!tokens) return undefined;
		return tokens.map((token) => {
			const feed = store.feeds.find(token);
			if (!feed) {
				throw FaultError.client(
					'InvalidParameter',
					`${parameter}: '${token}' is not a known FeedID or FeedIdentifier.`,
				);
			}
			return feed.id;
		});
	};

	const adverts = (params: AnyParams, ctx: RequestContext, key: KeyScope): AdvertSearch => {
		const scope = searchScope(store, key, params);
		const advertId = id(params, 'sAdvertID');
		const searchDays = integer(params, 'sSearchDays', { min: -1, max: MAX_SEARCH_DAYS }) ?? DEFAULT_SEARCH_DAYS;
		return {
			organisationIds: scope.organisationIds,
			userId: scope.userId,
			advertId,
			identifier: text(params, 'sAdvertIdentifier'),
			reference: text(params, 'sAdvertReference'),
			// An AdvertID names one advert exactly, so the search window does not apply to it.
			since:
				searchDays === -1 || advertId !== undefined ? undefined : toStoredDate(daysBefore(ctx.now, searchDays)),
			statusIds: numericCsv(params, 'sAdvertStatusIDs') ?? [ADVERT_STATUS.Created, ADVERT_STATUS.ToAuthorise],
			hideScheduledAfter: flag(params, 'sHideFutureJobs') ? toStoredDate(ctx.now) : undefined,
			lastScoreSince: dateTime(params, 'sLastScoreDate'),
			lastProgressSince: dateTime(params, 'sLastProgressDate'),
		};
	};

	const advertOrder = (params: AnyParams): OrderTerm<keyof typeof ADVERT_ORDER_FIELDS>[] =>
		orderTerms(params, ADVERT_ORDER_FIELDS);

	/**
	 * Records made from kept (frozen) advert rows and counters, by row: the store hands out new objects
	 * after any write, so a record is reused only while its row and counters are the current ones.
	 */
	const keptRecords = new WeakMap<AdvertRow, { stats: AdvertStats | undefined; record: Advert }>();
	const advertRecords = (rows: readonly AdvertRow[]): Advert[] => {
		const stats = store.adverts.stats(rows.map((row) => row.id));
		return rows.map((row) => {
			const rowStats = stats.get(row.id);
			const kept = keptRecords.get(row);
			if (kept !== undefined && kept.stats === rowStats) return kept.record;
			const record = advertRecord(row, rowStats);
			if (Object.isFrozen(row)) keptRecords.set(row, { stats: rowStats, record: Object.freeze(record) });
			return record;
		});
	};

	const advertsWithValues = (rows: readonly AdvertRow[], params: AnyParams) => {
		const feedIds = resolveFeeds(csv(params, 'DestinationsAsCSV'), 'DestinationsAsCSV');
		// Values of the advert itself (FeedID 0) stay when filtering by feed.
		const values = store.adverts.values(
			rows.map((row) => row.id),
			csv(params, 'FieldIDsAsCSV'),
			feedIds ? [0, ...feedIds] : undefined,
		);
		return advertRecords(rows).map((advert) => ({
			Advert: advert,
			AdvertValues: values.filter((value) => value.advertId === advert.AdvertID).map(advertValueRecord),
		}));
	};

	/** The advert of an application action, checked against the key and the acting user. */
	const applicationTarget = (params: AnyParams, key: KeyScope, user: UserRow, asJobOwner: boolean) => {
		const advertId = requiredId(params, 'sAdvertID');
		const applicationId = requiredId(params, 'sAdvertCandidateID');
		// One query when the pair is right; the separate lookups only to word the fault.
		const pair = store.applications.ofAdvert(applicationId, advertId);
		const advert = pair ? pair.advert : store.adverts.ownership(advertId);
		if (!advert || !key.organisationIds.includes(advert.organisationId)) {
			throw FaultError.client('NotFound', `sAdvertID ${advertId} is not an advert of your organisation.`);
		}
		const application = pair ? pair.application : store.applications.state(applicationId);
		if (!application || application.advertId !== advertId) {
			throw FaultError.client(
				'NotFound',
				`sAdvertCandidateID ${applicationId} is not an application to sAdvertID ${advertId}. Give the AdvertID the application belongs to.`,
			);
		}
		if (!asJobOwner && !userSeesAdvert(store, user, advert)) {
			throw FaultError.client(
				'AccessDenied',
				`User '${user.username}' cannot see advert ${advertId}. Act as the job owner or log in as its owner or an administrator above it.`,
			);
		}
		return { advert, application, actorId: asJobOwner ? advert.userId : user.id };
	};

	/** The user or organisation an administration operation acts for (login user by default). */
	const adminTarget = (
		params: AnyParams,
		key: KeyScope,
		login: UserRow,
	): { user?: UserRow; organisationId: number } => {
		const organisationValue = text(params, 'sOrganisationIdentifier');
		const userValue = text(params, 'sUserIdentifier');
		const loginScope = store.accounts
			.subtreeIds(login.organisationId)
			.filter((orgId) => key.organisationIds.includes(orgId));
		if (userValue !== undefined) {
			const user = resolveUser(store, loginScope, userValue, 'sUserIdentifier');
			if (user.id !== login.id && !isAdministrator(login)) throw notAdministrator(login);
			return { user, organisationId: user.organisationId };
		}
		if (organisationValue !== undefined) {
			const organisation = resolveOrganisation(store, loginScope, organisationValue, 'sOrganisationIdentifier');
			if (!isAdministrator(login)) throw notAdministrator(login);
			return { organisationId: organisation.id };
		}
		return { user: login, organisationId: login.organisationId };
	};

	const feedQuotasOf = (target: { user?: UserRow; organisationId: number }): FeedQuotaRow[] =>
		target.user ? store.feeds.userQuotas(target.user) : store.feeds.organisationQuotas(target.organisationId);

	const handlers: OperationHandlers = {
		UserFeedsAndQuotaWithDestinations: guarded('UserFeedsAndQuotaWithDestinations', (params, _ctx, key) => {
			const user = authenticateUser(store, key, params);
			const feedIds = resolveFeeds(csv(params, 'Destinations'), 'Destinations');
			const used = store.postings.usedByUser(user.id);
			return store.feeds
				.userQuotas(user)
				.filter((row) => !feedIds || feedIds.includes(row.id))
				.map((row) => postFeedRecord(row, user.id, used.get(row.id) ?? 0));
		}),

		GetAdvertWithValuesPaged: guarded('GetAdvertWithValuesPaged', (params, ctx, key) => {
			const search = adverts(params, ctx, key);
			const page = paging(params, maxPageSize);
			const result = store.adverts.search(search, advertOrder(params), {
				offset: page.offset,
				limit: page.rowsPerPage,
			});
			return Object.assign(pageInfo(result.total, page), {
				AdvertWithValues: advertsWithValues(result.rows, params),
			});
		}),

		GetAdvertWithValues: guarded('GetAdvertWithValues', (params, ctx, key) => {
			const rows = store.adverts.search(adverts(params, ctx, key), []).rows;
			return advertsWithValues(rows, params);
		}),

		GetAdvertPaged: guarded('GetAdvertPaged', (params, ctx, key) => {
			const search = adverts(params, ctx, key);
			const page = paging(params, maxPageSize);
			const result = store.adverts.search(search, advertOrder(params), {
				offset: page.offset,
				limit: page.rowsPerPage,
			});
			return Object.assign(pageInfo(result.total, page), { Adverts: advertRecords(result.rows) });
		}),

		ExpressPostAdvert: guarded('ExpressPostAdvert', (params, ctx, key) => {
			if (
				!['sAdvertID', 'sAdvertIdentifier', 'sAdvertReference'].some((name) => text(params, name) !== undefined)
			) {
				throw FaultError.client(
					'MissingParameter',
					'Give sAdvertID, sAdvertIdentifier or sAdvertReference to choose the advert to post again.',
				);
			}
			const search = {
				...adverts(params, ctx, key),
				statusIds: [ADVERT_STATUS.Created, ADVERT_STATUS.ToAuthorise],
			};
			// Several instances may match; the most recently posted one is posted again.
			const advert = store.adverts.search(search, [], { offset: 0, limit: 1 }).rows[0];
			if (!advert) {
				throw FaultError.client(
					'NotFound',
					'No advert matches the given sAdvertID, sAdvertIdentifier or sAdvertReference within sSearchDays and your scope.',
				);
			}
			const previous = store.postings.postedFeedIds(advert.id);
			if (previous.length === 0) {
				throw FaultError.client(
					'InvalidParameter',
					`Advert ${advert.id} has never been posted, so it cannot be express posted. Complete its posting first.`,
				);
			}
			const requested = resolveFeeds(csv(params, 'DestinationsAsCSV'), 'DestinationsAsCSV');
			const notPosted = (requested ?? []).filter((feedId) => !previous.includes(feedId));
			if (notPosted.length > 0) {
				throw FaultError.client(
					'InvalidParameter',
					`DestinationsAsCSV: advert ${advert.id} was never posted to feed ${notPosted.join(', ')}; express posting only repeats earlier postings (${previous.join(', ')}).`,
				);
			}
			const feedIds = requested ? [...new Set(requested)] : previous;
			const now = toStoredDate(ctx.now);
			const expires = toStoredDate(daysBefore(ctx.now, -POSTING_LIFETIME_DAYS));
			const postings: APIPosting[] = store.transaction(() => {
				const created = feedIds.map((feedId) => {
					const postingId = store.postings.insert({
						advertId: advert.id,
						feedId,
						userId: advert.userId,
						postedAt: now,
						estimatedExpireAt: expires,
						deliveryStatusId: DELIVERY_STATUS.Delivered,
						deliveredAt: now,
					});
					store.postings.addTrackingLog(postingId, now, 'Pending', 'Express post queued for delivery.');
					store.postings.addTrackingLog(
						postingId,
						now,
						'None',
						'Delivered: the job board accepted the advert.',
					);
					return {
						sPostDate: renderDateText(now),
						sEstimatedExpireDate: renderDateText(expires),
						sCorrectDate: renderDateText(now),
					};
				});
				store.adverts.markDelivered(advert.id, now, now, DELIVERY_STATUS.Delivered);
				return created;
			});
			const updated = store.adverts.byId(advert.id) ?? advert;
			return { Advert: advertRecords([updated])[0], Postings: postings };
		}),

		AddAdvert: guarded('AddAdvert', (params, ctx, key) => {
			const user = authenticateUser(store, key, params);
			const fields = advertFields(params);
			const destinations = resolveFeeds(csv(params, 'DestinationsAsCSV'), 'DestinationsAsCSV');
			if (destinations) {
				const available = new Set(store.feeds.userQuotas(user).map((row) => row.id));
				const unavailable = destinations.filter((feedId) => !available.has(feedId));
				if (unavailable.length > 0) {
					throw FaultError.client(
						'InvalidParameter',
						`DestinationsAsCSV: feed ${unavailable.join(', ')} is not configured for user '${user.username}'.`,
					);
				}
			}
			const location = lookupLocation(fields.primaryLocation ?? undefined);
			const identifier = fields.identifier ?? undefined;
			if (location.coordinates) [fields.latitude, fields.longitude] = location.coordinates;
			const onDuplicate = (text(params, 'sOnDuplicate') ?? 'duplicate').toLowerCase();
			if (!VALUE_SETS.onDuplicate.values.some((choice) => choice.value === onDuplicate)) {
				throw FaultError.client(
					'InvalidParameter',
					`sOnDuplicate must be one of duplicate, ignore, update, error; got '${text(params, 'sOnDuplicate')}'.`,
				);
			}
			const userScope = store.accounts.subtreeIds(user.organisationId);
			const result = (advert: AdvertRow) => ({
				AdvertID: advert.id,
				UserID: advert.userId,
				OrganisationID: advert.organisationId,
				RedirectUrl: `${ctx.baseUrl}/complete-posting/${advert.completionToken}`,
				LocationLookupLogs: location.log,
			});
			return store.transaction(() => {
				const existingId = id(params, 'sAdvertID');
				let existing: AdvertRow | undefined;
				if (existingId !== undefined) {
					existing = store.adverts.byId(existingId);
					if (
						!existing ||
						!key.organisationIds.includes(existing.organisationId) ||
						!userSeesAdvert(store, user, existing)
					) {
						throw FaultError.client(
							'NotFound',
							`sAdvertID ${existingId} is not an advert user '${user.username}' can update.`,
						);
					}
				} else if (identifier !== undefined && onDuplicate !== 'duplicate') {
					const searchDays =
						integer(params, 'sSearchDays', { min: -1, max: MAX_SEARCH_DAYS }) ?? DEFAULT_SEARCH_DAYS;
					const since = searchDays === -1 ? undefined : toStoredDate(daysBefore(ctx.now, searchDays));
					const duplicate = store.adverts.withIdentifier(identifier, userScope, since)[0];
					if (duplicate && onDuplicate === 'ignore') return result(duplicate);
					if (duplicate && onDuplicate === 'error') {
						throw FaultError.client(
							'Duplicate',
							`An advert with identifier '${identifier}' already exists (AdvertID ${duplicate.id}). Use sOnDuplicate=update to change it or duplicate to create another instance.`,
						);
					}
					existing = duplicate;
				}
				if (existing) {
					store.adverts.update(existing.id, fields);
					if (destinations) store.adverts.setDestinations(existing.id, destinations);
					return result(store.adverts.byId(existing.id) ?? existing);
				}
				const advertId = store.adverts.insert({
					...fields,
					userId: user.id,
					organisationId: user.organisationId,
					completionToken: randomBytes(18).toString('base64url'),
					createdAt: toStoredDate(ctx.now),
					source: 'API',
				});
				if (destinations) store.adverts.setDestinations(advertId, destinations);
				const created = store.adverts.byId(advertId);
				if (!created) throw FaultError.server('The advert could not be read back after it was created.');
				return result(created);
			});
		}),

		AdvertTrackingResponseLog: guarded('AdvertTrackingResponseLog', (params, _ctx, key) => {
			const scope = searchScope(store, key, params);
			const advertId = requiredId(params, 'sAdvertID');
			const advert = store.adverts.byId(advertId);
			if (
				!advert ||
				!scope.organisationIds.includes(advert.organisationId) ||
				(scope.userId !== undefined && advert.userId !== scope.userId)
			) {
				throw FaultError.client('NotFound', `sAdvertID ${advertId} is not an advert within your scope.`);
			}
			const postingId = id(params, 'sPostingID');
			if (postingId !== undefined && store.postings.byId(postingId)?.advertId !== advertId) {
				throw FaultError.client('NotFound', `sPostingID ${postingId} is not a posting of advert ${advertId}.`);
			}
			const feedIds = resolveFeeds(csv(params, 'Destinations'), 'Destinations');
			return store.postings.trackingLogs(advertId, postingId, feedIds).map(trackingLogRecord);
		}),

		CandidateTagPartner: guarded('CandidateTagPartner', (params, ctx, key) => {
			const raw = requiredText(params, 'PartnerTag', `one of ${PARTNER_TAGS.join(', ')}`);
			const tag = PARTNER_TAGS.find((value) => value.toLowerCase() === raw.toLowerCase());
			if (!tag) {
				throw FaultError.client(
					'InvalidParameter',
					`PartnerTag must be one of ${PARTNER_TAGS.join(', ')}; got '${raw}'.`,
				);
			}
			return tagCandidates(store, key, params, tag, ctx, (candidateId, at) =>
				store.candidates.setPartnerTag(candidateId, tag, at),
			);
		}),

		CandidateTag: guarded('CandidateTag', (params, ctx, key) => {
			const tag = requiredText(params, 'Tag', 'a short phrase such as Reviewed');
			if (tag.length > MAX_TAG_LENGTH) {
				throw FaultError.client(
					'InvalidParameter',
					`Tag must be at most ${MAX_TAG_LENGTH} characters; got ${tag.length}.`,
				);
			}
			return tagCandidates(store, key, params, tag, ctx, (candidateId, at) =>
				store.candidates.addTag(candidateId, tag, at),
			);
		}),

		QueryJobTitle: guarded('QueryJobTitle', (params) => {
			const query = requiredText(params, 'q', 'at least 2 characters');
			const culture = text(params, 'sCultureID') ?? 'en-GB';
			return store.lookups.jobTitles(query, text(params, 'Industry'), JOB_TITLE_LIMIT).map((row) => ({
				CultureID: culture,
				Description: row.description,
				Industry: row.industry,
				JobTitle: row.title,
				Score: row.popularity,
			}));
		}),

		GetLoginURL: guarded('GetLoginURL', (params, ctx, key) => {
			const returnUrl = text(params, 'returnUrl');
			if (returnUrl !== undefined && (!returnUrl.startsWith('/') || returnUrl.startsWith('//'))) {
				throw FaultError.client(
					'InvalidParameter',
					`returnUrl must be a path on the service starting with '/', e.g. /adverts; got '${returnUrl}'.`,
				);
			}
			// ASMX style: a failed login is an answer (LoginSuccess false), not a fault.
			const user = checkLogin(store, params);
			if (!user) return { LoginSuccess: false, LoginMessage: 'The username or password is not valid.' };
			if (!key.organisationIds.includes(user.organisationId)) {
				return {
					UserID: user.id,
					OrganisationID: user.organisationId,
					LoginSuccess: false,
					LoginMessage: 'This user does not belong to the organisation of the API key.',
				};
			}
			const token = randomBytes(24).toString('base64url');
			const expiresAt = new Date(ctx.now.getTime() + loginUrlTtlMs);
			store.transaction(() =>
				store.loginTokens.create(
					token,
					user.id,
					returnUrl ?? null,
					text(params, 'sRedirectDomain') ?? null,
					toStoredDate(expiresAt),
				),
			);
			return {
				UserID: user.id,
				OrganisationID: user.organisationId,
				RedirectUrl: `${ctx.baseUrl}/login/${token}`,
				LoginSuccess: true,
				LoginMessage: `Login URL valid once until ${renderDateText(toStoredDate(expiresAt))} UTC.`,
			};
		}),

		GetCurrency: guarded('GetCurrency', (params, _ctx, key) => lookupRecords(store, 'currency', params, key)),

		ApplicationScore: guarded('ApplicationScore', (params, ctx, key) => {
			const user = authenticateUser(store, key, params);
			const letter = requiredText(params, 'sScore', 'S, M, U, F or N').toUpperCase();
			if (!Object.prototype.hasOwnProperty.call(SCORE_LETTERS, letter)) {
				throw FaultError.client(
					'InvalidParameter',
					`sScore must be S (suitable), M (maybe), U (unsuitable), F (favourite) or N (none); got '${letter}'.`,
				);
			}
			const asJobOwner = flag(params, 'sScoreAsJobOwner');
			// Read and write in one transaction: the score builds on the flags it read.
			store.transaction(() => {
				const { application, actorId } = applicationTarget(params, key, user, asJobOwner);
				let ranking = application.ranking;
				let favourite = application.favourite === 1;
				if (letter === 'F') favourite = true;
				else if (letter === 'N') [ranking, favourite] = [RANKING.Unranked, false];
				else ranking = SCORE_LETTERS[letter as 'S' | 'M' | 'U'];
				store.applications.score(application.id, ranking, favourite, actorId, toStoredDate(ctx.now));
			});
			return { Success: true };
		}),

		AddAdvertCandidateNote: guarded('AddAdvertCandidateNote', (params, ctx, key) => {
			const user = authenticateUser(store, key, params);
			const body = requiredText(params, 'sBody', 'the text of the note');
			const subject = text(params, 'sSubject') ?? '';
			if (subject.length > MAX_NOTE_SUBJECT_LENGTH) {
				throw FaultError.client(
					'InvalidParameter',
					`sSubject must be at most ${MAX_NOTE_SUBJECT_LENGTH} characters.`,
				);
			}
			if (body.length > MAX_NOTE_BODY_LENGTH) {
				throw FaultError.client(
					'InvalidParameter',
					`sBody must be at most ${MAX_NOTE_BODY_LENGTH} characters.`,
				);
			}
			const { application } = applicationTarget(params, key, user, false);
			const noteId = store.transaction(() =>
				store.applications.addNote(application.id, user.id, subject, body, toStoredDate(ctx.now)),
			);
			return { AdvertCandidateNoteID: noteId };
		}),

		ApplicationProgress: guarded('ApplicationProgress', (params, ctx, key) => {
			const user = authenticateUser(store, key, params);
			const progressId = integer(params, 'sProgressID');
			if (progressId === undefined) {
				throw FaultError.client('MissingParameter', 'sProgressID is required: give a numeric ProgressID.');
			}
			const progress = store.applications.progressById(progressId);
			if (!progress) {
				const known = store.applications
					.progressList()
					.map((p) => `${p.id} ${p.name}`)
					.join(', ');
				throw FaultError.client(
					'InvalidParameter',
					`sProgressID ${progressId} is not a progress of this account. Use one of: ${known}.`,
				);
			}
			const asJobOwner = flag(params, 'sProgressAsJobOwner');
			// Read and write in one transaction: the interview status builds on the one read.
			store.transaction(() => {
				const { application, actorId } = applicationTarget(params, key, user, asJobOwner);
				const interview =
					progressId === INTERVIEW_PROGRESS_ID && application.interviewStatus === null
						? 'Pending'
						: application.interviewStatus;
				store.applications.progress(application.id, progressId, interview, actorId, toStoredDate(ctx.now));
			});
			return { Success: true };
		}),

		GetApplicationsPaged: guarded('GetApplicationsPaged', (params, _ctx, key) => {
			const scope = searchScope(store, key, params);
			const page = paging(params, maxPageSize);
			const appliedFrom = dateTime(params, 'sApplicationStartDateTime');
			const appliedTo = dateTime(params, 'sApplicationEndDateTime');
			if (appliedFrom && appliedTo && appliedFrom > appliedTo) {
				throw FaultError.client(
					'InvalidParameter',
					'sApplicationStartDateTime is after sApplicationEndDateTime; give the earlier date first.',
				);
			}
			const progressIds = numericCsv(params, 'ProgressIDAsCSV');
			const knownProgress = new Set(store.applications.progressList().map((p) => p.id));
			const unknownProgress = (progressIds ?? []).filter((pid) => !knownProgress.has(pid));
			if (unknownProgress.length > 0) {
				throw FaultError.client(
					'InvalidParameter',
					`ProgressIDAsCSV: ${unknownProgress.join(', ')} is not a ProgressID of this account.`,
				);
			}
			const result = store.applications.search(
				{
					organisationIds: scope.organisationIds,
					userId: scope.userId,
					advertId: id(params, 'sAdvertID'),
					advertIdentifier: text(params, 'sAdvertIdentifier'),
					advertReference: text(params, 'sAdvertReference'),
					feedIds: resolveFeeds(csv(params, 'DestinationsAsCSV'), 'DestinationsAsCSV'),
					appliedFrom,
					appliedTo,
					rankings: rankings(csv(params, 'RankingAsCSV')),
					progressIds,
					applicationIds: numericCsv(params, 'AdvertCandidateIDAsCSV'),
					lastScoreSince: dateTime(params, 'sLastScoreDate'),
					lastProgressSince: dateTime(params, 'sLastProgressDate'),
				},
				orderTerms(params, APPLICATION_ORDER_FIELDS),
				{ offset: page.offset, limit: page.rowsPerPage },
			);
			const kinds = selectedKinds({
				emailBody: includeFlag(params, 'boolIncludeEmailBody'),
				attachment: includeFlag(params, 'boolIncludeAttachment'),
				parsed: includeFlag(params, 'boolIncludeParsed'),
				email: includeFlag(params, 'boolIncludeEmail'),
			});
			const documents = new Map<number, Map<string, DocumentRow>>();
			for (const doc of store.applications.documents(
				result.rows.map((row) => row.id),
				kinds,
			)) {
				const forApplication = documents.get(doc.applicationId) ?? new Map<string, DocumentRow>();
				forApplication.set(doc.kind, doc);
				documents.set(doc.applicationId, forApplication);
			}
			const applications: APIApplication[] = result.rows.map((row) =>
				applicationRecord(row, documents.get(row.id) ?? new Map()),
			);
			return Object.assign(pageInfo(result.total, page), { Applications: applications });
		}),

		UserList: guarded('UserList', (params, _ctx, key) => {
			const login = authenticateUser(store, key, params);
			const loginScope = store.accounts
				.subtreeIds(login.organisationId)
				.filter((orgId) => key.organisationIds.includes(orgId));
			const userValue = text(params, 'sUserIdentifier');
			if (userValue !== undefined) {
				const user = resolveUser(
					store,
					isAdministrator(login) ? loginScope : [login.organisationId],
					userValue,
					'sUserIdentifier',
				);
				if (user.id !== login.id && !isAdministrator(login)) throw notAdministrator(login);
				return user.active === 1 ? [userRecord(user)] : [];
			}
			if (!isAdministrator(login)) throw notAdministrator(login);
			const start = text(params, 'sStartOrganisation');
			const organisationIds =
				start === undefined
					? loginScope
					: store.accounts.subtreeIds(resolveOrganisation(store, loginScope, start, 'sStartOrganisation').id);
			return store.accounts.activeUsersIn(organisationIds).map(userRecord);
		}),

		FeedQuotaList: guarded('FeedQuotaList', (params, _ctx, key) => {
			const login = authenticateUser(store, key, params);
			const feedIds = resolveFeeds(csv(params, 'DestinationsAsCSV'), 'DestinationsAsCSV');
			return feedQuotasOf(adminTarget(params, key, login))
				.filter((row) => !feedIds || feedIds.includes(row.id))
				.map(feedQuotaRecord);
		}),

		GetWeeksToAdvertise: guarded('GetWeeksToAdvertise', (params, _ctx, key) =>
			lookupRecords(store, 'weeks', params, key),
		),

		FeedList: guarded('FeedList', (params, _ctx, key) => {
			const login = authenticateUser(store, key, params);
			const search = text(params, 'sFeedNameSearch')?.toLowerCase();
			return feedQuotasOf(adminTarget(params, key, login))
				.filter(
					(row) =>
						search === undefined ||
						row.name.toLowerCase().includes(search) ||
						row.identifier.toLowerCase().includes(search),
				)
				.map((row) => ({ FeedID: row.id, FeedIdentifier: row.identifier, FeedName: row.name }));
		}),
	};
	return handlers;
}

function notAdministrator(user: UserRow): FaultError {
	return FaultError.client(
		'AccessDenied',
		`User '${user.username}' is not an administrator (UserRoleID 1); only administrators may act for other users or organisations.`,
	);
}

/**
 * The paging fields of a paged result. Callers add the page's items with Object.assign rather than a
 * spread: in V8 11 properties after a spread in a literal are defined one by one at runtime.
 */
function pageInfo(total: number, page: { page: number; rowsPerPage: number }) {
	return { PageCount: Math.ceil(total / page.rowsPerPage), PageIndex: page.page, TotalItemCount: total };
}

function orderTerms<F extends string>(params: AnyParams, allowed: Readonly<Record<F, string>>): OrderTerm<F>[] {
	const orderBy = text(params, 'OrderBy');
	if (orderBy === undefined) return [];
	const terms = parseOrderBy(orderBy, allowed);
	if (!terms) {
		throw FaultError.client(
			'InvalidParameter',
			`OrderBy '${orderBy}' is not supported. Use "<Field> asc|desc" with a field from: ${Object.keys(allowed).join(', ')}.`,
		);
	}
	return terms;
}

function rankings(items: string[] | undefined): number[] | undefined {
	if (!items) return undefined;
	const byName = new Map(Object.entries(RANKING).map(([name, code]) => [name.toLowerCase(), code]));
	const codes = new Set<number>(Object.values(RANKING));
	return items.map((item) => {
		const code = /^\d+$/.test(item) ? Number(item) : byName.get(item.toLowerCase());
		if (code === undefined || !codes.has(code)) {
			throw FaultError.client(
				'InvalidParameter',
				`RankingAsCSV: '${item}' is not a ranking. Use Unranked (0), Unsuitable (1), MaybeSuitable (2) or Suitable (4).`,
			);
		}
		return code;
	});
}

function closedChoice(params: AnyParams, name: string, allowed: readonly string[]): string | undefined {
	const value = text(params, name);
	if (value === undefined) return undefined;
	const match = allowed.find((choice) => choice.toLowerCase() === value.toLowerCase());
	if (!match) {
		throw FaultError.client('InvalidParameter', `${name} must be one of ${allowed.join(', ')}; got '${value}'.`);
	}
	return match;
}

function decimalText(params: AnyParams, name: string): string | undefined {
	const value = text(params, name);
	if (value !== undefined && !/^\d{1,12}(\.\d{1,4})?$/.test(value)) {
		throw FaultError.client('InvalidParameter', `${name} must be numeric, e.g. 35000 or 12.50; got '${value}'.`);
	}
	return value;
}

/** Validates and collects the advert fields of AddAdvert. */
function advertFields(params: AnyParams): AdvertFields {
	const salaryFrom = decimalText(params, 'sSalaryFrom');
	const salaryTo = decimalText(params, 'sSalaryTo');
	if (salaryFrom !== undefined && salaryTo !== undefined && Number(salaryFrom) > Number(salaryTo)) {
		throw FaultError.client(
			'InvalidParameter',
			`sSalaryFrom (${salaryFrom}) is higher than sSalaryTo (${salaryTo}).`,
		);
	}
	const currency = text(params, 'sSalaryCurrency')?.toUpperCase();
	if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) {
		throw FaultError.client(
			'InvalidParameter',
			`sSalaryCurrency must be a 3-letter ISO 4217 code such as GBP, EUR or USD; got '${currency}'.`,
		);
	}
	const contactEmail = text(params, 'sContactEmail');
	if (contactEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contactEmail)) {
		throw FaultError.client('InvalidParameter', `sContactEmail is not an email address: '${contactEmail}'.`);
	}
	const statusId = integer(params, 'sAdvertStatusID');
	const statuses: number[] = Object.values(ADVERT_STATUS);
	if (statusId !== undefined && !statuses.includes(statusId)) {
		throw FaultError.client(
			'InvalidParameter',
			`sAdvertStatusID must be one of ${Object.entries(ADVERT_STATUS)
				.map(([name, code]) => `${code} (${name})`)
				.join(', ')}; got ${statusId}.`,
		);
	}
	const iframe = text(params, 'sIframe') === undefined ? undefined : flag(params, 'sIframe') ? 1 : 0;
	return {
		identifier: text(params, 'sAdvertIdentifier'),
		reference: text(params, 'sAdvertReference'),
		title: text(params, 'sJobTitle'),
		jobType: closedChoice(
			params,
			'sJobType',
			VALUE_SETS.jobType.values.map((choice) => choice.value),
		),
		jobHours: closedChoice(
			params,
			'sJobHours',
			VALUE_SETS.jobHours.values.map((choice) => choice.value),
		),
		salaryPer: closedChoice(
			params,
			'sSalaryPer',
			VALUE_SETS.salaryPer.values.map((choice) => choice.value),
		),
		primaryLocation: text(params, 'sPrimaryLocation'),
		industry: text(params, 'sIndustry'),
		salaryFrom,
		salaryTo,
		salaryCurrency: currency,
		salaryBenefits: text(params, 'sSalaryBenefits'),
		contactName: text(params, 'sContactName'),
		contactEmail,
		jobDescription: text(params, 'sJobDescription'),
		applicationUrl: httpUrl(params, 'sApplicationURL'),
		callbackUrl: httpUrl(params, 'sApplicationCallbackURL'),
		scheduledPostAt: dateTime(params, 'sFuturePostDateTimeInUtc'),
		redirectDomain: text(params, 'sRedirectDomain'),
		statusId,
		iframe,
	};
}

function lookupLocation(location: string | undefined): { coordinates?: [string, string]; log: string } {
	if (location === undefined) return { log: 'No sPrimaryLocation given; no location lookup.' };
	const known = KNOWN_LOCATIONS[location.trim().toLowerCase()];
	if (!known || known[0] === '') {
		return { log: `Location '${location}' was not found; latitude and longitude left empty.` };
	}
	return { coordinates: [known[0], known[1]], log: `Location '${location}' resolved to ${known[0]}, ${known[1]}.` };
}

function lookupRecords(store: Store, list: 'currency' | 'weeks', params: AnyParams, key: KeyScope) {
	const culture = text(params, 'sCultureID') ?? 'en-GB';
	return store.lookups.values(list).map((row) => ({
		CultureID: culture,
		Description: row.description,
		FieldID: row.fieldId,
		OrganisationID: key.organisation.id,
		SortOrder: row.sortOrder,
		Value: row.value,
	}));
}

/**
 * Tags every candidate with the email inside the key's organisations (candidates are per
 * organisation). Success is false, with nothing changed, when no such candidate exists.
 */
function tagCandidates(
	store: Store,
	key: KeyScope,
	params: AnyParams,
	tag: string,
	ctx: RequestContext,
	apply: (candidateId: number, at: string) => void,
) {
	const email = requiredText(params, 'sCandidateEmail', "the candidate's email address");
	const candidates = store.candidates.byEmail(email, key.organisationIds);
	if (candidates.length === 0) {
		return {
			Success: false,
			CandidateEmail: email,
			CandidateFirstName: text(params, 'sCandidateFirstName'),
			CandidateLastName: text(params, 'sCandidateLastName'),
			Tag: tag,
			OrganisationID: [],
		};
	}
	const at = toStoredDate(ctx.now);
	store.transaction(() => candidates.forEach((candidate) => apply(candidate.id, at)));
	const first = candidates[0];
	return {
		Success: true,
		CandidateID: first.id,
		CandidateEmail: first.email,
		CandidateFirstName: first.firstName,
		CandidateLastName: first.lastName,
		Tag: tag,
		OrganisationID: [...new Set(candidates.map((candidate) => candidate.organisationId))],
	};
}
