/**
 * `--journal FILE`: every exchange the journal keeps, with production's verdict, appended to a file as
 * one JSON line each (the journal's redacted entry plus `verdict`). Lines are written in order; when
 * the disk falls far behind, exchanges are skipped and a `{"skipped":n}` line says how many.
 */
import { createWriteStream } from 'node:fs';
import type { Journal } from './journal';
import type { JournalEntry } from './types';
import type { Verdict } from './verdict';

/** Exchanges waiting for their line at most; more are skipped (and counted). */
export const MAX_PENDING_LINES = 10_000;

export interface JournalFile {
	/** Writes what is waiting and closes the file. */
	close(): Promise<void>;
}

export function writeJournalFile(
	path: string,
	journal: Journal,
	verdictOf: (entry: JournalEntry) => Promise<Verdict>,
	onError: (error: unknown) => void,
): JournalFile {
	const out = createWriteStream(path, { flags: 'a', encoding: 'utf8' });
	out.on('error', onError);
	let chain = Promise.resolve();
	let pending = 0;
	let skipped = 0;
	const write = (line: string): Promise<void> =>
		new Promise((resolve) => {
			if (out.write(`${line}\n`)) resolve();
			else out.once('drain', resolve);
		});
	const unsubscribe = journal.subscribe((entry) => {
		if (pending >= MAX_PENDING_LINES) {
			skipped++;
			return;
		}
		pending++;
		chain = chain
			.then(async () => {
				if (skipped > 0) {
					await write(JSON.stringify({ skipped }));
					skipped = 0;
				}
				await write(JSON.stringify({ ...entry, verdict: await verdictOf(entry) }));
			})
			.catch(onError)
			.finally(() => pending--);
	});
	return {
		async close() {
			journal.flush();
			unsubscribe();
			await chain;
			await new Promise<void>((resolve) => out.end(resolve));
		},
	};
}
