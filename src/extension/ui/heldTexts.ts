/**
 * The texts behind read-only documents (exchanges, logs, the two sides of a diff), kept in memory by
 * key until their document closes. Bounded, as a document can be put and never opened or closed: past
 * the limits the oldest are forgotten, the newest always kept. Free of the VS Code API.
 */

export interface HeldTextLimits {
	/** How many texts are kept. */
	texts: number;
	/** How many characters are kept in all. */
	chars: number;
}

export const HELD_TEXT_LIMITS: HeldTextLimits = { texts: 20, chars: 16 * 1024 * 1024 };

export class HeldTexts {
	private readonly texts = new Map<string, string>();
	private charCount = 0;

	constructor(private readonly limits: HeldTextLimits = HELD_TEXT_LIMITS) {}

	/** Keeps a text under a key (replacing the key's text), then forgets the oldest beyond the limits. */
	put(key: string, text: string): void {
		this.forget(key);
		this.texts.set(key, text);
		this.charCount += text.length;
		while (this.texts.size > 1 && (this.texts.size > this.limits.texts || this.charCount > this.limits.chars)) {
			this.forget(this.texts.keys().next().value as string);
		}
	}

	get(key: string): string | undefined {
		return this.texts.get(key);
	}

	forget(key: string): void {
		const text = this.texts.get(key);
		if (text === undefined) return;
		this.texts.delete(key);
		this.charCount -= text.length;
	}

	clear(): void {
		this.texts.clear();
		this.charCount = 0;
	}

	/** How many texts are kept, and their characters. */
	get held(): { texts: number; chars: number } {
		return { texts: this.texts.size, chars: this.charCount };
	}
}
