/**
 * The connections: the built-in Sandbox plus the user's, from the setting multiposting.connections,
 * with their API key and password in SecretStorage only.
 */
import type { Credentials } from '../../client';
import { SETTINGS } from '../ids';
import type { ConnectionInfo } from '../services';
import type { SandboxManager } from '../sandbox/sandboxManager';
import type { SecretsPort, SettingsPort } from '../ui/port';
import { Emitter, type Event } from '../util/emitter';
import {
	SANDBOX_CONNECTION_ID,
	parseStoredConnections,
	sandboxConnectionInfo,
	sandboxPortSetting,
	secretKey,
	toConnectionInfo,
	type StoredConnection,
} from './model';

export interface ConnectionSecrets {
	apiKey: string;
	password?: string;
}

export class ConnectionStore {
	private readonly changeEmitter = new Emitter<void>();
	/** Fired when the list, a connection or the active connection changed. */
	readonly onDidChange: Event<void> = this.changeEmitter.event;

	constructor(
		private readonly settings: SettingsPort,
		private readonly secrets: SecretsPort,
		private readonly sandbox: SandboxManager,
	) {}

	stored(): StoredConnection[] {
		return parseStoredConnections(this.settings.get<unknown>(SETTINGS.connections, []));
	}

	/** Every connection, the Sandbox first. */
	list(): ConnectionInfo[] {
		const port = sandboxPortSetting(this.settings.get<unknown>(SETTINGS.sandboxPort, undefined));
		return [sandboxConnectionInfo(this.sandbox.running, port), ...this.stored().map(toConnectionInfo)];
	}

	get(id: string): ConnectionInfo | undefined {
		return this.list().find((c) => c.id === id);
	}

	/** The active connection; the Sandbox when none is chosen or the chosen one is gone. */
	active(): ConnectionInfo {
		const id = this.settings.get<string>(SETTINGS.activeConnection, SANDBOX_CONNECTION_ID);
		return this.get(id) ?? this.get(SANDBOX_CONNECTION_ID)!;
	}

	async setActive(id: string): Promise<void> {
		await this.settings.update(SETTINGS.activeConnection, id);
		this.changeEmitter.fire();
	}

	/** Adds or replaces a connection and its secrets. */
	async save(connection: StoredConnection, secrets: ConnectionSecrets): Promise<void> {
		const others = this.stored().filter((c) => c.id !== connection.id);
		const clean: StoredConnection = Object.fromEntries(
			Object.entries(connection).filter(([, v]) => v !== undefined && v !== ''),
		) as unknown as StoredConnection;
		await this.secrets.store(secretKey(connection.id, 'apiKey'), secrets.apiKey);
		if (secrets.password) {
			await this.secrets.store(secretKey(connection.id, 'password'), secrets.password);
		} else {
			await this.secrets.delete(secretKey(connection.id, 'password'));
		}
		await this.settings.update(SETTINGS.connections, [...others, clean]);
		this.changeEmitter.fire();
	}

	async remove(id: string): Promise<void> {
		await this.settings.update(
			SETTINGS.connections,
			this.stored().filter((c) => c.id !== id),
		);
		await this.secrets.delete(secretKey(id, 'apiKey'));
		await this.secrets.delete(secretKey(id, 'password'));
		if (this.settings.get<string>(SETTINGS.activeConnection, SANDBOX_CONNECTION_ID) === id) {
			await this.settings.update(SETTINGS.activeConnection, SANDBOX_CONNECTION_ID);
		}
		this.changeEmitter.fire();
	}

	async secretsOf(id: string): Promise<ConnectionSecrets | undefined> {
		if (id === SANDBOX_CONNECTION_ID) {
			const demo = this.sandbox.running?.demo;
			return demo ? { apiKey: demo.apiKey, password: demo.password } : undefined;
		}
		const apiKey = await this.secrets.get(secretKey(id, 'apiKey'));
		if (apiKey === undefined) {
			return undefined;
		}
		return { apiKey, password: await this.secrets.get(secretKey(id, 'password')) };
	}

	/** The client credentials of a connection (the Sandbox must be running). */
	async credentials(connection: ConnectionInfo): Promise<Credentials> {
		const secrets = await this.secretsOf(connection.id);
		if (!secrets) {
			throw new Error(
				`No API key is stored for the connection "${connection.label}". Edit the connection to enter it.`,
			);
		}
		return {
			apiKey: secrets.apiKey,
			password: secrets.password,
			username: connection.username,
			culture: connection.culture,
		};
	}

	/** Called when the settings changed outside the store (settings editor, sync). */
	notifyExternalChange(): void {
		this.changeEmitter.fire();
	}

	dispose(): void {
		this.changeEmitter.dispose();
	}
}
