/** "Find by ID, identifier or reference": asks, searches, lets the user choose, reveals and opens it. */
import type { MultipostingClient } from '../../client';
import type { Advert, APIApplication } from '../../protocol/catalogue';
import { runWithProgress } from '../actions/run';
import { find, type FindBy } from '../reads/queries';
import type { PanelPort, TreePort } from '../commands/context';
import type { LogPort, UiPort } from '../ui/port';
import type { AccountModel, TreeNode } from './accountModel';

export type FindKind = FindBy;
export type FindResult = { advert: Advert } | { application: APIApplication };

/** Searches the service for adverts or an application matching the text. */
export function findItems(
	client: MultipostingClient,
	kind: FindKind,
	text: string,
	signal?: AbortSignal,
): Promise<FindResult[]> {
	return find(client, kind, text, undefined, { signal });
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

export interface FindDeps {
	ui: UiPort;
	log: LogPort;
	client(): Promise<MultipostingClient>;
	model: Pick<AccountModel, 'locateAdvert' | 'locateApplication'>;
	tree: Pick<TreePort, 'reveal'>;
	panels: Pick<PanelPort, 'showAdvert' | 'showApplication'>;
}

/**
 * The whole Find command: asks what to find, searches, lets the user choose among several results,
 * reveals the row in the tree when its owner is there, and opens it in the preview panel.
 * Resolves to the row found in the tree, if any.
 */
export async function findInAccount(deps: FindDeps): Promise<TreeNode | undefined> {
	const { ui, log } = deps;
	const query = await askFind(ui);
	if (!query) return undefined;
	const results = await runWithProgress(ui, log, 'Searching', true, async (signal) =>
		findItems(await deps.client(), query.kind, query.text, signal),
	);
	if (!results) return undefined;
	if (results.length === 0) {
		void ui.info(`Nothing matches ${query.text.trim()}.`);
		return undefined;
	}
	const chosen =
		results.length === 1
			? results[0]
			: (
					await ui.pick(
						results.map((r) => ({ ...findResultLabel(r), value: r })),
						{ title: `${results.length} results for ${query.text.trim()}` },
					)
				)?.value;
	if (!chosen) return undefined;
	const node = await runWithProgress(ui, log, 'Locating it in the tree', true, async () =>
		'advert' in chosen ? deps.model.locateAdvert(chosen.advert) : deps.model.locateApplication(chosen.application),
	);
	if (node) await deps.tree.reveal(node, { focus: true });
	else void ui.info('It is not under a user shown in the tree; its details open in a panel.');
	if ('advert' in chosen) {
		const id = chosen.advert.AdvertID;
		if (id !== undefined) await deps.panels.showAdvert({ advertId: id }, { preview: true, initial: chosen.advert });
	} else {
		const { AdvertID, AdvertCandidateID } = chosen.application;
		if (AdvertID !== undefined && AdvertCandidateID !== undefined) {
			await deps.panels.showApplication(
				{ advertId: AdvertID, advertCandidateId: AdvertCandidateID },
				{ preview: true, initial: chosen.application },
			);
		}
	}
	return node;
}
