/**
 * `--env <name>`: the environment of the request files named on the command line, from the nearest
 * multiposting.env.json up from them (one file for the whole run). Secrets stay in the process
 * environment; a file that writes one down is refused.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import {
	ENVIRONMENT_FILE_NAME,
	findEnvironment,
	parseEnvironmentFile,
	type RequestEnvironment,
} from '../protocol/requestFiles/environments';

/** The chosen environment and the file it came from. */
export interface ChosenEnvironment {
	environment: RequestEnvironment;
	file: string;
}

/** The nearest environment file at or above a folder, if any. */
export function environmentFileAbove(folder: string): string | undefined {
	for (let current = folder; ; current = dirname(current)) {
		const candidate = join(current, ENVIRONMENT_FILE_NAME);
		if (existsSync(candidate)) return candidate;
		if (dirname(current) === current) return undefined;
	}
}

/**
 * The environment `name` for request files and folders given as absolute paths; a string says why
 * it cannot be used. `secrets` are the run's API key and password (refused as values of the file).
 */
export function loadEnvironment(
	name: string,
	paths: readonly string[],
	secrets: readonly string[],
	cwd: string,
): ChosenEnvironment | string {
	const files = new Set<string>();
	for (const path of paths) {
		const folder = statSync(path, { throwIfNoEntry: false })?.isDirectory() ? path : dirname(path);
		const found = environmentFileAbove(folder);
		if (!found) return `--env ${name}: no ${ENVIRONMENT_FILE_NAME} in ${relative(cwd, folder) || '.'} or above it.`;
		files.add(found);
	}
	if (files.size > 1) {
		const names = [...files].map((file) => relative(cwd, file)).join(', ');
		return `--env ${name}: the files given use different environment files (${names}); run them separately.`;
	}
	const [file] = files;
	const shown = relative(cwd, file) || file;
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		return `cannot read ${shown}: ${error instanceof Error ? error.message : String(error)}`;
	}
	const parsed = parseEnvironmentFile(text, secrets);
	if (!('environments' in parsed)) return `${shown}: ${parsed.problems.join(`\n${shown}: `)}`;
	const environment = findEnvironment(parsed.environments, name, shown);
	return typeof environment === 'string' ? environment : { environment, file };
}
