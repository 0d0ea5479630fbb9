/**
 * The "compare bindings" view: a summary per binding, the differences of the decoded results, line
 * diffs of the payloads (the result element, whitespace-insensitive, so envelopes do not count) and
 * "Open in diff editor" for any two bindings.
 */
import type { ComparisonView, EditorText } from '../../shared/playgroundMessages';
import { button, el } from '../common/dom';

/** The words of each kind of comparison. */
const WORDS: Record<
	ComparisonView['kind'],
	{ title: string; column: string; sameResults: string; samePayloads: string }
> = {
	bindings: {
		title: 'Binding comparison',
		column: 'Binding',
		sameResults: 'The decoded results are identical in all bindings.',
		samePayloads: 'The payloads are identical in all bindings (envelopes aside).',
	},
	connections: {
		title: 'Connection comparison',
		column: 'Connection',
		sameResults: 'The two connections answer with the same results.',
		samePayloads: 'The payloads are identical (envelopes aside).',
	},
};

const MASKED_NOTE =
	'Identifiers and links each service numbers its own way ([id]), dates ([date]) and the namespace ([namespace]) are left out of the comparison.';

export interface ComparisonContext {
	doc: Document;
	openDiff(left: EditorText, right: EditorText): void;
}

/** The payload of one column as an editor text. */
function payloadText(comparison: ComparisonView, index: number): EditorText {
	const column = comparison.columns[index];
	const xml = column.payload.trimStart().startsWith('<');
	return {
		title: `${comparison.operation} payload (${column.label})`,
		text: `${column.payload}\n`,
		language: xml ? 'xml' : 'plaintext',
	};
}

export function renderComparison(ctx: ComparisonContext, comparison: ComparisonView): Node[] {
	const { doc } = ctx;
	const baseline = comparison.columns[0]?.label ?? 'SOAP 1.1';
	const words = WORDS[comparison.kind];
	const th = (text: string, scope: 'col' | 'row'): HTMLTableCellElement => el(doc, 'th', { text, attrs: { scope } });
	const summary = el(doc, 'table', { className: 'pg-table' }, [
		el(doc, 'thead', {}, [
			el(doc, 'tr', {}, [
				th(words.column, 'col'),
				th('Status', 'col'),
				th('Outcome', 'col'),
				th(`Result vs ${baseline}`, 'col'),
				th(`Payload vs ${baseline}`, 'col'),
			]),
		]),
		el(
			doc,
			'tbody',
			{},
			comparison.columns.map((column) => {
				const result = comparison.results.find((entry) => entry.key === column.key);
				const verdict = !result
					? 'baseline'
					: result.equal
						? 'identical'
						: `${result.differences.length} difference(s)`;
				const payload = comparison.payloads.find((entry) => entry.key === column.key);
				const changed = payload ? payload.lines.filter((line) => line.kind !== 'same').length : 0;
				return el(doc, 'tr', {}, [
					th(column.label, 'row'),
					el(doc, 'td', { text: column.status === undefined ? '–' : String(column.status) }),
					el(doc, 'td', { text: column.summary }),
					el(doc, 'td', { className: result && !result.equal ? 'pg-bad' : 'pg-good', text: verdict }),
					el(doc, 'td', {
						className: changed > 0 ? 'pg-bad' : 'pg-good',
						text: !payload ? 'baseline' : changed === 0 ? 'identical' : `${changed} line(s) differ`,
					}),
				]);
			}),
		),
	]);
	const differences = comparison.results
		.filter((entry) => !entry.equal)
		.map((entry) =>
			el(doc, 'div', {}, [
				el(doc, 'h4', {
					text: `${comparison.columns.find((c) => c.key === entry.key)?.label ?? entry.key} vs ${baseline}`,
				}),
				el(
					doc,
					'ul',
					{ className: 'pg-differences' },
					entry.differences.map((line) => el(doc, 'li', { text: line })),
				),
			]),
		);
	const diffs = comparison.payloads
		.filter((entry) => entry.lines.some((line) => line.kind !== 'same'))
		.map((entry) =>
			el(doc, 'details', { className: 'pg-payload-diff' }, [
				el(doc, 'summary', {
					text: `Payload diff: ${baseline} → ${comparison.columns.find((c) => c.key === entry.key)?.label ?? entry.key}`,
				}),
				el(
					doc,
					'pre',
					{ className: 'pg-pre pg-diff' },
					entry.lines.map((line) =>
						el(doc, 'span', {
							className: `pg-diff-${line.kind}`,
							text: `${line.kind === 'same' ? ' ' : line.kind === 'removed' ? '-' : '+'} ${line.text}\n`,
						}),
					),
				),
			]),
		);
	return [
		el(doc, 'h3', { text: `${words.title}: ${comparison.operation}` }),
		...(comparison.kind === 'connections' ? [el(doc, 'p', { className: 'pg-hint', text: MASKED_NOTE })] : []),
		summary,
		...(differences.length > 0 ? differences : [el(doc, 'p', { className: 'pg-good', text: words.sameResults })]),
		diffs.length > 0
			? el(doc, 'div', {}, diffs)
			: el(doc, 'p', {
					className: 'pg-good',
					text: words.samePayloads,
				}),
		renderDiffPicker(ctx, comparison),
		el(doc, 'details', {}, [
			el(doc, 'summary', { text: 'Whole bodies (pretty-printed)' }),
			el(
				doc,
				'div',
				{ className: 'pg-side-by-side' },
				comparison.columns.map((column) =>
					el(doc, 'div', {}, [
						el(doc, 'h4', { text: column.label }),
						el(doc, 'pre', { className: 'pg-pre', text: column.pretty }),
					]),
				),
			),
		]),
	];
}

/** Two binding pickers and "Open in diff editor". */
function renderDiffPicker(ctx: ComparisonContext, comparison: ComparisonView): HTMLElement {
	const { doc } = ctx;
	const picker = (id: string, label: string, selected: number): HTMLSelectElement => {
		const select = el(
			doc,
			'select',
			{ attrs: { id, 'aria-label': label } },
			comparison.columns.map((column, index) =>
				el(doc, 'option', { text: column.label, attrs: { value: String(index) } }),
			),
		);
		select.value = String(selected);
		return select;
	};
	const firstDifferent = comparison.payloads.findIndex((entry) => entry.lines.some((line) => line.kind !== 'same'));
	const left = picker('diff-left', `Left ${WORDS[comparison.kind].column.toLowerCase()}`, 0);
	const right = picker(
		'diff-right',
		`Right ${WORDS[comparison.kind].column.toLowerCase()}`,
		Math.min(comparison.columns.length - 1, firstDifferent >= 0 ? firstDifferent + 1 : 1),
	);
	return el(doc, 'div', { className: 'pg-diff-picker' }, [
		left,
		el(doc, 'span', { text: '↔' }),
		right,
		button(
			doc,
			'Open in diff editor',
			() =>
				ctx.openDiff(payloadText(comparison, Number(left.value)), payloadText(comparison, Number(right.value))),
			{ className: 'mp-button mp-secondary', attrs: { id: 'open-diff' } },
		),
	]);
}
