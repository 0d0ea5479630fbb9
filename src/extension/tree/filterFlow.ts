/** The "Filter…" flow of the account tree: pick what to filter, then its value. */
import { ADVERT_STATUS, RANKING } from '../../protocol/catalogue';
import type { ProgressChoice } from '../actions/progressNames';
import type { UiPort } from '../ui/port';
import type { TreeFilters } from './descriptors';

type FilterKey = 'searchDays' | 'advertStatusIds' | 'ranking' | 'progressIds' | 'applicationDates';

const DATE = /^\d{4}-\d{1,2}-\d{1,2}( \d{1,2}:\d{2}(:\d{2})?)?$/;

function checkDate(text: string): string | undefined {
	return text.trim() === '' || DATE.test(text.trim())
		? undefined
		: 'Use yyyy-MM-dd or yyyy-MM-dd HH:mm:ss (UTC), or leave empty';
}

/** Asks for one filter and returns the new filter set, or undefined when cancelled. */
export async function filterFlow(
	ui: UiPort,
	current: TreeFilters,
	progress: readonly ProgressChoice[],
): Promise<TreeFilters | undefined> {
	const kind = await ui.pick<FilterKey>(
		[
			{ label: 'Search days', description: current.searchDays ?? 'all time', value: 'searchDays' },
			{ label: 'Advert status', description: current.advertStatusIds ?? 'any', value: 'advertStatusIds' },
			{ label: 'Ranking', description: current.ranking ?? 'any', value: 'ranking' },
			{ label: 'Progress', description: current.progressIds ?? 'any', value: 'progressIds' },
			{
				label: 'Application dates',
				description:
					current.applicationsFrom || current.applicationsTo
						? `${current.applicationsFrom ?? '…'} – ${current.applicationsTo ?? '…'}`
						: 'any',
				value: 'applicationDates',
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
				],
				{ title: 'Adverts posted within' },
			);
			if (!days) return undefined;
			next.searchDays = days.value === '-1' ? undefined : days.value;
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
				Object.keys(RANKING).map((name) => ({
					label: name,
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
				validate: checkDate,
			});
			if (to === undefined) return undefined;
			next.applicationsFrom = from.trim() || undefined;
			next.applicationsTo = to.trim() || undefined;
			break;
		}
	}
	return next;
}
