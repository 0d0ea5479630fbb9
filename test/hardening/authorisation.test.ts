/**
 * Every operation refuses callers who may not use it: no key, a wrong key, a wrong password, a user
 * of another organisation, a narrower key, a non-administrator acting for others, and a start
 * organisation outside the caller's tree. Each is a Client fault that returns no records and names
 * nothing of the other organisation.
 */
import * as assert from 'node:assert/strict';
import type { RunningEmulator } from '../../src/emulator';
import type { BindingName } from '../../src/protocol/bindings/types';
import { OPERATION_NAMES, OPERATIONS, type AnyParams, type OperationName } from '../../src/protocol/catalogue';
import {
	clientFor,
	DEMO_CREDENTIALS,
	DEMO_PASSWORD,
	NORTH_API_KEY,
	OTHER_TREE_API_KEY,
	SANDBOX_START_TIMEOUT_MS,
	startSandbox,
} from '../integration/support';
import { callRaw, faultOf } from './raw';

/** Words that only data of the Globex tree contains. */
const GLOBEX_WORDS = ['Globex', 'globex.example', 'Hoffmann', 'Klara', 'Berlin', 'Weber'];
/** Words that only data of the Acme tree contains. */
const ACME_WORDS = ['Acme', 'acme-recruitment.example', 'Whitfield', 'Dana'];

const takesPassword = (operation: OperationName): boolean =>
	OPERATIONS[operation].params.some((param) => param.name === 'sPassword');
const takes = (operation: OperationName, name: string): boolean =>
	OPERATIONS[operation].params.some((param) => param.name === name);

describe('hardening: authorisation', function () {
	this.timeout(120_000);
	let emulator: RunningEmulator;
	/** An Acme advert with applications, and one of its applications. */
	let acme: { advertId: string; applicationId: string; email: string };

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		emulator = await startSandbox();
		const client = clientFor(emulator);
		try {
			const adverts = await client.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 500 });
			const advert = adverts.Adverts!.find((a) => (a.Applications ?? 0) > 3)!;
			const applications = await client.getApplicationsPaged({
				sAdvertID: String(advert.AdvertID),
				CurrentPage: 1,
				RowsPerPage: 5,
			});
			const application = applications.Applications![0];
			acme = {
				advertId: String(advert.AdvertID),
				applicationId: String(application.AdvertCandidateID),
				email: application.EmailAddress!,
			};
		} finally {
			await client.close();
		}
	});

	after(async () => {
		await emulator?.stop();
	});

	/** Parameters that would succeed for the demo administrator, so a refusal comes from the credentials. */
	const validParams = (operation: OperationName): AnyParams => {
		const params: AnyParams = { sAPIKey: DEMO_CREDENTIALS.apiKey, sCultureID: 'en-GB' };
		if (takesPassword(operation)) {
			Object.assign(params, { sUsername: DEMO_CREDENTIALS.username, sPassword: DEMO_PASSWORD });
		}
		if (takes(operation, 'CurrentPage')) Object.assign(params, { CurrentPage: 1, RowsPerPage: 10 });
		if (takes(operation, 'sAdvertID')) params.sAdvertID = acme.advertId;
		if (takes(operation, 'sAdvertCandidateID')) params.sAdvertCandidateID = acme.applicationId;
		const extra: Partial<Record<OperationName, AnyParams>> = {
			ApplicationScore: { sScore: 'U' },
			ApplicationProgress: { sProgressID: '2' },
			AddAdvertCandidateNote: { sBody: 'authorisation probe' },
			AddAdvert: { sJobTitle: 'Authorisation probe' },
			CandidateTag: { sCandidateEmail: acme.email, Tag: 'Probe' },
			CandidateTagPartner: { sCandidateEmail: acme.email, PartnerTag: 'PartnerBarred' },
			QueryJobTitle: { q: 'de' },
		};
		return { ...params, ...extra[operation] };
	};

	const assertDenied = async (
		operation: OperationName,
		params: AnyParams,
		leakWords: readonly string[],
		binding: BindingName = 'soap11',
		subcodes?: string[],
	): Promise<void> => {
		const call = await callRaw(emulator, binding, operation, params);
		assert.equal(call.status, 500, `${operation}: HTTP ${call.status} ${call.text.slice(0, 200)}`);
		const fault = faultOf(call);
		if (binding === 'soap11' || binding === 'soap12') {
			assert.equal(fault.code, 'Client', `${operation}: ${fault.message}`);
			if (subcodes) {
				assert.ok(
					subcodes.includes(fault.subcode ?? ''),
					`${operation}: subcode ${fault.subcode} (${fault.message})`,
				);
			}
		}
		for (const word of leakWords) {
			assert.ok(!call.text.includes(word), `${operation}: the fault names '${word}': ${fault.message}`);
		}
	};

	it('the valid parameters succeed, so the refusals below come from the credentials', async () => {
		for (const operation of OPERATION_NAMES) {
			const call = await callRaw(emulator, 'soap11', operation, validParams(operation));
			assert.equal(call.status, 200, `${operation}: ${call.text.slice(0, 300)}`);
		}
	});

	for (const binding of ['soap11', 'soap12', 'httpGet', 'httpPost'] as const) {
		it(`${binding}: every operation without an API key and with a wrong key is refused`, async () => {
			for (const operation of OPERATION_NAMES) {
				await assertDenied(
					operation,
					{ ...validParams(operation), sAPIKey: undefined },
					[...GLOBEX_WORDS, ...ACME_WORDS],
					binding,
					['AuthenticationFailed'],
				);
				await assertDenied(
					operation,
					{ ...validParams(operation), sAPIKey: 'not-a-key' },
					[...GLOBEX_WORDS, ...ACME_WORDS],
					binding,
					['AuthenticationFailed'],
				);
			}
		});
	}

	it('every operation with sPassword refuses a wrong password (GetLoginURL answers LoginSuccess false)', async () => {
		for (const operation of OPERATION_NAMES.filter(takesPassword)) {
			const params = { ...validParams(operation), sPassword: 'wrong-password' };
			if (operation === 'GetLoginURL') {
				const call = await callRaw(emulator, 'soap11', operation, params);
				assert.ok(call.decoded?.ok);
				const result = (call.decoded as { result: { LoginSuccess?: boolean; RedirectUrl?: string } }).result;
				assert.equal(result.LoginSuccess, false);
				assert.equal(result.RedirectUrl, undefined);
				continue;
			}
			await assertDenied(operation, params, GLOBEX_WORDS, 'soap11', ['AuthenticationFailed']);
		}
	});

	// A user or organisation outside the key's subtree is answered as an unknown one (no existence oracle).
	it('a user of another organisation tree is refused with the Acme key, without naming Globex data', async () => {
		for (const operation of OPERATION_NAMES) {
			if (takesPassword(operation)) {
				const params = { ...validParams(operation), sUsername: 'globex.admin' };
				if (operation === 'GetLoginURL') {
					const call = await callRaw(emulator, 'soap11', operation, params);
					const result = (
						call.decoded as { ok: true; result: { LoginSuccess?: boolean; RedirectUrl?: string } }
					).result;
					assert.equal(result.LoginSuccess, false);
					assert.equal(result.RedirectUrl, undefined);
					continue;
				}
				await assertDenied(operation, params, ['Globex', 'Hoffmann', 'Klara', 'globex.example'], 'soap11', [
					'AuthenticationFailed',
				]);
			} else if (takes(operation, 'sUsername')) {
				await assertDenied(
					operation,
					{ ...validParams(operation), sUsername: 'globex.admin' },
					['Globex', 'Hoffmann', 'Klara', 'globex.example'],
					'soap11',
					['NotFound'],
				);
			}
		}
	});

	it('a narrower key (Acme North) refuses a user of Acme London and a start organisation outside its subtree', async () => {
		for (const operation of OPERATION_NAMES) {
			if (takesPassword(operation) && operation !== 'GetLoginURL') {
				await assertDenied(
					operation,
					{ ...validParams(operation), sAPIKey: NORTH_API_KEY, sUsername: 'london.recruiter' },
					['Acme London', 'Bianchi'],
					'soap11',
					['AuthenticationFailed'],
				);
			}
			if (takes(operation, 'sStartOrganisation')) {
				await assertDenied(
					operation,
					{
						...validParams(operation),
						sAPIKey: NORTH_API_KEY,
						sUsername: takesPassword(operation) ? 'north.admin' : undefined,
						sStartOrganisation: 'acme-london',
					},
					['Acme London'],
					'soap11',
					['NotFound'],
				);
			}
		}
	});

	it('sStartOrganisation outside the caller tree is refused for every operation that takes it', async () => {
		const operations = OPERATION_NAMES.filter((operation) => takes(operation, 'sStartOrganisation'));
		assert.ok(operations.length >= 6);
		for (const operation of operations) {
			await assertDenied(
				operation,
				{ ...validParams(operation), sStartOrganisation: 'globex' },
				['Globex Staffing'],
				'soap11',
				['NotFound'],
			);
			await assertDenied(
				operation,
				{ ...validParams(operation), sStartOrganisation: '9' },
				['Globex Berlin'],
				'soap11',
				['NotFound'],
			);
		}
	});

	it('a non-administrator may not act for other users or organisations in the administration operations', async () => {
		const asRecruiter = {
			sAPIKey: DEMO_CREDENTIALS.apiKey,
			sUsername: 'manchester.recruiter',
			sPassword: DEMO_PASSWORD,
		};
		await assertDenied('UserList', asRecruiter, GLOBEX_WORDS, 'soap11', ['AccessDenied']);
		await assertDenied('UserList', { ...asRecruiter, sUserIdentifier: 'north.admin' }, GLOBEX_WORDS, 'soap11', [
			'AccessDenied',
			'NotFound',
		]);
		await assertDenied('FeedList', { ...asRecruiter, sUserIdentifier: '5' }, GLOBEX_WORDS, 'soap11', [
			'AccessDenied',
		]);
		await assertDenied(
			'FeedQuotaList',
			{ ...asRecruiter, sOrganisationIdentifier: 'acme-manchester' },
			GLOBEX_WORDS,
			'soap11',
			['AccessDenied'],
		);
		await assertDenied('FeedQuotaList', { ...asRecruiter, sUserIdentifier: 'U0005' }, GLOBEX_WORDS, 'soap11', [
			'AccessDenied',
		]);
		// ...and an administrator may not reach above their own organisation.
		const asNorth = { sAPIKey: DEMO_CREDENTIALS.apiKey, sUsername: 'north.admin', sPassword: DEMO_PASSWORD };
		await assertDenied('UserList', { ...asNorth, sStartOrganisation: 'acme-south' }, ['Acme South'], 'soap11', [
			'AccessDenied',
		]);
		await assertDenied('FeedList', { ...asNorth, sUserIdentifier: 'london.recruiter' }, ['Bianchi'], 'soap11', [
			'AccessDenied',
			'NotFound',
		]);
	});

	it('the Globex key cannot read or change Acme adverts and applications', async () => {
		const globex = { sAPIKey: OTHER_TREE_API_KEY, sUsername: 'globex.admin', sPassword: DEMO_PASSWORD };
		const reader = clientFor(emulator);
		const before = await reader
			.getApplicationsPaged({
				AdvertCandidateIDAsCSV: acme.applicationId,
				sAdvertID: acme.advertId,
				CurrentPage: 1,
				RowsPerPage: 1,
			})
			.finally(() => reader.close());
		const rankingBefore = before.Applications![0].Ranking;
		for (const operation of ['ApplicationScore', 'ApplicationProgress', 'AddAdvertCandidateNote'] as const) {
			await assertDenied(operation, { ...validParams(operation), ...globex }, ACME_WORDS, 'soap11', [
				'NotFound',
				'AccessDenied',
			]);
		}
		await assertDenied(
			'AdvertTrackingResponseLog',
			{ ...validParams('AdvertTrackingResponseLog'), sAPIKey: OTHER_TREE_API_KEY },
			ACME_WORDS,
			'soap11',
			['NotFound'],
		);
		await assertDenied(
			'ExpressPostAdvert',
			{ ...validParams('ExpressPostAdvert'), sAPIKey: OTHER_TREE_API_KEY },
			ACME_WORDS,
			'soap11',
			['NotFound'],
		);
		const applications = await callRaw(emulator, 'soap11', 'GetApplicationsPaged', {
			...validParams('GetApplicationsPaged'),
			sAPIKey: OTHER_TREE_API_KEY,
		});
		const result = applications.decoded?.ok
			? (applications.decoded.result as { TotalItemCount?: number; Applications?: unknown[] })
			: undefined;
		if (result) {
			assert.equal(result.TotalItemCount, 0, 'no Acme applications for the Globex key');
			assert.equal(result.Applications?.length ?? 0, 0);
		} else {
			faultOf(applications);
		}
		const tag = await callRaw(emulator, 'soap11', 'CandidateTag', {
			...validParams('CandidateTag'),
			sAPIKey: OTHER_TREE_API_KEY,
		});
		assert.ok(tag.decoded?.ok);
		assert.equal(
			(tag.decoded as { result: { Success?: boolean } }).result.Success,
			false,
			'an Acme candidate cannot be tagged with the Globex key',
		);
		assert.ok(!ACME_WORDS.some((word) => tag.text.includes(word)));
		// The application is unchanged by all of the refused actions.
		const client = clientFor(emulator);
		try {
			const after = await client.getApplicationsPaged({
				AdvertCandidateIDAsCSV: acme.applicationId,
				sAdvertID: acme.advertId,
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			assert.equal(after.Applications![0].Ranking, rankingBefore);
			assert.equal(after.Applications![0].LastNoteDate, before.Applications![0].LastNoteDate);
		} finally {
			await client.close();
		}
	});
});
