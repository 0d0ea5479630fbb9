/** Candidate operations: free tags and partner tags, by email within the key's organisations. */
import { PARTNER_TAGS, type CandidateTagResult } from '../../../protocol/catalogue';
import { FaultError } from '../../../protocol/faults';
import type { Store } from '../../store/store';
import { toStoredDate } from '../../store/time';
import type { KeyScope } from '../access';
import type { RequestContext } from '../context';
import type { ParamReader } from '../paramReader';
import { guarded, type HandlerDeps, type HandlersFor } from './handler';

const MAX_TAG_LENGTH = 50;

export type CandidateOperation = 'CandidateTagPartner' | 'CandidateTag';

export function candidateHandlers({ store }: HandlerDeps): HandlersFor<CandidateOperation> {
	return {
		CandidateTagPartner: guarded(store, 'CandidateTagPartner', (params, ctx, key) => {
			// The rules (checked before dispatch) refuse a tag outside the set; any letter case is accepted.
			const raw = params.requiredText('PartnerTag', `one of ${PARTNER_TAGS.join(', ')}`);
			const tag = PARTNER_TAGS.find((value) => value.toLowerCase() === raw.toLowerCase()) ?? raw;
			return tagCandidates(store, key, params, tag, ctx, (candidateId, at) =>
				store.candidates.setPartnerTag(candidateId, tag, at),
			);
		}),

		CandidateTag: guarded(store, 'CandidateTag', (params, ctx, key) => {
			const tag = params.requiredText('Tag', 'a short phrase such as Reviewed');
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
	};
}

/**
 * Tags every candidate with the email inside the key's organisations (candidates are per
 * organisation). Success is false, with nothing changed, when no such candidate exists.
 */
function tagCandidates(
	store: Store,
	key: KeyScope,
	params: ParamReader<'sCandidateEmail' | 'sCandidateFirstName' | 'sCandidateLastName'>,
	tag: string,
	ctx: RequestContext,
	apply: (candidateId: number, at: string) => void,
): CandidateTagResult {
	const email = params.requiredText('sCandidateEmail', "the candidate's email address");
	const candidates = store.candidates.byEmail(email, key.organisationIds);
	if (candidates.length === 0) {
		return {
			Success: false,
			CandidateEmail: email,
			CandidateFirstName: params.text('sCandidateFirstName'),
			CandidateLastName: params.text('sCandidateLastName'),
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
