/** Account operations: the user list of the administration endpoint and the web interface login link. */
import { randomBytes } from 'node:crypto';
import { renderDateText } from '../../../protocol/codecs/scalars';
import { FaultError } from '../../../protocol/faults';
import { toStoredDate } from '../../store/time';
import {
	authenticateUser,
	checkLogin,
	isAdministrator,
	loginScope,
	notAdministrator,
	resolveOrganisation,
	resolveUser,
} from '../access';
import { userRecord } from '../records';
import { guarded, type HandlerDeps, type HandlersFor } from './handler';

export type AccountOperation = 'UserList' | 'GetLoginURL';

export function accountHandlers({ store, loginUrlTtlMs }: HandlerDeps): HandlersFor<AccountOperation> {
	return {
		UserList: guarded(store, 'UserList', (params, _ctx, key) => {
			const login = authenticateUser(store, key, params);
			const scope = loginScope(store, key, login);
			const userValue = params.text('sUserIdentifier');
			if (userValue !== undefined) {
				const user = resolveUser(
					store,
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
					: store.accounts.subtreeIds(resolveOrganisation(store, scope, start, 'sStartOrganisation').id);
			return store.accounts.activeUsersIn(organisationIds).map(userRecord);
		}),

		GetLoginURL: guarded(store, 'GetLoginURL', (params, ctx, key) => {
			const returnUrl = params.text('returnUrl');
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
