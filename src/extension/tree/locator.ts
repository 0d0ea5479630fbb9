/**
 * Finds the row of an advert or application that Find found, loading the levels above it on the way:
 * the organisations down to its owner's, the user, and pages of adverts or applications (bounded).
 */
import type { MultipostingClient } from '../../client';
import type { Advert, APIApplication } from '../../protocol/catalogue';
import { advertById } from '../reads/queries';
import type { TreeNode } from './accountModel';

/** Bound on the pages read while locating an item for "Find". */
const MAX_LOCATE_PAGES = 50;

/** What locating needs of the account model. */
export interface LocatedTree {
	roots(): TreeNode[];
	getChildren(node: TreeNode): Promise<TreeNode[]>;
	/** The children loaded so far, and the next page when there is one. */
	loaded(node: TreeNode): { items: TreeNode[]; nextPage?: number } | undefined;
	/** Loads the next page of a node's children (and redraws it). */
	loadNextPage(node: TreeNode): Promise<void>;
	/** True when one organisation lies below another (or is it), as far as the tree has read. */
	contains(organisationId: number, inside: number): Promise<boolean | undefined>;
	client(): Promise<MultipostingClient>;
}

export class TreeLocator {
	constructor(private readonly tree: LocatedTree) {}

	/**
	 * The node of an advert, loading the organisations, users and advert pages on the way (bounded).
	 * Undefined when the advert's owner is not in the tree.
	 */
	async locateAdvert(advert: Advert): Promise<TreeNode | undefined> {
		const org = await this.locateOrganisation(advert.OrganisationID);
		if (!org) return undefined;
		const users = await this.tree.getChildren(org);
		const user = users.find((n) => n.data.kind === 'user' && n.data.user.userId === advert.UserID);
		if (!user) return undefined;
		return this.locateChild(user, (n) => n.data.kind === 'advert' && n.data.advert.AdvertID === advert.AdvertID);
	}

	async locateApplication(application: APIApplication): Promise<TreeNode | undefined> {
		const client = await this.tree.client();
		const advert = application.AdvertID === undefined ? undefined : await advertById(client, application.AdvertID);
		const advertNode = advert ? await this.locateAdvert(advert) : undefined;
		if (!advertNode) return undefined;
		return this.locateChild(
			advertNode,
			(n) =>
				n.data.kind === 'application' && n.data.application.AdvertCandidateID === application.AdvertCandidateID,
		);
	}

	/** The node of an organisation, loading the levels above it (each one's directory answer is cached). */
	private async locateOrganisation(organisationId: number | undefined): Promise<TreeNode | undefined> {
		const [root] = this.tree.roots();
		if (!root || organisationId === undefined) return undefined;
		let level = await this.tree.getChildren(root);
		const seen = new Set<TreeNode>();
		for (;;) {
			const organisations = level.filter((n) => n.data.kind === 'organisation' && !seen.has(n));
			const found = organisations.find(
				(n) => n.data.kind === 'organisation' && n.data.organisation.organisationId === organisationId,
			);
			if (found) return found;
			let above: TreeNode | undefined;
			for (const node of organisations) {
				seen.add(node);
				if (
					node.data.kind === 'organisation' &&
					(await this.tree.contains(node.data.organisation.organisationId, organisationId))
				) {
					above = node;
					break;
				}
			}
			if (!above) return undefined;
			level = await this.tree.getChildren(above);
		}
	}

	private async locateChild(parent: TreeNode, predicate: (n: TreeNode) => boolean): Promise<TreeNode | undefined> {
		await this.tree.getChildren(parent);
		for (let pages = 0; pages < MAX_LOCATE_PAGES; pages++) {
			const state = this.tree.loaded(parent);
			const found = state?.items.find(predicate);
			if (found || state?.nextPage === undefined) return found;
			await this.tree.loadNextPage(parent);
		}
		return undefined;
	}
}
