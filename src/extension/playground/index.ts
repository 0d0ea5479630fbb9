/**
 * Registers the request playground: its commands, the CodeLens of `.mpreq` request files and the
 * history kept in the extension's global storage.
 */
import * as vscode from 'vscode';
import type { Endpoint } from '../../protocol/catalogue';
import { REQUEST_FILE_HEADER, RequestFileError, parseRequestFile } from '../../protocol/requestFile';
import type { ResponseView } from '../../shared/playgroundMessages';
import type { WorkbenchServices } from '../services';
import { documentToForm } from './documents';
import { PlaygroundHistory, type HistoryStorage } from './history';
import { EditorTextStore, PLAYGROUND_SCHEME } from './editorTexts';
import { formForNode } from './openFor';
import { PlaygroundPanel, openWsdl, type PlaygroundDeps } from './panel';
import { PlaygroundRunner } from './runner';

/** Command ids of the playground (package.json contributes them under category Multiposting). */
export const PLAYGROUND_COMMANDS = {
	open: 'multiposting.playground.open',
	openRequestFile: 'multiposting.playground.openRequestFile',
	sendRequestFile: 'multiposting.playground.sendRequestFile',
	openWsdl: 'multiposting.playground.openWsdl',
	clearHistory: 'multiposting.playground.clearHistory',
	/** "Open in Playground" on an advert or application of the tree. */
	openFor: 'multiposting.playground.openFor',
} as const;

/** The language id of request files. */
export const REQUEST_LANGUAGE_ID = 'multiposting-request';

/** Registers everything of the playground on the extension's context. */
export function registerPlayground(context: vscode.ExtensionContext, services: WorkbenchServices): void {
	const history = new PlaygroundHistory(fileStorage(context.globalStorageUri));
	const runner = new PlaygroundRunner(services, history);
	const texts = new EditorTextStore();
	const deps: PlaygroundDeps = { services, runner, texts };
	const output = vscode.window.createOutputChannel('Multiposting Playground');
	const report = (error: unknown): void => {
		const message =
			error instanceof RequestFileError
				? `The request file has problems:\n${error.message}`
				: error instanceof Error
					? error.message
					: String(error);
		services.log.error(`Playground: ${message}`);
		void vscode.window.showErrorMessage(message);
	};
	const guarded =
		<A extends unknown[]>(run: (...args: A) => Promise<void>) =>
		(...args: A): void => {
			run(...args).catch(report);
		};

	context.subscriptions.push(
		output,
		vscode.workspace.registerTextDocumentContentProvider(PLAYGROUND_SCHEME, {
			provideTextDocumentContent: (uri) =>
				texts.get(uri.path) ?? 'This playground document is no longer kept: open it again from the playground.',
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
			PLAYGROUND_COMMANDS.openRequestFile,
			guarded(async (uri?: vscode.Uri) => {
				const document = await requestDocument(uri);
				PlaygroundPanel.show(deps, documentToForm(parseRequestFile(document.getText())));
			}),
		),
		vscode.commands.registerCommand(
			PLAYGROUND_COMMANDS.sendRequestFile,
			guarded(async (uri?: vscode.Uri) => {
				const document = await requestDocument(uri);
				const form = documentToForm(parseRequestFile(document.getText()));
				const name = vscode.workspace.asRelativePath(document.uri);
				const outcome = await vscode.window.withProgress(
					{ location: vscode.ProgressLocation.Notification, title: `Sending ${name}`, cancellable: true },
					(_progress, token) => {
						const controller = new AbortController();
						token.onCancellationRequested(() => controller.abort());
						return runner.send(form, controller.signal);
					},
				);
				if (!outcome.response) throw new Error(`${name} was not sent: ${outcome.problems.join(' ')}`);
				output.clear();
				output.append(describeResponse(name, outcome.response));
				output.show(true);
				PlaygroundPanel.active?.showResponse(outcome.response);
				const response = outcome.response;
				const headline =
					response.error ??
					(response.fault ? `fault: ${response.fault.message}` : `HTTP ${response.status ?? '?'}`);
				void vscode.window.showInformationMessage(`${form.operation} (${form.binding}): ${headline}`);
			}),
		),
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
		vscode.languages.registerCodeLensProvider(
			[{ language: REQUEST_LANGUAGE_ID }, { pattern: '**/*.mpreq' }],
			new RequestFileLenses(),
		),
	);
}

/** "Open in Playground" and "Send" at the top of every request file. */
class RequestFileLenses implements vscode.CodeLensProvider {
	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		const top = new vscode.Range(0, 0, 0, 0);
		return [
			new vscode.CodeLens(top, {
				title: '$(beaker) Open in Playground',
				command: PLAYGROUND_COMMANDS.openRequestFile,
				arguments: [document.uri],
			}),
			new vscode.CodeLens(top, {
				title: '$(play) Send',
				command: PLAYGROUND_COMMANDS.sendRequestFile,
				arguments: [document.uri],
			}),
		];
	}
}

/** The request file to use: the one given, else the active editor's. */
async function requestDocument(uri?: vscode.Uri): Promise<vscode.TextDocument> {
	if (uri instanceof vscode.Uri) return vscode.workspace.openTextDocument(uri);
	const editor = vscode.window.activeTextEditor;
	if (
		editor &&
		(editor.document.languageId === REQUEST_LANGUAGE_ID ||
			editor.document.fileName.endsWith('.mpreq') ||
			editor.document.getText().startsWith(REQUEST_FILE_HEADER))
	) {
		return editor.document;
	}
	const picked = await vscode.window.showOpenDialog({
		canSelectMany: false,
		filters: { 'Multiposting request': ['mpreq'] },
		openLabel: 'Use Request File',
	});
	if (!picked?.[0]) throw new Error('No request file was chosen.');
	return vscode.workspace.openTextDocument(picked[0]);
}

/** A response as text for the output channel (already redacted). */
export function describeResponse(name: string, response: ResponseView): string {
	const lines = [`${name}`, `${response.request.method} ${response.request.url}`];
	if (response.error !== undefined) lines.push(`Error: ${response.error}`);
	if (response.status !== undefined) {
		lines.push(`HTTP ${response.status}, ${response.size} bytes, ${Math.round(response.timings.totalMs)} ms`);
		for (const [header, value] of response.headers) lines.push(`${header}: ${value}`);
	}
	if (response.fault) {
		const fault = response.fault;
		lines.push(`Fault: ${fault.code}${fault.subcode ? ` / ${fault.subcode}` : ''}: ${fault.message}`);
	}
	if (response.decodeError !== undefined) lines.push(`Not decodable: ${response.decodeError}`);
	if (response.prettyError) lines.push(`Not well-formed XML: ${response.prettyError.message}`);
	lines.push('', response.pretty ?? response.bodyText, '');
	return lines.join('\n');
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
