/**
 * Runs the requests of a request file in order: prepares each one (captured values and connection
 * values filled in), sends it as written, decodes the response, checks its expectations and keeps
 * its captures for the requests after it. Used by the editor's Send and Test Explorer and by the
 * multiposting-test command. Everything it returns is redacted.
 */
import type { Dispatcher } from 'undici';
import { getBinding } from '../protocol/bindings';
import type { BindingName } from '../protocol/bindings/types';
import type { Endpoint, OperationName } from '../protocol/catalogue';
import { diffValues, normaliseResult, withoutVaryingValues, type Difference } from '../protocol/compare';
import {
	evaluateExpectation,
	readCapture,
	type ExpectationOutcome,
	type ObservedExchange,
	type SchemaVerdict,
} from '../protocol/requestFiles/evaluate';
import { entryLabel, type ParsedEntry } from '../protocol/requestFiles/format';
import {
	checksSchema,
	codecContextOf,
	prepareEntry,
	variablesOfEntry,
	type RequestTarget,
} from '../protocol/requestFiles/prepare';
import type { ConnectionValues } from '../protocol/requestFiles/placeholders';
import { createRedactor } from './exchange';
import { controlEndpointScenarios, type ScenarioSwitch } from './scenarioSwitch';
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
	variables?: Readonly<Record<string, string>>;
	/** Further secrets to hide in what is returned (the API key and password always are). */
	secrets?: readonly string[];
	/** Time budget of one request (default 30000 ms). */
	timeoutMs?: number;
	signal?: AbortSignal;
	dispatcher?: Dispatcher;
	/** Checks `valid against wsdl`; without it those expectations fail as "not checked". */
	validateSchema?: SchemaValidator;
	/** Turns `scenario:` lines on and off (default: the control endpoint of the target's sandbox). */
	scenarios?: ScenarioSwitch;
	/**
	 * A second connection (e.g. the sandbox beside a real service): each operation request is sent
	 * there too and its decoded outcome compared, identifiers and dates ignored.
	 */
	compareWith?: { target: RequestTarget; connection: ConnectionValues };
	/** The request file's folder: `scenario: x.json` is read relative to it. */
	folder?: string;
	/** Told when a request starts and ends, for progress. */
	onProgress?: (event: { kind: 'started'; index: number } | { kind: 'finished'; result: RequestRunResult }) => void;
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
	outcomes: ExpectationOutcome[];
	/** Values captured (redacted). */
	captured: Record<string, string>;
	/** Why the request did not pass, besides failed expectations. */
	problems: string[];
	exchange?: ExchangeRecord;
	/** The decoded result or fault, when the request was decoded. */
	decoded?: ObservedExchange['decoded'];
	decodeError?: string;
	/** With compareWith: how the second connection's outcome differs (empty: the same). */
	comparison?: { differences: Difference[]; problem?: string };
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
	const results: RequestRunResult[] = [];
	const scenarios = new FileScenarios(
		entries,
		options.scenarios ?? controlEndpointScenarios(options.target.baseUrl, options.folder, options.dispatcher),
		options.signal,
	);
	try {
		for (const index of entriesToRun(entries, selected)) {
			const result = await runEntry(index);
			if (result) results.push(result);
		}
	} finally {
		const problem = await scenarios.allOff();
		if (problem && results.length > 0) results[results.length - 1].problems.push(problem);
	}
	return results;

	async function runEntry(index: number): Promise<RequestRunResult | undefined> {
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
		if (options.signal?.aborted) {
			result.problems.push('Cancelled.');
			options.onProgress?.({ kind: 'finished', result });
			return result;
		}
		options.onProgress?.({ kind: 'started', index });
		const problem = await scenarios.before(index);
		if (problem) {
			result.status = 'errored';
			result.problems.push(problem);
		} else {
			await runOne(entry, result, options, variables, entries, redactor);
		}
		options.onProgress?.({ kind: 'finished', result });
		return result;
	}
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

async function runOne(
	entry: ParsedEntry,
	result: RequestRunResult,
	options: RunOptions,
	variables: Record<string, string>,
	entries: readonly ParsedEntry[],
	redactor: ReturnType<typeof createRedactor>,
): Promise<void> {
	const errors = entry.issues.filter((issue) => (issue.severity ?? 'error') === 'error');
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
	const captured = await sendPrepared(prepared.request, {
		signal: options.signal,
		timeoutMs: options.timeoutMs ?? 30_000,
		dispatcher: options.dispatcher,
	});
	const observed = observe(entry, captured, options, redactor);
	result.exchange = exchangeRecord(captured, redactor);
	if (observed.decoded) result.decoded = observed.decoded;
	if (observed.decodeError !== undefined) result.decodeError = observed.decodeError;
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
	if (options.compareWith && entry.document && observed.decoded) {
		result.comparison = await compareElsewhere(entry, observed.decoded, options, variables, redactor);
	}
	const context = { variables, namespaces: entry.namespaces };
	result.outcomes = entry.expectations.map((expectation) => evaluateExpectation(expectation, observed, context));
	for (const capture of entry.captures) {
		const read = readCapture(capture, observed, entry.namespaces);
		if ('value' in read) {
			variables[capture.name] = read.value;
			result.captured[capture.name] = read.value;
		} else {
			result.problems.push(read.problem);
		}
	}
	if (!captured.response) {
		result.status = 'errored';
		result.problems.unshift(redactor.text(captured.error ?? 'No response.'));
	} else if (result.outcomes.some((outcome) => !outcome.passed) || result.problems.length > 0) {
		result.status = 'failed';
	} else {
		result.status = 'passed';
	}
}

/** Sends the request to the second connection and compares the decoded outcomes, varying values ignored. */
async function compareElsewhere(
	entry: ParsedEntry,
	decoded: NonNullable<ObservedExchange['decoded']>,
	options: RunOptions,
	variables: Record<string, string>,
	redactor: ReturnType<typeof createRedactor>,
): Promise<NonNullable<RequestRunResult['comparison']>> {
	const other = options.compareWith!;
	const prepared = prepareEntry(entry, other.target, other.connection, variables);
	if (!prepared.request) return { differences: [], problem: redactor.text(prepared.problems.join(' ')) };
	const captured = await sendPrepared(prepared.request, {
		signal: options.signal,
		timeoutMs: options.timeoutMs ?? 30_000,
		dispatcher: options.dispatcher,
	});
	const observed = observe(entry, captured, { ...options, target: other.target }, redactor);
	if (!observed.decoded) {
		return { differences: [], problem: observed.decodeError ?? observed.error ?? 'no decodable answer' };
	}
	const comparable = (outcome: NonNullable<ObservedExchange['decoded']>) =>
		withoutVaryingValues(normaliseResult(outcome));
	return { differences: diffValues(comparable(decoded), comparable(observed.decoded)) };
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
				: { fault: { ...decoded.fault } };
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
