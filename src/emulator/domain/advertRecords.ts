/** Advert records of the GetAdvert* operations, reused while their rows and counters are current. */
import type { Advert, APIAdvertWithValues } from '../../protocol/catalogue';
import type { Store } from '../store/store';
import type { AdvertRow, AdvertStats } from '../store/types';
import { resolveFeeds } from './feedLookup';
import type { ParamReader } from './paramReader';
import { advertRecord, advertValueRecord } from './records';

/**
 * Records made from kept (frozen) advert rows and counters, by row: the store hands out new objects
 * after any write, so a record is reused only while its row and counters are the current ones.
 */
export class AdvertRecords {
	private readonly kept = new WeakMap<AdvertRow, { stats: AdvertStats | undefined; record: Advert }>();

	constructor(private readonly store: Store) {}

	/** The records of these rows, with their application counters. */
	of(rows: readonly AdvertRow[]): Advert[] {
		const stats = this.store.adverts.stats(rows.map((row) => row.id));
		return rows.map((row) => {
			const rowStats = stats.get(row.id);
			const kept = this.kept.get(row);
			if (kept !== undefined && kept.stats === rowStats) return kept.record;
			const record = advertRecord(row, rowStats);
			if (Object.isFrozen(row)) this.kept.set(row, { stats: rowStats, record: Object.freeze(record) });
			return record;
		});
	}

	/** The records with their extra values, limited by FieldIDsAsCSV and DestinationsAsCSV. */
	withValues(
		rows: readonly AdvertRow[],
		params: ParamReader<'DestinationsAsCSV' | 'FieldIDsAsCSV'>,
	): APIAdvertWithValues[] {
		const feedIds = resolveFeeds(this.store, params.csv('DestinationsAsCSV'), 'DestinationsAsCSV');
		// Values of the advert itself (FeedID 0) stay when filtering by feed.
		const values = this.store.adverts.values(
			rows.map((row) => row.id),
			params.csv('FieldIDsAsCSV'),
			feedIds ? [0, ...feedIds] : undefined,
		);
		return this.of(rows).map((advert) => ({
			Advert: advert,
			AdvertValues: values.filter((value) => value.advertId === advert.AdvertID).map(advertValueRecord),
		}));
	}
}
