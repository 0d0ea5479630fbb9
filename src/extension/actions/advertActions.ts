/**
 * Express post, the web interface login, the completion page of a new advert and untrusted links,
 * asked for through quick inputs and confirmed with the user where they spend quota or leave VS Code.
 */
import type { AdvertRef, AdvertActions, WorkbenchServices } from '../services';
import type { UiPort } from '../ui/port';
import { isWebUrl } from '../util/externalUrl';
import { clause, sentence } from '../vocabulary';
import { expressPickItems, expressSummary, postedFeeds } from './expressPlan';
import { advertById } from '../reads/queries';
import { reportFailure, runWithProgress } from './run';

/** "“Nurse” (advert 1234)", or "advert 1234" when the title is unknown. */
export function advertName(advert: AdvertRef): string {
	return advert.title ? `“${advert.title}” (advert ${advert.advertId})` : `advert ${advert.advertId}`;
}

export const OPEN_COMPLETION = 'Open Completion Page';

export class AdvertActionsImpl implements AdvertActions {
	/** RedirectUrls of adverts created in this session, by connection and AdvertID (memory only). */
	private readonly completionLinks = new Map<string, string>();

	constructor(
		private readonly services: WorkbenchServices,
		private readonly ui: UiPort,
	) {}

	/**
	 * Offers the feeds the advert was posted to (all ticked), confirms with the quota and cost it uses,
	 * then delivers it again. Resolves to true when the service accepted it.
	 */
	async expressPost(advert: AdvertRef): Promise<boolean> {
		const data = await runWithProgress(
			this.ui,
			this.services.log,
			'Reading where the advert was posted',
			true,
			async (signal) => {
				const client = await this.services.activeClient();
				const sAdvertID = String(advert.advertId);
				const [tracking, feeds, found] = await Promise.all([
					client.advertTrackingResponseLog({ sAdvertID }, { signal }),
					client.userFeedsAndQuotaWithDestinations({}, { signal }),
					advert.title ? undefined : advertById(client, advert.advertId, { signal }),
				]);
				return { tracking, feeds, title: advert.title ?? found?.AdvertTitle };
			},
		);
		if (data === undefined) {
			return false;
		}
		const named: AdvertRef = { ...advert, title: data.title };
		const posted = postedFeeds(data.tracking, data.feeds);
		if (posted.length === 0) {
			const link = this.completionLink(advert.advertId);
			const choice = await this.ui.info(
				`${capitalise(advertName(named))} has never been posted, so it cannot be express posted. Complete its posting first.`,
				...(link ? [OPEN_COMPLETION] : []),
			);
			if (choice === OPEN_COMPLETION) await this.openCompletionPage(named);
			return false;
		}
		const picked = await this.ui.pickMany(expressPickItems(posted), {
			title: `Express post ${advertName(named)}`,
			placeholder: 'The job boards it was posted to; untick any to leave out',
		});
		if (!picked || picked.length === 0) {
			return false;
		}
		const chosen = posted.filter((f) => picked.some((p) => p.value === f.feedId));
		const names = chosen.map((f) => f.name).join(', ');
		const confirm = await this.ui.warnModal(
			`Express post ${advertName(named)} to ${names}?`,
			expressSummary(chosen),
			'Express Post',
		);
		if (confirm !== 'Express Post') {
			return false;
		}
		const result = await runWithProgress(
			this.ui,
			this.services.log,
			`Express posting ${advertName(named)}`,
			false,
			async (signal) =>
				(await this.services.activeClient()).expressPostAdvert(
					{ sAdvertID: String(advert.advertId), DestinationsAsCSV: chosen.map((f) => f.feedId).join(',') },
					{ signal },
				),
		);
		if (!result) {
			return false;
		}
		const postings = result.Postings?.length ?? 0;
		if (postings === 0) {
			reportFailure(
				this.ui,
				this.services.log,
				`${capitalise(advertName(named))} was not delivered anywhere: the service created no postings.`,
			);
			return false;
		}
		void this.ui.info(`${capitalise(advertName(named))} will be delivered again to ${names}.`);
		this.services.notifyDataChanged({ advertId: advert.advertId });
		return true;
	}

	async openInWebInterface(advert?: AdvertRef): Promise<void> {
		const result = await runWithProgress(
			this.ui,
			this.services.log,
			'Getting a login address',
			false,
			async (signal) =>
				(await this.services.activeClient()).getLoginURL(
					advert ? { returnUrl: `/web/adverts/${advert.advertId}` } : {},
					{ signal },
				),
		);
		if (!result) {
			return;
		}
		if (!result.LoginSuccess || !result.RedirectUrl) {
			reportFailure(
				this.ui,
				this.services.log,
				sentence('The service did not log you in:', clause(result.LoginMessage || 'no reason given')),
			);
			return;
		}
		if (!isWebUrl(result.RedirectUrl)) {
			reportFailure(
				this.ui,
				this.services.log,
				'The service returned a login address that is not a web address.',
			);
			return;
		}
		const external = await this.ui.externalUrl(result.RedirectUrl);
		const open = await this.ui.warnModal(
			`Open the web interface at ${new URL(external).host}?`,
			'The address logs you in once; do not share it.',
			'Open',
		);
		if (open === 'Open') {
			await this.ui.openExternal(result.RedirectUrl);
		}
	}

	rememberCompletionLink(advertId: number, url: string): void {
		if (isWebUrl(url)) this.completionLinks.set(this.linkKey(advertId), url);
	}

	completionLink(advertId: number): string | undefined {
		return this.completionLinks.get(this.linkKey(advertId));
	}

	async openCompletionPage(advert: AdvertRef): Promise<void> {
		const link = this.completionLink(advert.advertId);
		if (!link) {
			void this.ui.info(
				`The completion page of ${advertName(advert)} is not known here: only adverts created in this session have one. Use Open Web Interface.`,
			);
			return;
		}
		await this.ui.openExternal(link);
	}

	/** Opens a link found in service data (a job description) after the user confirmed the exact URL. */
	async openUntrustedLink(url: string): Promise<void> {
		const choice = await this.ui.warnModal(
			'Open this link in your browser?',
			`${url}\n\nThe link comes from the service's data. Check the address before opening it.`,
			'Open Link',
		);
		if (choice === 'Open Link') await this.ui.openExternal(url);
	}

	private linkKey(advertId: number): string {
		return `${this.services.activeConnection().id}:${advertId}`;
	}
}

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
