/**
 * multiposting-test: runs request files (.mpreq) as tests, for CI. Against a service given by URL
 * (credentials from environment variables) or against a sandbox it starts itself on a temporary
 * database. Prints a line per request and a summary, writes JUnit XML, exits 1 when anything failed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { runRequestEntries, type SchemaValidator } from '../client/requestFileRunner';
import { parseSize, startEmulator, type RunningEmulator, type SandboxSize } from '../emulator';
import { DEFAULT_ENDPOINT_PATHS, defaultNamespace } from '../protocol/catalogue';
import { parseRequestFileEntries, REQUEST_FILE_EXTENSION } from '../protocol/requestFile';
import { DATA_CHANGING_OPERATIONS } from '../protocol/requestFiles/changesData';
import { ENVIRONMENT_FILE_NAME } from '../protocol/requestFiles/environments';
import type { ConnectionValues } from '../protocol/requestFiles/placeholders';
import type { RequestTarget } from '../protocol/requestFiles/prepare';
import { serviceNamespaceOf, wsdlSchemaValidator } from '../client/requestFileSchema';
import { loadLibxml2Validator } from '../client/xsd/libxml2Validator';
import { loadEnvironment, type ChosenEnvironment } from './environment';
import { jsonReport } from './jsonReport';
import { junitReport } from './junit';
import { comparisonLine, countComparisons, fileReport, summaryLine, type FileRun } from './report';
import { checkDrift, type DriftReport } from '../client/driftCheck';
import { driftConsoleReport, driftJsonReport } from '../client/driftReport';
import { parseRecording, RecordingFormatError, type Recording } from '../protocol/recordings/format';

/** Environment variables holding the credentials of a service given with --url. */
export const CREDENTIAL_ENV = {
	apiKey: 'MP_API_KEY',
	username: 'MP_USERNAME',
	password: 'MP_PASSWORD',
	culture: 'MP_CULTURE',
} as const;

/** Environment variables holding the credentials of the second connection (--compare-with). */
export const COMPARE_CREDENTIAL_ENV = {
	apiKey: 'MP_COMPARE_API_KEY',
	username: 'MP_COMPARE_USERNAME',
	password: 'MP_COMPARE_PASSWORD',
	culture: 'MP_COMPARE_CULTURE',
} as const;

/** The exit status when every request passed but the second connection answered differently. */
export const EXIT_DIFFERENCES = 3;

/** A long option text wrapped to the usage's columns. */
function optionText(text: string): string {
	const lines: string[] = [''];
	for (const word of text.split(' ')) {
		const last = lines.length - 1;
		if (lines[last].length > 0 && lines[last].length + word.length >= 66) lines.push(word);
		else lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
	}
	return lines.join(`\n${' '.repeat(26)}`);
}

const USAGE = `Usage: multiposting-test [options] <file or folder>...

Runs request files (${REQUEST_FILE_EXTENSION}) as tests: every request is sent in order, its
expectations are checked and its captures passed on to the requests after it.

Target (one of):
  --sandbox               start a sandbox on a temporary database (the default)
  --url <base URL>        a running service; credentials come from the environment:
                          ${CREDENTIAL_ENV.apiKey}, ${CREDENTIAL_ENV.username}, ${CREDENTIAL_ENV.password}, ${CREDENTIAL_ENV.culture}
  --namespace <uri>       XML namespace of the service (default: the targetNamespace of its
                          posting endpoint's WSDL, else the base URL followed by /)
  --posting-path <path>   path of the posting endpoint (default ${DEFAULT_ENDPOINT_PATHS.posting})
  --seed <n>              seed of the sandbox's demo data
  --size <size>           size of the sandbox's demo data: small, default or large (default: default)

Options:
  --env <name>            an environment of the nearest ${ENVIRONMENT_FILE_NAME} up from the files:
                          its variables and connection settings (options given here win);
                          secrets still come only from the environment variables above
  --junit <file>          also write a JUnit XML report
  --json <file>           also write a JSON report (every request, expectation and problem)
  --bail                  stop at the first request that fails or errs; nothing after it runs
  --grep <text>           run only requests whose name contains the text (and what they need)
  --timeout <ms>          time budget of one request (default 30000)
  --compare-with <URL>    also send every request to a second service (e.g. a live account
                          beside the sandbox) and report how its answers differ, identifiers,
                          links, dates and the namespace aside; its credentials come from
                          ${COMPARE_CREDENTIAL_ENV.apiKey}, ${COMPARE_CREDENTIAL_ENV.username}, ${COMPARE_CREDENTIAL_ENV.password}, ${COMPARE_CREDENTIAL_ENV.culture}
  --compare-env <name>    the second service from an environment of ${ENVIRONMENT_FILE_NAME}
                          (its url, namespace, path, username, culture); secrets as above
  --compare-namespace <uri>  XML namespace of the second service (default: from its WSDL)
  --compare-writes        ${optionText(
		`also send the requests that change data (${DATA_CHANGING_OPERATIONS.join(', ')}) to the second service; without it they, and requests needing what they capture, are not sent there`,
  )}
  --verbose               print every expectation and exchange, not only failures
  -h, --help              this text

Drift (docs/live-service.md):
  --drift <recording>     ${optionText(
		'instead of request files: send every read of a recording (.mprec.json) again to the sandbox (started with the recording namespace and paths, or --url) and report where its answers differ in shape from the recorded ones: status, content type, result or fault, fault codes, fields present, absent or nil; repeatable',
  )}
  --drift-writes          ${optionText('also send the recorded requests that change data (to the sandbox only)')}

Exit status: 0 when every request passed (and, with --compare-with, the second service
answered the same), 1 when one failed or erred, 2 for a usage error, ${EXIT_DIFFERENCES} when every request
passed but the second service answered differently or could not be compared; with --drift,
${EXIT_DIFFERENCES} when the sandbox answered anything in another shape (or not at all).
`;

/** What the command line asks for. */
export interface TestCommand {
	paths: string[];
	url?: string;
	namespace?: string;
	postingPath?: string;
	seed?: number;
	size?: SandboxSize;
	junit?: string;
	/** Also write the JSON report here. */
	json?: string;
	/** Stop at the first request that fails or errs. */
	bail?: boolean;
	grep?: string;
	env?: string;
	/** --sandbox was given: the run starts a sandbox even when the environment names a URL. */
	sandbox?: boolean;
	timeoutMs: number;
	verbose: boolean;
	/** The second service's base URL (--compare-with). */
	compareWith?: string;
	/** The environment naming the second service (--compare-env). */
	compareEnv?: string;
	compareNamespace?: string;
	/** --compare-writes: the second service also gets the requests that change data. */
	compareWrites?: boolean;
	/** --drift: recordings to check against the sandbox (instead of request files). */
	drift?: string[];
	/** --drift-writes: the recorded writes are sent to the sandbox too. */
	driftWrites?: boolean;
}

/** Options without a value: what each sets. */
const FLAGS: Readonly<Record<string, (command: TestCommand) => void>> = {
	'--verbose': (command) => (command.verbose = true),
	'--bail': (command) => (command.bail = true),
	'--compare-writes': (command) => (command.compareWrites = true),
	'--drift-writes': (command) => (command.driftWrites = true),
};

/** Options with a value: each reads it into the command, or returns why it cannot. */
const VALUE_OPTIONS: Readonly<Record<string, (command: TestCommand, text: string) => string | undefined>> = {
	'--url': (command, text) => serviceUrl('--url', text, (url) => (command.url = url)),
	'--compare-with': (command, text) => serviceUrl('--compare-with', text, (url) => (command.compareWith = url)),
	'--compare-env': (command, text) => set(() => (command.compareEnv = text)),
	'--compare-namespace': (command, text) => set(() => (command.compareNamespace = text)),
	'--namespace': (command, text) => set(() => (command.namespace = text)),
	'--posting-path': (command, text) =>
		text.startsWith('/') ? set(() => (command.postingPath = text)) : '--posting-path must start with /.',
	'--junit': (command, text) => set(() => (command.junit = text)),
	'--drift': (command, text) => set(() => (command.drift = [...(command.drift ?? []), text])),
	'--json': (command, text) => set(() => (command.json = text)),
	'--grep': (command, text) => set(() => (command.grep = text)),
	'--env': (command, text) => set(() => (command.env = text)),
	'--size': (command, text) => {
		try {
			return set(() => (command.size = parseSize(text)));
		} catch (error) {
			return error instanceof Error ? error.message : String(error);
		}
	},
	'--seed': (command, text) => {
		const seed = wholeNumber(text, 0);
		return seed === undefined ? `--seed must be a whole number, got "${text}".` : set(() => (command.seed = seed));
	},
	'--timeout': (command, text) => {
		const timeout = wholeNumber(text, 1);
		return timeout === undefined
			? `--timeout must be a whole number, got "${text}".`
			: set(() => (command.timeoutMs = timeout));
	},
};

/** Reads an http or https URL given to `option`. */
function serviceUrl(option: string, text: string, assign: (url: string) => unknown): string | undefined {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return `${option} "${text}" is not a URL.`;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${option} must be an http or https URL.`;
	assign(text);
	return undefined;
}

/** Runs the assignment; no problem. */
function set(assign: () => unknown): undefined {
	assign();
	return undefined;
}

function wholeNumber(text: string, least: number): number | undefined {
	const number = Number(text);
	return Number.isInteger(number) && number >= least ? number : undefined;
}

/** Reads the arguments; a string is a usage error. */
export function parseTestArgs(args: readonly string[]): TestCommand | 'help' | string {
	const command: TestCommand = { paths: [], timeoutMs: 30_000, verbose: false };
	let sandbox = false;
	for (let index = 0; index < args.length; index += 1) {
		const arg = args[index];
		if (arg === '-h' || arg === '--help') return 'help';
		if (arg === '--sandbox') {
			sandbox = true;
			command.sandbox = true;
		} else if (Object.prototype.hasOwnProperty.call(FLAGS, arg)) {
			FLAGS[arg](command);
		} else if (Object.prototype.hasOwnProperty.call(VALUE_OPTIONS, arg)) {
			const text = args[index + 1];
			index += 1;
			if (text === undefined || text.startsWith('--')) return `${arg} needs a value.`;
			const problem = VALUE_OPTIONS[arg](command, text);
			if (problem) return problem;
		} else if (arg.startsWith('-')) {
			return `unknown option ${arg}.`;
		} else {
			command.paths.push(arg);
		}
	}
	if (sandbox && command.url) return 'give either --sandbox or --url, not both.';
	if (command.compareWith && command.compareEnv) return 'give either --compare-with or --compare-env, not both.';
	if (command.compareWrites && !command.compareWith && !command.compareEnv) {
		return '--compare-writes goes with --compare-with or --compare-env.';
	}
	if (command.drift) {
		if (command.paths.length > 0) return '--drift checks recordings: name no request files with it.';
		if (command.compareWith || command.compareEnv) return '--drift and --compare-with do not go together.';
		if (command.junit) return '--drift writes a console and a JSON report (--json), not JUnit.';
		return command;
	}
	if (command.driftWrites) return '--drift-writes goes with --drift.';
	if (command.paths.length === 0) return 'name at least one request file or folder.';
	return command;
}

/** A request file found: its path, and a readable name for reports (see collectRequestFiles). */
export interface FoundFile {
	path: string;
	/** The path under the folder given, starting with that folder's name (`examples/a.mpreq`); a file given alone: its name. */
	name: string;
}

/** The request files named: files as given, folders searched for *.mpreq (sorted, no dot or node_modules folders). */
export function collectRequestFiles(paths: readonly string[]): { files: FoundFile[]; problems: string[] } {
	const files: FoundFile[] = [];
	const problems: string[] = [];
	const walk = (folder: string, root: string): void => {
		const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
		for (const entry of entries) {
			const path = join(folder, entry.name);
			if (entry.isDirectory()) {
				if (!entry.name.startsWith('.') && entry.name !== 'node_modules') walk(path, root);
			} else if (entry.name.endsWith(REQUEST_FILE_EXTENSION)) {
				files.push({ path, name: join(basename(root), relative(root, path)).split(sep).join('/') });
			}
		}
	};
	for (const path of paths) {
		let stat;
		try {
			stat = statSync(path);
		} catch {
			problems.push(`${path} does not exist.`);
			continue;
		}
		if (stat.isDirectory()) walk(resolve(path), resolve(path));
		else files.push({ path, name: basename(path) });
	}
	const seen = new Set<string>();
	return { files: files.filter((file) => !seen.has(file.path) && seen.add(file.path)), problems };
}

/** Where the requests go and with which credentials. */
interface Session {
	target: RequestTarget;
	connection: ConnectionValues;
	description: string;
	validateSchema: SchemaValidator;
	/** The environment's variables, before any capture. */
	variables?: Readonly<Record<string, string>>;
	close(): Promise<void>;
}

async function openSession(
	command: TestCommand,
	env: NodeJS.ProcessEnv,
	stderr: (text: string) => void,
	chosen?: ChosenEnvironment,
): Promise<Session> {
	const session = await openTarget(
		withEnvironment(command, chosen),
		withEnvironmentValues(env, chosen, CREDENTIAL_ENV),
		stderr,
		CREDENTIAL_ENV,
	);
	return chosen ? { ...session, variables: chosen.environment.variables } : session;
}

/** The command with the environment's connection settings where the command line gives none. */
function withEnvironment(command: TestCommand, chosen: ChosenEnvironment | undefined): TestCommand {
	const connection = chosen?.environment.connection ?? {};
	return {
		...command,
		url: command.sandbox ? undefined : (command.url ?? connection.url),
		namespace: command.namespace ?? connection.namespace,
		postingPath: command.postingPath ?? connection.postingPath,
	};
}

/** The process environment with the environment's username and culture where MP_USERNAME and MP_CULTURE are not set. */
function withEnvironmentValues(
	env: NodeJS.ProcessEnv,
	chosen: ChosenEnvironment | undefined,
	names: CredentialNames,
): NodeJS.ProcessEnv {
	const connection = chosen?.environment.connection ?? {};
	return {
		...env,
		[names.username]: env[names.username] ?? connection.username,
		[names.culture]: env[names.culture] ?? connection.culture,
	};
}

/** The names of the environment variables that hold one connection's credentials. */
type CredentialNames = { readonly [K in keyof typeof CREDENTIAL_ENV]: string };

/**
 * The second connection of --compare-with or --compare-env, credentials from MP_COMPARE_*; none
 * without those options, a string when it cannot be used.
 */
async function openComparison(
	command: TestCommand,
	io: CliIo,
	chosen: ChosenEnvironment | undefined,
): Promise<Session | undefined | string> {
	const url = command.compareWith ?? chosen?.environment.connection.url;
	if (!url) {
		return chosen
			? `--compare-env ${chosen.environment.name}: the environment names no connection.url to compare with.`
			: undefined;
	}
	const connection = chosen?.environment.connection ?? {};
	const second: TestCommand = {
		...command,
		url,
		namespace: command.compareNamespace ?? connection.namespace,
		postingPath: connection.postingPath,
	};
	const env = withEnvironmentValues(io.env, chosen, COMPARE_CREDENTIAL_ENV);
	return openTarget(second, env, io.stderr, COMPARE_CREDENTIAL_ENV);
}

async function openTarget(
	command: TestCommand,
	env: NodeJS.ProcessEnv,
	stderr: (text: string) => void,
	names: CredentialNames,
): Promise<Session> {
	const paths = { ...DEFAULT_ENDPOINT_PATHS, posting: command.postingPath ?? DEFAULT_ENDPOINT_PATHS.posting };
	if (command.url) {
		if (!env[names.apiKey]) {
			stderr(`multiposting-test: ${names.apiKey} is not set; calls to ${command.url} will carry no API key.\n`);
		}
		const namespace =
			command.namespace ?? (await namespaceOfService(command.url, paths, command.timeoutMs, stderr));
		const target = { baseUrl: command.url, namespace, paths };
		return {
			target,
			connection: {
				apiKey: env[names.apiKey] ?? '',
				username: env[names.username] ?? '',
				password: env[names.password] ?? '',
				culture: env[names.culture] ?? 'en-GB',
			},
			description: `${command.url} (namespace ${namespace})`,
			validateSchema: schemaValidator(target),
			close: async () => undefined,
		};
	}
	const dataDir = mkdtempSync(join(tmpdir(), 'multiposting-test-'));
	let emulator: RunningEmulator;
	try {
		emulator = await startEmulator({
			host: '127.0.0.1',
			port: 0,
			dataDir,
			seed: command.seed,
			size: command.size,
			namespace: command.namespace,
			postingPath: command.postingPath,
		});
	} catch (error) {
		rmSync(dataDir, { recursive: true, force: true });
		throw error;
	}
	const target = { baseUrl: emulator.baseUrl, namespace: emulator.namespace, paths };
	return {
		target,
		connection: {
			apiKey: emulator.demo.apiKey,
			username: env[CREDENTIAL_ENV.username] ?? emulator.demo.username,
			password: emulator.demo.password,
			culture: env[CREDENTIAL_ENV.culture] ?? 'en-GB',
		},
		description: `a sandbox at ${emulator.baseUrl} (temporary database)`,
		validateSchema: schemaValidator(target),
		close: async () => {
			await emulator.stop();
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
}

/** The namespace the service's WSDL declares; else, with a warning, the base URL followed by `/`. */
async function namespaceOfService(
	url: string,
	paths: RequestTarget['paths'],
	timeoutMs: number,
	stderr: (text: string) => void,
): Promise<string> {
	const found = await serviceNamespaceOf({ baseUrl: url, paths }, timeoutMs);
	if ('namespace' in found) return found.namespace;
	const fallback = defaultNamespace(url);
	stderr(`multiposting-test: ${found.problem} Using the namespace ${fallback}; give --namespace to choose it.\n`);
	return fallback;
}

/** `valid against wsdl` with libxml2, loaded only when a file asks for it. */
function schemaValidator(target: RequestTarget): SchemaValidator {
	return wsdlSchemaValidator(target, loadLibxml2Validator);
}

/** Output streams and environment, injectable for tests. */
export interface CliIo {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
	env: NodeJS.ProcessEnv;
	cwd: string;
	validateSchema?: SchemaValidator;
}

/** Runs the command; resolves with the exit status. */
export async function main(args: readonly string[], io: CliIo = defaultIo()): Promise<number> {
	const command = parseTestArgs(args);
	if (command === 'help') {
		io.stdout(USAGE);
		return 0;
	}
	if (typeof command === 'string') {
		io.stderr(`multiposting-test: ${command}\n\n${USAGE}`);
		return 2;
	}
	if (command.drift) return runDrift(command, io);
	const { files, problems } = collectRequestFiles(command.paths.map((path) => resolve(io.cwd, path)));
	if (problems.length > 0 || files.length === 0) {
		io.stderr(`multiposting-test: ${problems.join(' ') || `no ${REQUEST_FILE_EXTENSION} files found.`}\n`);
		return 2;
	}
	const chosen = command.env ? chooseEnvironment(command.env, command.paths, io) : undefined;
	if (typeof chosen === 'string') {
		io.stderr(`multiposting-test: ${chosen}\n`);
		return 2;
	}
	const compareChosen = command.compareEnv ? chooseEnvironment(command.compareEnv, command.paths, io) : undefined;
	if (typeof compareChosen === 'string') {
		io.stderr(`multiposting-test: ${compareChosen}\n`);
		return 2;
	}
	const comparison = await openComparison(command, io, compareChosen);
	if (typeof comparison === 'string') {
		io.stderr(`multiposting-test: ${comparison}\n`);
		return 2;
	}
	const startedAt = new Date();
	const started = performance.now();
	const session = await openSession(command, io.env, io.stderr, chosen);
	const runs: FileRun[] = [];
	let notRun = 0;
	try {
		const environment = chosen
			? ` (environment ${chosen.environment.name} of ${relative(io.cwd, chosen.file)})`
			: '';
		const compared = comparison ? `, compared with ${comparison.description}` : '';
		io.stdout(
			`multiposting-test: ${files.length} file(s) against ${session.description}${environment}${compared}\n\n`,
		);
		for (const [index, file] of files.entries()) {
			const run = await runFile(file, command, session, io, comparison);
			runs.push(run);
			io.stdout(`${fileReport(run, command.verbose)}\n\n`);
			if (command.bail && !passedAll(run)) {
				notRun = files.length - index - 1;
				io.stdout(
					`Stopped at the first failure (--bail)${notRun > 0 ? `: ${notRun} more file(s) not run` : ''}.\n`,
				);
				break;
			}
		}
	} finally {
		await session.close();
	}
	const totalMs = performance.now() - started;
	const write = (path: string, text: string, what: string): void => {
		const file = resolve(io.cwd, path);
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, text, 'utf8');
		io.stdout(`${what}: ${path}\n`);
	};
	if (command.junit) write(command.junit, junitReport(runs, totalMs), 'JUnit report');
	if (command.json) {
		const report = jsonReport(runs, {
			target: session.description,
			comparedWith: comparison?.description,
			startedAt,
			totalMs,
			filesNotRun: notRun,
		});
		write(command.json, report, 'JSON report');
	}
	io.stdout(`${summaryLine(runs)}\n`);
	if (comparison) io.stdout(`${comparisonLine(runs, comparison.description)}\n`);
	if (!runs.every(passedAll)) return 1;
	return comparison && countComparisons(runs).differ + countComparisons(runs).notCompared > 0 ? EXIT_DIFFERENCES : 0;
}

/** `--drift`: every recording's reads sent again to the sandbox, their answers compared in shape. */
async function runDrift(command: TestCommand, io: CliIo): Promise<number> {
	const recordings: { source: string; recording: Recording }[] = [];
	for (const path of command.drift ?? []) {
		try {
			recordings.push({
				source: path,
				recording: parseRecording(readFileSync(resolve(io.cwd, path), 'utf8'), path),
			});
		} catch (error) {
			const reason =
				error instanceof RecordingFormatError
					? error.message
					: `${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)}).`;
			io.stderr(`multiposting-test: ${reason}\n`);
			return 2;
		}
	}
	const reports: { source: string; report: DriftReport }[] = [];
	for (const { source, recording } of recordings) {
		const session = await openTarget(
			{
				...command,
				namespace: command.namespace ?? (command.url ? undefined : recording.namespace),
				postingPath: command.postingPath ?? recording.paths.posting,
			},
			io.env,
			io.stderr,
			CREDENTIAL_ENV,
		);
		try {
			const report = await checkDrift(recording, session.target, session.connection, {
				writes: command.driftWrites,
				timeoutMs: command.timeoutMs,
			});
			reports.push({ source, report: { ...report, target: session.description } });
			io.stdout(`${driftConsoleReport({ ...report, target: session.description }, source)}\n\n`);
		} finally {
			await session.close();
		}
	}
	if (command.json) {
		const file = resolve(io.cwd, command.json);
		mkdirSync(dirname(file), { recursive: true });
		const text =
			reports.length === 1
				? driftJsonReport(reports[0].report, reports[0].source)
				: `[${reports.map(({ source, report }) => driftJsonReport(report, source).trim()).join(',\n')}]\n`;
		writeFileSync(file, text, 'utf8');
		io.stdout(`JSON report: ${command.json}\n`);
	}
	const differs = reports.some(({ report }) => report.counts.drifted + report.counts.errors > 0);
	return differs ? EXIT_DIFFERENCES : 0;
}

/** True when nothing of the file failed or erred (skips alone follow from a failure). */
function passedAll(run: FileRun): boolean {
	return (
		run.fileProblems.length === 0 &&
		run.results.every((result) => result.status !== 'failed' && result.status !== 'errored')
	);
}

async function runFile(
	found: FoundFile,
	command: TestCommand,
	session: Session,
	io: CliIo,
	comparison: Session | undefined,
): Promise<FileRun> {
	const started = performance.now();
	const file = found.path;
	const inCwd = relative(io.cwd, file);
	const run: FileRun = {
		path: inCwd.length > 0 && !inCwd.startsWith('..') && !isAbsolute(inCwd) ? inCwd : file,
		name: found.name,
		startedAt: new Date().toISOString().replace(/\.\d+Z$/, ''),
		ms: 0,
		results: [],
		lines: {},
		fileProblems: [],
		warnings: [],
	};
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		run.fileProblems.push(`cannot read the file: ${error instanceof Error ? error.message : String(error)}`);
		return run;
	}
	const parsed = parseRequestFileEntries(text);
	parsed.entries.forEach((entry, index) => {
		run.lines[index] = entry.location.first;
	});
	if (parsed.entries.length === 0) run.fileProblems.push('the file holds no request.');
	run.warnings = parsed.issues
		.filter((issue) => issue.severity === 'warning')
		.map((issue) => `line ${issue.line}: ${issue.message}`);
	const selected = command.grep
		? parsed.entries.flatMap((entry, index) => ((entry.name ?? '').includes(command.grep ?? '') ? [index] : []))
		: undefined;
	run.results = await runRequestEntries(
		parsed.entries,
		{
			target: session.target,
			connection: session.connection,
			timeoutMs: command.timeoutMs,
			bail: command.bail,
			validateSchema: io.validateSchema ?? session.validateSchema,
			folder: dirname(file),
			variables: session.variables,
			compareWith: comparison && {
				target: comparison.target,
				connection: comparison.connection,
				writes: command.compareWrites ?? false,
				validateSchema: io.validateSchema ?? comparison.validateSchema,
			},
		},
		selected,
	);
	run.ms = performance.now() - started;
	return run;
}

/** The environment named by --env; its file may not hold MP_API_KEY's or MP_PASSWORD's value. */
function chooseEnvironment(name: string, paths: readonly string[], io: CliIo): ChosenEnvironment | string {
	const secrets = [CREDENTIAL_ENV, COMPARE_CREDENTIAL_ENV].flatMap((names) => [
		io.env[names.apiKey] ?? '',
		io.env[names.password] ?? '',
	]);
	return loadEnvironment(
		name,
		paths.map((path) => resolve(io.cwd, path)),
		secrets,
		io.cwd,
	);
}

function defaultIo(): CliIo {
	return {
		stdout: (text) => process.stdout.write(text),
		stderr: (text) => process.stderr.write(text),
		env: process.env,
		cwd: process.cwd(),
	};
}

if (require.main === module) {
	main(process.argv.slice(2)).then(
		(code) => {
			process.exitCode = code;
		},
		(error: unknown) => {
			process.stderr.write(`multiposting-test: ${error instanceof Error ? error.message : String(error)}\n`);
			process.exitCode = 2;
		},
	);
}
