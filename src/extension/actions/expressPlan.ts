/**
 * What an express post offers and what it costs: only the feeds the advert was posted to (the
 * service refuses the others), each with its quota and cost from UserFeedsAndQuotaWithDestinations.
 * Pure, so the numbers are unit-tested.
 */
import type { AdvertTrackingLog, CPostFeed } from '../../protocol/catalogue';
import type { PickItem } from '../ui/port';

export interface ExpressFeed {
	feedId: number;
	name: string;
	/** Postings left (EffectiveQuota − PostingsUsed); undefined when the service gives no quota. */
	remaining?: number;
	quota?: number;
	cost?: number;
	currency?: string;
	/** 'Posting' or 'Week' (FeedCostType). */
	costType?: string;
}

/** The feeds the advert was posted to (from its delivery log), in the order first posted, with quota and cost. */
export function postedFeeds(tracking: readonly AdvertTrackingLog[], feeds: readonly CPostFeed[]): ExpressFeed[] {
	const byId = new Map(feeds.filter((f) => f.FeedID !== undefined).map((f) => [f.FeedID!, f]));
	const seen = new Map<number, ExpressFeed>();
	for (const log of tracking) {
		if (log.FeedID === undefined || seen.has(log.FeedID)) continue;
		const feed = byId.get(log.FeedID);
		const quota = num(feed?.EffectiveQuota);
		const used = num(feed?.PostingsUsed) ?? 0;
		seen.set(log.FeedID, {
			feedId: log.FeedID,
			name: feed?.FeedName || log.FeedName || `Job board ${log.FeedID}`,
			quota,
			remaining: quota === undefined ? undefined : Math.max(quota - used, 0),
			cost: num(feed?.FeedCost),
			currency: feed?.CurrencyID || undefined,
			costType: feed?.FeedCostType || undefined,
		});
	}
	return [...seen.values()];
}

function num(value: string | number | undefined): number | undefined {
	if (value === undefined || value === '') return undefined;
	const n = Number(value);
	return Number.isFinite(n) ? n : undefined;
}

/** An amount of money in its currency ("£25.00"); the code when the currency is unknown. */
export function money(amount: number, currency: string | undefined): string {
	if (currency && /^[A-Z]{3}$/.test(currency)) {
		try {
			return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
		} catch {
			// An unknown code: fall through.
		}
	}
	return `${amount.toFixed(2)}${currency ? ` ${currency}` : ''}`;
}

export function costText(feed: ExpressFeed): string | undefined {
	if (feed.cost === undefined) return undefined;
	if (feed.cost === 0) return 'free';
	const per = feed.costType && /week/i.test(feed.costType) ? 'per week' : 'per posting';
	return `${money(feed.cost, feed.currency)} ${per}`;
}

export function quotaText(feed: ExpressFeed): string | undefined {
	if (feed.remaining === undefined) return undefined;
	return feed.remaining === 0 ? 'no quota left' : `${feed.remaining} of ${feed.quota} postings left`;
}

export function expressPickItems(feeds: readonly ExpressFeed[]): PickItem<number>[] {
	return feeds.map((f) => ({
		label: f.name,
		description: quotaText(f),
		detail: costText(f),
		picked: f.remaining !== 0,
		value: f.feedId,
	}));
}

/** The confirmation's text: one line per feed, then what it uses and costs in all. */
export function expressSummary(chosen: readonly ExpressFeed[]): string {
	const lines = chosen.map((f) => {
		const quota = quotaText(f);
		return [`${f.name}: 1 posting of quota${quota ? ` (${quota})` : ''}`, costText(f)].filter(Boolean).join(', ');
	});
	const totals = new Map<string, number>();
	let weekly = false;
	for (const f of chosen) {
		if (f.cost === undefined || f.cost === 0) continue;
		if (f.costType && /week/i.test(f.costType)) {
			weekly = true;
			continue;
		}
		totals.set(f.currency ?? '', (totals.get(f.currency ?? '') ?? 0) + f.cost);
	}
	const total = [...totals].map(([currency, amount]) => money(amount, currency || undefined)).join(' + ');
	lines.push('');
	lines.push(
		`Uses ${chosen.length} posting${chosen.length === 1 ? '' : 's'} of quota` +
			(total ? `; costs ${total}` : '') +
			(weekly ? (total ? ', plus the weekly costs above' : '; weekly costs as above') : '') +
			'.',
	);
	const empty = chosen.filter((f) => f.remaining === 0);
	if (empty.length > 0) {
		lines.push(`No quota is left on ${empty.map((f) => f.name).join(', ')}: the job board may refuse it.`);
	}
	return lines.join('\n');
}
