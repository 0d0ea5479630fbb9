/**
 * Request files in the editor: the language features, a CodeLens row per request (Send, Open in
 * Playground, Run test), the commands behind them (and Compare with Connection…) and the Test Explorer.
 */
import * as vscode from 'vscode';
import { entriesToRun, formatExchange, runRequestEntries, type RequestRunResult } from '../../client/requestFileRunner';
import { wsdlSchemaValidator } from '../../client/requestFileSchema';
import { loadLibxml2Validator } from '../../client/xsd/libxml2Validator';
import { isOperationName } from '../../protocol/catalogue';
import {
	entryLabel,
	parseRequestFileEntries,
	REQUEST_FILE_HEADER,
	type ParsedEntry,
} from '../../protocol/requestFiles/format';
import { dataChangingOperation } from '../../protocol/requestFiles/changesData';
import { substituteVariables } from '../../protocol/requestFiles/placeholders';
import type { RequestParamValue } from '../../protocol/requestFiles/format';
import type { WorkbenchServices } from '../services';
import { openOtherConnection, secretValues, targetOfClient } from '../playground/connection';
import { documentToForm } from '../playground/documents';
import { openTextDiff, PlaygroundPanel, type PlaygroundDeps } from '../playground/panel';
import { askToSendWrites, pickOtherConnection } from '../playground/pickConnection';
import type { EditorText } from '../../shared/playgroundMessages';
import { COMMANDS } from '../ids';
import { SNIPPET_LANGUAGES, requestSnippet } from '../playground/snippets';
import { isRequestDocument, REQUEST_LANGUAGE_ID, REQUEST_SELECTOR, registerRequestLanguage } from './language';
import { openReadonlyDocument } from '../ui/readonlyDocuments';
import { VscodeSecrets, VscodeUi } from '../ui/vscodeUi';
import { RequestEnvironments } from './environments';
import { comparedPayloads, comparisonHeadline, describeComparison } from './comparing';
import { describeRun, folderOf, runHeadline, runOptionsFor } from './running';
import { RequestFileTests } from './tests';

/** Command ids of request files (package.json contributes them under category Multiposting). */
export const REQUEST_FILE_COMMANDS = {
	send: COMMANDS.playgroundSendRequestFile,
	openInPlayground: COMMANDS.playgroundOpenRequestFile,
	runTest: COMMANDS.requestFileRunTest,
	runAll: COMMANDS.requestFileRunAll,
	copyAs: COMMANDS.requestFileCopyAs,
	compareWith: COMMANDS.requestFileCompareWith,
	showExchange: COMMANDS.requestFileShowExchange,
	selectEnvironment: COMMANDS.requestFileSelectEnvironment,
	setEnvironmentSecrets: COMMANDS.requestFileSetEnvironmentSecrets,
} as const;

export { REQUEST_LANGUAGE_ID };

/** Registers everything of request files. */
export function registerRequestFiles(
	context: vscode.ExtensionContext,
	services: WorkbenchServices,
	playground: PlaygroundDeps,
): void {
	const environments = new RequestEnvironments(
		context.workspaceState,
		services,
		new VscodeUi(services.log),
		new VscodeSecrets(context.secrets),
	);
	registerRequestLanguage(context, (uri) => environments.variablesFor(uri), environments.onDidChange);
	const output = vscode.window.createOutputChannel('Multiposting Requests');
	const timeout = (): number =>
		vscode.workspace.getConfiguration('multiposting').get<number>('requestTimeoutMs', 30_000);
	const tests = new RequestFileTests(
		async (file) => runOptionsFor(services, timeout(), await environments.runFor(file)),
		services.log,
	);
	const report = (error: unknown): void => {
		const message = error instanceof Error ? error.message : String(error);
		services.log.error(`Request files: ${message}`);
		void vscode.window.showErrorMessage(message);
	};
	const guarded =
		<A extends unknown[]>(run: (...args: A) => Promise<void>) =>
		(...args: A): void => {
			run(...args).catch(report);
		};

	/**
	 * Runs requests of a file (one and what it needs, or all) and shows the outcome. It is one run of
	 * the Test Explorer too when tests are among them, so both show the same results.
	 */
	const runAndShow = async (document: vscode.TextDocument, selected: number[] | undefined): Promise<void> => {
		const parsed = parseRequestFileEntries(document.getText());
		if (parsed.entries.length === 0) throw new Error('The file holds no request.');
		const name = vscode.workspace.asRelativePath(document.uri);
		const results = await vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title: `Sending ${name}`, cancellable: true },
			async (_progress, token) => {
				const controller = new AbortController();
				token.onCancellationRequested(() => controller.abort());
				return tests.runDocument(document, selected, controller.signal);
			},
		);
		output.clear();
		output.append(describeRun(name, results, (index) => parsed.entries[index]?.location));
		output.show(true);
		const shown = results.filter((result) => !result.setup);
		const failed = shown.filter((result) => result.status !== 'passed');
		if (shown.length === 1) {
			const entry = parsed.entries[shown[0].index];
			const text = runHeadline(shown[0], entry.document?.operation, entry.document?.binding);
			if (shown[0].status === 'passed') void vscode.window.showInformationMessage(text);
			else void vscode.window.showWarningMessage(text);
		} else {
			const text = `${name}: ${shown.length - failed.length} of ${shown.length} requests passed.`;
			if (failed.length === 0) void vscode.window.showInformationMessage(text);
			else void vscode.window.showWarningMessage(`${text} First failure: ${failed[0].label}.`);
		}
	};

	context.subscriptions.push(
		output,
		tests,
		environments,
		vscode.commands.registerCommand(
			REQUEST_FILE_COMMANDS.selectEnvironment,
			guarded(() => environments.select()),
		),
		vscode.commands.registerCommand(
			REQUEST_FILE_COMMANDS.setEnvironmentSecrets,
			guarded(() => environments.setSecrets()),
		),
		vscode.commands.registerCommand(
			REQUEST_FILE_COMMANDS.send,
			guarded(async (uri?: vscode.Uri, index?: number) => {
				const { document, entry } = await requestAt(uri, index);
				await runAndShow(document, [entry]);
			}),
		),
		vscode.commands.registerCommand(
			REQUEST_FILE_COMMANDS.runAll,
			guarded(async (uri?: vscode.Uri) => {
				const { document } = await requestAt(uri, 0);
				await runAndShow(document, undefined);
			}),
		),
		vscode.commands.registerCommand(
			REQUEST_FILE_COMMANDS.runTest,
			guarded(async (uri?: vscode.Uri, index?: number) => {
				const { document, entry } = await requestAt(uri, index);
				const item = tests.update(document.uri, document.getText()) && tests.itemFor(document.uri, entry);
				if (!item) {
					throw new Error('This request has no expectations: add an "expect:" line to make it a test.');
				}
				await runAndShow(document, [entry]);
				await vscode.commands.executeCommand('workbench.view.testing.focus');
			}),
		),
		vscode.commands.registerCommand(
			REQUEST_FILE_COMMANDS.showExchange,
			guarded(async (context?: { test?: vscode.TestItem }) => {
				const found = tests.exchangeOf(context?.test);
				if (!found) throw new Error('No exchange is kept for this test: run it again.');
				await openReadonlyDocument(
					formatExchange(found.exchange, Infinity),
					'xml',
					`Exchange of ${found.label}`,
				);
			}),
		),
		vscode.commands.registerCommand(
			REQUEST_FILE_COMMANDS.openInPlayground,
			guarded(async (uri?: vscode.Uri, index?: number) => {
				const { document, entry, entries } = await requestAt(uri, index);
				const request = entries[entry].document;
				if (!request) {
					throw new Error(
						`"${entryLabel(entries[entry], entry)}" is not an operation request without errors.`,
					);
				}
				const captured = tests.lastCaptures.get(document.uri.toString()) ?? {};
				const params: Record<string, RequestParamValue> = {};
				for (const [name, value] of Object.entries(request.params)) {
					params[name] = fillCaptured(value, captured);
				}
				PlaygroundPanel.show(playground, documentToForm({ ...request, params }));
			}),
		),
		vscode.commands.registerCommand(
			REQUEST_FILE_COMMANDS.copyAs,
			guarded(async (uri?: vscode.Uri, index?: number) => {
				const { entry, entries } = await requestAt(uri, index);
				const request = entries[entry].document;
				if (!request || request.raw) {
					throw new Error('Only operation requests (without a raw part) can be copied as code.');
				}
				const choice = await vscode.window.showQuickPick(
					SNIPPET_LANGUAGES.map((language) => ({ label: language.label, id: language.id })),
					{
						title: 'Copy the request as',
						placeHolder: 'The API key and password come from MP_API_KEY and MP_PASSWORD',
					},
				);
				if (!choice) return;
				const client = await services.activeClient();
				const values = await secretValues(services);
				if (!isOperationName(request.operation)) return;
				await vscode.env.clipboard.writeText(
					requestSnippet(choice.id, {
						operation: request.operation,
						binding: request.binding,
						params: request.params,
						target: targetOfClient(client),
						values,
					}),
				);
				void vscode.window.showInformationMessage(
					`Copied as ${choice.label}; set MP_API_KEY and MP_PASSWORD before running it.`,
				);
			}),
		),
		vscode.commands.registerCommand(
			REQUEST_FILE_COMMANDS.compareWith,
			guarded(async (uri?: vscode.Uri, index?: number) => {
				const { document, entry, entries } = await requestAt(uri, index);
				const picked = await pickOtherConnection(services);
				if (!picked) return;
				const sent = entriesToRun(entries, [entry]).map((index) => entries[index]);
				const writes = await askToSendWrites(
					sent.flatMap((request) => dataChangingOperation(request) ?? []),
					picked,
					false,
				);
				if (writes === undefined) return;
				const name = vscode.workspace.asRelativePath(document.uri);
				const chosen = await environments.runFor(document.uri);
				const options = await runOptionsFor(services, timeout(), chosen);
				const other = await openOtherConnection(services, picked.id);
				let results: RequestRunResult[];
				try {
					results = await vscode.window.withProgress(
						{
							location: vscode.ProgressLocation.Notification,
							title: `Sending ${entryLabel(entries[entry], entry)} to both connections`,
							cancellable: true,
						},
						(_progress, token) => {
							const controller = new AbortController();
							token.onCancellationRequested(() => controller.abort());
							const compareWith = {
								target: other.target,
								connection: other.values,
								writes,
								validateSchema: wsdlSchemaValidator(other.target, loadLibxml2Validator, timeout()),
							};
							const secrets = [...(options.secrets ?? []), ...other.secrets];
							const run = { ...options, compareWith, secrets, signal: controller.signal };
							return runRequestEntries(entries, { ...run, folder: folderOf(document.uri) }, [entry]);
						},
					);
				} finally {
					await other.close();
				}
				const connections = {
					first: {
						label: chosen?.environment.connection.url
							? `environment ${chosen.environment.name}`
							: services.activeConnection().label,
						namespace: options.target.namespace,
					},
					second: { label: other.info.label, namespace: other.target.namespace },
				};
				output.clear();
				output.append(describeComparison(name, results, connections));
				output.show(true);
				const result = results.find((found) => found.index === entry);
				if (!result) return;
				const headline = comparisonHeadline(result, connections);
				const payloads = comparedPayloads(result, connections);
				if (payloads) {
					const text = (label: string, payload: string): EditorText => ({
						title: `${result.label} payload (${label})`,
						text: `${payload}\n`,
						language: payload.trimStart().startsWith('<') ? 'xml' : 'plaintext',
					});
					await openTextDiff(
						playground.texts,
						text(connections.first.label, payloads.first),
						text(connections.second.label, payloads.second),
					);
				}
				const same = result.comparison?.differences.length === 0 && !result.comparison.problem;
				if (same) void vscode.window.showInformationMessage(headline);
				else void vscode.window.showWarningMessage(headline);
			}),
		),
		vscode.languages.registerCodeLensProvider(REQUEST_SELECTOR, new RequestLenses()),
	);
}

function fillCaptured(value: RequestParamValue, captured: Record<string, string>): RequestParamValue {
	if (typeof value === 'string') return substituteVariables(value, captured).text;
	if (Array.isArray(value)) return value.map((item) => substituteVariables(item, captured).text);
	return value;
}

/** A row of CodeLenses above every request; "Run all" above the first when there are several. */
class RequestLenses implements vscode.CodeLensProvider {
	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		const { entries } = parseRequestFileEntries(document.getText());
		const lenses: vscode.CodeLens[] = [];
		entries.forEach((entry, index) => {
			const range = new vscode.Range(entry.location.first - 1, 0, entry.location.first - 1, 0);
			const args = [document.uri, index];
			if (index === 0 && entries.length > 1) {
				lenses.push(
					new vscode.CodeLens(range, {
						title: `$(run-all) Run all (${entries.length})`,
						command: REQUEST_FILE_COMMANDS.runAll,
						arguments: [document.uri],
					}),
				);
			}
			lenses.push(
				new vscode.CodeLens(range, {
					title: '$(play) Send',
					command: REQUEST_FILE_COMMANDS.send,
					arguments: args,
				}),
			);
			if (entry.document || entry.issues.length > 0) {
				lenses.push(
					new vscode.CodeLens(range, {
						title: '$(beaker) Open in Playground',
						command: REQUEST_FILE_COMMANDS.openInPlayground,
						arguments: args,
					}),
				);
			}
			if (entry.expectations.length > 0) {
				lenses.push(
					new vscode.CodeLens(range, {
						title: `$(testing-run-icon) Run test (${entry.expectations.length})`,
						command: REQUEST_FILE_COMMANDS.runTest,
						arguments: args,
					}),
				);
			}
		});
		return lenses;
	}
}

/** The request file and the index of the request to use: as given, else the one at the cursor. */
async function requestAt(
	uri?: vscode.Uri,
	index?: number,
): Promise<{ document: vscode.TextDocument; entry: number; entries: ParsedEntry[] }> {
	let document: vscode.TextDocument;
	const editor = vscode.window.activeTextEditor;
	if (uri instanceof vscode.Uri) {
		document = await vscode.workspace.openTextDocument(uri);
	} else if (
		editor &&
		(isRequestDocument(editor.document) || editor.document.getText().startsWith(REQUEST_FILE_HEADER))
	) {
		document = editor.document;
	} else {
		const picked = await vscode.window.showOpenDialog({
			canSelectMany: false,
			filters: { 'Multiposting request': ['mpreq'] },
			openLabel: 'Use Request File',
		});
		if (!picked?.[0]) throw new Error('No request file was chosen.');
		document = await vscode.workspace.openTextDocument(picked[0]);
	}
	const { entries } = parseRequestFileEntries(document.getText());
	if (entries.length === 0) throw new Error(`${vscode.workspace.asRelativePath(document.uri)} holds no request.`);
	let chosen = typeof index === 'number' ? index : 0;
	if (typeof index !== 'number' && editor?.document === document) {
		const line = editor.selection.active.line + 1;
		const found = entries.findIndex((entry) => line >= entry.location.start && line <= entry.location.end);
		if (found >= 0) chosen = found;
	}
	if (chosen < 0 || chosen >= entries.length) throw new Error(`The file has no request ${chosen + 1}.`);
	return { document, entry: chosen, entries };
}
