/**
 * Environments of request files in the editor, free of the VS Code API: which environment file
 * applies to a request file (the nearest one up from it), the chosen environment read from it, and
 * its secrets, which live in SecretStorage only (asked for once, then kept).
 */
import {
	findEnvironment,
	parseEnvironmentFile,
	type RequestEnvironment,
} from '../../protocol/requestFiles/environments';
import type { SecretsPort, UiPort } from '../ui/port';

/** An environment file of the workspace: its folder (a path with `/`), what it is called and its text. */
export interface KnownEnvironmentFile {
	folder: string;
	shownPath: string;
	text: string;
}

/** The environment a request file runs in, and where it came from. */
export interface EnvironmentChoice {
	environment: RequestEnvironment;
	shownPath: string;
}

/** The API key and password of an environment with a URL. */
export interface EnvironmentSecrets {
	apiKey: string;
	password: string;
}

/** The nearest environment file at or above a request file's folder. */
export function nearestEnvironmentFile<T extends { folder: string }>(
	files: readonly T[],
	documentFolder: string,
): T | undefined {
	const inside = (folder: string): boolean => documentFolder === folder || documentFolder.startsWith(`${folder}/`);
	return files.filter((file) => inside(file.folder)).sort((a, b) => b.folder.length - a.folder.length)[0];
}

/**
 * The chosen environment for a request file: undefined when none is chosen or no environment file
 * applies to it; a string says why it cannot be used (a problem of the file, a name it lacks).
 * `knownSecrets` are refused as values of the file.
 */
export function chooseEnvironment(
	files: readonly KnownEnvironmentFile[],
	documentFolder: string,
	name: string | undefined,
	knownSecrets: readonly string[],
): EnvironmentChoice | string | undefined {
	if (!name) return undefined;
	const file = nearestEnvironmentFile(files, documentFolder);
	if (!file) return undefined;
	const parsed = parseEnvironmentFile(file.text, knownSecrets);
	if (!('environments' in parsed)) return `${file.shownPath}: ${parsed.problems.join(' ')}`;
	const environment = findEnvironment(parsed.environments, name, file.shownPath);
	return typeof environment === 'string' ? environment : { environment, shownPath: file.shownPath };
}

/** The names of the environments of every file, with the files that define each (files with problems left out). */
export function environmentNames(files: readonly KnownEnvironmentFile[]): Map<string, RequestEnvironment[]> {
	const names = new Map<string, RequestEnvironment[]>();
	for (const file of files) {
		const parsed = parseEnvironmentFile(file.text);
		if (!('environments' in parsed)) continue;
		for (const environment of parsed.environments) {
			names.set(environment.name, [...(names.get(environment.name) ?? []), environment]);
		}
	}
	return names;
}

/** The SecretStorage key of an environment's secret: by name and URL, so two files' "staging" stay apart. */
export function environmentSecretKey(environment: RequestEnvironment, secret: keyof EnvironmentSecrets): string {
	return `multiposting.environment.${environment.name}@${environment.connection.url ?? ''}.${secret}`;
}

/** The stored secrets of an environment, if its API key is stored. */
export async function storedEnvironmentSecrets(
	environment: RequestEnvironment,
	secrets: SecretsPort,
): Promise<EnvironmentSecrets | undefined> {
	const apiKey = await secrets.get(environmentSecretKey(environment, 'apiKey'));
	if (apiKey === undefined) return undefined;
	return { apiKey, password: (await secrets.get(environmentSecretKey(environment, 'password'))) ?? '' };
}

/**
 * Asks for an environment's API key and password and keeps them in SecretStorage; undefined when
 * the user cancels. Used the first time an environment with a URL runs and by "Set Environment Secrets…".
 */
export async function askEnvironmentSecrets(
	environment: RequestEnvironment,
	secrets: SecretsPort,
	ui: UiPort,
): Promise<EnvironmentSecrets | undefined> {
	const where = `environment ${environment.name} (${environment.connection.url ?? 'the active connection'})`;
	const apiKey = await ui.input({
		title: `Secrets of ${where}`,
		step: 1,
		totalSteps: 2,
		prompt: 'The API key (sAPIKey), kept in VS Code SecretStorage, never in the environment file',
		password: true,
		validate: (text) => (text.trim() === '' ? 'Enter the API key.' : undefined),
	});
	if (apiKey === undefined) return undefined;
	const password = await ui.input({
		title: `Secrets of ${where}`,
		step: 2,
		totalSteps: 2,
		prompt: 'The password (sPassword), if the operations you call need one; leave empty otherwise',
		password: true,
	});
	if (password === undefined) return undefined;
	await secrets.store(environmentSecretKey(environment, 'apiKey'), apiKey.trim());
	await secrets.store(environmentSecretKey(environment, 'password'), password);
	return { apiKey: apiKey.trim(), password };
}
