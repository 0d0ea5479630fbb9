/** The status bar item: the active connection and the sandbox state; a click picks the connection. */
import * as vscode from 'vscode';
import type { ConnectionStore } from './connections/connectionStore';
import { COMMANDS } from './ids';
import { SandboxState, type SandboxManager } from './sandbox/sandboxManager';

const SANDBOX_ICONS: Record<SandboxState, string> = {
	[SandboxState.Stopped]: '$(circle-outline)',
	[SandboxState.Starting]: '$(loading~spin)',
	[SandboxState.Running]: '$(beaker)',
	[SandboxState.Failed]: '$(error)',
	[SandboxState.Stopping]: '$(loading~spin)',
	[SandboxState.Resetting]: '$(loading~spin)',
};

export function createStatusBar(store: ConnectionStore, sandbox: SandboxManager): vscode.Disposable {
	const item = vscode.window.createStatusBarItem('multiposting.status', vscode.StatusBarAlignment.Left, 50);
	item.name = 'Multiposting connection';
	item.command = COMMANDS.connectionSelect;
	const update = () => {
		const active = store.active();
		if (active.kind === 'sandbox') {
			item.text = `${SANDBOX_ICONS[sandbox.state]} Multiposting: Sandbox (${sandbox.state})`;
			item.tooltip =
				sandbox.state === SandboxState.Failed
					? `The sandbox failed to start: ${sandbox.lastError?.message ?? 'unknown error'}. Click to pick a connection.`
					: 'Active connection: the built-in Sandbox. Click to pick a connection.';
			item.backgroundColor =
				sandbox.state === SandboxState.Failed
					? new vscode.ThemeColor('statusBarItem.errorBackground')
					: undefined;
		} else {
			item.text = `$(plug) Multiposting: ${active.label}`;
			item.tooltip = `Active connection: ${active.label} (${active.baseUrl}). Click to pick a connection.`;
			item.backgroundColor = undefined;
		}
	};
	update();
	item.show();
	const scenarios = createScenarioItem(sandbox);
	const subscriptions = [store.onDidChange(update), sandbox.onDidChangeState(update), scenarios];
	return {
		dispose: () => {
			subscriptions.forEach((s) => s.dispose());
			item.dispose();
		},
	};
}

/** Shown while the sandbox injects failures on purpose, in warning colours, so nobody forgets it. */
function createScenarioItem(sandbox: SandboxManager): vscode.Disposable {
	const item = vscode.window.createStatusBarItem('multiposting.scenarios', vscode.StatusBarAlignment.Left, 49);
	item.name = 'Multiposting failure scenarios';
	item.command = COMMANDS.sandboxScenarios;
	item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
	item.color = new vscode.ThemeColor('statusBarItem.warningForeground');
	const update = () => {
		const active = sandbox.activeScenarios;
		if (active.length === 0) {
			item.hide();
			return;
		}
		item.text = `$(warning) Sandbox failures: ${active.map((scenario) => scenario.name).join(', ')}`;
		item.tooltip = `The sandbox injects failures on purpose (${active.map((scenario) => scenario.title).join(', ')}). Click to choose the scenarios; "Turn Failure Scenarios Off" stops them all.`;
		item.show();
	};
	update();
	const subscription = sandbox.onDidChangeScenarios(update);
	return {
		dispose: () => {
			subscription.dispose();
			item.dispose();
		},
	};
}
