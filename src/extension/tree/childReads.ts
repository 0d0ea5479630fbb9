/**
 * What each kind of node has below it, read from the service: the organisations of a connection, the
 * organisations and users below an organisation (with each user's advert count), a user's adverts
 * and an advert's applications, a page at a time. The account model keeps what these return.
 */
import type { MultipostingClient } from '../../client';
import type { ProgressChoice } from '../actions/progressNames';
import type { OrganisationDirectory } from '../reads/organisations';
import {
	advertCountOfUser,
	advertsOfUser,
	applicationsOfAdvert,
	type AdvertFilters,
	type ApplicationFilters,
} from '../reads/queries';
import type { ConnectionInfo } from '../services';
import type { NodeData, TreeNode } from './accountModel';
import {
	advertDescriptor,
	applicationDescriptor,
	APPLICATION_ORDERS,
	hasAdvertFilters,
	organisationDescriptor,
	userDescriptor,
	type OrganisationSummary,
	type TreeFilters,
} from './descriptors';

/** What reading a node's children needs from the model. */
export interface ChildReadContext {
	client: MultipostingClient;
	connectionId: string;
	pageSize: number;
	filters: TreeFilters;
	locale?: string;
	progress: () => ProgressChoice[];
	/** The organisations as read since the last refresh. */
	directory: (connection: ConnectionInfo) => OrganisationDirectory;
	connection: () => ConnectionInfo;
}

/** One page of children, before the model links them to their parent. */
export interface ChildPage {
	items: TreeNode[];
	pageCount?: number;
	total?: number;
	note?: string;
}

/** Reads page `page` of the children of a node of kind `data.kind`. */
export async function readChildren(context: ChildReadContext, data: NodeData, page: number): Promise<ChildPage> {
	const { client, connectionId, filters, locale } = context;
	const pageSize = Math.max(1, Math.min(500, Math.floor(context.pageSize) || 50));
	switch (data.kind) {
		case 'connection': {
			const directory = context.directory(data.connection);
			const only = filters.organisation;
			const chosen = only === undefined ? undefined : await directory.organisation(Number(only));
			const { organisations, flatBecause } = chosen
				? { organisations: [chosen], flatBecause: undefined }
				: await directory.top();
			return { items: organisations.map((o) => organisationNode(connectionId, o)), note: flatBecause };
		}
		case 'organisation': {
			const below = await context.directory(context.connection()).below(data.organisation.organisationId);
			const counts = await Promise.all(
				data.organisation.users.map((user) =>
					advertCountOfUser(client, user, advertFilters(filters)).catch(() => undefined),
				),
			);
			return {
				items: [
					...below.map((o) => organisationNode(connectionId, o)),
					...data.organisation.users.map(
						(user, i): TreeNode => ({
							descriptor: userDescriptor(connectionId, user, counts[i], hasAdvertFilters(filters)),
							data: { kind: 'user', user, advertCount: counts[i] },
						}),
					),
				],
			};
		}
		case 'user': {
			const result = await advertsOfUser(client, data.user, advertFilters(filters), page, pageSize);
			return {
				items: result.items.map((advert) => ({
					descriptor: advertDescriptor(connectionId, advert, { locale }),
					data: { kind: 'advert', advert },
				})),
				pageCount: result.pageCount,
				total: result.total,
			};
		}
		case 'advert': {
			if (data.advert.AdvertID === undefined) return { items: [] };
			const result = await applicationsOfAdvert(
				client,
				data.advert.AdvertID,
				applicationFilters(filters),
				page,
				pageSize,
			);
			const progress = context.progress();
			return {
				items: result.items.map((application) => ({
					descriptor: applicationDescriptor(connectionId, application, progress, locale),
					data: { kind: 'application', application },
				})),
				pageCount: result.pageCount,
				total: result.total,
			};
		}
		default:
			return { items: [] };
	}
}

function organisationNode(connectionId: string, organisation: OrganisationSummary): TreeNode {
	return {
		descriptor: organisationDescriptor(connectionId, organisation),
		data: { kind: 'organisation', organisation },
	};
}

function advertFilters(filters: TreeFilters): AdvertFilters {
	return { searchDays: filters.searchDays, advertStatusIds: filters.advertStatusIds };
}

function applicationFilters(filters: TreeFilters): ApplicationFilters {
	const order = filters.order ? APPLICATION_ORDERS[filters.order] : undefined;
	return {
		orderBy: order?.orderBy,
		ranking: filters.ranking,
		progressIds: filters.progressIds,
		from: filters.applicationsFrom,
		to: filters.applicationsTo,
	};
}
