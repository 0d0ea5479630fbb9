/**
 * The texts the playground opens in read-only editors (request, response, payloads for the diff
 * editor), kept in memory under paths of the `multiposting-playground:` scheme. The path ends in
 * .xml or .txt so VS Code picks the language (XML: highlighting, folding, outline). Bounded: the
 * oldest texts are forgotten. Free of the VS Code API.
 */
import type { EditorText } from '../../shared/playgroundMessages';

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
	private readonly texts = new Map<string, string>();
	private counter = 0;

	constructor(private readonly limit = EDITOR_TEXT_LIMIT) {}

	/** Keeps a text and returns its path, e.g. /3/GetCurrency response (SOAP 1.1).xml. */
	add(document: EditorText): string {
		this.counter += 1;
		const path = `/${this.counter}/${documentFileName(document.title, document.language)}`;
		this.texts.set(path, document.text);
		while (this.texts.size > this.limit) {
			const oldest = this.texts.keys().next().value as string;
			this.texts.delete(oldest);
		}
		return path;
	}

	get(path: string): string | undefined {
		return this.texts.get(path);
	}
}
