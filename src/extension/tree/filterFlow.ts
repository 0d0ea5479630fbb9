/** The "Filter…" flow of the account tree: pick what to filter (or the order), then its value. */
import { ADVERT_STATUS, RANKING, type RankingName } from '../../protocol/catalogue';
import { parseDateTime } from '../../shared/advertForm';
import type { ProgressChoice } from '../actions/progressNames';
import type { PickItem, UiPort } from '../ui/port';
import { RANKING_WORDS, rankingWord } from '../vocabulary';
import { APPLICATION_ORDERS, DEFAULT_ORDER_TEXT, type ApplicationOrder, type TreeFilters } from './descriptors';

type FilterKey = 'searchDays' | 'advertStatusIds' | 'ranking' | 'progressIds' | 'applicationDates' | 'order';

/** Largest number of days the search accepts. */
export const MAX_SEARCH_DAYS = 36500;

/** Checks a filter date: empty, or a real date (yyyy-MM-dd, optionally HH:mm[:ss], UTC). */
export function checkDate(text: string): string | undefined {
	const value = text.trim();
	if (value === '') return undefined;
	return parseDateTime(value)
		? undefined
		: 'Enter a real date as yyyy-MM-dd or yyyy-MM-dd HH:mm:ss (UTC), or leave empty';
}

/** Checks the end of a date range against its start. */
export function checkDateRange(from: string, to: string): string | undefined {
	const problem = checkDate(to);
	if (problem) return problem;
	const start = parseDateTime(from);
	const end = parseDateTime(to);
	return start && end && end.getTime() < start.getTime() ? `The end is before the start (${from.trim()})` : undefined;
}

export function checkDays(text: string): string | undefined {
	const value = text.trim();
	if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > MAX_SEARCH_DAYS) {
		return `Enter a whole number of days from 1 to ${MAX_SEARCH_DAYS}`;
	}
	return undefined;
}

/** Asks for one filter and returns the new filter set, or undefined when cancelled. */
export async function filterFlow(
	ui: UiPort,
	current: TreeFilters,
	progress: readonly ProgressChoice[],
): Promise<TreeFilters | undefined> {
	const words = (csv: string | undefined, word: (v: string) => string) => csv?.split(',').map(word).join(', ');
	const kind = await ui.pick<FilterKey>(
		[
			{
				label: 'Adverts posted within',
				description: current.searchDays ? `${current.searchDays} days` : 'all time',
				value: 'searchDays',
			},
			{
				label: 'Advert status',
				description:
					words(
						current.advertStatusIds,
						(id) => Object.entries(ADVERT_STATUS).find(([, v]) => String(v) === id)?.[0] ?? id,
					) ?? 'any',
				value: 'advertStatusIds',
			},
			{
				label: 'Ranking of applications',
				description: words(current.ranking, rankingWord) ?? 'any',
				value: 'ranking',
			},
			{
				label: 'Progress of applications',
				description:
					words(current.progressIds, (id) => progress.find((p) => String(p.id) === id)?.name ?? id) ?? 'any',
				value: 'progressIds',
			},
			{
				label: 'Application dates',
				description:
					current.applicationsFrom || current.applicationsTo
						? `${current.applicationsFrom ?? '…'} – ${current.applicationsTo ?? '…'}`
						: 'any',
				value: 'applicationDates',
			},
			{
				label: 'Order of applications',
				description: current.order
					? APPLICATION_ORDERS[current.order].label
					: `service default (${DEFAULT_ORDER_TEXT})`,
				value: 'order',
			},
		],
		{ title: 'Filter the account tree', placeholder: 'What to filter' },
	);
	if (!kind) return undefined;
	const next: TreeFilters = { ...current };
	switch (kind.value) {
		case 'searchDays': {
			const days = await ui.pick(
				[
					{ label: 'All time', value: '-1' },
					{ label: 'Last 7 days', value: '7' },
					{ label: 'Last 30 days', value: '30' },
					{ label: 'Last 90 days', value: '90' },
					{ label: 'Last 365 days', value: '365' },
					{ label: 'Another number of days…', value: 'other' },
				],
				{ title: 'Adverts posted within' },
			);
			if (!days) return undefined;
			let value = days.value;
			if (value === 'other') {
				const typed = await ui.input({
					title: 'Adverts posted within how many days?',
					prompt: `A whole number from 1 to ${MAX_SEARCH_DAYS}`,
					value: current.searchDays ?? '',
					validate: checkDays,
				});
				if (typed === undefined) return undefined;
				value = String(Number(typed.trim()));
			}
			next.searchDays = value === '-1' ? undefined : value;
			break;
		}
		case 'advertStatusIds': {
			const picked = await ui.pickMany(
				Object.entries(ADVERT_STATUS).map(([label, id]) => ({
					label,
					description: String(id),
					value: String(id),
					picked: current.advertStatusIds?.split(',').includes(String(id)),
				})),
				{ title: 'Advert status (none: any)' },
			);
			if (!picked) return undefined;
			next.advertStatusIds = picked.map((p) => p.value).join(',') || undefined;
			break;
		}
		case 'ranking': {
			const picked = await ui.pickMany(
				(Object.keys(RANKING) as RankingName[]).map((name) => ({
					label: RANKING_WORDS[name],
					value: name,
					picked: current.ranking?.split(',').includes(name),
				})),
				{ title: 'Ranking of applications (none: any)' },
			);
			if (!picked) return undefined;
			next.ranking = picked.map((p) => p.value).join(',') || undefined;
			break;
		}
		case 'progressIds': {
			const picked = await ui.pickMany(
				progress.map((p) => ({
					label: p.name,
					description: String(p.id),
					value: String(p.id),
					picked: current.progressIds?.split(',').includes(String(p.id)),
				})),
				{ title: 'Progress of applications (none: any)' },
			);
			if (!picked) return undefined;
			next.progressIds = picked.map((p) => p.value).join(',') || undefined;
			break;
		}
		case 'applicationDates': {
			const from = await ui.input({
				title: 'Applications from (UTC)',
				prompt: 'yyyy-MM-dd, empty for no lower bound',
				value: current.applicationsFrom ?? '',
				validate: checkDate,
			});
			if (from === undefined) return undefined;
			const to = await ui.input({
				title: 'Applications until (UTC)',
				prompt: 'yyyy-MM-dd, empty for no upper bound',
				value: current.applicationsTo ?? '',
				validate: (text) => checkDateRange(from, text),
			});
			if (to === undefined) return undefined;
			next.applicationsFrom = from.trim() || undefined;
			next.applicationsTo = to.trim() || undefined;
			break;
		}
		case 'order': {
			const items: PickItem<ApplicationOrder | 'default'>[] = [
				{ label: 'Service default', description: DEFAULT_ORDER_TEXT, value: 'default' },
				...(Object.entries(APPLICATION_ORDERS) as [ApplicationOrder, { label: string }][]).map(
					([value, order]) => ({
						label: order.label,
						value,
					}),
				),
			];
			const picked = await ui.pick(
				items.map((item) => ({
					...item,
					description: [item.description, (current.order ?? 'default') === item.value ? 'current' : undefined]
						.filter(Boolean)
						.join(' · '),
				})),
				{ title: 'Order of applications' },
			);
			if (!picked) return undefined;
			next.order = picked.value === 'default' ? undefined : picked.value;
			break;
		}
	}
	return next;
}
