import * as assert from 'node:assert/strict';
import type { Advert, APIApplication, CUser } from '../../../src/protocol/catalogue';
import { progressChoices } from '../../../src/extension/actions/progressNames';
import { sandboxConnectionInfo, toConnectionInfo } from '../../../src/extension/connections/model';
import {
	advertDescriptor,
	applicationDescriptor,
	connectionDescriptor,
	DEFAULT_ORDER_TEXT,
	deriveOrganisations,
	describeFilters,
	loadMoreDescriptor,
	organisationDescriptor,
	rankingOf,
	userDescriptor,
} from '../../../src/extension/tree/descriptors';

const progress = progressChoices(undefined);

function application(fields: Partial<APIApplication>): APIApplication {
	return {
		AdvertCandidateID: 10,
		AdvertID: 3,
		FirstName: 'Ada',
		LastName: 'Lovelace',
		ApplicationDate: '2026-05-01T12:00:00Z',
		Score: 0,
		Ranking: 'Unranked',
		ProgressID: 0,
		...fields,
	};
}

describe('tree descriptors', function () {
	describe('applications', function () {
		it('says an application is archived, which is why it sorts after ranked ones even when unranked', function () {
			const row = applicationDescriptor('c', application({ Archived: true }), progress, 'en-GB');
			assert.match(row.description ?? '', /^Unranked · Archived · /);
			assert.match(row.tooltip ?? '', /Archived.*sorted after the others/);
			assert.match(DEFAULT_ORDER_TEXT, /^unranked first, .*; archived last$/);
			assert.doesNotMatch(applicationDescriptor('c', application({}), progress).description ?? '', /Archived/);
		});

		it('colours the icon by ranking and shows a star for favourites', function () {
			assert.deepEqual(
				applicationDescriptor('c', application({ Score: 4, Ranking: 'Suitable' }), progress).icon,
				{ id: 'pass', color: 'charts.green' },
			);
			assert.deepEqual(
				applicationDescriptor('c', application({ Score: 2, Ranking: 'MaybeSuitable' }), progress).icon,
				{ id: 'question', color: 'charts.yellow' },
			);
			assert.deepEqual(
				applicationDescriptor('c', application({ Score: 1, Ranking: 'Unsuitable' }), progress).icon,
				{ id: 'error', color: 'charts.red' },
			);
			assert.deepEqual(applicationDescriptor('c', application({}), progress).icon, { id: 'circle-outline' });
			assert.deepEqual(applicationDescriptor('c', application({ Score: 4, Favourite: true }), progress).icon, {
				id: 'star-full',
				color: 'charts.yellow',
			});
		});

		it('reads the ranking from the Ranking text when Score is absent', function () {
			assert.equal(rankingOf({ Ranking: 'MaybeSuitable' }), 'MaybeSuitable');
			assert.equal(rankingOf({ Ranking: '4' }), 'Suitable');
			assert.equal(rankingOf({}), 'Unranked');
		});

		it('describes ranking, progress name and date, and uses the configured progress names', function () {
			const d = applicationDescriptor(
				'c',
				application({ Score: 4, ProgressID: 4, Progress: 'Interview', sApplicationDate: '01/05/2026 12:00' }),
				progress,
				'en-GB',
			);
			assert.equal(d.label, 'Ada Lovelace');
			// The date in the user's locale (midday UTC: the same day in every usual zone); ISO in the tooltip.
			assert.equal(d.description, 'Suitable · Interview · 1 May 2026');
			assert.match(d.tooltip!, /Applied: 1 May 2026, \d\d\\:00 \\\(2026\\-05\\-01T12\\:00\\:00Z\\\)/);
			assert.equal(
				applicationDescriptor('c', application({ ApplicationDate: '0001-01-01T00:00:00' }), progress)
					.description,
				'Unranked',
			);
			assert.equal(d.contextValue, 'application');
			assert.equal(d.id, 'app:c:10');
			const custom = applicationDescriptor(
				'c',
				application({ ProgressID: 4 }),
				progressChoices({ 4: 'Phone screen' }),
			);
			assert.match(custom.description ?? '', /Phone screen/);
		});

		it('escapes service text in tooltips so it cannot become links or HTML', function () {
			const d = applicationDescriptor(
				'c',
				application({
					FirstName: '[click](https://evil.example)',
					LastName: '<img src=x>',
					EmailAddress: 'a*b@x.example',
				}),
				progress,
			);
			assert.ok(!d.tooltip!.includes('[click](https://evil.example)'));
			assert.ok(!d.tooltip!.includes('<img'));
			assert.match(d.tooltip!, /\\\[click\\\]\\\(https\\:\/\/evil\\\.example\\\)/);
			assert.match(d.tooltip!, /&lt;img src\\=x&gt;/);
		});
	});

	describe('adverts', function () {
		const advert: Advert = {
			AdvertID: 7,
			AdvertTitle: 'Nurse',
			AdvertStatusID: 0,
			Applications: 12,
			Suitable: 3,
			UserID: 2,
			OrganisationID: 1,
		};

		it('shows counts and the posting state in the description and an icon by status', function () {
			const d = advertDescriptor('c', advert);
			assert.equal(d.description, '12 applications · 3 suitable · Not posted');
			assert.equal(
				advertDescriptor('c', { ...advert, LastPostDate: '2026-02-01T10:00:00Z', LastDeliveryStatusID: 1 })
					.description,
				'12 applications · 3 suitable · Pending',
			);
			assert.equal(d.icon?.id, 'megaphone');
			assert.equal(d.collapsible, 'collapsed');
			assert.equal(d.contextValue, 'advert');
			const deleted = advertDescriptor('c', { ...advert, AdvertStatusID: 1, Applications: 0, Suitable: 0 });
			assert.deepEqual(deleted.icon, { id: 'trash', color: 'disabledForeground' });
			assert.equal(deleted.description, '0 applications · Deleted');
			assert.equal(deleted.collapsible, 'none');
			assert.equal(deleted.contextValue, 'advert:deleted');
			assert.equal(advertDescriptor('c', { ...advert, AdvertStatusID: 16 }).icon?.id, 'watch');
		});

		it('tells adverts with the same title apart by reference, else by ID', function () {
			assert.equal(
				advertDescriptor('c', { ...advert, AdvertReference: 'REF-9' }, { duplicateTitle: true }).description,
				'ref REF-9 · 12 applications · 3 suitable · Not posted',
			);
			assert.match(advertDescriptor('c', advert, { duplicateTitle: true }).description!, /^#7 · /);
		});

		it('says what the count counts when application filters are set', function () {
			assert.match(
				advertDescriptor('c', advert, { applicationsFiltered: true }).description!,
				/^12 applications in all · /,
			);
			const matched = advertDescriptor('c', advert, { applicationsFiltered: true, matching: 3 });
			assert.match(matched.description!, /^3 of 12 applications match · /);
			assert.match(matched.tooltip!, /Matching the filter: 3/);
		});
	});

	describe('organisations and users', function () {
		const users: CUser[] = [
			{
				UserID: 1,
				OrganisationID: 1,
				Username: 'demo.admin',
				FirstName: 'Dana',
				LastName: 'Whitfield',
				UserRoleID: 1,
			},
			{
				UserID: 2,
				OrganisationID: 2,
				Username: 'north.admin',
				FirstName: 'Ned',
				LastName: 'North',
				UserRoleID: 1,
			},
			{ UserID: 3, OrganisationID: 2, Username: 'amy', FirstName: 'Amy', LastName: 'Adams', UserRoleID: 2 },
		];

		it('groups users by OrganisationID and names organisations from applications', function () {
			const orgs = deriveOrganisations(users, [], [{ OrganisationID: 2, OrganisationName: 'Acme North' }]);
			assert.deepEqual(
				orgs.map((o) => [o.organisationId, o.name, o.users.map((u) => u.username)]),
				[
					[2, 'Acme North', ['amy', 'north.admin']],
					[1, undefined, ['demo.admin']],
				],
			);
			assert.equal(organisationDescriptor('c', orgs[0]).description, '2 users');
			assert.equal(organisationDescriptor('c', orgs[1]).label, 'Organisation 1');
		});

		it('falls back to the owners of adverts when no user list is available', function () {
			const orgs = deriveOrganisations(
				[],
				[
					{ AdvertID: 1, UserID: 5, OrganisationID: 9 },
					{ AdvertID: 2, UserID: 5, OrganisationID: 9 },
				],
			);
			assert.equal(orgs.length, 1);
			assert.deepEqual(
				orgs[0].users.map((u) => u.userId),
				[5],
			);
			assert.equal(userDescriptor('c', orgs[0].users[0]).contextValue, 'user:unknown');
		});

		it('shows the advert count and role of a user', function () {
			const [org] = deriveOrganisations(users.slice(0, 1));
			const d = userDescriptor('c', org.users[0], 21);
			assert.equal(d.label, 'Dana Whitfield');
			assert.equal(d.description, 'demo.admin · 21 adverts');
			assert.equal(d.icon?.id, 'shield');
			assert.equal(userDescriptor('c', org.users[0], 4, true).description, 'demo.admin · 4 adverts match');
		});
	});

	it('labels connections by kind', function () {
		const sandbox = connectionDescriptor(sandboxConnectionInfo(), 'running');
		assert.equal(sandbox.contextValue, 'connection:sandbox');
		assert.equal(sandbox.description, 'built-in · running');
		const remote = connectionDescriptor(
			toConnectionInfo({ id: 'r', label: 'Prod', baseUrl: 'https://api.example.com' }),
		);
		assert.equal(remote.contextValue, 'connection:remote');
		assert.equal(remote.description, 'https://api.example.com');
	});

	it('shows the failure scenarios on the sandbox row, in warning colours, with the action to turn them off', function () {
		const failing = connectionDescriptor(sandboxConnectionInfo(), 'running', ['service-down', 'slow-service']);
		assert.equal(failing.description, 'built-in · running · failure scenarios: service-down, slow-service');
		assert.deepEqual(failing.icon, { id: 'warning', color: 'list.warningForeground' });
		assert.equal(failing.contextValue, 'connection:sandbox:scenarios');
		assert.match(
			failing.tooltip ?? '',
			/Failure scenarios: service\\-down, slow\\-service \\\(failures injected on purpose\\\)$/,
		);
	});

	it('counts loaded items on "Load more…"', function () {
		assert.equal(loadMoreDescriptor('user:c:1', 50, 120).description, '50 of 120');
	});

	it('describes the active filters for the view description', function () {
		assert.equal(describeFilters({}), undefined);
		assert.equal(describeFilters({ searchDays: '-1' }), undefined);
		assert.equal(
			describeFilters(
				{
					searchDays: '7',
					advertStatusIds: '0,16',
					ranking: 'Suitable',
					progressIds: '4',
					applicationsFrom: '2026-01-01',
				},
				progress,
			),
			'Filtered: adverts of the last 7 days, adverts Created/ToAuthorise, Suitable, Interview, applied 2026-01-01 – …',
		);
		assert.equal(describeFilters({ ranking: 'MaybeSuitable,Unranked' }), 'Filtered: Maybe/Unranked');
		assert.equal(describeFilters({ order: 'newest' }), 'Applications newest first');
		assert.equal(
			describeFilters({ ranking: 'Suitable', order: 'name' }),
			'Filtered: Suitable; applications by name',
		);
	});
});
