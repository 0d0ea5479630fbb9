/** Every identifier the extension contributes: commands, views, context keys and settings. */

/** Command ids, `multiposting.<area>.<verb>`: every command of the extension, whoever registers it. */
export const COMMANDS = {
	connectionAdd: 'multiposting.connection.add',
	connectionEdit: 'multiposting.connection.edit',
	connectionRemove: 'multiposting.connection.remove',
	connectionTest: 'multiposting.connection.test',
	connectionSelect: 'multiposting.connection.select',
	sandboxStart: 'multiposting.sandbox.start',
	sandboxStop: 'multiposting.sandbox.stop',
	sandboxReset: 'multiposting.sandbox.reset',
	sandboxUsePort: 'multiposting.sandbox.usePort',
	sandboxChangePort: 'multiposting.sandbox.changePort',
	sandboxScenarios: 'multiposting.sandbox.scenarios',
	sandboxScenariosOff: 'multiposting.sandbox.scenariosOff',
	treeRefresh: 'multiposting.tree.refresh',
	treeRefreshNode: 'multiposting.tree.refreshNode',
	treeLoadMore: 'multiposting.tree.loadMore',
	treeFilter: 'multiposting.tree.filter',
	treeClearFilter: 'multiposting.tree.clearFilter',
	treeFind: 'multiposting.tree.find',
	treeFindInOrganisation: 'multiposting.tree.findInOrganisation',
	treeShowOrganisation: 'multiposting.tree.showOrganisation',
	treeRetry: 'multiposting.tree.retry',
	/** Run by a click or Enter on an advert or application row: opens it in the preview panel. */
	treeOpen: 'multiposting.tree.open',
	applicationScore: 'multiposting.application.score',
	applicationScoreSuitable: 'multiposting.application.scoreSuitable',
	applicationScoreMaybe: 'multiposting.application.scoreMaybe',
	applicationScoreUnsuitable: 'multiposting.application.scoreUnsuitable',
	applicationScoreFavourite: 'multiposting.application.scoreFavourite',
	applicationScoreNone: 'multiposting.application.scoreNone',
	applicationProgress: 'multiposting.application.progress',
	applicationAddNote: 'multiposting.application.addNote',
	applicationTag: 'multiposting.application.tag',
	applicationPartnerTag: 'multiposting.application.partnerTag',
	applicationCopyId: 'multiposting.application.copyId',
	applicationShowDetails: 'multiposting.application.showDetails',
	applicationNext: 'multiposting.application.next',
	applicationPrevious: 'multiposting.application.previous',
	advertExpressPost: 'multiposting.advert.expressPost',
	advertCreate: 'multiposting.advert.create',
	advertShowDeliveryLog: 'multiposting.advert.showDeliveryLog',
	advertCopyId: 'multiposting.advert.copyId',
	advertShowDetails: 'multiposting.advert.showDetails',
	accountOpenWebInterface: 'multiposting.account.openWebInterface',
	accountShowFeeds: 'multiposting.account.showFeeds',
	logShow: 'multiposting.log.show',
	/** Pins the preview panel (as "Keep Open" pins a preview editor). */
	panelKeepOpen: 'multiposting.panel.keepOpen',
	playgroundOpen: 'multiposting.playground.open',
	playgroundOpenRequestFile: 'multiposting.playground.openRequestFile',
	playgroundSendRequestFile: 'multiposting.playground.sendRequestFile',
	playgroundOpenWsdl: 'multiposting.playground.openWsdl',
	playgroundClearHistory: 'multiposting.playground.clearHistory',
	playgroundOpenFor: 'multiposting.playground.openFor',
	requestFileRunTest: 'multiposting.requestFile.runTest',
	requestFileRunAll: 'multiposting.requestFile.runAll',
	requestFileCopyAs: 'multiposting.requestFile.copyAs',
	requestFileCompareWith: 'multiposting.requestFile.compareWith',
	requestFileShowExchange: 'multiposting.requestFile.showExchange',
	requestFileSelectEnvironment: 'multiposting.requestFile.selectEnvironment',
	requestFileSetEnvironmentSecrets: 'multiposting.requestFile.setEnvironmentSecrets',
	trafficAttach: 'multiposting.traffic.attach',
	trafficFilter: 'multiposting.traffic.filter',
	trafficClearFilter: 'multiposting.traffic.clearFilter',
	trafficPause: 'multiposting.traffic.pause',
	trafficResume: 'multiposting.traffic.resume',
	trafficClear: 'multiposting.traffic.clear',
	/** Run by a click or Enter on a row of the Traffic view. */
	trafficOpen: 'multiposting.traffic.open',
	trafficOpenInPlayground: 'multiposting.traffic.openInPlayground',
	trafficSaveAsRequestTest: 'multiposting.traffic.saveAsRequestTest',
	trafficCopyAsCurl: 'multiposting.traffic.copyAsCurl',
	trafficCompareWith: 'multiposting.traffic.compareWith',
	trafficSaveAsRecording: 'multiposting.traffic.saveAsRecording',
	trafficCheckDrift: 'multiposting.traffic.checkDrift',
	inspectStart: 'multiposting.inspect.start',
	inspectStop: 'multiposting.inspect.stop',
	inspectCopyUrl: 'multiposting.inspect.copyUrl',
	/** The status bar item's menu while inspecting. */
	inspectMenu: 'multiposting.inspect.menu',
	replayStart: 'multiposting.replay.start',
	replayStop: 'multiposting.replay.stop',
	replayMenu: 'multiposting.replay.menu',
	driftCheck: 'multiposting.drift.check',
	driftCompare: 'multiposting.drift.compare',
	driftCopyIssue: 'multiposting.drift.copyIssue',
	breakpointsAdd: 'multiposting.breakpoints.add',
	breakpointsClear: 'multiposting.breakpoints.clear',
	breakpointsMenu: 'multiposting.breakpoints.menu',
	heldSend: 'multiposting.held.send',
	heldFault: 'multiposting.held.fault',
	heldRelease: 'multiposting.held.release',
} as const;

export const ACCOUNT_VIEW_ID = 'multiposting.account';
/** The Traffic view: the sandbox's journal, live. */
export const TRAFFIC_VIEW_ID = 'multiposting.traffic';

/** View types of the webview panels (also used in `when` clauses: activeWebviewPanelId). */
export const VIEW_TYPES = {
	advert: 'multiposting.advertDetails',
	application: 'multiposting.applicationDetails',
	createAdvert: 'multiposting.createAdvert',
	playground: 'multiposting.playground',
} as const;

/** Context keys set with setContext, used by `when` clauses (viewsWelcome, menus, keybindings). */
export const CONTEXT_KEYS = {
	sandboxState: 'multiposting.sandboxState',
	/** True while the sandbox injects failures on purpose (failure scenarios on). */
	scenariosActive: 'multiposting.scenariosActive',
	activeKind: 'multiposting.activeConnectionKind',
	filtered: 'multiposting.filtered',
	/** The kind of the tree's selected row (application, advert, ...), for keybindings. */
	selectionKind: 'multiposting.selectionKind',
	/** True while the active editor is a preview panel (it can be kept open). */
	previewActive: 'multiposting.previewActive',
	trafficPaused: 'multiposting.trafficPaused',
	trafficFiltered: 'multiposting.trafficFiltered',
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
