/** Shared set-up of the journal tests: an emulator over the fake handlers and control-endpoint calls. */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../src/emulator/server';
import type { JournalEntry } from '../../../src/emulator/journal/types';
import type { Verdict } from '../../../src/emulator/journal/verdict';
import { fakeHandlers, send } from '../server/helpers';

export function startJournaled(options: EmulatorOptions = {}): Promise<RunningEmulator> {
	return startEmulator({ handlers: fakeHandlers(), ...options });
}

/** `GET /__admin/requests` with a query; the requests listed, newest first. */
export async function listed(emulator: RunningEmulator, query = ''): Promise<JournalEntry[]> {
	const answer = await send(`${emulator.baseUrl}/__admin/requests${query ? `?${query}` : ''}`);
	if (answer.status !== 200) throw new Error(`list answered ${answer.status}: ${answer.body}`);
	return (JSON.parse(answer.body) as { requests: JournalEntry[] }).requests;
}

/** `GET /__admin/requests/{id}`: the exchange with its verdict. */
export async function detailed(emulator: RunningEmulator, id: number): Promise<JournalEntry & { verdict: Verdict }> {
	const answer = await send(`${emulator.baseUrl}/__admin/requests/${id}`);
	if (answer.status !== 200) throw new Error(`get answered ${answer.status}: ${answer.body}`);
	return JSON.parse(answer.body) as JournalEntry & { verdict: Verdict };
}

/** The newest exchange with its verdict. */
export async function newest(emulator: RunningEmulator): Promise<JournalEntry & { verdict: Verdict }> {
	const [entry] = await listed(emulator, 'limit=1');
	return detailed(emulator, entry.id);
}
