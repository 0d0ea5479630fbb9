/**
 * Pure functions from service data to the descriptors of the account tree's nodes: labels,
 * descriptions, icons, tooltips (escaped Markdown) and context values. The provider turns these
 * into TreeItems; unit tests check them directly.
 */
import { ADVERT_STATUS, type Advert, type APIApplication, type CUser } from '../../protocol/catalogue';
import { dateWithIso, formatDateTime, isUnsetDate } from '../../shared/dates';
import { progressName, type ProgressChoice } from '../actions/progressNames';
import { DELIVERY_WORDS, RANKING_WORDS, rankingOf as rankingOfScore, rankingWord } from '../vocabulary';
import type { ConnectionInfo } from '../services';
import { escapeMarkdown } from '../util/markdown';

export type NodeKind =
	| 'connection'
	| 'organisation'
	| 'user'
	| 'advert'
	| 'application'
	| 'loadMore'
	| 'error'
	| 'message'
	| 'action';

/** A codicon with an optional theme colour id. */
export interface IconSpec {
	id: string;
	color?: string;
}

export interface NodeDescriptor {
	/** Unique and stable across refreshes (TreeItem.id). */
	id: string;
	kind: NodeKind;
	label: string;
	description?: string;
	/** Markdown, every piece of service data escaped. */
	tooltip?: string;
	icon?: IconSpec;
	contextValue: string;
	collapsible: 'none' | 'collapsed' | 'expanded';
	/** What a click or Enter runs (action rows). */
	command?: { id: string; arguments: unknown[] };
}

/** Filters of the tree (command "Filter…"). Empty means the defaults. */
export interface TreeFilters {
	/** Only this organisation (OrganisationID) and those below it; its name for the filter's words. */
	organisation?: string;
	organisationName?: string;
	/** sSearchDays of the advert search; default -1 (all time). */
	searchDays?: string;
	/** sAdvertStatusIDs, comma-separated. */
	advertStatusIds?: string;
	/** RankingAsCSV. */
	ranking?: string;
	/** ProgressIDAsCSV. */
	progressIds?: string;
	/** sApplicationStartDateTime / sApplicationEndDateTime. */
	applicationsFrom?: string;
	applicationsTo?: string;
	/** Order of applications; empty: the service's default order. */
	order?: ApplicationOrder;
}

/** The orders of applications the tree offers, as the service's OrderBy. */
export const APPLICATION_ORDERS = {
	newest: { label: 'Newest first', orderBy: 'ApplicationDate desc, AdvertCandidateID desc' },
	oldest: { label: 'Oldest first', orderBy: 'ApplicationDate asc, AdvertCandidateID asc' },
	name: { label: 'By name', orderBy: 'LastName asc, FirstName asc, AdvertCandidateID asc' },
} as const;
export type ApplicationOrder = keyof typeof APPLICATION_ORDERS;

/** How the service orders applications when the tree asks for no order. */
export const DEFAULT_ORDER_TEXT = 'unranked first, then by score, favourites, newest; archived last';

/** True when a filter narrows the applications (so an advert's total is not what its row lists). */
export function hasApplicationFilters(filters: TreeFilters): boolean {
	return !!(filters.ranking || filters.progressIds || filters.applicationsFrom || filters.applicationsTo);
}

export function hasAdvertFilters(filters: TreeFilters): boolean {
	return !!((filters.searchDays && filters.searchDays !== '-1') || filters.advertStatusIds);
}

/** An organisation as the operations reveal it: an id, maybe a name, its users. */
export interface OrganisationSummary {
	organisationId: number;
	name?: string;
	users: UserSummary[];
}

export interface UserSummary {
	userId: number;
	organisationId: number;
	username?: string;
	name?: string;
	email?: string;
	roleId?: number;
}

const ADVERT_STATUS_NAMES: Record<number, string> = Object.fromEntries(
	Object.entries(ADVERT_STATUS).map(([name, id]) => [id, name]),
);

function md(text: string | number | boolean | undefined): string {
	return escapeMarkdown(String(text ?? ''));
}

function tooltipLines(title: string, rows: [string, string | number | boolean | undefined][]): string {
	const body = rows.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${md(k)}: ${md(v)}`);
	return [`**${md(title)}**`, '', ...body].join('  \n');
}

function plural(n: number, one: string, many = `${one}s`): string {
	return `${n} ${n === 1 ? one : many}`;
}

export function connectionDescriptor(
	connection: ConnectionInfo,
	sandboxState?: string,
	scenarios: readonly string[] = [],
): NodeDescriptor {
	const sandbox = connection.kind === 'sandbox';
	const failing = sandbox && scenarios.length > 0;
	return {
		id: `conn:${connection.id}`,
		kind: 'connection',
		label: connection.label,
		description: sandbox
			? `built-in · ${sandboxState ?? 'stopped'}${failing ? ` · failure scenarios: ${scenarios.join(', ')}` : ''}`
			: connection.baseUrl,
		tooltip: tooltipLines(connection.label, [
			['Address', sandbox && sandboxState !== 'running' ? '(starts on first use)' : connection.baseUrl],
			['Binding', connection.binding],
			['User', connection.username],
			['Culture', connection.culture],
			['Start organisation', connection.startOrganisation],
			['Failure scenarios', failing ? `${scenarios.join(', ')} (failures injected on purpose)` : undefined],
		]),
		icon: failing ? { id: 'warning', color: 'list.warningForeground' } : { id: sandbox ? 'beaker' : 'plug' },
		contextValue: sandbox ? (failing ? 'connection:sandbox:scenarios' : 'connection:sandbox') : 'connection:remote',
		collapsible: 'expanded',
	};
}

/**
 * Organisations from what the operations reveal: users (UserList carries OrganisationID), adverts
 * (OrganisationID and UserID) and applications (OrganisationName). Sorted by name, then id.
 */
export function deriveOrganisations(
	users: readonly CUser[],
	adverts: readonly Advert[] = [],
	applications: readonly APIApplication[] = [],
): OrganisationSummary[] {
	const byId = new Map<number, OrganisationSummary>();
	const org = (id: number): OrganisationSummary => {
		let found = byId.get(id);
		if (!found) {
			found = { organisationId: id, users: [] };
			byId.set(id, found);
		}
		return found;
	};
	for (const user of users) {
		if (user.UserID === undefined || user.OrganisationID === undefined) continue;
		const name = [user.FirstName, user.LastName].filter(Boolean).join(' ') || undefined;
		org(user.OrganisationID).users.push({
			userId: user.UserID,
			organisationId: user.OrganisationID,
			username: user.Username,
			name,
			email: user.Email,
			roleId: user.UserRoleID,
		});
	}
	for (const advert of adverts) {
		if (advert.UserID === undefined || advert.OrganisationID === undefined) continue;
		const target = org(advert.OrganisationID);
		if (!target.users.some((u) => u.userId === advert.UserID)) {
			target.users.push({
				userId: advert.UserID,
				organisationId: advert.OrganisationID,
				name: advert.ContactName,
			});
		}
	}
	for (const app of applications) {
		if (app.OrganisationID !== undefined && app.OrganisationName) {
			org(app.OrganisationID).name ??= app.OrganisationName;
		}
	}
	for (const summary of byId.values()) {
		summary.users.sort(
			(a, b) => (a.name ?? a.username ?? '').localeCompare(b.name ?? b.username ?? '') || a.userId - b.userId,
		);
	}
	return [...byId.values()].sort(byOrganisationName);
}

/** Named organisations first, by name; then by id. */
export function byOrganisationName(a: OrganisationSummary, b: OrganisationSummary): number {
	return (a.name ?? '\uffff').localeCompare(b.name ?? '\uffff') || a.organisationId - b.organisationId;
}

export function organisationDescriptor(connectionId: string, org: OrganisationSummary): NodeDescriptor {
	const label = org.name ?? `Organisation ${org.organisationId}`;
	return {
		id: `org:${connectionId}:${org.organisationId}`,
		kind: 'organisation',
		label,
		description: plural(org.users.length, 'user'),
		tooltip: tooltipLines(label, [
			['OrganisationID', org.organisationId],
			['Users', org.users.length],
		]),
		icon: { id: 'organization' },
		contextValue: 'organisation',
		collapsible: 'collapsed',
	};
}

export function userDescriptor(
	connectionId: string,
	user: UserSummary,
	advertCount?: number,
	filtered = false,
): NodeDescriptor {
	const label = user.name ?? user.username ?? `User ${user.userId}`;
	const parts = [
		user.username && user.name ? user.username : undefined,
		advertCount !== undefined ? `${plural(advertCount, 'advert')}${filtered ? ' match' : ''}` : undefined,
	];
	return {
		id: `user:${connectionId}:${user.userId}`,
		kind: 'user',
		label,
		description: parts.filter(Boolean).join(' · ') || undefined,
		tooltip: tooltipLines(label, [
			['UserID', user.userId],
			['Username', user.username],
			['Email', user.email],
			['OrganisationID', user.organisationId],
			[filtered ? 'Adverts matching the filter' : 'Adverts', advertCount],
		]),
		icon: { id: user.roleId === 1 ? 'shield' : 'person' },
		contextValue: user.username ? 'user' : 'user:unknown',
		collapsible: 'collapsed',
	};
}

export function advertStatusIcon(statusId: number | undefined): IconSpec {
	switch (statusId) {
		case ADVERT_STATUS.Deleted:
			return { id: 'trash', color: 'disabledForeground' };
		case ADVERT_STATUS.ToAuthorise:
			return { id: 'watch', color: 'charts.orange' };
		default:
			return { id: 'megaphone', color: 'charts.blue' };
	}
}

/** What the row of an advert should say beyond the advert itself. */
export interface AdvertRowContext {
	/** Another advert of the same list has the same title: show the reference or ID. */
	duplicateTitle?: boolean;
	/** Application filters are set: the advert's Applications counter is not what its children list. */
	applicationsFiltered?: boolean;
	/** Applications that match the filters, once the advert's children were loaded. */
	matching?: number;
	/** The user's locale for dates (VS Code's display language); the runtime's when absent. */
	locale?: string;
}

/** A date for a tooltip: the user's locale with ISO, else the service's text; none when unset. */
function tooltipDate(
	raw: string | undefined,
	text: string | undefined,
	locale: string | undefined,
): string | undefined {
	if (isUnsetDate(raw)) return text || undefined;
	return formatDateTime(raw!, { locale }) ? dateWithIso(raw, { locale }) : text || raw;
}

/** Where an advert's posting stands: not posted yet, or its last delivery's state. */
export function deliveryText(advert: Advert): string {
	if (isUnsetDate(advert.LastPostDate)) return 'Not posted';
	return DELIVERY_WORDS[advert.LastDeliveryStatusID ?? 0] ?? 'Posted';
}

export function advertDescriptor(connectionId: string, advert: Advert, row: AdvertRowContext = {}): NodeDescriptor {
	const statusName = ADVERT_STATUS_NAMES[advert.AdvertStatusID ?? 0] ?? `Status ${advert.AdvertStatusID}`;
	const applications = advert.Applications ?? 0;
	const count = row.applicationsFiltered
		? row.matching !== undefined
			? `${row.matching} of ${plural(applications, 'application')} match`
			: `${plural(applications, 'application')} in all`
		: plural(applications, 'application');
	const counts = [count, advert.Suitable ? `${advert.Suitable} suitable` : undefined];
	const label = advert.AdvertTitle || `Advert ${advert.AdvertID}`;
	const distinct = row.duplicateTitle
		? advert.AdvertReference
			? `ref ${advert.AdvertReference}`
			: `#${advert.AdvertID}`
		: undefined;
	return {
		id: `advert:${connectionId}:${advert.AdvertID}`,
		kind: 'advert',
		label,
		description: [distinct, ...counts, statusName !== 'Created' ? statusName : deliveryText(advert)]
			.filter(Boolean)
			.join(' · '),
		tooltip: tooltipLines(label, [
			['AdvertID', advert.AdvertID],
			['Identifier', advert.AdvertIdentifier],
			['Reference', advert.AdvertReference],
			['Status', statusName],
			['Posting', deliveryText(advert)],
			['Location', advert.PrimaryLocation],
			['Last posted', tooltipDate(advert.LastPostDate, advert.sLastPostDate, row.locale)],
			['Applications', applications],
			['Matching the filter', row.applicationsFiltered ? row.matching : undefined],
			[
				'Suitable / maybe / unsuitable',
				`${advert.Suitable ?? 0} / ${advert.MaybeSuitable ?? 0} / ${advert.Unsuitable ?? 0}`,
			],
			['Viewed', advert.Viewed],
		]),
		icon: advertStatusIcon(advert.AdvertStatusID),
		contextValue: advert.AdvertStatusID === ADVERT_STATUS.Deleted ? 'advert:deleted' : 'advert',
		collapsible: applications > 0 ? 'collapsed' : 'none',
	};
}

/** Ranking flag of an application: Score when sent, else the Ranking text. */
export function rankingOf(app: APIApplication): 'Suitable' | 'MaybeSuitable' | 'Unsuitable' | 'Unranked' {
	return rankingOfScore(app.Score, app.Ranking);
}

export function applicationIcon(app: APIApplication): IconSpec {
	if (app.Favourite) {
		return { id: 'star-full', color: 'charts.yellow' };
	}
	switch (rankingOf(app)) {
		case 'Suitable':
			return { id: 'pass', color: 'charts.green' };
		case 'MaybeSuitable':
			return { id: 'question', color: 'charts.yellow' };
		case 'Unsuitable':
			return { id: 'error', color: 'charts.red' };
		default:
			return { id: 'circle-outline' };
	}
}

export function applicationDescriptor(
	connectionId: string,
	app: APIApplication,
	progress: readonly ProgressChoice[],
	locale?: string,
): NodeDescriptor {
	const name =
		[app.FirstName, app.LastName].filter(Boolean).join(' ') ||
		app.EmailAddress ||
		`Application ${app.AdvertCandidateID}`;
	const ranking = RANKING_WORDS[rankingOf(app)];
	const progressText = progressName(progress, app.ProgressID, app.Progress);
	const applied = isUnsetDate(app.ApplicationDate)
		? undefined
		: formatDateTime(app.ApplicationDate!, { locale, dateOnly: true })?.text;
	return {
		id: `app:${connectionId}:${app.AdvertCandidateID}`,
		kind: 'application',
		label: name,
		// Archived applications sort last (even unranked ones): the row says why it sits there.
		description: [
			app.Favourite ? 'Favourite' : undefined,
			ranking,
			app.Archived ? 'Archived' : undefined,
			progressText,
			applied,
		]
			.filter(Boolean)
			.join(' · '),
		tooltip: tooltipLines(name, [
			['AdvertCandidateID', app.AdvertCandidateID],
			['Advert', app.AdvertTitle ? `${app.AdvertTitle} (${app.AdvertID})` : app.AdvertID],
			['Email', app.EmailAddress],
			['Phone', app.MobilePhone || app.HomePhone || app.WorkPhone],
			['Applied', tooltipDate(app.ApplicationDate, app.sApplicationDate, locale)],
			['Job board', app.FeedName],
			['Ranking', ranking],
			['Favourite', app.Favourite ? 'yes' : undefined],
			['Archived', app.Archived ? 'yes (sorted after the others)' : undefined],
			['Progress', progressText],
			['Organisation', app.OrganisationName],
		]),
		icon: applicationIcon(app),
		contextValue: 'application',
		collapsible: 'none',
	};
}

export function loadMoreDescriptor(parentId: string, loaded: number, total: number | undefined): NodeDescriptor {
	return {
		id: `more:${parentId}`,
		kind: 'loadMore',
		label: 'Load more…',
		description: total !== undefined ? `${loaded} of ${total}` : undefined,
		icon: { id: 'ellipsis' },
		contextValue: 'loadMore',
		collapsible: 'none',
	};
}

export function errorDescriptor(parentId: string, message: string): NodeDescriptor {
	return {
		id: `error:${parentId}`,
		kind: 'error',
		label: message,
		tooltip: `${md(message)}  \n\nClick to retry; the Multiposting log has the details.`,
		icon: { id: 'error', color: 'errorForeground' },
		contextValue: 'error',
		collapsible: 'none',
	};
}

export function messageDescriptor(parentId: string, text: string): NodeDescriptor {
	return {
		id: `message:${parentId}`,
		kind: 'message',
		label: text,
		contextValue: 'message',
		collapsible: 'none',
		icon: { id: 'info' },
	};
}

/** A row that runs a command, e.g. a way out of a failed start ("Use port 24818"). */
export function actionDescriptor(
	parentId: string,
	row: { label: string; description?: string; command?: { id: string; arguments: unknown[] } },
	index: number,
): NodeDescriptor {
	return {
		id: `action:${parentId}:${index}`,
		kind: row.command ? 'action' : 'message',
		label: row.label,
		description: row.description,
		icon: { id: row.command ? 'arrow-right' : 'error', color: row.command ? undefined : 'errorForeground' },
		contextValue: row.command ? 'action' : 'message',
		collapsible: 'none',
		command: row.command,
	};
}

/** A note above a level's rows (e.g. why organisations are a flat list). */
export function noteDescriptor(parentId: string, text: string): NodeDescriptor {
	return { ...messageDescriptor(parentId, text), id: `note:${parentId}`, icon: { id: 'warning' } };
}

/** The words of the active filters ("last 30 days, Suitable/Maybe"); undefined when none is set. */
export function describeFilters(filters: TreeFilters, progress: readonly ProgressChoice[] = []): string | undefined {
	const parts: string[] = [];
	if (filters.organisation) {
		parts.push(`${filters.organisationName ?? `organisation ${filters.organisation}`} and below`);
	}
	if (filters.searchDays && filters.searchDays !== '-1') parts.push(`adverts of the last ${filters.searchDays} days`);
	if (filters.advertStatusIds) {
		parts.push(
			`adverts ${filters.advertStatusIds
				.split(',')
				.map((id) => ADVERT_STATUS_NAMES[Number(id)] ?? id)
				.join('/')}`,
		);
	}
	if (filters.ranking) parts.push(filters.ranking.split(',').map(rankingWord).join('/'));
	if (filters.progressIds) {
		parts.push(
			filters.progressIds
				.split(',')
				.map((id) => progressName(progress, Number(id)) ?? id)
				.join('/'),
		);
	}
	if (filters.applicationsFrom || filters.applicationsTo) {
		parts.push(`applied ${filters.applicationsFrom ?? '…'} – ${filters.applicationsTo ?? '…'}`);
	}
	const order = filters.order ? APPLICATION_ORDERS[filters.order]?.label : undefined;
	if (parts.length === 0) return order ? `Applications ${order.toLowerCase()}` : undefined;
	return `Filtered: ${parts.join(', ')}${order ? `; applications ${order.toLowerCase()}` : ''}`;
}
