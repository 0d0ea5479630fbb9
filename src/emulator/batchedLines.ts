/**
 * Log lines written once per event-loop turn instead of once each. Standard error to a file, a pipe
 * or a terminal is a synchronous write: one system call per access-log line was 14 % of the CPU of a
 * request answered from the answer cache. A batch is written when the turn ends, when it reaches
 * `maxChars`, and by `flush()` (the CLI calls it before the process exits), so at most one turn's lines
 * are lost if the process is killed outright.
 */
export interface BatchedLines {
	/** Queues one line (without its newline). */
	line(text: string): void;
	/** Writes whatever is queued, now. */
	flush(): void;
}

export const DEFAULT_BATCH_CHARS = 64 * 1024;

export function batchedLines(write: (text: string) => void, maxChars = DEFAULT_BATCH_CHARS): BatchedLines {
	let queued: string[] = [];
	let chars = 0;
	let scheduled: NodeJS.Immediate | undefined;
	const flush = (): void => {
		if (scheduled) clearImmediate(scheduled);
		scheduled = undefined;
		if (queued.length === 0) return;
		const text = queued.join('\n') + '\n';
		queued = [];
		chars = 0;
		write(text);
	};
	return {
		line(text) {
			queued.push(text);
			chars += text.length + 1;
			if (chars >= maxChars) flush();
			else scheduled ??= setImmediate(flush);
		},
		flush,
	};
}
