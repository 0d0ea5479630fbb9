/**
 * The small part of the VS Code UI that the logic modules use, as a plain interface. The extension
 * passes an implementation over the real API (vscodeUi.ts); unit tests pass a scripted fake.
 */

export interface PickItem<T> {
	label: string;
	description?: string;
	detail?: string;
	picked?: boolean;
	value: T;
}

export interface StepOptions {
	title?: string;
	placeholder?: string;
	step?: number;
	totalSteps?: number;
}

export interface InputOptions extends StepOptions {
	prompt?: string;
	value?: string;
	password?: boolean;
	/** Returns a message when the text is not acceptable. */
	validate?: (text: string) => string | undefined;
}

export interface UiPort {
	pick<T>(items: PickItem<T>[], options: StepOptions): Promise<PickItem<T> | undefined>;
	pickMany<T>(items: PickItem<T>[], options: StepOptions): Promise<PickItem<T>[] | undefined>;
	/**
	 * A pick the user may also type into: the items are recomputed from the typed text (and always
	 * shown, never filtered away), so Enter on what was typed has something to choose.
	 */
	pickTyped<T>(itemsFor: (typed: string) => PickItem<T>[], options: StepOptions): Promise<PickItem<T> | undefined>;
	input(options: InputOptions): Promise<string | undefined>;
	info(message: string, ...actions: string[]): Promise<string | undefined>;
	/** A modal warning; resolves to the chosen action or undefined when cancelled. */
	warnModal(message: string, detail: string | undefined, ...actions: string[]): Promise<string | undefined>;
	error(message: string, ...actions: string[]): Promise<string | undefined>;
	/** Runs a task under a progress notification; the signal aborts when the user cancels. */
	withProgress<T>(title: string, cancellable: boolean, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
	/** Opens a URL in the browser, as the browser reaches it (see externalUrl). */
	openExternal(url: string): Promise<boolean>;
	/** The URL as the user's browser reaches it: code-server's proxy path, a remote window's forwarded port. */
	externalUrl(url: string): Promise<string>;
	/** Opens a read-only document with this content under a title (never an Untitled document). */
	showDocument(content: string, language: 'markdown' | 'plaintext' | 'xml', title: string): Promise<void>;
	copyText(text: string): Promise<void>;
	/** A short confirmation in the status bar (for frequent actions that need no notification). */
	status(text: string): void;
	showLog(): void;
	/** The user's locale (VS Code's display language) for dates in documents; the runtime's when absent. */
	readonly locale?: string;
}

/** Settings and secrets storage, as the logic modules see them. */
export interface SettingsPort {
	get<T>(key: string, fallback: T): T;
	update(key: string, value: unknown): Promise<void>;
}

export interface SecretsPort {
	get(key: string): Promise<string | undefined>;
	store(key: string, value: string): Promise<void>;
	delete(key: string): Promise<void>;
}

/** The log methods used; a vscode.LogOutputChannel satisfies it. */
export interface LogPort {
	trace(message: string): void;
	debug(message: string): void;
	info(message: string): void;
	warn(message: string): void;
	error(message: string | Error): void;
}
