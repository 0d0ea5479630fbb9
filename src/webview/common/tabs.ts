/**
 * Accessible tabs (WAI-ARIA tabs pattern): role=tablist, roving tabindex, Left/Right/Home/End move
 * between tabs and activate them.
 */
import { el } from './dom';

export interface TabSpec<T extends string> {
	id: T;
	label: string;
}

export interface Tabs<T extends string> {
	element: HTMLElement;
	panel: HTMLElement;
	select(id: T, focus?: boolean): void;
}

export function createTabs<T extends string>(
	doc: Document,
	idPrefix: string,
	specs: TabSpec<T>[],
	onSelect: (id: T) => void,
): Tabs<T> {
	const list = el(doc, 'div', { className: 'mp-tablist', attrs: { role: 'tablist', 'aria-label': 'Sections' } });
	const panel = el(doc, 'div', {
		className: 'mp-tabpanel',
		attrs: { role: 'tabpanel', id: `${idPrefix}-panel`, tabindex: '0' },
	});
	const buttons = specs.map((spec) => {
		const tab = el(doc, 'button', {
			className: 'mp-tab',
			text: spec.label,
			attrs: {
				type: 'button',
				role: 'tab',
				id: `${idPrefix}-tab-${spec.id}`,
				'aria-controls': `${idPrefix}-panel`,
			},
		});
		tab.addEventListener('click', () => select(spec.id, false));
		list.appendChild(tab);
		return tab;
	});
	list.addEventListener('keydown', (event: KeyboardEvent) => {
		const current = buttons.findIndex((b) => b.getAttribute('aria-selected') === 'true');
		let next: number;
		if (event.key === 'ArrowRight') next = (current + 1) % buttons.length;
		else if (event.key === 'ArrowLeft') next = (current - 1 + buttons.length) % buttons.length;
		else if (event.key === 'Home') next = 0;
		else if (event.key === 'End') next = buttons.length - 1;
		else return;
		event.preventDefault();
		select(specs[next].id, true);
	});
	function select(id: T, focus = false): void {
		specs.forEach((spec, i) => {
			const selected = spec.id === id;
			buttons[i].setAttribute('aria-selected', String(selected));
			buttons[i].tabIndex = selected ? 0 : -1;
			if (selected) {
				panel.setAttribute('aria-labelledby', buttons[i].id);
				if (focus) buttons[i].focus();
			}
		});
		onSelect(id);
	}
	return { element: list, panel, select };
}
