/**
 * Tells a double-click from a click on a tree row. VS Code runs a row's command on the click and
 * again on the double-click, without saying which; the second run for the same row within the
 * double-click time is the double-click, which pins the preview as it pins a preview editor.
 */

/** The longest gap between the two runs of a double-click (the platforms default to 500 ms). */
export const DOUBLE_CLICK_MS = 500;

export class OpenGesture {
	private last?: { key: string; at: number };

	constructor(
		private readonly windowMs = DOUBLE_CLICK_MS,
		private readonly now: () => number = Date.now,
	) {}

	/** Records an open of `key`; true when it repeats the previous open within the window. */
	isRepeat(key: string): boolean {
		const at = this.now();
		const repeat = this.last !== undefined && this.last.key === key && at - this.last.at <= this.windowMs;
		// A third quick run starts a new gesture instead of counting as another double-click.
		this.last = repeat ? undefined : { key, at };
		return repeat;
	}
}
