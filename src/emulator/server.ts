/**
 * The emulator's HTTP server: node:http with the request pipeline of ./pipeline, serving both
 * endpoints in the four bindings, their WSDL and ASMX-style service pages.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DEFAULT_ENDPOINT_PATHS, defaultNamespace, type Endpoint } from '../protocol/catalogue';
import { generateWsdl } from '../protocol/wsdl';
import type { OperationHandlers } from './domain/handlers';
import { SANDBOX_INJECTED, type AccessLogEntry, type PipelineConfig } from './pipeline/context';
import { splitTarget } from './pipeline/dispatch';
import { createRequestListener } from './pipeline/listener';
import { openSandbox, type DemoCredentials, type Sandbox } from './sandbox';
import { applicationCreatedPayload, CallbackNotifier, type CallbackEvent } from './callbacks/notifier';
import { createClock, type ClockMode, type EmulatorClock } from './delivery/clock';
import { DeliveryScheduler, type DeliveryEvent } from './delivery/scheduler';
import { LiveApplications, type ArrivedApplication } from './live/liveApplications';
import { createWebRouter } from './web/router';
import { resolveSize, type SandboxSize } from './size';
import { NAMESPACE_FROM_BASE_URL, SANDBOX_NAMESPACE } from './endpoint';
import { foreignHostMessage, hostHeaderCheck } from './hostCheck';
import { explainListenError } from './portHolder';
import { AnswerCache, type AnswerCacheStats } from './pipeline/answerCache';
import { GroupCommit, type GroupCommitStats } from './pipeline/groupCommit';
import { ResourceLimits, type ResourceLimitOptions, type ResourceStats } from './resources/limits';
import { ScenarioEngine, type ActiveScenarioInfo } from './scenarios/engine';
import type { Scenario } from './scenarios/format';
import { ControlRouter } from './control/router';
import { registerJournalRoutes } from './control/requests';
import { registerScenarioRoutes } from './control/scenarios';
import { Journal, type JournalOptions } from './journal/journal';
import type { JournalEntry } from './journal/types';
import { cachedVerdictOf, type Verdict, type VerdictContext } from './journal/verdict';
import { loadLibxml2Validator } from '../protocol/schema/libxml2Validator';
import { Breakpoints } from './breakpoints/breakpoints';
import { registerBreakpointRoutes } from './control/breakpoints';
import { registerProxyRoutes, type ProxyControl } from './control/proxy';
import { registerRecordingRoutes } from './control/recordings';
import { registerReplayRoutes, type ReplayControl } from './control/replay';
import { startProxy, type ProxyInfo, type ProxyOptions, type RunningProxy } from './proxy/proxy';
import { Replayer, type LoadedRecording, type ReplayInfo, type ReplayMode } from './replay/replayer';
import type { XsdValidatorPort } from '../protocol/schema/wsdlValidation';

export type { AccessLogEntry } from './pipeline/context';
export type { CallbackEvent } from './callbacks/notifier';
export type { DeliveryEvent } from './delivery/scheduler';
export type { ArrivedApplication } from './live/liveApplications';

/** What happens in the background, for the emulator's log: deliveries, new applications, callbacks, failures. */
export type EmulatorEvent =
	| ({ kind: 'delivery' } & DeliveryEvent)
	| ({ kind: 'application' } & Omit<ArrivedApplication, 'callbackUrl'>)
	| CallbackEvent
	| { kind: 'error'; message: string; error: unknown }
	/** Failure scenarios turned on or off (what is active after the change). */
	| { kind: 'scenarios'; active: ActiveScenarioInfo[] }
	/** What opening the database found and did (a crash recovered, an unfinished seeding redone). */
	| { kind: 'storage'; message: string }
	/** Replay turned on (what is replayed, and what a person should know) or off (info undefined). */
	| { kind: 'replay'; info: ReplayInfo | undefined; notes: string[] }
	/** The inspecting proxy started (where it forwards, and what its namespace is taken as) or stopped. */
	| { kind: 'proxy'; info: ProxyInfo | undefined };

/** Default cap of a request body: 4 MiB. */
export const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** Default time budget of one request, body included. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Largest request head accepted (request line plus headers). */
export const MAX_HEADER_BYTES = 16 * 1024;

export interface EmulatorOptions {
	/** Interface to bind; default 127.0.0.1. */
	host?: string;
	/** Port; 0 (default) picks a free one. A taken port fails with a PortInUseError naming its holder. */
	port?: number;
	/** Folder of the sandbox database, or ':memory:'; default ':memory:'. Ignored with `handlers`. */
	dataDir?: string | ':memory:';
	/** Seed of the generated demo data. */
	seed?: number;
	/** Start from fresh demo data. */
	reset?: boolean;
	/** What this process is, named to a second sandbox refused on the same data folder (default: guessed). */
	owner?: string;
	/** The XML namespace: default SANDBOX_NAMESPACE (fixed); NAMESPACE_FROM_BASE_URL for the spec's rule (base URL + '/'). */
	namespace?: string;
	/** Path of the posting endpoint; default DEFAULT_ENDPOINT_PATHS.posting. */
	postingPath?: string;
	/** Largest accepted body in bytes; default 4 MiB. Larger bodies get 413. */
	maxRequestBytes?: number;
	/** Time budget of one request in ms; default 30000. */
	requestTimeoutMs?: number;
	/** Largest RowsPerPage the sandbox accepts (larger is a Client fault); ignored with `handlers`. */
	maxPageSize?: number;
	/**
	 * Accept what an ASP.NET ASMX service refuses or ignores (missing GET/POST fields, parameters
	 * outside the service namespace, mustUnderstand headers, extra Body elements), reporting every
	 * leniency in an X-Sandbox-Warning header and the access log. Default false: strict like ASMX.
	 */
	loose?: boolean;
	/** Called once per request; entries never contain parameters. */
	logger?: (entry: AccessLogEntry) => void;
	/** Handlers used instead of opening a sandbox (tests). */
	handlers?: OperationHandlers;
	/** Size of the generated account: 'small', 'default' (200 adverts, 5,000 applications), 'large' (50,000 / 1,000,000) or counts. */
	size?: SandboxSize;
	/** 'real' (default) follows the wall clock times `clockSpeed`; 'manual' moves only with advance(ms). */
	clock?: ClockMode;
	/** How much faster than real time the real clock runs (default 1). */
	clockSpeed?: number;
	/** Time from completing a posting (or its future post date) to the job board's answer; default 3000 ms. */
	deliveryDelayMs?: number;
	/** Feeds that fail about a third of deliveries (deterministically); default [104]. */
	flakyFeedIds?: readonly number[];
	/** New applications arrive for live adverts (live mode). */
	live?: boolean;
	/** Live mode rate: applications per minute of emulator time (default 6). */
	liveRatePerMinute?: number;
	/** Time limit of one callback attempt (default 5000 ms). */
	callbackTimeoutMs?: number;
	/** Waits before callback retries (default [1000, 4000]: three tries). */
	callbackRetryDelaysMs?: readonly number[];
	/** scrypt cost of the seeded password hash (tests lower it). */
	passwordCost?: number;
	/** Background events: deliveries, new applications, callback attempts, failures. Never carries secrets. */
	onEvent?: (event: EmulatorEvent) => void;
	/** Write deadlines, held-memory budget and heavy-query slots (defaults in resources/limits.ts). */
	limits?: ResourceLimitOptions;
	/** Answer requests whatever their Host header (default: loopback names only, against DNS rebinding). */
	allowRemote?: boolean;
	/** Host header names answered besides loopback ones and `host`, e.g. a reverse proxy's (code-server's). */
	allowedHosts?: readonly string[];
	/** Let callbacks reach link-local and cloud metadata addresses (default: refused). */
	callbackAllowLinkLocal?: boolean;
	/**
	 * Keep answers of reads until the sandbox's state changes (pipeline/answerCache.ts); default true.
	 * Answers are the same either way; false makes every request run in full (benchmarks, debugging).
	 */
	answerCache?: boolean;
	/** Failure scenarios active from the start (scenarios/format.ts; the CLI's --scenario). */
	scenarios?: readonly Scenario[];
	/**
	 * Commit the writes read in the same turn of the event loop together (pipeline/groupCommit.ts);
	 * default true. Answers are the same either way; false commits each write alone (benchmarks).
	 */
	groupCommit?: boolean;
	/**
	 * The journal of exchanges (journal/), served at `/__admin/requests`: on by default (the last 500
	 * exchanges, 16 MiB); false turns it off.
	 */
	journal?: false | JournalOptions;
	/** The inspecting proxy to a live service, started with the sandbox (proxy/proxy.ts; the CLI's --proxy-to). */
	proxy?: ProxyOptions;
	/** Recordings served from the start (replay/replayer.ts; the CLI's --replay). */
	replay?: { recordings: LoadedRecording[]; mode: ReplayMode };
}

/** Turning failure scenarios on and off on a running emulator. */
export interface ScenarioControl {
	/** Turns a scenario on (again, with fresh counters if it was on). */
	activate(scenario: Scenario): void;
	/** Turns one scenario off, or all without a name; false when it was not on. */
	deactivate(name?: string): boolean;
	list(): ActiveScenarioInfo[];
}

/** Where a running sandbox answers and how to log in: what it tells its callers (CLI, worker, extension). */
export interface SandboxInfo {
	/** http://host:port */
	baseUrl: string;
	postingUrl: string;
	adminUrl: string;
	postingWsdl: string;
	adminWsdl: string;
	namespace: string;
	/** Credentials of the demo account (empty strings when handlers were injected). */
	demo: DemoCredentials;
}

/** The SandboxInfo of a running sandbox alone, as plain data (to print or post to another thread). */
export function sandboxInfo(emulator: SandboxInfo): SandboxInfo {
	const { baseUrl, postingUrl, adminUrl, postingWsdl, adminWsdl, namespace, demo } = emulator;
	return { baseUrl, postingUrl, adminUrl, postingWsdl, adminWsdl, namespace, demo };
}

export interface RunningEmulator extends SandboxInfo {
	server: Server;
	/** The clock of deliveries and live applications. */
	clock: EmulatorClock;
	/** Moves a manual clock forward, delivering what falls due and making live applications on the way. */
	advance(ms: number): void;
	/** Delivers every posting due now (normally done on each clock tick). Returns how many. */
	deliverDue(): number;
	/** Makes one new application now (for this advert or a random live one), as live mode does; callbacks follow. */
	simulateApplication(advertId?: number): ArrivedApplication | undefined;
	/** Resolves when every callback sent so far has been delivered or given up. */
	callbacksIdle(): Promise<void>;
	/** Returns the sandbox to its freshly seeded state (signs out web sessions). */
	reset(): Promise<void>;
	/** What the resource limits have seen (heavy queries, held answer bytes, slow readers closed). */
	resources(): ResourceStats;
	/** Answers of reads kept and served again (undefined when the answer cache is off). */
	answerCacheStats(): AnswerCacheStats | undefined;
	/** Failure scenarios (docs/scenarios.md). */
	scenarios: ScenarioControl;
	/** Batches and writes committed in groups (undefined without the sandbox, or with groupCommit false). */
	groupCommitStats(): GroupCommitStats | undefined;
	/** The control endpoint (`/__admin/*`, loopback clients only): more routes may be registered into it. */
	control: ControlRouter;
	/** The journal of exchanges (undefined when turned off). */
	journal: Journal | undefined;
	/** Production's verdict on a journaled exchange (computed once, when first asked). */
	verdictOf(entry: JournalEntry): Promise<Verdict>;
	/** The inspecting proxy to a live service (docs/live-service.md). */
	proxy: ProxyControl;
	/** Recordings served instead of the sandbox. */
	replay: ReplayControl;
	/** Requests held before they are sent on (the proxy's and the sandbox's). */
	breakpoints: Breakpoints;
	/** How the exchanges of one service are read: the sandbox's (undefined) or a proxied upstream's. */
	serviceContext(upstream: string | undefined): VerdictContext | undefined;
	/** Stops listening, closes every connection (keep-alive included), stops timers and callbacks and closes the sandbox. */
	stop(): Promise<void>;
}

/** The host to write into URLs; a wildcard address is reached through loopback. */
function urlHost(address: string): string {
	if (address === '0.0.0.0') return '127.0.0.1';
	if (address === '::') return '[::1]';
	return address.includes(':') ? `[${address}]` : address;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
	return new Promise((resolve, reject) => {
		const onError = (error: Error): void => reject(error);
		server.once('error', onError);
		server.listen(port, host, () => {
			server.off('error', onError);
			resolve(server.address() as AddressInfo);
		});
	});
}

/** Answers malformed HTTP (bad request line, oversized head) without involving the pipeline. */
function onClientError(error: Error & { code?: string }, socket: Socket): void {
	if (socket.writable && !socket.writableEnded) {
		const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
		socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
	}
	socket.destroy();
}

/** 403 for a request addressed to a name that is not loopback (DNS rebinding), logged like any other. */
function refuseForeignHost(
	req: IncomingMessage,
	res: ServerResponse,
	logger: ((entry: AccessLogEntry) => void) | undefined,
): void {
	const startedAt = Date.now();
	res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
	res.end(foreignHostMessage(req.headers.host ?? ''));
	try {
		logger?.({
			time: new Date(startedAt),
			method: req.method ?? '-',
			path: logPath(splitTarget(req.url ?? '/').path),
			status: 403,
			durationMs: Date.now() - startedAt,
		});
	} catch {
		// A failing logger must not take the server down.
	}
}

/** A path for the log: the web pages' one-time tokens are cut off. */
function logPath(path: string): string {
	return /^\/(login|complete-posting)\//i.test(path) ? redactWebPath(path) : path;
}

/** Answers connections that arrive while the sandbox is still opening (seeding) its database. */
function notReady(_req: IncomingMessage, res: ServerResponse): void {
	res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '2', connection: 'close' });
	res.end('The sandbox is starting; try again in a moment.');
}

/**
 * Starts the emulator and resolves once it is listening and its sandbox is open. The port is taken
 * first, so a port conflict is reported at once, not after seeding.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
	const host = options.host ?? '127.0.0.1';
	const port = options.port ?? 0;
	const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
	const paths: Record<Endpoint, string> = {
		posting: options.postingPath ?? DEFAULT_ENDPOINT_PATHS.posting,
		administration: DEFAULT_ENDPOINT_PATHS.administration,
	};

	let listener: (req: IncomingMessage, res: ServerResponse) => void = notReady;
	const allowedHost = hostHeaderCheck({
		allowRemote: options.allowRemote,
		allowedHosts: [host, ...(options.allowedHosts ?? [])],
	});
	const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
		if (allowedHost(req.headers.host)) return listener(req, res);
		refuseForeignHost(req, res, options.logger);
	});
	// Node's own limits sit just above the pipeline's budget, which answers with a proper fault first.
	server.headersTimeout = requestTimeoutMs;
	server.requestTimeout = requestTimeoutMs + 5_000;
	server.keepAliveTimeout = 5_000;
	server.on('clientError', onClientError);
	let address: AddressInfo;
	try {
		address = await listen(server, port, host);
	} catch (error) {
		throw await explainListenError(error, host, port);
	}
	const baseUrl = `http://${urlHost(address.address)}:${address.port}`;
	const closeServer = (): Promise<void> =>
		new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});

	let sandbox: Sandbox | undefined;
	// The scenario engine is made after the sandbox; the handlers ask it only once requests arrive.
	const made: { scenarios?: ScenarioEngine } = {};
	const quotaStates = { quotaState: (feedId: number) => made.scenarios?.quotaState(feedId) };
	try {
		sandbox = options.handlers
			? undefined
			: openSandbox({
					dataDir: options.dataDir ?? ':memory:',
					seed: options.seed,
					reset: options.reset,
					maxPageSize: options.maxPageSize,
					demoSize: resolveSize(options.size),
					passwordCost: options.passwordCost,
					owner: options.owner,
					quotaStates,
				});
	} catch (error) {
		await closeServer();
		throw error;
	}
	const handlers = options.handlers ?? sandbox!.handlers;
	const demo: DemoCredentials = sandbox?.demo ?? { apiKey: '', username: '', password: '' };
	const emit = (event: EmulatorEvent): void => {
		try {
			options.onEvent?.(event);
		} catch {
			// A failing log must not stop the sandbox.
		}
	};
	for (const message of sandbox?.notices ?? []) emit({ kind: 'storage', message });
	const clock = createClock({
		mode: options.clock ?? 'real',
		speed: options.clockSpeed,
		onError: (error) => emit({ kind: 'error', message: 'background work failed', error }),
	});
	const notifier = new CallbackNotifier({
		allowLinkLocal: options.callbackAllowLinkLocal,
		timeoutMs: options.callbackTimeoutMs,
		retryDelaysMs: options.callbackRetryDelaysMs,
		onEvent: emit,
	});
	// Bursts need the live arrivals, made below; the engine only asks for them once a scenario is turned on.
	let burst: (count: number, advertId: number | undefined) => void = () => undefined;
	const scenarios = new ScenarioEngine({
		onBurst: (count, advertId) => burst(count, advertId),
		onChange: (active) => emit({ kind: 'scenarios', active }),
	});
	made.scenarios = scenarios;
	const background = sandbox ? startBackground(sandbox, clock, notifier, options, emit, scenarios) : undefined;
	burst = (count, advertId) => {
		for (let i = 0; i < count; i++) background?.live.arrive(advertId);
	};
	for (const scenario of options.scenarios ?? []) scenarios.activate(scenario);
	const close = (): void => {
		background?.scheduler.stop();
		background?.live.stop();
		clock.stop();
		notifier.stop();
		sandbox?.close();
	};

	const namespace = resolveNamespace(options.namespace, baseUrl);
	const journal =
		options.journal === false ? undefined : new Journal({ knownSecrets: demo, ...(options.journal ?? {}) });
	const limits = new ResourceLimits(options.limits);
	const answerCache = sandbox && options.answerCache !== false ? new AnswerCache() : undefined;
	const store = sandbox?.store;
	const groupCommit =
		store && options.groupCommit !== false ? new GroupCommit((units) => store.groupCommit(units)) : undefined;
	const config: PipelineConfig = {
		limits,
		handlers,
		namespace,
		baseUrl,
		paths,
		maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
		requestTimeoutMs,
		logger: options.logger,
		wsdl: {
			posting: generateWsdl('posting', { namespace, location: baseUrl + paths.posting }),
			administration: generateWsdl('administration', { namespace, location: baseUrl + paths.administration }),
		},
		loose: options.loose ?? false,
		maxPageSize: options.maxPageSize,
		scenarios,
		groupCommit,
		answers: answerCache && {
			cache: answerCache,
			changeCount: () => sandbox!.store.changeCount,
		},
		journal,
	};
	let validator: Promise<XsdValidatorPort> | undefined;
	const verdicts: VerdictContext = {
		namespace,
		paths,
		wsdl: config.wsdl,
		maxPageSize: options.maxPageSize,
		validator: () => (validator ??= loadLibxml2Validator()),
	};
	const replayHolder: { current: Replayer | undefined } = { current: undefined };
	config.replay = replayHolder;
	const breakpoints = new Breakpoints();
	/** The contexts of every service journaled in this run: an upstream's stays readable after its proxy stops. */
	const contexts = new Map<string | undefined, VerdictContext>([[undefined, verdicts]]);
	const serviceContext = (upstream: string | undefined) => contexts.get(upstream);
	const pipeline = createRequestListener(config);
	const web = background ? createWebRouter(background.web) : undefined;
	const control = new ControlRouter();
	const contextOf = (entry: JournalEntry): VerdictContext => serviceContext(entry.upstream) ?? verdicts;
	if (journal) registerJournalRoutes(control, journal, contextOf);
	registerScenarioRoutes(control, scenarios);
	let proxy: RunningProxy | undefined;
	let proxyChange = Promise.resolve();
	const proxyControl: ProxyControl = {
		current: () => proxy?.info(),
		start: (proxyOptions) => {
			const started = proxyChange.then(async () => {
				await proxy?.stop();
				proxy = undefined;
				proxy = await startProxy(proxyOptions, {
					journal,
					control,
					breakpoints,
					logger: options.logger,
					knownSecrets: demo,
				});
				contexts.set(proxy.upstream, proxy.verdicts);
				emit({ kind: 'proxy', info: proxy.info() });
				return proxy.info();
			});
			proxyChange = started.then(
				() => undefined,
				() => undefined,
			);
			return started;
		},
		stop: async () => {
			await proxyChange;
			const running = proxy;
			proxy = undefined;
			await running?.stop();
			if (running) emit({ kind: 'proxy', info: undefined });
			return running !== undefined;
		},
	};
	const replayControl: ReplayControl = {
		info: () =>
			replayHolder.current && { ...replayHolder.current.info(), notes: replayNotes(replayHolder.current) },
		load: (recordings, mode) => {
			replayHolder.current = new Replayer(recordings, mode);
			const notes = replayNotes(replayHolder.current);
			emit({ kind: 'replay', info: replayHolder.current.info(), notes });
			return { ...replayHolder.current.info(), notes };
		},
		clear: () => {
			const was = replayHolder.current !== undefined;
			replayHolder.current = undefined;
			if (was) emit({ kind: 'replay', info: undefined, notes: [] });
			return was;
		},
	};
	const replayNotes = (replayer: Replayer): string[] =>
		replayer.mode === 'fallThrough'
			? replayer
					.info()
					.recordings.filter((recording) => recording.namespace !== namespace)
					.map(
						(recording) =>
							`${recording.name} was recorded in the namespace ${recording.namespace}: requests it does not hold go on to the sandbox, whose namespace is ${namespace}, and the sandbox refuses them (start it with --namespace ${recording.namespace}).`,
					)
			: [];
	if (options.replay) replayControl.load(options.replay.recordings, options.replay.mode);
	registerProxyRoutes(control, proxyControl);
	registerReplayRoutes(control, replayControl);
	registerBreakpointRoutes(control, breakpoints);
	if (journal) registerRecordingRoutes(control, journal, serviceContext);
	const logBeside = (req: IncomingMessage, res: ServerResponse, path: string): void => {
		const startedAt = Date.now();
		res.once('finish', () => {
			const entry: AccessLogEntry = {
				time: new Date(startedAt),
				method: req.method ?? '-',
				path,
				status: res.statusCode,
				durationMs: Date.now() - startedAt,
			};
			// A web page a scenario answered (an expired login link).
			const injected = res.getHeader(SANDBOX_INJECTED);
			if (typeof injected === 'string') entry.injected = injected;
			options.logger?.(entry);
		});
	};
	listener = (req, res) => {
		const { path } = splitTarget(req.url ?? '/');
		if (control.matches(path)) {
			logBeside(req, res, path);
			control
				.handle(req, res)
				.catch((error: unknown) => emit({ kind: 'error', message: `control ${path} failed`, error }));
			return;
		}
		if (!web?.matches(path)) return pipeline(req, res);
		logBeside(req, res, redactWebPath(path));
		web.handle(req, res).catch((error: unknown) =>
			emit({ kind: 'error', message: `web page ${redactWebPath(path)} failed`, error }),
		);
	};

	if (options.proxy) {
		try {
			await proxyControl.start(options.proxy);
		} catch (error) {
			await closeServer();
			close();
			throw error;
		}
	}

	let stopping: Promise<void> | undefined;
	const stop = (): Promise<void> => {
		stopping ??= Promise.all([closeServer(), proxyControl.stop()]).then(() => {
			breakpoints.clear();
			close();
		});
		return stopping;
	};

	return {
		baseUrl,
		postingUrl: baseUrl + paths.posting,
		adminUrl: baseUrl + paths.administration,
		postingWsdl: `${baseUrl}${paths.posting}?WSDL`,
		adminWsdl: `${baseUrl}${paths.administration}?WSDL`,
		namespace,
		demo,
		server,
		clock,
		advance: (ms) => clock.advance(ms),
		deliverDue: () => background?.scheduler.deliverDue() ?? 0,
		simulateApplication: (advertId) => background?.live.arrive(advertId),
		callbacksIdle: () => notifier.idle(),
		resources: () => limits.stats(),
		answerCacheStats: () => answerCache?.stats(),
		scenarios: {
			activate: (scenario) => scenarios.activate(scenario),
			deactivate: (name) => scenarios.deactivate(name),
			list: () => scenarios.list(),
		},
		groupCommitStats: () => groupCommit?.stats(),
		control,
		journal,
		verdictOf: (entry) => cachedVerdictOf(entry, contextOf(entry)),
		proxy: proxyControl,
		replay: replayControl,
		breakpoints,
		serviceContext,
		reset: async () => {
			if (!sandbox || !background) {
				throw new Error('reset() needs the sandbox; this emulator runs with injected handlers.');
			}
			sandbox.reseed();
			answerCache?.clear();
			web?.clearSessions();
		},
		stop,
	};
}

/** The namespace requests must use: fixed by default, or the spec's rule on request. */
export function resolveNamespace(option: string | undefined, baseUrl: string): string {
	if (option === undefined || option === '') return SANDBOX_NAMESPACE;
	return option === NAMESPACE_FROM_BASE_URL ? defaultNamespace(baseUrl) : option;
}

/** The web paths carry one-time tokens: the log shows only their first segment. */
function redactWebPath(path: string): string {
	const [, section, rest] = path.split('/');
	return section === 'web' ? path : `/${section}/${rest ? '…' : ''}`;
}

/** Delivery scheduler, live applications and the web pages' context over one sandbox. */
function startBackground(
	sandbox: Sandbox,
	clock: EmulatorClock,
	notifier: CallbackNotifier,
	options: EmulatorOptions,
	emit: (event: EmulatorEvent) => void,
	scenarios: ScenarioEngine,
) {
	const scheduler = new DeliveryScheduler(sandbox.store, clock, {
		boards: scenarios,
		deliveryDelayMs: options.deliveryDelayMs,
		flakyFeedIds: options.flakyFeedIds,
		seed: options.seed,
		onDelivery: (event) => emit({ kind: 'delivery', ...event }),
	});
	const live = new LiveApplications(sandbox.store, clock, {
		ratePerMinute: options.liveRatePerMinute,
		seed: options.seed,
		onApplication: (application) => {
			const { callbackUrl, ...event } = application;
			emit({ kind: 'application', ...event });
			if (callbackUrl) {
				notifier.notify(
					callbackUrl,
					applicationCreatedPayload({
						advertId: application.advertId,
						advertCandidateId: application.advertCandidateId,
						advertIdentifier: application.advertIdentifier,
						appliedAt: application.appliedAt,
						feedId: application.feedId,
					}),
				);
			}
		},
	});
	scheduler.start();
	if (options.live) live.start();
	const web = {
		store: sandbox.store,
		clock,
		scheduler,
		secret: randomBytes(32),
		wallNow: () => new Date(),
		loginLinkExpired: () => scenarios.loginLinkExpired(),
		quotaStates: scenarios,
	};
	return { scheduler, live, web };
}
