/**
 * Business rules that hold whatever the caller tries: AddAdvert's duplicate handling respects advert
 * ownership, "as job owner" changes who an action is recorded as but not who may act, login links
 * return only to same-origin paths, and nothing tells a caller whether a user or organisation of
 * another tree exists.
 */
import * as assert from 'node:assert/strict';
import type { RunningEmulator } from '../../src/emulator';
import type { AnyParams, OperationName } from '../../src/protocol/catalogue';
import {
	DEMO_CREDENTIALS,
	DEMO_PASSWORD,
	OTHER_TREE_API_KEY,
	rawRequest,
	SANDBOX_START_TIMEOUT_MS,
	startSandbox,
} from '../integration/support';
import { callRaw, faultOf } from './raw';

/** A login of a seeded user of the Acme tree (every seeded user shares the demo password). */
const as = (username: string): AnyParams => ({
	sAPIKey: DEMO_CREDENTIALS.apiKey,
	sUsername: username,
	sPassword: DEMO_PASSWORD,
});
const admin = as(DEMO_CREDENTIALS.username);
/** Searches take sUsername as a filter, so they are made with the key alone. */
const key: AnyParams = { sAPIKey: DEMO_CREDENTIALS.apiKey };

describe('hardening: business rules under roles', function () {
	this.timeout(120_000);
	let emulator: RunningEmulator;

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		emulator = await startSandbox({ size: 'small', passwordCost: 1024 });
	});
	after(async () => {
		await emulator?.stop();
	});

	/** The result of a call that must succeed. */
	async function call<T = Record<string, unknown>>(operation: OperationName, params: AnyParams): Promise<T> {
		const answer = await callRaw(emulator, 'soap11', operation, params);
		assert.ok(answer.decoded?.ok, `${operation}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
		return (answer.decoded as { result: T }).result;
	}

	/** The fault of a call that must fail. */
	async function fault(operation: OperationName, params: AnyParams) {
		return faultOf(await callRaw(emulator, 'soap11', operation, params));
	}

	async function advert(advertId: number) {
		const page = await call<{ Adverts?: { AdvertTitle?: string; UserID?: number }[] }>('GetAdvertPaged', {
			...key,
			sAdvertID: String(advertId),
			CurrentPage: 1,
			RowsPerPage: 1,
		});
		assert.equal(page.Adverts?.length, 1, `advert ${advertId} is there`);
		return page.Adverts[0];
	}

	interface Added {
		AdvertID: number;
		UserID: number;
		RedirectUrl: string;
	}

	describe('AddAdvert with sOnDuplicate', () => {
		it('never overwrites or hands out the advert of another user to a plain user', async () => {
			const owner = await call<Added>('AddAdvert', {
				...as('manchester.recruiter'),
				sAdvertIdentifier: 'DUP-OWNED-1',
				sJobTitle: 'Original title',
			});
			// A colleague in the same office, and a plain user of the organisation at the top of the tree.
			for (const intruder of ['manchester.assistant', 'group.user']) {
				for (const onDuplicate of ['ignore', 'update', 'error']) {
					const answer = await callRaw(emulator, 'soap11', 'AddAdvert', {
						...as(intruder),
						sAdvertIdentifier: 'DUP-OWNED-1',
						sJobTitle: `Overwritten by ${intruder}`,
						sOnDuplicate: onDuplicate,
					});
					const text = answer.text;
					assert.ok(!text.includes(owner.RedirectUrl), `${intruder}/${onDuplicate} got the owner's link`);
					if (answer.decoded?.ok) {
						const result = (answer.decoded as { result: Added }).result;
						assert.notEqual(result.AdvertID, owner.AdvertID, `${intruder}/${onDuplicate}`);
					} else {
						// Only the intruder's own earlier advert may count as a duplicate.
						assert.equal(faultOf(answer).subcode, 'Duplicate', text.slice(0, 300));
						assert.ok(
							!text.includes(String(owner.AdvertID)),
							`${intruder}/${onDuplicate} names the advert`,
						);
					}
				}
			}
			const after = await advert(owner.AdvertID);
			assert.equal(after.AdvertTitle, 'Original title');
			assert.equal(after.UserID, owner.UserID);
		});

		it('lets the owner and an administrator above the advert update it', async () => {
			const owner = await call<Added>('AddAdvert', {
				...as('leeds.recruiter'),
				sAdvertIdentifier: 'DUP-OWNED-2',
				sJobTitle: 'First title',
			});
			const byOwner = await call<Added>('AddAdvert', {
				...as('leeds.recruiter'),
				sAdvertIdentifier: 'DUP-OWNED-2',
				sJobTitle: 'Owner title',
				sOnDuplicate: 'update',
			});
			assert.equal(byOwner.AdvertID, owner.AdvertID);
			const byAdmin = await call<Added>('AddAdvert', {
				...as('north.admin'),
				sAdvertIdentifier: 'DUP-OWNED-2',
				sJobTitle: 'Administrator title',
				sOnDuplicate: 'update',
			});
			assert.equal(byAdmin.AdvertID, owner.AdvertID);
			assert.equal((await advert(owner.AdvertID)).AdvertTitle, 'Administrator title');
			const ignored = await call<Added>('AddAdvert', {
				...as('north.admin'),
				sAdvertIdentifier: 'DUP-OWNED-2',
				sOnDuplicate: 'ignore',
			});
			assert.equal(ignored.RedirectUrl, owner.RedirectUrl);
			// An administrator of a sibling region does not see it.
			const south = await call<Added>('AddAdvert', {
				...as('south.admin'),
				sAdvertIdentifier: 'DUP-OWNED-2',
				sJobTitle: 'South title',
				sOnDuplicate: 'update',
			});
			assert.notEqual(south.AdvertID, owner.AdvertID);
			assert.equal((await advert(owner.AdvertID)).AdvertTitle, 'Administrator title');
		});
	});

	describe('acting as the job owner', () => {
		it('does not let a user who cannot see the advert score or progress its applications', async () => {
			const adverts = await call<{ Adverts?: { AdvertID?: number; UserID?: number; Applications?: number }[] }>(
				'GetAdvertPaged',
				{ ...key, sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 500 },
			);
			const leedsUserId = 6;
			const target = adverts.Adverts!.find((a) => a.UserID !== leedsUserId && (a.Applications ?? 0) > 0)!;
			assert.ok(target, 'an advert of another user with applications');
			const first = await call<{ Applications?: { AdvertCandidateID?: number }[] }>('GetApplicationsPaged', {
				...key,
				sAdvertID: String(target.AdvertID),
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			const applicationId = String(first.Applications![0].AdvertCandidateID);
			const applications = async () =>
				(
					await call<{
						Applications?: { AdvertCandidateID?: number; Ranking?: string; ProgressID?: number }[];
					}>('GetApplicationsPaged', {
						...key,
						sAdvertID: String(target.AdvertID),
						AdvertCandidateIDAsCSV: applicationId,
						CurrentPage: 1,
						RowsPerPage: 1,
					})
				).Applications![0];
			const before = await applications();
			const action = {
				...as('leeds.recruiter'),
				sAdvertID: String(target.AdvertID),
				sAdvertCandidateID: String(before.AdvertCandidateID),
			};
			const score = await fault('ApplicationScore', {
				...action,
				sScore: before.Ranking === 'Suitable' ? 'U' : 'S',
				sScoreAsJobOwner: 'true',
			});
			assert.equal(score.subcode, 'AccessDenied', score.message);
			const progress = await fault('ApplicationProgress', {
				...action,
				sProgressID: before.ProgressID === 7 ? '2' : '7',
				sProgressAsJobOwner: 'true',
			});
			assert.equal(progress.subcode, 'AccessDenied', progress.message);
			assert.deepEqual(await applications(), before, 'nothing changed');

			// The owner's administrator may act as the job owner.
			const done = await call<{ Success?: boolean }>('ApplicationScore', {
				...admin,
				sAdvertID: action.sAdvertID,
				sAdvertCandidateID: action.sAdvertCandidateID,
				sScore: 'M',
				sScoreAsJobOwner: 'true',
			});
			assert.equal(done.Success, true);
			assert.equal((await applications()).Ranking, 'MaybeSuitable');
		});
	});

	describe('GetLoginURL return paths', () => {
		const origin = (): string => new URL(emulator.baseUrl).origin;

		/** Where opening a login link sends the browser. */
		async function landing(returnUrl: string): Promise<string | undefined> {
			const answer = await callRaw(emulator, 'soap11', 'GetLoginURL', { ...admin, returnUrl });
			if (!answer.decoded?.ok) {
				assert.equal(faultOf(answer).subcode, 'InvalidParameter', returnUrl);
				return undefined;
			}
			const result = (answer.decoded as { result: { RedirectUrl?: string } }).result;
			const opened = await rawRequest(result.RedirectUrl!);
			assert.equal(opened.status, 303, returnUrl);
			const location = opened.headers.location;
			if (location === undefined) return undefined;
			// Where a browser lands: the Location (relative, so it works under a proxy's path prefix)
			// resolved against the login URL; a path when it stays on the origin, else the whole URL.
			const landed = new URL(String(location), result.RedirectUrl!);
			return landed.origin === origin() ? `${landed.pathname}${landed.search}` : landed.href;
		}

		it('never redirects off the origin, whatever dot segments or encodings the path holds', async () => {
			const hostile = [
				'/.//evil.example/x',
				'/..//evil.example/',
				'/././/evil.example',
				'/a/../..//evil.example/',
				'/%2e//evil.example/',
				'/%2E%2E//evil.example/',
				'/.//evil.example\\x',
				'/\\evil.example',
				'//evil.example',
				'/\t/evil.example',
			];
			for (const returnUrl of hostile) {
				const location = await landing(returnUrl);
				if (location === undefined) continue;
				assert.ok(location.startsWith('/') && !/^\/[/\\]/.test(location), `${returnUrl} -> ${location}`);
				assert.equal(new URL(location, emulator.baseUrl).origin, origin(), `${returnUrl} -> ${location}`);
			}
		});

		it('still lands on a same-origin path, normalised', async () => {
			assert.equal(await landing('/web/adverts?page=2'), '/web/adverts?page=2');
			assert.equal(await landing('/web/./postings'), '/web/postings');
		});
	});

	describe('no existence oracle across trees', () => {
		/** A fault's text with the probed value taken out, so two faults can be compared. */
		const shape = (f: { subcode?: string; message: string }, value: string) => ({
			subcode: f.subcode,
			message: f.message.split(value).join('<value>'),
		});

		// At most three failed logins per username, so no answer depends on the throttle's clock (a user
		// of another tree counts as a failed login even with the right password, as an unknown one does).
		it('answers a login of another tree exactly as an unknown login', async () => {
			const pairs = [
				['globex.admin', 'nobody.here'],
				['globex.admin', 'nobody.here'],
				['globex.admin', 'nobody.here'],
				['berlin.recruiter', 'nobody.there'],
				['berlin.recruiter', 'nobody.there'],
			] as const;
			const operations = [
				'UserFeedsAndQuotaWithDestinations',
				'AddAdvert',
				'ApplicationScore',
				'UserList',
				'FeedList',
			] as const;
			for (const [i, operation] of operations.entries()) {
				const [foreignUser, unknownUser] = pairs[i];
				const rest = { sJobTitle: 'x', sScore: 'S', sAdvertID: '1', sAdvertCandidateID: '1' };
				const foreign = await fault(operation, { ...as(foreignUser), ...rest });
				const unknown = await fault(operation, { ...as(unknownUser), ...rest });
				assert.equal(foreign.subcode, 'AuthenticationFailed', `${operation}: ${foreign.message}`);
				assert.deepEqual(shape(foreign, foreignUser), shape(unknown, unknownUser), operation);
			}
		});

		it('answers a search filter naming a user or organisation of another tree exactly as an unknown one', async () => {
			const paging = { CurrentPage: 1, RowsPerPage: 5, sApplicationStartDateTime: '2020-01-01 00:00:00' };
			for (const operation of ['GetAdvertPaged', 'GetApplicationsPaged'] as const) {
				for (const [name, foreign, unknown] of [
					['sUsername', 'globex.admin', 'nobody.here'],
					['sUserIdentifier', '11', '987654'],
					['sStartOrganisation', 'globex', 'no-such-org'],
					['sStartOrganisation', '9', '987654'],
				] as const) {
					const a = await fault(operation, { sAPIKey: DEMO_CREDENTIALS.apiKey, ...paging, [name]: foreign });
					const b = await fault(operation, { sAPIKey: DEMO_CREDENTIALS.apiKey, ...paging, [name]: unknown });
					assert.equal(a.subcode, 'NotFound', `${operation} ${name}: ${a.message}`);
					assert.deepEqual(shape(a, foreign), shape(b, unknown), `${operation} ${name}`);
				}
			}
		});

		it('GetLoginURL with a key of another tree returns no identifiers and the unknown-login message', async () => {
			type LoginResult = {
				UserID?: number;
				OrganisationID?: number;
				LoginSuccess?: boolean;
				LoginMessage?: string;
			};
			const foreign = await call<LoginResult>('GetLoginURL', {
				...as('demo.admin'),
				sAPIKey: OTHER_TREE_API_KEY,
			});
			// A username no other test used: failed logins are throttled per username.
			const unknown = await call<LoginResult>('GetLoginURL', {
				...as('nobody.else'),
				sAPIKey: OTHER_TREE_API_KEY,
			});
			assert.equal(foreign.LoginSuccess, false);
			assert.ok(!foreign.UserID, `UserID ${foreign.UserID}`);
			assert.ok(!foreign.OrganisationID, `OrganisationID ${foreign.OrganisationID}`);
			assert.deepEqual(foreign, unknown);
		});
	});
});
