/**
 * The Test Explorer of request files: one item per file, one child per request with expectations.
 * Runs go over the active connection; a failure shows the expectation at its line, the expected and
 * actual values and what came back in one line, with the exchange a click away; a run can be cancelled.
 */
import * as vscode from 'vscode';
import {
	runRequestEntries,
	type ExchangeRecord,
	type RequestRunResult,
	type RunOptions,
} from '../../client/requestFileRunner';
import { entryLabel, parseRequestFileEntries, type ParsedEntry } from '../../protocol/requestFiles/format';
import { isRequestDocument } from './language';
import { describeRun, folderOf, responseSummary } from './running';

export const TEST_CONTROLLER_ID = 'multiposting.requestFiles';

/** The test items of request files, kept in step with the files and open editors. */
export class RequestFileTests implements vscode.Disposable {
	readonly controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, 'Multiposting request files');
	private readonly disposables: vscode.Disposable[] = [];
	/** The last values captured per file, for Open in Playground. */
	readonly lastCaptures = new Map<string, Record<string, string>>();
	private readonly exchanges = new Map<string, { label: string; exchange: ExchangeRecord }>();

	constructor(
		private readonly runOptions: (file: vscode.Uri) => Promise<RunOptions>,
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

	/**
	 * Runs requests of an open file from the editor (Send, Run all, Run test): all of them, or the
	 * selected ones and what they need. When tests are among them it is one test run, so the Test
	 * Explorer shows the same results as the editor.
	 */
	async runDocument(
		document: vscode.TextDocument,
		selected: readonly number[] | undefined,
		signal: AbortSignal,
	): Promise<RequestRunResult[]> {
		const file = this.update(document.uri, document.getText());
		const include = !file
			? []
			: selected
				? selected.flatMap((index) => this.itemFor(document.uri, index) ?? [])
				: [file];
		if (include.length === 0) return this.runEntries(document, selected, undefined, signal);
		const run = this.controller.createTestRun(new vscode.TestRunRequest(include));
		try {
			return await this.runEntries(document, selected, run, signal);
		} finally {
			run.end();
		}
	}

	/** Runs the requested items of the Test Explorer (all when none), file by file. */
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
				else current.indexes?.add(indexOf(item));
				byFile.set(file.id, current);
			};
			if (request.include) request.include.forEach(add);
			else this.controller.items.forEach(add);
			for (const { file, indexes } of byFile.values()) {
				if (abort.signal.aborted || !file.uri) break;
				const document = await vscode.workspace.openTextDocument(file.uri);
				await this.runEntries(document, indexes && [...indexes], run, abort.signal);
			}
		} catch (error) {
			run.appendOutput(`The run failed: ${error instanceof Error ? error.message : String(error)}\r\n`);
			this.log.error(`Request files: ${error instanceof Error ? error.message : String(error)}`);
		} finally {
			cancel.dispose();
			run.end();
		}
	}

	/** Runs the entries (all, or the selected ones and what they need); reports the tests among them to `run`. */
	private async runEntries(
		document: vscode.TextDocument,
		selected: readonly number[] | undefined,
		run: vscode.TestRun | undefined,
		signal: AbortSignal,
	): Promise<RequestRunResult[]> {
		const parsed = parseRequestFileEntries(document.getText());
		const items = new Map<number, vscode.TestItem>();
		this.controller.items.get(document.uri.toString())?.children.forEach((child) => {
			const index = indexOf(child);
			if (!selected || selected.includes(index)) items.set(index, child);
		});
		if (run) for (const item of items.values()) run.enqueued(item);
		const options = await this.runOptions(document.uri);
		const results = await runRequestEntries(
			parsed.entries,
			{
				...options,
				signal,
				folder: folderOf(document.uri),
				onProgress: (event) => {
					const item = event.kind === 'started' ? items.get(event.index) : undefined;
					if (item) run?.started(item);
				},
			},
			selected,
		);
		const captured: Record<string, string> = { ...this.lastCaptures.get(document.uri.toString()) };
		for (const result of results) Object.assign(captured, result.captured);
		this.lastCaptures.set(document.uri.toString(), captured);
		if (run) {
			const name = vscode.workspace.asRelativePath(document.uri);
			const lines = (index: number) => parsed.entries[index]?.location;
			run.appendOutput(`${describeRun(name, results, lines).replace(/\r?\n/g, '\r\n')}\r\n`);
			for (const result of results) {
				const item = items.get(result.index);
				if (!item) continue;
				if (result.exchange) this.exchanges.set(item.id, { label: result.label, exchange: result.exchange });
				report(run, item, result, parsed.entries[result.index], document.uri);
			}
		}
		return results;
	}

	/** The last exchange of a test, for "Show Exchange" on its failure message. */
	exchangeOf(item: vscode.TestItem | undefined): { label: string; exchange: ExchangeRecord } | undefined {
		return item ? this.exchanges.get(item.id) : undefined;
	}

	dispose(): void {
		for (const disposable of this.disposables) disposable.dispose();
	}
}

/** The context value of failure messages that have an exchange to show (package.json menus). */
export const EXCHANGE_MESSAGE_CONTEXT = 'multiposting.requestExchange';

function report(
	run: vscode.TestRun,
	item: vscode.TestItem,
	result: RequestRunResult,
	entry: ParsedEntry,
	uri: vscode.Uri,
): void {
	const duration = result.exchange?.timeMs;
	const response = responseSummary(result);
	const withResponse = (text: string): string => (response ? `${text}\n\nresponse: ${response}` : text);
	const at = (line: number): vscode.Location => new vscode.Location(uri, new vscode.Position(line - 1, 0));
	const message = (text: string, line: number): vscode.TestMessage => {
		const made = new vscode.TestMessage(withResponse(text));
		made.location = at(line);
		if (result.exchange) made.contextValue = EXCHANGE_MESSAGE_CONTEXT;
		return made;
	};
	switch (result.status) {
		case 'passed':
			run.passed(item, duration);
			return;
		case 'skipped':
			if (result.problems.includes('Cancelled.')) run.skipped(item);
			else run.errored(item, message(result.problems.join('\n') || 'Not run.', entry.location.first));
			return;
		case 'errored':
			run.errored(item, message(result.problems.join('\n'), entry.location.first), duration);
			return;
		case 'failed': {
			const messages: vscode.TestMessage[] = [];
			result.outcomes.forEach((outcome, index) => {
				if (outcome.passed) return;
				const line = entry.location.expectationLines[index] ?? entry.location.first;
				// The diff compares values: "== 2" expects 2. The failure comes first; the exchange is a click away.
				const failure = vscode.TestMessage.diff(
					withResponse(
						`expect: ${outcome.text} (line ${line})\nexpected: ${outcome.expected}\nactual:   ${outcome.actual}`,
					),
					outcome.expected.replace(/^== /, ''),
					outcome.actual,
				);
				failure.location = at(line);
				if (result.exchange) failure.contextValue = EXCHANGE_MESSAGE_CONTEXT;
				messages.push(failure);
			});
			for (const problem of result.problems) messages.push(message(problem, entry.location.first));
			run.failed(item, messages, duration);
		}
	}
}

function indexOf(item: vscode.TestItem): number {
	return Number(item.id.slice(item.id.lastIndexOf('#') + 1));
}
