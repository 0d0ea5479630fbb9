/** Job boards as the Create Advert form sees them (FeedOption), shared by the form's rule and jsdom tests. */
import type { FeedOption } from '../../src/shared/advertForm';

/**
 * Totaljobs (108, ticked by default, 250 characters at least, £25 per posting, 7 of 10 left), Indeed
 * (101, always posted, 100 characters at least, free, 4 of 5 left) and CV-Library (104, optional,
 * £10 per posting, 2 left); `changes` adjusts a board by its feed ID.
 */
export function feedOptions(changes: Readonly<Record<number, Partial<FeedOption>>> = {}): FeedOption[] {
	const feeds: FeedOption[] = [
		{
			feedId: 108,
			name: 'Totaljobs',
			forced: false,
			preselected: true,
			minLength: 250,
			quota: 10,
			used: 3,
			cost: 25,
			currency: 'GBP',
			costType: 'Posting',
		},
		{
			feedId: 101,
			name: 'Indeed',
			forced: true,
			preselected: true,
			minLength: 100,
			quota: 5,
			used: 1,
			cost: 0,
			currency: 'GBP',
			costType: 'Posting',
		},
		{
			feedId: 104,
			name: 'CV-Library',
			forced: false,
			preselected: false,
			minLength: 0,
			quota: 2,
			used: 0,
			cost: 10,
			currency: 'GBP',
			costType: 'Posting',
		},
	];
	return feeds.map((feed) => ({ ...feed, ...changes[feed.feedId] }));
}
