/**
 * The playground's persisted, searchable history: the newest exchanges first, bounded in count and
 * in body size, every text redacted before it is stored. Storage is injected (a JSON file in the
 * extension's global storage in production, memory in tests).
 */
import { createRedactor } from '../../client';
import { createPlaceholderRedactor, type ConnectionValues } from '../../protocol/requestFile';
import type { HistorySummary, PlaygroundForm, ResponseView } from '../../shared/playgroundMessages';

/** Most entries kept. */
export const HISTORY_LIMIT = 200;
/** Longest body text kept per entry, in characters. */
export const HISTORY_BODY_LIMIT = 256 * 1024;

export interface HistoryEntry {
	id: string;
	time: number;
	form: PlaygroundForm;
	response?: ResponseView;
}

/** Where the history is kept. */
export interface HistoryStorage {
	read(): Promise<string | undefined>;
	write(text: string): Promise<void>;
}

export class PlaygroundHistory {
	private entries: HistoryEntry[] | undefined;
	private counter = 0;
	private writing: Promise<void> = Promise.resolve();

	constructor(
		private readonly storage: HistoryStorage,
		private readonly limit = HISTORY_LIMIT,
	) {}

	/** Adds an exchange; `secrets` are redacted from the form and the response before storing. */
	async add(
		form: PlaygroundForm,
		response: ResponseView | undefined,
		secrets: ConnectionValues,
		now = Date.now(),
	): Promise<HistoryEntry> {
		const entries = await this.load();
		this.counter += 1;
		const entry: HistoryEntry = {
			id: `${now.toString(36)}-${this.counter}`,
			time: now,
			form: redactForm(form, secrets),
			response: response ? redactResponse(response, secrets) : undefined,
		};
		entries.unshift(entry);
		entries.length = Math.min(entries.length, this.limit);
		await this.save();
		return entry;
	}

	/** Summaries of the entries whose operation, binding, status, URL or bodies contain `query`. */
	async search(query = ''): Promise<HistorySummary[]> {
		const needle = query.trim().toLowerCase();
		const entries = await this.load();
		return entries.filter((entry) => needle.length === 0 || searchText(entry).includes(needle)).map(summary);
	}

	async get(id: string): Promise<HistoryEntry | undefined> {
		return (await this.load()).find((entry) => entry.id === id);
	}

	async clear(): Promise<void> {
		this.entries = [];
		await this.save();
	}

	private async load(): Promise<HistoryEntry[]> {
		if (this.entries) return this.entries;
		let parsed: unknown;
		try {
			parsed = JSON.parse((await this.storage.read()) ?? '[]');
		} catch {
			parsed = [];
		}
		this.entries = Array.isArray(parsed)
			? (parsed as HistoryEntry[])
					.filter((entry) => typeof entry?.id === 'string' && typeof entry.form === 'object')
					.slice(0, this.limit)
			: [];
		return this.entries;
	}

	private save(): Promise<void> {
		const text = JSON.stringify(this.entries ?? []);
		// Writes are chained so that an older snapshot never overwrites a newer one.
		this.writing = this.writing.then(
			() => this.storage.write(text),
			() => this.storage.write(text),
		);
		return this.writing;
	}
}

function summary(entry: HistoryEntry): HistorySummary {
	return {
		id: entry.id,
		time: entry.time,
		operation: entry.form.operation,
		binding: entry.form.binding,
		mode: entry.form.mode,
		status: entry.response?.status,
		totalMs: Math.round(entry.response?.timings.totalMs ?? 0),
		error: entry.response?.error ?? entry.response?.fault?.message,
	};
}

function searchText(entry: HistoryEntry): string {
	const response = entry.response;
	return [
		entry.form.operation,
		entry.form.binding,
		entry.form.mode,
		String(response?.status ?? ''),
		response?.request.url ?? '',
		response?.request.body ?? '',
		response?.bodyText ?? '',
		response?.fault?.message ?? '',
		response?.error ?? '',
	]
		.join('\n')
		.toLowerCase();
}

function secretList(secrets: ConnectionValues): string[] {
	return [secrets.apiKey, secrets.password].filter(
		(secret): secret is string => typeof secret === 'string' && secret.length > 0,
	);
}

/** The form with every secret replaced by its placeholder. */
export function redactForm(form: PlaygroundForm, secrets: ConnectionValues): PlaygroundForm {
	const redactor = createPlaceholderRedactor(secrets);
	const scrub = redactor.text;
	const params: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(form.params)) {
		params[name] = Array.isArray(value)
			? value.map((item) => redactor.param(name, item))
			: redactor.param(name, value);
	}
	return {
		...form,
		params,
		raw: {
			method: scrub(form.raw.method),
			target: scrub(form.raw.target),
			headersText: scrub(form.raw.headersText),
			body: scrub(form.raw.body),
		},
	};
}

/** The response with every secret replaced by *** and long bodies cut. */
export function redactResponse(response: ResponseView, secrets: ConnectionValues): ResponseView {
	const redactor = createRedactor(secretList(secrets));
	const cut = (text: string): string =>
		text.length > HISTORY_BODY_LIMIT ? `${text.slice(0, HISTORY_BODY_LIMIT)}\n… (cut for the history)` : text;
	const text = (value: string): string => cut(redactor.text(value));
	const redacted: ResponseView = {
		...response,
		request: {
			method: response.request.method,
			url: redactor.text(response.request.url),
			headers: response.request.headers.map(([name, value]) => [name, redactor.text(value)]),
			body: text(response.request.body),
		},
		headers: response.headers.map(([name, value]) => [name, redactor.text(value)]),
		bodyText: text(response.bodyText),
	};
	if (response.pretty !== undefined) redacted.pretty = text(response.pretty);
	if (response.result !== undefined) {
		const json = redactor.text(JSON.stringify(response.result));
		delete redacted.result;
		if (json.length <= HISTORY_BODY_LIMIT) {
			try {
				redacted.result = JSON.parse(json) as unknown;
			} catch {
				// A secret spanning JSON syntax: the result is dropped rather than stored unredacted.
			}
		}
	}
	if (response.fault) redacted.fault = { ...response.fault, message: redactor.text(response.fault.message) };
	if (response.error !== undefined) redacted.error = redactor.text(response.error);
	return redacted;
}
