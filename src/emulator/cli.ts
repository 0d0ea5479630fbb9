/**
 * Command line of the sandbox (dist/sandbox.js, bin multiposting-sandbox, npm run sandbox).
 * On ready it prints exactly one JSON line on stdout with the addresses and demo credentials; the
 * access log goes to stderr, one line per request, never with parameters.
 */
import { parseArgs } from 'node:util';
import type { AccessLogEntry } from './pipeline/context';
import { startEmulator, type EmulatorOptions } from './server';

const USAGE = `Usage: multiposting-sandbox [options]

Runs a local emulator of the multiposting service (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST).

Options:
  --port P          port to listen on (default 0: a free port)
  --host H          interface to bind (default 127.0.0.1)
  --allow-remote    allow a host other than loopback (the sandbox has no real security)
  --data DIR        folder of the sandbox database (default ./.sandbox-data)
  --seed N          seed of the generated demo data
  --namespace URI   fixed XML namespace (default: base URL + '/')
  --reset           start from fresh demo data
  --help            show this help

On ready, one JSON line is printed on stdout:
  {"baseUrl","postingUrl","adminUrl","postingWsdl","adminWsdl","apiKey","username","password"}
`;

/** The parsed command line, or what to print instead of starting. */
export type CliCommand = { kind: 'help' } | { kind: 'error'; message: string } | { kind: 'start'; options: EmulatorOptions };

/** True for addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
	const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
	return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

function integer(text: string | undefined, name: string, min: number, max: number): number | undefined {
	if (text === undefined) return undefined;
	if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}.`);
	return Number(text);
}

/** Parses arguments without side effects. */
export function parseCliArgs(args: readonly string[]): CliCommand {
	try {
		const { values } = parseArgs({
			args: [...args],
			strict: true,
			allowPositionals: false,
			options: {
				port: { type: 'string' },
				host: { type: 'string' },
				data: { type: 'string' },
				seed: { type: 'string' },
				namespace: { type: 'string' },
				reset: { type: 'boolean' },
				'allow-remote': { type: 'boolean' },
				help: { type: 'boolean' },
			},
		});
		if (values.help) return { kind: 'help' };
		const host = values.host ?? '127.0.0.1';
		if (!isLoopbackHost(host) && !values['allow-remote']) {
			return {
				kind: 'error',
				message: `Refusing to listen on ${host}: the sandbox has demo credentials and no real security, so it listens on loopback only. Pass --allow-remote to expose it anyway.`,
			};
		}
		if (values.namespace !== undefined && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(values.namespace)) {
			return { kind: 'error', message: '--namespace must be an absolute URI, e.g. https://example.com/.' };
		}
		return {
			kind: 'start',
			options: {
				host,
				port: integer(values.port, 'port', 0, 65535) ?? 0,
				dataDir: values.data ?? './.sandbox-data',
				seed: integer(values.seed, 'seed', 0, 2 ** 31 - 1),
				namespace: values.namespace,
				reset: values.reset ?? false,
			},
		};
	} catch (error) {
		return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
	}
}

/** One access-log line: method path binding operation status ms. */
export function formatAccessLog(entry: AccessLogEntry): string {
	const line = `${entry.method} ${entry.path} ${entry.binding ?? '-'} ${entry.operation ?? '-'} ${entry.status} ${entry.durationMs}ms`;
	if (entry.error === undefined) return line;
	const detail = entry.error instanceof Error ? (entry.error.stack ?? entry.error.message) : String(entry.error);
	return `${line}\n  internal error: ${detail.replace(/\n/g, '\n  ')}`;
}

/** Runs the sandbox until SIGINT or SIGTERM. Resolves with the exit code of a failed start. */
export async function main(args: readonly string[]): Promise<number | undefined> {
	const command = parseCliArgs(args);
	if (command.kind === 'help') {
		process.stdout.write(USAGE);
		return 0;
	}
	if (command.kind === 'error') {
		process.stderr.write(`multiposting-sandbox: ${command.message}\n`);
		return 2;
	}
	const emulator = await startEmulator({ ...command.options, logger: (entry) => process.stderr.write(`${formatAccessLog(entry)}\n`) });
	const ready = {
		baseUrl: emulator.baseUrl,
		postingUrl: emulator.postingUrl,
		adminUrl: emulator.adminUrl,
		postingWsdl: emulator.postingWsdl,
		adminWsdl: emulator.adminWsdl,
		apiKey: emulator.demo.apiKey,
		username: emulator.demo.username,
		password: emulator.demo.password,
	};
	process.stdout.write(`${JSON.stringify(ready)}\n`);
	const shutdown = (): void => {
		emulator.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', shutdown);
	process.once('SIGTERM', shutdown);
	return undefined;
}

if (require.main === module) {
	main(process.argv.slice(2)).then(
		(code) => {
			if (code !== undefined) process.exitCode = code;
		},
		(error: unknown) => {
			process.stderr.write(`multiposting-sandbox: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
			process.exitCode = 1;
		},
	);
}
