/** Renders the advert panel from its view model (pure DOM; tested under jsdom). */
import type { DOMPurify } from 'dompurify';
import type { AdvertToHostMessage, AdvertView } from '../../shared/panelMessages';
import { counterChart } from '../common/chart';
import { frameBlock } from '../common/documentView';
import { button, dateOptions, el, fieldGroups, notice, type ElementOptions } from '../common/dom';
import type { FrameTheme } from '../common/sanitizePolicy';

/** A cell: its text, or its text and a tooltip (dates). */
type Cell = string | ElementOptions;

function table(doc: Document, caption: string, headers: string[], rows: Cell[][]): HTMLTableElement {
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
					r.map((cell) => el(doc, 'td', typeof cell === 'string' ? { text: cell } : cell)),
				),
			),
		),
	);
	return t;
}

/** The section that keeps the completion link of an advert created in this session. */
function completionSection(doc: Document, view: AdvertView, post: (message: AdvertToHostMessage) => void): HTMLElement {
	return el(
		doc,
		'section',
		{ className: 'mp-section mp-completion', attrs: { 'aria-label': 'Complete the posting' } },
		[
			el(doc, 'h2', { text: 'Complete the posting' }),
			el(doc, 'p', {
				text:
					view.posting === 'Not posted'
						? 'This advert was created in this session. Choose its job boards on the completion page to post it.'
						: 'The completion page of this advert shows its postings.',
			}),
			el(doc, 'div', { className: 'mp-toolbar' }, [
				button(doc, 'Open Completion Page', () => post({ type: 'openCompletion' })),
				button(doc, 'Copy Link', () => post({ type: 'copyCompletion' }), {
					className: 'mp-button mp-secondary',
				}),
			]),
		],
	);
}

export function renderAdvert(
	doc: Document,
	view: AdvertView,
	post: (message: AdvertToHostMessage) => void,
	frames: { purify: DOMPurify; theme?(): Partial<FrameTheme> },
): HTMLElement {
	const root = el(doc, 'div', { className: 'mp-panel' });
	root.appendChild(
		el(doc, 'header', { className: 'mp-header' }, [
			el(doc, 'h1', { text: view.title }),
			view.subtitle ? el(doc, 'p', { className: 'mp-muted', text: view.subtitle }) : undefined,
			el(doc, 'ul', { className: 'mp-badges', attrs: { 'aria-label': 'Status' } }, [
				el(doc, 'li', { className: 'mp-badge' }, [
					el(doc, 'span', { className: 'mp-badge-label', text: 'Posting: ' }),
					el(doc, 'span', { text: view.posting }),
				]),
			]),
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
	if (view.completionLink) root.appendChild(completionSection(doc, view, post));
	root.appendChild(
		el(doc, 'section', { className: 'mp-section', attrs: { 'aria-label': 'Counters' } }, [
			el(doc, 'h2', { text: 'Applications and interviews' }),
			counterChart(doc, view.counters),
		]),
	);
	root.appendChild(fieldGroups(doc, view.groups));
	if (view.description.html.trim() !== '') {
		root.appendChild(
			el(doc, 'section', { className: 'mp-section mp-description' }, [
				el(doc, 'h2', { text: 'Job description' }),
				frameBlock(doc, frames.purify, view.description.html, {
					theme: frames.theme,
					title: 'Job description (sanitised, no scripts)',
					fitContent: true,
					onLink: (url) => post({ type: 'openLink', url }),
				}),
				view.description.truncated
					? notice(doc, `Showing the first ${view.description.html.length.toLocaleString('en')} characters.`)
					: undefined,
			]),
		);
	}
	const values = el(doc, 'section', { className: 'mp-section' }, [el(doc, 'h2', { text: 'Extra values per feed' })]);
	if (view.loading) values.appendChild(notice(doc, 'Loading…'));
	else if (view.values.length === 0) values.appendChild(notice(doc, 'No extra values.'));
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
	if (view.loading) tracking.appendChild(notice(doc, 'Loading…'));
	else if (view.tracking.length === 0) tracking.appendChild(notice(doc, 'No deliveries logged.'));
	else {
		tracking.appendChild(
			table(
				doc,
				'Job-board responses',
				['Posting', 'Job board', 'Logged at', 'Outcome', 'Job board’s response'],
				view.tracking.map((t) => [
					t.postingId,
					t.feed,
					dateOptions(t.deliveryIso, t.deliveryDate),
					{ text: t.outcome, attrs: { title: `ErrorLevel: ${t.errorLevel}` } },
					t.response,
				]),
			),
		);
	}
	root.appendChild(tracking);
	return root;
}
