/**
 * The active connection as the playground needs it: where requests go and the values behind the
 * `{{connection.*}}` placeholders. Kept apart from the VS Code API so it can be tested with fakes.
 */
import type { Dispatcher } from 'undici';
import type { MultipostingClient } from '../../client';
import { DEFAULT_ENDPOINT_PATHS } from '../../protocol/catalogue';
import type { ConnectionValues } from '../../protocol/requestFile';
import type { ConnectionView } from '../../shared/playgroundMessages';
import type { ConnectionInfo, WorkbenchServices } from '../services';
import type { Target } from './request';

/** Where requests of a connection go, from its description (no sandbox start needed). */
export function targetOfConnection(info: ConnectionInfo): Target {
	return {
		baseUrl: info.baseUrl,
		namespace: info.namespace,
		paths: { ...DEFAULT_ENDPOINT_PATHS, posting: info.postingPath },
	};
}

/** Where requests of a started client go. */
export function targetOfClient(client: MultipostingClient): Target {
	return { baseUrl: client.baseUrl, namespace: client.namespace, paths: client.paths };
}

/** The non-secret connection values, enough for previews. */
export function publicValues(info: ConnectionInfo): ConnectionValues {
	return { username: info.username ?? '', culture: info.culture };
}

export function connectionView(info: ConnectionInfo): ConnectionView {
	return {
		label: info.label,
		baseUrl: info.baseUrl,
		postingPath: info.postingPath,
		administrationPath: DEFAULT_ENDPOINT_PATHS.administration,
		username: info.username,
		culture: info.culture,
	};
}

/** The values of the placeholders, secrets included, for sending only. */
export async function secretValues(services: WorkbenchServices): Promise<ConnectionValues> {
	const info = services.activeConnection();
	const credentials = await services.activeCredentials();
	return {
		apiKey: credentials?.apiKey ?? '',
		password: credentials?.password ?? '',
		username: credentials?.username ?? info.username ?? '',
		culture: credentials?.culture ?? info.culture,
	};
}

/** Every secret to hide: the services' list plus the values behind the secret placeholders. */
export async function secretsToHide(services: WorkbenchServices, values: ConnectionValues): Promise<string[]> {
	const fromServices = await services.secretsForRedaction();
	return [...new Set([...fromServices, values.apiKey ?? '', values.password ?? ''])].filter(
		(secret) => secret.length > 0,
	);
}

/** Another connection, as a comparison sends to it; close() when done. */
export interface OtherConnection {
	info: ConnectionInfo;
	target: Target;
	/** The values of its `{{connection.*}}` placeholders, secrets included, for sending only. */
	values: ConnectionValues;
	/** Its secrets, to hide in everything shown. */
	secrets: string[];
	dispatcher: Dispatcher;
	close(): Promise<void>;
}

/** Opens a connection other than the active one, its credentials from SecretStorage. */
export async function openOtherConnection(services: WorkbenchServices, id: string): Promise<OtherConnection> {
	const { info, client, credentials } = await services.connectionClient(id);
	return {
		info,
		target: targetOfClient(client),
		values: {
			apiKey: credentials.apiKey,
			password: credentials.password ?? '',
			username: credentials.username ?? info.username ?? '',
			culture: credentials.culture ?? info.culture,
		},
		secrets: [credentials.apiKey, credentials.password ?? ''].filter((secret) => secret.length > 0),
		dispatcher: client.dispatcher,
		close: () => client.close(),
	};
}
