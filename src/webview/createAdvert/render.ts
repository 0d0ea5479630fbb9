/**
 * Renders the Create Advert form from the fields the host sends (generated from the catalogue's
 * AddAdvert parameters) and keeps its checks, description counter and cost preview current as the
 * user types. Pure DOM over a document, so jsdom tests drive it like a user.
 */
import {
	boardsOf,
	costPreview,
	descriptionLength,
	descriptionLimits,
	SECTION_TITLES,
	validateAdvertForm,
	type AdvertField,
	type AdvertFormValues,
	type FeedOption,
	type FieldSection,
} from '../../shared/advertForm';
import { button, clear, el, notice } from '../common/dom';

export interface FormCallbacks {
	/** The answers changed (kept by the host and in the webview's state). */
	onChange(values: AdvertFormValues): void;
	/** The answers passed the checks: create the advert. */
	onSubmit(values: AdvertFormValues): void;
}

export interface AdvertFormView {
	element: HTMLElement;
	/** Shows a message next to a field (the service's, when it names the field), or above the form. */
	showRefusal(message: string, field?: string): void;
	setBusy(busy: boolean): void;
	values(): AdvertFormValues;
}

const inputId = (name: string) => `f-${name}`;
const errorId = (name: string) => `e-${name}`;

/** What a board's row says besides its name: why it is ticked, what it costs, its description limits. */
export function feedNotes(feed: FeedOption): string[] {
	const cost =
		feed.cost !== undefined && feed.cost > 0
			? `costs ${feed.currency ? `${feed.currency} ` : ''}${feed.cost}${feed.costType ? ` (${feed.costType})` : ''}`
			: undefined;
	return [
		feed.forced
			? 'always posted'
			: feed.preselected
				? 'ticked by default for your account (untick to leave out)'
				: undefined,
		cost,
		`description ${feed.minLength}${feed.maxLength ? `–${feed.maxLength}` : '+'} characters`,
	].filter((note): note is string => note !== undefined);
}

/** The starting answers: what was typed before, else the boards ticked by default. */
export function initialValues(values: AdvertFormValues, feeds: readonly FeedOption[]): AdvertFormValues {
	if (values.DestinationsAsCSV !== undefined) return { ...values };
	const preselected = feeds.filter((f) => f.preselected && !f.forced).map((f) => f.feedId);
	return { ...values, DestinationsAsCSV: preselected.join(',') };
}

export function renderAdvertForm(
	doc: Document,
	fields: readonly AdvertField[],
	feeds: readonly FeedOption[],
	start: AdvertFormValues,
	callbacks: FormCallbacks,
	options: { feedsProblem?: string; now?: () => Date } = {},
): AdvertFormView {
	const values: AdvertFormValues = initialValues(start, feeds);
	const touched = new Set<string>();
	let submitted = false;
	const serviceErrors = new Map<string, string>();
	const errorNodes = new Map<string, HTMLElement>();
	const inputs = new Map<string, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>();

	const form = el(doc, 'form', { className: 'mp-form', attrs: { novalidate: '', 'aria-label': 'New advert' } });
	const banner = el(doc, 'div', { className: 'mp-form-banner' });
	form.appendChild(banner);

	const counter = el(doc, 'p', {
		className: 'mp-muted mp-counter',
		attrs: { id: 'desc-counter', 'aria-live': 'polite' },
	});
	const preview = el(doc, 'div', { className: 'mp-cost', attrs: { 'aria-live': 'polite' } });
	const submit = el(doc, 'button', { className: 'mp-button', text: 'Create Advert', attrs: { type: 'submit' } });

	const problems = () => validateAdvertForm(values, fields, feeds, options.now?.());

	const refresh = () => {
		const found = problems();
		for (const field of fields) {
			const node = errorNodes.get(field.name);
			const input = inputs.get(field.name);
			const message =
				serviceErrors.get(field.name) ?? (submitted || touched.has(field.name) ? found[field.name] : undefined);
			if (node) {
				node.textContent = message ?? '';
				node.hidden = !message;
			}
			if (input) input.setAttribute('aria-invalid', String(!!message));
		}
		drawCounter();
		drawCost();
	};

	const change = (name: string, value: string) => {
		values[name] = value;
		serviceErrors.delete(name);
		callbacks.onChange({ ...values });
		refresh();
	};

	const drawCounter = () => {
		const boards = boardsOf(values, feeds);
		const text = values.sJobDescription ?? '';
		const limits = descriptionLimits(boards);
		const lengths = [...new Set(boards.map((b) => descriptionLength(text, b.htmlSupport)))];
		const length = lengths.length > 0 ? Math.min(...lengths) : descriptionLength(text, undefined);
		const needs =
			boards.length === 0
				? 'choose job boards to see their limits'
				: `the chosen boards need ${limits.min}${limits.max ? `–${limits.max}` : ' or more'} characters`;
		counter.textContent = `${length.toLocaleString('en')} characters (without markup); ${needs}.`;
	};

	const drawCost = () => {
		clear(preview);
		const cost = costPreview(values, feeds);
		if (cost.lines.length === 0) {
			preview.appendChild(notice(doc, 'No job board chosen: you can choose them on the completion page.'));
			return;
		}
		preview.appendChild(el(doc, 'h3', { text: 'Quota and cost' }));
		preview.appendChild(
			el(
				doc,
				'ul',
				{},
				cost.lines.map((line) =>
					el(doc, 'li', { className: line.exhausted ? 'mp-warning-text' : undefined }, [
						el(doc, 'strong', { text: line.name }),
						el(doc, 'span', {
							text: ` — ${[line.forced ? 'always posted' : undefined, line.cost, line.quota].filter(Boolean).join(', ')}`,
						}),
					]),
				),
			),
		);
		const postings = cost.lines.length;
		preview.appendChild(
			el(doc, 'p', {
				text:
					`Posting uses ${postings} posting${postings === 1 ? '' : 's'} of quota` +
					(cost.total ? ` and costs ${cost.total}` : '') +
					(cost.weekly ? ', plus the weekly costs listed' : '') +
					'.',
			}),
		);
	};

	const fieldControl = (field: AdvertField): HTMLElement => {
		const id = inputId(field.name);
		const describedBy = [
			errorId(field.name),
			field.hint ? `h-${field.name}` : undefined,
			field.name === 'sJobDescription' ? 'desc-counter' : undefined,
		]
			.filter(Boolean)
			.join(' ');
		let control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
		const extras: (Node | undefined)[] = [];
		if (field.kind === 'textarea') {
			control = el(doc, 'textarea', { attrs: { id, rows: '10' } });
		} else if (field.kind === 'choice' && field.choices && !field.openChoices) {
			const select = el(doc, 'select', { attrs: { id } });
			select.appendChild(el(doc, 'option', { text: '(not given)', attrs: { value: '' } }));
			for (const choice of field.choices) {
				select.appendChild(el(doc, 'option', { text: choice.label, attrs: { value: choice.value } }));
			}
			control = select;
		} else {
			const input = el(doc, 'input', {
				attrs: {
					id,
					type: field.kind === 'email' ? 'email' : field.kind === 'url' ? 'url' : 'text',
					...(field.kind === 'number' ? { inputmode: 'decimal' } : {}),
					...(field.placeholder ? { placeholder: field.placeholder } : {}),
				},
			});
			if (field.choices) {
				const list = el(doc, 'datalist', { attrs: { id: `l-${field.name}` } });
				for (const choice of field.choices) {
					list.appendChild(el(doc, 'option', { attrs: { value: choice.value, label: choice.label } }));
				}
				input.setAttribute('list', `l-${field.name}`);
				extras.push(list);
			}
			control = input;
		}
		control.setAttribute('name', field.name);
		control.setAttribute('aria-describedby', describedBy);
		if (field.required) control.setAttribute('aria-required', 'true');
		control.value = values[field.name] ?? '';
		control.addEventListener('input', () => change(field.name, control.value));
		control.addEventListener('change', () => change(field.name, control.value));
		control.addEventListener('blur', () => {
			touched.add(field.name);
			refresh();
		});
		inputs.set(field.name, control);
		const error = el(doc, 'p', { className: 'mp-field-error', attrs: { id: errorId(field.name), role: 'alert' } });
		error.hidden = true;
		errorNodes.set(field.name, error);
		return el(doc, 'div', { className: `mp-field mp-field-${field.kind}` }, [
			el(doc, 'label', { text: `${field.label}${field.required ? ' (required)' : ''}`, attrs: { for: id } }),
			control,
			...extras,
			field.name === 'sJobDescription' ? counter : undefined,
			field.hint
				? el(doc, 'p', { className: 'mp-muted mp-hint', text: field.hint, attrs: { id: `h-${field.name}` } })
				: undefined,
			error,
		]);
	};

	const feedsControl = (field: AdvertField): HTMLElement => {
		const set = el(doc, 'fieldset', { className: 'mp-feeds', attrs: { id: inputId(field.name) } }, [
			el(doc, 'legend', { text: 'Job boards to post to' }),
		]);
		if (options.feedsProblem) set.appendChild(notice(doc, options.feedsProblem, 'warning'));
		if (feeds.length === 0 && !options.feedsProblem) {
			set.appendChild(notice(doc, 'No job boards are configured for you.'));
		}
		const chosen = new Set((values.DestinationsAsCSV ?? '').split(',').filter(Boolean));
		for (const feed of feeds) {
			const id = `feed-${feed.feedId}`;
			const box = el(doc, 'input', { attrs: { type: 'checkbox', id, value: String(feed.feedId) } });
			box.checked = feed.forced || chosen.has(String(feed.feedId));
			box.disabled = feed.forced;
			box.addEventListener('change', () => {
				const ids = Array.from(set.querySelectorAll<HTMLInputElement>('input[type=checkbox]:not(:disabled)'))
					.filter((b) => b.checked)
					.map((b) => b.value);
				change(field.name, ids.join(','));
				touched.add('sJobDescription');
				refresh();
			});
			set.appendChild(
				el(doc, 'div', { className: 'mp-feed' }, [
					box,
					el(doc, 'label', { attrs: { for: id } }, [
						el(doc, 'strong', { text: feed.name }),
						el(doc, 'span', { className: 'mp-muted', text: ` ${feedNotes(feed).join(' · ')}` }),
					]),
				]),
			);
		}
		const error = el(doc, 'p', { className: 'mp-field-error', attrs: { id: errorId(field.name), role: 'alert' } });
		error.hidden = true;
		errorNodes.set(field.name, error);
		set.append(error, preview);
		return set;
	};

	const sections = new Map<FieldSection, HTMLElement>();
	for (const field of fields) {
		let section = sections.get(field.section);
		if (!section) {
			section = el(
				doc,
				'section',
				{ className: 'mp-form-section', attrs: { 'aria-label': SECTION_TITLES[field.section] } },
				[el(doc, 'h2', { text: SECTION_TITLES[field.section] })],
			);
			// Identifier, duplicates and notifications are rarely needed: folded away.
			if (field.section === 'identity' || field.section === 'delivery') {
				const details = el(doc, 'details', { className: 'mp-form-more' }, [
					el(doc, 'summary', { text: SECTION_TITLES[field.section] }),
				]);
				section = details;
			}
			sections.set(field.section, section);
			form.appendChild(section);
		}
		section.appendChild(field.kind === 'feeds' ? feedsControl(field) : fieldControl(field));
	}
	form.appendChild(el(doc, 'div', { className: 'mp-toolbar' }, [submit]));

	form.addEventListener('submit', (event) => {
		event.preventDefault();
		submitted = true;
		serviceErrors.clear();
		clear(banner);
		refresh();
		const found = problems();
		const names = Object.keys(found);
		if (names.length > 0) {
			banner.appendChild(
				notice(
					doc,
					`Check ${names.length === 1 ? 'one field' : `${names.length} fields`} before creating the advert.`,
					'error',
				),
			);
			focusField(names[0]);
			return;
		}
		callbacks.onSubmit({ ...values });
	});

	const focusField = (name: string) => {
		const target =
			inputs.get(name) ??
			(form.querySelector(`#${inputId(name)} input:not(:disabled)`) as HTMLInputElement | null);
		const details = target?.closest('details');
		if (details) details.open = true;
		target?.focus();
	};

	refresh();
	return {
		element: form,
		showRefusal(message, field) {
			clear(banner);
			banner.appendChild(notice(doc, message, 'error'));
			if (field && errorNodes.has(field)) {
				serviceErrors.set(field, message);
				refresh();
				focusField(field);
			}
		},
		setBusy(busy) {
			submit.disabled = busy;
			submit.textContent = busy ? 'Creating…' : 'Create Advert';
		},
		values: () => ({ ...values }),
	};
}

/** What the panel shows once the advert exists: its completion link, kept for as long as the panel is open. */
export function renderCreated(
	doc: Document,
	created: { advertId?: number; title: string; redirectUrl?: string },
	post: (type: 'openCompletion' | 'copyCompletion' | 'showAdvert' | 'startOver') => void,
): HTMLElement {
	return el(doc, 'section', { className: 'mp-created', attrs: { 'aria-label': 'Advert created' } }, [
		el(doc, 'h1', { text: `Advert “${created.title}” created` }),
		el(doc, 'p', { text: created.advertId !== undefined ? `AdvertID ${created.advertId}.` : '' }),
		created.redirectUrl
			? el(doc, 'div', {}, [
					el(doc, 'p', {
						text: 'Complete the posting on its completion page: choose the job boards and confirm. The link stays here while this panel is open, and in the advert’s panel.',
					}),
					el(doc, 'p', { className: 'mp-link-text' }, [el(doc, 'code', { text: created.redirectUrl })]),
				])
			: notice(doc, 'The service returned no completion link.'),
		el(doc, 'div', { className: 'mp-toolbar' }, [
			created.redirectUrl ? button(doc, 'Open Completion Page', () => post('openCompletion')) : undefined,
			created.redirectUrl
				? button(doc, 'Copy Link', () => post('copyCompletion'), { className: 'mp-button mp-secondary' })
				: undefined,
			created.advertId !== undefined
				? button(doc, 'Show Advert', () => post('showAdvert'), { className: 'mp-button mp-secondary' })
				: undefined,
			button(doc, 'Create Another', () => post('startOver'), { className: 'mp-button mp-secondary' }),
		]),
	]);
}
