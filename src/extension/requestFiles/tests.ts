/**
 * The Test Explorer of request files: one item per file, one child per request with expectations.
 * Runs go over the active connection; a failure shows the expectation, the actual value and the
 * exchange; a run can be cancelled.
 */
import * as vscode from 'vscode';
import {
	formatExchange,
	runRequestEntries,
	type RequestRunResult,
	type RunOptions,
} from '../../client/requestFileRunner';
import { entryLabel, parseRequestFileEntries, type ParsedEntry } from '../../protocol/requestFiles/format';
import { isRequestDocument } from './language';
import { folderOf } from './running';

export const TEST_CONTROLLER_ID = 'multiposting.requestFiles';

/** The test items of request files, kept in step with the files and open editors. */
export class RequestFileTests implements vscode.Disposable {
	readonly controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, 'Multiposting request files');
	private readonly disposables: vscode.Disposable[] = [];
	/** The last values captured per file, for Open in Playground. */
	readonly lastCaptures = new Map<string, Record<string, string>>();

	constructor(
		private readonly runOptions: () => Promise<RunOptions>,
		private readonly log: vscode.LogOutputChannel,
	) {
		this.controller.resolveHandler = async (item) => {
			if (!item) await this.discover();
		};
		this.controller.refreshHandler = async () => this.discover();
		this.controller.createRunProfile(
			'Run',
			vscode.TestRunProfileKind.Run,
			(request, token) => this.run(request, token),
			true,
		);
		const watcher = vscode.workspace.createFileSystemWatcher('**/*.mpreq');
		this.disposables.push(
			this.controller,
			watcher,
			watcher.onDidCreate((uri) => void this.updateFromDisk(uri)),
			watcher.onDidChange((uri) => void this.updateFromDisk(uri)),
			watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
			vscode.workspace.onDidOpenTextDocument((document) => this.updateFromDocument(document)),
			vscode.workspace.onDidChangeTextDocument((event) => this.updateFromDocument(event.document)),
		);
		vscode.workspace.textDocuments.forEach((document) => this.updateFromDocument(document));
	}

	/** Finds every request file of the workspace. */
	async discover(): Promise<void> {
		const files = await vscode.workspace.findFiles('**/*.mpreq', '**/node_modules/**');
		await Promise.all(files.map((uri) => this.updateFromDisk(uri)));
	}

	private async updateFromDisk(uri: vscode.Uri): Promise<void> {
		const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
		if (open) return this.updateFromDocument(open);
		try {
			this.update(uri, Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'));
		} catch (error) {
			this.log.warn(`Request files: cannot read ${uri.fsPath}: ${String(error)}`);
		}
	}

	private updateFromDocument(document: vscode.TextDocument): void {
		if (document.uri.scheme === 'file' && isRequestDocument(document)) {
			this.update(document.uri, document.getText());
		}
	}

	/** The file's item with a child per request that has expectations. */
	update(uri: vscode.Uri, text: string): vscode.TestItem | undefined {
		const { entries } = parseRequestFileEntries(text);
		const tested = entries
			.map((entry, index) => ({ entry, index }))
			.filter(({ entry }) => entry.expectations.length > 0);
		const key = uri.toString();
		if (tested.length === 0) {
			this.controller.items.delete(key);
			return undefined;
		}
		const file =
			this.controller.items.get(key) ??
			this.controller.createTestItem(key, vscode.workspace.asRelativePath(uri), uri);
		file.children.replace(
			tested.map(({ entry, index }) => {
				const item = this.controller.createTestItem(`${key}#${index}`, entryLabel(entry, index), uri);
				item.range = new vscode.Range(entry.location.first - 1, 0, entry.location.first - 1, 0);
				item.description = entry.document ? `${entry.document.operation} · ${entry.document.binding}` : 'HTTP';
				return item;
			}),
		);
		this.controller.items.add(file);
		return file;
	}

	/** The item of a request, when it is a test. */
	itemFor(uri: vscode.Uri, index: number): vscode.TestItem | undefined {
		return this.controller.items.get(uri.toString())?.children.get(`${uri.toString()}#${index}`);
	}

	/** Runs the requested items (all when none), file by file. */
	async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
		const run = this.controller.createTestRun(request);
		const abort = new AbortController();
		const cancel = token.onCancellationRequested(() => abort.abort());
		try {
			const byFile = new Map<string, { file: vscode.TestItem; indexes?: Set<number> }>();
			const add = (item: vscode.TestItem): void => {
				if (request.exclude?.includes(item)) return;
				const isFile = item.parent === undefined;
				const file = item.parent ?? item;
				const current = byFile.get(file.id) ?? { file, indexes: new Set<number>() };
				if (isFile) current.indexes = undefined;
				else current.indexes?.add(Number(item.id.slice(item.id.lastIndexOf('#') + 1)));
				byFile.set(file.id, current);
			};
			if (request.include) request.include.forEach(add);
			else this.controller.items.forEach(add);
			for (const { file, indexes } of byFile.values()) {
				if (abort.signal.aborted) break;
				await this.runFile(run, file, indexes, abort.signal);
			}
		} catch (error) {
			run.appendOutput(`The run failed: ${error instanceof Error ? error.message : String(error)}\r\n`);
			this.log.error(`Request files: ${error instanceof Error ? error.message : String(error)}`);
		} finally {
			cancel.dispose();
			run.end();
		}
	}

	private async runFile(
		run: vscode.TestRun,
		file: vscode.TestItem,
		indexes: Set<number> | undefined,
		signal: AbortSignal,
	): Promise<void> {
		if (!file.uri) return;
		const document = await vscode.workspace.openTextDocument(file.uri);
		const parsed = parseRequestFileEntries(document.getText());
		const items = new Map<number, vscode.TestItem>();
		file.children.forEach((child) => {
			const index = Number(child.id.slice(child.id.lastIndexOf('#') + 1));
			if (!indexes || indexes.has(index)) items.set(index, child);
		});
		for (const item of items.values()) run.enqueued(item);
		const options = await this.runOptions();
		const results = await runRequestEntries(
			parsed.entries,
			{
				...options,
				signal,
				folder: folderOf(file.uri),
				onProgress: (event) => {
					if (event.kind === 'started') {
						const item = items.get(event.index);
						if (item) run.started(item);
					}
				},
			},
			[...items.keys()],
		);
		const captured: Record<string, string> = { ...this.lastCaptures.get(file.uri.toString()) };
		for (const result of results) Object.assign(captured, result.captured);
		this.lastCaptures.set(file.uri.toString(), captured);
		for (const result of results) {
			run.appendOutput(outputOf(result), undefined, items.get(result.index));
			const item = items.get(result.index);
			if (item) report(run, item, result, parsed.entries[result.index], document.uri);
		}
	}

	dispose(): void {
		for (const disposable of this.disposables) disposable.dispose();
	}
}

function report(
	run: vscode.TestRun,
	item: vscode.TestItem,
	result: RequestRunResult,
	entry: ParsedEntry,
	uri: vscode.Uri,
): void {
	const duration = result.exchange?.timeMs;
	const exchange = result.exchange ? `\n\n${formatExchange(result.exchange)}` : '';
	switch (result.status) {
		case 'passed':
			run.passed(item, duration);
			return;
		case 'skipped':
			if (result.problems.includes('Cancelled.')) run.skipped(item);
			else run.errored(item, new vscode.TestMessage(result.problems.join('\n') || 'Not run.'));
			return;
		case 'errored':
			run.errored(item, new vscode.TestMessage(`${result.problems.join('\n')}${exchange}`), duration);
			return;
		case 'failed': {
			const messages: vscode.TestMessage[] = [];
			result.outcomes.forEach((outcome, index) => {
				if (outcome.passed) return;
				const message = vscode.TestMessage.diff(
					`expect: ${outcome.text}\nexpected: ${outcome.expected}\nactual:   ${outcome.actual}${exchange}`,
					// The diff compares values: "== 2" expects 2.
					outcome.expected.replace(/^== /, ''),
					outcome.actual,
				);
				const line = entry.location.expectationLines[index];
				if (line) message.location = new vscode.Location(uri, new vscode.Position(line - 1, 0));
				messages.push(message);
			});
			for (const problem of result.problems) {
				const message = new vscode.TestMessage(`${problem}${exchange}`);
				message.location = new vscode.Location(uri, new vscode.Position(entry.location.first - 1, 0));
				messages.push(message);
			}
			run.failed(item, messages, duration);
		}
	}
}

/** The Test Results output of one request (CRLF line ends, as the terminal wants). */
function outputOf(result: RequestRunResult): string {
	const lines = [
		`${result.status.toUpperCase()} ${result.label}${result.setup ? ' (needed by a selected request)' : ''}`,
	];
	for (const outcome of result.outcomes) {
		lines.push(
			`  ${outcome.passed ? 'ok' : 'FAILED'} expect: ${outcome.text}${outcome.passed ? '' : ` (expected ${outcome.expected}, got ${outcome.actual})`}`,
		);
	}
	for (const problem of result.problems) lines.push(`  ${problem}`);
	if (result.exchange) {
		lines.push(
			...formatExchange(result.exchange, 2000)
				.split('\n')
				.map((line) => `  | ${line}`),
		);
	}
	return `${lines.join('\r\n')}\r\n\r\n`;
}
