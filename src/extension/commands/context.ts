/**
 * What the command handlers receive: the services and small ports over the tree view, the panels
 * and the command service. No runtime import of 'vscode', so every handler runs in plain-Node tests.
 */
import type { APIApplication, Advert } from '../../protocol/catalogue';
import type { ConnectionStore } from '../connections/connectionStore';
import type { SandboxManager } from '../sandbox/sandboxManager';
import type { AdvertRef, ApplicationRef } from '../services';
import type { AccountModel, TreeNode } from '../tree/accountModel';
import type { SettingsPort, UiPort } from '../ui/port';
import type { DefaultWorkbenchServices } from '../workbenchServices';

/** The account tree view, as the commands use it. */
export interface TreePort {
	/** The selected rows. */
	selection(): readonly TreeNode[];
	/** Shows a row (loading its parents), selects it and, with `focus`, moves the keyboard focus to it. */
	reveal(node: TreeNode, options: { focus: boolean }): Promise<void>;
	/** Shows the active filters in the view (its message and the Clear Filter button); undefined: none. */
	showFilter(text: string | undefined): void;
}

export interface OpenOptions {
	/** Reuse the preview panel (true) or open a panel that stays (false). */
	preview: boolean;
	/** The record already at hand (the tree's row), shown before the service is asked again. */
	initial?: APIApplication | Advert;
	/** Keep the keyboard focus where it is. */
	preserveFocus?: boolean;
}

/** The detail panels, as the commands use them. */
export interface PanelPort {
	showApplication(ref: ApplicationRef, options: OpenOptions): Promise<void>;
	showAdvert(ref: AdvertRef, options: OpenOptions): Promise<void>;
	/** Opens the Create Advert form (one form panel, revealed when open). */
	showCreateAdvert(): Promise<void>;
	/** Pins the active preview panel; false when the active editor is no preview. */
	keepOpen(): boolean;
	/** The application of the active application panel, when one is the active editor. */
	activeApplication(): ApplicationRef | undefined;
	/** Shows another application in the active application panel (next/previous from the panel). */
	retargetActiveApplication(ref: ApplicationRef, initial?: APIApplication): Promise<void>;
}

export interface CommandContext {
	services: DefaultWorkbenchServices;
	ui: UiPort;
	settings: SettingsPort;
	store: ConnectionStore;
	sandbox: SandboxManager;
	model: AccountModel;
	tree: TreePort;
	panels: PanelPort;
	executeCommand(id: string, ...args: unknown[]): Promise<unknown>;
	/** Failure scenario files of the workspace (`*.scenario.json`), offered next to the library. */
	scenarioFiles?(): Promise<ScenarioFile[]>;
}

/** A scenario file found in the workspace. */
export interface ScenarioFile {
	/** Its path relative to the workspace, for the pick list and error messages. */
	label: string;
	text: string;
}

/** A command handler: receives the command's arguments (a tree row, a reference, a keybinding's args). */
export type CommandHandler = (...args: unknown[]) => unknown;

/** Where a keybinding was pressed; keybindings pass it as their argument. */
export interface KeyOrigin {
	from: 'tree' | 'panel';
}

export function isKeyOrigin(value: unknown): value is KeyOrigin {
	return (
		typeof value === 'object' &&
		value !== null &&
		((value as KeyOrigin).from === 'tree' || (value as KeyOrigin).from === 'panel')
	);
}
