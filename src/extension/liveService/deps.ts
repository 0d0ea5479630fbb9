/** What the live-service commands share: the sandbox, the connections, the Traffic view, one state. */
import * as vscode from 'vscode';
import type { ConnectionStore } from '../connections/connectionStore';
import type { SandboxManager } from '../sandbox/sandboxManager';
import type { TrafficPort } from '../traffic/trafficView';
import type { LogPort } from '../ui/port';
import type { LiveState } from './liveState';
import { SandboxControl } from './sandboxControl';

export interface LiveDeps {
	sandbox: SandboxManager;
	store: ConnectionStore;
	traffic: TrafficPort;
	live: LiveState;
	log: LogPort;
}

/** The control endpoint of the sandbox the Traffic view follows: an attached one, else the built-in one (started). */
export async function controlOf(deps: LiveDeps): Promise<SandboxControl> {
	const attached = deps.traffic.attachedUrl();
	if (attached) return new SandboxControl(attached);
	// Progress only when there is a start to wait for: a toast per command would crowd out the messages.
	const running =
		deps.sandbox.running ??
		(await vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title: 'Starting the sandbox' },
			() => deps.sandbox.ensureRunning(),
		));
	return new SandboxControl(running.baseUrl);
}

/** Runs a command; a failure is an error message that says what to do (never an unhandled rejection). */
export function guarded<A extends unknown[]>(
	deps: LiveDeps,
	what: string,
	run: (...args: A) => Promise<void> | void,
): (...args: A) => Promise<void> {
	return async (...args: A) => {
		try {
			await run(...args);
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			deps.log.warn(`${what}: ${message}`);
			void vscode.window.showErrorMessage(`${what}: ${message}`);
		}
	};
}

/** The settings of the live-service features (multiposting.inspect.*). */
export function inspectSettings(): { port: number; caFile: string; outboundProxy: string; timeoutMs: number } {
	const config = vscode.workspace.getConfiguration('multiposting.inspect');
	const port = config.get<number>('port', 24818);
	const timeoutMs = config.get<number>('timeoutMs', 60_000);
	return {
		port: Number.isInteger(port) && port >= 0 && port <= 65535 ? port : 24818,
		caFile: config.get<string>('caFile', '').trim(),
		// VS Code's own proxy setting when ours is empty: the same network either way.
		outboundProxy:
			config.get<string>('outboundProxy', '').trim() ||
			vscode.workspace.getConfiguration('http').get<string>('proxy', '').trim(),
		timeoutMs: Number.isInteger(timeoutMs) && timeoutMs >= 100 ? timeoutMs : 60_000,
	};
}
