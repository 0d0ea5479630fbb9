/** Escaping shared by the XML documents (DOCX parts, HR-XML). */

/** Escapes text for XML content and double-quoted attributes; drops characters XML 1.0 forbids. */
export function escapeXmlText(text: string): string {
	return (
		text
			// eslint-disable-next-line no-control-regex
			.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
			.replace(/&/g, '&amp;')
			.replace(/</g, '&lt;')
			.replace(/>/g, '&gt;')
			.replace(/"/g, '&quot;')
	);
}
