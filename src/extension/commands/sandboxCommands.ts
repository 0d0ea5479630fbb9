/** Commands of the built-in sandbox: start, stop, reset, failure scenarios. */
import { parseScenario, type Scenario } from '../../emulator/scenarios/format';
import { SCENARIO_LIBRARY } from '../../emulator/scenarios/library';
import { reportFailure } from '../actions/run';
import { SANDBOX_CONNECTION_ID } from '../connections/model';
import { COMMANDS } from '../ids';
import { describeFailure, isReportedElsewhere } from '../logging/describe';
import { changePort, usePort } from '../sandbox/portConflict';
import type { PickItem } from '../ui/port';
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

/** The name a scenario file declares, to show it as picked while on; undefined when unreadable. */
function declaredName(text: string): string | undefined {
	try {
		const name = (JSON.parse(text) as { name?: unknown }).name;
		return typeof name === 'string' ? name : undefined;
	} catch {
		return undefined;
	}
}

/** Picks the failure scenarios the sandbox runs (library and workspace files); none picked turns them off. */
export async function chooseScenarios(ctx: CommandContext): Promise<void> {
	const { ui, sandbox, store } = ctx;
	const active = new Set(sandbox.activeScenarios.map((scenario) => scenario.name));
	const files = (await ctx.scenarioFiles?.()) ?? [];
	const items: PickItem<() => Scenario>[] = [
		...SCENARIO_LIBRARY.map((scenario) => ({
			label: scenario.title,
			description: scenario.name,
			detail: scenario.description,
			picked: active.has(scenario.name),
			value: () => scenario,
		})),
		...files.map((file) => {
			const name = declaredName(file.text);
			return {
				label: file.label,
				description: name ? `${name} · workspace file` : 'workspace file',
				picked: name !== undefined && active.has(name),
				value: () => parseScenario(file.text, file.label),
			};
		}),
	];
	const picked = await ui.pickMany(items, {
		title: 'Failure scenarios of the sandbox',
		placeholder: 'The failures the sandbox injects on purpose (none picked: all off)',
	});
	if (!picked) return;
	let scenarios: Scenario[];
	try {
		scenarios = picked.map((item) => item.value());
	} catch (error) {
		await ui.error(`The scenario file cannot be used: ${error instanceof Error ? error.message : String(error)}`);
		return;
	}
	try {
		await ui.withProgress(
			scenarios.length > 0 ? 'Turning failure scenarios on' : 'Turning failure scenarios off',
			false,
			() => sandbox.setScenarios(scenarios),
		);
	} catch (error) {
		if (!isReportedElsewhere(error)) {
			reportFailure(ui, ctx.services.log, describeFailure('Turning failure scenarios on', error));
		}
		return;
	}
	if (scenarios.length > 0 && store.active().id !== SANDBOX_CONNECTION_ID) {
		const choice = await ui.info(
			'The failure scenarios are on in the sandbox, but the active connection is another service.',
			'Use the sandbox',
		);
		if (choice === 'Use the sandbox') await store.setActive(SANDBOX_CONNECTION_ID);
	}
}

export function sandboxCommands(ctx: CommandContext): Record<string, CommandHandler> {
	return {
		[COMMANDS.sandboxStart]: () => startSandbox(ctx),
		[COMMANDS.sandboxStop]: () => ctx.sandbox.stop(),
		[COMMANDS.sandboxReset]: () => resetSandbox(ctx),
		[COMMANDS.sandboxUsePort]: (port) => (typeof port === 'number' ? usePort(ctx, port) : changePort(ctx)),
		[COMMANDS.sandboxChangePort]: () => changePort(ctx),
		[COMMANDS.sandboxScenarios]: () => chooseScenarios(ctx),
		[COMMANDS.sandboxScenariosOff]: () => ctx.sandbox.clearScenarios(),
	};
}
