/**
 * The drift check in VS Code: a recording (a file, or the Traffic view's chosen exchanges) sent again
 * to the built-in sandbox, reads only unless asked, its answers compared in shape with the recorded
 * ones. The report opens as a read-only document; both answers of a drifted exchange open side by side,
 * and one copies as a fidelity bug to file.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { checkDrift, type DriftItem, type DriftReport } from '../../client/driftCheck';
import { fidelityIssue } from '../../client/driftReport';
import type { JournalEntry } from '../../emulator/journal/types';
import { parseRecording, RECORDING_FILE_SUFFIX, type Recording } from '../../protocol/recordings/format';
import { dataChangingCall } from '../../protocol/requestFiles/changesData';
import { COMMANDS } from '../ids';
import { openReadonlyDocument, readonlyUri } from '../ui/readonlyDocuments';
import { controlOf, guarded, type LiveDeps } from './deps';
import { driftMarkdown, shownBody } from './driftMarkdown';

const COMPARE = 'Compare Answers…';
const COPY_BUG = 'Copy Fidelity Bug…';

let last: { report: DriftReport; source: string } | undefined;

async function recordingFile(given?: vscode.Uri): Promise<vscode.Uri | undefined> {
	if (given instanceof vscode.Uri) return given;
	const active = vscode.window.activeTextEditor?.document.uri;
	if (active?.path.endsWith(RECORDING_FILE_SUFFIX)) return active;
	const found = await vscode.workspace.findFiles(`**/*${RECORDING_FILE_SUFFIX}`, '**/node_modules/**', 200);
	if (found.length === 0) {
		const opened = await vscode.window.showOpenDialog({ filters: { 'Multiposting recording': ['json'] } });
		return opened?.[0];
	}
	const picked = await vscode.window.showQuickPick(
		found.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
		{ title: 'Check the drift of which recording?' },
	);
	return picked?.uri;
}

async function run(deps: LiveDeps, recording: Recording, source: string): Promise<void> {
	if (deps.traffic.attachedUrl()) {
		throw new Error(
			'the drift check sends to the built-in sandbox; the Traffic view is attached to another one (attach it back with an empty URL).',
		);
	}
	const writes = recording.exchanges.filter((exchange) =>
		dataChangingCall(exchange.operation, [exchange.request.path, exchange.request.query, exchange.request.body]),
	).length;
	let sendWrites = false;
	if (writes > 0) {
		const answer = await vscode.window.showWarningMessage(
			`${writes} recorded request${writes === 1 ? ' changes' : 's change'} data. Send ${writes === 1 ? 'it' : 'them'} to the sandbox too? Nothing is ever sent to the live service.`,
			{ modal: true },
			'Reads Only',
			'Send Writes to the Sandbox',
		);
		if (answer === undefined) return;
		sendWrites = answer === 'Send Writes to the Sandbox';
	}
	await controlOf(deps);
	const sandbox = deps.sandbox.running;
	if (!sandbox) throw new Error('the sandbox is not running.');
	const report = await vscode.window.withProgress(
		{ location: vscode.ProgressLocation.Notification, title: `Checking the drift of ${source}`, cancellable: true },
		(progress, token) => {
			const abort = new AbortController();
			token.onCancellationRequested(() => abort.abort());
			return checkDrift(
				recording,
				{
					baseUrl: sandbox.baseUrl,
					namespace: sandbox.namespace,
					paths: { posting: '/SOAP/Posting.asmx', administration: '/SOAP/Administration.asmx' },
				},
				{
					apiKey: sandbox.demo.apiKey,
					username: sandbox.demo.username,
					password: sandbox.demo.password,
					culture: 'en-GB',
				},
				{
					writes: sendWrites,
					signal: abort.signal,
					onExchange: (_item, index, total) =>
						progress.report({ message: `${index + 1} of ${total}`, increment: 100 / total }),
				},
			);
		},
	);
	last = { report, source };
	await openReadonlyDocument(driftMarkdown(report, source), 'markdown', `Drift of ${source}`);
	const { drifted, compared, errors } = report.counts;
	if (drifted + errors === 0) {
		void vscode.window.showInformationMessage(
			`No drift: the sandbox answers all ${compared} compared exchanges in the shapes of ${source}.`,
		);
		return;
	}
	const choice = await vscode.window.showWarningMessage(
		`Drift: ${drifted} of ${compared} exchanges of ${source} answer in another shape in the sandbox${errors ? `, ${errors} without an answer` : ''}.`,
		COMPARE,
		COPY_BUG,
	);
	if (choice === COMPARE) await compareAnswers();
	if (choice === COPY_BUG) await copyIssue();
}

async function pickDrifted(title: string): Promise<DriftItem | undefined> {
	if (!last) throw new Error('no drift check has run in this window yet.');
	const drifted = last.report.items.filter((item) => item.outcome === 'drift');
	if (drifted.length === 0) throw new Error('the last drift check found no drift.');
	if (drifted.length === 1) return drifted[0];
	const picked = await vscode.window.showQuickPick(
		drifted.map((item) => ({
			label: `#${item.id} ${item.operation ?? 'plain HTTP'}`,
			description: `${item.drift.length} difference${item.drift.length === 1 ? '' : 's'}`,
			detail: item.drift[0]
				? `${item.drift[0].aspect} ${item.drift[0].path ?? ''}: ${item.drift[0].recorded} vs ${item.drift[0].sandbox}`
				: undefined,
			item,
		})),
		{ title },
	);
	return picked?.item;
}

async function compareAnswers(): Promise<void> {
	const item = await pickDrifted('Compare the answers of which exchange?');
	if (!item || !last) return;
	const name = `#${item.id} ${item.operation ?? 'request'}`;
	await vscode.commands.executeCommand(
		'vscode.diff',
		readonlyUri(`HTTP ${item.recorded.status}\n\n${shownBody(item.recorded.body)}`, 'xml', `${name} live service`),
		readonlyUri(
			`HTTP ${item.sandbox?.status ?? '-'}\n\n${shownBody(item.sandbox?.body ?? '')}`,
			'xml',
			`${name} sandbox`,
		),
		`${name}: live service ↔ sandbox`,
	);
}

async function copyIssue(): Promise<void> {
	const item = await pickDrifted('Copy which exchange as a fidelity bug?');
	if (!item || !last) return;
	const issue = fidelityIssue(item, last.report);
	await vscode.env.clipboard.writeText(`# ${issue.title}\n\n${issue.body}\n`);
	void vscode.window.showInformationMessage(
		'Copied the fidelity bug (title and body, credentials as placeholders): paste it into a new issue.',
	);
}

export function driftCommands(deps: LiveDeps): vscode.Disposable[] {
	return [
		vscode.commands.registerCommand(
			COMMANDS.driftCheck,
			guarded(deps, 'The drift check failed', async (uri?: vscode.Uri) => {
				const file = await recordingFile(uri);
				if (!file) return;
				const source = basename(file.path);
				const recording = parseRecording(
					new TextDecoder().decode(await vscode.workspace.fs.readFile(file)),
					source,
				);
				await run(deps, recording, source);
			}),
		),
		vscode.commands.registerCommand(
			COMMANDS.trafficCheckDrift,
			guarded(deps, 'The drift check failed', async (entry?: JournalEntry) => {
				const chosen = deps.traffic.chosen(entry);
				const rows =
					chosen.length > 0 ? chosen : deps.traffic.rows().filter((row) => row.upstream !== undefined);
				if (rows.length === 0) {
					throw new Error('no exchange with a live service in the Traffic view: inspect a connection first.');
				}
				const made = await (await controlOf(deps)).recording(rows.map((row) => row.id));
				const source = `${rows.length} exchange${rows.length === 1 ? '' : 's'} of ${made.upstream ?? 'the sandbox'}`;
				await run(deps, parseRecording(made.text, source), source);
			}),
		),
		vscode.commands.registerCommand(COMMANDS.driftCompare, guarded(deps, 'Comparing failed', compareAnswers)),
		vscode.commands.registerCommand(COMMANDS.driftCopyIssue, guarded(deps, 'Copying failed', copyIssue)),
	];
}
