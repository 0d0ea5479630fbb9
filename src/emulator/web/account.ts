/**
 * The web interface behind GetLoginURL: `/login/<token>` signs the user in once (the token is
 * consumed; a second use answers 410) and sets an HttpOnly, SameSite=Strict session cookie; `/web/*`
 * shows the account's adverts, postings and applications in paged tables.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { USER_ROLE } from '../../protocol/catalogue';
import { sameOriginPath } from '../domain/returnPath';
import { hashSecret } from '../store/secrets';
import { toDisplayDate, toStoredDate } from '../store/time';
import type { UserRow } from '../store/types';
import { DELIVERY_LABELS } from './completion';
import type { WebContext } from './context';
import { escapeHtml } from '../../shared/html';
import { redirect, sendMessage, sendPage } from './layout';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'mp_sandbox_session';
/** How long a web session lasts without use. */
export const SESSION_TTL_MS = 30 * 60_000;
/** Rows per page of the web tables. */
export const WEB_PAGE_SIZE = 25;

/** In-memory sessions: sha256(session id) -> user and expiry. They end when the emulator stops. */
export class SessionStore {
	private readonly sessions = new Map<string, { userId: number; expiresAt: number }>();

	create(userId: number, now: number): string {
		const id = randomBytes(32).toString('base64url');
		this.sessions.set(hashSecret(id), { userId, expiresAt: now + SESSION_TTL_MS });
		return id;
	}

	/** The user of a live session, extending it; undefined when unknown or expired. */
	userOf(id: string | undefined, now: number): number | undefined {
		if (!id) return undefined;
		const key = hashSecret(id);
		const session = this.sessions.get(key);
		if (!session || session.expiresAt <= now) {
			this.sessions.delete(key);
			return undefined;
		}
		session.expiresAt = now + SESSION_TTL_MS;
		return session.userId;
	}

	clear(): void {
		this.sessions.clear();
	}
}

/** A return URL is followed only when it is a path on this origin once normalised (see sameOriginPath). */
export function safeReturnPath(returnUrl: string | null | undefined): string {
	return sameOriginPath(returnUrl) ?? '/web/';
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
	for (const part of (req.headers.cookie ?? '').split(';')) {
		const [key, ...rest] = part.trim().split('=');
		if (key === name) return rest.join('=');
	}
	return undefined;
}

/** GET /login/<token>. */
export function handleLogin(
	req: IncomingMessage,
	res: ServerResponse,
	context: WebContext,
	sessions: SessionStore,
	token: string,
): void {
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		return sendMessage(res, 405, 'Method not allowed', 'Open the login link with GET.');
	}
	const now = context.wallNow();
	const login = token ? context.store.loginTokens.consume(token, toStoredDate(now)) : undefined;
	if (!login) {
		return sendMessage(
			res,
			410,
			'Login link used or expired',
			'This login link was already used or has expired. Ask the application for a new one (GetLoginURL); each link signs in once within 5 minutes.',
		);
	}
	const session = sessions.create(login.userId, now.getTime());
	redirect(res, safeReturnPath(login.returnUrl), {
		'set-cookie': `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_MS / 1000}`,
	});
}

const NAV = [
	{ label: 'Account', href: '/web/' },
	{ label: 'Adverts', href: '/web/adverts' },
	{ label: 'Postings', href: '/web/postings' },
	{ label: 'Applications', href: '/web/applications' },
] as const;

function nav(current: string): { label: string; href: string; current: boolean }[] {
	return NAV.map((link) => ({ ...link, current: link.href === current }));
}

/** The organisations whose adverts the user sees, and whether only their own adverts. */
function scopeOf(context: WebContext, user: UserRow): { organisationIds: readonly number[]; userId?: number } {
	return user.roleId === USER_ROLE.Administrator
		? { organisationIds: context.store.accounts.subtreeIds(user.organisationId) }
		: { organisationIds: [user.organisationId], userId: user.id };
}

function table(caption: string, headers: readonly string[], rows: readonly (readonly string[])[]): string {
	if (rows.length === 0) return `<p>No ${escapeHtml(caption.toLowerCase())} yet.</p>`;
	return (
		`<table><caption>${escapeHtml(caption)}</caption><thead><tr>${headers.map((header) => `<th scope="col">${escapeHtml(header)}</th>`).join('')}</tr></thead>` +
		`<tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('')}</tbody></table>`
	);
}

function pager(path: string, page: number, total: number): string {
	const pages = Math.max(Math.ceil(total / WEB_PAGE_SIZE), 1);
	const previous = page > 1 ? `<a href="${path}?page=${page - 1}" rel="prev">Previous page</a>` : '';
	const next = page < pages ? `<a href="${path}?page=${page + 1}" rel="next">Next page</a>` : '';
	return `<nav class="pager" aria-label="Pages">${previous}<span>Page ${page} of ${pages} (${total} in total)</span>${next}</nav>`;
}

/** GET /web/... for a signed-in user. */
export function handleWeb(
	req: IncomingMessage,
	res: ServerResponse,
	context: WebContext,
	sessions: SessionStore,
	path: string,
	query: URLSearchParams,
): void {
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		return sendMessage(res, 405, 'Method not allowed', 'The web interface is read-only.');
	}
	const userId = sessions.userOf(cookieValue(req, SESSION_COOKIE), context.wallNow().getTime());
	const user = userId === undefined ? undefined : context.store.accounts.userById(userId);
	if (!user) {
		return sendMessage(res, 401, 'Sign in first', 'Open a login link from GetLoginURL to use the web interface.');
	}
	const scope = scopeOf(context, user);
	const pageNumber = Math.max(Math.min(Number.parseInt(query.get('page') ?? '1', 10) || 1, 1_000_000), 1);
	const window = { offset: (pageNumber - 1) * WEB_PAGE_SIZE, limit: WEB_PAGE_SIZE };
	const route = path.replace(/\/+$/, '') || '/web';
	if (route === '/web') {
		const adverts = context.store.adverts.search({ ...scope }, [], { offset: 0, limit: 1 }).total;
		const applications = context.store.applications.search({ ...scope }, [], { offset: 0, limit: 1 }).total;
		const main =
			`<h1>Welcome, ${escapeHtml(user.firstName)} ${escapeHtml(user.lastName)}</h1>` +
			`<dl class="facts"><dt>Username</dt><dd>${escapeHtml(user.username)}</dd><dt>Role</dt><dd>${user.roleId === USER_ROLE.Administrator ? 'Administrator' : 'User'}</dd>` +
			`<dt>Adverts</dt><dd>${adverts}</dd><dt>Applications</dt><dd>${applications}</dd></dl>`;
		return sendPage(res, 200, { title: 'Account', main, nav: nav('/web/') });
	}
	if (route === '/web/adverts') {
		const page = context.store.adverts.search({ ...scope }, [], window);
		const rows = page.rows.map((advert) => [
			String(advert.id),
			advert.title,
			advert.reference ?? '',
			advert.primaryLocation ?? '',
			advert.lastPostDate ? toDisplayDate(advert.lastPostDate) : 'Not posted',
			DELIVERY_LABELS[advert.lastDeliveryStatusId] ?? '',
		]);
		const main = `<h1>Adverts</h1>${table('Adverts', ['AdvertID', 'Title', 'Reference', 'Location', 'Last posted', 'Last delivery'], rows)}${pager('/web/adverts', pageNumber, page.total)}`;
		return sendPage(res, 200, { title: 'Adverts', main, nav: nav('/web/adverts') });
	}
	if (route === '/web/postings') {
		const page = context.store.postings.page(scope.organisationIds, window, scope.userId);
		const rows = page.rows.map((posting) => [
			String(posting.id),
			posting.advertTitle,
			posting.feedName,
			toDisplayDate(posting.postedAt),
			DELIVERY_LABELS[posting.deliveryStatusId] ?? '',
			posting.deliveredAt ? toDisplayDate(posting.deliveredAt) : '',
		]);
		const main = `<h1>Postings</h1>${table('Postings', ['Posting', 'Advert', 'Job board', 'Posted', 'Delivery', 'Delivered'], rows)}${pager('/web/postings', pageNumber, page.total)}`;
		return sendPage(res, 200, { title: 'Postings', main, nav: nav('/web/postings') });
	}
	if (route === '/web/applications') {
		const page = context.store.applications.search({ ...scope }, [], window);
		const rows = page.rows.map((application) => [
			String(application.id),
			`${application.firstName} ${application.lastName}`,
			application.advertTitle,
			application.feedName,
			toDisplayDate(application.appliedAt),
			application.progressName,
		]);
		const main = `<h1>Applications</h1>${table('Applications', ['AdvertCandidateID', 'Candidate', 'Advert', 'Job board', 'Applied', 'Progress'], rows)}${pager('/web/applications', pageNumber, page.total)}`;
		return sendPage(res, 200, { title: 'Applications', main, nav: nav('/web/applications') });
	}
	return sendMessage(res, 404, 'Page not found', 'There is no such page in the web interface.');
}
