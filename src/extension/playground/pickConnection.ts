/** "Compare with connection…": which saved connection to send the same call to, beside the active one. */
import * as vscode from 'vscode';
import type { ConnectionInfo, WorkbenchServices } from '../services';

/** Asks for a connection other than the active one; undefined when the picker is dismissed. */
export async function pickOtherConnection(services: WorkbenchServices): Promise<ConnectionInfo | undefined> {
	const active = services.activeConnection();
	const others = services.connections().filter((connection) => connection.id !== active.id);
	if (others.length === 0) {
		throw new Error(
			`There is no other connection to compare ${active.label} with: add one (your live account, or a second sandbox) with "Multiposting: Add Connection…".`,
		);
	}
	const picked = await vscode.window.showQuickPick(
		others.map((connection) => ({
			label: connection.label,
			description: connection.baseUrl,
			detail: connection.username ? `as ${connection.username}` : undefined,
			connection,
		})),
		{
			title: `Compare ${active.label} with which connection?`,
			placeHolder: 'The same call goes to both; identifiers, links, dates and the namespace are not compared',
		},
	);
	return picked?.connection;
}

/** The answers of askToSendWrites. */
export const SEND_WRITES = { both: 'Send to Both', writesToo: 'Send Writes Too', readsOnly: 'Reads Only' } as const;

/**
 * Whether calls that change data (AddAdvert, ApplicationScore…) go to the second connection too, asked
 * each time: it may be a live account, where AddAdvert posts a real advert. `operations` are those the
 * comparison would send; `single` when it is one call (the playground). Undefined when dismissed.
 */
export async function askToSendWrites(
	operations: readonly string[],
	other: ConnectionInfo,
	single: boolean,
): Promise<boolean | undefined> {
	const names = [...new Set(operations)];
	if (names.length === 0) return false;
	const list = names.join(', ');
	// Reads Only first: the primary button, the one Enter presses.
	const choices: string[] = single ? [SEND_WRITES.both] : [SEND_WRITES.readsOnly, SEND_WRITES.writesToo];
	const they =
		names.length === 1
			? 'it and the requests that need what it captures are'
			: 'they and the requests that need what they capture are';
	const answer = await vscode.window.showWarningMessage(
		`${list} ${names.length === 1 ? 'changes data. Send it' : 'change data. Send them'} to ${other.label} too?`,
		{
			modal: true,
			detail: single
				? `${other.label} (${other.baseUrl}) may be a live account: the call does there what it does here.`
				: `${other.label} (${other.baseUrl}) may be a live account. With Reads Only, ${they} sent to the active connection only.`,
		},
		...choices,
	);
	if (answer === SEND_WRITES.both || answer === SEND_WRITES.writesToo) return true;
	if (answer === SEND_WRITES.readsOnly) return false;
	return undefined;
}
