/**
 * A sandbox that cannot start because its port is taken: one notification that names the process
 * holding the port and offers a free one ("Use port N", which saves the setting and starts there) or
 * the setting itself. Other start failures are left to the caller's usual error report.
 */
import { describeHolder, PortInUseError } from '../../emulator/portHolder';
import { COMMANDS, SETTINGS } from '../ids';
import type { SettingsPort, UiPort } from '../ui/port';
import type { SandboxManager } from './sandboxManager';

export const OPEN_SETTINGS = 'Open Settings';
export const CHANGE_PORT = 'Change port…';
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
		await usePort(deps, error.suggestedPort);
	}
	return true;
}

/** Saves the port setting and starts the sandbox there. */
export async function usePort(
	deps: Pick<PortConflictDeps, 'ui' | 'settings' | 'sandbox'>,
	port: number,
): Promise<void> {
	await deps.settings.update(SETTINGS.sandboxPort, port);
	try {
		const running = await deps.ui.withProgress('Starting the sandbox', false, () => deps.sandbox.start());
		void deps.ui.info(
			`The sandbox runs at ${running.baseUrl}; the setting multiposting.sandbox.port is now ${port}.`,
		);
	} catch {
		// The manager reported the new failure (and offers again if that port was taken too).
	}
}

/** Asks for a port (0: any free one) and starts the sandbox there; nothing when cancelled. */
export async function changePort(deps: Pick<PortConflictDeps, 'ui' | 'settings' | 'sandbox'>): Promise<void> {
	const text = await deps.ui.input({
		title: 'Sandbox port',
		prompt: 'A port from 1024 to 65535, or 0 for any free port (multiposting.sandbox.port)',
		value: String(deps.settings.get<unknown>(SETTINGS.sandboxPort, 0) ?? 0),
		validate: (t) => {
			const port = Number(t.trim());
			return /^\d{1,5}$/.test(t.trim()) && (port === 0 || (port >= 1024 && port <= 65535))
				? undefined
				: 'Enter a port from 1024 to 65535, or 0 for any free port';
		},
	});
	if (text !== undefined) await usePort(deps, Number(text.trim()));
}

/** What the account view shows for a start that failed on a taken port: the cause, then the ways out. */
export function portConflictRows(
	error: unknown,
): { label: string; description?: string; command?: { id: string; arguments: unknown[] } }[] | undefined {
	if (!(error instanceof PortInUseError)) return undefined;
	return [
		{
			label: `Port ${error.port} is in use by ${describeHolder(error.holder)}`,
			description: 'the sandbox cannot start there',
		},
		...(error.suggestedPort === undefined
			? []
			: [
					{
						label: usePortAction(error.suggestedPort),
						description: 'free now; saved in multiposting.sandbox.port',
						command: { id: COMMANDS.sandboxUsePort, arguments: [error.suggestedPort] },
					},
				]),
		{ label: CHANGE_PORT, command: { id: COMMANDS.sandboxChangePort, arguments: [] } },
	];
}
