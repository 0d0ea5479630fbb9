/**
 * The posting completion page behind AddAdvert's RedirectUrl (`/complete-posting/<token>`): the
 * advert, the owner's feeds with quota, cost and description limits, the feed choice and confirm.
 * Completing is exactly-once: after the form is read, one transaction checks that the posting is not
 * completed yet, re-reads the quota, validates, claims the completion with a conditional update and
 * creates the postings (all or nothing), queueing their delivery; a future post date schedules them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VALUE_SETS } from '../../protocol/catalogue';
import { feedAllowances } from '../domain/quota';
import type { FeedQuotaRow, AdvertRow } from '../store/types';
import { toDisplayDate, toStoredDate } from '../store/time';
import { csrfToken, isValidCsrf, readForm, type WebContext } from './context';
import { escapeHtml } from '../../shared/html';
import { redirect, relativeHref, sendMessage, sendPage } from './layout';

/** A feed as offered on the page. */
interface OfferedFeed {
	feed: FeedQuotaRow;
	used: number;
	quota: number;
	forced: boolean;
	preselected: boolean;
}

/** The description length a feed counts: tags removed unless the feed takes full HTML. */
export function descriptionLength(description: string, htmlSupport: string): number {
	const text =
		htmlSupport === 'Full' ? description : description.replace(/<[^>]*>/g, '').replace(/&[a-z#0-9]+;/gi, ' ');
	return [...text].length;
}

/** The owner's feeds as the page offers them, with quota use read now (inside the completing transaction). */
function offeredFeeds(context: WebContext, advert: AdvertRow): OfferedFeed[] | undefined {
	const user = context.store.accounts.userById(advert.userId);
	if (!user) return undefined;
	const destinations = new Set(context.store.adverts.destinations(advert.id));
	return feedAllowances(context.store, user, context.quotaStates)
		.filter(({ feed }) => feed.restricted !== 1)
		.map(({ feed, used, quota }) => ({
			feed,
			used,
			quota,
			forced: feed.forceSelected === 1,
			preselected:
				feed.forceSelected === 1 ||
				(destinations.size > 0 ? destinations.has(feed.id) : feed.defaultSelected === 1),
		}));
}

/** Problems with a choice of feeds; empty when it can be posted. */
export function validateChoice(
	advert: AdvertRow,
	chosen: readonly OfferedFeed[],
): { feedId?: number; message: string }[] {
	const problems: { feedId?: number; message: string }[] = [];
	if (chosen.length === 0) problems.push({ message: 'Choose at least one job board.' });
	const description = advert.jobDescription ?? '';
	for (const offer of chosen) {
		const length = descriptionLength(description, offer.feed.htmlSupport);
		if (length < offer.feed.descriptionMinLength) {
			problems.push({
				feedId: offer.feed.id,
				message: `${offer.feed.name}: the job description is too short (${length} characters; at least ${offer.feed.descriptionMinLength}).`,
			});
		}
		if (offer.feed.descriptionMaxLength > 0 && length > offer.feed.descriptionMaxLength) {
			problems.push({
				feedId: offer.feed.id,
				message: `${offer.feed.name}: the job description is too long (${length} characters; at most ${offer.feed.descriptionMaxLength}).`,
			});
		}
		if (offer.used >= offer.quota) {
			problems.push({
				feedId: offer.feed.id,
				message: `${offer.feed.name}: the posting quota is used up (${offer.used} of ${offer.quota}).`,
			});
		}
	}
	return problems;
}

/** The label of a value-set code (P → Permanent), the code when the set does not know it. */
function label(set: 'jobType' | 'jobHours' | 'salaryPer', code: string | null): string {
	if (!code) return '';
	return VALUE_SETS[set].values.find((v) => v.value === code)?.label ?? code;
}

function advertFacts(advert: AdvertRow): string {
	const range = advert.salaryFrom ? `${advert.salaryFrom}${advert.salaryTo ? ` - ${advert.salaryTo}` : ''}` : '';
	const salary = range
		? [
				range,
				advert.salaryCurrency,
				advert.salaryPer ? `per ${label('salaryPer', advert.salaryPer).toLowerCase()}` : '',
			]
				.filter(Boolean)
				.join(' ')
		: 'Not given';
	const rows: [string, string][] = [
		['Job title', advert.title],
		['Reference', advert.reference ?? ''],
		['Identifier', advert.identifier ?? ''],
		['Location', advert.primaryLocation ?? ''],
		[
			'Job type / hours',
			[label('jobType', advert.jobType), label('jobHours', advert.jobHours)].filter(Boolean).join(', '),
		],
		['Salary', salary],
		['Contact', `${advert.contactName ?? ''} ${advert.contactEmail ? `<${advert.contactEmail}>` : ''}`],
		['Post date', advert.scheduledPostAt ? `${toDisplayDate(advert.scheduledPostAt)} UTC (scheduled)` : 'Now'],
	];
	return (
		`<dl class="facts">${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>` +
		`<h2>Job description</h2><div class="description">${escapeHtml(advert.jobDescription ?? '')}</div>`
	);
}

function feedRow(offer: OfferedFeed, checked: boolean, descriptionChars: number): string {
	const feed = offer.feed;
	const id = `feed-${feed.id}`;
	const remaining = Math.max(offer.quota - offer.used, 0);
	const limits = `Description ${feed.descriptionMinLength}-${feed.descriptionMaxLength} characters (this advert: ${descriptionChars}); HTML support: ${feed.htmlSupport}`;
	const quota = `Quota: ${offer.used} of ${offer.quota} postings used, ${remaining} left; cost ${feed.free ? 'free' : `${feed.cost} ${feed.currencyId}`}`;
	// A disabled checkbox is not submitted: a forced feed is always added on the server.
	return (
		`<div class="feed"><input type="checkbox" name="feed" value="${feed.id}" id="${id}"${checked || offer.forced ? ' checked' : ''}${offer.forced ? ' disabled' : ''} aria-describedby="${id}-info">` +
		`<label for="${id}"><strong>${escapeHtml(feed.name)}</strong>${offer.forced ? ' (always posted)' : ''}` +
		`<small id="${id}-info">${escapeHtml(feed.shortDescription)} ${escapeHtml(quota)}. ${escapeHtml(limits)}.</small></label></div>`
	);
}

function renderForm(
	res: ServerResponse,
	context: WebContext,
	advert: AdvertRow,
	offers: OfferedFeed[],
	status: number,
	problems: { feedId?: number; message: string }[],
	chosen?: ReadonlySet<number>,
): void {
	const framed = advert.iframe === 1;
	const errors =
		problems.length === 0
			? ''
			: `<div class="errors" role="alert" tabindex="-1" id="errors"><h2>The posting was not completed</h2><ul>${problems
					.map(
						(problem) =>
							`<li>${problem.feedId ? `<a href="#feed-${problem.feedId}">${escapeHtml(problem.message)}</a>` : escapeHtml(problem.message)}</li>`,
					)
					.join('')}</ul></div>`;
	const self = `/complete-posting/${encodeURIComponent(advert.completionToken)}`;
	const action = relativeHref(self, self);
	const feeds =
		offers.length === 0
			? '<p>No job boards are configured for this user.</p>'
			: offers
					.map((offer) =>
						feedRow(
							offer,
							chosen ? chosen.has(offer.feed.id) : offer.preselected,
							descriptionLength(advert.jobDescription ?? '', offer.feed.htmlSupport),
						),
					)
					.join('');
	const main =
		`<h1>Complete your posting</h1>${errors}${advertFacts(advert)}` +
		`<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrf" value="${escapeHtml(csrfToken(context.secret, `complete:${advert.completionToken}`))}">` +
		`<fieldset><legend>Job boards</legend>${feeds}</fieldset><p><button type="submit">Confirm and post</button></p></form>`;
	sendPage(res, status, { title: 'Complete your posting', main, framed });
}

function renderCompleted(res: ServerResponse, context: WebContext, advert: AdvertRow, completedAt: string): void {
	const rows = context.store.postings
		.ofAdvert(advert.id)
		.map(
			(posting) =>
				`<tr><td>${posting.id}</td><td>${escapeHtml(posting.feedName)}</td><td>${escapeHtml(toDisplayDate(posting.postedAt))}</td>` +
				`<td class="status-${posting.deliveryStatusId}">${escapeHtml(DELIVERY_LABELS[posting.deliveryStatusId] ?? String(posting.deliveryStatusId))}</td></tr>`,
		);
	const main =
		`<h1>Posting completed</h1><div class="ok" role="status"><p>Completed at ${escapeHtml(toDisplayDate(completedAt))} UTC. Delivery to the job boards follows; this page shows the current state.</p></div>` +
		`<table><caption>Postings of &ldquo;${escapeHtml(advert.title)}&rdquo;</caption><thead><tr><th scope="col">Posting</th><th scope="col">Job board</th><th scope="col">Posted</th><th scope="col">Delivery</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
	sendPage(res, 200, { title: 'Posting completed', main, framed: advert.iframe === 1 });
}

/** Labels of DELIVERY_STATUS. */
export const DELIVERY_LABELS: Readonly<Record<number, string>> = {
	0: 'Not delivered',
	1: 'Pending',
	2: 'Delivered',
	3: 'Failed',
	4: 'Expired',
};

/** Serves GET and POST of /complete-posting/<token>. */
export async function handleCompletion(
	req: IncomingMessage,
	res: ServerResponse,
	context: WebContext,
	token: string,
): Promise<void> {
	const advert = token ? context.store.adverts.byCompletionToken(token) : undefined;
	if (!advert) {
		return sendMessage(
			res,
			404,
			'Posting not found',
			'This completion link does not belong to any advert. Check the RedirectUrl returned by AddAdvert.',
		);
	}
	const offers = offeredFeeds(context, advert);
	if (!offers) return sendMessage(res, 404, 'Posting not found', 'The owner of this advert no longer exists.');
	if (req.method === 'GET' || req.method === 'HEAD') {
		const completedAt = context.store.adverts.completedAt(advert.id);
		if (completedAt) return renderCompleted(res, context, advert, completedAt);
		return renderForm(res, context, advert, offers, 200, []);
	}
	if (req.method !== 'POST') {
		return sendMessage(res, 405, 'Method not allowed', 'Use GET to view the page and the form to complete it.');
	}
	const form = await readForm(req);
	if (!form) {
		// The body may not have been read to its end: the connection cannot carry another request.
		res.setHeader('connection', 'close');
		return sendMessage(res, 400, 'Bad request', 'The form could not be read.');
	}
	if (!isValidCsrf(context.secret, `complete:${advert.completionToken}`, form.get('csrf'))) {
		return sendMessage(
			res,
			403,
			'Form expired',
			'This form was not issued for this posting. Open the completion link again.',
		);
	}
	// Nothing read before the body arrived is trusted: other submissions may have completed meanwhile.
	const submitted = new Set(form.getAll('feed').map(Number).filter(Number.isInteger));
	const outcome = context.store.transaction(() => completePosting(context, advert.id, submitted));
	switch (outcome.kind) {
		case 'completed': {
			// Relative, so the page also works under a path prefix (code-server's /proxy/<port>/).
			const self = `/complete-posting/${encodeURIComponent(advert.completionToken)}`;
			return redirect(res, relativeHref(self, self));
		}
		case 'already':
			return sendMessage(
				res,
				409,
				'Already completed',
				`This posting was completed at ${outcome.completedAt} UTC; it cannot be completed twice.`,
			);
		case 'gone':
			return sendMessage(res, 404, 'Posting not found', 'This advert or its owner no longer exists.');
		case 'invalid':
			return renderForm(res, context, outcome.advert, outcome.offers, 422, outcome.problems, submitted);
	}
}

type CompletionOutcome =
	| { kind: 'completed' }
	| { kind: 'already'; completedAt: string }
	| { kind: 'gone' }
	| {
			kind: 'invalid';
			advert: AdvertRow;
			offers: OfferedFeed[];
			problems: { feedId?: number; message: string }[];
	  };

/**
 * Completes a posting inside the caller's transaction: checks it is not completed, validates the choice
 * against the quota as it is now, claims the completion (a conditional update) and creates the postings.
 */
function completePosting(context: WebContext, advertId: number, submitted: ReadonlySet<number>): CompletionOutcome {
	const completedAt = context.store.adverts.completedAt(advertId);
	if (completedAt) return { kind: 'already', completedAt };
	const advert = context.store.adverts.byId(advertId);
	const offers = advert && offeredFeeds(context, advert);
	if (!advert || !offers) return { kind: 'gone' };
	const chosen = offers.filter((offer) => offer.forced || submitted.has(offer.feed.id));
	const unknown = [...submitted].filter((feedId) => !offers.some((offer) => offer.feed.id === feedId));
	const problems = [
		...unknown.map((feedId) => ({ message: `Job board ${feedId} is not available to this user.` })),
		...validateChoice(advert, chosen),
	];
	if (problems.length > 0) return { kind: 'invalid', advert, offers, problems };
	const now = context.clock.now();
	if (!context.store.adverts.markCompleted(advert.id, toStoredDate(now))) {
		return { kind: 'already', completedAt: context.store.adverts.completedAt(advert.id) ?? toStoredDate(now) };
	}
	const postAt = advert.scheduledPostAt ? new Date(advert.scheduledPostAt) : now;
	context.scheduler.enqueue(
		advert.id,
		advert.userId,
		chosen.map((offer) => offer.feed.id),
		postAt,
	);
	return { kind: 'completed' };
}
