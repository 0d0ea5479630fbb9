/** The delivery log of an advert and the account's feeds and quota, as read-only documents. */
import type { AdvertTrackingLog, CPostFeed } from '../../protocol/catalogue';
import { dateWithIso, isUnsetDate } from '../../shared/dates';
import type { AdvertRef, WorkbenchServices } from '../services';
import type { UiPort } from '../ui/port';
import { escapeMarkdown } from '../util/markdown';
import { advertName } from './advertActions';
import { costText, money } from './expressPlan';
import { advertById } from '../reads/queries';
import { deliveryOutcome } from '../vocabulary';
import { runWithProgress } from './run';

/**
 * The delivery log of an advert's postings, as plain text. A document has no tooltips, so each date
 * shows in the user's locale followed by its ISO form (what one quotes to the service).
 */
export function formatDeliveryLog(
	advert: AdvertRef,
	logs: readonly AdvertTrackingLog[],
	format: { locale?: string; timeZone?: string } = {},
): string {
	const name = advertName(advert);
	if (logs.length === 0) {
		return `Delivery log of ${name}: nothing delivered yet.\n`;
	}
	const lines = [`Delivery log of ${name}`, ''];
	for (const log of logs) {
		lines.push(
			`${isUnsetDate(log.DeliveryDate) ? '(no date)' : dateWithIso(log.DeliveryDate, format)}  ${log.FeedName ?? `job board ${log.FeedID}`}  posting ${log.PostingID ?? '?'}  ${outcomeText(log.ErrorLevel)}`.trimEnd(),
		);
		if (log.Response) {
			lines.push(...log.Response.split(/\r?\n/).map((l) => `    ${l}`));
		}
	}
	return `${lines.join('\n')}\n`;
}

export async function showDeliveryLog(services: WorkbenchServices, ui: UiPort, advert: AdvertRef): Promise<void> {
	const result = await runWithProgress(ui, services.log, 'Reading the delivery log', true, async (signal) => {
		const client = await services.activeClient();
		const sAdvertID = String(advert.advertId);
		const [logs, found] = await Promise.all([
			client.advertTrackingResponseLog({ sAdvertID }, { signal }),
			advert.title ? undefined : advertById(client, advert.advertId, { signal }),
		]);
		return { logs, title: advert.title ?? found?.AdvertTitle };
	});
	if (result !== undefined) {
		const named = { ...advert, title: result.title };
		await ui.showDocument(
			formatDeliveryLog(named, result.logs, { locale: ui.locale }),
			'plaintext',
			`Delivery log of ${result.title ?? `advert ${advert.advertId}`} (${advert.advertId})`,
		);
	}
}

/** What happened to a delivery, and the service's own word for it when that differs ("Delivered (ErrorLevel None)"). */
function outcomeText(errorLevel: string | undefined): string {
	if (!errorLevel) return '';
	const outcome = deliveryOutcome(errorLevel);
	return outcome === errorLevel ? outcome : `${outcome} (ErrorLevel ${errorLevel})`;
}

/** Escapes text for a Markdown table cell. */
export function markdownCell(text: string | number | undefined): string {
	return escapeMarkdown(String(text ?? '')).replace(/\r?\n/g, ' ');
}

/** Feeds and quota as a Markdown table. */
export function formatFeeds(username: string | undefined, feeds: readonly CPostFeed[]): string {
	const lines = [`# Feeds and quota${username ? ` of ${markdownCell(username)}` : ''}`, ''];
	if (feeds.length === 0) {
		return `${lines.join('\n')}No feeds are configured.\n`;
	}
	lines.push(
		'| Job board | Identifier | Quota | Used | Left | Cost | Spent | Description length |',
		'|---|---|---|---|---|---|---|---|',
	);
	for (const f of feeds) {
		const quota = Number(f.EffectiveQuota ?? NaN);
		const used = Number(f.PostingsUsed ?? 0);
		const left = Number.isFinite(quota) ? Math.max(quota - used, 0) : '';
		const cost =
			costText({
				feedId: f.FeedID ?? 0,
				name: '',
				cost: f.FeedCost === undefined ? undefined : Number(f.FeedCost),
				currency: f.CurrencyID,
				costType: f.FeedCostType,
			}) ?? '';
		const spent =
			f.SpendUsed !== undefined && f.SpendUsed !== ''
				? money(Number(f.SpendUsed), f.SpendUsedCurrencyID || f.CurrencyID)
				: '';
		const length = `${f.JobDescriptionMinimumLength ?? 0}–${f.JobDescriptionMaximumLength || '∞'}`;
		lines.push(
			`| ${[f.FeedName, f.FeedIdentifier, f.EffectiveQuota, f.PostingsUsed, left, cost, spent, length].map(markdownCell).join(' | ')} |`,
		);
	}
	return `${lines.join('\n')}\n`;
}

export async function showFeeds(services: WorkbenchServices, ui: UiPort): Promise<void> {
	const feeds = await runWithProgress(ui, services.log, 'Reading feeds and quota', true, async (signal) =>
		(await services.activeClient()).userFeedsAndQuotaWithDestinations({}, { signal }),
	);
	if (feeds !== undefined) {
		const username = services.activeConnection().username;
		await ui.showDocument(
			formatFeeds(username, feeds),
			'markdown',
			`Feeds and quota${username ? ` of ${username}` : ''}`,
		);
	}
}
