import * as assert from 'node:assert/strict';
import { OPERATIONS } from '../../src/protocol/catalogue';
import { checkValue } from '../../src/protocol/rules';
import {
	advertFormFields,
	costPreview,
	descriptionLength,
	fieldOfMessage,
	isAdvertFormToHostMessage,
	parseDateTime,
	validateAdvertForm,
} from '../../src/shared/advertForm';
import { feedOptions } from './feedOptions';

const NOW = new Date('2026-03-01T12:00:00Z');

/** Totaljobs up to 5,000 characters, Indeed with HTML and no quota left, CV-Library weekly and short. */
const FEEDS = feedOptions({
	108: { maxLength: 5000 },
	101: { htmlSupport: 'Full', used: 5 },
	104: { maxLength: 50, cost: 12.5, costType: 'Week' },
});

describe('Create Advert form (shared rules)', function () {
	const fields = advertFormFields();

	it('is generated from the AddAdvert parameters: no credentials, value sets as choices, required title and description', function () {
		const names = fields.map((f) => f.name);
		const params = OPERATIONS.AddAdvert.params.map((p) => p.name);
		assert.ok(
			names.every((n) => params.includes(n)),
			'every field is an AddAdvert parameter',
		);
		for (const secret of ['sAPIKey', 'sUsername', 'sPassword', 'sCultureID']) assert.ok(!names.includes(secret));
		const type = fields.find((f) => f.name === 'sJobType')!;
		assert.equal(type.kind, 'choice');
		assert.deepEqual(
			type.choices?.map((c) => c.label),
			['Permanent', 'Contract', 'Temporary'],
		);
		assert.equal(type.openChoices, false, 'the sandbox refuses other job types: a closed list');
		assert.equal(fields.find((f) => f.name === 'sJobDescription')!.kind, 'textarea');
		assert.deepEqual(
			fields.filter((f) => f.required).map((f) => f.name),
			['sJobTitle', 'sJobDescription'],
		);
		assert.equal(fields.find((f) => f.name === 'DestinationsAsCSV')!.kind, 'feeds');
		assert.equal(fields.find((f) => f.name === 'sSalaryFrom')!.hint, 'Lowest salary (numeric).');
		assert.equal(fields.find((f) => f.name === 'sJobType')!.hint, undefined, 'the choices show the codes');
		assert.equal(fields.find((f) => f.name === 'sJobTitle')!.hint, undefined, 'no hint that repeats the label');
	});

	it('applies the catalogue rules as the client and the sandbox do (one interpretation)', function () {
		const long = 'y'.repeat(300);
		// The form's own pattern allows five digits; the catalogue's range is -1 to 36500.
		const problems = validateAdvertForm(
			{ sJobTitle: 'Nurse', sJobDescription: long, sSearchDays: '99999' },
			fields,
			[],
			NOW,
		);
		const param = OPERATIONS.AddAdvert.params.find((p) => p.name === 'sSearchDays')!;
		assert.equal(problems.sSearchDays, checkValue(param, '99999')?.message);
		assert.ok(problems.sSearchDays);
	});

	it('refuses missing required answers, signs and words in salaries, and a "to" below "from"', function () {
		const long = 'y'.repeat(300);
		assert.deepEqual(Object.keys(validateAdvertForm({}, fields, [], NOW)).sort(), ['sJobDescription', 'sJobTitle']);
		const problems = validateAdvertForm(
			{ sJobTitle: 'Nurse', sJobDescription: long, sSalaryFrom: '-5', sSalaryTo: 'lots' },
			fields,
			[],
			NOW,
		);
		assert.match(problems.sSalaryFrom, /Enter a number/);
		assert.match(problems.sSalaryTo, /Enter a number/);
		const inverted = validateAdvertForm(
			{ sJobTitle: 'Nurse', sJobDescription: long, sSalaryFrom: '34000', sSalaryTo: '28000' },
			fields,
			[],
			NOW,
		);
		assert.equal(inverted.sSalaryTo, '“To” (28000) is below “From” (34000).');
		assert.deepEqual(
			validateAdvertForm(
				{ sJobTitle: 'Nurse', sJobDescription: long, sSalaryFrom: '28000', sSalaryTo: '34000.50' },
				fields,
				[],
				NOW,
			),
			{},
		);
	});

	it('checks the description against the chosen boards and those always posted', function () {
		const base = { sJobTitle: 'Nurse', DestinationsAsCSV: '' };
		// Indeed is forced: 100 characters at least even with nothing chosen.
		assert.match(
			validateAdvertForm({ ...base, sJobDescription: 'short' }, fields, FEEDS, NOW).sJobDescription,
			/Too short for Indeed: at least 100 characters \(now 5\)/,
		);
		const text = 'z'.repeat(120);
		assert.equal(
			validateAdvertForm({ ...base, sJobDescription: text }, fields, FEEDS, NOW).sJobDescription,
			undefined,
		);
		const withTotaljobs = validateAdvertForm(
			{ ...base, sJobDescription: text, DestinationsAsCSV: '108' },
			fields,
			FEEDS,
			NOW,
		);
		assert.match(withTotaljobs.sJobDescription, /Too short for Totaljobs: at least 250 characters \(now 120\)/);
		const withCvLibrary = validateAdvertForm(
			{ ...base, sJobDescription: text, DestinationsAsCSV: '104' },
			fields,
			FEEDS,
			NOW,
		);
		assert.match(withCvLibrary.sJobDescription, /Too long for CV-Library: at most 50 characters \(now 120\)/);
		// Markup counts only where the board takes full HTML.
		assert.equal(descriptionLength('<p>abc</p>', undefined), 3);
		assert.equal(descriptionLength('<p>abc</p>', 'Full'), 10);
	});

	it('accepts only real dates in the future for a later post, and web addresses for links', function () {
		assert.equal(parseDateTime('2026-13-45'), undefined);
		assert.equal(parseDateTime('2026-02-30 10:00'), undefined);
		assert.equal(parseDateTime('2026-02-28 10:00')?.toISOString(), '2026-02-28T10:00:00.000Z');
		const base = { sJobTitle: 'Nurse', sJobDescription: 'y'.repeat(300) };
		assert.match(
			validateAdvertForm({ ...base, sFuturePostDateTimeInUtc: '2026-13-45' }, fields, [], NOW)
				.sFuturePostDateTimeInUtc,
			/real date/,
		);
		assert.match(
			validateAdvertForm({ ...base, sFuturePostDateTimeInUtc: '2026-01-01 00:00:00' }, fields, [], NOW)
				.sFuturePostDateTimeInUtc,
			/future/,
		);
		assert.equal(
			validateAdvertForm({ ...base, sFuturePostDateTimeInUtc: '2026-04-01 09:00:00' }, fields, [], NOW)
				.sFuturePostDateTimeInUtc,
			undefined,
		);
		assert.match(
			validateAdvertForm({ ...base, sApplicationURL: 'javascript:alert(1)' }, fields, [], NOW).sApplicationURL,
			/http/,
		);
		assert.match(validateAdvertForm({ ...base, sContactEmail: 'dana' }, fields, [], NOW).sContactEmail, /email/);
		assert.match(
			validateAdvertForm({ ...base, sJobType: 'X' }, fields, [], NOW).sJobType,
			/Choose one of Permanent/,
		);
	});

	it('previews quota and cost of the chosen and forced boards, with weekly costs apart', function () {
		const preview = costPreview({ DestinationsAsCSV: '108,104' }, FEEDS);
		assert.deepEqual(
			preview.lines.map((l) => [l.name, l.cost, l.quota, l.exhausted]),
			[
				['Totaljobs', '£25.00 per posting', '7 of 10 postings left', false],
				['Indeed', 'free', 'no quota left', true],
				['CV-Library', '£12.50 per week', '2 of 2 postings left', false],
			],
		);
		assert.equal(preview.total, '£25.00');
		assert.equal(preview.weekly, true);
	});

	it('finds the field a service message names', function () {
		assert.equal(fieldOfMessage('sSalaryFrom (5) is higher than sSalaryTo (4).', fields), 'sSalaryFrom');
		assert.equal(
			fieldOfMessage('DestinationsAsCSV: feed 7 is not configured for user x.', fields),
			'DestinationsAsCSV',
		);
		assert.equal(fieldOfMessage('The service is down.', fields), undefined);
	});

	it('accepts only its own messages from the webview', function () {
		assert.equal(isAdvertFormToHostMessage({ type: 'submit', values: { sJobTitle: 'x' } }), true);
		assert.equal(isAdvertFormToHostMessage({ type: 'submit', values: { sJobTitle: 5 } }), false);
		assert.equal(isAdvertFormToHostMessage({ type: 'submit', values: { 'a-b': 'x' } }), false);
		assert.equal(isAdvertFormToHostMessage({ type: 'draft', values: { x: 'y'.repeat(200_000) } }), false);
		assert.equal(isAdvertFormToHostMessage({ type: 'eval' }), false);
		assert.equal(isAdvertFormToHostMessage(null), false);
	});
});
