/**
 * The Create Advert form: one webview generated from the catalogue's AddAdvert parameters, with the
 * user's job boards, their description limits, quota and cost. The answers stay while the panel is
 * open, also when the service refuses them; the service's message shows next to the field it names.
 * After creation the panel shows the completion link with Copy and Open for as long as it is open.
 */
import {
	advertFormFields,
	isAdvertFormToHostMessage,
	type AdvertFormToHostMessage,
	type AdvertFormValues,
	type FeedOption,
	type HostToAdvertFormMessage,
} from '../../shared/advertForm';
import { readFeedOptions, submitAdvert, type CreatedAdvert } from '../actions/createAdvert';
import { VIEW_TYPES } from '../ids';
import type { AdvertRef, WorkbenchServices } from '../services';
import type { UiPort } from '../ui/port';
import { WebviewPanelBase } from '../webviews/webviewPanel';

export class CreateAdvertPanel extends WebviewPanelBase<AdvertFormToHostMessage, HostToAdvertFormMessage> {
	private readonly fields = advertFormFields();
	private values: AdvertFormValues = {};
	private feeds: FeedOption[] = [];
	private created?: CreatedAdvert;

	constructor(
		private readonly services: WorkbenchServices,
		private readonly ui: UiPort,
		private readonly showAdvert: (ref: AdvertRef) => Promise<void>,
		onDisposed: () => void,
	) {
		super(
			{ extensionUri: services.extensionUri, log: services.log },
			{
				viewType: VIEW_TYPES.createAdvert,
				script: 'createAdvert',
				title: 'Create Advert',
				styles: ['media/panels.css'],
				parse: (value) => (isAdvertFormToHostMessage(value) ? value : undefined),
			},
			onDisposed,
		);
	}

	protected override failure(text: string): HostToAdvertFormMessage[] {
		return [{ type: 'refused', message: text }];
	}

	protected override async handle(message: AdvertFormToHostMessage): Promise<void> {
		switch (message.type) {
			case 'ready':
				return this.init();
			case 'draft':
				this.values = message.values;
				return;
			case 'submit':
				this.values = message.values;
				return this.submit();
			case 'openCompletion':
				if (this.created?.advertId !== undefined) {
					await this.services.adverts.openCompletionPage({
						advertId: this.created.advertId,
						title: this.created.title,
					});
				}
				return;
			case 'copyCompletion':
				if (this.created?.redirectUrl) {
					await this.ui.copyText(await this.ui.externalUrl(this.created.redirectUrl));
					this.ui.status('Copied the completion link');
				}
				return;
			case 'showAdvert':
				if (this.created?.advertId !== undefined) {
					await this.showAdvert({ advertId: this.created.advertId, title: this.created.title });
				}
				return;
			case 'startOver':
				this.created = undefined;
				this.values = {};
				this.panel.title = 'Create Advert';
				return this.init();
			case 'keepOpen':
				return;
		}
	}

	/** Sends the form (after reading the boards), or the result when the advert was created. */
	private async init(): Promise<void> {
		if (this.created) {
			this.post({ type: 'created', ...this.created });
			return;
		}
		this.post({ type: 'busy', busy: true, label: 'Reading your job boards…' });
		const { feeds, problem } = await readFeedOptions(this.services).finally(() =>
			this.post({ type: 'busy', busy: false }),
		);
		this.feeds = feeds;
		this.post({ type: 'init', fields: this.fields, feeds, feedsProblem: problem, values: this.values });
	}

	private async submit(): Promise<void> {
		this.post({ type: 'busy', busy: true, label: 'Creating the advert…' });
		const outcome = await submitAdvert(this.services, this.values, this.fields, this.feeds).finally(() =>
			this.post({ type: 'busy', busy: false }),
		);
		if ('refused' in outcome) {
			this.post({ type: 'refused', message: outcome.refused, field: outcome.field });
			return;
		}
		this.created = outcome.created;
		this.panel.title = `Advert created: ${outcome.created.title}`;
		this.post({ type: 'created', ...outcome.created });
	}
}
