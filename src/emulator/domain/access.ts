/**
 * Authentication and scope. The API key gives an organisation subtree; a login (sUsername + sPassword)
 * must be a user inside it; search filters (sUsername / sUserIdentifier / sStartOrganisation) may only
 * narrow that subtree. Nothing outside the resulting scope is read or changed.
 */
import { USER_ROLE } from '../../protocol/catalogue';
import { FaultError } from '../../protocol/faults';
import type { Store } from '../store/store';
import type { OrganisationRow, UserRow } from '../store/types';
import type { ParamReader } from './paramReader';
import { LoginThrottle } from './loginThrottle';
import type { RequestContext } from './context';
import { HashingBudget, type HashingBudgetOptions } from './hashingBudget';
import { hashCost, isKnownGood, verifyPassword } from './passwords';

/** The organisation of a valid API key and the organisations it may see (that organisation and below). */
export interface KeyScope {
	organisation: OrganisationRow;
	organisationIds: readonly number[];
}

/** What a search may see: organisations, and optionally only the adverts of one user. */
export interface SearchScope {
	organisationIds: readonly number[];
	userId?: number;
}

/** Every operation checks the API key first: the fault of a request without one (the verdict says it too). */
export const MISSING_API_KEY = {
	code: 'Client',
	subcode: 'AuthenticationFailed',
	message: 'sAPIKey is missing. Give the API key of your connection.',
} as const;

export function authenticateKey(store: Store, params: ParamReader<'sAPIKey'>): KeyScope {
	const apiKey = params.text('sAPIKey');
	if (apiKey === undefined) throw FaultError.client(MISSING_API_KEY.subcode, MISSING_API_KEY.message);
	const organisation = store.accounts.organisationForApiKey(apiKey);
	if (!organisation) {
		throw FaultError.client('AuthenticationFailed', 'sAPIKey is not valid. Check the API key of your connection.');
	}
	return { organisation, organisationIds: store.accounts.subtreeIds(organisation.id) };
}

/** Failed-login throttles and password-hashing budgets, one each per sandbox (store). */
const throttles = new WeakMap<Store, LoginThrottle>();
const hashingBudgets = new WeakMap<Store, HashingBudget>();

function throttleOf(store: Store): LoginThrottle {
	let throttle = throttles.get(store);
	if (!throttle) {
		// The throttle decides answers: its changes count as changes of the sandbox's state.
		throttle = new LoginThrottle({ onChange: () => store.noteChange() });
		throttles.set(store, throttle);
	}
	return throttle;
}

function hashingBudgetOf(store: Store): HashingBudget {
	let budget = hashingBudgets.get(store);
	if (!budget) {
		budget = new HashingBudget();
		hashingBudgets.set(store, budget);
	}
	return budget;
}

/** Sets the password-hashing budget of a sandbox (else the defaults of hashingBudget.ts apply). */
export function setHashingBudget(store: Store, options: HashingBudgetOptions): void {
	hashingBudgets.set(store, new HashingBudget(options));
}

/** What a login needs to know of its request: the time and the client. */
export type LoginContext = Pick<RequestContext, 'now' | 'client'>;

/** A login: the user when sUsername + sPassword match an active user; else why not, when it is not the usual. */
export interface LoginAttempt {
	user?: UserRow;
	/** Set when the password was not even checked (failed logins of the account, or too much hashing at once). */
	throttled?: string;
}

/**
 * What the failed-login throttle counts by: the account. Usernames match regardless of (ASCII) case, so
 * every spelling of a user's name is that user; an unknown name is counted by its case-folded spelling,
 * exactly as a known one would be, so the throttle tells nothing about which usernames exist.
 */
function accountOf(username: string, found: UserRow | undefined): string {
	return found ? `user:${found.id}` : `name:${username.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())}`;
}

/**
 * Checks sUsername + sPassword as a login of the key's tree. After a few failures in a row for an
 * account, further attempts are refused for a short, growing wait without hashing (loginThrottle.ts),
 * and a password is hashed only within the client's and the sandbox's hashing budget (hashingBudget.ts);
 * a password verified before is accepted at once. Unknown usernames, and users outside the key's tree
 * even with their right password, count as failures alike: neither existence nor a password of another
 * tree can be told from the answers.
 */
export function attemptLogin(
	store: Store,
	key: KeyScope,
	params: ParamReader<'sUsername' | 'sPassword'>,
	ctx: LoginContext,
): LoginAttempt {
	const username = params.text('sUsername');
	const raw = params.value('sPassword');
	const password = typeof raw === 'string' ? raw : undefined;
	if (username === undefined || password === undefined || password === '') return {};
	const found = store.accounts.findUserByUsername(username);
	const user = found && key.organisationIds.includes(found.organisationId) ? found : undefined;
	const account = accountOf(username, found);
	const throttle = throttleOf(store);
	if (user?.active === 1 && isKnownGood(password, user.passwordHash)) {
		throttle.succeeded(account);
		return { user };
	}
	// Read only here: an answer that depends on a wait is kept by the answer cache within its second only.
	const now = ctx.now.getTime();
	const waitMs = throttle.retryAfterMs(account, now);
	if (waitMs > 0) {
		return {
			throttled: `Too many failed logins for this username: try again in ${Math.ceil(waitMs / 1000)} s.`,
		};
	}
	// Verify even for unknown users so timing does not reveal which usernames exist.
	const stored = found?.passwordHash ?? DUMMY_HASH;
	const budgetWaitMs = hashingBudgetOf(store).spend(ctx.client ?? '', hashCost(stored), now);
	if (budgetWaitMs > 0) {
		return {
			throttled: `Too many logins are being checked at once: try again in ${Math.ceil(budgetWaitMs / 1000)} s.`,
		};
	}
	const valid = verifyPassword(password, stored);
	if (user && valid && user.active === 1) {
		throttle.succeeded(account);
		return { user };
	}
	throttle.failed(account, now);
	return {};
}

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** The one answer to a login that is unknown, wrong, inactive or outside the key's subtree: no existence oracle. */
export const LOGIN_FAILED_MESSAGE = 'sUsername or sPassword is not valid. Check the login of your connection.';

/**
 * Authenticates sUsername + sPassword as a user inside the key's subtree. A user of another tree is
 * refused exactly as an unknown one, so a key cannot learn who exists elsewhere.
 */
export function authenticateUser(
	store: Store,
	key: KeyScope,
	params: ParamReader<'sUsername' | 'sPassword'>,
	ctx: LoginContext,
): UserRow {
	if (params.text('sUsername') === undefined) {
		throw FaultError.client('MissingParameter', 'sUsername is required: give the login name.');
	}
	if (params.text('sPassword') === undefined) {
		throw FaultError.client('MissingParameter', 'sPassword is required: give the password of sUsername.');
	}
	const { user, throttled } = attemptLogin(store, key, params, ctx);
	if (!user) {
		throw FaultError.client(
			'AuthenticationFailed',
			throttled ? `sUsername or sPassword is not valid. ${throttled}` : LOGIN_FAILED_MESSAGE,
		);
	}
	return user;
}

export function isAdministrator(user: UserRow): boolean {
	return user.roleId === USER_ROLE.Administrator;
}

/**
 * An organisation by id or identifier that must lie inside `allowed` (a part of the key's subtree).
 * One outside the key's subtree is answered as an unknown one; one inside it but outside `allowed` is AccessDenied.
 */
export function resolveOrganisation(
	store: Store,
	key: KeyScope,
	allowed: readonly number[],
	value: string,
	parameter: string,
): OrganisationRow {
	const organisation = store.accounts.findOrganisation(value);
	if (!organisation || !key.organisationIds.includes(organisation.id)) {
		throw FaultError.client('NotFound', `${parameter} '${value}' is not a known organisation id or identifier.`);
	}
	if (!allowed.includes(organisation.id)) {
		throw FaultError.client('AccessDenied', `${parameter} '${value}' is outside the organisations you may access.`);
	}
	return organisation;
}

/**
 * A user by id, identifier or username whose organisation must lie inside `allowed` (a part of the
 * key's subtree). One outside the key's subtree is answered as an unknown one.
 */
export function resolveUser(
	store: Store,
	key: KeyScope,
	allowed: readonly number[],
	value: string,
	parameter: string,
	byUsername = false,
): UserRow {
	const user = byUsername ? store.accounts.findUserByUsername(value) : store.accounts.findUser(value);
	if (!user || !key.organisationIds.includes(user.organisationId)) {
		throw FaultError.client('NotFound', `${parameter} '${value}' is not a known user.`);
	}
	if (!allowed.includes(user.organisationId)) {
		throw FaultError.client('AccessDenied', `${parameter} '${value}' is outside the organisations you may access.`);
	}
	return user;
}

/**
 * The scope of a search operation: the key's subtree, narrowed by sStartOrganisation and limited to
 * the adverts of sUsername or sUserIdentifier.
 */
export function searchScope(
	store: Store,
	key: KeyScope,
	params: ParamReader<'sStartOrganisation' | 'sUsername' | 'sUserIdentifier'>,
): SearchScope {
	let organisationIds = key.organisationIds;
	const start = params.text('sStartOrganisation');
	if (start !== undefined) {
		organisationIds = store.accounts.subtreeIds(
			resolveOrganisation(store, key, key.organisationIds, start, 'sStartOrganisation').id,
		);
	}
	const username = params.text('sUsername');
	const userIdentifier = params.text('sUserIdentifier');
	let user: UserRow | undefined;
	if (username !== undefined) user = resolveUser(store, key, key.organisationIds, username, 'sUsername', true);
	if (userIdentifier !== undefined) {
		const byIdentifier = resolveUser(store, key, key.organisationIds, userIdentifier, 'sUserIdentifier');
		if (user && user.id !== byIdentifier.id) {
			throw FaultError.client(
				'InvalidParameter',
				'sUsername and sUserIdentifier name different users; give only one of them.',
			);
		}
		user = byIdentifier;
	}
	return { organisationIds, userId: user?.id };
}

/** Whether a user may see an advert: its owner, or an administrator of an organisation above it. */
export function userSeesAdvert(
	store: Store,
	user: UserRow,
	advert: { userId: number; organisationId: number },
): boolean {
	if (advert.userId === user.id) return true;
	return isAdministrator(user) && store.accounts.subtreeIds(user.organisationId).includes(advert.organisationId);
}

export function notAdministrator(user: UserRow): FaultError {
	return FaultError.client(
		'AccessDenied',
		`User '${user.username}' is not an administrator (UserRoleID 1); only administrators may act for other users or organisations.`,
	);
}

/** The organisations a login may act on: its own subtree, within the key's. */
export function loginScope(store: Store, key: KeyScope, login: UserRow): number[] {
	return store.accounts.subtreeIds(login.organisationId).filter((orgId) => key.organisationIds.includes(orgId));
}

/** Whom an administration operation acts for: a user, or an organisation without a user. */
export interface ActingTarget {
	user?: UserRow;
	organisationId: number;
}

/**
 * The user or organisation an administration operation acts for (the login user by default);
 * acting for anyone else needs an administrator.
 */
export function actingTarget(
	store: Store,
	key: KeyScope,
	login: UserRow,
	params: ParamReader<'sOrganisationIdentifier' | 'sUserIdentifier'>,
): ActingTarget {
	const organisationValue = params.text('sOrganisationIdentifier');
	const userValue = params.text('sUserIdentifier');
	const scope = loginScope(store, key, login);
	if (userValue !== undefined) {
		const user = resolveUser(store, key, scope, userValue, 'sUserIdentifier');
		if (user.id !== login.id && !isAdministrator(login)) throw notAdministrator(login);
		return { user, organisationId: user.organisationId };
	}
	if (organisationValue !== undefined) {
		const organisation = resolveOrganisation(store, key, scope, organisationValue, 'sOrganisationIdentifier');
		if (!isAdministrator(login)) throw notAdministrator(login);
		return { organisationId: organisation.id };
	}
	return { user: login, organisationId: login.organisationId };
}
