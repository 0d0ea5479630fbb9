/**
 * A menu button (WAI-ARIA menu button pattern): the button opens a list of actions; Up/Down/Home/End
 * move between them, Enter or a click runs one, Escape or a click elsewhere closes the menu and
 * gives the focus back to the button.
 */
import { el } from './dom';

export interface MenuItem {
	id: string;
	label: string;
	run(): void;
	/** Disabled items stay listed (so the menu does not jump) but cannot be chosen. */
	disabled?: () => boolean;
}

export interface MenuButton {
	/** The button and its menu, to put in a toolbar. */
	element: HTMLElement;
	button: HTMLButtonElement;
	menu: HTMLElement;
	open(): void;
	close(focusButton?: boolean): void;
}

export function createMenuButton(doc: Document, id: string, label: string, items: MenuItem[]): MenuButton {
	const button = el(doc, 'button', {
		className: 'mp-button mp-secondary mp-menu-button',
		text: label,
		attrs: { type: 'button', id, 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-controls': `${id}-menu` },
	});
	const entries = items.map((item) =>
		el(doc, 'button', {
			className: 'mp-menu-item',
			text: item.label,
			attrs: { type: 'button', role: 'menuitem', id: `${id}-${item.id}`, tabindex: '-1' },
		}),
	);
	const menu = el(
		doc,
		'div',
		{
			className: 'mp-menu',
			attrs: { role: 'menu', id: `${id}-menu`, 'aria-labelledby': id, hidden: '' },
		},
		entries,
	);
	const element = el(doc, 'div', { className: 'mp-menu-wrap' }, [button, menu]);

	const isOpen = (): boolean => !menu.hidden;
	const focusAt = (index: number): void => {
		const count = entries.length;
		entries[((index % count) + count) % count].focus();
	};
	const open = (): void => {
		items.forEach((item, index) => {
			const disabled = item.disabled?.() ?? false;
			entries[index].disabled = disabled;
			entries[index].setAttribute('aria-disabled', String(disabled));
		});
		menu.hidden = false;
		button.setAttribute('aria-expanded', 'true');
		focusAt(
			Math.max(
				0,
				entries.findIndex((entry) => !entry.disabled),
			),
		);
	};
	const close = (focusButton = false): void => {
		if (!isOpen()) return;
		menu.hidden = true;
		button.setAttribute('aria-expanded', 'false');
		if (focusButton) button.focus();
	};

	button.addEventListener('click', () => (isOpen() ? close() : open()));
	button.addEventListener('keydown', (event: KeyboardEvent) => {
		if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
			event.preventDefault();
			open();
			if (event.key === 'ArrowUp') focusAt(entries.length - 1);
		}
	});
	entries.forEach((entry, index) => {
		entry.addEventListener('click', () => {
			if (entry.disabled) return;
			close(true);
			items[index].run();
		});
	});
	menu.addEventListener('keydown', (event: KeyboardEvent) => {
		const current = entries.findIndex((entry) => entry === doc.activeElement);
		if (event.key === 'ArrowDown') focusAt(current + 1);
		else if (event.key === 'ArrowUp') focusAt(current - 1);
		else if (event.key === 'Home') focusAt(0);
		else if (event.key === 'End') focusAt(entries.length - 1);
		else if (event.key === 'Escape' || event.key === 'Tab') close(event.key === 'Escape');
		else return;
		if (event.key !== 'Tab') event.preventDefault();
	});
	doc.addEventListener('click', (event) => {
		if (isOpen() && !element.contains(event.target as Node)) close();
	});
	return { element, button, menu, open, close };
}
