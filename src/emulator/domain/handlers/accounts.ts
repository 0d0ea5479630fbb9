/** Account operations: the user list of the administration endpoint and the web interface login link. */
import { renderDateText } from '../../../protocol/codecs/scalars';
import { FaultError } from '../../../protocol/faults';
import { toStoredDate } from '../../store/time';
import {
	authenticateUser,
	attemptLogin,
	isAdministrator,
	loginScope,
	notAdministrator,
	resolveOrganisation,
	resolveUser,
} from '../access';
import { userRecord } from '../records';
import { sameOriginPath } from '../returnPath';
import { guarded, type HandlerDeps, type HandlersFor } from './handler';
import { randomToken } from '../tokens';

export type AccountOperation = 'UserList' | 'GetLoginURL';

export function accountHandlers({ store, loginUrlTtlMs }: HandlerDeps): HandlersFor<AccountOperation> {
	return {
		UserList: guarded(store, 'UserList', (params, ctx, key) => {
			const login = authenticateUser(store, key, params, ctx);
			const scope = loginScope(store, key, login);
			const userValue = params.text('sUserIdentifier');
			if (userValue !== undefined) {
				const user = resolveUser(
					store,
					key,
					isAdministrator(login) ? scope : [login.organisationId],
					userValue,
					'sUserIdentifier',
				);
				if (user.id !== login.id && !isAdministrator(login)) throw notAdministrator(login);
				return user.active === 1 ? [userRecord(user)] : [];
			}
			if (!isAdministrator(login)) throw notAdministrator(login);
			const start = params.text('sStartOrganisation');
			const organisationIds =
				start === undefined
					? scope
					: store.accounts.subtreeIds(resolveOrganisation(store, key, scope, start, 'sStartOrganisation').id);
			return store.accounts.activeUsersIn(organisationIds).map(userRecord);
		}),

		GetLoginURL: guarded(store, 'GetLoginURL', (params, ctx, key) => {
			const given = params.text('returnUrl');
			const returnUrl = given === undefined ? undefined : sameOriginPath(given);
			if (given !== undefined && returnUrl === undefined) {
				throw FaultError.client(
					'InvalidParameter',
					`returnUrl must be a path on the service starting with one '/', e.g. /web/adverts; got '${given}'.`,
				);
			}
			// ASMX style: a failed login is an answer (LoginSuccess false), not a fault.
			// A user of another tree gets the answer of an unknown one: no identifiers, no existence oracle.
			const { user, throttled } = attemptLogin(store, key, params, ctx);
			if (!user) {
				return { LoginSuccess: false, LoginMessage: throttled ?? 'The username or password is not valid.' };
			}
			const token = randomToken(24);
			const expiresAt = new Date(ctx.now.getTime() + loginUrlTtlMs);
			store.transaction(() =>
				store.loginTokens.create(
					token,
					user.id,
					returnUrl ?? null,
					params.text('sRedirectDomain') ?? null,
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
	};
}
