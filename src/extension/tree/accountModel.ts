/**
 * The data behind the account tree: which nodes exist, how their children load (a page at a time),
 * filters, partial refresh after an action, and locating an advert or application for "Find".
 * Free of 'vscode' so it runs against the real emulator in unit tests.
 */
import type { MultipostingClient } from '../../client';
import type { Advert, APIApplication } from '../../protocol/catalogue';
import { progressChoices, type ProgressChoice } from '../actions/progressNames';
import { describeFailure } from '../logging/describe';
import { OrganisationDirectory } from '../reads/organisations';
import { advertById, applicationById } from '../reads/queries';
import type { ConnectionInfo } from '../services';
import { portConflictRows } from '../sandbox/portConflict';
import { TRANSITIONAL_STATES } from '../sandbox/sandboxManager';
import type { LogPort } from '../ui/port';
import { Emitter, type Event } from '../util/emitter';
import { readChildren } from './childReads';
import { TreeLocator } from './locator';
import {
	advertDescriptor,
	applicationDescriptor,
	connectionDescriptor,
	hasApplicationFilters,
	errorDescriptor,
	loadMoreDescriptor,
	messageDescriptor,
	actionDescriptor,
	noteDescriptor,
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
	| { kind: 'message' }
	| { kind: 'action' };

/** A node of the tree. Objects are stable: a refresh updates them in place. */
export interface TreeNode {
	descriptor: NodeDescriptor;
	data: NodeData;
	parent?: TreeNode;
}

interface ChildState {
	items: TreeNode[];
	/** Said above the items (why a level is not what the user might expect). */
	note?: string;
	/** The next page to load; undefined when all are loaded. */
	nextPage?: number;
	total?: number;
	error?: string;
}

export interface AccountModelOptions {
	client: () => Promise<MultipostingClient>;
	connection: () => ConnectionInfo;
	sandboxState: () => string | undefined;
	/** Why the sandbox last failed, when it did (a taken port is explained in the view). */
	sandboxFailure?: () => unknown;
	/** Names of the failure scenarios on in the sandbox, shown on its row. */
	activeScenarios?: () => readonly string[];
	pageSize: () => number;
	progressNames: () => unknown;
	log: LogPort;
	/** The user's locale for dates in rows and tooltips (VS Code's display language). */
	locale?: string;
}

export class AccountModel {
	private root?: TreeNode;
	private readonly children = new Map<TreeNode, ChildState>();
	private readonly loading = new Map<TreeNode, Promise<void>>();
	/** Counts refreshes: a load begun before one is stale and thrown away, error and all. */
	private generation = 0;
	private filtersValue: TreeFilters = {};
	/** The organisations as read since the last refresh. */
	private directory?: OrganisationDirectory;
	private readonly changeEmitter = new Emitter<TreeNode | undefined>();
	/** A node (or the whole tree, undefined) whose children or look changed. */
	readonly onDidChange: Event<TreeNode | undefined> = this.changeEmitter.event;
	private readonly locator = new TreeLocator({
		roots: () => this.roots(),
		getChildren: (node) => this.getChildren(node),
		loaded: (node) => this.children.get(node),
		loadNextPage: async (node) => {
			await this.loadPage(node);
			this.changeEmitter.fire(node);
		},
		contains: async (organisationId, inside) => this.directory?.contains(organisationId, inside),
		client: () => this.options.client(),
	});

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
		// A stopped sandbox shows the view's welcome (Start Sandbox, Add Connection) instead of starting by itself;
		// one that failed on a taken port shows the cause and the ways out under its row.
		const portRows = sandboxState === 'failed' ? portConflictRows(this.options.sandboxFailure?.()) : undefined;
		if (sandboxState === 'stopped' || (sandboxState === 'failed' && !portRows)) {
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
		if (node === this.root && this.sandboxInTransition()) {
			// Stopping, resetting or starting: nothing to read yet, and no error for what the user asked for.
			return [];
		}
		if (node === this.root && this.options.sandboxState() === 'failed') {
			const rows = portConflictRows(this.options.sandboxFailure?.()) ?? [];
			return rows.map((row, i) => ({
				descriptor: actionDescriptor(node.descriptor.id, row, i),
				data: { kind: row.command ? 'action' : 'message' },
				parent: node,
			}));
		}
		if (!this.children.has(node)) {
			await this.loadPage(node);
		}
		const state = this.children.get(node);
		if (!state) {
			return [];
		}
		const note: TreeNode[] =
			state.note === undefined
				? []
				: [
						{
							descriptor: noteDescriptor(node.descriptor.id, state.note),
							data: { kind: 'message' },
							parent: node,
						},
					];
		if (state.error !== undefined) {
			return [
				...note,
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
		return [...note, ...state.items, ...extra];
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
		this.generation++;
		this.children.clear();
		this.directory = undefined;
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
			const fresh = await applicationById(client, {
				advertCandidateId: change.advertCandidateId,
				advertId: change.advertId,
			});
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
			const fresh = await advertById(client, change.advertId);
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

	/** The node of an advert Find found, loading the levels above it (undefined when not in the tree). */
	locateAdvert(advert: Advert): Promise<TreeNode | undefined> {
		return this.locator.locateAdvert(advert);
	}

	locateApplication(application: APIApplication): Promise<TreeNode | undefined> {
		return this.locator.locateApplication(application);
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

	private sandboxInTransition(): boolean {
		return (
			this.options.connection().kind === 'sandbox' && TRANSITIONAL_STATES.has(this.options.sandboxState() ?? '')
		);
	}

	private async loadPageOnce(node: TreeNode): Promise<void> {
		const previous = this.children.get(node);
		const page = previous?.error !== undefined ? (previous.nextPage ?? 1) : (previous?.nextPage ?? 1);
		const generation = this.generation;
		try {
			const client = await this.options.client();
			const loaded = await readChildren(
				{
					client,
					connectionId: this.connectionId(),
					pageSize: this.options.pageSize(),
					filters: this.filtersValue,
					locale: this.options.locale,
					progress: () => this.progress(),
					directory: (connection) => this.organisationDirectory(connection),
					connection: () => this.options.connection(),
				},
				node.data,
				page,
			);
			if (generation !== this.generation) return;
			const items = loaded.items.map((child) => ({ ...child, parent: node }));
			const all = [...(previous?.items ?? []), ...items];
			const more = loaded.pageCount !== undefined && page < loaded.pageCount && items.length > 0;
			this.children.set(node, {
				items: all,
				nextPage: more ? page + 1 : undefined,
				total: loaded.total,
				note: loaded.note,
			});
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
			if (generation !== this.generation) return;
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

	/** The organisations as read since the last refresh (read again after one). */
	private organisationDirectory(connection: ConnectionInfo): OrganisationDirectory {
		this.directory ??= new OrganisationDirectory(this.options.client, connection, this.options.log);
		return this.directory;
	}
}
