/** The line that says a panel is a preview, with the button that keeps it open. */
import { button, el } from './dom';

export function renderPreviewBar(doc: Document, keepOpen: () => void): HTMLElement {
	return el(doc, 'div', { className: 'mp-preview-bar', attrs: { role: 'note' } }, [
		el(doc, 'span', { text: 'Preview: the next item you open from the tree replaces it.' }),
		button(doc, 'Keep Open', keepOpen, {
			className: 'mp-button mp-secondary mp-small',
			title: 'Keep this panel (a double-click on the tree row does the same)',
		}),
	]);
}
