/**
 * The detail panels and the Create Advert form: which panel an open goes to (the preview rules of
 * previewModel.ts), pinning, the active application for keyboard commands, and the context key that
 * shows "Keep Open" on a preview panel.
 */
import * as vscode from 'vscode';
import type { APIApplication, Advert } from '../../protocol/catalogue';
import type { OpenOptions, PanelPort } from '../commands/context';
import { CONTEXT_KEYS } from '../ids';
import type { AdvertRef, ApplicationRef, WorkbenchServices } from '../services';
import type { UiPort } from '../ui/port';
import { AdvertPanel } from './advertPanel';
import { ApplicationPanel } from './applicationPanel';
import { CreateAdvertPanel } from './createAdvertPanel';
import { decideOpen, type PanelKind } from './previewModel';

type Panel = AdvertPanel | ApplicationPanel;

export class PanelManager implements PanelPort, vscode.Disposable {
	private readonly open: Panel[] = [];
	private form?: CreateAdvertPanel;
	private previewActive = false;

	constructor(
		private readonly services: WorkbenchServices,
		private readonly ui: UiPort,
	) {}

	async showApplication(ref: ApplicationRef, options: OpenOptions): Promise<void> {
		const initial = options.initial as APIApplication | undefined;
		const panel = this.place(
			'application',
			ref.advertCandidateId,
			options,
			(common) => new ApplicationPanel(this.services, ref, { ...common, initial }),
		) as ApplicationPanel | undefined;
		panel?.show(ref, initial);
	}

	async showAdvert(ref: AdvertRef, options: OpenOptions): Promise<void> {
		const initial = options.initial as Advert | undefined;
		const panel = this.place(
			'advert',
			ref.advertId,
			options,
			(common) => new AdvertPanel(this.services, ref, { ...common, initial }),
		) as AdvertPanel | undefined;
		panel?.show(ref, initial);
	}

	/**
	 * Finds or creates the panel for an item and reveals it; resolves to a panel that still has to be
	 * told what to show (undefined when it was created for it).
	 */
	private place(
		kind: PanelKind,
		key: number,
		options: OpenOptions,
		create: (common: {
			preview: boolean;
			preserveFocus?: boolean;
			onDisposed(): void;
			onDidChangeState(): void;
		}) => Panel,
	): Panel | undefined {
		const decision = decideOpen(this.open, kind, key, options.preview);
		if (decision.action === 'create') {
			const panel: Panel = create({
				preview: decision.preview,
				preserveFocus: options.preserveFocus,
				onDisposed: () => {
					const at = this.open.indexOf(panel);
					if (at >= 0) this.open.splice(at, 1);
					this.updateContext();
				},
				onDidChangeState: () => this.updateContext(),
			});
			this.open.push(panel);
			this.updateContext();
			return undefined;
		}
		if (decision.action === 'reveal' && decision.pin) decision.panel.pin();
		decision.panel.bringForward(options.preserveFocus);
		return decision.panel;
	}

	/** The tree's selection moved to an application or advert: the open preview of its kind follows. */
	followSelection(kind: PanelKind, ref: ApplicationRef | AdvertRef, initial: APIApplication | Advert): void {
		const key = kind === 'application' ? (ref as ApplicationRef).advertCandidateId : ref.advertId;
		const preview = this.open.find((p) => p.kind === kind && p.preview);
		if (!preview || preview.key === key) return;
		// An item pinned in its own panel is not also shown in the preview.
		if (this.open.some((p) => p.kind === kind && p.key === key)) return;
		if (preview instanceof ApplicationPanel) preview.show(ref as ApplicationRef, initial as APIApplication);
		else preview.show(ref as AdvertRef, initial as Advert);
	}

	async showCreateAdvert(): Promise<void> {
		if (this.form) {
			this.form.reveal();
			return;
		}
		this.form = new CreateAdvertPanel(
			this.services,
			this.ui,
			(ref) => this.showAdvert(ref, { preview: false }),
			() => (this.form = undefined),
		);
	}

	keepOpen(): boolean {
		const panel = this.open.find((p) => p.active && p.preview);
		panel?.pin();
		return panel !== undefined;
	}

	activeApplication(): ApplicationRef | undefined {
		const panel = this.open.find((p): p is ApplicationPanel => p.active && p instanceof ApplicationPanel);
		return panel?.current;
	}

	async retargetActiveApplication(ref: ApplicationRef, initial?: APIApplication): Promise<void> {
		const panel = this.open.find((p): p is ApplicationPanel => p.active && p instanceof ApplicationPanel);
		if (panel) panel.show(ref, initial);
		else await this.showApplication(ref, { preview: true, initial });
	}

	private updateContext(): void {
		const active = this.open.some((p) => p.active && p.preview);
		if (active === this.previewActive) return;
		this.previewActive = active;
		void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.previewActive, active);
	}

	dispose(): void {
		for (const panel of this.open.splice(0)) panel.dispose();
		this.form?.dispose();
	}
}
