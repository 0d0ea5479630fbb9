/** Shared shape of every action: progress while it runs, plain-language failures with "Show details". */
import { describeFailure, isCancellation, isReportedElsewhere } from '../logging/describe';
import type { LogPort, UiPort } from '../ui/port';

export const SHOW_DETAILS = 'Show details';

/** Runs a task under progress; on failure logs it, reports it and resolves to undefined. */
export async function runWithProgress<T>(
	ui: UiPort,
	log: LogPort,
	title: string,
	cancellable: boolean,
	task: (signal: AbortSignal) => Promise<T>,
): Promise<T | undefined> {
	try {
		return await ui.withProgress(title, cancellable, task);
	} catch (error) {
		if (isCancellation(error) || isReportedElsewhere(error)) {
			return undefined;
		}
		reportFailure(ui, log, describeFailure(title, error));
		return undefined;
	}
}

/** Shows an error with a "Show details" button that opens the log; does not wait for the user. */
export function reportFailure(ui: UiPort, log: LogPort, message: string): void {
	log.error(message);
	void ui.error(message, SHOW_DETAILS).then(
		(choice) => {
			if (choice === SHOW_DETAILS) {
				ui.showLog();
			}
		},
		() => undefined,
	);
}
