/** The "compare bindings" view: a summary per binding, the result differences and the bodies. */
import { BINDING_LABELS } from '../../protocol/bindings/types';
import type { ComparisonView } from '../../shared/playgroundMessages';
import { el } from '../common/dom';

export function renderComparison(doc: Document, comparison: ComparisonView): Node[] {
	const th = (text: string, scope: 'col' | 'row'): HTMLTableCellElement => el(doc, 'th', { text, attrs: { scope } });
	const summary = el(doc, 'table', { className: 'pg-table' }, [
		el(doc, 'thead', {}, [
			el(doc, 'tr', {}, [
				th('Binding', 'col'),
				th('Status', 'col'),
				th('Outcome', 'col'),
				th('Result vs SOAP 1.1', 'col'),
			]),
		]),
		el(
			doc,
			'tbody',
			{},
			comparison.columns.map((column) => {
				const result = comparison.results.find((entry) => entry.binding === column.binding);
				const verdict = !result
					? 'baseline'
					: result.equal
						? 'identical'
						: `${result.differences.length} difference(s)`;
				return el(doc, 'tr', {}, [
					th(column.label, 'row'),
					el(doc, 'td', { text: column.status === undefined ? '–' : String(column.status) }),
					el(doc, 'td', { text: column.summary }),
					el(doc, 'td', { className: result && !result.equal ? 'pg-bad' : 'pg-good', text: verdict }),
				]);
			}),
		),
	]);
	const differences = comparison.results
		.filter((entry) => !entry.equal)
		.map((entry) =>
			el(doc, 'div', {}, [
				el(doc, 'h4', { text: `${BINDING_LABELS[entry.binding]} vs SOAP 1.1` }),
				el(
					doc,
					'ul',
					{ className: 'pg-differences' },
					entry.differences.map((line) => el(doc, 'li', { text: line })),
				),
			]),
		);
	const bodies = el(
		doc,
		'div',
		{ className: 'pg-side-by-side' },
		comparison.columns.map((column) =>
			el(doc, 'div', {}, [
				el(doc, 'h4', { text: column.label }),
				el(doc, 'pre', { className: 'pg-pre', text: column.pretty }),
			]),
		),
	);
	const diffs = comparison.bodies.map((entry) =>
		el(doc, 'details', {}, [
			el(doc, 'summary', { text: `Body diff: SOAP 1.1 → ${BINDING_LABELS[entry.binding]}` }),
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
		el(doc, 'h2', { text: `Binding comparison: ${comparison.operation}` }),
		summary,
		...(differences.length > 0
			? differences
			: [el(doc, 'p', { className: 'pg-good', text: 'The decoded results are identical in all bindings.' })]),
		el(doc, 'h3', { text: 'Bodies (pretty-printed)' }),
		bodies,
		...diffs,
	];
}
