import * as assert from 'node:assert/strict';
import {
	addAdvertParams,
	feedOptions,
	readFeedOptions,
	submitAdvert,
} from '../../../src/extension/actions/createAdvert';
import { advertFormFields } from '../../../src/shared/advertForm';
import { createTestWorkbench, type TestWorkbench } from '../harness';

describe('Create Advert on the host (real emulator)', function () {
	this.timeout(60_000);
	let wb: TestWorkbench;
	const fields = advertFormFields();

	before(function () {
		wb = createTestWorkbench();
	});
	after(async function () {
		await wb.dispose();
	});

	it("offers the user's boards with their limits, quota and cost", async function () {
		const { feeds, problem } = await readFeedOptions(wb.services);
		assert.equal(problem, undefined);
		assert.ok(feeds.length > 5);
		const totaljobs = feeds.find((f) => f.name === 'Totaljobs');
		assert.ok(
			totaljobs && totaljobs.minLength > 0 && totaljobs.quota !== undefined && totaljobs.cost !== undefined,
		);
		assert.deepEqual(
			feedOptions([{ FeedID: 1, Restricted: 1 }, { FeedID: 2 }]).map((f) => f.feedId),
			[2],
		);
	});

	it('trims the answers and leaves empty ones out', function () {
		assert.deepEqual(
			addAdvertParams({
				sJobTitle: ' Nurse ',
				sSalaryFrom: '',
				sSalaryCurrency: 'gbp',
				sJobDescription: 'a\n b \n',
			}),
			{
				sJobTitle: 'Nurse',
				sSalaryCurrency: 'GBP',
				sJobDescription: 'a\n b',
			},
		);
	});

	it('creates the advert, keeps its completion link and tells the tree', async function () {
		const { feeds } = await readFeedOptions(wb.services);
		const changes: { advertId?: number }[] = [];
		wb.services.onDidChangeData((c) => changes.push(c));
		const outcome = await submitAdvert(
			wb.services,
			{
				sJobTitle: 'Form nurse',
				sJobDescription: 'Caring for patients on a busy ward. '.repeat(10),
				sSalaryFrom: '28000',
				sSalaryTo: '34000',
			},
			fields,
			feeds,
		);
		assert.ok('created' in outcome, JSON.stringify(outcome));
		const { created } = outcome;
		assert.equal(created.title, 'Form nurse');
		assert.match(created.redirectUrl ?? '', /\/complete-posting\//);
		assert.equal(wb.services.adverts.completionLink(created.advertId!), created.redirectUrl);
		assert.deepEqual(changes, [{ advertId: created.advertId }]);
	});

	it('refuses before calling when the answers do not pass, naming the field', async function () {
		const outcome = await submitAdvert(wb.services, { sJobTitle: ' ', sJobDescription: 'short' }, fields, []);
		assert.deepEqual(outcome, { refused: 'Job title is required.', field: 'sJobTitle' });
		const negative = await submitAdvert(
			wb.services,
			{ sJobTitle: 'x', sJobDescription: 'y', sSalaryFrom: '-1' },
			fields,
			[],
		);
		assert.deepEqual(negative, {
			refused: 'Enter a number without signs or separators, e.g. 28000 or 12.50.',
			field: 'sSalaryFrom',
		});
	});

	it("shows the service's refusal next to the field it names", async function () {
		const first = await submitAdvert(
			wb.services,
			{
				sJobTitle: 'Dup',
				sJobDescription: 'y'.repeat(300),
				sAdvertIdentifier: 'FORM-DUP-1',
				sOnDuplicate: 'error',
			},
			fields,
			[],
		);
		assert.ok('created' in first);
		const second = await submitAdvert(
			wb.services,
			{
				sJobTitle: 'Dup',
				sJobDescription: 'y'.repeat(300),
				sAdvertIdentifier: 'FORM-DUP-1',
				sOnDuplicate: 'error',
			},
			fields,
			[],
		);
		assert.ok('refused' in second);
		assert.match(
			second.refused,
			/^The service refused the advert: An advert with identifier 'FORM-DUP-1' already exists/,
		);
		assert.ok(!/\.\.$/.test(second.refused), 'one full stop');
		assert.equal(second.field, 'sOnDuplicate');
		// In the form's words, right under the dropdown it names; the log keeps the service's.
		assert.match(
			second.refused,
			/Use “When the identifier exists: Update the existing advert” to change it or “Create a duplicate” to create another instance\.$/,
		);
		assert.doesNotMatch(second.refused, /sOnDuplicate/);
		assert.ok(wb.log.lines.some((l) => l.message.includes('sOnDuplicate=update')));
	});
});
