/**
 * Registers the command table (commandTable.ts): one flat list over the handler modules of each
 * area, as vscode-docker does. The only file of this folder that imports 'vscode'.
 */
import * as vscode from 'vscode';
import { commandTable } from './commandTable';
import type { CommandContext } from './context';

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
	return Object.entries(commandTable(ctx)).map(([id, handler]) => vscode.commands.registerCommand(id, handler));
}
