/**
 * The guided input of a connection (add and edit), and "Test connection". They use the UiPort only,
 * so they are unit-tested with scripted answers.
 */
import type { MultipostingClient } from '../../client';
import { BINDING_LABELS, BINDING_NAMES, type BindingName } from '../../protocol/bindings/types';
import { defaultNamespace, VALUE_SETS } from '../../protocol/catalogue';
import { describeFailure } from '../logging/describe';
import { usersUnder } from '../reads/queries';
import type { ConnectionInfo } from '../services';
import type { UiPort } from '../ui/port';
import type { ConnectionSecrets } from './connectionStore';
import { DEFAULT_CULTURE, isInsecureRemoteUrl, newConnectionId, validateBaseUrl, type StoredConnection } from './model';

export const CONTINUE = 'Continue';
const TOTAL_STEPS = 8;

export interface ConnectionDraft {
	connection: StoredConnection;
	secrets: ConnectionSecrets;
}

/**
 * Asks for every field of a connection. With `existing`, the current values are offered and an
 * empty API key or password keeps the stored one. Resolves to undefined when the user cancels.
 */
export async function connectionWizard(
	ui: UiPort,
	existingIds: readonly string[],
	existing?: { connection: StoredConnection; secrets?: ConnectionSecrets },
): Promise<ConnectionDraft | undefined> {
	const title = existing ? `Edit connection ${existing.connection.label}` : 'Add a Multiposting connection';
	const step = (n: number) => ({ title, step: n, totalSteps: TOTAL_STEPS });

	const baseUrlText = await ui.input({
		...step(1),
		prompt: 'Address of the service, e.g. https://api.example.com',
		value: existing?.connection.baseUrl,
		validate: validateBaseUrl,
	});
	if (baseUrlText === undefined) return undefined;
	const baseUrl = baseUrlText.trim().replace(/\/+$/, '');
	if (isInsecureRemoteUrl(baseUrl)) {
		const answer = await ui.warnModal(
			`${new URL(baseUrl).host} is reached over plain http://.`,
			'The API key and password travel with every call and could be read on the network. Prefer https://.',
			CONTINUE,
		);
		if (answer !== CONTINUE) return undefined;
	}

	const namespace = await ui.input({
		...step(2),
		prompt: `XML namespace; leave empty for the spec's default (${defaultNamespace(baseUrl)})`,
		placeholder: defaultNamespace(baseUrl),
		value: existing?.connection.namespace ?? '',
	});
	if (namespace === undefined) return undefined;

	const current = existing?.connection.binding ?? 'soap11';
	const binding = await ui.pick<BindingName>(
		BINDING_NAMES.map((name) => ({
			label: BINDING_LABELS[name],
			description: name === current ? 'current' : undefined,
			value: name,
		})),
		{ ...step(3), placeholder: 'Preferred binding (calls can still choose another)' },
	);
	if (!binding) return undefined;

	const culture = await ui.input({
		...step(4),
		prompt: `Culture, e.g. ${VALUE_SETS.culture.values.map((v) => v.value).join(', ')}`,
		value: existing?.connection.culture ?? DEFAULT_CULTURE,
	});
	if (culture === undefined) return undefined;

	const startOrganisation = await ui.input({
		...step(5),
		prompt: 'Start organisation (id or identifier); leave empty for the whole account',
		value: existing?.connection.startOrganisation ?? '',
	});
	if (startOrganisation === undefined) return undefined;

	const username = await ui.input({
		...step(6),
		prompt: 'Username (needed to score, progress, post and list users); may be empty',
		value: existing?.connection.username ?? '',
	});
	if (username === undefined) return undefined;

	const keepApiKey = existing?.secrets?.apiKey !== undefined;
	const apiKey = await ui.input({
		...step(7),
		prompt: keepApiKey ? 'API key (leave empty to keep the stored one)' : 'API key',
		password: true,
		validate: (text) => (text.trim() === '' && !keepApiKey ? 'The API key is required' : undefined),
	});
	if (apiKey === undefined) return undefined;

	const keepPassword = existing?.secrets?.password !== undefined;
	const password = await ui.input({
		...step(8),
		prompt: keepPassword
			? 'Password (leave empty to keep the stored one)'
			: 'Password of the username (may be empty)',
		password: true,
	});
	if (password === undefined) return undefined;
	const finalPassword = password !== '' ? password : existing?.secrets?.password;

	if (binding.value === 'httpGet' && finalPassword) {
		const answer = await ui.warnModal(
			'HTTP GET puts every parameter in the URL, the password and API key included.',
			'URLs end up in proxy and server logs. Prefer SOAP or HTTP POST for a connection with a password.',
			CONTINUE,
		);
		if (answer !== CONTINUE) return undefined;
	}

	const host = new URL(baseUrl).host;
	const label = existing?.connection.label ?? (username.trim() ? `${username.trim()}@${host}` : host);
	const connection: StoredConnection = {
		id: existing?.connection.id ?? newConnectionId(existingIds, host),
		label,
		baseUrl,
		namespace: namespace.trim() || undefined,
		postingPath: existing?.connection.postingPath,
		binding: binding.value,
		culture: culture.trim() || undefined,
		username: username.trim() || undefined,
		startOrganisation: startOrganisation.trim() || undefined,
	};
	return { connection, secrets: { apiKey: apiKey.trim() || existing!.secrets!.apiKey, password: finalPassword } };
}

export interface ConnectionTestResult {
	ok: boolean;
	/** Plain-language lines, one per check. */
	lines: string[];
}

/** Calls GetCurrency and, with a username, UserList (or UserFeedsAndQuotaWithDestinations for a non-administrator). */
export async function testConnection(
	client: MultipostingClient,
	connection: ConnectionInfo,
	signal?: AbortSignal,
): Promise<ConnectionTestResult> {
	const lines: string[] = [];
	try {
		const currencies = await client.getCurrency({}, { signal });
		lines.push(`The service answered and accepted the API key (${currencies.length} currencies).`);
	} catch (error) {
		return { ok: false, lines: [describeFailure('Reaching the service', error)] };
	}
	if (!connection.username) {
		lines.push('No username is set: searching works, scoring, posting and user lists need one.');
		return { ok: true, lines };
	}
	try {
		const users = await usersUnder(client, connection.startOrganisation, { signal });
		lines.push(`${connection.username} logged in as an administrator and sees ${users.length} users.`);
		return { ok: true, lines };
	} catch {
		// Not an administrator, or UserList refused: the user's feeds prove the login too.
	}
	try {
		const feeds = await client.userFeedsAndQuotaWithDestinations({}, { signal });
		lines.push(`${connection.username} logged in and has ${feeds.length} feeds.`);
		return { ok: true, lines };
	} catch (error) {
		lines.push(describeFailure(`Logging in as ${connection.username}`, error));
		return { ok: false, lines };
	}
}
