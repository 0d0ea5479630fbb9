/**
 * A sandbox that cannot start because its port is taken: one notification that names the process
 * holding the port and offers a free one ("Use port N", which saves the setting and starts there) or
 * the setting itself. Other start failures are left to the caller's usual error report.
 */
import { describeHolder, PortInUseError } from '../../emulator/portHolder';
import { SETTINGS } from '../ids';
import type { SettingsPort, UiPort } from '../ui/port';
import type { SandboxManager } from './sandboxManager';

export const OPEN_SETTINGS = 'Open Settings';
export const usePortAction = (port: number): string => `Use port ${port}`;

export interface PortConflictDeps {
	ui: UiPort;
	settings: SettingsPort;
	sandbox: Pick<SandboxManager, 'start'>;
	/** Opens the settings editor at multiposting.sandbox.port. */
	openSettings: () => void;
}

/** The notification's text for a taken port. */
export function portConflictMessage(error: PortInUseError): string {
	const free = error.suggestedPort === undefined ? '' : ` Port ${error.suggestedPort} is free.`;
	return `The sandbox cannot start: port ${error.port} is already in use by ${describeHolder(error.holder)}.${free}`;
}

/** Offers another port when `error` is a port conflict; resolves once the user chose (or dismissed). */
export async function offerAnotherPort(error: unknown, deps: PortConflictDeps): Promise<boolean> {
	if (!(error instanceof PortInUseError)) return false;
	const actions = error.suggestedPort === undefined ? [] : [usePortAction(error.suggestedPort)];
	const choice = await deps.ui.error(portConflictMessage(error), ...actions, OPEN_SETTINGS);
	if (choice === OPEN_SETTINGS) {
		deps.openSettings();
	} else if (error.suggestedPort !== undefined && choice === usePortAction(error.suggestedPort)) {
		await deps.settings.update(SETTINGS.sandboxPort, error.suggestedPort);
		try {
			const running = await deps.ui.withProgress('Starting the sandbox', false, () => deps.sandbox.start());
			void deps.ui.info(
				`The sandbox runs at ${running.baseUrl}; the setting multiposting.sandbox.port is now ${error.suggestedPort}.`,
			);
		} catch {
			// The manager reported the new failure (and offers again if that port was taken too).
		}
	}
	return true;
}
