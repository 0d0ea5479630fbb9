/**
 * Debugging the integration against the live service (docs/live-service.md): the inspecting proxy,
 * recordings and replay, the drift check and breakpoints, over the sandbox's control endpoint. Their
 * state follows the sandbox: when it stops, they stop with it.
 */
import * as vscode from 'vscode';
import { SandboxState } from '../sandbox/sandboxManager';
import type { LiveDeps } from './deps';
import { driftCommands } from './driftCommands';
import { heldRequestCommands } from './heldRequests';
import { inspectionCommands } from './inspection';
import { recordingCommands } from './recordingCommands';
import { liveStatusItems } from './statusItems';

export function registerLiveService(deps: LiveDeps): vscode.Disposable {
	return vscode.Disposable.from(
		liveStatusItems(deps.live),
		...inspectionCommands(deps),
		...recordingCommands(deps),
		...driftCommands(deps),
		...heldRequestCommands(deps),
		deps.sandbox.onDidChangeState((state) => {
			if (state !== SandboxState.Running && !deps.traffic.attachedUrl()) deps.live.clear();
		}),
	);
}
