/**
 * What the extension's parts (tree, commands, panels, playground) receive from the composition root.
 * Plain interfaces, so every part can be constructed with fakes in unit tests.
 */
import type * as vscode from 'vscode';
import type { Credentials, MultipostingClient } from '../client';
import type { BindingName } from '../protocol/bindings';
import type { Advert } from '../protocol/catalogue';
import type { ActivityLog } from './actions/activity';

/** A connection as the UI shows it; secrets are never part of it. */
export interface ConnectionInfo {
	id: string;
	label: string;
	kind: 'sandbox' | 'remote';
	baseUrl: string;
	namespace: string;
	postingPath: string;
	binding: BindingName;
	culture: string;
	username?: string;
	startOrganisation?: string;
}

/** Identifies one application, enough for every application operation. */
export interface ApplicationRef {
	advertId: number;
	advertCandidateId: number;
	candidateEmail?: string;
	firstName?: string;
	lastName?: string;
	/** The flags and progress last seen (the tree's row, the panel), to mark the current value in pickers. */
	score?: number;
	favourite?: boolean;
	progressId?: number;
}

/** Identifies one advert. */
export interface AdvertRef {
	advertId: number;
	advertIdentifier?: string;
	advertReference?: string;
	/** AdvertTitle when known, for titles and messages. */
	title?: string;
}

/**
 * The recruiter actions, implemented once and used by the tree's commands and by the panels. Each
 * asks what it needs (quick picks, input boxes) when an argument is missing, shows progress, reports
 * failures in plain language, and resolves to true when the service accepted the change.
 */
export interface ApplicationActions {
	score(app: ApplicationRef, letter?: string): Promise<boolean>;
	progress(app: ApplicationRef, progressId?: number): Promise<boolean>;
	addNote(app: ApplicationRef, subject?: string, body?: string): Promise<boolean>;
	tag(app: ApplicationRef, tag?: string): Promise<boolean>;
	partnerTag(app: ApplicationRef, partnerTag?: string): Promise<boolean>;
}

export interface AdvertActions {
	expressPost(advert: AdvertRef): Promise<boolean>;
	openInWebInterface(advert?: AdvertRef): Promise<void>;
	/** Keeps the RedirectUrl of an advert created in this session (memory only). */
	rememberCompletionLink(advertId: number, url: string): void;
	completionLink(advertId: number): string | undefined;
	openCompletionPage(advert: AdvertRef): Promise<void>;
	/** Opens a link from service data after the user confirmed the exact URL. */
	openUntrustedLink(url: string): Promise<void>;
}

export interface WorkbenchServices {
	readonly extensionUri: vscode.Uri;
	readonly log: vscode.LogOutputChannel;
	/** The active connection (does not start the sandbox). */
	activeConnection(): ConnectionInfo;
	/** Fired when the active connection or what it points at changed (another connection, the sandbox started). */
	readonly onDidChangeConnection: vscode.Event<void>;
	/** A client for the active connection; starts the sandbox first when that is the connection. */
	activeClient(): Promise<MultipostingClient>;
	/** The active connection's credentials, for substitution at send time only (never shown or saved). */
	activeCredentials(): Promise<Credentials>;
	/** Every secret of the active connection, for redaction of anything shown or saved. */
	secretsForRedaction(): Promise<string[]>;
	/** Every connection, the Sandbox first (to pick one to compare the active connection with). */
	connections(): ConnectionInfo[];
	/**
	 * A client for any connection and its credentials from SecretStorage (starts the sandbox when it
	 * is the one), to send the same call there; the caller closes the client.
	 */
	connectionClient(
		id: string,
	): Promise<{ info: ConnectionInfo; client: MultipostingClient; credentials: Credentials }>;
	readonly applications: ApplicationActions;
	/** What was done to each application in this session (the service cannot read notes and tags back). */
	readonly activity: ActivityLog;
	readonly adverts: AdvertActions;
	/** Fired after an action changed an application or advert, so views can refresh what they show. */
	readonly onDidChangeData: vscode.Event<{ advertId?: number; advertCandidateId?: number }>;
	notifyDataChanged(change: { advertId?: number; advertCandidateId?: number }): void;
	/** Fired when a panel read an advert afresh, so the tree can show what changed without reloading. */
	readonly onDidSeeAdvert: vscode.Event<Advert>;
	notifyAdvertSeen(advert: Advert): void;
}
