import * as assert from 'node:assert/strict';
import type { MultipostingClient } from '../../../src/client';
import type { APIApplication } from '../../../src/protocol/catalogue';
import type { ApplicationRef } from '../../../src/extension/services';
import { pickValue } from '../fakes';
import { createTestWorkbench, type TestWorkbench } from '../harness';

describe('application actions (real emulator)', function () {
	this.timeout(60_000);
	let wb: TestWorkbench;
	let client: MultipostingClient;
	let changes: { advertId?: number; advertCandidateId?: number }[];

	before(async function () {
		wb = createTestWorkbench();
		client = await wb.services.activeClient();
	});
	after(async function () {
		await wb.dispose();
	});
	beforeEach(function () {
		changes = [];
		wb.services.onDidChangeData((c) => changes.push(c));
	});

	/** An application the demo administrator can act on, fetched fresh. */
	async function someApplication(index = 0): Promise<APIApplication> {
		const page = await client.getApplicationsPaged({
			sApplicationStartDateTime: '2000-01-01 00:00:00',
			CurrentPage: 1,
			RowsPerPage: 10,
		});
		return page.Applications![index];
	}
	async function reload(app: APIApplication): Promise<APIApplication> {
		const page = await client.getApplicationsPaged({
			sAdvertID: String(app.AdvertID),
			AdvertCandidateIDAsCSV: String(app.AdvertCandidateID),
			CurrentPage: 1,
			RowsPerPage: 1,
		});
		return page.Applications![0];
	}
	/** As the tree's rows and the panel give it: ids and the candidate's name. */
	const refOf = (app: APIApplication): ApplicationRef => ({
		advertId: app.AdvertID!,
		advertCandidateId: app.AdvertCandidateID!,
		firstName: app.FirstName,
		lastName: app.LastName,
	});

	it('scores an application through the quick pick and the service records the ranking', async function () {
		const app = await someApplication(0);
		wb.ui.script(pickValue('S'));
		assert.equal(await wb.services.applications.score({ ...refOf(app), score: 2, favourite: false }), true);
		const after = await reload(app);
		assert.equal(after.Ranking, 'Suitable');
		assert.equal(after.Score, 4);
		assert.deepEqual(changes, [{ advertId: app.AdvertID, advertCandidateId: app.AdvertCandidateID }]);
		const picks = wb.ui.calls.filter((c) => c.kind === 'pick').at(-1)!;
		assert.deepEqual(
			picks.items!.map((i) => i.label),
			['Suitable', 'Maybe', 'Unsuitable', 'Favourite', 'None'],
		);
		assert.deepEqual(
			picks.items!.map((i) => i.description),
			['S', 'M · current', 'U', 'F', 'N'],
			'the letter of each, and the current score marked',
		);
		assert.equal(picks.options?.title, `Score ${app.FirstName} ${app.LastName}`);
		assert.equal(wb.services.activity.latest(app.AdvertCandidateID!, 'score')?.text, 'Scored Suitable');
	});

	it('marks a favourite with F and unmarks nothing else', async function () {
		const app = await someApplication(1);
		assert.equal(await wb.services.applications.score(refOf(app), 'F'), true);
		assert.equal((await reload(app)).Favourite, true);
	});

	it('progresses an application with names from the setting', async function () {
		wb.settings.values.set('progressNames', { 1: 'Fresh', 4: 'Phone interview' });
		const app = await someApplication(2);
		wb.ui.script(pickValue(4));
		assert.equal(await wb.services.applications.progress(refOf(app)), true);
		const offered = wb.ui.calls
			.filter((c) => c.kind === 'pick')
			.at(-1)!
			.items!.map((i) => i.label);
		assert.deepEqual(offered, ['Fresh', 'Phone interview']);
		assert.equal((await reload(app)).ProgressID, 4);
		wb.settings.values.delete('progressNames');
	});

	it('adds a note from two inputs, and the note date moves', async function () {
		const app = await someApplication(3);
		wb.ui.script({ input: 'Phone call' }, { input: 'Called, will send CV.' });
		assert.equal(await wb.services.applications.addNote(refOf(app)), true);
		assert.ok((await reload(app)).LastNoteDate, 'LastNoteDate is set after a note');
	});

	it('tags the candidate, looking up the email address when the reference lacks it', async function () {
		const app = await someApplication(4);
		wb.ui.script({ input: 'Reviewed' });
		assert.equal(await wb.services.applications.tag(refOf(app)), true);
		assert.ok(wb.log.text().includes('CandidateTag via soap11: HTTP 200'));
	});

	it('sets a partner tag from the five values', async function () {
		const app = await someApplication(5);
		wb.ui.script(pickValue('PartnerAccepted'));
		assert.equal(
			await wb.services.applications.partnerTag({
				...refOf(app),
				candidateEmail: app.EmailAddress,
				firstName: app.FirstName,
				lastName: app.LastName,
			}),
			true,
		);
		assert.equal(wb.ui.calls.filter((c) => c.kind === 'pick').at(-1)!.items!.length, 5);
	});

	it('does nothing when the user cancels the pick', async function () {
		const app = await someApplication(0);
		const before = wb.log.lines.length;
		wb.ui.script({ pick: () => undefined });
		assert.equal(await wb.services.applications.score(refOf(app)), false);
		assert.equal(wb.log.lines.length, before, 'no call was made');
		assert.deepEqual(changes, []);
	});

	it('reports a refused call in plain language with a "Show details" button that opens the log', async function () {
		wb.ui.errorAnswer = 'Show details';
		const ok = await wb.services.applications.score({ advertId: 999999, advertCandidateId: 999999 }, 'S');
		assert.equal(ok, false);
		const [message] = wb.ui.messages('error').slice(-1);
		assert.equal(
			message,
			'Scoring application 999999 failed: the service refused the request (sAdvertID 999999 is not an advert of your organisation).',
		);
		await new Promise((resolve) => setImmediate(resolve));
		assert.equal(wb.ui.calls.at(-1)!.kind, 'showLog');
		assert.deepEqual(changes, []);
		wb.ui.errorAnswer = undefined;
	});

	it('rejects a letter that is not a score without calling the service', async function () {
		assert.equal(await wb.services.applications.score({ advertId: 1, advertCandidateId: 1 }, 'Z'), false);
		assert.match(wb.ui.messages('error').at(-1)!, /not a score/);
	});
});
