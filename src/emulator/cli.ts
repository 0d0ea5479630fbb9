/**
 * Command line of the sandbox (dist/sandbox.js, bin multiposting-sandbox, npm run sandbox).
 * On ready it prints exactly one JSON line on stdout with the addresses and demo credentials; the
 * access log goes to stderr, one line per request, never with parameters.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SANDBOX_PORT, NAMESPACE_FROM_BASE_URL, SANDBOX_NAMESPACE } from './endpoint';
import { isLoopbackHost } from './hostCheck';
import { batchedLines } from './batchedLines';
import { formatAccessLog, formatEvent } from './logFormat';
import { describeHolder, PortInUseError } from './portHolder';
import { loadScenario } from './scenarios/library';
import { sandboxInfo, startEmulator, type EmulatorOptions } from './server';
import { parseSize } from './size';
import { writeJournalFile } from './journal/file';

export { formatAccessLog, formatEvent } from './logFormat';
export { isLoopbackHost } from './hostCheck';

const USAGE = `Usage: multiposting-sandbox [options]

Runs a local emulator of the multiposting service (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST),
with the posting completion page, the web interface, delivery over time and application callbacks.

Options:
  --port P          port to listen on (default ${DEFAULT_SANDBOX_PORT}; 0: any free port)
  --host H          interface to bind (default 127.0.0.1)
  --allow-remote    allow a host other than loopback, and any Host header (the
                    sandbox has no real security)
  --allowed-host N  also answer requests whose Host header names N (a reverse proxy
                    in front of the sandbox, e.g. code-server); repeatable. Other
                    names than loopback ones get 403 (protection against DNS rebinding)
  --data DIR        folder of the sandbox database (default ./.sandbox-data)
  --seed N          seed of the generated demo data
  --namespace URI   XML namespace of the messages (default ${SANDBOX_NAMESPACE},
                    whatever the port); ${NAMESPACE_FROM_BASE_URL}: the spec's rule, base URL + '/'
  --reset           start from fresh demo data
  --size S          size of the demo account: small, default (200 adverts, 5,000
                    applications), large (50,000 / 1,000,000), a number of
                    applications, or <adverts>x<applications>
  --clock MODE      real (default) or manual (time moves only via advance(ms))
  --clock-speed F   real clock runs F times faster (default 1)
  --delivery-delay MS  time from completing a posting to the board's answer (default 3000)
  --flaky-feeds IDS comma-separated FeedIDs that fail about a third of deliveries (default 104)
  --live            new applications keep arriving for live adverts
  --live-rate N     applications per minute in live mode (default 6)
  --allow-link-local-callbacks  let application callbacks reach link-local and
                    cloud metadata addresses (169.254.0.0/16, fe80::/10, metadata.*)
  --loose           accept what production (ASP.NET ASMX) refuses or ignores, and
                    report each leniency (X-Sandbox-Warning header, access log)
  --scenario S      turn a failure scenario on from the start: a library name
                    (slow-service, service-down, flaky-network,
                    quota-exhausted-on-one-board, board-rejects-deliveries,
                    burst-of-applications, expired-login-link) or a JSON file;
                    repeatable. Injected answers carry X-Sandbox-Injected
  --no-answer-cache run every request in full (answers of reads are otherwise kept
                    until the data changes; they are the same either way)
  --journal FILE    append every exchange, redacted and with production's verdict,
                    to FILE as JSON lines (the journal is also served at
                    /__admin/requests on the same port, to loopback clients)
  --no-journal      keep no journal (no /__admin/requests)
  --help            show this help

On ready, one JSON line is printed on stdout:
  {"baseUrl","postingUrl","adminUrl","postingWsdl","adminWsdl","namespace","apiKey","username","password"}
`;

/** The parsed command line, or what to print instead of starting. */
export type CliCommand =
	| { kind: 'help' }
	| { kind: 'error'; message: string }
	| { kind: 'start'; options: EmulatorOptions; journalFile?: string };

function integer(text: string | undefined, name: string, min: number, max: number): number | undefined {
	if (text === undefined) return undefined;
	if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
		throw new Error(`--${name} must be a whole number from ${min} to ${max}.`);
	}
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
				size: { type: 'string' },
				clock: { type: 'string' },
				'clock-speed': { type: 'string' },
				'delivery-delay': { type: 'string' },
				'flaky-feeds': { type: 'string' },
				live: { type: 'boolean' },
				'live-rate': { type: 'string' },
				loose: { type: 'boolean' },
				'no-answer-cache': { type: 'boolean' },
				scenario: { type: 'string', multiple: true },
				journal: { type: 'string' },
				'no-journal': { type: 'boolean' },
				'allow-remote': { type: 'boolean' },
				'allowed-host': { type: 'string', multiple: true },
				'allow-link-local-callbacks': { type: 'boolean' },
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
		if (
			values.namespace !== undefined &&
			values.namespace !== NAMESPACE_FROM_BASE_URL &&
			!/^[a-z][a-z0-9+.-]*:\S+$/i.test(values.namespace)
		) {
			return {
				kind: 'error',
				message: `--namespace must be an absolute URI, e.g. https://example.com/, or ${NAMESPACE_FROM_BASE_URL}.`,
			};
		}
		if (values.clock !== undefined && values.clock !== 'real' && values.clock !== 'manual') {
			return { kind: 'error', message: '--clock must be real or manual.' };
		}
		const positive = (text: string | undefined, name: string): number | undefined => {
			if (text === undefined) return undefined;
			const value = Number(text);
			if (!/^\d+(\.\d+)?$/.test(text) || !(value > 0) || value > 1_000_000) {
				throw new Error(`--${name} must be a positive number.`);
			}
			return value;
		};
		// Only the options given are set, so defaults stay in one place (startEmulator).
		const extra: EmulatorOptions = {};
		if (values.size !== undefined) extra.size = parseSize(values.size);
		if (values.clock !== undefined) extra.clock = values.clock;
		if (values['clock-speed'] !== undefined) extra.clockSpeed = positive(values['clock-speed'], 'clock-speed');
		if (values['delivery-delay'] !== undefined) {
			extra.deliveryDelayMs = integer(values['delivery-delay'], 'delivery-delay', 0, 86_400_000);
		}
		if (values['flaky-feeds'] !== undefined) {
			if (!/^(\d{1,9}(,\d{1,9})*)?$/.test(values['flaky-feeds'])) {
				throw new Error('--flaky-feeds must be comma-separated FeedIDs.');
			}
			extra.flakyFeedIds = values['flaky-feeds'] === '' ? [] : values['flaky-feeds'].split(',').map(Number);
		}
		if (values.live) extra.live = true;
		if (values.loose) extra.loose = true;
		if (values['no-answer-cache']) extra.answerCache = false;
		if (values.scenario !== undefined) extra.scenarios = values.scenario.map(loadScenario);
		if (values['no-journal']) {
			if (values.journal !== undefined) throw new Error('--journal and --no-journal cannot go together.');
			extra.journal = false;
		}
		if (values.journal === '') throw new Error('--journal needs a file name.');
		if (values['allow-remote']) extra.allowRemote = true;
		if (values['allowed-host'] !== undefined) {
			const names = values['allowed-host'].flatMap((list) => list.split(',')).map((name) => name.trim());
			if (names.some((name) => !/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.:-]+)$/.test(name))) {
				throw new Error(
					'--allowed-host must be host names, e.g. code.example.com (comma-separated or repeated).',
				);
			}
			extra.allowedHosts = names;
		}
		if (values['allow-link-local-callbacks']) extra.callbackAllowLinkLocal = true;
		if (values['live-rate'] !== undefined) extra.liveRatePerMinute = positive(values['live-rate'], 'live-rate');
		return {
			kind: 'start',
			options: {
				host,
				port: integer(values.port, 'port', 0, 65535) ?? DEFAULT_SANDBOX_PORT,
				dataDir: values.data ?? './.sandbox-data',
				seed: integer(values.seed, 'seed', 0, 2 ** 31 - 1),
				namespace: values.namespace,
				reset: values.reset ?? false,
				...extra,
			},
			...(values.journal !== undefined ? { journalFile: values.journal } : {}),
		};
	} catch (error) {
		return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
	}
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
	const log = batchedLines((text) => process.stderr.write(text));
	// Whatever way the process ends (a signal, process.exit, an uncaught error), the last lines are written.
	process.once('exit', log.flush);
	let emulator;
	try {
		emulator = await startEmulator({
			...command.options,
			owner: 'the multiposting-sandbox command',
			logger: (entry) => log.line(formatAccessLog(entry)),
			onEvent: (event) => log.line(formatEvent(event)),
		});
	} catch (error) {
		if (!(error instanceof PortInUseError)) throw error;
		const free = error.suggestedPort === undefined ? '' : ` --port ${error.suggestedPort} is free,`;
		process.stderr.write(
			`multiposting-sandbox: port ${error.port} on ${error.host} is already in use by ${describeHolder(error.holder)}.\n` +
				`  Stop that program or choose another port:${free} --port 0 takes any free port.\n`,
		);
		return 1;
	}
	const { demo, ...addresses } = sandboxInfo(emulator);
	const ready = { ...addresses, apiKey: demo.apiKey, username: demo.username, password: demo.password };
	const journalFile =
		command.journalFile !== undefined && emulator.journal
			? writeJournalFile(command.journalFile, emulator.journal, emulator.verdictOf, (error) =>
					log.line(formatEvent({ kind: 'error', message: 'journal file failed', error })),
				)
			: undefined;
	const shutdown = (): void => {
		emulator
			.stop()
			.then(() => journalFile?.close())
			.then(
				() => process.exit(0),
				() => process.exit(1),
			);
	};
	// Before the ready line: whoever reads it may stop the sandbox at once.
	process.once('SIGINT', shutdown);
	process.once('SIGTERM', shutdown);
	process.stdout.write(`${JSON.stringify(ready)}\n`);
	return undefined;
}

if (require.main === module) {
	main(process.argv.slice(2)).then(
		(code) => {
			if (code !== undefined) process.exitCode = code;
		},
		(error: unknown) => {
			process.stderr.write(
				`multiposting-sandbox: could not start: ${error instanceof Error ? error.message : String(error)}\n`,
			);
			process.exitCode = 1;
		},
	);
}
