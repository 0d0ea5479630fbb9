/**
 * Registers the request playground: its commands and the history kept in the extension's global
 * storage. Request files (CodeLens, Send, Open in Playground) are registered by ../requestFiles.
 */
import * as vscode from 'vscode';
import type { Endpoint } from '../../protocol/catalogue';
import type { WorkbenchServices } from '../services';
import { EditorTextStore, PLAYGROUND_SCHEME } from './editorTexts';
import { PlaygroundHistory, type HistoryStorage } from './history';
import { formForNode } from './openFor';
import { PlaygroundPanel, openWsdl, type PlaygroundDeps } from './panel';
import { PlaygroundRunner } from './runner';

/** Command ids of the playground (package.json contributes them under category Multiposting). */
export const PLAYGROUND_COMMANDS = {
	open: 'multiposting.playground.open',
	openWsdl: 'multiposting.playground.openWsdl',
	clearHistory: 'multiposting.playground.clearHistory',
	/** "Open in Playground" on an advert or application of the tree. */
	openFor: 'multiposting.playground.openFor',
} as const;

/** Registers everything of the playground on the extension's context; returns what its panel works with. */
export function registerPlayground(context: vscode.ExtensionContext, services: WorkbenchServices): PlaygroundDeps {
	const history = new PlaygroundHistory(fileStorage(context.globalStorageUri));
	const runner = new PlaygroundRunner(services, history);
	const texts = new EditorTextStore();
	const deps: PlaygroundDeps = { services, runner, texts };
	const report = (error: unknown): void => {
		const message = error instanceof Error ? error.message : String(error);
		services.log.error(`Playground: ${message}`);
		void vscode.window.showErrorMessage(message);
	};
	const guarded =
		<A extends unknown[]>(run: (...args: A) => Promise<void>) =>
		(...args: A): void => {
			run(...args).catch(report);
		};

	context.subscriptions.push(
		vscode.workspace.registerTextDocumentContentProvider(PLAYGROUND_SCHEME, {
			provideTextDocumentContent: (uri) =>
				texts.get(uri.path) ?? 'This playground document is no longer kept: open it again from the playground.',
		}),
		vscode.workspace.onDidCloseTextDocument((document) => {
			if (document.uri.scheme === PLAYGROUND_SCHEME) texts.forget(document.uri.path);
		}),
		vscode.commands.registerCommand(PLAYGROUND_COMMANDS.open, () => {
			PlaygroundPanel.show(deps);
		}),
		vscode.commands.registerCommand(PLAYGROUND_COMMANDS.openFor, (node?: unknown) => {
			const form = formForNode(node);
			if (!form) {
				void vscode.window.showInformationMessage('Open in Playground works on an advert or an application.');
				return;
			}
			PlaygroundPanel.show(deps, form);
		}),
		vscode.commands.registerCommand(
			PLAYGROUND_COMMANDS.openWsdl,
			guarded(async (endpoint?: Endpoint) => {
				const chosen =
					endpoint ??
					(
						await vscode.window.showQuickPick(
							[
								{ label: 'Posting endpoint', endpoint: 'posting' as const },
								{ label: 'Administration endpoint', endpoint: 'administration' as const },
							],
							{ title: 'Open the WSDL of which endpoint?' },
						)
					)?.endpoint;
				if (chosen) await openWsdl(runner, chosen);
			}),
		),
		vscode.commands.registerCommand(
			PLAYGROUND_COMMANDS.clearHistory,
			guarded(async () => {
				await history.clear();
				void vscode.window.showInformationMessage('The playground history is empty.');
			}),
		),
	);
	return deps;
}

/** The history as a JSON file in the extension's global storage. */
function fileStorage(folder: vscode.Uri): HistoryStorage {
	const file = vscode.Uri.joinPath(folder, 'playground-history.json');
	return {
		read: async () => {
			try {
				return Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8');
			} catch {
				return undefined;
			}
		},
		write: async (text) => {
			await vscode.workspace.fs.createDirectory(folder);
			await vscode.workspace.fs.writeFile(file, Buffer.from(text, 'utf8'));
		},
	};
}
