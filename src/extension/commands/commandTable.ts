/** Every command handler of the tree, the actions and the panels, by command id (the playground registers its own). */
import { accountCommands } from './accountCommands';
import { advertCommands } from './advertCommands';
import { applicationCommands } from './applicationCommands';
import { connectionCommands } from './connectionCommands';
import type { CommandContext, CommandHandler } from './context';
import { sandboxCommands } from './sandboxCommands';
import { treeCommands } from './treeCommands';

export function commandTable(ctx: CommandContext): Record<string, CommandHandler> {
	return {
		...connectionCommands(ctx),
		...sandboxCommands(ctx),
		...treeCommands(ctx),
		...applicationCommands(ctx),
		...advertCommands(ctx),
		...accountCommands(ctx),
	};
}
