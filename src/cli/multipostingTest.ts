/**
 * multiposting-test: runs request files (.mpreq) as tests, for CI. Against a service given by URL
 * (credentials from environment variables) or against a sandbox it starts itself on a temporary
 * database. Prints a line per request and a summary, writes JUnit XML, exits 1 when anything failed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { runRequestEntries, type SchemaValidator } from '../client/requestFileRunner';
import { parseSize, startEmulator, type RunningEmulator, type SandboxSize } from '../emulator';
import { DEFAULT_ENDPOINT_PATHS, defaultNamespace } from '../protocol/catalogue';
import { parseRequestFileEntries, REQUEST_FILE_EXTENSION } from '../protocol/requestFile';
import { ENVIRONMENT_FILE_NAME } from '../protocol/requestFiles/environments';
import type { ConnectionValues } from '../protocol/requestFiles/placeholders';
import type { RequestTarget } from '../protocol/requestFiles/prepare';
import { wsdlSchemaValidator } from '../client/requestFileSchema';
import { loadLibxml2Validator } from '../client/xsd/libxml2Validator';
import { loadEnvironment, type ChosenEnvironment } from './environment';
import { junitReport } from './junit';
import { fileReport, summaryLine, totals, type FileRun } from './report';

/** Environment variables holding the credentials of a service given with --url. */
export const CREDENTIAL_ENV = {
	apiKey: 'MP_API_KEY',
	username: 'MP_USERNAME',
	password: 'MP_PASSWORD',
	culture: 'MP_CULTURE',
} as const;

const USAGE = `Usage: multiposting-test [options] <file or folder>...

Runs request files (${REQUEST_FILE_EXTENSION}) as tests: every request is sent in order, its
expectations are checked and its captures passed on to the requests after it.

Target (one of):
  --sandbox               start a sandbox on a temporary database (the default)
  --url <base URL>        a running service; credentials come from the environment:
                          ${CREDENTIAL_ENV.apiKey}, ${CREDENTIAL_ENV.username}, ${CREDENTIAL_ENV.password}, ${CREDENTIAL_ENV.culture}
  --namespace <uri>       XML namespace of the service (default: the base URL followed by /)
  --posting-path <path>   path of the posting endpoint (default ${DEFAULT_ENDPOINT_PATHS.posting})
  --seed <n>              seed of the sandbox's demo data
  --size <size>           size of the sandbox's demo data: small, default or large (default: default)

Options:
  --env <name>            an environment of the nearest ${ENVIRONMENT_FILE_NAME} up from the files:
                          its variables and connection settings (options given here win);
                          secrets still come only from the environment variables above
  --junit <file>          also write a JUnit XML report
  --grep <text>           run only requests whose name contains the text (and what they need)
  --timeout <ms>          time budget of one request (default 30000)
  --verbose               print every expectation and exchange, not only failures
  -h, --help              this text

Exit status: 0 when every request passed, 1 when one failed, 2 for a usage error.
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
	grep?: string;
	env?: string;
	/** --sandbox was given: the run starts a sandbox even when the environment names a URL. */
	sandbox?: boolean;
	timeoutMs: number;
	verbose: boolean;
}

/** Reads the arguments; a string is a usage error. */
export function parseTestArgs(args: readonly string[]): TestCommand | 'help' | string {
	const command: TestCommand = { paths: [], timeoutMs: 30_000, verbose: false };
	let sandbox = false;
	for (let index = 0; index < args.length; index += 1) {
		const arg = args[index];
		const value = (): string | undefined => {
			const next = args[index + 1];
			index += 1;
			return next;
		};
		switch (arg) {
			case '-h':
			case '--help':
				return 'help';
			case '--sandbox':
				sandbox = true;
				command.sandbox = true;
				break;
			case '--verbose':
				command.verbose = true;
				break;
			case '--url':
			case '--namespace':
			case '--posting-path':
			case '--junit':
			case '--env':
			case '--grep':
			case '--seed':
			case '--size':
			case '--timeout': {
				const text = value();
				if (text === undefined || text.startsWith('--')) return `${arg} needs a value.`;
				if (arg === '--url') {
					try {
						const url = new URL(text);
						if (url.protocol !== 'http:' && url.protocol !== 'https:') {
							return '--url must be an http or https URL.';
						}
					} catch {
						return `--url "${text}" is not a URL.`;
					}
					command.url = text;
				} else if (arg === '--namespace') command.namespace = text;
				else if (arg === '--posting-path') {
					if (!text.startsWith('/')) return '--posting-path must start with /.';
					command.postingPath = text;
				} else if (arg === '--junit') command.junit = text;
				else if (arg === '--grep') command.grep = text;
				else if (arg === '--env') command.env = text;
				else if (arg === '--size') {
					try {
						command.size = parseSize(text);
					} catch (error) {
						return error instanceof Error ? error.message : String(error);
					}
				} else {
					const number = Number(text);
					if (!Number.isInteger(number) || number < (arg === '--timeout' ? 1 : 0)) {
						return `${arg} must be a whole number, got "${text}".`;
					}
					if (arg === '--seed') command.seed = number;
					else command.timeoutMs = number;
				}
				break;
			}
			default:
				if (arg.startsWith('-')) return `unknown option ${arg}.`;
				command.paths.push(arg);
		}
	}
	if (sandbox && command.url) return 'give either --sandbox or --url, not both.';
	if (command.paths.length === 0) return 'name at least one request file or folder.';
	return command;
}

/** The request files named: files as given, folders searched for *.mpreq (sorted, no dot or node_modules folders). */
export function collectRequestFiles(paths: readonly string[]): { files: string[]; problems: string[] } {
	const files: string[] = [];
	const problems: string[] = [];
	const walk = (folder: string): void => {
		const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
		for (const entry of entries) {
			const path = join(folder, entry.name);
			if (entry.isDirectory()) {
				if (!entry.name.startsWith('.') && entry.name !== 'node_modules') walk(path);
			} else if (entry.name.endsWith(REQUEST_FILE_EXTENSION)) {
				files.push(path);
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
		if (stat.isDirectory()) walk(path);
		else files.push(path);
	}
	return { files: [...new Set(files)], problems };
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
	const session = await openTarget(withEnvironment(command, chosen), withEnvironmentValues(env, chosen), stderr);
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
function withEnvironmentValues(env: NodeJS.ProcessEnv, chosen: ChosenEnvironment | undefined): NodeJS.ProcessEnv {
	const connection = chosen?.environment.connection ?? {};
	return {
		...env,
		[CREDENTIAL_ENV.username]: env[CREDENTIAL_ENV.username] ?? connection.username,
		[CREDENTIAL_ENV.culture]: env[CREDENTIAL_ENV.culture] ?? connection.culture,
	};
}

async function openTarget(
	command: TestCommand,
	env: NodeJS.ProcessEnv,
	stderr: (text: string) => void,
): Promise<Session> {
	const paths = { ...DEFAULT_ENDPOINT_PATHS, posting: command.postingPath ?? DEFAULT_ENDPOINT_PATHS.posting };
	if (command.url) {
		if (!env[CREDENTIAL_ENV.apiKey]) {
			stderr(`multiposting-test: ${CREDENTIAL_ENV.apiKey} is not set; calls will carry no API key.\n`);
		}
		const target = { baseUrl: command.url, namespace: command.namespace ?? defaultNamespace(command.url), paths };
		return {
			target,
			connection: {
				apiKey: env[CREDENTIAL_ENV.apiKey] ?? '',
				username: env[CREDENTIAL_ENV.username] ?? '',
				password: env[CREDENTIAL_ENV.password] ?? '',
				culture: env[CREDENTIAL_ENV.culture] ?? 'en-GB',
			},
			description: command.url,
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
	const started = performance.now();
	const session = await openSession(command, io.env, io.stderr, chosen);
	const runs: FileRun[] = [];
	try {
		const environment = chosen
			? ` (environment ${chosen.environment.name} of ${relative(io.cwd, chosen.file)})`
			: '';
		io.stdout(`multiposting-test: ${files.length} file(s) against ${session.description}${environment}\n\n`);
		for (const file of files) {
			const run = await runFile(file, command, session, io);
			runs.push(run);
			io.stdout(`${fileReport(run, command.verbose)}\n\n`);
		}
	} finally {
		await session.close();
	}
	const totalMs = performance.now() - started;
	if (command.junit) {
		const junit = resolve(io.cwd, command.junit);
		mkdirSync(dirname(junit), { recursive: true });
		writeFileSync(junit, junitReport(runs, totalMs), 'utf8');
		io.stdout(`JUnit report: ${command.junit}\n`);
	}
	io.stdout(`${summaryLine(runs)}\n`);
	const counts = totals(runs);
	return counts.failed + counts.errored + counts.fileErrors > 0 ? 1 : 0;
}

async function runFile(file: string, command: TestCommand, session: Session, io: CliIo): Promise<FileRun> {
	const started = performance.now();
	const run: FileRun = {
		path: relative(io.cwd, file) || file,
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
			validateSchema: io.validateSchema ?? session.validateSchema,
			folder: dirname(file),
			variables: session.variables,
		},
		selected,
	);
	run.ms = performance.now() - started;
	return run;
}

/** The environment named by --env; its file may not hold MP_API_KEY's or MP_PASSWORD's value. */
function chooseEnvironment(name: string, paths: readonly string[], io: CliIo): ChosenEnvironment | string {
	const secrets = [io.env[CREDENTIAL_ENV.apiKey] ?? '', io.env[CREDENTIAL_ENV.password] ?? ''];
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
