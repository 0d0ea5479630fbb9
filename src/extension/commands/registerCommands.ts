/** Registers every command. Each handler is a few lines that call the tested logic modules. */
import * as vscode from 'vscode';
import { createAdvertFlow, showDeliveryLog, showFeeds } from '../actions/advertFlows';
import { reportFailure, runWithProgress } from '../actions/run';
import type { ConnectionStore } from '../connections/connectionStore';
import { connectionWizard, testConnection } from '../connections/connectionFlow';
import { SANDBOX_CONNECTION_ID } from '../connections/model';
import { COMMANDS, CONTEXT_KEYS } from '../ids';
import { describeFailure, isReportedElsewhere } from '../logging/describe';
import type { SandboxManager } from '../sandbox/sandboxManager';
import type { AccountModel, TreeNode } from '../tree/accountModel';
import { describeFilters } from '../tree/descriptors';
import { filterFlow } from '../tree/filterFlow';
import { askFind, findItems, findResultLabel } from '../tree/findFlow';
import type { UiPort } from '../ui/port';
import type { DefaultWorkbenchServices } from '../workbenchServices';
import { advertRefOf, applicationRefOf, treeNodeOf } from './nodeArgs';

export interface CommandDeps {
	services: DefaultWorkbenchServices;
	ui: UiPort;
	store: ConnectionStore;
	sandbox: SandboxManager;
	model: AccountModel;
	treeView: vscode.TreeView<TreeNode>;
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
	const { services, ui, store, sandbox, model, treeView } = deps;
	const log = services.log;
	/** The node a command acts on: its argument, else the tree's selection. */
	const target = (arg: unknown): unknown => arg ?? treeView.selection[0];
	const needApplication = (arg: unknown) => {
		const ref = applicationRefOf(target(arg));
		if (!ref) void ui.info('Select an application in the Multiposting view first.');
		return ref;
	};
	const needAdvert = (arg: unknown) => {
		const ref = advertRefOf(target(arg));
		if (!ref) void ui.info('Select an advert in the Multiposting view first.');
		return ref;
	};
	const updateFilterContext = () => {
		const description = describeFilters(model.filters, model.progress());
		treeView.description = description;
		void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.filtered, description !== undefined);
	};

	const pickConnection = async (placeholder: string, includeSandbox: boolean) => {
		const connections = store.list().filter((c) => includeSandbox || c.kind !== 'sandbox');
		if (connections.length === 0) {
			void ui.info('There are no connections of your own yet. Run "Multiposting: Add Connection".');
			return undefined;
		}
		const active = store.active().id;
		const picked = await ui.pick(
			connections.map((c) => ({
				label: c.label,
				description: c.id === active ? 'active' : c.kind === 'sandbox' ? 'built-in emulator' : c.baseUrl,
				value: c,
			})),
			{ title: 'Multiposting connections', placeholder },
		);
		return picked?.value;
	};

	const register = (id: string, handler: (...args: unknown[]) => unknown) =>
		vscode.commands.registerCommand(id, handler);

	return [
		register(COMMANDS.connectionAdd, async () => {
			const draft = await connectionWizard(
				ui,
				store.stored().map((c) => c.id),
			);
			if (!draft) return;
			await store.save(draft.connection, draft.secrets);
			const choice = await ui.info(`Connection "${draft.connection.label}" saved.`, 'Use it now', 'Test it');
			if (choice === 'Use it now') await store.setActive(draft.connection.id);
			if (choice === 'Test it') {
				await vscode.commands.executeCommand(COMMANDS.connectionTest, draft.connection.id);
			}
		}),
		register(COMMANDS.connectionEdit, async (arg) => {
			const id = typeof arg === 'string' ? arg : (await pickConnection('Connection to edit', false))?.id;
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
		}),
		register(COMMANDS.connectionRemove, async (arg) => {
			const id = typeof arg === 'string' ? arg : (await pickConnection('Connection to remove', false))?.id;
			const existing = store.stored().find((c) => c.id === id);
			if (!existing) return;
			const answer = await ui.warnModal(
				`Remove the connection "${existing.label}"?`,
				'Its API key and password are deleted from the secret storage.',
				'Remove',
			);
			if (answer === 'Remove') await store.remove(existing.id);
		}),
		register(COMMANDS.connectionTest, async (arg) => {
			const connection =
				typeof arg === 'string'
					? store.get(arg)
					: treeNodeOf(arg)?.data.kind === 'connection'
						? store.active()
						: await pickConnection('Connection to test', true);
			if (!connection) return;
			const result = await runWithProgress(ui, log, `Testing ${connection.label}`, true, async (signal) => {
				const client = await services.clientFor(connection);
				try {
					return await testConnection(client, connection, signal);
				} finally {
					await client.close();
				}
			});
			if (!result) return;
			if (result.ok) void ui.info(`${connection.label}: ${result.lines.join(' ')}`);
			else reportFailure(ui, log, `${connection.label}: ${result.lines.join(' ')}`);
		}),
		register(COMMANDS.connectionSelect, async () => {
			const connection = await pickConnection('Connection to use', true);
			if (connection) await store.setActive(connection.id);
		}),
		register(COMMANDS.sandboxStart, async () => {
			try {
				await ui.withProgress('Starting the sandbox', false, () => sandbox.start());
				if (store.active().id !== SANDBOX_CONNECTION_ID) {
					const choice = await ui.info('The sandbox is running.', 'Use it');
					if (choice === 'Use it') await store.setActive(SANDBOX_CONNECTION_ID);
				}
			} catch (error) {
				if (!isReportedElsewhere(error)) reportFailure(ui, log, describeFailure('Starting the sandbox', error));
			}
		}),
		register(COMMANDS.sandboxStop, async () => {
			await sandbox.stop();
		}),
		register(COMMANDS.sandboxReset, async () => {
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
					reportFailure(ui, log, describeFailure('Resetting the sandbox', error));
				}
			}
		}),
		register(COMMANDS.treeRefresh, () => model.refresh()),
		register(COMMANDS.treeRefreshNode, (arg) => {
			const node = treeNodeOf(target(arg));
			if (node) model.refreshNode(node);
			else model.refresh();
		}),
		register(COMMANDS.treeLoadMore, async (arg) => {
			const node = treeNodeOf(arg);
			if (node) await model.loadMore(node);
		}),
		register(COMMANDS.treeRetry, async (arg) => {
			const node = treeNodeOf(arg);
			if (!node) return;
			await model.loadMore(node);
		}),
		register(COMMANDS.treeFilter, async () => {
			const filters = await filterFlow(ui, model.filters, model.progress());
			if (!filters) return;
			model.setFilters(filters);
			updateFilterContext();
		}),
		register(COMMANDS.treeClearFilter, () => {
			model.setFilters({});
			updateFilterContext();
		}),
		register(COMMANDS.treeFind, async () => {
			const query = await askFind(ui);
			if (!query) return;
			const results = await runWithProgress(ui, log, 'Searching', true, async (signal) =>
				findItems(await services.activeClient(), query.kind, query.text, signal),
			);
			if (!results) return;
			if (results.length === 0) {
				void ui.info(`Nothing matches ${query.text}.`);
				return;
			}
			const chosen =
				results.length === 1
					? results[0]
					: (
							await ui.pick(
								results.map((r) => ({ ...findResultLabel(r), value: r })),
								{ title: `${results.length} results` },
							)
						)?.value;
			if (!chosen) return;
			const node = await runWithProgress(ui, log, 'Locating it in the tree', true, async () =>
				'advert' in chosen ? model.locateAdvert(chosen.advert) : model.locateApplication(chosen.application),
			);
			if (node) {
				await treeView.reveal(node, { select: true, focus: true, expand: true });
			} else {
				const text = JSON.stringify('advert' in chosen ? chosen.advert : chosen.application, null, 2);
				void ui.info('It is not under a user visible in the tree; showing its data instead.');
				await ui.showDocument(text, 'plaintext');
			}
		}),
		register(COMMANDS.applicationScore, async (arg) => {
			const ref = needApplication(arg);
			if (ref) await services.applications.score(ref);
		}),
		register(COMMANDS.applicationProgress, async (arg) => {
			const ref = needApplication(arg);
			if (ref) await services.applications.progress(ref);
		}),
		register(COMMANDS.applicationAddNote, async (arg) => {
			const ref = needApplication(arg);
			if (ref && (await services.applications.addNote(ref))) {
				void ui.info(`Note added to application ${ref.advertCandidateId}.`);
			}
		}),
		register(COMMANDS.applicationTag, async (arg) => {
			const ref = needApplication(arg);
			if (ref && (await services.applications.tag(ref))) void ui.info('Candidate tagged.');
		}),
		register(COMMANDS.applicationPartnerTag, async (arg) => {
			const ref = needApplication(arg);
			if (ref && (await services.applications.partnerTag(ref))) void ui.info('Partner tag set.');
		}),
		register(COMMANDS.applicationCopyId, async (arg) => {
			const ref = needApplication(arg);
			if (ref) await ui.copyText(String(ref.advertCandidateId));
		}),
		register(COMMANDS.advertExpressPost, async (arg) => {
			const ref = needAdvert(arg);
			if (ref) await services.adverts.expressPost(ref);
		}),
		register(COMMANDS.advertCreate, async () => {
			await createAdvertFlow(services, ui);
		}),
		register(COMMANDS.advertShowDeliveryLog, async (arg) => {
			const ref = needAdvert(arg);
			if (ref) await showDeliveryLog(services, ui, ref);
		}),
		register(COMMANDS.advertCopyId, async (arg) => {
			const ref = needAdvert(arg);
			if (ref) await ui.copyText(String(ref.advertId));
		}),
		register(COMMANDS.accountOpenWebInterface, async (arg) => {
			await services.adverts.openInWebInterface(advertRefOf(arg));
		}),
		register(COMMANDS.accountShowFeeds, async () => {
			await showFeeds(services, ui);
		}),
		register(COMMANDS.logShow, () => ui.showLog()),
	];
}
