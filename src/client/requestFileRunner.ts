/**
 * Runs the requests of a request file in order: prepares each one (captured values and connection
 * values filled in), sends it as written, decodes the response, checks its expectations and keeps
 * its captures for the requests after it. Used by the editor's Send and Test Explorer and by the
 * multiposting-test command. Everything it returns is redacted.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { getBinding } from '../protocol/bindings';
import type { BindingName } from '../protocol/bindings/types';
import type { Endpoint, OperationName } from '../protocol/catalogue';
import {
	diffValues,
	normaliseResult,
	withoutVaryingValues,
	type Difference,
	type Normalised,
} from '../protocol/compare';
import {
	evaluateExpectation,
	observedFault,
	readCapture,
	type ExpectationOutcome,
	type ObservedExchange,
	type SchemaVerdict,
} from '../protocol/requestFiles/evaluate';
import { dataChangingOperation } from '../protocol/requestFiles/changesData';
import { entryLabel, type ParsedEntry } from '../protocol/requestFiles/format';
import type { RequestFileIssue } from '../protocol/requestFiles/issues';
import {
	checksSchema,
	codecContextOf,
	prepareEntry,
	variablesOfEntry,
	type PreparedHttpRequest,
	type RequestTarget,
} from '../protocol/requestFiles/prepare';
import { substituteVariables, type CapturedValues, type ConnectionValues } from '../protocol/requestFiles/placeholders';
import { variableIssues } from '../protocol/requestFiles/variables';
import { createRedactor } from './exchange';
import { controlEndpointScenarios, type ScenarioSwitch } from './scenarioSwitch';
import { controlEndpointReplay, type ReplaySwitch } from './replaySwitch';
import { sendPrepared, type Captured } from './sendPrepared';

/** Checks a response body against the schema of its endpoint's WSDL. */
export type SchemaValidator = (input: {
	endpoint: Endpoint;
	operation: OperationName;
	binding: BindingName;
	body: string;
	signal?: AbortSignal;
}) => Promise<SchemaVerdict>;

/** How a request file is run. */
export interface RunOptions {
	target: RequestTarget;
	/** Values of the `{{connection.*}}` placeholders, secrets included. */
	connection: ConnectionValues;
	/** Values of `{{name}}` variables before the first request (an environment's); captures replace them. */
	variables?: CapturedValues;
	/** Further secrets to hide in what is returned (the API key and password always are). */
	secrets?: readonly string[];
	/** Time budget of one request (default 30000 ms). */
	timeoutMs?: number;
	/** Largest response body read; a longer one is cut off there and the request errs (default 32 MiB). */
	maxResponseBytes?: number;
	signal?: AbortSignal;
	dispatcher?: Dispatcher;
	/** Checks `valid against wsdl`; without it those expectations fail as "not checked". */
	validateSchema?: SchemaValidator;
	/** Stop at the first request that fails or errs: nothing after it is run or reported. */
	bail?: boolean;
	/** Turns `scenario:` lines on and off (default: the control endpoint of the target's sandbox). */
	scenarios?: ScenarioSwitch;
	/** Turns `replay:` lines on and off (default: the control endpoint of the target's sandbox). */
	replays?: ReplaySwitch;
	/**
	 * A second connection (e.g. the sandbox beside a real service): each operation request is sent
	 * there too, with the values captured from that connection's own answers, and the decoded
	 * outcomes compared, identifiers, links and dates ignored. `scenario:` lines apply to `target` only.
	 */
	compareWith?: CompareWith;
	/** The request file's folder: `scenario: x.json` is read relative to it. */
	folder?: string;
	/** Told when a request starts and ends, for progress. */
	onProgress?: (event: { kind: 'started'; index: number } | { kind: 'finished'; result: RequestRunResult }) => void;
}

/** The second connection of a comparison. */
export interface CompareWith {
	target: RequestTarget;
	connection: ConnectionValues;
	/**
	 * Also send the requests that change data (AddAdvert, ApplicationScore…: dataChangingOperation).
	 * Off by default: the second connection may be a live account, where they post real adverts.
	 */
	writes?: boolean;
	/** Checks `valid against wsdl` on this connection's answers. */
	validateSchema?: SchemaValidator;
}

/** How the second connection's outcome of one request differs from the first's. */
export interface RequestComparison {
	/** Empty: the same, what must differ aside. */
	differences: Difference[];
	/** Why the outcomes could not be compared (the second request could not be prepared or decoded). */
	problem?: string;
	/** Why the request was not sent to the second connection (it changes data, or needs what such a request captures). */
	notSent?: string;
	/** The second connection's exchange (redacted). */
	exchange?: ExchangeRecord;
}

/** The exchange of one request, redacted, as text. */
export interface ExchangeRecord {
	request: { method: string; url: string; headers: [string, string][]; body: string };
	response?: { status: number; headers: [string, string][]; body: string };
	timeMs: number;
	error?: string;
}

/** What happened to one request. */
export interface RequestRunResult {
	/** Index of the entry in the file. */
	index: number;
	label: string;
	/** passed: every expectation and capture held; failed: one did not; errored: nothing usable came back; skipped: not sent. */
	status: 'passed' | 'failed' | 'errored' | 'skipped';
	/** True when the request ran only because a selected request needs its captures. */
	setup: boolean;
	/** For a request with `retry:`, how many times it was sent (the result is the last one's). */
	tries?: number;
	outcomes: ExpectationOutcome[];
	/** Values captured (redacted). */
	captured: Record<string, string>;
	/** Why the request did not pass, besides failed expectations. */
	problems: string[];
	exchange?: ExchangeRecord;
	/** The decoded result or fault, when the request was decoded. */
	decoded?: ObservedExchange['decoded'];
	decodeError?: string;
	/** With compareWith, for an operation request: how the second connection's outcome differs. */
	comparison?: RequestComparison;
}

/**
 * The entries to run for a selection: the selected ones plus, before them, every earlier entry
 * that captures a variable they need (transitively). Sorted in file order.
 */
export function entriesToRun(entries: readonly ParsedEntry[], selected?: readonly number[]): number[] {
	if (!selected) return entries.map((_, index) => index);
	const needed = new Set<number>();
	const visit = (index: number): void => {
		if (needed.has(index)) return;
		needed.add(index);
		for (const name of variablesOfEntry(entries[index])) {
			for (let earlier = index - 1; earlier >= 0; earlier -= 1) {
				if (entries[earlier].captures.some((capture) => capture.name === name)) {
					visit(earlier);
					break;
				}
			}
		}
	};
	for (const index of selected) if (index >= 0 && index < entries.length) visit(index);
	return [...needed].sort((a, b) => a - b);
}

/** Runs the entries (all, or the selected ones and what they need) one after the other. */
export async function runRequestEntries(
	entries: readonly ParsedEntry[],
	options: RunOptions,
	selected?: readonly number[],
): Promise<RequestRunResult[]> {
	const secrets = [
		...new Set([
			...(options.secrets ?? []),
			options.connection.apiKey ?? '',
			options.connection.password ?? '',
			options.compareWith?.connection.apiKey ?? '',
			options.compareWith?.connection.password ?? '',
		]),
	].filter((secret) => secret.length > 0);
	const redactor = createRedactor(secrets);
	const chosen = new Set(selected ?? entries.map((_, index) => index));
	const variables: Record<string, string> = { ...options.variables };
	// The second connection numbers its records its own way: its requests use what it answered.
	const second: SecondConnection = { variables: { ...options.variables }, unsent: new Map() };
	const fileIssues = variableIssues(entries, Object.keys(variables));
	const results: RequestRunResult[] = [];
	const scenarios = new FileScenarios(
		entries,
		options.scenarios ?? controlEndpointScenarios(options.target.baseUrl, options.folder, options.dispatcher),
		options.signal,
	);
	const replays = new FileReplay(
		entries,
		options.replays ?? controlEndpointReplay(options.target.baseUrl, options.folder, options.dispatcher),
		options.signal,
	);
	try {
		await runEntries();
	} finally {
		for (const problem of [await scenarios.allOff(), await replays.off()]) {
			if (problem && results.length > 0) results[results.length - 1].problems.push(problem);
		}
	}
	return results;

	async function runEntries(): Promise<void> {
		for (const index of entriesToRun(entries, selected)) {
			if (options.bail && results.some((done) => done.status === 'failed' || done.status === 'errored')) break;
			const entry = entries[index];
			const result: RequestRunResult = {
				index,
				label: entryLabel(entry, index),
				status: 'skipped',
				setup: !chosen.has(index),
				outcomes: [],
				captured: {},
				problems: [],
			};
			results.push(result);
			if (options.signal?.aborted) {
				result.problems.push('Cancelled.');
				options.onProgress?.({ kind: 'finished', result });
				continue;
			}
			options.onProgress?.({ kind: 'started', index });
			const problem = (await scenarios.before(index)) ?? (await replays.before(index));
			if (problem) {
				result.status = 'errored';
				result.problems.push(problem);
				options.onProgress?.({ kind: 'finished', result });
				continue;
			}
			const issues = [
				...entry.issues,
				...fileIssues.filter((found) => found.entry === index).map(({ issue }) => issue),
			];
			await runOne(entry, issues, result, options, { variables, second }, entries, redactor);
			options.onProgress?.({ kind: 'finished', result });
		}
	}
}

async function runOne(
	entry: ParsedEntry,
	issues: readonly RequestFileIssue[],
	result: RequestRunResult,
	options: RunOptions,
	{ variables, second }: { variables: Record<string, string>; second: SecondConnection },
	entries: readonly ParsedEntry[],
	redactor: ReturnType<typeof createRedactor>,
): Promise<void> {
	const errors = issues
		.filter((issue) => (issue.severity ?? 'error') === 'error')
		.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
	if (errors.length > 0) {
		result.status = 'errored';
		result.problems.push(...errors.map((issue) => `line ${issue.line}: ${issue.message}`));
		return;
	}
	const missing = variablesOfEntry(entry).filter((name) => !Object.prototype.hasOwnProperty.call(variables, name));
	if (missing.length > 0) {
		result.problems.push(
			...missing.map((name) => {
				const source = [...entries.keys()]
					.filter((earlier) => earlier < result.index)
					.reverse()
					.find((earlier) => entries[earlier].captures.some((capture) => capture.name === name));
				return source === undefined
					? `{{${name}}} has no value: no earlier request captures it.`
					: `{{${name}}} has no value: "${entryLabel(entries[source], source)}" did not capture it.`;
			}),
		);
		return;
	}
	const prepared = prepareEntry(entry, options.target, options.connection, variables);
	if (!prepared.request) {
		result.status = 'errored';
		result.problems.push(...prepared.problems.map((problem) => redactor.text(problem)));
		return;
	}
	const { attempt, sent } = await sendWithRetries(entry, prepared.request, options, variables, redactor);
	if (entry.retry) result.tries = sent;
	const { captured, ...rest } = attempt;
	Object.assign(result, rest);
	if (options.compareWith) {
		result.comparison = await compareElsewhere(entry, attempt, options, options.compareWith, second, redactor);
	}
	for (const [name, value] of Object.entries(captured)) {
		variables[name] = value;
		result.captured[name] = value;
	}
}

/** retry: sent again, the same request, until its expectations hold; the last try is the result. */
async function sendWithRetries(
	entry: ParsedEntry,
	request: PreparedHttpRequest,
	options: RunOptions,
	variables: Readonly<Record<string, string>>,
	redactor: ReturnType<typeof createRedactor>,
): Promise<{ attempt: Attempt; sent: number }> {
	const tries = entry.retry?.tries ?? 1;
	for (let sent = 1; ; sent += 1) {
		const attempt = await sendOnce(entry, request, options, variables, redactor);
		if (attempt.status === 'passed' || sent >= tries || options.signal?.aborted) return { attempt, sent };
		await delay(entry.retry?.intervalMs ?? 0, undefined, { signal: options.signal }).catch(() => undefined);
		if (options.signal?.aborted) return { attempt, sent };
	}
}

/** What one send of a request found. */
type Attempt = Pick<RequestRunResult, 'outcomes' | 'captured' | 'problems' | 'exchange' | 'decoded' | 'decodeError'> & {
	status: 'passed' | 'failed' | 'errored';
};

/** Sends the request once, checks its expectations and reads its captures (kept by the caller). */
async function sendOnce(
	entry: ParsedEntry,
	request: PreparedHttpRequest,
	options: RunOptions,
	variables: Readonly<Record<string, string>>,
	redactor: ReturnType<typeof createRedactor>,
): Promise<Attempt> {
	const captured = await sendPrepared(request, {
		signal: options.signal,
		timeoutMs: options.timeoutMs ?? 30_000,
		dispatcher: options.dispatcher,
		maxBodyBytes: options.maxResponseBytes,
	});
	const observed = observe(entry, captured, options, redactor);
	const attempt: Attempt = {
		status: 'passed',
		outcomes: [],
		captured: {},
		problems: [],
		exchange: exchangeRecord(captured, redactor),
	};
	if (observed.decoded) attempt.decoded = observed.decoded;
	if (observed.decodeError !== undefined) attempt.decodeError = observed.decodeError;
	if (captured.response && entry.document && checksSchema(entry.expectations)) {
		observed.schema = options.validateSchema
			? await options
					.validateSchema({
						endpoint: entry.document.endpoint,
						operation: entry.document.operation,
						binding: entry.document.binding,
						body: observed.bodyText,
						signal: options.signal,
					})
					.catch((error: unknown) => ({
						unavailable: error instanceof Error ? error.message : String(error),
					}))
			: { unavailable: 'no schema validator is available here.' };
	}
	const namespaces = Object.fromEntries(
		Object.entries(entry.namespaces).map(([prefix, uri]) => [prefix, substituteVariables(uri, variables).text]),
	);
	const context = { variables, namespaces };
	attempt.outcomes = entry.expectations.map((expectation, at) => ({
		...evaluateExpectation(expectation, observed, context),
		line: entry.location.expectationLines[at],
	}));
	for (const capture of entry.captures) {
		const read = readCapture(capture, observed, namespaces, variables);
		if ('value' in read) attempt.captured[capture.name] = read.value;
		else attempt.problems.push(read.problem);
	}
	// A response cut off (size cap, deadline) or broken part-way, or one an operation request cannot
	// read as its result or a fault, proves nothing whatever the expectations say.
	if (!captured.response || captured.error !== undefined) {
		attempt.status = 'errored';
		attempt.problems.unshift(redactor.text(captured.error ?? 'No response.'));
	} else if (observed.decodeError !== undefined) {
		attempt.status = 'errored';
		attempt.problems.unshift(
			`The response is neither a result of ${entry.document?.operation} nor a fault: ${observed.decodeError} (to check such a response, send it as plain HTTP: a raw part without operation).`,
		);
	} else if (attempt.outcomes.some((outcome) => !outcome.passed) || attempt.problems.length > 0) {
		attempt.status = 'failed';
	}
	return attempt;
}

/**
 * The scenarios a file's `scenario:` lines turn on: before a request, those of the lines above it
 * (in the whole file, so a selected request meets them too) are on and no others; all off at the end.
 */
class FileScenarios {
	/** Spec -> name of what this run turned on. */
	private readonly on = new Map<string, string>();

	constructor(
		private readonly entries: readonly ParsedEntry[],
		private readonly switcher: ScenarioSwitch,
		private readonly signal: AbortSignal | undefined,
	) {}

	/** Brings the scenarios to what the request at `index` expects; a problem when that fails. */
	async before(index: number): Promise<string | undefined> {
		const wanted: string[] = [];
		for (const entry of this.entries.slice(0, index + 1)) {
			if (entry.scenario === 'off') wanted.length = 0;
			else if (entry.scenario !== undefined && !wanted.includes(entry.scenario)) wanted.push(entry.scenario);
		}
		try {
			for (const [spec, name] of [...this.on]) {
				if (wanted.includes(spec)) continue;
				await this.switcher.off(name, this.signal);
				this.on.delete(spec);
			}
			for (const spec of wanted) {
				if (!this.on.has(spec)) this.on.set(spec, await this.switcher.on(spec, this.signal));
			}
		} catch (error) {
			return `scenario: ${error instanceof Error ? error.message : String(error)}`;
		}
		return undefined;
	}

	/** Turns off what the run turned on; a problem when the sandbox could not be told. */
	async allOff(): Promise<string | undefined> {
		const problems: string[] = [];
		for (const [spec, name] of [...this.on]) {
			this.on.delete(spec);
			try {
				await this.switcher.off(name);
			} catch (error) {
				problems.push(
					`scenario ${name} could not be turned off: ${error instanceof Error ? error.message : String(error)}`,
				);
			}
		}
		return problems.length > 0 ? problems.join(' ') : undefined;
	}
}

/**
 * The recording a file's `replay:` lines have the sandbox answer from: before a request, the one of
 * the last such line above it (in the whole file), none after `replay: off`; off at the end.
 */
class FileReplay {
	private current: string | undefined;

	constructor(
		private readonly entries: readonly ParsedEntry[],
		private readonly switcher: ReplaySwitch,
		private readonly signal: AbortSignal | undefined,
	) {}

	async before(index: number): Promise<string | undefined> {
		let wanted: string | undefined;
		for (const entry of this.entries.slice(0, index + 1)) {
			if (entry.replay !== undefined) wanted = entry.replay === 'off' ? undefined : entry.replay;
		}
		if (wanted === this.current) return undefined;
		try {
			if (wanted === undefined) await this.switcher.off(this.signal);
			else await this.switcher.on(wanted, this.signal);
			this.current = wanted;
		} catch (error) {
			return `replay: ${error instanceof Error ? error.message : String(error)}`;
		}
		return undefined;
	}

	async off(): Promise<string | undefined> {
		if (this.current === undefined) return undefined;
		this.current = undefined;
		try {
			await this.switcher.off();
		} catch (error) {
			return `replay could not be turned off: ${error instanceof Error ? error.message : String(error)}`;
		}
		return undefined;
	}
}

/** What the second connection of a comparison has: its own captured values, and those it will never have. */
interface SecondConnection {
	variables: Record<string, string>;
	/** Variables captured by a request not sent there (it changes data): the name, and that request. */
	unsent: Map<string, string>;
}

/**
 * What a request not sent to the second connection would have captured there is unknown, also where an
 * earlier request captured the same name: the requests after it that use it are not sent either.
 */
function unsend(entry: ParsedEntry, changing: string, second: SecondConnection): void {
	for (const capture of entry.captures) {
		second.unsent.set(capture.name, changing);
		delete second.variables[capture.name];
	}
}

/** Why a request is not sent to the second connection, or undefined when it is. */
function notSentReason(entry: ParsedEntry, other: CompareWith, second: SecondConnection): string | undefined {
	if (!other.writes) {
		const changing = dataChangingOperation(entry);
		if (changing) {
			unsend(entry, changing, second);
			return `${changing} changes data, and writes are not sent to the second connection unless asked (it may be a live account).`;
		}
	}
	const needed = variablesOfEntry(entry).find(
		(name) => second.unsent.has(name) && !Object.prototype.hasOwnProperty.call(second.variables, name),
	);
	if (needed === undefined) return undefined;
	unsend(entry, second.unsent.get(needed)!, second);
	return `it needs {{${needed}}}, which ${second.unsent.get(needed)} captures, and that request was not sent there.`;
}

/**
 * Sends the request to the second connection as to the first (its own captured values, retries,
 * expectations) and compares the decoded outcomes, what must differ ignored; or says why it is not
 * sent there (notSentReason). Its captures are kept in `second.variables` for the requests after it.
 */
async function compareElsewhere(
	entry: ParsedEntry,
	first: Attempt,
	options: RunOptions,
	other: CompareWith,
	second: SecondConnection,
	redactor: ReturnType<typeof createRedactor>,
): Promise<RequestComparison> {
	const notSent = notSentReason(entry, other, second);
	if (notSent !== undefined) return { differences: [], notSent };
	const prepared = prepareEntry(entry, other.target, other.connection, second.variables);
	if (!prepared.request) return { differences: [], problem: redactor.text(prepared.problems.join(' ')) };
	const otherOptions: RunOptions = {
		...options,
		target: other.target,
		connection: other.connection,
		validateSchema: other.validateSchema,
	};
	const { attempt } = await sendWithRetries(entry, prepared.request, otherOptions, second.variables, redactor);
	Object.assign(second.variables, attempt.captured);
	const comparison: RequestComparison = { differences: [], exchange: attempt.exchange };
	const [mine, theirs] = [comparableOutcome(entry, first), comparableOutcome(entry, attempt)];
	if (mine === undefined || theirs === undefined) {
		const which = theirs === undefined ? 'the second connection' : 'the first connection';
		const why = (theirs === undefined ? attempt : first).problems[0] ?? 'no decodable answer';
		return { ...comparison, problem: `${which} gave no answer to compare: ${why}` };
	}
	comparison.differences = diffValues(mine, theirs);
	return comparison;
}

/**
 * What is compared of an answer: an operation request's decoded result or fault, what must differ
 * masked; a plain HTTP request's status only (its page carries each service's own links and tokens).
 */
function comparableOutcome(entry: ParsedEntry, attempt: Attempt): Normalised | undefined {
	if (entry.document) return attempt.decoded ? withoutVaryingValues(normaliseResult(attempt.decoded)) : undefined;
	return attempt.exchange?.response ? { status: attempt.exchange.response.status } : undefined;
}

/** The exchange as the expectations see it: redacted, decoded when it is an operation request. */
function observe(
	entry: ParsedEntry,
	captured: Captured,
	options: RunOptions,
	redactor: ReturnType<typeof createRedactor>,
): ObservedExchange {
	const response = captured.response;
	const observed: ObservedExchange = {
		headers: response?.headers ?? [],
		bodyText: '',
		timeMs: captured.timings.totalMs,
		serviceNamespace: options.target.namespace,
	};
	if (captured.error !== undefined) observed.error = redactor.text(captured.error);
	if (!response) return observed;
	// The redacted bytes are decoded, so nothing read from the result can carry a secret.
	const body = redactor.bytes(response.body);
	observed.status = response.status;
	observed.headers = response.headers.map(([name, value]) => [name, redactor.text(value)]);
	observed.bodyText = Buffer.from(body).toString('utf8');
	const document = entry.document;
	if (document) {
		try {
			const decoded = getBinding(document.binding).decodeResponse(
				document.operation,
				{
					status: response.status,
					headers: Object.fromEntries(response.headers.map(([name, value]) => [name.toLowerCase(), value])),
					body,
				},
				codecContextOf(options.target, document.operation),
			);
			observed.decoded = decoded.ok
				? { result: normaliseResult(decoded.result) ?? null }
				: { fault: observedFault(decoded.fault, document.binding) };
		} catch (error) {
			observed.decodeError = redactor.text(error instanceof Error ? error.message : String(error));
		}
	}
	return observed;
}

function exchangeRecord(captured: Captured, redactor: ReturnType<typeof createRedactor>): ExchangeRecord {
	const text = (bytes: Uint8Array): string => Buffer.from(redactor.bytes(bytes)).toString('utf8');
	const record: ExchangeRecord = {
		request: {
			method: captured.request.method,
			url: redactor.text(captured.request.url),
			headers: captured.request.headers.map(([name, value]) => [name, redactor.text(value)]),
			body: text(captured.request.body),
		},
		timeMs: captured.timings.totalMs,
	};
	if (captured.response) {
		record.response = {
			status: captured.response.status,
			headers: captured.response.headers.map(([name, value]) => [name, redactor.text(value)]),
			body: text(captured.response.body),
		};
	}
	if (captured.error !== undefined) record.error = redactor.text(captured.error);
	return record;
}

/** An exchange as readable text (request line, headers, body; then the response), for reports. */
export function formatExchange(exchange: ExchangeRecord, maxBodyChars = 4000): string {
	const cut = (body: string): string =>
		body.length > maxBodyChars
			? `${body.slice(0, maxBodyChars)}\n… (${body.length - maxBodyChars} more characters)`
			: body;
	const lines = [`${exchange.request.method} ${exchange.request.url}`];
	for (const [name, value] of exchange.request.headers) lines.push(`${name}: ${value}`);
	if (exchange.request.body.length > 0) lines.push('', cut(exchange.request.body));
	lines.push('');
	if (exchange.response) {
		lines.push(`HTTP ${exchange.response.status} (${Math.round(exchange.timeMs)} ms)`);
		for (const [name, value] of exchange.response.headers) lines.push(`${name}: ${value}`);
		lines.push('', cut(exchange.response.body));
	} else {
		lines.push(`No response: ${exchange.error ?? 'unknown error'} (${Math.round(exchange.timeMs)} ms)`);
	}
	return lines.join('\n');
}
