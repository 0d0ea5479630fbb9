/**
 * Environments of request files: named sets of `{{variables}}` and connection settings (sandbox,
 * staging, production) in a `multiposting.env.json` next to the requests. The file never holds a
 * secret: the API key and password come from the process environment (CLI) or SecretStorage
 * (editor), and a secret-looking entry is refused with the path of the entry. Pure.
 */
import { secretForms } from '../secretForms';

/** The name of the environment file; the nearest one up from a request file applies to it. */
export const ENVIRONMENT_FILE_NAME = 'multiposting.env.json';

/** Connection settings an environment may set; everything else about a connection is secret or not ours. */
export interface EnvironmentConnection {
	/** Base URL of the service; absent: the tool's default target (the CLI's sandbox, the editor's active connection). */
	url?: string;
	namespace?: string;
	postingPath?: string;
	administrationPath?: string;
	username?: string;
	culture?: string;
}

/** One environment of the file. */
export interface RequestEnvironment {
	name: string;
	connection: EnvironmentConnection;
	/** Initial values of `{{name}}` variables; a capture of the same name replaces its value. */
	variables: Record<string, string>;
}

/** The environments of a file, by name, or the problems that make the file unusable. */
export type EnvironmentFile = { environments: RequestEnvironment[]; problems: [] } | { problems: string[] };

const CONNECTION_KEYS: readonly (keyof EnvironmentConnection)[] = [
	'url',
	'namespace',
	'postingPath',
	'administrationPath',
	'username',
	'culture',
];
const NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names under which people keep secrets: such an entry is refused whatever its value. */
const SECRET_NAME = /api[-_]?key|passw(or)?d|passphrase|pwd|secret|token|credential|private[-_]?key/i;

const SECRET_ADVICE =
	'secrets are never read from the environment file: set MP_API_KEY and MP_PASSWORD in the process environment for multiposting-test, or store them in the editor with "Multiposting: Set Environment Secrets…".';

/**
 * Reads an environment file. `knownSecrets` are the secret values at hand (the API key and password
 * of the run): a value equal to one of them, in any encoding, is refused as a secret written down.
 */
export function parseEnvironmentFile(text: string, knownSecrets: readonly string[] = []): EnvironmentFile {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		return { problems: [`it is not JSON: ${error instanceof Error ? error.message : String(error)}`] };
	}
	if (!isObject(json)) {
		return {
			problems: [
				'it must be an object of environments, e.g. {"staging": {"connection": {…}, "variables": {…}}}.',
			],
		};
	}
	const secretValues = knownSecrets.filter((secret) => secret.length > 0).flatMap((secret) => secretForms(secret));
	const problems: string[] = [];
	const environments: RequestEnvironment[] = [];
	for (const [name, body] of Object.entries(json)) {
		if (name === '$schema') continue;
		if (!NAME_PATTERN.test(name)) {
			problems.push(`"${name}": an environment's name is letters, digits, "_", "-" and ".".`);
			continue;
		}
		const environment = readEnvironment(name, body, secretValues, problems);
		if (environment) environments.push(environment);
	}
	if (problems.length > 0) return { problems };
	return { environments, problems: [] };
}

function readEnvironment(
	name: string,
	body: unknown,
	secretValues: readonly string[],
	problems: string[],
): RequestEnvironment | undefined {
	if (!isObject(body)) {
		problems.push(`${name}: an environment is an object with "connection" and "variables".`);
		return undefined;
	}
	const environment: RequestEnvironment = { name, connection: {}, variables: {} };
	const checkValue = (path: string, key: string, value: unknown): string | undefined => {
		if (SECRET_NAME.test(key)) {
			problems.push(`${path}: ${SECRET_ADVICE}`);
			return undefined;
		}
		if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
			problems.push(`${path}: a value is a string, a number or true/false.`);
			return undefined;
		}
		const text = String(value);
		if (secretValues.some((secret) => text.includes(secret))) {
			problems.push(`${path}: this value is a secret of the run (the API key or password); ${SECRET_ADVICE}`);
			return undefined;
		}
		return text;
	};
	for (const [key, value] of Object.entries(body)) {
		if (key === 'connection') {
			if (!isObject(value)) {
				problems.push(`${name}.connection: an object of ${CONNECTION_KEYS.join(', ')}.`);
				continue;
			}
			for (const [setting, settingValue] of Object.entries(value)) {
				const path = `${name}.connection.${setting}`;
				if (!SECRET_NAME.test(setting) && !(CONNECTION_KEYS as readonly string[]).includes(setting)) {
					problems.push(`${path}: unknown setting; an environment sets ${CONNECTION_KEYS.join(', ')}.`);
					continue;
				}
				const text = checkValue(path, setting, settingValue);
				if (text === undefined) continue;
				const problem = settingProblem(setting as keyof EnvironmentConnection, text);
				if (problem) problems.push(`${path}: ${problem}`);
				else environment.connection[setting as keyof EnvironmentConnection] = text;
			}
		} else if (key === 'variables') {
			if (!isObject(value)) {
				problems.push(`${name}.variables: an object of names and values.`);
				continue;
			}
			for (const [variable, variableValue] of Object.entries(value)) {
				const path = `${name}.variables.${variable}`;
				if (!VARIABLE_NAME.test(variable)) {
					problems.push(`${path}: a variable's name is letters, digits and "_", not starting with a digit.`);
					continue;
				}
				const text = checkValue(path, variable, variableValue);
				if (text !== undefined) environment.variables[variable] = text;
			}
		} else {
			problems.push(`${name}.${key}: unknown key; an environment has "connection" and "variables".`);
		}
	}
	return environment;
}

function settingProblem(setting: keyof EnvironmentConnection, value: string): string | undefined {
	if (setting === 'url') {
		try {
			const url = new URL(value);
			if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL.';
			if (url.username || url.password) return `must not carry credentials; ${SECRET_ADVICE}`;
		} catch {
			return `"${value}" is not a URL.`;
		}
	}
	if ((setting === 'postingPath' || setting === 'administrationPath') && !value.startsWith('/')) {
		return 'must start with /.';
	}
	return undefined;
}

/** The environment of that name, or a message naming the ones there are. */
export function findEnvironment(
	environments: readonly RequestEnvironment[],
	name: string,
	fileName: string,
): RequestEnvironment | string {
	const found = environments.find((environment) => environment.name === name);
	if (found) return found;
	const names = environments.map((environment) => environment.name);
	return `${fileName} has no environment "${name}"${names.length > 0 ? `; it has ${names.join(', ')}` : ''}.`;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
