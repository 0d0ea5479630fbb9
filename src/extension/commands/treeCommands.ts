/** Commands of the account tree: refresh, load more, filter, find, and opening a row. */
import { COMMANDS } from '../ids';
import { describeFilters } from '../tree/descriptors';
import { filterFlow } from '../tree/filterFlow';
import type { TreeNode } from '../tree/accountModel';
import { findInAccount, type FindScope } from '../tree/findFlow';
import type { CommandContext, CommandHandler } from './context';
import { treeNodeOf } from './nodeArgs';
import { OpenGesture } from './openGesture';

/** Shows the model's filters in the view (message and Clear Filter button). */
export function showFilters(ctx: CommandContext): void {
	ctx.tree.showFilter(describeFilters(ctx.model.filters, ctx.model.progress()));
}

export async function filterTree(ctx: CommandContext): Promise<void> {
	const filters = await filterFlow(ctx.ui, ctx.model.filters, ctx.model.progress());
	if (!filters) return;
	ctx.model.setFilters(filters);
	showFilters(ctx);
}

/**
 * A click or Enter on an advert or application row: opens it in the preview panel, or pins it when
 * the same row is opened again at once (a double-click).
 */
export async function openFromTree(ctx: CommandContext, gesture: OpenGesture, arg: unknown): Promise<void> {
	const node = treeNodeOf(arg);
	if (!node) return;
	const preview = !gesture.isRepeat(node.descriptor.id);
	if (node.data.kind === 'application') {
		const { application } = node.data;
		if (application.AdvertID === undefined || application.AdvertCandidateID === undefined) return;
		await ctx.panels.showApplication(
			{ advertId: application.AdvertID, advertCandidateId: application.AdvertCandidateID },
			{ preview, initial: application, preserveFocus: preview },
		);
	} else if (node.data.kind === 'advert') {
		const { advert } = node.data;
		if (advert.AdvertID === undefined) return;
		await ctx.panels.showAdvert(
			{ advertId: advert.AdvertID },
			{ preview, initial: advert, preserveFocus: preview },
		);
	}
}

/** The organisation a row stands for, as Find's scope. */
function organisationScope(node: TreeNode | undefined): FindScope | undefined {
	if (node?.data.kind !== 'organisation') return undefined;
	return { organisationId: node.data.organisation.organisationId, name: node.descriptor.label };
}

/** Shows only one organisation and those below it (a filter: Clear Filter shows them all again). */
export function showOrganisation(ctx: CommandContext, arg: unknown): void {
	const scope = organisationScope(treeNodeOf(arg ?? ctx.tree.selection()[0]));
	if (!scope) return;
	ctx.model.setFilters({
		...ctx.model.filters,
		organisation: String(scope.organisationId),
		organisationName: scope.name,
	});
	showFilters(ctx);
}

export function treeCommands(ctx: CommandContext): Record<string, CommandHandler> {
	const gesture = new OpenGesture();
	const find = (scope?: FindScope) =>
		findInAccount(
			{
				ui: ctx.ui,
				log: ctx.services.log,
				client: () => ctx.services.activeClient(),
				model: ctx.model,
				tree: ctx.tree,
				panels: ctx.panels,
			},
			scope,
		);
	return {
		[COMMANDS.treeRefresh]: () => ctx.model.refresh(),
		[COMMANDS.treeRefreshNode]: (arg) => {
			const node = treeNodeOf(arg ?? ctx.tree.selection()[0]);
			if (node) ctx.model.refreshNode(node);
			else ctx.model.refresh();
		},
		[COMMANDS.treeLoadMore]: async (arg) => {
			const node = treeNodeOf(arg);
			if (node) await ctx.model.loadMore(node);
		},
		[COMMANDS.treeRetry]: async (arg) => {
			const node = treeNodeOf(arg);
			if (node) await ctx.model.loadMore(node);
		},
		[COMMANDS.treeFilter]: () => filterTree(ctx),
		[COMMANDS.treeClearFilter]: () => {
			ctx.model.setFilters({});
			showFilters(ctx);
		},
		[COMMANDS.treeFind]: () => find(),
		[COMMANDS.treeFindInOrganisation]: (arg) => find(organisationScope(treeNodeOf(arg ?? ctx.tree.selection()[0]))),
		[COMMANDS.treeShowOrganisation]: (arg) => showOrganisation(ctx, arg),
		[COMMANDS.treeOpen]: (arg) => openFromTree(ctx, gesture, arg),
	};
}
