/** "Find by ID, identifier or reference": asks, searches, lets the user choose, reveals and opens it. */
import type { MultipostingClient } from '../../client';
import type { Advert, APIApplication } from '../../protocol/catalogue';
import { runWithProgress } from '../actions/run';
import { find, type FindBy } from '../reads/queries';
import type { PanelPort, TreePort } from '../commands/context';
import type { LogPort, PickItem, UiPort } from '../ui/port';
import type { AccountModel, TreeNode } from './accountModel';

export type FindKind = FindBy;
export type FindResult = { advert: Advert } | { application: APIApplication };

/** Where Find looks: the whole account, or an organisation and those below it. */
export interface FindScope {
	organisationId: number;
	name: string;
}

/** Searches the service for adverts or an application matching the text. */
export function findItems(
	client: MultipostingClient,
	kind: FindKind,
	text: string,
	signal?: AbortSignal,
	scope?: FindScope,
): Promise<FindResult[]> {
	return find(client, kind, text, scope ? String(scope.organisationId) : undefined, { signal });
}

const FIND_KINDS: readonly { kind: FindKind; label: string; description: string }[] = [
	{ kind: 'advertId', label: 'Advert ID', description: 'AdvertID, a number' },
	{
		kind: 'advertIdentifier',
		label: 'Advert identifier',
		description: 'AdvertIdentifier (several instances may share it)',
	},
	{ kind: 'advertReference', label: 'Advert reference', description: 'AdvertReference' },
	{ kind: 'applicationId', label: 'Application ID', description: 'AdvertCandidateID, a number' },
];

type FindChoice = { kind: FindKind; text?: string };

/**
 * What typed text may be, likeliest first: a number is an advert or application ID (or, rarely, an
 * identifier or reference); text with a slash or a letters-and-digits pattern looks like a reference;
 * other text is an identifier or a reference. Empty text offers the kinds, to be asked for next.
 */
export function findChoices(typed: string): PickItem<FindChoice>[] {
	const text = typed.trim();
	if (text === '') {
		return FIND_KINDS.map(({ kind, label, description }) => ({ label, description, value: { kind } }));
	}
	const numeric = /^\d{1,10}$/.test(text);
	const referenceLike = /[/\\]|^[A-Za-z]+[-_ ]?\d/.test(text);
	const order: FindKind[] = numeric
		? ['advertId', 'applicationId', 'advertReference', 'advertIdentifier']
		: referenceLike
			? ['advertReference', 'advertIdentifier']
			: ['advertIdentifier', 'advertReference'];
	return order.map((kind) => {
		const known = FIND_KINDS.find((k) => k.kind === kind)!;
		// The typed text is in the description, not the label: VS Code re-sorts items whose labels
		// match what was typed, and the likeliest reading must stay first.
		return {
			label: known.label,
			description: `Find “${text}” as an ${lowerFirst(known.label)}`,
			value: { kind, text },
		};
	});
}

/** Asks what to find (typed straight in, or a kind then its value); undefined when cancelled. */
export async function askFind(ui: UiPort, scope?: FindScope): Promise<{ kind: FindKind; text: string } | undefined> {
	const picked = await ui.pickTyped(findChoices, {
		title: scope ? `Find in ${scope.name} and below` : 'Find in the account',
		placeholder: 'Type an ID, identifier or reference, or choose what you have',
	});
	if (!picked) return undefined;
	if (picked.value.text !== undefined) return { kind: picked.value.kind, text: picked.value.text };
	const kind = { value: picked.value.kind, label: picked.label };
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
export async function findInAccount(deps: FindDeps, scope?: FindScope): Promise<TreeNode | undefined> {
	const { ui, log } = deps;
	const query = await askFind(ui, scope);
	if (!query) return undefined;
	const results = await runWithProgress(ui, log, 'Searching', true, async (signal) =>
		findItems(await deps.client(), query.kind, query.text, signal, scope),
	);
	if (!results) return undefined;
	if (results.length === 0) {
		const kind = lowerFirst(FIND_KINDS.find((k) => k.kind === query.kind)?.label ?? 'value');
		void ui.info(
			`No ${kind} ${query.text.trim()} ${scope ? `in ${scope.name} or below` : 'on this connection'}. Check the value, or find it as another kind.`,
		);
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
	// The panel first, from the record at hand: locating the row may load several levels of the tree.
	await openFound(deps, chosen);
	const node = await runWithProgress(ui, log, 'Locating it in the tree', true, async () =>
		'advert' in chosen ? deps.model.locateAdvert(chosen.advert) : deps.model.locateApplication(chosen.application),
	);
	if (node) await deps.tree.reveal(node, { focus: false });
	else void ui.info('It is not under a user shown in the tree; its details are in the panel.');
	return node;
}

/** Opens what Find found in the preview panel. */
async function openFound(deps: FindDeps, chosen: FindResult): Promise<void> {
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
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}
