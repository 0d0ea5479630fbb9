/** Every identifier the extension contributes: commands, views, context keys and settings. */

/** Command ids, `multiposting.<area>.<verb>`. */
export const COMMANDS = {
	connectionAdd: 'multiposting.connection.add',
	connectionEdit: 'multiposting.connection.edit',
	connectionRemove: 'multiposting.connection.remove',
	connectionTest: 'multiposting.connection.test',
	connectionSelect: 'multiposting.connection.select',
	sandboxStart: 'multiposting.sandbox.start',
	sandboxStop: 'multiposting.sandbox.stop',
	sandboxReset: 'multiposting.sandbox.reset',
	treeRefresh: 'multiposting.tree.refresh',
	treeRefreshNode: 'multiposting.tree.refreshNode',
	treeLoadMore: 'multiposting.tree.loadMore',
	treeFilter: 'multiposting.tree.filter',
	treeClearFilter: 'multiposting.tree.clearFilter',
	treeFind: 'multiposting.tree.find',
	treeRetry: 'multiposting.tree.retry',
	applicationScore: 'multiposting.application.score',
	applicationProgress: 'multiposting.application.progress',
	applicationAddNote: 'multiposting.application.addNote',
	applicationTag: 'multiposting.application.tag',
	applicationPartnerTag: 'multiposting.application.partnerTag',
	applicationCopyId: 'multiposting.application.copyId',
	advertExpressPost: 'multiposting.advert.expressPost',
	advertCreate: 'multiposting.advert.create',
	advertShowDeliveryLog: 'multiposting.advert.showDeliveryLog',
	advertCopyId: 'multiposting.advert.copyId',
	accountOpenWebInterface: 'multiposting.account.openWebInterface',
	accountShowFeeds: 'multiposting.account.showFeeds',
	logShow: 'multiposting.log.show',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

export const ACCOUNT_VIEW_ID = 'multiposting.account';

/** Context keys set with setContext, used by `when` clauses (viewsWelcome, menus). */
export const CONTEXT_KEYS = {
	sandboxState: 'multiposting.sandboxState',
	activeKind: 'multiposting.activeConnectionKind',
	filtered: 'multiposting.filtered',
} as const;

/** Setting keys, relative to the `multiposting` section. */
export const SETTINGS = {
	section: 'multiposting',
	connections: 'connections',
	activeConnection: 'activeConnection',
	progressNames: 'progressNames',
	pageSize: 'pageSize',
	requestTimeoutMs: 'requestTimeoutMs',
	sandboxSeed: 'sandbox.seed',
	sandboxPort: 'sandbox.port',
	playgroundCurlSecrets: 'playground.curlSecrets',
	sandboxLoose: 'sandbox.loose',
} as const;

/** Name of the output channel that logs every exchange. */
export const LOG_CHANNEL_NAME = 'Multiposting';
