/**
 * Every successful response of every operation in every binding is valid against the schema embedded
 * in the sandbox's own WSDL, checked by a real validator (libxml2), including the variants that once
 * broke it: adverts without coordinates, a failed login, empty pages, documents included and not,
 * single-item and empty lists. Faults are not described by the WSDL and are left out.
 */
import * as assert from 'node:assert/strict';
import { loadLibxml2Validator, type Libxml2XsdValidator } from '../../src/client/xsd/libxml2Validator';
import type { MultipostingClient } from '../../src/client';
import type { RunningEmulator } from '../../src/emulator';
import { BINDING_NAMES, type BindingName } from '../../src/protocol/bindings/types';
import { OPERATION_NAMES, OPERATIONS, type AnyParams, type OperationName } from '../../src/protocol/catalogue';
import {
	checkResponseAgainstWsdl,
	formatSchemaProblems,
	type SchemaProblem,
} from '../../src/protocol/schema/wsdlValidation';
import { clientFor, rawRequest, SANDBOX_START_TIMEOUT_MS, startSandbox } from './support';

interface Case {
	operation: OperationName;
	label: string;
	params: () => AnyParams;
	/** What the decoded result must show, so the variant is really the one named. */
	expect?: (result: unknown) => void;
}

const ALL_TIME = '-1';

describe('integration: responses are valid against the sandbox WSDL (libxml2)', function () {
	this.timeout(120_000);
	let emulator: RunningEmulator;
	let validator: Libxml2XsdValidator;
	const wsdl: Record<string, string> = {};
	const clients = new Map<BindingName, MultipostingClient>();
	/** Ids found in the seed once. */
	const seed = { advertId: 0, remoteAdvertId: 0, applicationId: 0, candidateEmail: '', userId: 0 };

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		validator = await loadLibxml2Validator();
		emulator = await startSandbox();
		wsdl.posting = (await rawRequest(emulator.postingWsdl)).body;
		wsdl.administration = (await rawRequest(emulator.adminWsdl)).body;
		for (const binding of BINDING_NAMES) clients.set(binding, clientFor(emulator, { binding }));
		const client = clients.get('soap11')!;
		const adverts = (await client.getAdvertPaged({ sSearchDays: ALL_TIME, CurrentPage: 1, RowsPerPage: 500 }))
			.Adverts!;
		const withApplications = adverts.find((a) => (a.Applications ?? 0) > 3 && a.latitude !== undefined)!;
		const remote = adverts.find((a) => a.latitude === undefined);
		assert.ok(remote, 'the seed has an advert without coordinates (Remote)');
		seed.advertId = withApplications.AdvertID!;
		seed.remoteAdvertId = remote.AdvertID!;
		const applications = await client.getApplicationsPaged({
			sAdvertID: String(seed.advertId),
			CurrentPage: 1,
			RowsPerPage: 1,
		});
		seed.applicationId = applications.Applications![0].AdvertCandidateID!;
		seed.candidateEmail = applications.Applications![0].EmailAddress!;
		const users = await client.userList({});
		seed.userId = users.find((u) => u.Username === emulator.demo.username)!.UserID!;
	});

	after(async () => {
		for (const client of clients.values()) await client.close();
		await emulator?.stop();
		validator?.dispose();
	});

	const page = { CurrentPage: 1, RowsPerPage: 5 };
	const documents = {
		boolIncludeEmailBody: 'true',
		boolIncludeAttachment: 'true',
		boolIncludeParsed: 'true',
		boolIncludeEmail: 'true',
	};
	const listOf = (n: number | 'some') => (result: unknown) => {
		assert.ok(Array.isArray(result));
		if (n === 'some') assert.ok(result.length > 1, `several items, got ${result.length}`);
		else assert.equal(result.length, n);
	};

	const cases: Case[] = [
		{
			operation: 'UserFeedsAndQuotaWithDestinations',
			label: 'all feeds',
			params: () => ({}),
			expect: listOf('some'),
		},
		{
			operation: 'UserFeedsAndQuotaWithDestinations',
			label: 'one feed',
			params: () => ({ Destinations: ['108'] }),
			expect: listOf(1),
		},
		{
			operation: 'GetAdvertWithValuesPaged',
			label: 'a page',
			params: () => ({ sSearchDays: ALL_TIME, ...page }),
		},
		{
			operation: 'GetAdvertWithValuesPaged',
			label: 'an empty page',
			params: () => ({ sAdvertIdentifier: 'no-such-advert', ...page }),
			expect: (r) => assert.equal((r as { TotalItemCount: number }).TotalItemCount, 0),
		},
		{ operation: 'GetAdvertWithValues', label: 'one advert', params: () => ({ sAdvertID: String(seed.advertId) }) },
		{
			operation: 'GetAdvertWithValues',
			label: 'no advert',
			params: () => ({ sAdvertIdentifier: 'no-such-advert' }),
			expect: listOf(0),
		},
		{
			operation: 'GetAdvertPaged',
			label: 'all time',
			params: () => ({ sSearchDays: ALL_TIME, CurrentPage: 1, RowsPerPage: 500 }),
		},
		{
			operation: 'GetAdvertPaged',
			label: 'an advert without coordinates',
			params: () => ({ sAdvertID: String(seed.remoteAdvertId), CurrentPage: 1, RowsPerPage: 1 }),
			expect: (r) => assert.equal((r as { Adverts: { latitude?: string }[] }).Adverts[0].latitude, undefined),
		},
		{
			operation: 'GetAdvertPaged',
			label: 'an empty page',
			params: () => ({ sAdvertIdentifier: 'no-such-advert', CurrentPage: 1, RowsPerPage: 5 }),
		},
		{
			operation: 'ExpressPostAdvert',
			label: 'a posted advert',
			params: () => ({ sAdvertID: String(seed.advertId) }),
		},
		{
			operation: 'AddAdvert',
			label: 'an unknown town (no coordinates)',
			params: () => ({ sJobTitle: 'Schema check', sPrimaryLocation: 'Atlantis', sJobType: 'P' }),
		},
		{
			operation: 'AddAdvert',
			label: 'a known town',
			params: () => ({ sJobTitle: 'Schema check', sPrimaryLocation: 'Leeds' }),
		},
		{
			operation: 'AdvertTrackingResponseLog',
			label: 'an advert',
			params: () => ({ sAdvertID: String(seed.advertId) }),
		},
		{
			operation: 'AdvertTrackingResponseLog',
			label: 'one feed',
			params: () => ({ sAdvertID: String(seed.advertId), Destinations: ['104'] }),
		},
		{
			operation: 'CandidateTagPartner',
			label: 'a known candidate',
			params: () => ({ sCandidateEmail: seed.candidateEmail, PartnerTag: 'PartnerAccepted' }),
		},
		{
			operation: 'CandidateTag',
			label: 'an unknown candidate (empty OrganisationID list)',
			params: () => ({ sCandidateEmail: 'nobody@example.invalid', Tag: 'Reviewed' }),
			expect: (r) => assert.equal((r as { Success: boolean }).Success, false),
		},
		{
			operation: 'CandidateTag',
			label: 'a known candidate',
			params: () => ({ sCandidateEmail: seed.candidateEmail, Tag: 'Reviewed' }),
		},
		{ operation: 'QueryJobTitle', label: 'suggestions', params: () => ({ q: 'de' }) },
		{ operation: 'QueryJobTitle', label: 'no suggestion', params: () => ({ q: 'zzzzqqq' }), expect: listOf(0) },
		{ operation: 'GetLoginURL', label: 'a good login', params: () => ({}) },
		{
			operation: 'GetLoginURL',
			label: 'a failed login',
			params: () => ({ sPassword: 'wrong password' }),
			expect: (r) => assert.equal((r as { LoginSuccess: boolean; UserID: number }).UserID, 0),
		},
		{ operation: 'GetCurrency', label: 'rows', params: () => ({}), expect: listOf('some') },
		{
			operation: 'ApplicationScore',
			label: 'a score',
			params: () => ({
				sAdvertID: String(seed.advertId),
				sAdvertCandidateID: String(seed.applicationId),
				sScore: 'S',
			}),
		},
		{
			operation: 'AddAdvertCandidateNote',
			label: 'a note',
			params: () => ({
				sAdvertID: String(seed.advertId),
				sAdvertCandidateID: String(seed.applicationId),
				sBody: 'Checked against the schema.',
			}),
		},
		{
			operation: 'ApplicationProgress',
			label: 'a progress',
			params: () => ({
				sAdvertID: String(seed.advertId),
				sAdvertCandidateID: String(seed.applicationId),
				sProgressID: '2',
			}),
		},
		{
			operation: 'GetApplicationsPaged',
			label: 'without documents',
			params: () => ({ sAdvertID: String(seed.advertId), CurrentPage: 1, RowsPerPage: 50 }),
		},
		{
			operation: 'GetApplicationsPaged',
			label: 'with every document',
			params: () => ({ sAdvertID: String(seed.advertId), ...documents, CurrentPage: 1, RowsPerPage: 20 }),
		},
		{
			operation: 'GetApplicationsPaged',
			label: 'one application with documents',
			params: () => ({ AdvertCandidateIDAsCSV: String(seed.applicationId), ...documents, ...page }),
		},
		{
			operation: 'GetApplicationsPaged',
			label: 'an empty page',
			params: () => ({ AdvertCandidateIDAsCSV: '2147483000', ...page }),
		},
		{ operation: 'UserList', label: 'all users', params: () => ({}), expect: listOf('some') },
		{
			operation: 'UserList',
			label: 'one user',
			params: () => ({ sUserIdentifier: String(seed.userId) }),
			expect: listOf(1),
		},
		{ operation: 'FeedQuotaList', label: 'all quotas', params: () => ({}) },
		{
			operation: 'FeedQuotaList',
			label: 'one feed',
			params: () => ({ DestinationsAsCSV: '108' }),
			expect: listOf(1),
		},
		{ operation: 'GetWeeksToAdvertise', label: 'rows', params: () => ({}) },
		{ operation: 'FeedList', label: 'all feeds', params: () => ({}) },
		{
			operation: 'FeedList',
			label: 'no match',
			params: () => ({ sFeedNameSearch: 'no such board' }),
			expect: listOf(0),
		},
	];

	it('covers every operation', () => {
		assert.deepEqual(new Set(cases.map((c) => c.operation)), new Set(OPERATION_NAMES));
	});

	for (const binding of BINDING_NAMES) {
		for (const c of cases) {
			it(`${binding} ${c.operation}: ${c.label}`, async () => {
				const client = clients.get(binding)!;
				const { result, exchange } = await client.callWithExchange(c.operation, c.params() as never, {
					redact: false,
				});
				c.expect?.(result);
				const problems = checkResponseAgainstWsdl(validator, {
					wsdl: wsdl[OPERATIONS[c.operation].endpoint],
					namespace: emulator.namespace,
					binding,
					body: exchange.response!.body,
				});
				assert.deepEqual(problems, [], formatSchemaProblems(problems));
			});
		}
	}

	it('the validator refuses a response that breaks the schema', async () => {
		const { exchange } = await clients
			.get('httpGet')!
			.callWithExchange(
				'GetAdvertPaged',
				{ sAdvertID: String(seed.remoteAdvertId), CurrentPage: 1, RowsPerPage: 1 },
				{ redact: false },
			);
		const body = new TextDecoder().decode(exchange.response!.body);
		assert.match(body, /<latitude xsi:nil="true" \/>/);
		const check = (text: string): SchemaProblem[] =>
			checkResponseAgainstWsdl(validator, {
				wsdl: wsdl.posting,
				namespace: emulator.namespace,
				binding: 'httpGet',
				body: text,
			});
		assert.deepEqual(check(body), []);
		// What the sandbox wrote before: no element at all for an unknown latitude.
		assert.match(formatSchemaProblems(check(body.replace('<latitude xsi:nil="true" />', ''))), /latitude/);
		assert.match(
			formatSchemaProblems(check(body.replace(/<AdvertID>\d+<\/AdvertID>/, '<AdvertID>x</AdvertID>'))),
			/AdvertID/,
		);
	});
});
