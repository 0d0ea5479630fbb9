/**
 * The project's own client against a real in-process sandbox: every operation in every binding, with
 * assertions on the data, plus the same read in all four bindings decoding to the same result.
 */
import * as assert from 'node:assert/strict';
import type { MultipostingClient } from '../../src/client';
import { SoapFaultError } from '../../src/client';
import type { RunningEmulator } from '../../src/emulator';
import { BINDING_NAMES, type BindingName } from '../../src/protocol/bindings/types';
import type { Advert, APIApplication, OperationName } from '../../src/protocol/catalogue';
import { OPERATION_NAMES } from '../../src/protocol/catalogue';
import { clientFor, SANDBOX_START_TIMEOUT_MS, startSandbox } from './support';

/** Adverts and applications the checks work on, found once in the seeded data. */
interface Fixture {
	allAdverts: Advert[];
	/** A posted, live Acme advert with several applications. */
	advert: Advert;
	applications: APIApplication[];
}

type Check = (client: MultipostingClient, binding: BindingName, index: number) => Promise<void>;

const ALL_TIME = '-1';

describe('integration: every operation in every binding against the sandbox', function () {
	this.timeout(60_000);
	let emulator: RunningEmulator;
	let fixture: Fixture;
	const clients = new Map<BindingName, MultipostingClient>();

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		emulator = await startSandbox();
		for (const binding of BINDING_NAMES) clients.set(binding, clientFor(emulator, { binding }));
		const client = clients.get('soap11')!;
		const page = await client.getAdvertPaged({ sSearchDays: ALL_TIME, CurrentPage: 1, RowsPerPage: 500 });
		const allAdverts = page.Adverts ?? [];
		const advert = allAdverts
			.filter((a) => a.AdvertStatusID === 0 && a.LastPostDate !== undefined && (a.Applications ?? 0) >= 12)
			.sort((a, b) => (b.Applications ?? 0) - (a.Applications ?? 0))[0];
		assert.ok(advert, 'the seed has a posted advert with at least 12 applications');
		const applications = await client.getApplicationsPaged({
			sAdvertID: String(advert.AdvertID),
			CurrentPage: 1,
			RowsPerPage: 100,
		});
		fixture = { allAdverts, advert, applications: applications.Applications ?? [] };
	});

	after(async () => {
		for (const client of clients.values()) await client.close();
		await emulator?.stop();
	});

	const advertId = (): string => String(fixture.advert.AdvertID);
	const readAdvert = async (client: MultipostingClient): Promise<Advert> => {
		const page = await client.getAdvertPaged({ sAdvertID: advertId(), CurrentPage: 1, RowsPerPage: 1 });
		assert.equal(page.Adverts?.length, 1);
		return page.Adverts![0];
	};
	const readApplication = async (client: MultipostingClient, applicationId: number): Promise<APIApplication> => {
		const page = await client.getApplicationsPaged({
			sAdvertID: advertId(),
			AdvertCandidateIDAsCSV: String(applicationId),
			CurrentPage: 1,
			RowsPerPage: 5,
		});
		assert.equal(page.Applications?.length, 1);
		return page.Applications![0];
	};
	/** A different application per binding, so the bindings do not see each other's changes. */
	const applicationFor = (index: number, offset: number): APIApplication =>
		fixture.applications[(index * 3 + offset) % fixture.applications.length];
	const wholeSecondsAgo = (start: number): number => Math.floor(start / 1000) * 1000;

	const checks = {
		UserFeedsAndQuotaWithDestinations: async (client) => {
			const all = await client.userFeedsAndQuotaWithDestinations({});
			assert.ok(all.length >= 10, `demo.admin has the group's feeds, got ${all.length}`);
			for (const feed of all) assert.ok(typeof feed.FeedID === 'number' && feed.FeedName);
			const one = await client.userFeedsAndQuotaWithDestinations({ Destinations: ['108'] });
			assert.deepEqual(
				one.map((feed) => feed.FeedID),
				[108],
			);
		},
		GetAdvertWithValuesPaged: async (client) => {
			const page = await client.getAdvertWithValuesPaged({
				sAdvertID: advertId(),
				CurrentPage: 1,
				RowsPerPage: 10,
			});
			assert.equal(page.TotalItemCount, 1);
			const item = page.AdvertWithValues![0];
			assert.equal(item.Advert?.AdvertID, fixture.advert.AdvertID);
			assert.ok(item.AdvertValues!.some((value) => value.FieldIdentifier === 'JobCategory'));
			const narrowed = await client.getAdvertWithValuesPaged({
				sAdvertID: advertId(),
				FieldIDsAsCSV: '2',
				CurrentPage: 1,
				RowsPerPage: 10,
			});
			const values = narrowed.AdvertWithValues![0].AdvertValues ?? [];
			assert.ok(values.length >= 1);
			assert.ok(
				values.every((value) => value.FieldID === 2),
				'FieldIDsAsCSV keeps only field 2',
			);
		},
		GetAdvertWithValues: async (client) => {
			const list = await client.getAdvertWithValues({
				sAdvertIdentifier: fixture.advert.AdvertIdentifier,
				sSearchDays: ALL_TIME,
			});
			assert.ok(list.length >= 1);
			assert.ok(list.every((item) => item.Advert?.AdvertIdentifier === fixture.advert.AdvertIdentifier));
			assert.ok(list.some((item) => item.Advert?.AdvertID === fixture.advert.AdvertID));
		},
		GetAdvertPaged: async (client) => {
			const rows = 25;
			const first = await client.getAdvertPaged({ sSearchDays: ALL_TIME, CurrentPage: 1, RowsPerPage: rows });
			const total = first.TotalItemCount!;
			assert.equal(first.PageIndex, 1);
			assert.equal(first.PageCount, Math.ceil(total / rows));
			const seen = new Set<number>();
			for (let page = 1; page <= first.PageCount!; page++) {
				const result = await client.getAdvertPaged({
					sSearchDays: ALL_TIME,
					CurrentPage: page,
					RowsPerPage: rows,
				});
				assert.equal(result.PageIndex, page);
				assert.equal(
					result.Adverts!.length,
					page < first.PageCount! ? rows : total - rows * (first.PageCount! - 1),
				);
				for (const advert of result.Adverts!) seen.add(advert.AdvertID!);
			}
			assert.equal(seen.size, total, 'the pages add up to TotalItemCount with no advert twice');
			const byUser = await client.getAdvertPaged({
				sSearchDays: ALL_TIME,
				sUserIdentifier: String(fixture.advert.UserID),
				CurrentPage: 1,
				RowsPerPage: 500,
			});
			assert.ok(
				byUser.TotalItemCount! >= 1 && byUser.TotalItemCount! < total,
				'a user filter narrows the search',
			);
			assert.ok(byUser.Adverts!.every((advert) => advert.UserID === fixture.advert.UserID));
			const deleted = await client.getAdvertPaged({
				sSearchDays: ALL_TIME,
				sAdvertStatusIDs: '1',
				CurrentPage: 1,
				RowsPerPage: 500,
			});
			assert.ok(deleted.TotalItemCount! >= 1);
			assert.ok(
				deleted.Adverts!.every((advert) => advert.AdvertStatusID === 1),
				'sAdvertStatusIDs=1 returns deleted adverts only',
			);
		},
		ExpressPostAdvert: async (client) => {
			const before = await client.advertTrackingResponseLog({ sAdvertID: advertId() });
			const result = await client.expressPostAdvert({ sAdvertID: advertId() });
			assert.equal(result.Advert?.AdvertID, fixture.advert.AdvertID);
			assert.ok(result.Postings!.length >= 1);
			for (const posting of result.Postings!) assert.ok(posting.sPostDate && posting.sEstimatedExpireDate);
			const after = await client.advertTrackingResponseLog({ sAdvertID: advertId() });
			assert.equal(
				after.length,
				before.length + 2 * result.Postings!.length,
				'two tracking rows per express posting',
			);
			assert.ok(after.some((row) => /express post/i.test(row.Response ?? '')));
		},
		AddAdvert: async (client, binding) => {
			const identifier = `IT-${binding}-${Date.now()}`;
			const created = await client.addAdvert({
				sAdvertIdentifier: identifier,
				sJobTitle: `Integration tester (${binding})`,
				sPrimaryLocation: 'Leeds',
				sJobType: 'P',
				sSalaryFrom: '30000',
				sSalaryTo: '40000',
				sSalaryCurrency: 'GBP',
			});
			assert.ok(created.AdvertID! > 0);
			assert.ok(
				created.RedirectUrl!.startsWith(`${emulator.baseUrl}/`),
				`RedirectUrl ${created.RedirectUrl} is on the emulator's host`,
			);
			assert.match(created.LocationLookupLogs ?? '', /Leeds/);
			const found = await client.getAdvertPaged({
				sAdvertIdentifier: identifier,
				CurrentPage: 1,
				RowsPerPage: 5,
			});
			assert.equal(found.TotalItemCount, 1);
			assert.equal(found.Adverts![0].AdvertID, created.AdvertID);
			assert.equal(found.Adverts![0].AdvertTitle, `Integration tester (${binding})`);
			assert.equal(found.Adverts![0].SalaryCurrency, 'GBP');
		},
		AdvertTrackingResponseLog: async (client) => {
			const rows = await client.advertTrackingResponseLog({ sAdvertID: advertId() });
			assert.ok(rows.length >= 2);
			for (const row of rows) assert.ok(row.PostingID! > 0 && row.FeedID! > 0 && row.ErrorLevel !== undefined);
			const feedId = String(rows[0].FeedID);
			const narrowed = await client.advertTrackingResponseLog({ sAdvertID: advertId(), Destinations: [feedId] });
			assert.ok(narrowed.length >= 1 && narrowed.every((row) => String(row.FeedID) === feedId));
		},
		CandidateTagPartner: async (client, _binding, index) => {
			const application = applicationFor(index, 0);
			const result = await client.candidateTagPartner({
				sCandidateEmail: application.EmailAddress,
				PartnerTag: 'PartnerAccepted',
			});
			assert.equal(result.Success, true);
			assert.equal(result.Tag, 'PartnerAccepted');
			assert.equal(result.CandidateEmail, application.EmailAddress);
			const unknown = await client.candidateTagPartner({
				sCandidateEmail: 'nobody-at-all@nowhere.example',
				PartnerTag: 'PartnerAccepted',
			});
			assert.equal(unknown.Success, false);
		},
		CandidateTag: async (client, _binding, index) => {
			const application = applicationFor(index, 1);
			const result = await client.candidateTag({ sCandidateEmail: application.EmailAddress, Tag: 'Reviewed' });
			assert.equal(result.Success, true);
			assert.equal(result.CandidateID, application.CandidateID);
			assert.deepEqual(result.OrganisationID, [application.OrganisationID]);
		},
		QueryJobTitle: async (client) => {
			const titles = await client.queryJobTitle({ q: 'de' });
			assert.ok(titles.length >= 1);
			assert.ok(
				titles.some((title) => /developer/i.test(title.JobTitle ?? '')),
				`developer titles for 'de': ${titles.map((t) => t.JobTitle).join(', ')}`,
			);
			await assert.rejects(
				client.queryJobTitle({ q: 'd' }),
				(error: unknown) => error instanceof Error && /q/.test(error.message),
			);
		},
		GetLoginURL: async (client) => {
			const login = await client.getLoginURL({ returnUrl: '/adverts' });
			assert.equal(login.LoginSuccess, true);
			assert.equal(login.UserID, 1);
			assert.ok(login.RedirectUrl!.startsWith(`${emulator.baseUrl}/login/`));
			const refused = await client.getLoginURL({ sPassword: 'not-the-password' });
			assert.equal(refused.LoginSuccess, false);
			assert.equal(refused.RedirectUrl, undefined);
		},
		GetCurrency: async (client) => {
			const rows = await client.getCurrency({});
			const codes = rows.map((row) => row.Value);
			for (const code of ['GBP', 'EUR', 'USD']) assert.ok(codes.includes(code), `${code} in ${codes.join(',')}`);
			assert.deepEqual(
				rows.map((row) => row.SortOrder),
				[...rows.map((row) => row.SortOrder)].sort((a, b) => a! - b!),
			);
		},
		ApplicationScore: async (client, _binding, index) => {
			const application = fixture.applications.filter((a) => a.Ranking !== 'Suitable')[index];
			assert.ok(application, 'an application that is not yet Suitable');
			const advertBefore = await readAdvert(client);
			const start = Date.now();
			const result = await client.applicationScore({
				sAdvertID: advertId(),
				sAdvertCandidateID: String(application.AdvertCandidateID),
				sScore: 'S',
			});
			assert.equal(result.Success, true);
			const after = await readApplication(client, application.AdvertCandidateID!);
			assert.equal(after.Ranking, 'Suitable');
			assert.ok(
				Date.parse(after.LastScoreDate!) >= wholeSecondsAgo(start),
				`LastScoreDate ${after.LastScoreDate} is recent`,
			);
			const advertAfter = await readAdvert(client);
			assert.equal(advertAfter.Suitable, advertBefore.Suitable! + 1);
			const wasCounted = { Unsuitable: 'Unsuitable', MaybeSuitable: 'MaybeSuitable' } as const;
			const previous = application.Ranking as keyof typeof wasCounted;
			if (previous in wasCounted) assert.equal(advertAfter[previous], advertBefore[previous]! - 1);
			await assert.rejects(
				client.applicationScore({
					sAdvertID: advertId(),
					sAdvertCandidateID: String(application.AdvertCandidateID),
					sScore: 'X',
				}),
				(error: unknown) =>
					error instanceof SoapFaultError || (error as { code?: string }).code === 'MP_ERR_VALIDATION',
			);
		},
		AddAdvertCandidateNote: async (client, binding, index) => {
			const application = applicationFor(index, 2);
			const start = Date.now();
			const first = await client.addAdvertCandidateNote({
				sAdvertID: advertId(),
				sAdvertCandidateID: String(application.AdvertCandidateID),
				sSubject: 'Call',
				sBody: `Note from ${binding} <b>&amp;</b>`,
			});
			const second = await client.addAdvertCandidateNote({
				sAdvertID: advertId(),
				sAdvertCandidateID: String(application.AdvertCandidateID),
				sBody: 'Second note',
			});
			assert.ok(first.AdvertCandidateNoteID! > 0);
			assert.equal(second.AdvertCandidateNoteID, first.AdvertCandidateNoteID! + 1);
			const after = await readApplication(client, application.AdvertCandidateID!);
			assert.ok(Date.parse(after.LastNoteDate!) >= wholeSecondsAgo(start));
		},
		ApplicationProgress: async (client, _binding, index) => {
			const application = applicationFor(index, 4);
			const start = Date.now();
			const result = await client.applicationProgress({
				sAdvertID: advertId(),
				sAdvertCandidateID: String(application.AdvertCandidateID),
				sProgressID: '3',
			});
			assert.equal(result.Success, true);
			const after = await readApplication(client, application.AdvertCandidateID!);
			assert.equal(after.ProgressID, 3);
			assert.equal(after.Progress, 'Shortlisted');
			assert.ok(Date.parse(after.LastProgressDate!) >= wholeSecondsAgo(start));
			await assert.rejects(
				client.applicationProgress({
					sAdvertID: advertId(),
					sAdvertCandidateID: String(application.AdvertCandidateID),
					sProgressID: '999',
				}),
				SoapFaultError,
			);
		},
		GetApplicationsPaged: async (client) => {
			const plain = await client.getApplicationsPaged({ sAdvertID: advertId(), CurrentPage: 1, RowsPerPage: 3 });
			assert.equal(plain.TotalItemCount, fixture.applications.length);
			assert.equal(plain.PageCount, Math.ceil(fixture.applications.length / 3));
			for (const application of plain.Applications!) {
				assert.equal(application.AdvertID, fixture.advert.AdvertID);
				assert.equal(application.EmailBody, undefined, 'no documents unless asked for');
				assert.equal(application.Parsed, undefined);
				assert.equal(application.Email, undefined);
				assert.equal(application.EmailFirstAttachment, undefined);
			}
			const withDocs = await client.getApplicationsPaged({
				sAdvertID: advertId(),
				boolIncludeEmailBody: 'true',
				boolIncludeParsed: 'true',
				CurrentPage: 1,
				RowsPerPage: 3,
			});
			for (const application of withDocs.Applications!) {
				assert.ok((application.EmailBody?.Document ?? '').length > 0, 'EmailBody carries the body text');
				assert.ok((application.Parsed?.DocumentBytes?.length ?? 0) > 0, 'Parsed carries HR-XML bytes');
				assert.equal(application.Email, undefined, 'Email not asked for');
			}
			const suitable = await client.getApplicationsPaged({
				sAdvertID: advertId(),
				RankingAsCSV: 'Suitable',
				CurrentPage: 1,
				RowsPerPage: 100,
			});
			assert.ok(suitable.TotalItemCount! < fixture.applications.length);
			assert.ok(suitable.Applications!.every((application) => application.Ranking === 'Suitable'));
			await assert.rejects(
				client.getApplicationsPaged({ CurrentPage: 1, RowsPerPage: 3 }),
				(error: unknown) => error instanceof Error && /filter/i.test(error.message),
			);
		},
		UserList: async (client) => {
			const users = await client.userList({});
			const names = users.map((user) => user.Username);
			for (const name of ['demo.admin', 'north.admin', 'london.recruiter']) {
				assert.ok(names.includes(name), `${name} listed`);
			}
			assert.ok(!names.includes('globex.admin'), 'users of another organisation tree are not listed');
			assert.ok(!names.includes('former.recruiter'), 'inactive users are not listed');
			for (const user of users) {
				assert.ok(user.Password === undefined || user.Password === '', `no password for ${user.Username}`);
			}
			const north = await client.userList({ sStartOrganisation: 'acme-north' });
			assert.ok(north.length >= 1 && north.length < users.length);
			assert.ok(north.every((user) => [2, 4, 5].includes(user.OrganisationID!)));
		},
		FeedQuotaList: async (client) => {
			const quotas = await client.feedQuotaList({});
			assert.ok(quotas.length >= 10);
			for (const quota of quotas) assert.ok(quota.FeedName);
			const one = await client.feedQuotaList({ DestinationsAsCSV: '108' });
			assert.equal(one.length, 1);
		},
		GetWeeksToAdvertise: async (client) => {
			const rows = await client.getWeeksToAdvertise({});
			assert.deepEqual(
				rows.map((row) => row.Value),
				['1', '2', '3', '4', '6', '8'],
			);
		},
		FeedList: async (client) => {
			const all = await client.feedList({});
			const some = await client.feedList({ sFeedNameSearch: 'total' });
			assert.ok(all.length >= 10);
			assert.ok(some.length >= 1 && some.length < all.length, 'sFeedNameSearch narrows the list');
		},
	} satisfies Record<OperationName, Check>;

	it('covers all 20 operations', () => {
		assert.deepEqual(Object.keys(checks).sort(), [...OPERATION_NAMES].sort());
		assert.equal(OPERATION_NAMES.length, 20);
	});

	BINDING_NAMES.forEach((binding, index) => {
		describe(binding, () => {
			for (const operation of OPERATION_NAMES) {
				it(operation, async () => {
					await checks[operation](clients.get(binding)!, binding, index);
				});
			}
		});
	});

	describe('the same read decodes to the same result in all four bindings', () => {
		const reads: { name: string; call: (client: MultipostingClient, binding: BindingName) => Promise<unknown> }[] =
			[
				{ name: 'GetCurrency', call: (c, binding) => c.call('GetCurrency', {}, { binding }) },
				{ name: 'GetWeeksToAdvertise', call: (c, binding) => c.call('GetWeeksToAdvertise', {}, { binding }) },
				{ name: 'QueryJobTitle', call: (c, binding) => c.call('QueryJobTitle', { q: 'man' }, { binding }) },
				{ name: 'UserList', call: (c, binding) => c.call('UserList', {}, { binding }) },
				{ name: 'FeedList', call: (c, binding) => c.call('FeedList', {}, { binding }) },
				{ name: 'FeedQuotaList', call: (c, binding) => c.call('FeedQuotaList', {}, { binding }) },
				{
					name: 'UserFeedsAndQuotaWithDestinations',
					call: (c, binding) => c.call('UserFeedsAndQuotaWithDestinations', {}, { binding }),
				},
				{
					name: 'GetAdvertPaged',
					call: (c, binding) =>
						c.call(
							'GetAdvertPaged',
							{ sSearchDays: ALL_TIME, CurrentPage: 2, RowsPerPage: 20 },
							{ binding },
						),
				},
				{
					name: 'GetAdvertWithValuesPaged',
					call: (c, binding) =>
						c.call(
							'GetAdvertWithValuesPaged',
							{ sSearchDays: ALL_TIME, CurrentPage: 1, RowsPerPage: 10 },
							{ binding },
						),
				},
				{
					name: 'GetAdvertWithValues',
					call: (c, binding) => c.call('GetAdvertWithValues', { sAdvertID: advertId() }, { binding }),
				},
				{
					name: 'AdvertTrackingResponseLog',
					call: (c, binding) => c.call('AdvertTrackingResponseLog', { sAdvertID: advertId() }, { binding }),
				},
				{
					name: 'GetApplicationsPaged with all documents',
					call: (c, binding) =>
						c.call(
							'GetApplicationsPaged',
							{
								sAdvertID: advertId(),
								boolIncludeEmailBody: 'true',
								boolIncludeAttachment: 'true',
								boolIncludeParsed: 'true',
								boolIncludeEmail: 'true',
								CurrentPage: 1,
								RowsPerPage: 5,
							},
							{ binding },
						),
				},
			];
		for (const read of reads) {
			it(read.name, async () => {
				const results = [];
				for (const binding of BINDING_NAMES) results.push(await read.call(clients.get(binding)!, binding));
				for (let i = 1; i < results.length; i++) {
					assert.deepEqual(results[i], results[0], `${BINDING_NAMES[i]} differs from ${BINDING_NAMES[0]}`);
				}
			});
		}
	});
});
