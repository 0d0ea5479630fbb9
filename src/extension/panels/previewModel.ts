/**
 * Which panel an "open" uses, as VS Code's preview editors decide it: a row opened from the tree goes
 * into the one preview panel of its kind (replacing what it showed), a panel that was pinned (double
 * click, "Keep Open", or opened from a command) stays, and an item already open is revealed.
 */

export type PanelKind = 'advert' | 'application';

/** What the decision needs to know about an open panel. */
export interface PanelSlot {
	readonly kind: PanelKind;
	/** AdvertID or AdvertCandidateID of what it shows. */
	readonly key: number;
	readonly preview: boolean;
}

export type OpenDecision<P> =
	/** The item is open in `panel`: reveal it, pinning it first when asked to open pinned. */
	| { action: 'reveal'; panel: P; pin: boolean }
	/** Show the item in the preview panel `panel` instead of what it shows. */
	| { action: 'retarget'; panel: P }
	| { action: 'create'; preview: boolean };

export function decideOpen<P extends PanelSlot>(
	open: readonly P[],
	kind: PanelKind,
	key: number,
	preview: boolean,
): OpenDecision<P> {
	const same = open.filter((p) => p.kind === kind && p.key === key);
	// A pinned panel of the item wins over a preview that happens to show it too.
	const showing = same.find((p) => !p.preview) ?? same[0];
	if (showing) return { action: 'reveal', panel: showing, pin: !preview && showing.preview };
	if (preview) {
		const slot = open.find((p) => p.kind === kind && p.preview);
		if (slot) return { action: 'retarget', panel: slot };
	}
	return { action: 'create', preview };
}
