/** Application operations: the paged search and the actions (score, progress, note). */
import type { APIApplication } from '../../../protocol/catalogue';
import { RANKING, SCORE_LETTERS, type ScoreLetter } from '../../../protocol/catalogue';
import { FaultError } from '../../../protocol/faults';
import { APPLICATION_ORDER_FIELDS } from '../../store/ordering';
import { toStoredDate } from '../../store/time';
import type { DocumentRow } from '../../store/types';
import { authenticateUser, searchScope } from '../access';
import { applicationTarget } from '../applicationTarget';
import { resolveFeeds } from '../feedLookup';
import { orderTerms, pageInfo } from '../paging';
import { pageOf } from '../paramReader';
import { applicationRecord, selectedKinds } from '../records';
import { guarded, type HandlerDeps, type HandlersFor } from './handler';

/** Interview progress (DEFAULT_PROGRESS): moving there starts a pending interview. */
const INTERVIEW_PROGRESS_ID = 4;

export type ApplicationOperation =
	| 'ApplicationScore'
	| 'AddAdvertCandidateNote'
	| 'ApplicationProgress'
	| 'GetApplicationsPaged';

export function applicationHandlers({ store, maxPageSize }: HandlerDeps): HandlersFor<ApplicationOperation> {
	return {
		ApplicationScore: guarded(store, 'ApplicationScore', (params, ctx, key) => {
			const user = authenticateUser(store, key, params, ctx);
			// The catalogue's rules refused any other letter before dispatch; they accept either case.
			const letter = params.requiredText('sScore', 'S, M, U, F or N').toUpperCase() as ScoreLetter;
			const asJobOwner = params.flag('sScoreAsJobOwner');
			// Read and write in one transaction: the score builds on the flags it read.
			store.transaction(() => {
				const { application, actorId } = applicationTarget(store, params, key, user, asJobOwner);
				let ranking = application.ranking;
				let favourite = application.favourite === 1;
				if (letter === 'F') favourite = true;
				else if (letter === 'N') [ranking, favourite] = [RANKING.Unranked, false];
				else ranking = SCORE_LETTERS[letter];
				store.applications.score(application.id, ranking, favourite, actorId, toStoredDate(ctx.now));
			});
			return { Success: true };
		}),

		AddAdvertCandidateNote: guarded(store, 'AddAdvertCandidateNote', (params, ctx, key) => {
			const user = authenticateUser(store, key, params, ctx);
			const body = params.requiredText('sBody', 'the text of the note');
			// Their lengths are the catalogue's rules (maxLength), checked before dispatch.
			const subject = params.text('sSubject') ?? '';
			const { application } = applicationTarget(store, params, key, user, false);
			const noteId = store.transaction(() =>
				store.applications.addNote(application.id, user.id, subject, body, toStoredDate(ctx.now)),
			);
			return { AdvertCandidateNoteID: noteId };
		}),

		ApplicationProgress: guarded(store, 'ApplicationProgress', (params, ctx, key) => {
			const user = authenticateUser(store, key, params, ctx);
			const progressId = params.integer('sProgressID');
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
			const asJobOwner = params.flag('sProgressAsJobOwner');
			// Read and write in one transaction: the interview status builds on the one read.
			store.transaction(() => {
				const { application, actorId } = applicationTarget(store, params, key, user, asJobOwner);
				const interview =
					progressId === INTERVIEW_PROGRESS_ID && application.interviewStatus === null
						? 'Pending'
						: application.interviewStatus;
				store.applications.progress(application.id, progressId, interview, actorId, toStoredDate(ctx.now));
			});
			return { Success: true };
		}),

		GetApplicationsPaged: guarded(store, 'GetApplicationsPaged', (params, _ctx, key) => {
			const scope = searchScope(store, key, params);
			const page = pageOf(params, maxPageSize);
			const appliedFrom = params.dateTime('sApplicationStartDateTime');
			const appliedTo = params.dateTime('sApplicationEndDateTime');
			if (appliedFrom && appliedTo && appliedFrom > appliedTo) {
				throw FaultError.client(
					'InvalidParameter',
					'sApplicationStartDateTime is after sApplicationEndDateTime; give the earlier date first.',
				);
			}
			const progressIds = params.numericCsv('ProgressIDAsCSV');
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
					advertId: params.id('sAdvertID'),
					advertIdentifier: params.text('sAdvertIdentifier'),
					advertReference: params.text('sAdvertReference'),
					feedIds: resolveFeeds(store, params.csv('DestinationsAsCSV'), 'DestinationsAsCSV'),
					appliedFrom,
					appliedTo,
					rankings: rankings(params.csv('RankingAsCSV')),
					progressIds,
					applicationIds: params.numericCsv('AdvertCandidateIDAsCSV'),
					lastScoreSince: params.dateTime('sLastScoreDate'),
					lastProgressSince: params.dateTime('sLastProgressDate'),
				},
				orderTerms(params, APPLICATION_ORDER_FIELDS),
				{ offset: page.offset, limit: page.rowsPerPage },
			);
			const kinds = selectedKinds({
				emailBody: params.includeFlag('boolIncludeEmailBody'),
				attachment: params.includeFlag('boolIncludeAttachment'),
				parsed: params.includeFlag('boolIncludeParsed'),
				email: params.includeFlag('boolIncludeEmail'),
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
	};
}

/** RankingAsCSV: names (any case) or codes of RANKING. */
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
