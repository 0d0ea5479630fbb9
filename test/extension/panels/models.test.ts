import * as assert from 'node:assert/strict';
import {
	buildAdvertView,
	buildApplicationView,
	documentOf,
	feedValues,
	INCLUDE_FLAG,
	toAdvertRef,
	toApplicationRef,
} from '../../../src/extension/panels/models';
import { applicationParams } from '../../../src/extension/reads/queries';
import { APPLICATION_TABS, type DocumentTab } from '../../../src/shared/panelMessages';

describe('panel view models', function () {
	it('fetches a document with exactly the include flag of its tab, and the overview with none', function () {
		const ref = { advertId: 12, advertCandidateId: 3456 };
		assert.deepEqual(applicationParams(ref), {
			AdvertCandidateIDAsCSV: '3456',
			sAdvertID: '12',
			CurrentPage: 1,
			RowsPerPage: 1,
		});
		const tabs = APPLICATION_TABS.filter((t): t is DocumentTab => t !== 'overview');
		for (const tab of tabs) {
			const flags = Object.entries(applicationParams(ref, INCLUDE_FLAG[tab])).filter(([name]) =>
				name.startsWith('boolInclude'),
			);
			assert.equal(flags.length, 1, tab);
			assert.equal(flags[0][1], 'true');
		}
		assert.deepEqual(
			tabs.map((t) =>
				Object.keys(applicationParams(ref, INCLUDE_FLAG[t])).find((k) => k.startsWith('boolInclude')),
			),
			['boolIncludeEmailBody', 'boolIncludeAttachment', 'boolIncludeParsed', 'boolIncludeEmail'],
		);
		const app = {
			EmailBody: { Document: 'b' },
			EmailFirstAttachment: { FileName: 'a' },
			Parsed: { FileName: 'p' },
			Email: { FileName: 'e' },
		};
		assert.equal(documentOf(app, 'attachment')?.FileName, 'a');
		assert.equal(documentOf(app, 'email')?.FileName, 'e');
		assert.equal(documentOf(undefined, 'parsed'), undefined);
	});

	it('accepts refs, tree nodes and records as command arguments, and nothing else', function () {
		assert.deepEqual(toAdvertRef({ advertId: 5 }), { advertId: 5 });
		assert.deepEqual(
			toAdvertRef({
				data: {
					kind: 'advert',
					advert: { AdvertID: 7, AdvertIdentifier: 'X', AdvertReference: 'R', AdvertTitle: 'Chef' },
				},
			}),
			{ advertId: 7, advertIdentifier: 'X', advertReference: 'R', title: 'Chef' },
		);
		assert.equal(toAdvertRef({ advert: { AdvertID: 8 } })?.advertId, 8);
		assert.equal(toAdvertRef({ AdvertID: 9 })?.advertId, 9);
		for (const bad of [undefined, null, 'x', {}, { advertId: -1 }, { advertId: 1.5 }, { advertId: 'abc' }]) {
			assert.equal(toAdvertRef(bad), undefined);
		}
		assert.deepEqual(
			toApplicationRef({
				data: {
					kind: 'application',
					application: {
						AdvertID: 1,
						AdvertCandidateID: 2,
						EmailAddress: 'a@b.c',
						FirstName: 'A',
						LastName: 'B',
						Score: 66,
						Favourite: true,
						ProgressID: 3,
					},
				},
			}),
			{
				advertId: 1,
				advertCandidateId: 2,
				candidateEmail: 'a@b.c',
				firstName: 'A',
				lastName: 'B',
				score: 66,
				favourite: true,
				progressId: 3,
			},
		);
		assert.equal(toApplicationRef({ application: { AdvertID: 1, AdvertCandidateID: 2 } })?.advertCandidateId, 2);
		assert.equal(toApplicationRef({ advertId: 1, advertCandidateId: 2 })?.advertId, 1);
		assert.equal(toApplicationRef({ advertCandidateId: 2 }), undefined, 'an application needs its advert');
	});

	it('groups advert fields and names status values and codes in words', function () {
		const view = buildAdvertView({
			AdvertID: 3,
			AdvertTitle: 'Chef',
			AdvertType: 'T',
			AdvertHours: 'F',
			SalaryPer: 'Y',
			JobDescription: '<p>Cook <b>well</b></p><script>x</script>',
			SalaryFrom: '30000',
			SalaryTo: '35000',
			SalaryCurrency: 'GBP',
			AdvertStatusID: 16,
			LastDeliveryStatusID: 3,
			SalaryHide: false,
			sLastPostDate: '01/02/2026 10:00:00',
			LastPostDate: '2026-02-01T10:00:00Z',
			Applications: 4,
		});
		assert.deepEqual(
			view.groups.map((g) => g.title),
			['Job', 'Salary', 'Dates', 'Status'],
		);
		const find = (group: string, label: string) =>
			view.groups.find((g) => g.title === group)?.rows.find((r) => r.label === label)?.value;
		assert.equal(find('Salary', 'Range'), '30000 – 35000');
		assert.equal(find('Salary', 'Hidden'), 'No');
		assert.equal(find('Status', 'Advert status'), 'To Authorise');
		assert.equal(find('Status', 'Posting'), 'Failed');
		assert.equal(find('Job', 'Type'), 'Temporary');
		assert.equal(find('Job', 'Hours'), 'Full time');
		assert.equal(find('Salary', 'Per'), 'Year');
		assert.equal(find('Salary', 'Currency'), 'Pound sterling');
		assert.equal(view.posting, 'Failed');
		// The description goes to the webview as untrusted HTML (sanitised there), not as text.
		assert.equal(view.description.html, '<p>Cook <b>well</b></p><script>x</script>');
		assert.equal(
			buildAdvertView({ AdvertID: 4, JobDescription: 'Line 1\nA & B' }).description.html,
			'Line 1<br>A &amp; B',
		);
		// Dates keep the service's text and carry their instant for the webview to show in the user's locale.
		const posted = view.groups.find((g) => g.title === 'Dates')?.rows.find((r) => r.label === 'Last posted');
		assert.deepEqual(posted, { label: 'Last posted', value: '01/02/2026 10:00:00', iso: '2026-02-01T10:00:00Z' });
		const unset = buildAdvertView({ AdvertID: 4, LastPostDate: '0001-01-01T00:00:00', LastScoreDate: 'soon' });
		assert.deepEqual(unset.groups.find((g) => g.title === 'Dates')?.rows, [
			{ label: 'Last scored', value: 'soon' },
		]);
		assert.equal(view.counters[0].value, 4);
		assert.equal(view.counters[2].value, 0, 'absent counters are zero');
	});

	it('lists extra values per feed, only of the advert asked for', function () {
		const values = feedValues(3, [
			{
				Advert: { AdvertID: 3 },
				AdvertValues: [
					{ FeedID: 0, FieldIdentifier: 'Benefit', Value: 'Pension' },
					{ FeedID: 108, FieldID: 9, Values: ['a', 'b'] },
					{ FeedID: 107, FieldIdentifier: 'Sector', Value: 'Care' },
				],
			},
			{ Advert: { AdvertID: 4 }, AdvertValues: [{ FeedID: 1, FieldIdentifier: 'Other', Value: 'x' }] },
		]);
		assert.deepEqual(values, [
			{ feed: 'All job boards', rows: [{ label: 'Benefit', value: 'Pension' }] },
			{ feed: 'Job board 108', rows: [{ label: 'Field 9', value: 'a, b' }] },
			{ feed: 'Job board 107', rows: [{ label: 'Sector', value: 'Care' }] },
		]);
	});

	it("heads each feed's values with its job board's name, from the delivery log or the login's feeds", function () {
		const view = buildAdvertView(
			{ AdvertID: 3 },
			{
				values: [
					{
						Advert: { AdvertID: 3 },
						AdvertValues: [
							{ FeedID: 107, FieldIdentifier: 'Sector', Value: 'Care' },
							{ FeedID: 108, FieldIdentifier: 'Band', Value: '5' },
						],
					},
				],
				tracking: [{ FeedID: 107, FeedName: 'Monster', PostingID: 1 }],
				feedNames: new Map([[108, 'Reed.co.uk']]),
			},
		);
		assert.deepEqual(
			view.values.map((v) => v.feed),
			['Monster (107)', 'Reed.co.uk (108)'],
		);
	});

	it('describes application fields, dates and session activity', function () {
		const view = buildApplicationView(
			{
				AdvertID: 1,
				AdvertCandidateID: 2,
				FirstName: 'Ada',
				LastName: 'L',
				Score: 2,
				Favourite: true,
				Progress: 'Interview',
				ProgressID: 4,
				sLastNoteDate: '03/03/2026',
			},
			[{ kind: 'note', text: 'Added a note', at: new Date(Date.UTC(2026, 2, 3, 9, 5)) }],
		);
		assert.equal(view.title, 'Ada L');
		assert.deepEqual(view.badges.slice(0, 3), [
			{ label: 'Ranking', value: 'Maybe' },
			{ label: 'Favourite', value: 'Yes' },
			{ label: 'Progress', value: 'Interview (4)' },
		]);
		// Only the s-text came: shown as sent, with no instant to localise.
		assert.deepEqual(view.groups.find((g) => g.title === 'Dates')?.rows[0], {
			label: 'Last note',
			value: '03/03/2026',
		});
		assert.deepEqual(view.activity, [{ at: '2026-03-03T09:05:00Z', text: 'Added a note' }]);
	});
});
