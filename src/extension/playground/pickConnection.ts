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
