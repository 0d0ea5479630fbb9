/**
 * The implementation of WorkbenchServices: the active connection, a cached client for it that logs
 * every exchange, and the recruiter actions. No runtime import of 'vscode', so it is unit-testable.
 */
import type * as vscode from 'vscode';
import { MultipostingClient, type ClientOptions, type Credentials, type Exchange } from '../client';
import type { Advert } from '../protocol/catalogue';
import { ActivityLog } from './actions/activity';
import { AdvertActionsImpl } from './actions/advertActions';
import { ApplicationActionsImpl } from './actions/applicationActions';
import type { ConnectionStore } from './connections/connectionStore';
import { SANDBOX_CONNECTION_ID } from './connections/model';
import { SETTINGS } from './ids';
import { exchangeDetail, exchangeSummary } from './logging/describe';
import type { SandboxManager } from './sandbox/sandboxManager';
import type { AdvertActions, ApplicationActions, ConnectionInfo, WorkbenchServices } from './services';
import type { SettingsPort, UiPort } from './ui/port';
import { Emitter, type Disposable } from './util/emitter';

export interface WorkbenchServicesOptions {
	extensionUri: vscode.Uri;
	log: vscode.LogOutputChannel;
	store: ConnectionStore;
	sandbox: SandboxManager;
	settings: SettingsPort;
	ui: UiPort;
	/** Builds clients; tests may wrap it. */
	createClient?: (options: ClientOptions) => MultipostingClient;
}

type DataChange = { advertId?: number; advertCandidateId?: number };

export class DefaultWorkbenchServices implements WorkbenchServices, Disposable {
	readonly extensionUri: vscode.Uri;
	readonly log: vscode.LogOutputChannel;
	readonly applications: ApplicationActions;
	readonly adverts: AdvertActions;
	readonly activity = new ActivityLog();
	private readonly dataEmitter = new Emitter<DataChange>();
	readonly onDidChangeData = this.dataEmitter.event as vscode.Event<DataChange>;
	private readonly advertEmitter = new Emitter<Advert>();
	readonly onDidSeeAdvert = this.advertEmitter.event as vscode.Event<Advert>;
	private readonly connectionEmitter = new Emitter<void>();
	readonly onDidChangeConnection = this.connectionEmitter.event as vscode.Event<void>;
	private cached?: { key: string; client: Promise<MultipostingClient> };
	private readonly subscriptions: Disposable[] = [];

	constructor(private readonly options: WorkbenchServicesOptions) {
		this.extensionUri = options.extensionUri;
		this.log = options.log;
		this.applications = new ApplicationActionsImpl(this, options.ui, options.settings);
		this.adverts = new AdvertActionsImpl(this, options.ui);
		// A changed connection or a restarted sandbox makes the cached client stale.
		this.subscriptions.push(
			options.store.onDidChange(() => {
				this.dropClient();
				this.connectionEmitter.fire(undefined);
			}),
			options.sandbox.onDidChangeState(() => {
				this.dropClient();
				this.connectionEmitter.fire(undefined);
			}),
		);
	}

	activeConnection(): ConnectionInfo {
		return this.options.store.active();
	}

	async activeClient(): Promise<MultipostingClient> {
		const connection = this.activeConnection();
		if (connection.kind === 'sandbox') {
			await this.options.sandbox.ensureRunning();
		}
		const current = this.activeConnection();
		const key = JSON.stringify(current);
		if (this.cached?.key !== key) {
			this.dropClient();
			const client = this.buildClient(current);
			this.cached = { key, client };
			client.catch(() => {
				if (this.cached?.client === client) this.cached = undefined;
			});
		}
		return this.cached!.client;
	}

	/** A client for any connection (used by "Test connection"); the caller closes it. */
	async clientFor(connection: ConnectionInfo): Promise<MultipostingClient> {
		if (connection.kind === 'sandbox') {
			await this.options.sandbox.ensureRunning();
			connection = this.options.store.get(SANDBOX_CONNECTION_ID)!;
		}
		return this.buildClient(connection);
	}

	async activeCredentials(): Promise<Credentials> {
		if (this.activeConnection().kind === 'sandbox') {
			await this.options.sandbox.ensureRunning();
		}
		return this.options.store.credentials(this.activeConnection());
	}

	async secretsForRedaction(): Promise<string[]> {
		const secrets = await this.options.store.secretsOf(this.activeConnection().id);
		return [secrets?.apiKey, secrets?.password].filter((s): s is string => typeof s === 'string' && s.length > 0);
	}

	connections(): ConnectionInfo[] {
		return this.options.store.list();
	}

	async connectionClient(
		id: string,
	): Promise<{ info: ConnectionInfo; client: MultipostingClient; credentials: Credentials }> {
		const chosen = this.options.store.get(id);
		if (!chosen) throw new Error(`The connection "${id}" no longer exists.`);
		const client = await this.clientFor(chosen);
		// The sandbox's address is known once it runs.
		const info = this.options.store.get(id) ?? chosen;
		try {
			return { info, client, credentials: await this.options.store.credentials(info) };
		} catch (error) {
			await client.close();
			throw error;
		}
	}

	notifyDataChanged(change: DataChange): void {
		this.dataEmitter.fire(change);
	}

	notifyAdvertSeen(advert: Advert): void {
		this.advertEmitter.fire(advert);
	}

	dispose(): void {
		this.dropClient();
		this.dataEmitter.dispose();
		this.advertEmitter.dispose();
		this.connectionEmitter.dispose();
		this.subscriptions.forEach((s) => s.dispose());
	}

	private async buildClient(connection: ConnectionInfo): Promise<MultipostingClient> {
		const credentials = await this.options.store.credentials(connection);
		const create = this.options.createClient ?? ((o: ClientOptions) => new MultipostingClient(o));
		const timeoutMs = this.options.settings.get<number>(SETTINGS.requestTimeoutMs, 30_000);
		return create({
			baseUrl: connection.baseUrl,
			namespace: connection.namespace || undefined,
			paths: { posting: connection.postingPath },
			binding: connection.binding,
			credentials,
			timeoutMs: Number.isSafeInteger(timeoutMs) && timeoutMs > 0 ? timeoutMs : 30_000,
			onExchange: (exchange) => this.logExchange(exchange),
		});
	}

	private logExchange(exchange: Exchange): void {
		const summary = exchangeSummary(exchange);
		if (exchange.error) {
			this.log.warn(summary);
		} else {
			this.log.info(summary);
		}
		this.log.trace(exchangeDetail(exchange));
	}

	private dropClient(): void {
		const old = this.cached;
		this.cached = undefined;
		void old?.client.then((c) => c.close()).catch(() => undefined);
	}
}
