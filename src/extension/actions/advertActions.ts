/** Express post and the web interface login, asked for through quick inputs when needed. */
import type { CPostFeed } from '../../protocol/catalogue';
import type { AdvertActions, AdvertRef, WorkbenchServices } from '../services';
import type { PickItem, UiPort } from '../ui/port';
import { reportFailure, runWithProgress } from './run';

/** The value of the "all previous destinations" choice: an empty DestinationsAsCSV. */
const ALL_PREVIOUS = '';

/** Quick pick items of a user's feeds, for choosing destinations. */
export function feedPickItems(feeds: readonly CPostFeed[]): PickItem<string>[] {
	return feeds
		.filter((f) => f.FeedIdentifier || f.FeedID !== undefined)
		.map((f) => ({
			label: f.FeedName || f.FeedIdentifier || String(f.FeedID),
			description: f.FeedIdentifier ?? String(f.FeedID),
			detail: quotaText(f),
			picked: f.DefaultSelected === 1 || f.ForceSelected === 1,
			value: f.FeedIdentifier || String(f.FeedID),
		}));
}

function quotaText(feed: CPostFeed): string | undefined {
	if (feed.EffectiveQuota === undefined) {
		return undefined;
	}
	return `Quota ${feed.EffectiveQuota}, used ${feed.PostingsUsed ?? '0'}`;
}

export class AdvertActionsImpl implements AdvertActions {
	constructor(
		private readonly services: WorkbenchServices,
		private readonly ui: UiPort,
	) {}

	async expressPost(advert: AdvertRef, destinations?: string[]): Promise<boolean> {
		if (destinations === undefined) {
			const feeds = await runWithProgress(
				this.ui,
				this.services.log,
				'Reading your feeds',
				true,
				async (signal) =>
					(await this.services.activeClient()).userFeedsAndQuotaWithDestinations({}, { signal }),
			);
			if (feeds === undefined) {
				return false;
			}
			const choice = await this.ui.pick<'all' | 'pick'>(
				[
					{
						label: 'All previous destinations',
						description: 'Deliver again to every job board it was posted to',
						value: 'all',
					},
					{ label: 'Choose destinations…', description: `${feeds.length} feeds`, value: 'pick' },
				],
				{ title: `Express post advert ${advert.advertId}` },
			);
			if (!choice) {
				return false;
			}
			if (choice.value === 'pick') {
				const picked = await this.ui.pickMany(feedPickItems(feeds), {
					title: `Express post advert ${advert.advertId}: destinations`,
					placeholder: 'Pick the job boards',
				});
				if (!picked || picked.length === 0) {
					return false;
				}
				destinations = picked.map((p) => p.value);
			} else {
				destinations = [ALL_PREVIOUS];
			}
		}
		const csv = destinations.filter((d) => d !== ALL_PREVIOUS).join(',');
		const result = await runWithProgress(
			this.ui,
			this.services.log,
			'Express posting the advert',
			false,
			async (signal) =>
				(await this.services.activeClient()).expressPostAdvert(
					{ sAdvertID: String(advert.advertId), DestinationsAsCSV: csv || undefined },
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
				`Advert ${advert.advertId} was not delivered anywhere: it has no previous postings to those destinations.`,
			);
			return false;
		}
		void this.ui.info(
			`Advert ${advert.advertId} will be delivered again to ${postings} job board${postings === 1 ? '' : 's'}.`,
		);
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
					advert ? { returnUrl: `/advert/${advert.advertId}` } : {},
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
				`The service did not log you in: ${result.LoginMessage || 'no reason given'}.`,
			);
			return;
		}
		let host: string;
		try {
			const url = new URL(result.RedirectUrl);
			if (url.protocol !== 'https:' && url.protocol !== 'http:') {
				throw new Error('not a web address');
			}
			host = url.host;
		} catch {
			reportFailure(
				this.ui,
				this.services.log,
				'The service returned a login address that is not a web address.',
			);
			return;
		}
		const open = await this.ui.warnModal(
			`Open the web interface at ${host}?`,
			'The address logs you in; do not share it.',
			'Open',
		);
		if (open === 'Open') {
			await this.ui.openExternal(result.RedirectUrl);
		}
	}
}
