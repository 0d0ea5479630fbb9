/** Renders the application panel's header and overview (pure DOM; tested under jsdom). */
import type { ApplicationToHostMessage, ApplicationView, DocumentTab } from '../../shared/panelMessages';
import { button, dateOptions, el, fieldGroups, notice } from '../common/dom';
import type { TabSpec } from '../common/tabs';

export { renderPreviewBar } from '../common/previewBar';

export const TAB_SPECS: TabSpec<'overview' | DocumentTab>[] = [
	{ id: 'overview', label: 'Overview' },
	{ id: 'emailBody', label: 'Email body' },
	{ id: 'attachment', label: 'Attachment' },
	{ id: 'parsed', label: 'Parsed CV' },
	{ id: 'email', label: 'Full email' },
];

/** The keys of the panel (contributed keybindings; the same in the Multiposting view). */
export const KEY_HINTS =
	'Keys: S Suitable · M Maybe · U Unsuitable · F Favourite · N None · P Progress · J / K next / previous';

export function renderHeader(
	doc: Document,
	view: ApplicationView,
	post: (message: ApplicationToHostMessage) => void,
): HTMLElement {
	return el(doc, 'header', { className: 'mp-header' }, [
		el(doc, 'h1', { text: view.title }),
		view.subtitle ? el(doc, 'p', { className: 'mp-muted', text: view.subtitle }) : undefined,
		el(
			doc,
			'ul',
			{ className: 'mp-badges', attrs: { 'aria-label': 'Status' } },
			view.badges.map((b) =>
				el(doc, 'li', { className: 'mp-badge' }, [
					el(doc, 'span', { className: 'mp-badge-label', text: `${b.label}: ` }),
					el(doc, 'span', { text: b.value }),
				]),
			),
		),
		el(doc, 'div', { className: 'mp-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Application actions' } }, [
			button(doc, 'Score…', () => post({ type: 'action', action: 'score' })),
			button(doc, 'Progress…', () => post({ type: 'action', action: 'progress' })),
			button(doc, 'Add note…', () => post({ type: 'action', action: 'note' })),
			button(doc, 'Tag…', () => post({ type: 'action', action: 'tag' }), { className: 'mp-button mp-secondary' }),
			button(doc, 'Partner tag…', () => post({ type: 'action', action: 'partnerTag' }), {
				className: 'mp-button mp-secondary',
			}),
			button(doc, 'Copy ID', () => post({ type: 'copy', field: 'advertCandidateId' }), {
				className: 'mp-button mp-secondary',
			}),
			button(doc, 'Refresh', () => post({ type: 'refresh' }), { className: 'mp-button mp-secondary' }),
		]),
		el(doc, 'p', { className: 'mp-muted mp-keys', text: KEY_HINTS }),
	]);
}

export function renderOverview(doc: Document, view: ApplicationView): HTMLElement {
	const wrap = el(doc, 'div', { className: 'mp-overview' }, [fieldGroups(doc, view.groups)]);
	if (view.processingMessages) {
		wrap.appendChild(notice(doc, `Processing messages: ${view.processingMessages}`, 'warning'));
	}
	const activity = el(
		doc,
		'section',
		{ className: 'mp-section mp-activity', attrs: { 'aria-label': 'Done in this session' } },
		[el(doc, 'h2', { text: 'Done in this session' })],
	);
	if (view.activity.length === 0) {
		activity.appendChild(
			notice(doc, 'Nothing yet. Notes and tags you add show here (the service cannot read them back).'),
		);
	} else {
		activity.appendChild(
			el(
				doc,
				'ul',
				{ className: 'mp-activity-list' },
				view.activity.map((entry) =>
					el(doc, 'li', {}, [
						el(doc, 'span', { className: 'mp-muted', ...dateOptions(entry.at, '', { timeOnly: true }) }),
						' ',
						el(doc, 'span', { text: entry.text }),
					]),
				),
			),
		);
	}
	wrap.appendChild(activity);
	return wrap;
}
