/** Markdown escaping, so service data never turns into links, images or HTML in a tooltip or preview. */

/** Escapes every character with a meaning in Markdown (and HTML's < > &). */
export function escapeMarkdown(text: string): string {
	return text.replace(/[\\`*_{}[\]()#+\-.!|<>&~="':]/g, (c) =>
		c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : `\\${c}`,
	);
}
