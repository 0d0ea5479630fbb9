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
import { SANDBOX_INJECTED } from '../pipeline/context';
import type { WebContext } from './context';
import { escapeHtml } from '../../shared/html';
import { redirect, relativeHref, sendMessage, sendPage } from './layout';

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

/** GET /login/<token>; `path` is the request's path, from which the redirect is made relative. */
export function handleLogin(
	req: IncomingMessage,
	res: ServerResponse,
	context: WebContext,
	sessions: SessionStore,
	token: string,
	path = `/login/${token}`,
): void {
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		return sendMessage(res, 405, 'Method not allowed', 'Open the login link with GET.');
	}
	const now = context.wallNow();
	// A scenario's expired link: answered as a used one, and the token is left as it was.
	const injected = context.loginLinkExpired?.();
	if (injected !== undefined) res.setHeader(SANDBOX_INJECTED, injected);
	const login =
		token && injected === undefined ? context.store.loginTokens.consume(token, toStoredDate(now)) : undefined;
	if (!login) {
		return sendMessage(
			res,
			410,
			'Login link used or expired',
			'This login link was already used or has expired. Ask the application for a new one (GetLoginURL); each link signs in once within 5 minutes.',
		);
	}
	const session = sessions.create(login.userId, now.getTime());
	redirect(res, relativeHref(path, safeReturnPath(login.returnUrl)), {
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

const RANKING_WORDS: Readonly<Record<number, string>> = { 0: 'Unranked', 1: 'Unsuitable', 2: 'Maybe', 4: 'Suitable' };

/** A table cell: text, or a link (relative to the page) with its text. */
type Cell = string | { text: string; href: string };

function cellHtml(cell: Cell, from: string): string {
	return typeof cell === 'string'
		? escapeHtml(cell)
		: `<a href="${escapeHtml(relativeHref(from, cell.href))}">${escapeHtml(cell.text)}</a>`;
}

function table(caption: string, headers: readonly string[], rows: readonly (readonly Cell[])[], from: string): string {
	if (rows.length === 0) return `<p>No ${escapeHtml(caption.toLowerCase())} yet.</p>`;
	return (
		`<table><caption>${escapeHtml(caption)}</caption><thead><tr>${headers.map((header) => `<th scope="col">${escapeHtml(header)}</th>`).join('')}</tr></thead>` +
		`<tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${cellHtml(cell, from)}</td>`).join('')}</tr>`).join('')}</tbody></table>`
	);
}

function pager(from: string, path: string, page: number, total: number): string {
	const pages = Math.max(Math.ceil(total / WEB_PAGE_SIZE), 1);
	const link = (n: number, rel: string, label: string) =>
		`<a href="${escapeHtml(relativeHref(from, `${path}?page=${n}`))}" rel="${rel}">${label}</a>`;
	const previous = page > 1 ? link(page - 1, 'prev', 'Previous page') : '';
	const next = page < pages ? link(page + 1, 'next', 'Next page') : '';
	return `<nav class="pager" aria-label="Pages">${previous}<span>Page ${page} of ${pages} (${total} in total)</span>${next}</nav>`;
}

function facts(rows: readonly [string, string][]): string {
	return `<dl class="facts">${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

/** Notes of an application, oldest first, and the candidate's tags (the service cannot read them back). */
function notesAndTags(context: WebContext, applicationId: number, candidateId: number): string {
	const notes = context.store.applications.notesOf(applicationId);
	const tags = context.store.candidates.tags(candidateId);
	const notesHtml =
		notes.length === 0
			? '<p>No notes yet.</p>'
			: notes
					.map(
						(note) =>
							`<article class="note"><h3>${escapeHtml(note.subject || '(no subject)')}</h3><p>${escapeHtml(note.body)}</p>` +
							`<p><small>${escapeHtml(toDisplayDate(note.createdAt))} UTC</small></p></article>`,
					)
					.join('');
	const tagsHtml =
		tags.length === 0
			? '<p>No tags.</p>'
			: `<ul class="tags">${tags.map((tag) => `<li>${escapeHtml(tag.kind === 'partner' ? `Partner: ${tag.tag.replace(/^Partner/, '')}` : tag.tag)}</li>`).join('')}</ul>`;
	return `<h2>Notes</h2>${notesHtml}<h2>Candidate tags</h2>${tagsHtml}`;
}

/** GET /web/... for a signed-in user; `path` is the request's path (links are relative to it). */
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
	// /web is /web/: a relative link needs the trailing slash to resolve inside it.
	if (path === '/web') return redirect(res, relativeHref(path, '/web/'));
	const userId = sessions.userOf(cookieValue(req, SESSION_COOKIE), context.wallNow().getTime());
	const user = userId === undefined ? undefined : context.store.accounts.userById(userId);
	if (!user) {
		return sendMessage(res, 401, 'Sign in first', 'Open a login link from GetLoginURL to use the web interface.');
	}
	const scope = scopeOf(context, user);
	const pageNumber = Math.max(Math.min(Number.parseInt(query.get('page') ?? '1', 10) || 1, 1_000_000), 1);
	const window = { offset: (pageNumber - 1) * WEB_PAGE_SIZE, limit: WEB_PAGE_SIZE };
	const route = path.replace(/\/+$/, '') || '/web';
	const page = (status: number, title: string, main: string, current?: string) =>
		sendPage(res, status, { title, main, path, nav: nav(current ?? '') });
	const visible = (advert: { organisationId: number; userId: number } | undefined) =>
		!!advert &&
		scope.organisationIds.includes(advert.organisationId) &&
		(scope.userId === undefined || advert.userId === scope.userId);
	if (route === '/web') {
		const adverts = context.store.adverts.search({ ...scope }, [], { offset: 0, limit: 1 }).total;
		const applications = context.store.applications.search({ ...scope }, [], { offset: 0, limit: 1 }).total;
		const main =
			`<h1>Welcome, ${escapeHtml(user.firstName)} ${escapeHtml(user.lastName)}</h1>` +
			`<dl class="facts"><dt>Username</dt><dd>${escapeHtml(user.username)}</dd><dt>Role</dt><dd>${user.roleId === USER_ROLE.Administrator ? 'Administrator' : 'User'}</dd>` +
			`<dt>Adverts</dt><dd>${adverts}</dd><dt>Applications</dt><dd>${applications}</dd></dl>`;
		return page(200, 'Account', main, '/web/');
	}
	if (route === '/web/adverts') {
		const found = context.store.adverts.search({ ...scope }, [], window);
		const rows = found.rows.map((advert): Cell[] => [
			String(advert.id),
			{ text: advert.title, href: `/web/adverts/${advert.id}` },
			advert.reference ?? '',
			advert.primaryLocation ?? '',
			advert.lastPostDate ? toDisplayDate(advert.lastPostDate) : 'Not posted',
			DELIVERY_LABELS[advert.lastDeliveryStatusId] ?? '',
		]);
		const main = `<h1>Adverts</h1>${table('Adverts', ['AdvertID', 'Title', 'Reference', 'Location', 'Last posted', 'Last delivery'], rows, path)}${pager(path, '/web/adverts', pageNumber, found.total)}`;
		return page(200, 'Adverts', main, '/web/adverts');
	}
	const advertMatch = /^\/web\/adverts\/(\d{1,12})$/.exec(route);
	if (advertMatch) {
		const advert = context.store.adverts.byId(Number(advertMatch[1]));
		if (!advert || !visible(advert)) {
			return sendMessage(res, 404, 'Advert not found', 'There is no such advert among the adverts you can see.');
		}
		const postings = context.store.postings
			.ofAdvert(advert.id)
			.map((posting): Cell[] => [
				String(posting.id),
				posting.feedName,
				toDisplayDate(posting.postedAt),
				DELIVERY_LABELS[posting.deliveryStatusId] ?? '',
				posting.deliveredAt ? toDisplayDate(posting.deliveredAt) : '',
			]);
		const applications = context.store.applications
			.search({ organisationIds: scope.organisationIds, advertId: advert.id }, [], {
				offset: 0,
				limit: WEB_PAGE_SIZE,
			})
			.rows.map((application): Cell[] => [
				{
					text: `${application.firstName} ${application.lastName}`,
					href: `/web/applications/${application.id}`,
				},
				toDisplayDate(application.appliedAt),
				RANKING_WORDS[application.ranking] ?? String(application.ranking),
				application.progressName,
			]);
		const main =
			`<h1>${escapeHtml(advert.title)}</h1>` +
			facts([
				['AdvertID', String(advert.id)],
				['Reference', advert.reference ?? ''],
				['Location', advert.primaryLocation ?? ''],
				['Last posted', advert.lastPostDate ? `${toDisplayDate(advert.lastPostDate)} UTC` : 'Not posted'],
				['Last delivery', DELIVERY_LABELS[advert.lastDeliveryStatusId] ?? ''],
			]) +
			table('Postings', ['Posting', 'Job board', 'Posted', 'Delivery', 'Delivered'], postings, path) +
			table('Applications', ['Candidate', 'Applied', 'Ranking', 'Progress'], applications, path);
		return page(200, advert.title, main, '/web/adverts');
	}
	if (route === '/web/postings') {
		const found = context.store.postings.page(scope.organisationIds, window, scope.userId);
		const rows = found.rows.map((posting): Cell[] => [
			String(posting.id),
			{ text: posting.advertTitle, href: `/web/adverts/${posting.advertId}` },
			posting.feedName,
			toDisplayDate(posting.postedAt),
			DELIVERY_LABELS[posting.deliveryStatusId] ?? '',
			posting.deliveredAt ? toDisplayDate(posting.deliveredAt) : '',
		]);
		const main = `<h1>Postings</h1>${table('Postings', ['Posting', 'Advert', 'Job board', 'Posted', 'Delivery', 'Delivered'], rows, path)}${pager(path, '/web/postings', pageNumber, found.total)}`;
		return page(200, 'Postings', main, '/web/postings');
	}
	if (route === '/web/applications') {
		const found = context.store.applications.search({ ...scope }, [], window);
		const rows = found.rows.map((application): Cell[] => {
			const notes = context.store.applications.notesOf(application.id).length;
			const tags = context.store.candidates
				.tags(application.candidateId)
				.map((t) => t.tag.replace(/^Partner/, 'Partner: '));
			return [
				String(application.id),
				{
					text: `${application.firstName} ${application.lastName}`,
					href: `/web/applications/${application.id}`,
				},
				application.advertTitle,
				toDisplayDate(application.appliedAt),
				application.progressName,
				notes === 0 ? '' : String(notes),
				tags.join(', '),
			];
		});
		const main = `<h1>Applications</h1>${table('Applications', ['AdvertCandidateID', 'Candidate', 'Advert', 'Applied', 'Progress', 'Notes', 'Tags'], rows, path)}${pager(path, '/web/applications', pageNumber, found.total)}`;
		return page(200, 'Applications', main, '/web/applications');
	}
	const applicationMatch = /^\/web\/applications\/(\d{1,12})$/.exec(route);
	if (applicationMatch) {
		const application = context.store.applications.byId(Number(applicationMatch[1]));
		const advert = application ? context.store.adverts.byId(application.advertId) : undefined;
		if (!application || !visible(advert)) {
			return sendMessage(
				res,
				404,
				'Application not found',
				'There is no such application among those you can see.',
			);
		}
		const main =
			`<h1>${escapeHtml(`${application.firstName} ${application.lastName}`)}</h1>` +
			facts([
				['AdvertCandidateID', String(application.id)],
				['Email', application.email],
				['Applied', `${toDisplayDate(application.appliedAt)} UTC`],
				['Job board', application.feedName],
				['Ranking', RANKING_WORDS[application.ranking] ?? String(application.ranking)],
				['Favourite', application.favourite ? 'Yes' : 'No'],
				['Progress', application.progressName],
			]) +
			`<p><a href="${escapeHtml(relativeHref(path, `/web/adverts/${application.advertId}`))}">Advert: ${escapeHtml(application.advertTitle)}</a></p>` +
			notesAndTags(context, application.id, application.candidateId);
		return page(200, `${application.firstName} ${application.lastName}`, main, '/web/applications');
	}
	return sendMessage(res, 404, 'Page not found', 'There is no such page in the web interface.');
}
