/** Commands of the built-in sandbox: start, stop, reset. */
import { reportFailure } from '../actions/run';
import { SANDBOX_CONNECTION_ID } from '../connections/model';
import { COMMANDS } from '../ids';
import { describeFailure, isReportedElsewhere } from '../logging/describe';
import { changePort, usePort } from '../sandbox/portConflict';
import type { CommandContext, CommandHandler } from './context';

export async function startSandbox(ctx: CommandContext): Promise<void> {
	const { ui, store, sandbox } = ctx;
	try {
		await ui.withProgress('Starting the sandbox', false, () => sandbox.start());
		if (store.active().id !== SANDBOX_CONNECTION_ID) {
			const choice = await ui.info('The sandbox is running.', 'Use it');
			if (choice === 'Use it') await store.setActive(SANDBOX_CONNECTION_ID);
		}
	} catch (error) {
		// A taken port has a notification of its own (sandbox/portConflict.ts).
		if (!isReportedElsewhere(error)) {
			reportFailure(ui, ctx.services.log, describeFailure('Starting the sandbox', error));
		}
	}
}

export async function resetSandbox(ctx: CommandContext): Promise<void> {
	const { ui, sandbox, model } = ctx;
	const answer = await ui.warnModal(
		'Reset the sandbox?',
		'Every change made in the sandbox is lost: it restarts with fresh demo data.',
		'Reset',
	);
	if (answer !== 'Reset') return;
	try {
		await ui.withProgress('Resetting the sandbox', false, () => sandbox.reset());
		model.refresh();
	} catch (error) {
		if (!isReportedElsewhere(error)) {
			reportFailure(ui, ctx.services.log, describeFailure('Resetting the sandbox', error));
		}
	}
}

export function sandboxCommands(ctx: CommandContext): Record<string, CommandHandler> {
	return {
		[COMMANDS.sandboxStart]: () => startSandbox(ctx),
		[COMMANDS.sandboxStop]: () => ctx.sandbox.stop(),
		[COMMANDS.sandboxReset]: () => resetSandbox(ctx),
		[COMMANDS.sandboxUsePort]: (port) => (typeof port === 'number' ? usePort(ctx, port) : changePort(ctx)),
		[COMMANDS.sandboxChangePort]: () => changePort(ctx),
	};
}
