/** The sandbox's log lines: the access log and background events, as the CLI and the extension print them. */
import { SANDBOX_WARNING_PREFIX, type AccessLogEntry } from './pipeline/context';
import type { EmulatorEvent } from './server';
import type { LogLine } from './worker/protocol';

/** One access-log line: method path binding operation status ms. */
export function formatAccessLog(entry: AccessLogEntry): string {
	const base = `${entry.method} ${entry.path} ${entry.binding ?? '-'} ${entry.operation ?? '-'} ${entry.status} ${entry.durationMs}ms`;
	// Loose mode: each leniency on its own line, worded as the X-Sandbox-Warning header.
	const line =
		base +
		(entry.warnings ?? []).map((w) => `\n  warning: ${SANDBOX_WARNING_PREFIX}${w}`).join('') +
		(entry.injected !== undefined ? `\n  injected by scenario ${entry.injected}` : '') +
		(entry.upstream !== undefined ? ` -> ${entry.upstream}` : '') +
		(entry.replayed !== undefined ? ` replay ${entry.replayed}` : '');
	if (entry.error === undefined) return line;
	const detail = entry.error instanceof Error ? (entry.error.stack ?? entry.error.message) : String(entry.error);
	return `${line}\n  internal error: ${detail.replace(/\n/g, '\n  ')}`;
}

/** One event-log line (deliveries, new applications, callbacks, background failures); never with secrets. */
export function formatEvent(event: EmulatorEvent): string {
	switch (event.kind) {
		case 'delivery':
			return `delivery posting=${event.postingId} advert=${event.advertId} feed=${event.feedId} status=${event.statusId} ${event.response}${event.injected ? ` (injected by scenario ${event.injected})` : ''}`;
		case 'application':
			return `application ${event.advertCandidateId} advert=${event.advertId} feed=${event.feedId}`;
		case 'callback':
			return `callback ${event.outcome} ${event.target} application=${event.advertCandidateId} attempt=${event.attempt}${event.status !== undefined ? ` status=${event.status}` : ''}${event.error ? ` error=${event.error}` : ''}`;
		case 'storage':
			return `storage ${event.message}`;
		case 'scenarios':
			return event.active.length === 0
				? 'scenarios off: the sandbox answers normally'
				: `scenarios on: ${event.active.map((scenario) => scenario.name).join(', ')} (failures are injected on purpose)`;
		case 'replay':
			if (!event.info) return 'replay off: the sandbox answers every request itself';
			return [
				`replay on (${event.info.mode === 'strict' ? 'strict: a request not recorded is a NotRecorded fault' : 'fall-through: a request not recorded goes to the sandbox'}): ${event.info.recordings.map((recording) => `${recording.name} (${recording.exchanges} exchanges)`).join(', ')}`,
				...event.notes.map((note) => `  note: ${note}`),
			].join('\n');
		case 'proxy': {
			if (!event.info) return 'proxy off: requests to the live service no longer go through the sandbox';
			const { url, upstream, namespace, namespaceFrom, namespaceNote } = event.info;
			const from = { option: 'as given', wsdl: 'from its WSDL', 'base-url': "base URL + '/'" }[namespaceFrom];
			return [
				`proxy on: ${url} forwards to ${upstream} (namespace ${namespace}, ${from})`,
				...(namespaceNote ? [`  note: ${namespaceNote}`] : []),
			].join('\n');
		}
		case 'error': {
			const detail =
				event.error instanceof Error ? (event.error.stack ?? event.error.message) : String(event.error);
			return `error ${event.message}\n  ${detail.replace(/\n/g, '\n  ')}`;
		}
	}
}

/** The line with its level for a log that has levels (the extension's output channel). */
export function accessLogLine(entry: AccessLogEntry): LogLine {
	const level =
		entry.error !== undefined
			? 'error'
			: entry.warnings !== undefined || entry.injected !== undefined
				? 'warn'
				: 'info';
	return { level, text: formatAccessLog(entry) };
}

export function eventLogLine(event: EmulatorEvent): LogLine {
	const level =
		event.kind === 'error'
			? 'error'
			: event.kind === 'storage' ||
				  event.kind === 'scenarios' ||
				  (event.kind === 'proxy' && event.info?.namespaceNote !== undefined) ||
				  (event.kind === 'callback' && event.outcome !== 'delivered')
				? 'warn'
				: 'info';
	return { level, text: formatEvent(event) };
}
