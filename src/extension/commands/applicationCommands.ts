/** Commands on an application: score (picker or one key per score), progress, note, tags, copy, open, next/previous. */
import type { ScoreLetter } from '../../protocol/catalogue';
import { candidateName, scoreWord } from '../actions/applicationActions';
import { runWithProgress } from '../actions/run';
import { COMMANDS } from '../ids';
import { applicationById } from '../reads/queries';
import type { ApplicationRef } from '../services';
import type { CommandContext, CommandHandler } from './context';
import { targetApplication } from './nodeArgs';

const NO_APPLICATION = 'Select an application in the Multiposting view or open one in a panel first.';

function need(ctx: CommandContext, arg: unknown): ApplicationRef | undefined {
	const target = targetApplication(arg, ctx.tree, ctx.panels);
	if (!target) void ctx.ui.info(NO_APPLICATION);
	return target?.ref;
}

/** Scores with one letter (a key press): no picker; the result shows in the status bar and the tree. */
export async function scoreWith(ctx: CommandContext, letter: ScoreLetter, arg: unknown): Promise<boolean> {
	const ref = need(ctx, arg);
	if (!ref) return false;
	const done = await ctx.services.applications.score(ref, letter);
	if (done) ctx.ui.status(`${candidateName(ref)}: ${scoreWord(letter)}`);
	return done;
}

/**
 * Moves to the next (1) or previous (-1) application of the same advert. From the tree, the tree's
 * selection moves (and the preview panel follows it); from a panel, the panel shows the other
 * application and the tree's selection follows without taking the focus.
 */
export async function stepApplication(ctx: CommandContext, step: 1 | -1, arg: unknown): Promise<void> {
	const target = targetApplication(arg, ctx.tree, ctx.panels);
	if (!target) {
		void ctx.ui.info(NO_APPLICATION);
		return;
	}
	const node = target.node ?? ctx.model.applicationNode(target.ref.advertCandidateId);
	if (!node) {
		void ctx.ui.info(`${candidateName(target.ref)} is not in the Multiposting view, so there is no next one.`);
		return;
	}
	const sibling = await ctx.model.sibling(node, step);
	if (!sibling || sibling.data.kind !== 'application') {
		ctx.ui.status(step === 1 ? 'This is the last application of the advert.' : 'This is the first application.');
		return;
	}
	const app = sibling.data.application;
	if (target.source === 'panel' && app.AdvertID !== undefined && app.AdvertCandidateID !== undefined) {
		await ctx.panels.retargetActiveApplication(
			{ advertId: app.AdvertID, advertCandidateId: app.AdvertCandidateID },
			app,
		);
		await ctx.tree.reveal(sibling, { focus: false });
	} else {
		await ctx.tree.reveal(sibling, { focus: true });
	}
}

export function applicationCommands(ctx: CommandContext): Record<string, CommandHandler> {
	const { services, ui } = ctx;
	return {
		[COMMANDS.applicationScore]: async (arg) => {
			const ref = need(ctx, arg);
			if (ref) await services.applications.score(ref);
		},
		[COMMANDS.applicationScoreSuitable]: (arg) => scoreWith(ctx, 'S', arg),
		[COMMANDS.applicationScoreMaybe]: (arg) => scoreWith(ctx, 'M', arg),
		[COMMANDS.applicationScoreUnsuitable]: (arg) => scoreWith(ctx, 'U', arg),
		[COMMANDS.applicationScoreFavourite]: (arg) => scoreWith(ctx, 'F', arg),
		[COMMANDS.applicationScoreNone]: (arg) => scoreWith(ctx, 'N', arg),
		[COMMANDS.applicationProgress]: async (arg) => {
			const ref = need(ctx, arg);
			if (ref) await services.applications.progress(ref);
		},
		[COMMANDS.applicationAddNote]: async (arg) => {
			const ref = need(ctx, arg);
			if (ref) await services.applications.addNote(ref);
		},
		[COMMANDS.applicationTag]: async (arg) => {
			const ref = need(ctx, arg);
			if (ref) await services.applications.tag(ref);
		},
		[COMMANDS.applicationPartnerTag]: async (arg) => {
			const ref = need(ctx, arg);
			if (ref) await services.applications.partnerTag(ref);
		},
		[COMMANDS.applicationCopyId]: async (arg) => {
			const ref = need(ctx, arg);
			if (!ref) return;
			await ui.copyText(String(ref.advertCandidateId));
			ui.status(`Copied the application ID of ${candidateName(ref)}: ${ref.advertCandidateId}`);
		},
		[COMMANDS.applicationShowDetails]: async (arg) => {
			// From a row or a panel: that application; from the palette: ask, offering the selected one.
			const given = arg === undefined ? undefined : targetApplication(arg, ctx.tree, ctx.panels)?.ref;
			const ref = given ?? (await askApplication(ctx, targetApplication(undefined, ctx.tree, ctx.panels)?.ref));
			if (ref) await ctx.panels.showApplication(ref, { preview: false });
		},
		[COMMANDS.applicationNext]: (arg) => stepApplication(ctx, 1, arg),
		[COMMANDS.applicationPrevious]: (arg) => stepApplication(ctx, -1, arg),
	};
}

/** Asks for an application ID and finds its advert (the palette command with nothing selected). */
async function askApplication(ctx: CommandContext, selected?: ApplicationRef): Promise<ApplicationRef | undefined> {
	const text = await ctx.ui.input({
		title: 'Show application details',
		prompt: 'Application ID (AdvertCandidateID)',
		value: selected ? String(selected.advertCandidateId) : undefined,
		validate: (v) => (/^\s*[1-9]\d{0,9}\s*$/.test(v) ? undefined : 'Enter a number, e.g. 5003'),
	});
	if (text === undefined) return undefined;
	const id = text.trim();
	const found = await runWithProgress(ctx.ui, ctx.services.log, 'Finding the application', true, async (signal) => ({
		app: await applicationById(await ctx.services.activeClient(), { advertCandidateId: Number(id) }, undefined, {
			signal,
		}),
	}));
	if (!found) return undefined;
	const { app } = found;
	if (!app || app.AdvertID === undefined) {
		void ctx.ui.info(`There is no application ${id} on this connection.`);
		return undefined;
	}
	return { advertId: app.AdvertID, advertCandidateId: Number(id), firstName: app.FirstName, lastName: app.LastName };
}
