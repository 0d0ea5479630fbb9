/**
 * The environment picker of request files: the workspace's multiposting.env.json files (kept in step
 * by a watcher), the chosen environment (remembered per workspace), a status bar item that shows
 * and changes it, and what a run in it needs (variables, connection settings, SecretStorage secrets).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ENVIRONMENT_FILE_NAME, type RequestEnvironment } from '../../protocol/requestFiles/environments';
import { COMMANDS } from '../ids';
import type { WorkbenchServices } from '../services';
import type { SecretsPort, UiPort } from '../ui/port';
import {
	askEnvironmentSecrets,
	chooseEnvironment,
	environmentNames,
	nearestEnvironmentFile,
	storedEnvironmentSecrets,
	type KnownEnvironmentFile,
} from './environmentChoice';
import type { EnvironmentRun } from './running';

const CHOSEN_KEY = 'multiposting.requestEnvironment';

export class RequestEnvironments implements vscode.Disposable {
	private readonly files = new Map<string, KnownEnvironmentFile>();
	private readonly item = vscode.window.createStatusBarItem(
		'multiposting.requestEnvironment',
		vscode.StatusBarAlignment.Left,
		49,
	);
	private readonly changed = new vscode.EventEmitter<void>();
	/** Fired when the chosen environment or an environment file changed. */
	readonly onDidChange = this.changed.event;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(
		private readonly state: vscode.Memento,
		private readonly services: WorkbenchServices,
		private readonly ui: UiPort,
		private readonly secrets: SecretsPort,
	) {
		this.item.name = 'Multiposting request environment';
		this.item.command = COMMANDS.requestFileSelectEnvironment;
		const watcher = vscode.workspace.createFileSystemWatcher(`**/${ENVIRONMENT_FILE_NAME}`);
		this.disposables.push(
			this.item,
			this.changed,
			watcher,
			watcher.onDidCreate((uri) => void this.read(uri)),
			watcher.onDidChange((uri) => void this.read(uri)),
			watcher.onDidDelete((uri) => {
				this.files.delete(uri.toString());
				this.refresh();
			}),
		);
		this.refresh();
		void this.discover();
	}

	/** The chosen environment's name, or undefined for none (the active connection, no variables). */
	get chosen(): string | undefined {
		return this.state.get<string>(CHOSEN_KEY) || undefined;
	}

	private async discover(): Promise<void> {
		const found = await vscode.workspace.findFiles(`**/${ENVIRONMENT_FILE_NAME}`, '**/node_modules/**');
		await Promise.all(found.map((uri) => this.read(uri, false)));
		this.refresh();
	}

	private async read(uri: vscode.Uri, refresh = true): Promise<void> {
		try {
			const text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
			this.files.set(uri.toString(), {
				folder: path.posix.dirname(uri.path),
				shownPath: vscode.workspace.asRelativePath(uri),
				text,
			});
		} catch (error) {
			this.services.log.warn(`Request files: cannot read ${uri.fsPath}: ${String(error)}`);
		}
		if (refresh) this.refresh();
	}

	private refresh(): void {
		const chosen = this.chosen;
		this.item.text = `$(server-environment) ${chosen ?? 'No environment'}`;
		this.item.tooltip = chosen
			? `Request files run in environment "${chosen}" of the nearest ${ENVIRONMENT_FILE_NAME}. Click to choose another.`
			: `Request files run over the active connection, without environment variables. Click to choose an environment of ${ENVIRONMENT_FILE_NAME}.`;
		if (this.files.size > 0 || chosen) this.item.show();
		else this.item.hide();
		this.changed.fire();
	}

	/** The quick pick of environments: every name of every file, and "No environment". */
	async select(): Promise<void> {
		await this.discover();
		const names = environmentNames([...this.files.values()]);
		if (names.size === 0) {
			void vscode.window.showInformationMessage(
				`No ${ENVIRONMENT_FILE_NAME} with environments in this workspace: create one next to your request files, e.g. {"staging": {"connection": {"url": "https://…"}, "variables": {…}}}.`,
			);
			return;
		}
		const describe = (environments: RequestEnvironment[]): string =>
			[...new Set(environments.map((environment) => environment.connection.url ?? 'active connection'))].join(
				', ',
			);
		const items = [
			{ label: 'No environment', description: 'the active connection, no variables', value: undefined },
			...[...names].map(([name, environments]) => ({
				label: name,
				description: describe(environments),
				detail: variablesText(environments),
				value: name,
			})),
		].map((item) => ({ ...item, picked: item.value === this.chosen }));
		const picked = await this.ui.pick(items, {
			title: 'Environment of request files',
			placeholder: `Current: ${this.chosen ?? 'No environment'}`,
		});
		if (!picked) return;
		await this.state.update(CHOSEN_KEY, picked.value);
		this.refresh();
	}

	/** The environment a request file runs in; asks for its secrets the first time one with a URL runs. */
	async runFor(document: vscode.Uri): Promise<EnvironmentRun | undefined> {
		const folder = path.posix.dirname(document.path);
		const files = [...this.files.values()];
		const known = await this.services.secretsForRedaction();
		const first = chooseEnvironment(files, folder, this.chosen, known);
		if (typeof first === 'string') throw new Error(first);
		if (!first?.environment.connection.url) return first && { environment: first.environment };
		const secrets =
			(await storedEnvironmentSecrets(first.environment, this.secrets)) ??
			(await askEnvironmentSecrets(first.environment, this.secrets, this.ui));
		if (!secrets) throw new Error(`Environment ${first.environment.name} needs its API key to run.`);
		// The file may not hold the environment's own secrets either.
		const checked = chooseEnvironment(files, folder, this.chosen, [...known, secrets.apiKey, secrets.password]);
		if (typeof checked === 'string') throw new Error(checked);
		return { environment: first.environment, secrets };
	}

	/** Names of the chosen environment's variables for a request file (for its diagnostics). */
	variablesFor(document: vscode.Uri): string[] {
		const chosen = chooseEnvironment([...this.files.values()], path.posix.dirname(document.path), this.chosen, []);
		return chosen && typeof chosen !== 'string' ? Object.keys(chosen.environment.variables) : [];
	}

	/** "Set Environment Secrets…": for the chosen environment of the active request file's folder. */
	async setSecrets(): Promise<void> {
		const document = vscode.window.activeTextEditor?.document.uri;
		const files = [...this.files.values()];
		const file = document ? nearestEnvironmentFile(files, path.posix.dirname(document.path)) : files[0];
		const chosen = file && chooseEnvironment([file], file.folder, this.chosen, []);
		if (!chosen || typeof chosen === 'string' || !chosen.environment.connection.url) {
			throw new Error(
				typeof chosen === 'string'
					? chosen
					: 'Choose an environment with a "url" first: one without a URL uses the active connection and its secrets.',
			);
		}
		if (await askEnvironmentSecrets(chosen.environment, this.secrets, this.ui)) {
			this.ui.status(`Secrets of environment ${chosen.environment.name} stored in SecretStorage`);
		}
	}

	dispose(): void {
		for (const disposable of this.disposables) disposable.dispose();
	}
}

function variablesText(environments: RequestEnvironment[]): string | undefined {
	const names = [...new Set(environments.flatMap((environment) => Object.keys(environment.variables)))];
	return names.length > 0 ? `variables: ${names.join(', ')}` : undefined;
}
