/**
 * The organisation hierarchy as the service reveals it. No operation names an organisation's parent,
 * but UserList limited with sStartOrganisation returns the users of that organisation's part of the
 * tree: an organisation whose users come back under another one lies below it. Derived lazily (one
 * UserList per organisation, and only for the levels shown) and kept for the life of one directory,
 * which the tree replaces on every refresh. An organisation is named (one sample application) only when
 * a level that shows it is read.
 */
import type { MultipostingClient } from '../../client';
import type { Advert, CUser } from '../../protocol/catalogue';
import { byOrganisationName, deriveOrganisations, type OrganisationSummary } from '../tree/descriptors';
import type { LogPort } from '../ui/port';
import { advertsUnder, ALL_TIME_START, applicationOfUserSince, usersUnder } from './queries';

/**
 * Days of applications asked for first when naming an organisation. A search over all dates makes
 * the service count every application of the user (seconds on a large account), while recent
 * applications usually exist and are few; all dates are asked for only when there are none.
 */
const RECENT_APPLICATION_DAYS = 30;

/** The login's part of the account: what the tree's connection node shows. */
export interface OrganisationLevel {
	organisations: OrganisationSummary[];
	/** Why the organisations are a flat list rather than the hierarchy, when they are. */
	flatBecause?: string;
}

export interface DirectoryLogin {
	startOrganisation?: string;
	username?: string;
}

export class OrganisationDirectory {
	private loaded?: Promise<{ byId: Map<number, OrganisationSummary>; own?: number; flatBecause?: string }>;
	private readonly subtrees = new Map<number, Promise<Set<number>>>();
	private readonly names = new Map<number, Promise<string | undefined>>();
	private hierarchyFailure?: string;

	constructor(
		private readonly client: () => Promise<MultipostingClient>,
		private readonly login: DirectoryLogin,
		private readonly log: LogPort,
	) {}

	/** The top level: organisations below no other visible one (or every one, flat, when the login cannot tell). */
	async top(): Promise<OrganisationLevel> {
		const { byId, own, flatBecause } = await this.load();
		const all = [...byId.values()];
		const ownFirst = (list: OrganisationSummary[]) => [
			...list.filter((o) => o.organisationId === own),
			...list.filter((o) => o.organisationId !== own),
		];
		if (flatBecause) return { organisations: ownFirst(await this.named(all)), flatBecause };
		try {
			const ids = await this.highest(ownFirst(all).map((o) => o.organisationId));
			return { organisations: ownFirst(await this.named(all.filter((o) => ids.has(o.organisationId)))) };
		} catch (error) {
			this.hierarchyFailure = `the hierarchy could not be read (${messageOf(error)})`;
			this.log.warn(`Organisations are shown as a flat list: ${this.hierarchyFailure}.`);
			return {
				organisations: ownFirst(await this.named(all)),
				flatBecause: `Flat list: ${this.hierarchyFailure}.`,
			};
		}
	}

	/** The organisations directly below one (empty when the hierarchy is not known). */
	async below(organisationId: number): Promise<OrganisationSummary[]> {
		const { byId, flatBecause } = await this.load();
		if (flatBecause || this.hierarchyFailure) return [];
		const subtree = await this.subtree(organisationId);
		const inside = [...byId.values()].filter(
			(o) => o.organisationId !== organisationId && subtree.has(o.organisationId),
		);
		const ids = await this.highest(inside.map((o) => o.organisationId));
		return this.named(inside.filter((o) => ids.has(o.organisationId)));
	}

	/** True when one organisation lies below another (or is it), as far as the hierarchy is known. */
	async contains(organisationId: number, inside: number): Promise<boolean> {
		const { flatBecause } = await this.load();
		if (flatBecause || this.hierarchyFailure) return organisationId === inside;
		return (await this.subtree(organisationId)).has(inside);
	}

	/** A known organisation by id. */
	async organisation(organisationId: number): Promise<OrganisationSummary | undefined> {
		const found = (await this.load()).byId.get(organisationId);
		return found && (await this.named([found]))[0];
	}

	/**
	 * Of a set of organisations, those below no other of the set. Each is asked for its part of the tree
	 * unless an earlier answer already placed it below another; in the order given (the login's own organisation first, which usually covers the rest).
	 */
	private async highest(candidates: number[]): Promise<Set<number>> {
		const asked = new Map<number, Set<number>>();
		for (const id of candidates) {
			if ([...asked].some(([other, subtree]) => other !== id && subtree.has(id))) continue;
			asked.set(id, await this.subtree(id));
		}
		return new Set(
			[...asked.keys()].filter((id) => ![...asked].some(([other, subtree]) => other !== id && subtree.has(id))),
		);
	}

	/** The organisations with users in one organisation's part of the tree (itself included). */
	private subtree(organisationId: number): Promise<Set<number>> {
		let pending = this.subtrees.get(organisationId);
		if (!pending) {
			pending = this.client()
				.then((client) => usersUnder(client, String(organisationId)))
				.then((users) => new Set([organisationId, ...users.map((u) => u.OrganisationID ?? organisationId)]));
			// A failure is not kept: the next expansion asks again.
			pending.catch(() => this.subtrees.delete(organisationId));
			this.subtrees.set(organisationId, pending);
		}
		return pending;
	}

	private load() {
		if (!this.loaded) {
			const loading = this.loadOnce();
			// A failure is not kept: a retry reads again.
			loading.catch(() => {
				if (this.loaded === loading) this.loaded = undefined;
			});
			this.loaded = loading;
		}
		return this.loaded;
	}

	/**
	 * Organisations: from UserList when the login is an administrator, else from the adverts the login
	 * can see (flat); named from applications (OrganisationName).
	 */
	private async loadOnce() {
		const client = await this.client();
		let users: CUser[] = [];
		let adverts: Advert[] = [];
		let flatBecause: string | undefined;
		try {
			users = await usersUnder(client, this.login.startOrganisation);
		} catch (error) {
			this.log.info(
				`UserList is not available to this login (${messageOf(error)}); deriving organisations from adverts.`,
			);
			adverts = await advertsUnder(client, this.login.startOrganisation);
			flatBecause = 'Flat list: this login cannot list users (UserList), so the hierarchy is not known.';
		}
		const organisations = deriveOrganisations(users, adverts);
		const own = users.find((u) => u.Username && u.Username === this.login.username)?.OrganisationID;
		return { byId: new Map(organisations.map((o) => [o.organisationId, o])), own, flatBecause };
	}

	/** The organisations of a level, each named (once per directory), in name order. */
	private async named(organisations: OrganisationSummary[]): Promise<OrganisationSummary[]> {
		await Promise.all(
			organisations.map(async (org) => {
				org.name ??= await this.nameOf(org);
			}),
		);
		return [...organisations].sort(byOrganisationName);
	}

	private nameOf(org: OrganisationSummary): Promise<string | undefined> {
		let pending = this.names.get(org.organisationId);
		if (!pending) {
			pending = this.client()
				.then((client) => this.nameFromApplications(client, org))
				.catch(() => undefined);
			this.names.set(org.organisationId, pending);
		}
		return pending;
	}

	/** An application on an advert of one of the organisation's users reveals the organisation's name. */
	private async nameFromApplications(
		client: MultipostingClient,
		org: OrganisationSummary,
	): Promise<string | undefined> {
		const recentStart = serviceDateTime(new Date(Date.now() - RECENT_APPLICATION_DAYS * 86_400_000));
		for (const user of org.users.slice(0, 3)) {
			for (const start of [recentStart, ALL_TIME_START]) {
				try {
					const page = await applicationOfUserSince(client, user, start);
					const found = page.items.find((a) => a.OrganisationID === org.organisationId && a.OrganisationName);
					if (found) return found.OrganisationName;
					if ((page.total ?? 0) > 0) break; // The user's applications are on another organisation's adverts.
				} catch {
					// The name is a nicety; the id label stays.
					break;
				}
			}
		}
		return undefined;
	}
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A time as the service's date filters take it ("yyyy-MM-dd HH:mm:ss", UTC). */
function serviceDateTime(date: Date): string {
	return date.toISOString().slice(0, 19).replace('T', ' ');
}
