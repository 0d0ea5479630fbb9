/** The advert details panel: fields, counters chart, per-feed values, postings and their delivery log. */
import type { Advert } from '../../protocol/catalogue';
import type { AdvertToHostMessage, HostToAdvertMessage } from '../../shared/panelMessages';
import { isAdvertToHostMessage, isOpenableUrl } from '../../shared/panelMessages';
import { VIEW_TYPES } from '../ids';
import { advertById, advertValues, feedNames } from '../reads/queries';
import type { AdvertRef, WorkbenchServices } from '../services';
import { buildAdvertView } from './models';
import { copyToClipboard, DetailPanel, type PanelOptions } from './panelBase';

export const ADVERT_VIEW_TYPE = VIEW_TYPES.advert;

export class AdvertPanel extends DetailPanel<AdvertToHostMessage, HostToAdvertMessage> {
	private ref: AdvertRef;
	private generation = 0;
	private record?: Advert;
	/** The load under way for an advert: a click also moves the selection, and both ask to show it. */
	private inflight?: { advertId: number; done: Promise<void> };

	constructor(services: WorkbenchServices, ref: AdvertRef, options: PanelOptions & { initial?: Advert }) {
		super(
			services,
			{
				viewType: ADVERT_VIEW_TYPE,
				kind: 'advert',
				script: 'advert',
				isMessage: isAdvertToHostMessage,
				// The row's fields are drawn from the HTML, before the first round trip to the host.
				initialMessages: [
					{ type: 'mode', preview: options.preview },
					...(options.initial
						? [
								{
									type: 'advert' as const,
									view: buildAdvertView(options.initial, {
										completionLink: services.adverts.completionLink(ref.advertId),
										loading: true,
									}),
								},
							]
						: []),
				],
			},
			options,
		);
		this.ref = ref;
		this.title = `#${ref.advertId}`;
		if (options.initial) this.present(options.initial);
		this.subscribe(
			services.onDidChangeData((change) => {
				if (change.advertId === this.ref.advertId && change.advertCandidateId === undefined) {
					void this.load().catch(() => undefined);
				}
			}),
		);
		// Back from the browser (a completed posting, a delivery): show what changed meanwhile.
		this.subscribe(
			this.panel.onDidChangeViewState((event) => {
				if (event.webviewPanel.visible && this.ready) void this.load().catch(() => undefined);
			}),
		);
	}

	get key(): number {
		return this.ref.advertId;
	}

	show(ref: AdvertRef, initial?: Advert): void {
		if (ref.advertId !== this.ref.advertId) {
			this.generation++;
			this.record = undefined;
			this.ref = ref;
			this.title = `#${ref.advertId}`;
		}
		if (initial) this.present(initial);
		if (this.ready && this.inflight?.advertId !== ref.advertId) void this.load().catch(() => undefined);
	}

	protected override async onMessage(message: AdvertToHostMessage): Promise<void> {
		switch (message.type) {
			case 'ready':
				if (this.record) this.postBasic(this.record);
				return this.load();
			case 'refresh':
				return this.load();
			case 'expressPost':
				if (await this.services.adverts.expressPost(this.ref)) await this.load();
				return;
			case 'openWeb':
				return this.services.adverts.openInWebInterface(this.ref);
			case 'openCompletion':
				return this.services.adverts.openCompletionPage(this.ref);
			case 'copyCompletion': {
				const link = this.services.adverts.completionLink(this.ref.advertId);
				return copyToClipboard('completion link', link);
			}
			case 'copy':
				return copyToClipboard(message.field, this.ref[message.field]);
			case 'openLink':
				if (isOpenableUrl(message.url)) await this.services.adverts.openUntrustedLink(message.url);
				return;
			case 'keepOpen':
				return;
		}
	}

	private present(advert: Advert): void {
		this.record = advert;
		this.title = advert.AdvertTitle || `#${advert.AdvertID}`;
		if (this.ready) this.postBasic(advert);
	}

	/** The advert from a row already at hand: fields now, values and the delivery log after loading. */
	private postBasic(advert: Advert): void {
		const view = buildAdvertView(advert, {
			completionLink: this.services.adverts.completionLink(this.ref.advertId),
			loading: true,
		});
		this.post({ type: 'advert', view });
	}

	private load(): Promise<void> {
		const advertId = this.ref.advertId;
		const done = this.loadOnce().finally(() => {
			if (this.inflight?.done === done) this.inflight = undefined;
		});
		this.inflight = { advertId, done };
		return done;
	}

	private async loadOnce(): Promise<void> {
		const generation = this.generation;
		const ref = this.ref;
		await this.busy('Loading advert…', async () => {
			const started = performance.now();
			const client = await this.services.activeClient();
			const sAdvertID = String(ref.advertId);
			const timed = <T>(name: string, read: Promise<T>): Promise<T> =>
				read.finally(() => times.push(`${name} ${Math.round(performance.now() - started)} ms`));
			const times: string[] = [];
			const [found, values, tracking, names] = await Promise.allSettled([
				timed('GetAdvertPaged', advertById(client, ref.advertId)),
				timed('GetAdvertWithValues', advertValues(client, ref.advertId)),
				timed('AdvertTrackingResponseLog', client.advertTrackingResponseLog({ sAdvertID })),
				timed('UserFeedsAndQuotaWithDestinations', feedNames(client)),
			]);
			// Where an advert panel's time goes, for a real run's log (trace level).
			this.services.log.trace(`Advert panel ${ref.advertId}: ${times.join(', ')}`);
			if (generation !== this.generation) return;
			if (found.status === 'rejected') throw found.reason;
			const advert = found.value;
			if (!advert) {
				this.post({ type: 'error', message: `Advert ${ref.advertId} was not found on this connection.` });
				return;
			}
			this.ref = {
				advertId: ref.advertId,
				advertIdentifier: advert.AdvertIdentifier || ref.advertIdentifier,
				advertReference: advert.AdvertReference || ref.advertReference,
				title: advert.AdvertTitle || ref.title,
			};
			this.record = advert;
			this.title = advert.AdvertTitle || `#${advert.AdvertID}`;
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
				// The names are a nicety: without them the headings say "Job board 107".
				feedNames: names.status === 'fulfilled' ? names.value : undefined,
				warnings,
				completionLink: this.services.adverts.completionLink(ref.advertId),
			});
			this.post({ type: 'advert', view });
			this.services.notifyAdvertSeen(advert);
		});
	}

	protected override busyMessage(busy: boolean, label?: string): HostToAdvertMessage {
		return { type: 'busy', busy, label };
	}

	protected override errorMessage(message: string): HostToAdvertMessage {
		return { type: 'error', message };
	}

	protected override modeMessage(preview: boolean): HostToAdvertMessage {
		return { type: 'mode', preview };
	}
}

function reason(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
