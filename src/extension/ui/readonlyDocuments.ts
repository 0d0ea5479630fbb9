/**
 * Read-only documents with real titles (delivery log, feeds and quota, WSDL, a traffic exchange, the
 * sides of a diff): served by a TextDocumentContentProvider, so VS Code never offers to save them as it
 * does Untitled documents. Contents live in memory until their document closes, bounded (heldTexts.ts).
 */
import * as vscode from 'vscode';
import { HeldTexts } from './heldTexts';

export const READONLY_SCHEME = 'multiposting-view';

/** Markdown keeps its extension (the preview reads it); the others show their bare title. */
const EXTENSIONS = { markdown: '.md', plaintext: '', xml: '' } as const;
export type ReadonlyLanguage = keyof typeof EXTENSIONS;

class ReadonlyDocuments implements vscode.TextDocumentContentProvider {
	private readonly contents = new HeldTexts();
	private readonly changed = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.changed.event;
	private counter = 0;

	provideTextDocumentContent(uri: vscode.Uri): string {
		return (
			this.contents.get(uri.toString()) ??
			'This document is no longer kept: open it again from the view or command that showed it.'
		);
	}

	/** A URI whose last path segment is the title; the query keeps two documents of one title apart. */
	put(content: string, language: ReadonlyLanguage, title: string): vscode.Uri {
		const safe = title.replace(/[\\/:*?"<>|#]+/g, ' ').trim() || 'Multiposting';
		const uri = vscode.Uri.from({
			scheme: READONLY_SCHEME,
			path: `/${safe}${EXTENSIONS[language]}`,
			query: String(++this.counter),
		});
		this.contents.put(uri.toString(), content);
		return uri;
	}

	forget(uri: vscode.Uri): void {
		this.contents.forget(uri.toString());
	}

	dispose(): void {
		this.changed.dispose();
		this.contents.clear();
	}
}

let documents: ReadonlyDocuments | undefined;

/** Registers the provider; call once at activation. */
export function registerReadonlyDocuments(): vscode.Disposable {
	const provider = new ReadonlyDocuments();
	documents = provider;
	return vscode.Disposable.from(
		vscode.workspace.registerTextDocumentContentProvider(READONLY_SCHEME, provider),
		vscode.workspace.onDidCloseTextDocument((doc) => {
			if (doc.uri.scheme === READONLY_SCHEME) provider.forget(doc.uri);
		}),
		provider,
		{ dispose: () => (documents = documents === provider ? undefined : documents) },
	);
}

/** The URI of `content` read-only under `title`, for an editor to open (e.g. a side of `vscode.diff`). */
export function readonlyUri(content: string, language: ReadonlyLanguage, title: string): vscode.Uri {
	if (!documents) throw new Error('the read-only document provider is not registered');
	return documents.put(content, language, title);
}

/**
 * Opens `content` read-only under `title` and returns its URI; Markdown opens as its rendered
 * preview, other languages in a text editor shown as `show` asks (a preview tab by default).
 */
export async function openReadonlyDocument(
	content: string,
	language: ReadonlyLanguage,
	title: string,
	show: vscode.TextDocumentShowOptions = {},
): Promise<vscode.Uri> {
	const uri = readonlyUri(content, language, title);
	if (language === 'markdown') {
		// The preview commands take no show options: beside is its own command, and focus is given back.
		const previous = show.preserveFocus ? vscode.window.activeTextEditor : undefined;
		const beside = show.viewColumn === vscode.ViewColumn.Beside;
		await vscode.commands.executeCommand(beside ? 'markdown.showPreviewToSide' : 'markdown.showPreview', uri);
		if (previous) await vscode.window.showTextDocument(previous.document, { viewColumn: previous.viewColumn });
		return uri;
	}
	let document = await vscode.workspace.openTextDocument(uri);
	if (document.languageId !== language) document = await vscode.languages.setTextDocumentLanguage(document, language);
	await vscode.window.showTextDocument(document, { preview: true, ...show });
	return uri;
}
