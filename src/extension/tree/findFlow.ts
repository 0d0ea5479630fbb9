/** "Find by id, identifier or reference": asks, searches and returns the chosen advert or application. */
import type { MultipostingClient } from '../../client';
import type { Advert, APIApplication } from '../../protocol/catalogue';
import type { UiPort } from '../ui/port';

export type FindKind = 'advertId' | 'advertIdentifier' | 'advertReference' | 'applicationId';
export type FindResult = { advert: Advert } | { application: APIApplication };

const ALL_TIME_START = '2000-01-01 00:00:00';

/** Searches the service for adverts or an application matching the text. */
export async function findItems(
	client: MultipostingClient,
	kind: FindKind,
	text: string,
	signal?: AbortSignal,
): Promise<FindResult[]> {
	const value = text.trim();
	if (kind === 'applicationId') {
		const page = await client.getApplicationsPaged(
			{
				AdvertCandidateIDAsCSV: value,
				sApplicationStartDateTime: ALL_TIME_START,
				CurrentPage: 1,
				RowsPerPage: 10,
			},
			{ signal },
		);
		return (page.Applications ?? []).map((application) => ({ application }));
	}
	const filter =
		kind === 'advertId'
			? { sAdvertID: value }
			: kind === 'advertIdentifier'
				? { sAdvertIdentifier: value }
				: { sAdvertReference: value };
	const page = await client.getAdvertPaged(
		{ ...filter, sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 50 },
		{ signal },
	);
	return (page.Adverts ?? []).map((advert) => ({ advert }));
}

/** Asks what to find; undefined when cancelled. */
export async function askFind(ui: UiPort): Promise<{ kind: FindKind; text: string } | undefined> {
	const kind = await ui.pick<FindKind>(
		[
			{ label: 'Advert ID', description: 'AdvertID, a number', value: 'advertId' },
			{
				label: 'Advert identifier',
				description: 'AdvertIdentifier (several instances may share it)',
				value: 'advertIdentifier',
			},
			{ label: 'Advert reference', description: 'AdvertReference', value: 'advertReference' },
			{ label: 'Application ID', description: 'AdvertCandidateID, a number', value: 'applicationId' },
		],
		{ title: 'Find in the account', placeholder: 'What do you have?' },
	);
	if (!kind) return undefined;
	const numeric = kind.value === 'advertId' || kind.value === 'applicationId';
	const text = await ui.input({
		title: `Find by ${kind.label}`,
		prompt: kind.label,
		validate: (t) =>
			t.trim() === '' ? 'Enter a value' : numeric && !/^\d+$/.test(t.trim()) ? 'Enter a number' : undefined,
	});
	return text === undefined ? undefined : { kind: kind.value, text };
}

/** Label of a find result for a quick pick. */
export function findResultLabel(result: FindResult): { label: string; description: string } {
	if ('advert' in result) {
		return {
			label: result.advert.AdvertTitle || `Advert ${result.advert.AdvertID}`,
			description: `Advert ${result.advert.AdvertID} · ${result.advert.AdvertReference ?? ''}`,
		};
	}
	const a = result.application;
	return {
		label: [a.FirstName, a.LastName].filter(Boolean).join(' ') || `Application ${a.AdvertCandidateID}`,
		description: `Application ${a.AdvertCandidateID} · ${a.AdvertTitle ?? ''}`,
	};
}
