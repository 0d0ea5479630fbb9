/** Renders the advert panel from its view model (pure DOM; tested under jsdom). */
import type { AdvertToHostMessage, AdvertView } from '../../shared/panelMessages';
import { counterChart } from '../common/chart';
import { button, el, fieldGroups, notice } from '../common/dom';

function table(doc: Document, caption: string, headers: string[], rows: string[][]): HTMLTableElement {
	const t = el(doc, 'table', { className: 'mp-table' }, [el(doc, 'caption', { text: caption })]);
	t.appendChild(
		el(doc, 'thead', {}, [
			el(
				doc,
				'tr',
				{},
				headers.map((h) => el(doc, 'th', { text: h, attrs: { scope: 'col' } })),
			),
		]),
	);
	t.appendChild(
		el(
			doc,
			'tbody',
			{},
			rows.map((r) =>
				el(
					doc,
					'tr',
					{},
					r.map((cell) => el(doc, 'td', { text: cell })),
				),
			),
		),
	);
	return t;
}

export function renderAdvert(
	doc: Document,
	view: AdvertView,
	post: (message: AdvertToHostMessage) => void,
): HTMLElement {
	const root = el(doc, 'div', { className: 'mp-panel' });
	root.appendChild(
		el(doc, 'header', { className: 'mp-header' }, [
			el(doc, 'h1', { text: view.title }),
			view.subtitle ? el(doc, 'p', { className: 'mp-muted', text: view.subtitle }) : undefined,
			el(doc, 'div', { className: 'mp-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Advert actions' } }, [
				button(doc, 'Refresh', () => post({ type: 'refresh' }), { className: 'mp-button mp-secondary' }),
				button(doc, 'Express post…', () => post({ type: 'expressPost' })),
				button(doc, 'Open in web interface', () => post({ type: 'openWeb' }), {
					className: 'mp-button mp-secondary',
				}),
				button(doc, 'Copy ID', () => post({ type: 'copy', field: 'advertId' }), {
					className: 'mp-button mp-secondary',
				}),
				button(doc, 'Copy identifier', () => post({ type: 'copy', field: 'advertIdentifier' }), {
					className: 'mp-button mp-secondary',
				}),
				button(doc, 'Copy reference', () => post({ type: 'copy', field: 'advertReference' }), {
					className: 'mp-button mp-secondary',
				}),
			]),
		]),
	);
	for (const warning of view.warnings) root.appendChild(notice(doc, warning, 'warning'));
	root.appendChild(
		el(doc, 'section', { className: 'mp-section', attrs: { 'aria-label': 'Counters' } }, [
			el(doc, 'h2', { text: 'Applications and interviews' }),
			counterChart(doc, view.counters),
		]),
	);
	root.appendChild(fieldGroups(doc, view.groups));
	if (view.description) {
		root.appendChild(
			el(doc, 'section', { className: 'mp-section' }, [
				el(doc, 'h2', { text: 'Job description' }),
				el(doc, 'div', { className: 'mp-description', text: view.description }),
			]),
		);
	}
	const values = el(doc, 'section', { className: 'mp-section' }, [el(doc, 'h2', { text: 'Extra values per feed' })]);
	if (view.values.length === 0) values.appendChild(notice(doc, 'No extra values.'));
	for (const feed of view.values) {
		values.appendChild(
			table(
				doc,
				feed.feed,
				['Field', 'Value'],
				feed.rows.map((r) => [r.label, r.value]),
			),
		);
	}
	root.appendChild(values);
	const tracking = el(doc, 'section', { className: 'mp-section' }, [
		el(doc, 'h2', { text: 'Postings and delivery log' }),
	]);
	if (view.tracking.length === 0) tracking.appendChild(notice(doc, 'No deliveries logged.'));
	else {
		tracking.appendChild(
			table(
				doc,
				'Job-board responses',
				['Posting', 'Feed', 'Delivered', 'Level', 'Response'],
				view.tracking.map((t) => [t.postingId, t.feed, t.deliveryDate, t.errorLevel, t.response]),
			),
		);
	}
	root.appendChild(tracking);
	return root;
}
