/** The drift report as a read-only Markdown document: a line per exchange, each difference, both answers. Pure. */
import type { DriftItem, DriftReport } from '../../client/driftCheck';
import { prettyPrintXml } from '../../protocol/codecs/xml';
import { literal } from '../traffic/trafficModel';

const SHOWN_BODY_CHARS = 6000;

function cell(text: string): string {
	return literal(text).replace(/\|/g, '\\|');
}

/** An answer's body as shown: indented XML when it is XML, cut when long. */
export function shownBody(body: string): string {
	let text = body;
	if (text.trimStart().startsWith('<')) {
		try {
			text = prettyPrintXml(text);
		} catch {
			// Shown as it came.
		}
	}
	return text.length > SHOWN_BODY_CHARS
		? `${text.slice(0, SHOWN_BODY_CHARS)}\n… (${text.length} characters in all)`
		: text;
}

function fenced(text: string): string {
	const fence = text.includes('```') ? '~~~~' : '```';
	return `${fence}xml\n${text || '(no body)'}\n${fence}`;
}

function title(item: DriftItem): string {
	return `#${item.id} ${item.operation ?? 'plain HTTP'}${item.binding ? ` · ${item.binding}` : ''}`;
}

export function driftMarkdown(report: DriftReport, source: string): string {
	const { compared, drifted, notSent, errors } = report.counts;
	const lines = [
		`# Drift of ${literal(source)}`,
		'',
		`Recorded at ${literal(report.recordedAt ?? 'an unnamed service')}, sent again to ${literal(report.target)}. Shapes are compared, not values: status, content type, result or fault, fault codes, which elements are present, absent or nil.`,
		'',
		`**${drifted === 0 && errors === 0 ? 'No drift' : `${drifted} of ${compared} exchanges answer in another shape`}**: ${compared} compared, ${notSent} not sent (they change data), ${errors} without an answer.`,
		'',
		'| Exchange | Outcome |',
		'|---|---|',
		...report.items.map((item) => {
			const outcome =
				item.outcome === 'same'
					? '✔ same shape'
					: item.outcome === 'drift'
						? `≠ ${item.drift.length} difference${item.drift.length === 1 ? '' : 's'}`
						: item.outcome === 'notSent'
							? `– not sent: ${item.reason ?? ''}`
							: `✖ no answer: ${item.reason ?? ''}`;
			return `| ${cell(title(item))} | ${cell(outcome)} |`;
		}),
	];
	for (const item of report.items.filter((candidate) => candidate.outcome === 'drift')) {
		lines.push(
			'',
			`## ${literal(title(item))}`,
			'',
			`Sent: ${literal(item.sent ?? '')}`,
			'',
			'| What | Where | Live service (recorded) | Sandbox |',
			'|---|---|---|---|',
			...item.drift.map(
				(drift) =>
					`| ${cell(drift.aspect)} | ${cell(drift.path ?? '')} | ${cell(drift.recorded)} | ${cell(drift.sandbox)} |`,
			),
			'',
			`### Live service: HTTP ${item.recorded.status}`,
			'',
			fenced(shownBody(item.recorded.body)),
			'',
			`### Sandbox: HTTP ${item.sandbox?.status ?? '-'}`,
			'',
			fenced(shownBody(item.sandbox?.body ?? '')),
		);
	}
	lines.push(
		'',
		'"Compare Answers of a Drifted Exchange…" shows both answers side by side; "Copy a Fidelity Bug Report…" copies one as an issue to file.',
		'',
	);
	return lines.join('\n');
}
