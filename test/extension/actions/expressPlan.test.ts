import * as assert from 'node:assert/strict';
import { expressPickItems, expressSummary, postedFeeds } from '../../../src/extension/actions/expressPlan';

describe('express post plan', function () {
	const tracking = [
		{ PostingID: 1, FeedID: 108, FeedName: 'Totaljobs' },
		{ PostingID: 2, FeedID: 104, FeedName: 'CV-Library' },
		{ PostingID: 3, FeedID: 108, FeedName: 'Totaljobs' },
	];
	const feeds = [
		{
			FeedID: 108,
			FeedName: 'Totaljobs',
			EffectiveQuota: '10',
			PostingsUsed: '3',
			FeedCost: '25',
			CurrencyID: 'GBP',
			FeedCostType: 'Posting',
		},
		{
			FeedID: 104,
			FeedName: 'CV-Library',
			EffectiveQuota: '2',
			PostingsUsed: '2',
			FeedCost: '10',
			CurrencyID: 'GBP',
			FeedCostType: 'Week',
		},
		{ FeedID: 101, FeedName: 'Indeed', EffectiveQuota: '5', PostingsUsed: '0' },
	];

	it('offers the boards of the delivery log once each, by name, with their quota and cost', function () {
		const posted = postedFeeds(tracking, feeds);
		assert.deepEqual(
			posted.map((f) => f.name),
			['Totaljobs', 'CV-Library'],
			'never Indeed: the advert was not posted there',
		);
		const items = expressPickItems(posted);
		assert.deepEqual(
			items.map((i) => [i.label, i.description, i.detail, i.picked]),
			[
				['Totaljobs', '7 of 10 postings left', '£25.00 per posting', true],
				['CV-Library', 'no quota left', '£10.00 per week', false],
			],
		);
	});

	it('sums what the post uses and costs, and warns about boards without quota', function () {
		const summary = expressSummary(postedFeeds(tracking, feeds));
		assert.match(summary, /^Totaljobs: 1 posting of quota \(7 of 10 postings left\), £25.00 per posting$/m);
		assert.match(summary, /Uses 2 postings of quota; costs £25.00, plus the weekly costs above\./);
		assert.match(summary, /No quota is left on CV-Library/);
	});

	it('names a board the feeds do not list by the log, and falls back to its id', function () {
		const posted = postedFeeds([{ FeedID: 7, FeedName: 'Old board' }, { FeedID: 9 }], []);
		assert.deepEqual(
			posted.map((f) => f.name),
			['Old board', 'Job board 9'],
		);
		assert.equal(expressPickItems(posted)[0].description, undefined);
	});
});
