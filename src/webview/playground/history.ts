/** The history list: one button per exchange, newest first. */
import { BINDING_LABELS } from '../../protocol/bindings/types';
import type { HistorySummary, PlaygroundBinding } from '../../shared/playgroundMessages';
import { button, el } from '../common/dom';

/** One line describing an exchange. */
export function historyLabel(entry: HistorySummary): string {
	const outcome = entry.status !== undefined ? `HTTP ${entry.status}` : 'no response';
	const binding = BINDING_LABELS[entry.binding as PlaygroundBinding] ?? entry.binding;
	return `${new Date(entry.time).toLocaleString()} · ${entry.operation} · ${binding}${entry.mode === 'raw' ? ' (raw)' : ''} · ${outcome} · ${entry.totalMs} ms`;
}

export function renderHistory(doc: Document, entries: HistorySummary[], open: (id: string) => void): HTMLElement[] {
	if (entries.length === 0) return [el(doc, 'li', { className: 'pg-muted', text: 'No exchanges yet.' })];
	return entries.map((entry) =>
		el(doc, 'li', {}, [
			button(doc, historyLabel(entry), () => open(entry.id), {
				className: 'pg-link',
				title: entry.error ?? '',
			}),
		]),
	);
}
