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
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import { parseRecording } from '../protocol/recordings/format';
import { DEFAULT_PROXY_PORT, DEFAULT_PROXY_TIMEOUT_MS, type ProxyOptions } from './proxy/proxy';
import { recordToFile } from './recordings/recorder';

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

Debugging against the live service (docs/live-service.md):
  --proxy-to URL    also run the inspecting proxy: every request sent to it goes to
                    the live service at URL and its answer comes back unchanged; both
                    are journaled with production's verdict (/__admin/requests). With
                    MP_API_KEY and MP_PASSWORD set to the account's own credentials,
                    requests carrying other ones are marked (recordings, drift)
  --proxy-port P    port of the proxy (default ${DEFAULT_PROXY_PORT}; 0: any free port)
  --proxy-ca FILE   also trust this CA certificate (PEM) for the upstream, e.g. a
                    corporate TLS inspection's; repeatable. Certificates are always verified
  --proxy-via URL   reach the upstream through this outbound HTTP(S) proxy
  --proxy-timeout MS  connect, answer and idle timeout (default ${DEFAULT_PROXY_TIMEOUT_MS})
  --proxy-namespace URI  the upstream's XML namespace (default: read from its WSDL)
  --proxy-posting-path P  the upstream's posting endpoint path (default /SOAP/Posting.asmx)
  --record FILE     write every proxied exchange into the recording FILE (.mprec.json),
                    credentials as placeholders; rewritten whole shortly after each
                    exchange (less often under load) and on exit
  --break SPEC      hold requests to the upstream that match SPEC (an operation name or
                    a Traffic filter such as "op:AddAdvert client:127.0.0.1") until
                    decided at /__admin/held; repeatable
  --replay FILE     answer from this recording (repeatable); the namespace defaults to
                    the recording's
  --replay-mode M   strict (default: a request not recorded gets a NotRecorded fault)
                    or fall-through (it goes to the sandbox)

  --help            show this help

On ready, one JSON line is printed on stdout:
  {"baseUrl","postingUrl","adminUrl","postingWsdl","adminWsdl","namespace","apiKey","username","password"}
  with --proxy-to also "proxyUrl", "upstream" and "upstreamNamespace"; with --replay, "replay".
`;

/** The parsed command line, or what to print instead of starting. */
export type CliCommand =
	| { kind: 'help' }
	| { kind: 'error'; message: string }
	| { kind: 'start'; options: EmulatorOptions; journalFile?: string; recordFile?: string; breaks?: string[] };

function integer(text: string | undefined, name: string, min: number, max: number): number | undefined {
	if (text === undefined) return undefined;
	if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
		throw new Error(`--${name} must be a whole number from ${min} to ${max}.`);
	}
	return Number(text);
}

function readTextFile(path: string, option: string): string {
	try {
		return readFileSync(path, 'utf8');
	} catch (error) {
		throw new Error(
			`${option} ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
			{ cause: error },
		);
	}
}

/** The proxy's options from the command line, or undefined without --proxy-to. */
function proxyOptions(values: Record<string, string | boolean | string[] | undefined>): ProxyOptions | undefined {
	const text = (name: string): string | undefined => values[name] as string | undefined;
	const upstream = text('proxy-to');
	const given = Object.keys(values).filter((name) => name.startsWith('proxy-') && values[name] !== undefined);
	if (upstream === undefined) {
		if (given.length > 0) throw new Error(`--${given[0]} needs --proxy-to URL.`);
		return undefined;
	}
	for (const [name, value] of [
		['proxy-to', upstream],
		['proxy-via', text('proxy-via')],
	] as const) {
		if (value === undefined) continue;
		let url: URL | undefined;
		try {
			url = new URL(value);
		} catch {
			url = undefined;
		}
		if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
			throw new Error(`--${name} must be an http or https URL, e.g. https://api.example.com.`);
		}
	}
	const options: ProxyOptions = {
		upstream,
		port: integer(text('proxy-port'), 'proxy-port', 0, 65535) ?? DEFAULT_PROXY_PORT,
	};
	const timeout = integer(text('proxy-timeout'), 'proxy-timeout', 100, 3_600_000);
	if (timeout !== undefined) options.timeoutMs = timeout;
	if (text('proxy-namespace')) options.namespace = text('proxy-namespace');
	if (text('proxy-posting-path')) {
		if (!text('proxy-posting-path')!.startsWith('/')) throw new Error('--proxy-posting-path must start with /.');
		options.postingPath = text('proxy-posting-path');
	}
	if (text('proxy-via')) options.via = text('proxy-via');
	const ca = values['proxy-ca'] as string[] | undefined;
	if (ca) {
		options.ca = ca.map((file) => {
			const pem = readTextFile(file, '--proxy-ca');
			if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
				throw new Error(`--proxy-ca ${file} is not a PEM certificate.`);
			}
			return pem;
		});
	}
	return options;
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
				'proxy-to': { type: 'string' },
				'proxy-port': { type: 'string' },
				'proxy-ca': { type: 'string', multiple: true },
				'proxy-via': { type: 'string' },
				'proxy-timeout': { type: 'string' },
				'proxy-namespace': { type: 'string' },
				'proxy-posting-path': { type: 'string' },
				record: { type: 'string' },
				break: { type: 'string', multiple: true },
				replay: { type: 'string', multiple: true },
				'replay-mode': { type: 'string' },
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
		const proxy = proxyOptions(values);
		if (proxy) extra.proxy = proxy;
		if ((values.record !== undefined || values.break !== undefined) && !proxy) {
			throw new Error(
				'--record and --break need --proxy-to: they apply to the traffic sent to the live service.',
			);
		}
		if (values.journal === undefined && values['no-journal'] && (values.record !== undefined || proxy)) {
			throw new Error('--no-journal cannot go with --proxy-to: the proxy records into the journal.');
		}
		const mode = values['replay-mode'];
		if (mode !== undefined && mode !== 'strict' && mode !== 'fall-through') {
			throw new Error('--replay-mode must be strict or fall-through.');
		}
		let namespace = values.namespace;
		if (values.replay !== undefined) {
			const recordings = values.replay.map((file) => ({
				name: basename(file),
				recording: parseRecording(readTextFile(file, '--replay'), file),
			}));
			extra.replay = { recordings, mode: mode === 'fall-through' ? 'fallThrough' : 'strict' };
			const namespaces = [...new Set(recordings.map(({ recording }) => recording.namespace))];
			if (namespace === undefined && namespaces.length === 1) namespace = namespaces[0];
		} else if (mode !== undefined) {
			throw new Error('--replay-mode needs --replay FILE.');
		}
		return {
			kind: 'start',
			options: {
				host,
				port: integer(values.port, 'port', 0, 65535) ?? DEFAULT_SANDBOX_PORT,
				dataDir: values.data ?? './.sandbox-data',
				seed: integer(values.seed, 'seed', 0, 2 ** 31 - 1),
				namespace,
				reset: values.reset ?? false,
				...extra,
			},
			...(values.journal !== undefined ? { journalFile: values.journal } : {}),
			...(values.record !== undefined ? { recordFile: values.record } : {}),
			...(values.break !== undefined ? { breaks: values.break } : {}),
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
		// The connection's own credentials, from the environment only (never the command line): a request
		// carrying others is marked in the journal and recordings.
		const own = { apiKey: process.env.MP_API_KEY || undefined, password: process.env.MP_PASSWORD || undefined };
		const proxy =
			command.options.proxy && (own.apiKey || own.password)
				? { ...command.options.proxy, credentials: own }
				: command.options.proxy;
		emulator = await startEmulator({
			...command.options,
			...(proxy ? { proxy } : {}),
			owner: 'the multiposting-sandbox command',
			logger: (entry) => log.line(formatAccessLog(entry)),
			onEvent: (event) => log.line(formatEvent(event)),
		});
	} catch (error) {
		if (!(error instanceof PortInUseError)) throw error;
		const flag = command.options.proxy && error.port === command.options.proxy.port ? '--proxy-port' : '--port';
		const free = error.suggestedPort === undefined ? '' : ` ${flag} ${error.suggestedPort} is free,`;
		process.stderr.write(
			`multiposting-sandbox: port ${error.port} on ${error.host} is already in use by ${describeHolder(error.holder)}.\n` +
				`  Stop that program or choose another port:${free} ${flag} 0 takes any free port.\n`,
		);
		return 1;
	}
	const { demo, ...addresses } = sandboxInfo(emulator);
	const proxy = emulator.proxy.current();
	const replay = emulator.replay.info();
	const ready = {
		...addresses,
		apiKey: demo.apiKey,
		username: demo.username,
		password: demo.password,
		...(proxy ? { proxyUrl: proxy.url, upstream: proxy.upstream, upstreamNamespace: proxy.namespace } : {}),
		...(replay ? { replay: { mode: replay.mode, recordings: replay.recordings.map((r) => r.name) } } : {}),
	};
	for (const spec of command.breaks ?? []) {
		emulator.breakpoints.add(/^[A-Za-z]+$/.test(spec) ? { operation: spec } : { filter: spec });
	}
	const recordFile =
		command.recordFile !== undefined && emulator.journal
			? recordToFile(command.recordFile, emulator.journal, emulator.serviceContext, (reason) =>
					log.line(`record: ${reason}`),
				)
			: undefined;
	const journalFile =
		command.journalFile !== undefined && emulator.journal
			? writeJournalFile(command.journalFile, emulator.journal, emulator.verdictOf, (error) =>
					log.line(formatEvent({ kind: 'error', message: 'journal file failed', error })),
				)
			: undefined;
	const shutdown = (): void => {
		emulator
			.stop()
			.then(() => recordFile?.close())
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
