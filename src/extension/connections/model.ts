/** Connections as stored in settings, and the pure rules about them. */
import { BINDING_NAMES, type BindingName } from '../../protocol/bindings/types';
import { DEFAULT_SANDBOX_PORT, SANDBOX_NAMESPACE } from '../../emulator/endpoint';
import { DEFAULT_ENDPOINT_PATHS, defaultNamespace } from '../../protocol/catalogue';
import type { ConnectionInfo } from '../services';

export const SANDBOX_CONNECTION_ID = 'sandbox';
export const DEFAULT_CULTURE = 'en-GB';

/** One entry of the setting multiposting.connections. Never holds a secret. */
export interface StoredConnection {
	id: string;
	label: string;
	baseUrl: string;
	namespace?: string;
	postingPath?: string;
	binding?: BindingName;
	culture?: string;
	username?: string;
	startOrganisation?: string;
}

/** Secret storage keys of a connection's credentials. */
export function secretKey(connectionId: string, secret: 'apiKey' | 'password'): string {
	return `multiposting.connection.${connectionId}.${secret}`;
}

/** The ConnectionInfo of a stored connection, with the defaults filled in. */
export function toConnectionInfo(stored: StoredConnection): ConnectionInfo {
	return {
		id: stored.id,
		label: stored.label,
		kind: 'remote',
		baseUrl: stored.baseUrl,
		namespace: stored.namespace || defaultNamespace(stored.baseUrl),
		postingPath: stored.postingPath || DEFAULT_ENDPOINT_PATHS.posting,
		binding: stored.binding && BINDING_NAMES.includes(stored.binding) ? stored.binding : 'soap11',
		culture: stored.culture || DEFAULT_CULTURE,
		username: stored.username || undefined,
		startOrganisation: stored.startOrganisation || undefined,
	};
}

/**
 * The Sandbox connection. Its address is the running sandbox's; before it runs, the address it will
 * take (fixed port and namespace), unless the port setting is 0 (any free port).
 */
export function sandboxConnectionInfo(
	running?: {
		baseUrl: string;
		namespace: string;
		demo: { username: string };
	},
	port: number = DEFAULT_SANDBOX_PORT,
): ConnectionInfo {
	return {
		id: SANDBOX_CONNECTION_ID,
		label: 'Sandbox',
		kind: 'sandbox',
		baseUrl: running?.baseUrl ?? (port > 0 ? `http://127.0.0.1:${port}` : 'http://127.0.0.1'),
		namespace: running?.namespace ?? SANDBOX_NAMESPACE,
		postingPath: DEFAULT_ENDPOINT_PATHS.posting,
		binding: 'soap11',
		culture: DEFAULT_CULTURE,
		username: running?.demo.username ?? 'demo.admin',
	};
}

/** The sandbox port from the setting: a whole number 0–65535, else the default. */
export function sandboxPortSetting(value: unknown): number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535
		? value
		: DEFAULT_SANDBOX_PORT;
}

/** Reads the setting leniently: entries without id, label or baseUrl are skipped. */
export function parseStoredConnections(value: unknown): StoredConnection[] {
	if (!Array.isArray(value)) {
		return [];
	}
	return value.filter(
		(entry): entry is StoredConnection =>
			typeof entry === 'object' &&
			entry !== null &&
			typeof (entry as StoredConnection).id === 'string' &&
			typeof (entry as StoredConnection).label === 'string' &&
			typeof (entry as StoredConnection).baseUrl === 'string' &&
			(entry as StoredConnection).id !== SANDBOX_CONNECTION_ID,
	);
}

/** Why a base URL cannot be used, or undefined when it can. */
export function validateBaseUrl(text: string): string | undefined {
	let url: URL;
	try {
		url = new URL(text.trim());
	} catch {
		return 'Enter an absolute address such as https://api.example.com';
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return 'The address must start with http:// or https://';
	}
	if (url.search || url.hash || url.username || url.password) {
		return 'Give the host address only: no query, fragment or user name';
	}
	return undefined;
}

/** True for addresses that stay on this machine. */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** True when credentials sent to this address would cross the network unencrypted. */
export function isInsecureRemoteUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
	} catch {
		return false;
	}
}

/** A new connection id that is not in use. */
export function newConnectionId(existing: readonly string[], label: string): string {
	const base =
		label
			.toLowerCase()
			.replace(/[^a-z0-9]+/g, '-')
			.replace(/^-+|-+$/g, '')
			.slice(0, 32) || 'connection';
	let id = base === SANDBOX_CONNECTION_ID ? `${base}-1` : base;
	for (let n = 2; existing.includes(id); n++) {
		id = `${base}-${n}`;
	}
	return id;
}
