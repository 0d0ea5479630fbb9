/**
 * Recordings in VS Code: Save as Recording from the Traffic view's chosen rows (the sandbox builds the
 * file and refuses it if a credential would remain), and Replay a Recording in the sandbox, strict or
 * fall-through, until turned off.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { JournalEntry } from '../../emulator/journal/types';
import { RECORDING_FILE_SUFFIX } from '../../protocol/recordings/format';
import { COMMANDS } from '../ids';
import { controlOf, guarded, type LiveDeps } from './deps';
import type { ReplayMode } from './sandboxControl';

async function saveAsRecording(deps: LiveDeps, entry?: JournalEntry): Promise<void> {
	const chosen = deps.traffic.chosen(entry);
	if (chosen.length === 0) {
		throw new Error('choose one or more exchanges in the Traffic view first (Ctrl or Shift for several).');
	}
	const control = await controlOf(deps);
	const made = await control.recording(chosen.map((row) => row.id));
	const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
	const upstreamName = made.upstream ? new URL(made.upstream).hostname.replace(/[^a-z0-9.-]+/gi, '-') : 'sandbox';
	const picked = await vscode.window.showSaveDialog({
		defaultUri: folder ? vscode.Uri.joinPath(folder, `${upstreamName}${RECORDING_FILE_SUFFIX}`) : undefined,
		filters: { 'Multiposting recording': ['json'] },
		saveLabel: 'Save Recording',
		title: `Save ${made.exchanges} exchange${made.exchanges === 1 ? '' : 's'} as a recording`,
	});
	if (!picked) return;
	const uri = picked.path.endsWith(RECORDING_FILE_SUFFIX)
		? picked
		: picked.with({ path: picked.path.replace(/(\.json)?$/, RECORDING_FILE_SUFFIX) });
	await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(made.text));
	await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
	void vscode.window.showInformationMessage(
		`Saved ${made.exchanges} exchange${made.exchanges === 1 ? '' : 's'} to ${vscode.workspace.asRelativePath(uri)} (credentials as placeholders). Replay it with "Replay a Recording…" or multiposting-sandbox --replay.`,
	);
}

/** Recording files to replay: the one given (explorer, editor), else picked from the workspace or a dialog. */
async function chooseRecordings(given?: vscode.Uri): Promise<vscode.Uri[] | undefined> {
	if (given) return [given];
	const active = vscode.window.activeTextEditor?.document.uri;
	const found = await vscode.workspace.findFiles(`**/*${RECORDING_FILE_SUFFIX}`, '**/node_modules/**', 200);
	const browse = { label: '$(folder-opened) Browse…', uri: undefined as vscode.Uri | undefined };
	const items = [
		...found.map((uri) => ({
			label: vscode.workspace.asRelativePath(uri),
			uri: uri as vscode.Uri | undefined,
			picked: active?.toString() === uri.toString(),
		})),
		browse,
	];
	const picked = await vscode.window.showQuickPick(items, {
		title: 'Replay which recordings?',
		placeHolder: found.length
			? 'The sandbox answers the requests they hold with the recorded answers'
			: 'No recording in the workspace: browse for one',
		canPickMany: true,
	});
	if (!picked || picked.length === 0) return undefined;
	if (picked.some((item) => item.uri === undefined)) {
		const opened = await vscode.window.showOpenDialog({
			canSelectMany: true,
			filters: { 'Multiposting recording': ['json'] },
			title: 'Replay which recordings?',
		});
		return opened && opened.length > 0
			? [...picked.flatMap((item) => (item.uri ? [item.uri] : [])), ...opened]
			: undefined;
	}
	return picked.map((item) => item.uri!);
}

async function startReplay(deps: LiveDeps, given?: vscode.Uri): Promise<void> {
	const uris = await chooseRecordings(given instanceof vscode.Uri ? given : undefined);
	if (!uris) return;
	const mode = await vscode.window.showQuickPick(
		[
			{
				label: 'Strict',
				detail: 'A request not in the recording gets the NotRecorded fault naming the closest recorded one (for CI)',
				mode: 'strict' as ReplayMode,
			},
			{
				label: 'Fall-through',
				detail: 'A request not in the recording is answered by the sandbox',
				mode: 'fallThrough' as ReplayMode,
			},
		],
		{ title: 'How should the sandbox treat a request that is not recorded?' },
	);
	if (!mode) return;
	const recordings = await Promise.all(
		uris.map(async (uri) => ({
			name: basename(uri.path),
			text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)),
		})),
	);
	const control = await controlOf(deps);
	const replay = await control.startReplay(recordings, mode.mode);
	deps.live.setReplay({ ...replay, files: recordings.map((recording) => recording.name) });
	for (const note of replay.notes) void vscode.window.showWarningMessage(note);
	void vscode.window.showInformationMessage(
		`The sandbox answers from ${recordings.map((r) => r.name).join(', ')} (${mode.label.toLowerCase()}): ${replay.recordings.reduce((sum, r) => sum + r.exchanges, 0)} recorded exchanges.`,
	);
}

async function stopReplay(deps: LiveDeps): Promise<void> {
	if (!deps.live.replay) return;
	await (await controlOf(deps)).stopReplay();
	deps.live.setReplay(undefined);
	void vscode.window.showInformationMessage('Replay is off: the sandbox answers every request itself.');
}

async function replayMenu(deps: LiveDeps): Promise<void> {
	const replay = deps.live.replay;
	if (!replay) return startReplay(deps);
	const picked = await vscode.window.showQuickPick(
		[
			{ label: '$(debug-stop) Turn Replay Off', run: () => stopReplay(deps) },
			{ label: '$(debug-rerun) Replay Other Recordings…', run: () => startReplay(deps) },
		],
		{ title: `Replaying ${replay.files.join(', ')}: ${replay.served} answered, ${replay.unmatched} not recorded` },
	);
	await picked?.run();
}

export function recordingCommands(deps: LiveDeps): vscode.Disposable[] {
	return [
		vscode.commands.registerCommand(
			COMMANDS.trafficSaveAsRecording,
			guarded(deps, 'Saving the recording failed', (entry?: JournalEntry) => saveAsRecording(deps, entry)),
		),
		vscode.commands.registerCommand(
			COMMANDS.replayStart,
			guarded(deps, 'Replay failed', (uri?: vscode.Uri) => startReplay(deps, uri)),
		),
		vscode.commands.registerCommand(
			COMMANDS.replayStop,
			guarded(deps, 'Turning replay off failed', () => stopReplay(deps)),
		),
		vscode.commands.registerCommand(
			COMMANDS.replayMenu,
			guarded(deps, 'Replay failed', () => replayMenu(deps)),
		),
	];
}
