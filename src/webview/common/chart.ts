/**
 * A horizontal bar chart of counters built with SVG elements. Sizes are SVG attributes set with
 * setAttribute (allowed by the panel's CSP, unlike inline styles); colours come from CSS classes.
 */
import type { CounterBar } from '../../shared/panelMessages';

const SVG_NS = 'http://www.w3.org/2000/svg';
const ROW_HEIGHT = 22;
const LABEL_WIDTH = 150;
const BAR_WIDTH = 260;
const VALUE_WIDTH = 60;

function svg(doc: Document, tag: string, attrs: Record<string, string | number>): SVGElement {
	const element = doc.createElementNS(SVG_NS, tag) as SVGElement;
	for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
	return element;
}

/** The chart; bars are scaled to the largest counter, each with its number written beside it. */
export function counterChart(doc: Document, counters: CounterBar[]): SVGElement {
	const max = Math.max(1, ...counters.map((c) => c.value));
	const width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH;
	const chart = svg(doc, 'svg', {
		width,
		height: counters.length * ROW_HEIGHT,
		viewBox: `0 0 ${width} ${counters.length * ROW_HEIGHT}`,
		role: 'img',
		class: 'mp-chart',
	});
	const title = svg(doc, 'title', {});
	title.textContent = `Counters: ${counters.map((c) => `${c.label} ${c.value}`).join(', ')}`;
	chart.appendChild(title);
	counters.forEach((counter, i) => {
		const y = i * ROW_HEIGHT;
		const label = svg(doc, 'text', { x: 0, y: y + 15, class: 'mp-chart-label' });
		label.textContent = counter.label;
		const track = svg(doc, 'rect', {
			x: LABEL_WIDTH,
			y: y + 4,
			width: BAR_WIDTH,
			height: ROW_HEIGHT - 8,
			class: 'mp-chart-track',
		});
		const bar = svg(doc, 'rect', {
			x: LABEL_WIDTH,
			y: y + 4,
			width: Math.round((counter.value / max) * BAR_WIDTH),
			height: ROW_HEIGHT - 8,
			class: `mp-chart-bar counter-${counter.kind}`,
		});
		const value = svg(doc, 'text', { x: LABEL_WIDTH + BAR_WIDTH + 8, y: y + 15, class: 'mp-chart-value' });
		value.textContent = String(counter.value);
		chart.append(label, track, bar, value);
	});
	return chart;
}
