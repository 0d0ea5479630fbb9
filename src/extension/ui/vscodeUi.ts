/** The UiPort, SettingsPort and SecretsPort over the real VS Code API. Kept thin: no logic here. */
import * as vscode from 'vscode';
import { SETTINGS } from '../ids';
import { isWebUrl, joinExternal } from '../util/externalUrl';
import { openReadonlyDocument } from './readonlyDocuments';
import type { InputOptions, PickItem, SecretsPort, SettingsPort, StepOptions, UiPort } from './port';

export class VscodeUi implements UiPort {
	readonly locale = vscode.env.language;

	constructor(private readonly log: vscode.LogOutputChannel) {}

	async pick<T>(items: PickItem<T>[], options: StepOptions): Promise<PickItem<T> | undefined> {
		return vscode.window.showQuickPick(items, {
			title: stepTitle(options),
			placeHolder: options.placeholder,
			ignoreFocusOut: true,
			matchOnDescription: true,
		});
	}

	async pickMany<T>(items: PickItem<T>[], options: StepOptions): Promise<PickItem<T>[] | undefined> {
		return vscode.window.showQuickPick(items, {
			title: stepTitle(options),
			placeHolder: options.placeholder,
			ignoreFocusOut: true,
			canPickMany: true,
			matchOnDescription: true,
		});
	}

	async pickTyped<T>(
		itemsFor: (typed: string) => PickItem<T>[],
		options: StepOptions,
	): Promise<PickItem<T> | undefined> {
		type Item = PickItem<T> & vscode.QuickPickItem;
		const quickPick = vscode.window.createQuickPick<Item>();
		quickPick.title = stepTitle(options);
		quickPick.placeholder = options.placeholder;
		quickPick.ignoreFocusOut = true;
		const show = (typed: string) => {
			quickPick.items = itemsFor(typed).map((item) => ({ ...item, alwaysShow: true }));
		};
		show('');
		return new Promise((resolve) => {
			let chosen: Item | undefined;
			quickPick.onDidChangeValue(show);
			quickPick.onDidAccept(() => {
				chosen = quickPick.selectedItems[0] ?? quickPick.activeItems[0];
				quickPick.hide();
			});
			quickPick.onDidHide(() => {
				quickPick.dispose();
				resolve(chosen);
			});
			quickPick.show();
		});
	}

	async input(options: InputOptions): Promise<string | undefined> {
		return vscode.window.showInputBox({
			title: stepTitle(options),
			prompt: options.prompt,
			placeHolder: options.placeholder,
			value: options.value,
			password: options.password,
			ignoreFocusOut: true,
			validateInput: options.validate ? (text) => options.validate?.(text) : undefined,
		});
	}

	async info(message: string, ...actions: string[]): Promise<string | undefined> {
		return vscode.window.showInformationMessage(message, ...actions);
	}

	async warnModal(message: string, detail: string | undefined, ...actions: string[]): Promise<string | undefined> {
		return vscode.window.showWarningMessage(message, { modal: true, detail }, ...actions);
	}

	async error(message: string, ...actions: string[]): Promise<string | undefined> {
		return vscode.window.showErrorMessage(message, ...actions);
	}

	async withProgress<T>(title: string, cancellable: boolean, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
		return vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title, cancellable },
			async (_progress, token) => {
				const controller = new AbortController();
				const subscription = token.onCancellationRequested(() =>
					controller.abort(new Error('cancelled by the user')),
				);
				try {
					return await task(controller.signal);
				} finally {
					subscription.dispose();
				}
			},
		);
	}

	async openExternal(url: string): Promise<boolean> {
		return vscode.env.openExternal(vscode.Uri.parse(await this.externalUrl(url), true));
	}

	/** The URL as the user's browser reaches it (code-server's proxy, a remote window's forwarded port). */
	async externalUrl(url: string): Promise<string> {
		if (!isWebUrl(url)) return url;
		const resolved = await vscode.env.asExternalUri(vscode.Uri.parse(url, true));
		return joinExternal(url, resolved.toString());
	}

	async showDocument(content: string, language: 'markdown' | 'plaintext' | 'xml', title: string): Promise<void> {
		await openReadonlyDocument(content, language, title);
	}

	async copyText(text: string): Promise<void> {
		await vscode.env.clipboard.writeText(text);
	}

	status(text: string): void {
		vscode.window.setStatusBarMessage(text, 4000);
	}

	showLog(): void {
		this.log.show(true);
	}
}

function stepTitle(options: StepOptions): string | undefined {
	if (options.title && options.step !== undefined && options.totalSteps !== undefined) {
		return `${options.title} (${options.step}/${options.totalSteps})`;
	}
	return options.title;
}

/** Settings of the `multiposting` section; connections and the active connection are global. */
export class VscodeSettings implements SettingsPort {
	get<T>(key: string, fallback: T): T {
		return vscode.workspace.getConfiguration(SETTINGS.section).get<T>(key, fallback);
	}

	async update(key: string, value: unknown): Promise<void> {
		await vscode.workspace.getConfiguration(SETTINGS.section).update(key, value, vscode.ConfigurationTarget.Global);
	}
}

export class VscodeSecrets implements SecretsPort {
	constructor(private readonly storage: vscode.SecretStorage) {}

	async get(key: string): Promise<string | undefined> {
		return this.storage.get(key);
	}

	async store(key: string, value: string): Promise<void> {
		await this.storage.store(key, value);
	}

	async delete(key: string): Promise<void> {
		await this.storage.delete(key);
	}
}
