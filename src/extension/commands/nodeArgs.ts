/**
 * Reads the argument of a command: a tree row, a reference from a panel, a service record, a
 * keybinding's origin, or nothing (then the active panel or the tree's selection).
 */
import { toAdvertRef, toApplicationRef } from '../panels/models';
import type { AdvertRef, ApplicationRef } from '../services';
import type { TreeNode } from '../tree/accountModel';
import { isKeyOrigin, type PanelPort, type TreePort } from './context';

function isTreeNode(value: unknown): value is TreeNode {
	return typeof value === 'object' && value !== null && 'descriptor' in value && 'data' in value;
}

export function treeNodeOf(arg: unknown): TreeNode | undefined {
	return isTreeNode(arg) ? arg : undefined;
}

export function applicationRefOf(arg: unknown): ApplicationRef | undefined {
	if (isTreeNode(arg) && arg.data.kind !== 'application') return undefined;
	return toApplicationRef(arg);
}

/** The advert of an advert row, or the advert an application row belongs to. */
export function advertRefOf(arg: unknown): AdvertRef | undefined {
	if (isTreeNode(arg)) {
		if (arg.data.kind === 'advert') return toAdvertRef(arg.data.advert);
		if (arg.data.kind === 'application' && arg.data.application.AdvertID !== undefined) {
			return { advertId: arg.data.application.AdvertID };
		}
		return undefined;
	}
	return toAdvertRef(arg);
}

/**
 * The application a command acts on, and where it came from. A tree row or reference given as the
 * argument wins; a keybinding says where it was pressed; otherwise (the palette, an editor title
 * button, whose argument is no application) the active application panel, else the tree's selection.
 */
export function targetApplication(
	arg: unknown,
	tree: TreePort,
	panels: PanelPort,
): { ref: ApplicationRef; node?: TreeNode; source: 'arg' | 'panel' | 'tree' } | undefined {
	const fromTree = () => {
		const node = tree.selection()[0];
		const ref = applicationRefOf(node);
		return ref ? { ref, node, source: 'tree' as const } : undefined;
	};
	const fromPanel = () => {
		const ref = panels.activeApplication();
		return ref ? { ref, source: 'panel' as const } : undefined;
	};
	if (isKeyOrigin(arg)) return arg.from === 'panel' ? fromPanel() : fromTree();
	const given = arg === undefined ? undefined : applicationRefOf(arg);
	if (given) return { ref: given, node: treeNodeOf(arg), source: 'arg' };
	return fromPanel() ?? fromTree();
}

/** The advert a command acts on: its argument, else the tree's selection. */
export function targetAdvert(arg: unknown, tree: TreePort): AdvertRef | undefined {
	return advertRefOf(arg ?? tree.selection()[0]);
}
