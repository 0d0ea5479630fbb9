/** Turns the account model's descriptors into TreeItems. Thin: the logic is in accountModel.ts. */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import type { AccountModel, TreeNode } from './accountModel';
import type { NodeDescriptor } from './descriptors';

const COLLAPSIBLE: Record<NodeDescriptor['collapsible'], vscode.TreeItemCollapsibleState> = {
	none: vscode.TreeItemCollapsibleState.None,
	collapsed: vscode.TreeItemCollapsibleState.Collapsed,
	expanded: vscode.TreeItemCollapsibleState.Expanded,
};

export class AccountTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
	private readonly changeEmitter = new vscode.EventEmitter<TreeNode | undefined>();
	readonly onDidChangeTreeData = this.changeEmitter.event;
	private readonly subscription: { dispose(): void };

	constructor(private readonly model: AccountModel) {
		this.subscription = model.onDidChange((node) => this.changeEmitter.fire(node));
	}

	getTreeItem(node: TreeNode): vscode.TreeItem {
		const d = node.descriptor;
		const item = new vscode.TreeItem(d.label, COLLAPSIBLE[d.collapsible]);
		item.id = d.id;
		item.description = d.description;
		item.contextValue = d.contextValue;
		if (d.icon) {
			item.iconPath = new vscode.ThemeIcon(
				d.icon.id,
				d.icon.color ? new vscode.ThemeColor(d.icon.color) : undefined,
			);
		}
		if (d.tooltip) {
			const tooltip = new vscode.MarkdownString(d.tooltip);
			tooltip.isTrusted = false;
			tooltip.supportHtml = false;
			item.tooltip = tooltip;
		}
		if (d.command) {
			item.command = { command: d.command.id, title: d.label, arguments: d.command.arguments };
		} else if (d.kind === 'advert' || d.kind === 'application') {
			// A click or Enter opens the preview panel; a double-click pins it (see OpenGesture).
			item.command = { command: COMMANDS.treeOpen, title: 'Open', arguments: [node] };
		} else if (d.kind === 'loadMore' && node.parent) {
			item.command = { command: COMMANDS.treeLoadMore, title: 'Load more', arguments: [node.parent] };
		} else if (d.kind === 'error' && node.parent) {
			item.command = { command: COMMANDS.treeRetry, title: 'Retry', arguments: [node.parent] };
		}
		return item;
	}

	getChildren(node?: TreeNode): Promise<TreeNode[]> {
		return this.model.getChildren(node);
	}

	getParent(node: TreeNode): TreeNode | undefined {
		return node.parent;
	}

	dispose(): void {
		this.subscription.dispose();
		this.changeEmitter.dispose();
	}
}
