import * as assert from 'node:assert/strict';
import type { AnyParams } from '../../../src/protocol/catalogue';
import { FaultError } from '../../../src/protocol/faults';
import type { RequestContext } from '../../../src/emulator/domain/context';
import { NORTH_API_KEY, OTHER_TREE_API_KEY } from '../../../src/emulator/domain/seed';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';

const NOW = new Date('2026-11-22T12:00:00Z');
const ctx: RequestContext = { endpoint: 'posting', binding: 'soap11', baseUrl: 'http://127.0.0.1:5123', now: NOW };

function faultOf(run: () => unknown): string | undefined {
	try {
		run();
	} catch (error) {
		if (error instanceof FaultError) return error.fault.subcode;
		throw error;
	}
	return undefined;
}

describe('emulator operations', () => {
	let sandbox: Sandbox;
	let key: AnyParams;
	let login: AnyParams;
	/** An Acme advert (status Created) with unranked applications. */
	let advertId: string;
	/** Two Acme applications whose email bodies carry hostile markup (every 12th application). */
	let hostileIds: number[];
	before(() => {
		sandbox = openSandbox({ dataDir: ':memory:', now: NOW, passwordCost: 1024 });
		key = { sAPIKey: sandbox.demo.apiKey };
		login = { ...key, sUsername: sandbox.demo.username, sPassword: sandbox.demo.password };
		const acme = [1, 2, 3, 4, 5, 6, 7];
		const applications = sandbox.store.applications.search(
			{ organisationIds: acme },
			[{ field: 'AdvertCandidateID', descending: false }],
			{ offset: 0, limit: 500 },
		).rows;
		advertId = String(
			applications.find((a) => a.ranking === 0 && sandbox.store.adverts.byId(a.advertId)!.statusId === 0)!
				.advertId,
		);
		hostileIds = applications
			.filter((a) => a.id % 12 === 0)
			.slice(0, 2)
			.map((a) => a.id);
	});
	after(() => sandbox.close());

	const h = () => sandbox.handlers;
	const allTime = { sSearchDays: '-1' };

	describe('authentication and scope', () => {
		it('rejects an unknown API key on every operation', () => {
			for (const operation of Object.keys(sandbox.handlers) as (keyof typeof sandbox.handlers)[]) {
				assert.equal(
					faultOf(() => sandbox.handlers[operation]({ sAPIKey: 'wrong' }, ctx)),
					'AuthenticationFailed',
					operation,
				);
			}
		});

		it('rejects a wrong password and a user outside the key tree alike (no existence oracle)', () => {
			assert.equal(
				faultOf(() => h().UserFeedsAndQuotaWithDestinations({ ...login, sPassword: 'nope' }, ctx)),
				'AuthenticationFailed',
			);
			assert.equal(
				faultOf(() =>
					h().UserFeedsAndQuotaWithDestinations(
						{ ...key, sUsername: 'globex.admin', sPassword: sandbox.demo.password },
						ctx,
					),
				),
				'AuthenticationFailed',
			);
			assert.equal(
				faultOf(() =>
					h().UserFeedsAndQuotaWithDestinations(
						{ sAPIKey: NORTH_API_KEY, sUsername: 'london.recruiter', sPassword: sandbox.demo.password },
						ctx,
					),
				),
				'AuthenticationFailed',
			);
		});

		it('answers sStartOrganisation and sUsername outside the key tree as unknown ones', () => {
			const paging = { CurrentPage: 1, RowsPerPage: 10 };
			assert.equal(
				faultOf(() => h().GetAdvertPaged({ ...key, ...paging, sStartOrganisation: 'globex' }, ctx)),
				'NotFound',
			);
			assert.equal(
				faultOf(() =>
					h().GetAdvertPaged({ sAPIKey: NORTH_API_KEY, ...paging, sStartOrganisation: 'acme-london' }, ctx),
				),
				'NotFound',
			);
			assert.equal(
				faultOf(() => h().GetAdvertPaged({ ...key, ...paging, sUsername: 'berlin.recruiter' }, ctx)),
				'NotFound',
			);
		});

		it('never returns adverts or applications outside the key tree', () => {
			const north = h().GetAdvertPaged(
				{ sAPIKey: NORTH_API_KEY, ...allTime, CurrentPage: 1, RowsPerPage: 500 },
				ctx,
			);
			assert.ok(north.TotalItemCount! > 0);
			assert.ok(north.Adverts!.every((a) => [2, 4, 5].includes(a.OrganisationID!)));
			const globex = h().GetApplicationsPaged(
				{
					sAPIKey: OTHER_TREE_API_KEY,
					sApplicationStartDateTime: '2000-01-01',
					CurrentPage: 1,
					RowsPerPage: 500,
				},
				ctx,
			);
			assert.ok(globex.Applications!.every((a) => [8, 9].includes(a.OrganisationID!)));
		});

		it('limits a search to sStartOrganisation (id or identifier) and to sUsername / sUserIdentifier', () => {
			const byIdentifier = h().GetAdvertPaged(
				{ ...key, ...allTime, sStartOrganisation: 'acme-north', CurrentPage: 1, RowsPerPage: 500 },
				ctx,
			);
			const byId = h().GetAdvertPaged(
				{ ...key, ...allTime, sStartOrganisation: '2', CurrentPage: 1, RowsPerPage: 500 },
				ctx,
			);
			assert.deepEqual(byId, byIdentifier);
			const mine = h().GetAdvertPaged(
				{ ...key, ...allTime, sUsername: 'london.recruiter', CurrentPage: 1, RowsPerPage: 500 },
				ctx,
			);
			assert.ok(mine.TotalItemCount! > 0 && mine.Adverts!.every((a) => a.UserID === 7));
			const byUserId = h().GetAdvertPaged(
				{ ...key, ...allTime, sUserIdentifier: '7', CurrentPage: 1, RowsPerPage: 500 },
				ctx,
			);
			assert.equal(byUserId.TotalItemCount, mine.TotalItemCount);
		});
	});

	describe('advert searches', () => {
		it('pages with PageCount, PageIndex and TotalItemCount; CurrentPage 0 reads as 1', () => {
			const first = h().GetAdvertPaged({ ...key, ...allTime, CurrentPage: 0, RowsPerPage: 7 }, ctx);
			const second = h().GetAdvertPaged({ ...key, ...allTime, CurrentPage: 2, RowsPerPage: 7 }, ctx);
			assert.equal(first.PageIndex, 1);
			assert.equal(first.PageCount, Math.ceil(first.TotalItemCount! / 7));
			assert.equal(first.Adverts!.length, 7);
			const ids = new Set([...first.Adverts!, ...second.Adverts!].map((a) => a.AdvertID));
			assert.equal(ids.size, 14);
		});

		it('rejects pages larger than the maximum and unknown OrderBy fields', () => {
			assert.equal(
				faultOf(() => h().GetAdvertPaged({ ...key, CurrentPage: 1, RowsPerPage: 501 }, ctx)),
				'InvalidParameter',
			);
			assert.equal(
				faultOf(() =>
					h().GetAdvertPaged({ ...key, CurrentPage: 1, RowsPerPage: 5, OrderBy: 'Salary desc' }, ctx),
				),
				'InvalidParameter',
			);
			assert.equal(
				faultOf(() => h().GetAdvertPaged({ ...key, RowsPerPage: 5 }, ctx)),
				'MissingParameter',
			);
		});

		it('sorts by a whitelisted field', () => {
			const page = h().GetAdvertPaged(
				{ ...key, ...allTime, CurrentPage: 1, RowsPerPage: 50, OrderBy: 'AdvertTitle asc' },
				ctx,
			);
			const titles = page.Adverts!.map((a) => a.AdvertTitle!.toLowerCase());
			assert.deepEqual(titles, [...titles].sort());
		});

		it('applies sSearchDays (default 30), status filter and sHideFutureJobs', () => {
			const recent = h().GetAdvertPaged({ ...key, CurrentPage: 1, RowsPerPage: 500 }, ctx);
			const cutoff = '2026-10-23T12:00:00Z';
			assert.ok(
				recent.Adverts!.every(
					(a) => (a.LastPostDate ?? sandbox.store.adverts.byId(a.AdvertID!)!.createdAt) >= cutoff,
				),
			);
			const all = h().GetAdvertPaged({ ...key, ...allTime, CurrentPage: 1, RowsPerPage: 500 }, ctx);
			assert.ok(recent.TotalItemCount! < all.TotalItemCount!);
			assert.ok(recent.Adverts!.every((a) => a.AdvertStatusID !== 1));
			const deleted = h().GetAdvertPaged(
				{ ...key, ...allTime, sAdvertStatusIDs: '1', CurrentPage: 1, RowsPerPage: 500 },
				ctx,
			);
			assert.ok(deleted.TotalItemCount! > 0 && deleted.Adverts!.every((a) => a.AdvertStatusID === 1));
			const future = sandbox.store.adverts
				.search({ organisationIds: [1, 2, 3, 4, 5, 6, 7], statusIds: [0, 16] }, [])
				.rows.filter((a) => a.scheduledPostAt !== null && a.scheduledPostAt > NOW.toISOString());
			assert.ok(future.length > 0);
			const hidden = h().GetAdvertPaged(
				{ ...key, ...allTime, sHideFutureJobs: 'true', CurrentPage: 1, RowsPerPage: 500 },
				ctx,
			);
			assert.equal(hidden.TotalItemCount, all.TotalItemCount! - future.length);
		});

		it('rejects bad filter values naming the parameter', () => {
			assert.throws(
				() => h().GetAdvertPaged({ ...key, sAdvertID: 'abc', CurrentPage: 1, RowsPerPage: 5 }, ctx),
				(e: FaultError) => e.fault.subcode === 'InvalidParameter' && /sAdvertID/.test(e.message),
			);
			assert.equal(
				faultOf(() =>
					h().GetAdvertPaged({ ...key, sLastScoreDate: 'yesterday', CurrentPage: 1, RowsPerPage: 5 }, ctx),
				),
				'InvalidParameter',
			);
			assert.equal(
				faultOf(() =>
					h().GetAdvertPaged({ ...key, sHideFutureJobs: 'maybe', CurrentPage: 1, RowsPerPage: 5 }, ctx),
				),
				'InvalidParameter',
			);
		});

		it('filters extra values by FieldIDsAsCSV and DestinationsAsCSV', () => {
			const advert = h().GetAdvertWithValues({ ...key, ...allTime, sAdvertID: advertId }, ctx)[0];
			assert.ok(advert.AdvertValues!.length >= 2);
			const skills = h().GetAdvertWithValues({ ...key, sAdvertID: advertId, FieldIDsAsCSV: 'Skills' }, ctx)[0];
			assert.deepEqual(
				skills.AdvertValues!.map((v) => v.FieldIdentifier),
				['Skills'],
			);
			assert.equal(skills.AdvertValues![0].Values!.length, 3);
			const feedValue = advert.AdvertValues!.find((v) => v.FeedID !== 0);
			if (feedValue) {
				const onlyFeed = h().GetAdvertWithValuesPaged(
					{
						...key,
						sAdvertID: advertId,
						DestinationsAsCSV: String(feedValue.FeedID),
						CurrentPage: 1,
						RowsPerPage: 5,
					},
					ctx,
				);
				assert.ok(
					onlyFeed.AdvertWithValues![0].AdvertValues!.every(
						(v) => v.FeedID === 0 || v.FeedID === feedValue.FeedID,
					),
				);
			}
		});
	});

	describe('applications', () => {
		it('requires a filter and paging', () => {
			assert.equal(
				faultOf(() => h().GetApplicationsPaged({ ...key, CurrentPage: 1, RowsPerPage: 5 }, ctx)),
				'MissingFilter',
			);
			assert.equal(
				faultOf(() => h().GetApplicationsPaged({ ...key, sAdvertID: advertId }, ctx)),
				'MissingParameter',
			);
			assert.equal(
				faultOf(() =>
					h().GetApplicationsPaged(
						{ ...key, sAdvertID: advertId, RankingAsCSV: 'Great', CurrentPage: 1, RowsPerPage: 5 },
						ctx,
					),
				),
				'InvalidParameter',
			);
		});

		it('filters by advert, rankings (names or numbers) and date range, in the default order', () => {
			const page = h().GetApplicationsPaged(
				{
					...key,
					sApplicationStartDateTime: '2026-10-01 00:00:00',
					sApplicationEndDateTime: '2026-11-22 12:00:00',
					RankingAsCSV: 'Suitable,2',
					CurrentPage: 1,
					RowsPerPage: 200,
				},
				ctx,
			);
			assert.ok(page.TotalItemCount! > 0);
			assert.ok(
				page.Applications!.every(
					(a) =>
						['Suitable', 'MaybeSuitable'].includes(a.Ranking!) &&
						a.ApplicationDate! >= '2026-10-01T00:00:00Z',
				),
			);
			const active = page.Applications!.filter((a) => !a.Archived);
			const scores = active.map((a) => a.Score!);
			assert.deepEqual(
				scores,
				[...scores].sort((x, y) => y - x),
			);
		});

		it('returns documents only when asked, and the hostile body as stored', () => {
			const plain = h().GetApplicationsPaged(
				{ ...key, AdvertCandidateIDAsCSV: hostileIds.join(','), CurrentPage: 1, RowsPerPage: 5 },
				ctx,
			);
			assert.deepEqual(
				plain.Applications!.map((a) => a.AdvertCandidateID!).sort((x, y) => x - y),
				hostileIds,
			);
			assert.ok(
				plain.Applications!.every(
					(a) =>
						a.EmailBody === undefined &&
						a.Email === undefined &&
						a.Parsed === undefined &&
						a.EmailFirstAttachment === undefined,
				),
			);
			const full = h().GetApplicationsPaged(
				{
					...key,
					AdvertCandidateIDAsCSV: String(hostileIds[0]),
					boolIncludeEmailBody: 'TRUE',
					boolIncludeAttachment: '1',
					boolIncludeParsed: 'true',
					boolIncludeEmail: 'true',
					CurrentPage: 1,
					RowsPerPage: 5,
				},
				ctx,
			);
			const application = full.Applications![0];
			assert.match(
				application.EmailBody!.Document!,
				/<script|onerror|javascript:|url\(|<svg|<iframe|<form|tracker/,
			);
			assert.ok(application.EmailFirstAttachment!.DocumentBytes instanceof Uint8Array);
			assert.match(
				new TextDecoder().decode(application.Parsed!.DocumentBytes),
				/<Candidate[\s\S]*<EmploymentHistory>/,
			);
			assert.match(new TextDecoder().decode(application.Email!.DocumentBytes), /^From: /);
		});

		it('scores, keeps advert counters consistent and filters by sLastScoreDate', () => {
			const target = h().GetApplicationsPaged(
				{ ...key, sAdvertID: advertId, RankingAsCSV: 'Unranked', CurrentPage: 1, RowsPerPage: 1 },
				ctx,
			).Applications![0];
			const before = h().GetAdvertPaged(
				{ ...key, sAdvertID: advertId, sAdvertStatusIDs: '0,1,16', CurrentPage: 1, RowsPerPage: 1 },
				ctx,
			).Adverts![0];
			const later: RequestContext = { ...ctx, now: new Date('2026-11-22T12:30:00Z') };
			assert.deepEqual(
				h().ApplicationScore(
					{
						...login,
						sAdvertID: advertId,
						sAdvertCandidateID: String(target.AdvertCandidateID),
						sScore: 's',
					},
					later,
				),
				{ Success: true },
			);
			const after = h().GetAdvertPaged(
				{ ...key, sAdvertID: advertId, sAdvertStatusIDs: '0,1,16', CurrentPage: 1, RowsPerPage: 1 },
				ctx,
			).Adverts![0];
			assert.equal(after.Suitable, before.Suitable! + 1);
			assert.equal(after.LastScoreDate, '2026-11-22T12:30:00Z');
			const scored = h().GetApplicationsPaged(
				{ ...key, sAdvertID: advertId, sLastScoreDate: '2026-11-22 12:30:00', CurrentPage: 1, RowsPerPage: 10 },
				ctx,
			);
			assert.deepEqual(
				scored.Applications!.map((a) => a.AdvertCandidateID),
				[target.AdvertCandidateID],
			);
			h().ApplicationScore(
				{ ...login, sAdvertID: advertId, sAdvertCandidateID: String(target.AdvertCandidateID), sScore: 'F' },
				later,
			);
			let row = sandbox.store.applications.byId(target.AdvertCandidateID!)!;
			assert.equal(row.favourite, 1);
			assert.equal(row.ranking, 4);
			h().ApplicationScore(
				{ ...login, sAdvertID: advertId, sAdvertCandidateID: String(target.AdvertCandidateID), sScore: 'N' },
				later,
			);
			row = sandbox.store.applications.byId(target.AdvertCandidateID!)!;
			assert.deepEqual([row.ranking, row.favourite], [0, 0]);
		});

		// A bad letter never reaches the handler: the rules refuse it first (test/emulator/server/pipeline.test.ts).
		it('rejects an application of another advert and a user who cannot see the advert', () => {
			const other = sandbox.store.applications.search({ organisationIds: [1, 2, 3, 4, 5, 6, 7] }, [], {
				offset: 0,
				limit: 1,
			}).rows[0];
			const wrongAdvert = String(other.advertId === Number(advertId) ? Number(advertId) + 1 : advertId);
			assert.equal(
				faultOf(() =>
					h().ApplicationScore(
						{ ...login, sAdvertID: wrongAdvert, sAdvertCandidateID: String(other.id), sScore: 'S' },
						ctx,
					),
				),
				'NotFound',
			);
			const foreign = sandbox.store.applications
				.search({ organisationIds: [1, 2, 3, 4, 5, 6, 7] }, [], { offset: 0, limit: 500 })
				.rows.find((a) => a.userId !== 6)!;
			const leeds = {
				...key,
				sUsername: 'leeds.recruiter',
				sPassword: sandbox.demo.password,
				sAdvertID: String(foreign.advertId),
				sAdvertCandidateID: String(foreign.id),
			};
			const before = sandbox.store.applications.byId(foreign.id)!;
			assert.equal(
				faultOf(() => h().ApplicationProgress({ ...leeds, sProgressID: '3' }, ctx)),
				'AccessDenied',
			);
			assert.deepEqual(sandbox.store.applications.byId(foreign.id), before);
			// Acting as the job owner does not widen access...
			assert.equal(
				faultOf(() =>
					h().ApplicationProgress({ ...leeds, sProgressID: '4', sProgressAsJobOwner: 'true' }, ctx),
				),
				'AccessDenied',
			);
			assert.deepEqual(sandbox.store.applications.byId(foreign.id), before);
			// ...it records the action as the owner's, for a user who sees the advert.
			assert.deepEqual(
				h().ApplicationProgress(
					{
						...login,
						sAdvertID: leeds.sAdvertID,
						sAdvertCandidateID: leeds.sAdvertCandidateID,
						sProgressID: '4',
						sProgressAsJobOwner: 'true',
					},
					ctx,
				),
				{ Success: true },
			);
			const progressed = sandbox.store.applications.byId(foreign.id)!;
			assert.equal(progressed.progressId, 4);
			assert.equal(
				faultOf(() =>
					h().ApplicationProgress({ ...leeds, sProgressID: '99', sProgressAsJobOwner: 'true' }, ctx),
				),
				'InvalidParameter',
			);
		});

		it('adds notes with new ids and sets LastNoteDate', () => {
			const app = sandbox.store.applications.search({ organisationIds: [1, 2, 3, 4, 5, 6, 7] }, [], {
				offset: 0,
				limit: 1,
			}).rows[0];
			const params = {
				...login,
				sAdvertID: String(app.advertId),
				sAdvertCandidateID: String(app.id),
				sSubject: 'Call',
				sBody: 'Left a voicemail.',
			};
			const first = h().AddAdvertCandidateNote(params, ctx).AdvertCandidateNoteID!;
			const second = h().AddAdvertCandidateNote(params, ctx).AdvertCandidateNoteID!;
			assert.ok(second > first);
			assert.equal(sandbox.store.applications.byId(app.id)!.lastNoteDate, '2026-11-22T12:00:00Z');
			assert.equal(
				faultOf(() => h().AddAdvertCandidateNote({ ...params, sBody: '' }, ctx)),
				'MissingParameter',
			);
		});
	});

	describe('more filters and failures', () => {
		it('rejects conflicting user filters, empty pages, huge windows and oversized lists', () => {
			const paging = { CurrentPage: 1, RowsPerPage: 10 };
			assert.equal(
				faultOf(() =>
					h().GetAdvertPaged({ ...key, ...paging, sUsername: 'demo.admin', sUserIdentifier: '7' }, ctx),
				),
				'InvalidParameter',
			);
			assert.equal(
				faultOf(() => h().GetAdvertPaged({ ...key, CurrentPage: 1, RowsPerPage: 0 }, ctx)),
				'InvalidParameter',
			);
			assert.equal(
				faultOf(() => h().GetAdvertPaged({ ...key, ...paging, sSearchDays: '999999999' }, ctx)),
				'InvalidParameter',
			);
			const ids = Array.from({ length: 1001 }, (_, i) => i + 1).join(',');
			assert.equal(
				faultOf(() => h().GetApplicationsPaged({ ...key, ...paging, AdvertCandidateIDAsCSV: ids }, ctx)),
				'InvalidParameter',
			);
			assert.equal(
				faultOf(() =>
					h().GetApplicationsPaged({ ...key, ...paging, sAdvertID: advertId, ProgressIDAsCSV: '42' }, ctx),
				),
				'InvalidParameter',
			);
			assert.equal(
				faultOf(() =>
					h().GetApplicationsPaged(
						{
							...key,
							...paging,
							sApplicationStartDateTime: '2026-11-02',
							sApplicationEndDateTime: '2026-11-01',
						},
						ctx,
					),
				),
				'InvalidParameter',
			);
		});

		it('filters applications by destination (id or identifier) and progress', () => {
			const byId = h().GetApplicationsPaged(
				{
					...key,
					sApplicationStartDateTime: '2000-01-01',
					DestinationsAsCSV: '108',
					CurrentPage: 1,
					RowsPerPage: 500,
				},
				ctx,
			);
			const byName = h().GetApplicationsPaged(
				{
					...key,
					sApplicationStartDateTime: '2000-01-01',
					DestinationsAsCSV: 'totaljobs',
					CurrentPage: 1,
					RowsPerPage: 500,
				},
				ctx,
			);
			assert.ok(
				byId.TotalItemCount! > 0 &&
					byId.Applications!.every((a) => a.FeedID === 108 && a.FeedName === 'Totaljobs'),
			);
			assert.equal(byName.TotalItemCount, byId.TotalItemCount);
			const shortlisted = h().GetApplicationsPaged(
				{
					...key,
					sApplicationStartDateTime: '2000-01-01',
					ProgressIDAsCSV: '3,5',
					CurrentPage: 1,
					RowsPerPage: 500,
				},
				ctx,
			);
			assert.ok(
				shortlisted.TotalItemCount! > 0 &&
					shortlisted.Applications!.every(
						(a) =>
							(a.ProgressID === 3 && a.Progress === 'Shortlisted') ||
							(a.ProgressID === 5 && a.Progress === 'Offer'),
					),
			);
		});

		it('never returns Parsed where parsing is not activated (Globex)', () => {
			const page = h().GetApplicationsPaged(
				{
					sAPIKey: OTHER_TREE_API_KEY,
					sApplicationStartDateTime: '2000-01-01',
					boolIncludeParsed: 'true',
					boolIncludeEmailBody: 'true',
					CurrentPage: 1,
					RowsPerPage: 5,
				},
				ctx,
			);
			assert.ok(page.Applications!.length > 0);
			assert.ok(page.Applications!.every((a) => a.Parsed === undefined && a.EmailBody !== undefined));
		});

		it('AdvertTrackingResponseLog checks advert, posting and scope', () => {
			assert.equal(
				faultOf(() => h().AdvertTrackingResponseLog(key, ctx)),
				'MissingParameter',
			);
			const globexAdvert = sandbox.store.adverts.search({ organisationIds: [8, 9] }, []).rows[0];
			assert.equal(
				faultOf(() => h().AdvertTrackingResponseLog({ ...key, sAdvertID: String(globexAdvert.id) }, ctx)),
				'NotFound',
			);
			const logs = h().AdvertTrackingResponseLog({ ...key, sAdvertID: advertId }, ctx);
			assert.ok(logs.length >= 2);
			const postingId = logs[0].PostingID!;
			const onePosting = h().AdvertTrackingResponseLog(
				{ ...key, sAdvertID: advertId, sPostingID: String(postingId) },
				ctx,
			);
			assert.ok(onePosting.length > 0 && onePosting.every((l) => l.PostingID === postingId));
			const foreignPosting = h().AdvertTrackingResponseLog(
				{ sAPIKey: OTHER_TREE_API_KEY, sAdvertID: String(globexAdvert.id) },
				ctx,
			)[0]?.PostingID;
			if (foreignPosting !== undefined) {
				assert.equal(
					faultOf(() =>
						h().AdvertTrackingResponseLog(
							{ ...key, sAdvertID: advertId, sPostingID: String(foreignPosting) },
							ctx,
						),
					),
					'NotFound',
				);
			}
		});

		it('a failing mutation writes nothing', () => {
			const before = sandbox.store.counts();
			// StepStone (112) is configured for Globex only.
			assert.equal(
				faultOf(() =>
					h().AddAdvert({ ...login, sAdvertIdentifier: 'NOPE-1', DestinationsAsCSV: '108,112' }, ctx),
				),
				'InvalidParameter',
			);
			h().AddAdvert({ ...login, sAdvertIdentifier: 'ONCE-1' }, ctx);
			const afterFirst = sandbox.store.counts();
			assert.equal(afterFirst.advert, before.advert + 1);
			assert.equal(
				faultOf(() => h().AddAdvert({ ...login, sAdvertIdentifier: 'ONCE-1', sOnDuplicate: 'error' }, ctx)),
				'Duplicate',
			);
			assert.equal(
				faultOf(() =>
					h().ExpressPostAdvert({ ...key, sAdvertID: advertId, DestinationsAsCSV: 'StepStone' }, ctx),
				),
				'InvalidParameter',
			);
			assert.deepEqual(sandbox.store.counts(), afterFirst);
		});
	});

	describe('adverts and postings', () => {
		it('AddAdvert creates an advert with a completion URL, the job type as the catalogue spells it', () => {
			const result = h().AddAdvert(
				{
					...login,
					sAdvertIdentifier: 'NEW-1',
					sJobTitle: 'Baker',
					sJobType: 'p',
					sSalaryFrom: '20000',
					sSalaryTo: '25000',
					sPrimaryLocation: 'Leeds',
					sApplicationCallbackURL: 'https://ats.example/cb',
				},
				ctx,
			);
			assert.match(result.RedirectUrl!, /^http:\/\/127\.0\.0\.1:5123\/complete-posting\/[\w-]+$/);
			assert.equal(result.UserID, 1);
			const row = sandbox.store.adverts.byId(result.AdvertID!)!;
			assert.deepEqual(
				[row.title, row.jobType, row.latitude, row.callbackUrl],
				['Baker', 'P', '53.8008', 'https://ats.example/cb'],
			);
			// Formats and value sets are the catalogue's rules, checked before dispatch
			// (test/emulator/server/rulesBeforeDispatch.test.ts); the handler still reads URLs as http(s) only.
			assert.equal(
				faultOf(() => h().AddAdvert({ ...login, sApplicationURL: 'javascript:alert(1)' }, ctx)),
				'InvalidParameter',
			);
		});

		it('AddAdvert honours sOnDuplicate', () => {
			const first = h().AddAdvert({ ...login, sAdvertIdentifier: 'DUP-1', sJobTitle: 'One' }, ctx);
			assert.equal(
				h().AddAdvert({ ...login, sAdvertIdentifier: 'DUP-1', sOnDuplicate: 'ignore', sJobTitle: 'Two' }, ctx)
					.RedirectUrl,
				first.RedirectUrl,
			);
			assert.equal(sandbox.store.adverts.byId(first.AdvertID!)!.title, 'One');
			assert.equal(
				faultOf(() => h().AddAdvert({ ...login, sAdvertIdentifier: 'DUP-1', sOnDuplicate: 'error' }, ctx)),
				'Duplicate',
			);
			assert.equal(
				h().AddAdvert({ ...login, sAdvertIdentifier: 'DUP-1', sOnDuplicate: 'update', sJobTitle: 'Three' }, ctx)
					.AdvertID,
				first.AdvertID,
			);
			assert.equal(sandbox.store.adverts.byId(first.AdvertID!)!.title, 'Three');
			assert.notEqual(h().AddAdvert({ ...login, sAdvertIdentifier: 'DUP-1' }, ctx).AdvertID, first.AdvertID);
		});

		it('a future AddAdvert is hidden by sHideFutureJobs', () => {
			const result = h().AddAdvert(
				{ ...login, sAdvertIdentifier: 'FUT-1', sFuturePostDateTimeInUtc: '2026-12-01 09:00:00' },
				ctx,
			);
			const shown = h().GetAdvertPaged(
				{ ...key, sAdvertIdentifier: 'FUT-1', CurrentPage: 1, RowsPerPage: 5 },
				ctx,
			);
			const hidden = h().GetAdvertPaged(
				{ ...key, sAdvertIdentifier: 'FUT-1', sHideFutureJobs: '1', CurrentPage: 1, RowsPerPage: 5 },
				ctx,
			);
			assert.deepEqual(
				shown.Adverts!.map((a) => a.AdvertID),
				[result.AdvertID],
			);
			assert.equal(hidden.TotalItemCount, 0);
		});

		it('LastPostDate is unset (the .NET default on the wire) until a posting is made, then its date, as ExpressPostAdvert agrees', () => {
			const { AdvertID } = h().AddAdvert({ ...login, sAdvertIdentifier: 'LPD-1', sJobTitle: 'Porter' }, ctx);
			const read = () =>
				h().GetAdvertPaged(
					{ ...key, ...allTime, sAdvertID: String(AdvertID), CurrentPage: 1, RowsPerPage: 1 },
					ctx,
				).Adverts![0];
			const fresh = read();
			assert.equal(fresh.LastPostDate, undefined, 'never posted: written as 0001-01-01T00:00:00');
			assert.equal(fresh.sLastPostDate, undefined);
			const withValues = h().GetAdvertWithValues({ ...key, ...allTime, sAdvertID: String(AdvertID) }, ctx);
			assert.equal(withValues[0].Advert!.LastPostDate, undefined);
			assert.equal(
				faultOf(() => h().ExpressPostAdvert({ ...key, ...allTime, sAdvertID: String(AdvertID) }, ctx)),
				'InvalidParameter',
			);
			// A posting is made (the completion page queues it): the advert is posted from then on.
			sandbox.store.postings.insertPending({
				advertId: AdvertID!,
				feedId: 101,
				userId: 1,
				postedAt: '2026-11-22T12:00:00Z',
				estimatedExpireAt: '2026-12-22T12:00:00Z',
				dueAt: '2026-11-22T12:00:05Z',
			});
			assert.equal(read().LastPostDate, '2026-11-22T12:00:00Z');
			assert.ok(read().sLastPostDate, 'and its text rendering');
		});

		it('ExpressPostAdvert re-posts to earlier feeds with tracking logs, and rejects new feeds', () => {
			const advertId = sandbox.store.adverts
				.search({ organisationIds: [1, 2, 3, 4, 5, 6, 7], statusIds: [0] }, [])
				.rows.find((a) => sandbox.store.postings.postedFeedIds(a.id).length > 0)!.id;
			const feeds = sandbox.store.postings.postedFeedIds(advertId);
			const unused = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 113, 114, 115].find(
				(f) => !feeds.includes(f),
			)!;
			assert.equal(
				faultOf(() =>
					h().ExpressPostAdvert(
						{ ...key, sAdvertID: String(advertId), DestinationsAsCSV: String(unused) },
						ctx,
					),
				),
				'InvalidParameter',
			);
			const logsBefore = h().AdvertTrackingResponseLog({ ...key, sAdvertID: String(advertId) }, ctx).length;
			const later: RequestContext = { ...ctx, now: new Date('2026-11-22T13:00:00Z') };
			const result = h().ExpressPostAdvert(
				{ ...key, sAdvertID: String(advertId), DestinationsAsCSV: String(feeds[0]) },
				later,
			);
			assert.equal(result.Postings!.length, 1);
			assert.equal(result.Advert!.LastPostDate, '2026-11-22T13:00:00Z');
			const logs = h().AdvertTrackingResponseLog(
				{ ...key, sAdvertID: String(advertId), Destinations: [String(feeds[0])] },
				ctx,
			);
			assert.equal(
				h().AdvertTrackingResponseLog({ ...key, sAdvertID: String(advertId) }, ctx).length,
				logsBefore + 2,
			);
			assert.deepEqual(
				logs.slice(-2).map((l) => l.ErrorLevel),
				['Pending', 'None'],
			);
			assert.ok(logs.every((l) => l.FeedID === feeds[0]));
		});
	});

	describe('administration, lookups and tags', () => {
		it('UserList needs an administrator for others and never returns passwords', () => {
			const all = h().UserList(login, ctx);
			assert.ok(all.length >= 10);
			assert.ok(all.every((u) => u.Password === undefined && [1, 2, 3, 4, 5, 6, 7].includes(u.OrganisationID!)));
			const plain = { ...key, sUsername: 'leeds.recruiter', sPassword: sandbox.demo.password };
			assert.equal(
				faultOf(() => h().UserList(plain, ctx)),
				'AccessDenied',
			);
			assert.equal(
				faultOf(() => h().UserList({ ...plain, sUserIdentifier: '1' }, ctx)),
				'AccessDenied',
			);
			assert.deepEqual(
				h()
					.UserList({ ...plain, sUserIdentifier: 'U0006' }, ctx)
					.map((u) => u.Username),
				['leeds.recruiter'],
			);
			const south = h().UserList({ ...login, sStartOrganisation: 'acme-south' }, ctx);
			assert.ok(south.every((u) => [3, 6, 7].includes(u.OrganisationID!)));
		});

		it('FeedList and FeedQuotaList act for lower organisations and users', () => {
			const london = h().FeedQuotaList(
				{ ...login, sOrganisationIdentifier: 'acme-london', DestinationsAsCSV: 'Totaljobs' },
				ctx,
			);
			assert.equal(london.length, 1);
			assert.equal(london[0].FeedIdentifier, 'Totaljobs');
			const feeds = h().FeedList({ ...login, sUserIdentifier: '7', sFeedNameSearch: 'link' }, ctx);
			assert.deepEqual(
				feeds.map((f) => f.FeedIdentifier),
				['LinkedIn'],
			);
			assert.equal(
				faultOf(() =>
					h().FeedList(
						{
							...key,
							sUsername: 'leeds.recruiter',
							sPassword: sandbox.demo.password,
							sOrganisationIdentifier: 'acme-leeds',
						},
						ctx,
					),
				),
				'AccessDenied',
			);
		});

		it('lookups and job titles', () => {
			assert.ok(
				h()
					.GetCurrency(key, ctx)
					.some((row) => row.Value === 'GBP'),
			);
			assert.deepEqual(
				h()
					.GetWeeksToAdvertise(key, ctx)
					.map((row) => row.Value),
				['1', '2', '3', '4', '6', '8'],
			);
			assert.equal(
				faultOf(() => h().QueryJobTitle({ ...key, q: 'a' }, ctx)),
				'InvalidParameter',
			);
			const titles = h()
				.QueryJobTitle({ ...key, q: 'eng' }, ctx)
				.map((row) => row.JobTitle);
			assert.ok(titles.length > 0 && titles.every((title) => /eng/i.test(title!)));
		});

		it('GetLoginURL returns a one-time URL or LoginSuccess false', () => {
			const ok = h().GetLoginURL({ ...login, returnUrl: '/adverts' }, ctx);
			assert.equal(ok.LoginSuccess, true);
			const token = ok.RedirectUrl!.split('/login/')[1];
			assert.deepEqual(sandbox.store.loginTokens.consume(token, '2026-11-22T12:01:00Z'), {
				userId: 1,
				returnUrl: '/adverts',
			});
			assert.equal(sandbox.store.loginTokens.consume(token, '2026-11-22T12:01:00Z'), undefined);
			const expired = h().GetLoginURL(login, ctx).RedirectUrl!.split('/login/')[1];
			assert.equal(sandbox.store.loginTokens.consume(expired, '2026-11-22T12:06:00Z'), undefined);
			const bad = h().GetLoginURL({ ...login, sPassword: 'wrong' }, ctx);
			assert.deepEqual([bad.LoginSuccess, bad.RedirectUrl], [false, undefined]);
		});

		it('CandidateTag and CandidateTagPartner find candidates by email within the key tree', () => {
			const candidate = sandbox.store.applications.search({ organisationIds: [4] }, [], { offset: 0, limit: 1 })
				.rows[0];
			const tagged = h().CandidateTag(
				{ ...key, sCandidateEmail: candidate.email.toUpperCase(), Tag: 'Reviewed' },
				ctx,
			);
			assert.equal(tagged.Success, true);
			assert.deepEqual(tagged.OrganisationID, [4]);
			assert.deepEqual(
				sandbox.store.candidates.tags(candidate.candidateId).filter((t) => t.tag === 'Reviewed').length,
				1,
			);
			h().CandidateTagPartner({ ...key, sCandidateEmail: candidate.email, PartnerTag: 'partneraccepted' }, ctx);
			h().CandidateTagPartner({ ...key, sCandidateEmail: candidate.email, PartnerTag: 'PartnerBarred' }, ctx);
			assert.deepEqual(
				sandbox.store.candidates
					.tags(candidate.candidateId)
					.filter((t) => t.kind === 'partner')
					.map((t) => t.tag),
				['PartnerBarred'],
			);
			assert.equal(
				h().CandidateTag({ sAPIKey: OTHER_TREE_API_KEY, sCandidateEmail: candidate.email, Tag: 'x' }, ctx)
					.Success,
				false,
			);
		});

		it('UserFeedsAndQuotaWithDestinations lists the user feeds, filtered by Destinations', () => {
			const feeds = h().UserFeedsAndQuotaWithDestinations({ ...login, Destinations: ['108', 'Indeed'] }, ctx);
			assert.deepEqual(feeds.map((f) => f.FeedID).sort(), [101, 108]);
			assert.equal(
				faultOf(() => h().UserFeedsAndQuotaWithDestinations({ ...login, Destinations: ['Nowhere'] }, ctx)),
				'InvalidParameter',
			);
		});
	});
});
