/**
 * Registers the two detail panels and their commands. One panel per advert or application: invoking
 * the command again reveals the open panel.
 */
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../services';
import { AdvertPanel } from './advertPanel';
import { ApplicationPanel } from './applicationPanel';
import { toAdvertRef, toApplicationRef } from './models';

export const PANEL_COMMANDS = {
	advertShowDetails: 'multiposting.advert.showDetails',
	applicationShowDetails: 'multiposting.application.showDetails',
} as const;

/** Registers `multiposting.advert.showDetails` and `multiposting.application.showDetails`. */
export function registerPanels(context: vscode.ExtensionContext, services: WorkbenchServices): void {
	const adverts = new Map<number, AdvertPanel>();
	const applications = new Map<number, ApplicationPanel>();

	context.subscriptions.push(
		vscode.commands.registerCommand(PANEL_COMMANDS.advertShowDetails, async (arg?: unknown) => {
			const ref = toAdvertRef(arg) ?? (await askAdvertId());
			if (!ref) return;
			const open = adverts.get(ref.advertId);
			if (open) return open.reveal();
			adverts.set(ref.advertId, new AdvertPanel(services, ref, () => adverts.delete(ref.advertId)));
		}),
		vscode.commands.registerCommand(PANEL_COMMANDS.applicationShowDetails, async (arg?: unknown) => {
			const ref = toApplicationRef(arg) ?? (await askApplication());
			if (!ref) return;
			const open = applications.get(ref.advertCandidateId);
			if (open) return open.reveal();
			applications.set(
				ref.advertCandidateId,
				new ApplicationPanel(services, ref, () => applications.delete(ref.advertCandidateId)),
			);
		}),
		{ dispose: () => [...adverts.values(), ...applications.values()].forEach((p) => p.dispose()) },
	);
}

const ID_PATTERN = /^\s*[1-9]\d{0,9}\s*$/;

async function askAdvertId(): Promise<{ advertId: number } | undefined> {
	const text = await vscode.window.showInputBox({
		title: 'Show advert details',
		prompt: 'Advert ID',
		validateInput: (v) => (ID_PATTERN.test(v) ? undefined : 'Enter a numeric AdvertID'),
	});
	return text ? { advertId: Number(text) } : undefined;
}

async function askApplication(): Promise<{ advertId: number; advertCandidateId: number } | undefined> {
	const text = await vscode.window.showInputBox({
		title: 'Show application details',
		prompt: 'AdvertID/AdvertCandidateID, e.g. 1001/5003',
		validateInput: (v) =>
			/^\s*[1-9]\d{0,9}\s*\/\s*[1-9]\d{0,9}\s*$/.test(v) ? undefined : 'Enter AdvertID/AdvertCandidateID',
	});
	if (!text) return undefined;
	const [advertId, advertCandidateId] = text.split('/').map((s) => Number(s.trim()));
	return { advertId, advertCandidateId };
}
