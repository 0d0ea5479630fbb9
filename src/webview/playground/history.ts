/** The history list: one button per exchange, newest first; times in the user's locale, ISO in the tooltip. */
import { BINDING_LABELS } from '../../protocol/bindings/types';
import { formatDateTime } from '../../shared/dates';
import type { HistorySummary, PlaygroundBinding } from '../../shared/playgroundMessages';
import { button, el } from '../common/dom';

/** One line describing an exchange. */
export function historyLabel(entry: HistorySummary, locale?: string): string {
	const outcome = entry.status !== undefined ? `HTTP ${entry.status}` : 'no response';
	const binding = BINDING_LABELS[entry.binding as PlaygroundBinding] ?? entry.binding;
	const when = formatDateTime(entry.time, { locale })?.text ?? '';
	return `${when} · ${entry.operation} · ${binding}${entry.mode === 'raw' ? ' (raw)' : ''} · ${outcome} · ${entry.totalMs} ms`;
}

export function renderHistory(doc: Document, entries: HistorySummary[], open: (id: string) => void): HTMLElement[] {
	if (entries.length === 0) return [el(doc, 'li', { className: 'pg-muted', text: 'No exchanges yet.' })];
	return entries.map((entry) => {
		const iso = formatDateTime(entry.time)?.iso ?? '';
		return el(doc, 'li', {}, [
			button(doc, historyLabel(entry), () => open(entry.id), {
				className: 'pg-link',
				title: [iso, entry.error].filter(Boolean).join(' · '),
			}),
		]);
	});
}
