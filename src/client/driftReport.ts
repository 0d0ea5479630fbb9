/**
 * The drift check's report as people read it: console lines (the CLI), JSON, and a fidelity bug ready
 * to file (Markdown: what was sent, both answers, what differs). Bodies in it are already redacted.
 */
import { formatDrift } from '../protocol/drift';
import type { DriftItem, DriftReport } from './driftCheck';

/** Bodies quoted in a bug report at most (characters). */
const QUOTED_BODY_CHARS = 4000;

function what(item: DriftItem): string {
	return `#${item.id} ${item.operation ?? 'plain HTTP'}${item.binding ? ` (${item.binding})` : ''}`;
}

/** The console report: a line per exchange, its differences under it, and a closing line. */
export function driftConsoleReport(report: DriftReport, source: string): string {
	const lines = [
		`Drift of ${source} (recorded at ${report.recordedAt ?? 'an unnamed service'}) against ${report.target}`,
		'',
	];
	for (const item of report.items) {
		const mark = { same: '✓', drift: '≠', notSent: '–', error: '✗' }[item.outcome];
		const note =
			item.outcome === 'same'
				? 'same shape'
				: item.outcome === 'drift'
					? `${item.drift.length} difference(s)`
					: (item.reason ?? '');
		lines.push(`  ${mark} ${what(item)}: ${note}`);
		for (const drift of item.drift.slice(0, 20)) lines.push(`      ${formatDrift(drift)}`);
		if (item.drift.length > 20) lines.push(`      … ${item.drift.length - 20} more (the JSON report has them all)`);
	}
	lines.push('', driftSummaryLine(report));
	return lines.join('\n');
}

export function driftSummaryLine(report: DriftReport): string {
	const { compared, drifted, notSent, errors } = report.counts;
	return `${compared} compared, ${drifted} drift, ${notSent} not sent (writes), ${errors} without an answer`;
}

/** The JSON report of `--json`. */
export function driftJsonReport(report: DriftReport, source: string): string {
	return `${JSON.stringify({ tool: 'multiposting-test', kind: 'drift', version: 1, recording: source, ...report }, null, 2)}\n`;
}

function quoted(body: string): string {
	const text =
		body.length > QUOTED_BODY_CHARS ? `${body.slice(0, QUOTED_BODY_CHARS)}\n… (${body.length} characters)` : body;
	const fence = text.includes('```') ? '~~~~' : '```';
	return `${fence}xml\n${text}\n${fence}`;
}

/** One drifted exchange as the text of a fidelity bug: the sandbox answers unlike the live service. */
export function fidelityIssue(item: DriftItem, report: DriftReport): { title: string; body: string } {
	const title = `Sandbox fidelity: ${item.operation ?? 'a plain HTTP request'} answers unlike the live service (${item.drift[0] ? formatDrift(item.drift[0]) : 'no difference'})`;
	const body = [
		`The sandbox at ${report.target} answers ${what(item)} of a recording made at ${report.recordedAt ?? 'the live service'} in another shape.`,
		'',
		'**Differences** (shapes, not values):',
		'',
		...item.drift.map((drift) => `- ${formatDrift(drift)}`),
		'',
		`**Request** (as recorded, credentials as placeholders): ${item.sent ?? ''}`,
		'',
		`**Live service** answered HTTP ${item.recorded.status}:`,
		'',
		quoted(item.recorded.body),
		'',
		`**Sandbox** answered HTTP ${item.sandbox?.status ?? '-'}:`,
		'',
		quoted(item.sandbox?.body ?? ''),
		'',
		'Found by the drift check of Multiposting Workbench (multiposting-test --drift).',
	].join('\n');
	return { title, body };
}
