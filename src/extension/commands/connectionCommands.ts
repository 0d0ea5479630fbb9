/** Commands of the connections: add, edit, remove, test, select. */
import { reportFailure, runWithProgress } from '../actions/run';
import { connectionWizard, testConnection } from '../connections/connectionFlow';
import { COMMANDS } from '../ids';
import type { ConnectionInfo } from '../services';
import type { CommandContext, CommandHandler } from './context';
import { treeNodeOf } from './nodeArgs';

/** Asks which connection; undefined when there is none to choose or the user cancels. */
export async function pickConnection(
	ctx: CommandContext,
	placeholder: string,
	includeSandbox: boolean,
): Promise<ConnectionInfo | undefined> {
	const connections = ctx.store.list().filter((c) => includeSandbox || c.kind !== 'sandbox');
	if (connections.length === 0) {
		void ctx.ui.info('There are no connections of your own yet. Run "Multiposting: Add Connection".');
		return undefined;
	}
	const active = ctx.store.active().id;
	const picked = await ctx.ui.pick(
		connections.map((c) => ({
			label: c.label,
			description: c.id === active ? 'active' : c.kind === 'sandbox' ? 'built-in emulator' : c.baseUrl,
			value: c,
		})),
		{ title: 'Multiposting connections', placeholder },
	);
	return picked?.value;
}

export async function addConnection(ctx: CommandContext): Promise<void> {
	const { ui, store } = ctx;
	const draft = await connectionWizard(
		ui,
		store.stored().map((c) => c.id),
	);
	if (!draft) return;
	await store.save(draft.connection, draft.secrets);
	const choice = await ui.info(`Connection "${draft.connection.label}" saved.`, 'Use it now', 'Test it');
	if (choice === 'Use it now') await store.setActive(draft.connection.id);
	if (choice === 'Test it') await ctx.executeCommand(COMMANDS.connectionTest, draft.connection.id);
}

export async function editConnection(ctx: CommandContext, arg: unknown): Promise<void> {
	const { ui, store } = ctx;
	const id = typeof arg === 'string' ? arg : (await pickConnection(ctx, 'Connection to edit', false))?.id;
	const existing = store.stored().find((c) => c.id === id);
	if (!existing) return;
	const draft = await connectionWizard(
		ui,
		store.stored().map((c) => c.id),
		{ connection: existing, secrets: await store.secretsOf(existing.id) },
	);
	if (!draft) return;
	await store.save(draft.connection, draft.secrets);
	void ui.info(`Connection "${draft.connection.label}" updated.`);
}

export async function removeConnection(ctx: CommandContext, arg: unknown): Promise<void> {
	const id = typeof arg === 'string' ? arg : (await pickConnection(ctx, 'Connection to remove', false))?.id;
	const existing = ctx.store.stored().find((c) => c.id === id);
	if (!existing) return;
	const answer = await ctx.ui.warnModal(
		`Remove the connection "${existing.label}"?`,
		'Its API key and password are deleted from the secret storage.',
		'Remove',
	);
	if (answer === 'Remove') await ctx.store.remove(existing.id);
}

/** Tests a connection (the argument's id, the tree's connection row, or a picked one) and reports once. */
export async function testConnectionCommand(ctx: CommandContext, arg: unknown): Promise<void> {
	const { ui, store, services } = ctx;
	const connection =
		typeof arg === 'string'
			? store.get(arg)
			: treeNodeOf(arg)?.data.kind === 'connection'
				? store.active()
				: await pickConnection(ctx, 'Connection to test', true);
	if (!connection) return;
	const result = await runWithProgress(ui, services.log, `Testing ${connection.label}`, true, async (signal) => {
		const client = await services.clientFor(connection);
		try {
			return await testConnection(client, connection, signal);
		} finally {
			await client.close();
		}
	});
	if (!result) return;
	if (result.ok) void ui.info(`${connection.label}: ${result.lines.join(' ')}`);
	else reportFailure(ui, services.log, `${connection.label}: ${result.lines.join(' ')}`);
}

export function connectionCommands(ctx: CommandContext): Record<string, CommandHandler> {
	return {
		[COMMANDS.connectionAdd]: () => addConnection(ctx),
		[COMMANDS.connectionEdit]: (arg) => editConnection(ctx, arg),
		[COMMANDS.connectionRemove]: (arg) => removeConnection(ctx, arg),
		[COMMANDS.connectionTest]: (arg) => testConnectionCommand(ctx, arg),
		[COMMANDS.connectionSelect]: async () => {
			const connection = await pickConnection(ctx, 'Connection to use', true);
			if (connection) await ctx.store.setActive(connection.id);
		},
	};
}
