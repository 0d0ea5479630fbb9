import * as assert from 'node:assert/strict';
import { progressChoices } from '../../../src/extension/actions/progressNames';
import { checkDate, checkDateRange, checkDays, filterFlow } from '../../../src/extension/tree/filterFlow';
import { FakeUi, pickValue } from '../fakes';

describe('tree filter flow', function () {
	const progress = progressChoices(undefined);

	it('accepts only real dates, and an end not before the start', function () {
		assert.equal(checkDate(''), undefined);
		assert.equal(checkDate('2026-02-28'), undefined);
		assert.equal(checkDate('2026-02-28 23:59:59'), undefined);
		assert.match(checkDate('2026-13-45')!, /real date/);
		assert.match(checkDate('2026-02-30')!, /real date/);
		assert.match(checkDate('yesterday')!, /real date/);
		assert.equal(checkDateRange('2026-01-01', '2026-01-31'), undefined);
		assert.equal(checkDateRange('', '2026-01-31'), undefined);
		assert.match(checkDateRange('2026-02-01', '2026-01-31')!, /The end is before the start \(2026-02-01\)/);
	});

	it('takes any number of search days, not only the presets', async function () {
		assert.equal(checkDays('45'), undefined);
		assert.match(checkDays('-3')!, /whole number/);
		assert.match(checkDays('0')!, /whole number/);
		const ui = new FakeUi([pickValue('searchDays'), pickValue('other'), { input: '45' }]);
		assert.deepEqual(await filterFlow(ui, {}, progress), { searchDays: '45' });
	});

	it('names rankings in the panel vocabulary and keeps the service values', async function () {
		let labels: string[] = [];
		const ui = new FakeUi([
			pickValue('ranking'),
			{
				pickMany: (items) => {
					labels = items.map((i) => i.label);
					return items.filter((i) => i.value === 'MaybeSuitable');
				},
			},
		]);
		assert.deepEqual(await filterFlow(ui, {}, progress), { ranking: 'MaybeSuitable' });
		assert.deepEqual(labels, ['Unranked', 'Unsuitable', 'Maybe', 'Suitable']);
	});

	it('lets the user pick the order of applications and marks the current one', async function () {
		let descriptions: (string | undefined)[] = [];
		const ui = new FakeUi([
			pickValue('order'),
			{
				pick: (items) => {
					descriptions = items.map((i) => i.description);
					return items.find((i) => i.value === 'newest');
				},
			},
		]);
		assert.deepEqual(await filterFlow(ui, {}, progress), { order: 'newest' });
		assert.match(descriptions[0] ?? '', /unranked first.*current/);
	});

	it('asks dates with the range check on the second', async function () {
		const ui = new FakeUi([pickValue('applicationDates'), { input: '2026-01-01' }, { input: '2026-01-31' }]);
		assert.deepEqual(await filterFlow(ui, {}, progress), {
			applicationsFrom: '2026-01-01',
			applicationsTo: '2026-01-31',
		});
		const bad = new FakeUi([pickValue('applicationDates'), { input: '2026-01-10' }, { input: '2026-01-01' }]);
		await assert.rejects(filterFlow(bad, {}, progress), /The end is before the start/);
	});
});
