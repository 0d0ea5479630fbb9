/**
 * The texts the playground opens in read-only editors (request, response, payloads for the diff
 * editor), kept in memory under paths of the `multiposting-playground:` scheme. The path ends in
 * .xml or .txt so VS Code picks the language (XML: highlighting, folding, outline). Held as the other
 * read-only documents are (../ui/heldTexts.ts): bounded in count and characters, the oldest forgotten
 * first, and each forgotten when its document closes. Free of the VS Code API.
 */
import type { EditorText } from '../../shared/playgroundMessages';
import { HELD_TEXT_LIMITS, HeldTexts, type HeldTextLimits } from '../ui/heldTexts';

/** The URI scheme of the playground's read-only documents. */
export const PLAYGROUND_SCHEME = 'multiposting-playground';

/** How many texts are kept. */
export const EDITOR_TEXT_LIMIT = 50;

/** A file name for a title: letters, digits, spaces and a few signs kept, the rest turned into '_'. */
export function documentFileName(title: string, language: EditorText['language']): string {
	const base =
		title
			.replace(/[^\w .,()+-]+/g, '_')
			.replace(/\s+/g, ' ')
			.trim()
			.slice(0, 80) || 'document';
	return `${base}.${language === 'xml' ? 'xml' : 'txt'}`;
}

export class EditorTextStore {
	private readonly texts: HeldTexts;
	private counter = 0;

	constructor(limits: HeldTextLimits = { ...HELD_TEXT_LIMITS, texts: EDITOR_TEXT_LIMIT }) {
		this.texts = new HeldTexts(limits);
	}

	/** Keeps a text and returns its path, e.g. /3/GetCurrency response (SOAP 1.1).xml. */
	add(document: EditorText): string {
		this.counter += 1;
		const path = `/${this.counter}/${documentFileName(document.title, document.language)}`;
		this.texts.put(path, document.text);
		return path;
	}

	get(path: string): string | undefined {
		return this.texts.get(path);
	}

	/** Forgets the text of a document that closed. */
	forget(path: string): void {
		this.texts.forget(path);
	}
}
