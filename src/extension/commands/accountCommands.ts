/** Commands of the account: web interface, feeds and quota, the log, and keeping a preview panel open. */
import { showFeeds } from '../actions/advertFlows';
import { COMMANDS } from '../ids';
import type { CommandContext, CommandHandler } from './context';
import { advertRefOf } from './nodeArgs';

export function accountCommands(ctx: CommandContext): Record<string, CommandHandler> {
	const { services, ui } = ctx;
	return {
		[COMMANDS.accountOpenWebInterface]: (arg) => services.adverts.openInWebInterface(advertRefOf(arg)),
		[COMMANDS.accountShowFeeds]: () => showFeeds(services, ui),
		[COMMANDS.logShow]: () => ui.showLog(),
		[COMMANDS.panelKeepOpen]: () => {
			if (!ctx.panels.keepOpen()) void ui.info('The active editor is not a Multiposting preview.');
		},
	};
}
