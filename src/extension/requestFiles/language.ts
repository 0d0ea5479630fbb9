/** The editor side of the request file language: diagnostics, completion, hover and quick fixes. */
import * as vscode from 'vscode';
import { complete, diagnose, hover, type LanguageCompletion } from '../../protocol/requestFiles/language';
import type { IssueFix } from '../../protocol/requestFiles/issues';

export const REQUEST_LANGUAGE_ID = 'multiposting-request';
export const REQUEST_SELECTOR: vscode.DocumentSelector = [{ language: REQUEST_LANGUAGE_ID }, { pattern: '**/*.mpreq' }];

const KIND: Record<LanguageCompletion['kind'], vscode.CompletionItemKind> = {
	keyword: vscode.CompletionItemKind.Keyword,
	operation: vscode.CompletionItemKind.Function,
	param: vscode.CompletionItemKind.Property,
	value: vscode.CompletionItemKind.EnumMember,
	field: vscode.CompletionItemKind.Field,
	variable: vscode.CompletionItemKind.Variable,
	snippet: vscode.CompletionItemKind.Snippet,
};

/** True for documents of the language (or named *.mpreq before the language is set). */
export function isRequestDocument(document: vscode.TextDocument): boolean {
	return document.languageId === REQUEST_LANGUAGE_ID || document.fileName.endsWith('.mpreq');
}

/**
 * Registers the language features; diagnostics follow every edit (debounced) and the environment:
 * `environmentVariables` names the variables the chosen environment gives a file.
 */
export function registerRequestLanguage(
	context: vscode.ExtensionContext,
	environmentVariables: (uri: vscode.Uri) => readonly string[] = () => [],
	onDidChangeEnvironment?: vscode.Event<void>,
): void {
	const collection = vscode.languages.createDiagnosticCollection(REQUEST_LANGUAGE_ID);
	const fixes = new WeakMap<vscode.Diagnostic, IssueFix[]>();
	const timers = new Map<string, NodeJS.Timeout>();
	const refresh = (document: vscode.TextDocument): void => {
		if (!isRequestDocument(document)) return;
		const diagnostics = diagnose(document.getText(), environmentVariables(document.uri)).map((item) => {
			const diagnostic = new vscode.Diagnostic(
				new vscode.Range(item.line, item.column, item.line, Math.max(item.endColumn, item.column + 1)),
				item.message,
				item.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
			);
			diagnostic.source = 'mpreq';
			if (item.fixes.length > 0) fixes.set(diagnostic, item.fixes);
			return diagnostic;
		});
		collection.set(document.uri, diagnostics);
	};
	const schedule = (document: vscode.TextDocument): void => {
		const key = document.uri.toString();
		clearTimeout(timers.get(key));
		timers.set(
			key,
			setTimeout(() => {
				timers.delete(key);
				refresh(document);
			}, 200),
		);
	};
	context.subscriptions.push(
		collection,
		{ dispose: () => timers.forEach((timer) => clearTimeout(timer)) },
		vscode.workspace.onDidOpenTextDocument(refresh),
		vscode.workspace.onDidChangeTextDocument((event) => schedule(event.document)),
		vscode.workspace.onDidCloseTextDocument((document) => collection.delete(document.uri)),
		vscode.languages.registerCompletionItemProvider(
			REQUEST_SELECTOR,
			{
				provideCompletionItems(document, position) {
					const line = document.lineAt(position.line).text;
					return complete(document.getText(), position.line, position.character).map((item) => {
						const completion = new vscode.CompletionItem(item.label, KIND[item.kind]);
						completion.detail = item.detail;
						if (item.documentation) {
							completion.documentation = new vscode.MarkdownString(item.documentation);
						}
						completion.insertText = item.insertText ?? item.label;
						const from = item.replaceFrom ?? wordStart(line, position.character);
						completion.range = new vscode.Range(position.line, from, position.line, position.character);
						return completion;
					});
				},
			},
			'.',
			':',
			'{',
			'[',
			' ',
		),
		vscode.languages.registerHoverProvider(REQUEST_SELECTOR, {
			provideHover(document, position) {
				const found = hover(document.getText(), position.line, position.character);
				if (!found) return undefined;
				return new vscode.Hover(
					new vscode.MarkdownString(found.markdown),
					new vscode.Range(position.line, found.column, position.line, found.endColumn),
				);
			},
		}),
		vscode.languages.registerCodeActionsProvider(
			REQUEST_SELECTOR,
			{
				provideCodeActions(document, _range, codeActionContext) {
					const actions: vscode.CodeAction[] = [];
					for (const diagnostic of codeActionContext.diagnostics) {
						(fixes.get(diagnostic) ?? []).forEach((fix, index) => {
							const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
							action.edit = new vscode.WorkspaceEdit();
							action.edit.replace(document.uri, diagnostic.range, fix.replacement);
							action.diagnostics = [diagnostic];
							action.isPreferred = index === 0;
							actions.push(action);
						});
					}
					return actions;
				},
			},
			{ providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
		),
	);
	if (onDidChangeEnvironment) {
		context.subscriptions.push(onDidChangeEnvironment(() => vscode.workspace.textDocuments.forEach(refresh)));
	}
	vscode.workspace.textDocuments.forEach(refresh);
}

function wordStart(line: string, character: number): number {
	let start = character;
	while (start > 0 && /[A-Za-z0-9_]/.test(line[start - 1])) start -= 1;
	return start;
}
