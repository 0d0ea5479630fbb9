/** The advert details panel: fields, counters chart, per-feed values, postings and their delivery log. */
import type { AdvertToHostMessage, HostToAdvertMessage } from '../../shared/panelMessages';
import { isAdvertToHostMessage } from '../../shared/panelMessages';
import type { AdvertRef, WorkbenchServices } from '../services';
import { buildAdvertView } from './models';
import { copyToClipboard, DetailPanel } from './panelBase';

export const ADVERT_VIEW_TYPE = 'multiposting.advertDetails';

export class AdvertPanel extends DetailPanel<AdvertToHostMessage, HostToAdvertMessage> {
	constructor(
		services: WorkbenchServices,
		private ref: AdvertRef,
		onDisposed: () => void,
	) {
		super(
			services,
			{
				viewType: ADVERT_VIEW_TYPE,
				script: 'advert',
				title: `Advert ${ref.advertId}`,
				isMessage: isAdvertToHostMessage,
			},
			onDisposed,
		);
		this.subscribe(
			services.onDidChangeData((change) => {
				if (change.advertId === ref.advertId && change.advertCandidateId === undefined) {
					void this.load().catch(() => undefined);
				}
			}),
		);
	}

	protected override async handle(message: AdvertToHostMessage): Promise<void> {
		switch (message.type) {
			case 'ready':
			case 'refresh':
				return this.load();
			case 'expressPost':
				if (await this.services.adverts.expressPost(this.ref)) await this.load();
				return;
			case 'openWeb':
				return this.services.adverts.openInWebInterface(this.ref);
			case 'copy':
				return copyToClipboard(message.field, this.ref[message.field]);
		}
	}

	private async load(): Promise<void> {
		await this.busy('Loading advert…', async () => {
			const client = await this.services.activeClient();
			const sAdvertID = String(this.ref.advertId);
			const [page, values, tracking] = await Promise.allSettled([
				client.getAdvertPaged({ sAdvertID, sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 1 }),
				client.getAdvertWithValues({ sAdvertID, sSearchDays: '-1' }),
				client.advertTrackingResponseLog({ sAdvertID }),
			]);
			if (page.status === 'rejected') throw page.reason;
			const advert = page.value.Adverts?.find((a) => a.AdvertID === this.ref.advertId) ?? page.value.Adverts?.[0];
			if (!advert) {
				this.post({ type: 'error', message: `Advert ${this.ref.advertId} was not found on this connection.` });
				return;
			}
			this.ref = {
				advertId: this.ref.advertId,
				advertIdentifier: advert.AdvertIdentifier || this.ref.advertIdentifier,
				advertReference: advert.AdvertReference || this.ref.advertReference,
			};
			const warnings: string[] = [];
			if (values.status === 'rejected') {
				warnings.push(`Extra values could not be loaded: ${reason(values.reason)}`);
			}
			if (tracking.status === 'rejected') {
				warnings.push(`The delivery log could not be loaded: ${reason(tracking.reason)}`);
			}
			const view = buildAdvertView(advert, {
				values: values.status === 'fulfilled' ? values.value : [],
				tracking: tracking.status === 'fulfilled' ? tracking.value : [],
				warnings,
			});
			this.title = `Advert: ${view.title}`;
			this.post({ type: 'advert', view });
		});
	}

	protected override busyMessage(busy: boolean, label?: string): HostToAdvertMessage {
		return { type: 'busy', busy, label };
	}

	protected override errorMessage(message: string): HostToAdvertMessage {
		return { type: 'error', message };
	}
}

function reason(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
