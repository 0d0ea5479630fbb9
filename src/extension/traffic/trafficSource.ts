/**
 * Follows a sandbox's journal through its control endpoint: long polls of
 * `GET /__admin/requests?after=<last id>&wait=20`, so a new exchange shows within a moment of its
 * answer, for the built-in sandbox (its worker listens on loopback) and a standalone one alike.
 */
import { sendRequest } from '../../client/transport';
import type { JournalEntry } from '../../emulator/journal/types';
import type { DetailedEntry } from './trafficModel';

const WAIT_SECONDS = 20;
const RETRY_MS = 2000;
const MAX_BODY_BYTES = 64 * 1024 * 1024;

async function call(method: string, url: string, signal?: AbortSignal): Promise<unknown> {
	const result = await sendRequest(
		{ method, url, headers: { accept: 'application/json' }, body: new Uint8Array() },
		{ timeoutMs: (WAIT_SECONDS + 10) * 1000, maxBodyBytes: MAX_BODY_BYTES, signal },
	);
	if (!result.response) {
		throw new Error(
			`The sandbox at ${new URL(url).origin} did not answer (${result.failure?.kind ?? 'no answer'}).`,
		);
	}
	const text = Buffer.from(result.response.body).toString('utf8');
	if (result.response.status === 404 && url.includes('/__admin/requests?')) {
		throw new Error(`The sandbox at ${new URL(url).origin} keeps no journal (started with --no-journal?).`);
	}
	if (result.response.status !== 200) {
		const error = (JSON.parse(text || '{}') as { error?: string }).error;
		throw new Error(error ?? `The sandbox answered HTTP ${result.response.status}.`);
	}
	return JSON.parse(text) as unknown;
}

/** Long-polls one sandbox until stopped; `onEntries` gets new exchanges, `onError` what went wrong (it retries). */
export class TrafficSource {
	private readonly abort = new AbortController();
	private lastId = 0;
	/** Set once the journal has been read: from then on every poll waits for something newer. */
	private caughtUp = false;

	constructor(
		readonly baseUrl: string,
		private readonly onEntries: (entries: JournalEntry[]) => void,
		private readonly onError: (message: string | undefined) => void,
	) {}

	start(): void {
		void this.loop();
	}

	stop(): void {
		this.abort.abort();
	}

	get stopped(): boolean {
		return this.abort.signal.aborted;
	}

	detail(id: number): Promise<DetailedEntry> {
		return call('GET', `${this.baseUrl}/__admin/requests/${id}`) as Promise<DetailedEntry>;
	}

	async clear(): Promise<void> {
		await call('DELETE', `${this.baseUrl}/__admin/requests`);
	}

	private async loop(): Promise<void> {
		while (!this.stopped) {
			try {
				const wait = this.caughtUp ? WAIT_SECONDS : 0;
				const answer = (await call(
					'GET',
					`${this.baseUrl}/__admin/requests?after=${this.lastId}&wait=${wait}&limit=500`,
					this.abort.signal,
				)) as { requests: JournalEntry[]; meta: { lastId: number } };
				if (this.stopped) return;
				this.onError(undefined);
				// A restarted sandbox counts from 1 again: read its journal from the start.
				if (answer.meta.lastId < this.lastId) {
					this.lastId = 0;
					this.caughtUp = false;
					continue;
				}
				this.caughtUp = true;
				if (answer.requests.length > 0) {
					this.lastId = Math.max(this.lastId, ...answer.requests.map((entry) => entry.id));
					this.onEntries(answer.requests);
				}
			} catch (error) {
				if (this.stopped) return;
				this.onError(error instanceof Error ? error.message : String(error));
				await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
			}
		}
	}
}
