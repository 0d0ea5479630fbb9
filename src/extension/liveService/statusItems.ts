/**
 * Status bar items of the live-service features, from the one LiveState: the proxy while it runs,
 * replay while the sandbox answers from recordings (warning colours, as failure scenarios), and the
 * breakpoints with the requests they hold.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import type { LiveState } from './liveState';

export function liveStatusItems(live: LiveState): vscode.Disposable {
	const inspect = vscode.window.createStatusBarItem('multiposting.inspect', vscode.StatusBarAlignment.Left, 48);
	inspect.name = 'Multiposting inspecting proxy';
	inspect.command = COMMANDS.inspectMenu;
	const replay = vscode.window.createStatusBarItem('multiposting.replay', vscode.StatusBarAlignment.Left, 47);
	replay.name = 'Multiposting replay';
	replay.command = COMMANDS.replayMenu;
	replay.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
	replay.color = new vscode.ThemeColor('statusBarItem.warningForeground');
	const breakpoints = vscode.window.createStatusBarItem(
		'multiposting.breakpoints',
		vscode.StatusBarAlignment.Left,
		46,
	);
	breakpoints.name = 'Multiposting breakpoints';
	breakpoints.command = COMMANDS.breakpointsMenu;
	const update = (): void => {
		const inspection = live.inspection;
		if (inspection) {
			inspect.text = `$(radio-tower) Inspecting ${inspection.label}`;
			inspect.tooltip = `Your application sends to ${inspection.proxy.url}; the proxy forwards to ${inspection.proxy.upstream} and the Traffic view shows every exchange. Click for Copy URL and Stop.`;
			inspect.show();
		} else inspect.hide();
		const replaying = live.replay;
		if (replaying) {
			replay.text = `$(debug-rerun) Replaying ${replaying.files.join(', ')} (${replaying.mode === 'strict' ? 'strict' : 'fall-through'})`;
			replay.tooltip = `The sandbox answers from recordings: ${replaying.recordings.map((r) => `${r.name} (${r.exchanges})`).join(', ')}; ${replaying.mode === 'strict' ? 'a request not recorded gets the NotRecorded fault' : 'a request not recorded goes to the sandbox'}. Click to turn replay off.`;
			replay.show();
		} else replay.hide();
		if (live.breakpoints.length > 0 || live.held > 0) {
			breakpoints.text = `$(debug-breakpoint) ${live.breakpoints.length} breakpoint${live.breakpoints.length === 1 ? '' : 's'}${live.held > 0 ? ` · ${live.held} held` : ''}`;
			breakpoints.tooltip = `${live.breakpoints.map((b) => b.description).join('; ')}. Click to add or clear breakpoints.`;
			breakpoints.show();
		} else breakpoints.hide();
	};
	update();
	const subscription = live.onDidChange(update);
	return vscode.Disposable.from(inspect, replay, breakpoints, { dispose: () => subscription.dispose() });
}
