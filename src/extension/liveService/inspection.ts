/**
 * "Inspect Traffic to <connection>…": the sandbox's inspecting proxy in front of a live connection. The
 * user points their application at the local URL; every exchange shows in the Traffic view with
 * production's verdict beside the live service's real answer. The connection's credentials go to the
 * proxy (memory only) so a request carrying other ones is marked.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import { controlOf, guarded, inspectSettings, type LiveDeps } from './deps';

const COPY = 'Copy URL';
const SHOW = 'Show Traffic';

async function startInspection(deps: LiveDeps, connectionId?: string): Promise<void> {
	const remote = deps.store.list().filter((connection) => connection.kind !== 'sandbox');
	if (remote.length === 0) {
		const choice = await vscode.window.showInformationMessage(
			'Inspecting needs a connection to a live service (staging or production): add one first.',
			'Add Connection',
		);
		if (choice) await vscode.commands.executeCommand(COMMANDS.connectionAdd);
		return;
	}
	let connection = remote.find((candidate) => candidate.id === connectionId);
	if (!connection) {
		const picked = await vscode.window.showQuickPick(
			remote.map((candidate) => ({
				label: candidate.label,
				description: candidate.baseUrl,
				connection: candidate,
			})),
			{
				title: 'Inspect the traffic to which connection?',
				placeHolder: 'Your application sends to a local URL; the proxy forwards to this service',
			},
		);
		if (!picked) return;
		connection = picked.connection;
	}
	const settings = inspectSettings();
	let ca: string | undefined;
	if (settings.caFile) {
		try {
			ca = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(settings.caFile)));
		} catch (error) {
			throw new Error(
				`cannot read the CA certificate of multiposting.inspect.caFile (${settings.caFile}): ${error instanceof Error ? error.message : String(error)}`,
				{ cause: error },
			);
		}
	}
	const secrets = await deps.store.secretsOf(connection.id);
	const control = await controlOf(deps);
	const proxy = await vscode.window.withProgress(
		{ location: vscode.ProgressLocation.Notification, title: `Starting the proxy to ${connection.label}` },
		() =>
			control.startProxy({
				upstream: connection.baseUrl,
				namespace: connection.namespace,
				postingPath: connection.postingPath,
				port: settings.port,
				timeoutMs: settings.timeoutMs,
				...(ca ? { ca } : {}),
				...(settings.outboundProxy ? { via: settings.outboundProxy } : {}),
				...(secrets ? { credentials: { apiKey: secrets.apiKey, password: secrets.password } } : {}),
			}),
	);
	deps.live.setInspection({ proxy, label: connection.label });
	deps.log.info(
		`Inspecting ${connection.label}: ${proxy.url} forwards to ${proxy.upstream} (namespace ${proxy.namespace})`,
	);
	deps.traffic.reveal();
	const choice = await vscode.window.showInformationMessage(
		`Inspecting ${connection.label}: point your application at ${proxy.postingUrl} (and ${proxy.adminUrl}). Its requests go on to ${proxy.upstream} and show in the Traffic view.`,
		COPY,
		SHOW,
	);
	if (choice === COPY) await copyUrl(deps);
	if (choice === SHOW) deps.traffic.reveal();
}

async function copyUrl(deps: LiveDeps): Promise<void> {
	const inspection = deps.live.inspection;
	if (!inspection) throw new Error('no connection is being inspected: run "Inspect Traffic to a Connection…" first.');
	await vscode.env.clipboard.writeText(inspection.proxy.url);
	void vscode.window.showInformationMessage(
		`Copied ${inspection.proxy.url}: use it as the service's base URL in your application.`,
	);
}

async function stopInspection(deps: LiveDeps): Promise<void> {
	const inspection = deps.live.inspection;
	if (!inspection) return;
	await (await controlOf(deps)).stopProxy();
	deps.live.setInspection(undefined);
	void vscode.window.showInformationMessage(
		`Stopped inspecting ${inspection.label}: point your application back at ${inspection.proxy.upstream}.`,
	);
}

/** What a click on the status bar item offers. */
async function inspectionMenu(deps: LiveDeps): Promise<void> {
	const inspection = deps.live.inspection;
	if (!inspection) return startInspection(deps);
	const picked = await vscode.window.showQuickPick(
		[
			{ label: '$(copy) Copy the Local URL', description: inspection.proxy.url, run: () => copyUrl(deps) },
			{ label: '$(list-flat) Show Traffic', run: async () => deps.traffic.reveal() },
			{ label: '$(debug-stop) Stop Inspecting', description: inspection.label, run: () => stopInspection(deps) },
		],
		{ title: `Inspecting ${inspection.label}: ${inspection.proxy.url} → ${inspection.proxy.upstream}` },
	);
	await picked?.run();
}

export function inspectionCommands(deps: LiveDeps): vscode.Disposable[] {
	return [
		vscode.commands.registerCommand(
			COMMANDS.inspectStart,
			guarded(deps, 'Inspecting failed', (connectionId?: unknown) =>
				startInspection(deps, typeof connectionId === 'string' ? connectionId : undefined),
			),
		),
		vscode.commands.registerCommand(
			COMMANDS.inspectStop,
			guarded(deps, 'Stopping the proxy failed', () => stopInspection(deps)),
		),
		vscode.commands.registerCommand(
			COMMANDS.inspectCopyUrl,
			guarded(deps, 'Copying the URL failed', () => copyUrl(deps)),
		),
		vscode.commands.registerCommand(
			COMMANDS.inspectMenu,
			guarded(deps, 'Inspecting failed', () => inspectionMenu(deps)),
		),
	];
}
