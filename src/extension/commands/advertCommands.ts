/** Commands on adverts: create, express post, delivery log, copy, open. */
import { showDeliveryLog } from '../actions/advertFlows';
import { COMMANDS } from '../ids';
import type { AdvertRef } from '../services';
import type { CommandContext, CommandHandler } from './context';
import { targetAdvert } from './nodeArgs';

function need(ctx: CommandContext, arg: unknown): AdvertRef | undefined {
	const ref = targetAdvert(arg, ctx.tree);
	if (!ref) void ctx.ui.info('Select an advert in the Multiposting view first.');
	return ref;
}

export function advertCommands(ctx: CommandContext): Record<string, CommandHandler> {
	const { services, ui } = ctx;
	return {
		[COMMANDS.advertExpressPost]: async (arg) => {
			const ref = need(ctx, arg);
			if (ref) await services.adverts.expressPost(ref);
		},
		[COMMANDS.advertCreate]: () => ctx.panels.showCreateAdvert(),
		[COMMANDS.advertShowDeliveryLog]: async (arg) => {
			const ref = need(ctx, arg);
			if (ref) await showDeliveryLog(services, ui, ref);
		},
		[COMMANDS.advertCopyId]: async (arg) => {
			const ref = need(ctx, arg);
			if (!ref) return;
			await ui.copyText(String(ref.advertId));
			ui.status(`Copied the advert ID: ${ref.advertId}`);
		},
		[COMMANDS.advertShowDetails]: async (arg) => {
			// From a row: that advert; from the palette: ask, offering the selected one.
			const ref =
				arg === undefined
					? await askAdvertId(ctx, targetAdvert(undefined, ctx.tree))
					: targetAdvert(arg, ctx.tree);
			if (ref) await ctx.panels.showAdvert(ref, { preview: false });
		},
	};
}

async function askAdvertId(ctx: CommandContext, selected?: AdvertRef): Promise<AdvertRef | undefined> {
	const text = await ctx.ui.input({
		title: 'Show advert details',
		prompt: 'Advert ID',
		value: selected ? String(selected.advertId) : undefined,
		validate: (v) => (/^\s*[1-9]\d{0,9}\s*$/.test(v) ? undefined : 'Enter a number, e.g. 1001'),
	});
	return text === undefined ? undefined : { advertId: Number(text.trim()) };
}
