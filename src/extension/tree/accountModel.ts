/**
 * The data behind the account tree: which nodes exist, how their children load (a page at a time),
 * filters, partial refresh after an action, and locating an advert or application for "Find".
 * Free of 'vscode' so it runs against the real emulator in unit tests.
 */
import type { MultipostingClient } from '../../client';
import type { Advert, APIApplication, CUser } from '../../protocol/catalogue';
import { progressChoices, type ProgressChoice } from '../actions/progressNames';
import { describeFailure } from '../logging/describe';
import type { ConnectionInfo } from '../services';
import type { LogPort } from '../ui/port';
import { Emitter, type Event } from '../util/emitter';
import {
	advertDescriptor,
	applicationDescriptor,
	APPLICATION_ORDERS,
	connectionDescriptor,
	deriveOrganisations,
	hasAdvertFilters,
	hasApplicationFilters,
	errorDescriptor,
	loadMoreDescriptor,
	messageDescriptor,
	organisationDescriptor,
	userDescriptor,
	type AdvertRowContext,
	type NodeDescriptor,
	type OrganisationSummary,
	type TreeFilters,
	type UserSummary,
} from './descriptors';

/** What each kind of node carries. */
export type NodeData =
	| { kind: 'connection'; connection: ConnectionInfo }
	| { kind: 'organisation'; organisation: OrganisationSummary }
	| { kind: 'user'; user: UserSummary; advertCount?: number }
	| { kind: 'advert'; advert: Advert }
	| { kind: 'application'; application: APIApplication }
	| { kind: 'loadMore' }
	| { kind: 'error'; message: string }
	| { kind: 'message' };

/** A node of the tree. Objects are stable: a refresh updates them in place. */
export interface TreeNode {
	descriptor: NodeDescriptor;
	data: NodeData;
	parent?: TreeNode;
}

interface ChildState {
	items: TreeNode[];
	/** The next page to load; undefined when all are loaded. */
	nextPage?: number;
	total?: number;
	error?: string;
}

export interface AccountModelOptions {
	client: () => Promise<MultipostingClient>;
	connection: () => ConnectionInfo;
	sandboxState: () => string | undefined;
	/** Names of the failure scenarios on in the sandbox, shown on its row. */
	activeScenarios?: () => readonly string[];
	pageSize: () => number;
	progressNames: () => unknown;
	log: LogPort;
	/** The user's locale for dates in rows and tooltips (VS Code's display language). */
	locale?: string;
}

/** The earliest application date used when a search needs a time period. */
const ALL_TIME_START = '2000-01-01 00:00:00';
/**
 * Days of applications asked for first when naming an organisation. A search over all dates makes
 * the service count every application of the user (seconds on a large account), while recent
 * applications usually exist and are few; all dates are asked for only when there are none.
 */
const RECENT_APPLICATION_DAYS = 30;
/** Bound on the pages read while locating an item for "Find". */
const MAX_LOCATE_PAGES = 50;

export class AccountModel {
	private root?: TreeNode;
	private readonly children = new Map<TreeNode, ChildState>();
	private readonly loading = new Map<TreeNode, Promise<void>>();
	private filtersValue: TreeFilters = {};
	private readonly changeEmitter = new Emitter<TreeNode | undefined>();
	/** A node (or the whole tree, undefined) whose children or look changed. */
	readonly onDidChange: Event<TreeNode | undefined> = this.changeEmitter.event;

	constructor(private readonly options: AccountModelOptions) {}

	get filters(): TreeFilters {
		return { ...this.filtersValue };
	}

	setFilters(filters: TreeFilters): void {
		this.filtersValue = Object.fromEntries(
			Object.entries(filters).filter(([, v]) => typeof v === 'string' && v.trim() !== ''),
		) as TreeFilters;
		this.refresh();
	}

	progress(): ProgressChoice[] {
		return progressChoices(this.options.progressNames());
	}

	/** The root nodes: the active connection. */
	roots(): TreeNode[] {
		const connection = this.options.connection();
		const sandboxState = connection.kind === 'sandbox' ? this.options.sandboxState() : undefined;
		// A stopped sandbox shows the view's welcome (Start Sandbox, Add Connection) instead of starting by itself.
		if (sandboxState === 'stopped' || sandboxState === 'failed') {
			this.root = undefined;
			this.children.clear();
			return [];
		}
		const descriptor = connectionDescriptor(
			connection,
			connection.kind === 'sandbox' ? this.options.sandboxState() : undefined,
			connection.kind === 'sandbox' ? this.options.activeScenarios?.() : undefined,
		);
		if (this.root && this.root.descriptor.id === descriptor.id) {
			this.root.descriptor = descriptor;
			this.root.data = { kind: 'connection', connection };
		} else {
			this.root = { descriptor, data: { kind: 'connection', connection } };
			this.children.clear();
		}
		return [this.root];
	}

	/** The children of a node, loading the first page when needed. Errors become an error node. */
	async getChildren(node?: TreeNode): Promise<TreeNode[]> {
		if (!node) {
			return this.roots();
		}
		if (!this.children.has(node)) {
			await this.loadPage(node);
		}
		const state = this.children.get(node);
		if (!state) {
			return [];
		}
		if (state.error !== undefined) {
			return [
				...state.items,
				{
					descriptor: errorDescriptor(node.descriptor.id, state.error),
					data: { kind: 'error', message: state.error },
					parent: node,
				},
			];
		}
		const extra: TreeNode[] = [];
		if (state.nextPage !== undefined) {
			extra.push({
				descriptor: loadMoreDescriptor(node.descriptor.id, state.items.length, state.total),
				data: { kind: 'loadMore' },
				parent: node,
			});
		} else if (state.items.length === 0) {
			extra.push({
				descriptor: messageDescriptor(node.descriptor.id, this.emptyText(node)),
				data: { kind: 'message' },
				parent: node,
			});
		}
		return [...state.items, ...extra];
	}

	/** Loads the next page of a node's children (the "Load more…" node's parent). */
	async loadMore(parent: TreeNode): Promise<void> {
		const state = this.children.get(parent);
		if (state?.nextPage === undefined && state?.error === undefined) {
			return;
		}
		await this.loadPage(parent);
		this.changeEmitter.fire(parent === this.root ? undefined : parent);
	}

	/** Forgets everything loaded: the whole tree reloads. */
	refresh(): void {
		this.children.clear();
		this.changeEmitter.fire(undefined);
	}

	/** Redraws the tree without reloading (e.g. the connection's label changed). */
	touch(): void {
		this.changeEmitter.fire(undefined);
	}

	/** Forgets the children of one node, which reloads when shown. */
	refreshNode(node: TreeNode): void {
		this.forget(node);
		this.changeEmitter.fire(node === this.root ? undefined : node);
	}

	/** Re-reads only what an action changed: the application's node and its advert's counts. */
	async dataChanged(change: { advertId?: number; advertCandidateId?: number }): Promise<void> {
		const client = await this.options.client();
		const applicationNodes = this.findNodes(
			(n) => n.data.kind === 'application' && n.data.application.AdvertCandidateID === change.advertCandidateId,
		);
		const advertNodes = this.findNodes(
			(n) => n.data.kind === 'advert' && n.data.advert.AdvertID === change.advertId,
		);
		if (change.advertId !== undefined && advertNodes.length === 0 && change.advertCandidateId === undefined) {
			// A new advert: reload the users' advert lists.
			for (const user of this.findNodes((n) => n.data.kind === 'user')) {
				this.refreshNode(user);
			}
			return;
		}
		if (applicationNodes.length > 0 && change.advertCandidateId !== undefined) {
			const page = await client.getApplicationsPaged({
				AdvertCandidateIDAsCSV: String(change.advertCandidateId),
				sAdvertID: change.advertId !== undefined ? String(change.advertId) : undefined,
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			const fresh = page.Applications?.[0];
			for (const node of applicationNodes) {
				if (fresh) {
					node.data = { kind: 'application', application: fresh };
					node.descriptor = applicationDescriptor(
						this.connectionId(),
						fresh,
						this.progress(),
						this.options.locale,
					);
				}
				this.changeEmitter.fire(node);
			}
		}
		if (advertNodes.length > 0 && change.advertId !== undefined) {
			const page = await client.getAdvertPaged({
				sAdvertID: String(change.advertId),
				sSearchDays: '-1',
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			const fresh = page.Adverts?.[0];
			for (const node of advertNodes) {
				if (fresh) {
					node.data = { kind: 'advert', advert: fresh };
					this.describeAdvert(node);
				}
				this.changeEmitter.fire(node);
			}
		}
	}

	/** Every loaded node matching a predicate. */
	findNodes(predicate: (node: TreeNode) => boolean): TreeNode[] {
		const found: TreeNode[] = [];
		for (const state of this.children.values()) {
			found.push(...state.items.filter(predicate));
		}
		return found;
	}

	/**
	 * The node of an advert, loading the organisations, users and advert pages on the way (bounded).
	 * Undefined when the advert's owner is not in the tree.
	 */
	async locateAdvert(advert: Advert): Promise<TreeNode | undefined> {
		const [root] = this.roots();
		if (!root) return undefined;
		const orgs = await this.getChildren(root);
		const org = orgs.find(
			(n) => n.data.kind === 'organisation' && n.data.organisation.organisationId === advert.OrganisationID,
		);
		if (!org) return undefined;
		const users = await this.getChildren(org);
		const user = users.find((n) => n.data.kind === 'user' && n.data.user.userId === advert.UserID);
		if (!user) return undefined;
		return this.locateChild(user, (n) => n.data.kind === 'advert' && n.data.advert.AdvertID === advert.AdvertID);
	}

	async locateApplication(application: APIApplication): Promise<TreeNode | undefined> {
		const client = await this.options.client();
		const page = await client.getAdvertPaged({
			sAdvertID: String(application.AdvertID),
			sSearchDays: '-1',
			CurrentPage: 1,
			RowsPerPage: 1,
		});
		const advert = page.Adverts?.[0];
		const advertNode = advert ? await this.locateAdvert(advert) : undefined;
		if (!advertNode) return undefined;
		return this.locateChild(
			advertNode,
			(n) =>
				n.data.kind === 'application' && n.data.application.AdvertCandidateID === application.AdvertCandidateID,
		);
	}

	/** A panel read an advert afresh: its rows show the new counts and posting state, without reloading. */
	advertSeen(advert: Advert): void {
		for (const node of this.findNodes(
			(n) => n.data.kind === 'advert' && n.data.advert.AdvertID === advert.AdvertID,
		)) {
			const before = JSON.stringify(node.descriptor);
			node.data = { kind: 'advert', advert };
			this.describeAdvert(node);
			if (JSON.stringify(node.descriptor) !== before) this.changeEmitter.fire(node);
		}
	}

	/**
	 * The row after (step 1) or before (step -1) a row among its parent's loaded children, loading the
	 * next page when the step passes the last loaded row. Only rows of the same kind count.
	 */
	async sibling(node: TreeNode, step: 1 | -1): Promise<TreeNode | undefined> {
		const parent = node.parent;
		if (!parent) return undefined;
		const indexIn = (items: TreeNode[]) => items.findIndex((n) => n.descriptor.id === node.descriptor.id);
		let state = this.children.get(parent);
		if (!state) return undefined;
		const index = indexIn(state.items);
		if (index < 0) return undefined;
		const target = index + step;
		if (target < 0) return undefined;
		if (target >= state.items.length && state.nextPage !== undefined && state.error === undefined) {
			await this.loadPage(parent);
			this.changeEmitter.fire(parent === this.root ? undefined : parent);
			state = this.children.get(parent);
		}
		const found = state?.items[target];
		return found && found.data.kind === node.data.kind ? found : undefined;
	}

	/** The loaded row of an application, if the tree has it. */
	applicationNode(advertCandidateId: number): TreeNode | undefined {
		return this.findNodes(
			(n) => n.data.kind === 'application' && n.data.application.AdvertCandidateID === advertCandidateId,
		)[0];
	}

	dispose(): void {
		this.changeEmitter.dispose();
	}

	private async locateChild(parent: TreeNode, predicate: (n: TreeNode) => boolean): Promise<TreeNode | undefined> {
		await this.getChildren(parent);
		for (let pages = 0; pages < MAX_LOCATE_PAGES; pages++) {
			const state = this.children.get(parent);
			const found = state?.items.find(predicate);
			if (found || state?.nextPage === undefined) return found;
			await this.loadPage(parent);
			this.changeEmitter.fire(parent);
		}
		return undefined;
	}

	/** Recomputes an advert row's descriptor from its data, its siblings and its loaded children. */
	private describeAdvert(node: TreeNode): void {
		if (node.data.kind !== 'advert') return;
		const advert = node.data.advert;
		const siblings = node.parent ? (this.children.get(node.parent)?.items ?? []) : [];
		const title = advert.AdvertTitle?.trim().toLowerCase();
		const row: AdvertRowContext = {
			duplicateTitle:
				!!title &&
				siblings.some(
					(n) =>
						n !== node &&
						n.data.kind === 'advert' &&
						n.data.advert.AdvertTitle?.trim().toLowerCase() === title,
				),
			applicationsFiltered: hasApplicationFilters(this.filtersValue),
			matching: this.children.get(node)?.total,
			locale: this.options.locale,
		};
		const collapsible = node.descriptor.collapsible;
		node.descriptor = advertDescriptor(this.connectionId(), advert, row);
		// Keep an expanded advert expandable.
		if (this.children.has(node) && collapsible !== 'none') node.descriptor.collapsible = collapsible;
	}

	private forget(node: TreeNode): void {
		const state = this.children.get(node);
		this.children.delete(node);
		for (const child of state?.items ?? []) this.forget(child);
	}

	private connectionId(): string {
		return this.options.connection().id;
	}

	private emptyText(node: TreeNode): string {
		switch (node.data.kind) {
			case 'connection':
				return 'No organisations are visible to this login';
			case 'organisation':
				return 'No users';
			case 'user':
				return this.filtersValue.searchDays || this.filtersValue.advertStatusIds
					? 'No adverts match the filters'
					: 'No adverts';
			case 'advert':
				return hasApplicationFilters(this.filtersValue)
					? 'No applications match the filter'
					: 'No applications';
			default:
				return 'Nothing here';
		}
	}

	/** Loads one page of a node's children; concurrent calls for a node share one load. */
	private loadPage(node: TreeNode): Promise<void> {
		let pending = this.loading.get(node);
		if (!pending) {
			pending = this.loadPageOnce(node).finally(() => this.loading.delete(node));
			this.loading.set(node, pending);
		}
		return pending;
	}

	private async loadPageOnce(node: TreeNode): Promise<void> {
		const previous = this.children.get(node);
		const page = previous?.error !== undefined ? (previous.nextPage ?? 1) : (previous?.nextPage ?? 1);
		try {
			const client = await this.options.client();
			const loaded = await this.fetch(client, node, page);
			const items = loaded.items.map((child) => ({ ...child, parent: node }));
			const all = [...(previous?.items ?? []), ...items];
			const more = loaded.pageCount !== undefined && page < loaded.pageCount && items.length > 0;
			this.children.set(node, { items: all, nextPage: more ? page + 1 : undefined, total: loaded.total });
			if (node.data.kind === 'user') {
				for (const advert of all) this.describeAdvert(advert);
			}
			if (node.data.kind === 'advert' && hasApplicationFilters(this.filtersValue)) {
				// The row now says how many of its applications match the filter.
				const before = node.descriptor.description;
				this.describeAdvert(node);
				if (node.descriptor.description !== before) this.changeEmitter.fire(node);
			}
		} catch (error) {
			const message = describeFailure(`Loading ${node.descriptor.label}`, error);
			this.options.log.error(message);
			this.children.set(node, {
				items: previous?.items ?? [],
				nextPage: page,
				total: previous?.total,
				error: message,
			});
		}
	}

	private async fetch(
		client: MultipostingClient,
		node: TreeNode,
		page: number,
	): Promise<{ items: TreeNode[]; pageCount?: number; total?: number }> {
		const connectionId = this.connectionId();
		const pageSize = Math.max(1, Math.min(500, Math.floor(this.options.pageSize()) || 50));
		const data = node.data;
		switch (data.kind) {
			case 'connection': {
				const organisations = await this.organisations(client, data.connection);
				return {
					items: organisations.map((organisation) => ({
						descriptor: organisationDescriptor(connectionId, organisation),
						data: { kind: 'organisation', organisation },
					})),
				};
			}
			case 'organisation': {
				const counts = await Promise.all(
					data.organisation.users.map((user) => this.advertCount(client, user).catch(() => undefined)),
				);
				return {
					items: data.organisation.users.map((user, i) => ({
						descriptor: userDescriptor(connectionId, user, counts[i], hasAdvertFilters(this.filtersValue)),
						data: { kind: 'user', user, advertCount: counts[i] },
					})),
				};
			}
			case 'user': {
				const result = await client.getAdvertPaged({
					...this.advertScope(data.user),
					...this.advertFilters(),
					CurrentPage: page,
					RowsPerPage: pageSize,
				});
				const adverts = result.Adverts ?? [];
				return {
					items: adverts.map((advert) => ({
						descriptor: advertDescriptor(connectionId, advert, { locale: this.options.locale }),
						data: { kind: 'advert', advert },
					})),
					pageCount: result.PageCount,
					total: result.TotalItemCount,
				};
			}
			case 'advert': {
				const result = await client.getApplicationsPaged({
					sAdvertID: String(data.advert.AdvertID),
					...this.applicationFilters(),
					CurrentPage: page,
					RowsPerPage: pageSize,
				});
				const applications = result.Applications ?? [];
				const progress = this.progress();
				return {
					items: applications.map((application) => ({
						descriptor: applicationDescriptor(connectionId, application, progress, this.options.locale),
						data: { kind: 'application', application },
					})),
					pageCount: result.PageCount,
					total: result.TotalItemCount,
				};
			}
			default:
				return { items: [] };
		}
	}

	/**
	 * Organisations: from UserList when the login is an administrator, else from the adverts the
	 * login can see; named from applications (OrganisationName).
	 */
	private async organisations(
		client: MultipostingClient,
		connection: ConnectionInfo,
	): Promise<OrganisationSummary[]> {
		let users: CUser[] = [];
		let adverts: Advert[] = [];
		try {
			users = await client.userList({ sStartOrganisation: connection.startOrganisation });
		} catch (error) {
			this.options.log.info(
				`UserList is not available to this login (${error instanceof Error ? error.message : String(error)}); deriving organisations from adverts.`,
			);
			const page = await client.getAdvertPaged({
				sStartOrganisation: connection.startOrganisation,
				sSearchDays: '-1',
				CurrentPage: 1,
				RowsPerPage: 500,
			});
			adverts = page.Adverts ?? [];
		}
		const found = deriveOrganisations(users, adverts);
		// An application on an advert of one of the organisation's users reveals the organisation's name.
		const recentStart = serviceDateTime(new Date(Date.now() - RECENT_APPLICATION_DAYS * 86_400_000));
		const named = await Promise.all(
			found.map(async (org) => {
				for (const user of org.users.slice(0, 3)) {
					for (const start of [recentStart, ALL_TIME_START]) {
						try {
							const page = await client.getApplicationsPaged({
								...this.advertScope(user),
								sApplicationStartDateTime: start,
								CurrentPage: 1,
								RowsPerPage: 1,
							});
							const found = (page.Applications ?? []).filter(
								(a) => a.OrganisationID === org.organisationId && a.OrganisationName,
							);
							if (found.length > 0) return found;
							if ((page.TotalItemCount ?? 0) > 0) break; // The user's applications are on another organisation's adverts.
						} catch {
							// The name is a nicety; the id label stays.
							break;
						}
					}
				}
				return [];
			}),
		);
		const organisations = deriveOrganisations(users, adverts, named.flat());
		// The login's own organisation first: the others are usually below it (the service names no parents).
		const own = users.find((u) => u.Username && u.Username === connection.username)?.OrganisationID;
		return [
			...organisations.filter((o) => o.organisationId === own),
			...organisations.filter((o) => o.organisationId !== own),
		];
	}

	private async advertCount(client: MultipostingClient, user: UserSummary): Promise<number | undefined> {
		const page = await client.getAdvertPaged({
			...this.advertScope(user),
			...this.advertFilters(),
			CurrentPage: 1,
			RowsPerPage: 1,
		});
		return page.TotalItemCount;
	}

	private advertScope(user: UserSummary): { sUsername?: string; sUserIdentifier?: string } {
		return user.username ? { sUsername: user.username } : { sUserIdentifier: String(user.userId) };
	}

	private advertFilters(): { sSearchDays: string; sAdvertStatusIDs?: string } {
		return {
			sSearchDays: this.filtersValue.searchDays ?? '-1',
			sAdvertStatusIDs: this.filtersValue.advertStatusIds,
		};
	}

	private applicationFilters(): {
		RankingAsCSV?: string;
		ProgressIDAsCSV?: string;
		sApplicationStartDateTime?: string;
		sApplicationEndDateTime?: string;
		OrderBy?: string;
	} {
		const order = this.filtersValue.order ? APPLICATION_ORDERS[this.filtersValue.order] : undefined;
		return {
			OrderBy: order?.orderBy,
			RankingAsCSV: this.filtersValue.ranking,
			ProgressIDAsCSV: this.filtersValue.progressIds,
			sApplicationStartDateTime: this.filtersValue.applicationsFrom,
			sApplicationEndDateTime: this.filtersValue.applicationsTo,
		};
	}
}

/** A time as the service's date filters take it ("yyyy-MM-dd HH:mm:ss", UTC). */
function serviceDateTime(date: Date): string {
	return date.toISOString().slice(0, 19).replace('T', ' ');
}
