/** The target of an application action (score, progress, note), checked against the key and the user. */
import { FaultError } from '../../protocol/faults';
import type { Store } from '../store/store';
import type { UserRow } from '../store/types';
import { userSeesAdvert, type KeyScope } from './access';
import type { ParamReader } from './paramReader';

/**
 * The advert and application named by sAdvertID and sAdvertCandidateID, which the user must see, and
 * who the action is recorded as (the advert's owner when acting as job owner).
 */
export function applicationTarget(
	store: Store,
	params: ParamReader<'sAdvertID' | 'sAdvertCandidateID'>,
	key: KeyScope,
	user: UserRow,
	asJobOwner: boolean,
) {
	const advertId = params.requiredId('sAdvertID');
	const applicationId = params.requiredId('sAdvertCandidateID');
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
	// Acting as the job owner changes who the action is recorded as, never who may act.
	if (!userSeesAdvert(store, user, advert)) {
		throw FaultError.client(
			'AccessDenied',
			`User '${user.username}' cannot see advert ${advertId}. Log in as its owner or an administrator above it.`,
		);
	}
	return { advert, application, actorId: asJobOwner ? advert.userId : user.id };
}
