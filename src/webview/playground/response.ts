/**
 * What came back: the status line, transport errors, faults, and tabs with the body as received,
 * the pretty-printed body (or where it stops being XML), the decoded result, the headers and the
 * request that was sent. Every service text is set as text, never as markup.
 */
import type { RequestView, ResponseView } from '../../shared/playgroundMessages';
import { el } from '../common/dom';
import { createTabs } from '../common/tabs';
import { renderValue } from './result';

/** The request as one block of text: request line, headers, blank line, body. */
export function requestText(request: RequestView): string {
	return [
		`${request.method} ${request.url}`,
		...request.headers.map(([name, value]) => `${name}: ${value}`),
		'',
		request.body,
	].join('\n');
}

type ResponseTab = 'body' | 'pretty' | 'result' | 'headers' | 'sent-request';

const TABS: { id: ResponseTab; label: string }[] = [
	{ id: 'body', label: 'Body' },
	{ id: 'pretty', label: 'Pretty' },
	{ id: 'result', label: 'Result' },
	{ id: 'headers', label: 'Headers' },
	{ id: 'sent-request', label: 'Sent request' },
];

/** The response view of one exchange, decoded for `operation`. */
export function renderResponse(doc: Document, response: ResponseView, operation: string): HTMLElement {
	const wrap = el(doc, 'div', { className: 'pg-response' });
	const timing = `${Math.round(response.timings.totalMs)} ms${
		response.timings.headersMs !== undefined ? ` (headers after ${Math.round(response.timings.headersMs)} ms)` : ''
	}`;
	const bad = response.error !== undefined || response.fault !== undefined || (response.status ?? 0) >= 400;
	wrap.append(
		el(doc, 'p', { className: `pg-status ${bad ? 'pg-bad' : 'pg-good'}`, attrs: { id: 'status-line' } }, [
			response.status !== undefined ? `HTTP ${response.status}` : 'No response',
			` · ${response.size} bytes · ${timing} · ${new Date(response.timings.startedAt).toLocaleTimeString()}`,
		]),
	);
	if (response.error !== undefined) {
		wrap.append(el(doc, 'p', { className: 'pg-error', text: response.error, attrs: { role: 'alert' } }));
	}
	if (response.fault) {
		const fault = response.fault;
		const rows: [string, string | undefined][] = [
			['Code', fault.code],
			['Subcode', fault.subcode],
			['Message', fault.message],
			['Detail', fault.detail],
		];
		wrap.append(
			el(doc, 'div', { className: 'pg-fault', attrs: { role: 'alert', id: 'fault' } }, [
				el(doc, 'strong', { text: 'SOAP fault' }),
				el(
					doc,
					'dl',
					{},
					rows
						.filter((row): row is [string, string] => row[1] !== undefined)
						.flatMap(([label, value]) => [el(doc, 'dt', { text: label }), el(doc, 'dd', { text: value })]),
				),
			]),
		);
	}
	if (response.decodeError !== undefined) {
		wrap.append(
			el(doc, 'p', { className: 'pg-error', text: `Not decodable as ${operation}: ${response.decodeError}` }),
		);
	}
	const tabs = createTabs(doc, 'pg-response', TABS, (tab) =>
		tabs.panel.replaceChildren(renderTab(doc, response, tab)),
	);
	wrap.append(tabs.element, tabs.panel);
	tabs.select(response.pretty !== undefined ? 'pretty' : 'body');
	return wrap;
}

function pre(doc: Document, text: string, id?: string): HTMLPreElement {
	return el(doc, 'pre', { className: 'pg-pre', text, attrs: { tabindex: '0', id } });
}

function renderTab(doc: Document, response: ResponseView, tab: ResponseTab): Node {
	switch (tab) {
		case 'body':
			return pre(doc, response.bodyText, 'body-raw');
		case 'pretty': {
			if (response.pretty !== undefined) return pre(doc, response.pretty, 'body-pretty');
			const problem = response.prettyError;
			const text = problem
				? `${problem.message}${problem.line > 0 ? ` (line ${problem.line}, column ${problem.column})` : ''}`
				: 'Empty body.';
			return el(doc, 'p', { className: 'pg-error', text, attrs: { id: 'body-pretty' } });
		}
		case 'result':
			return response.result !== undefined
				? renderValue(doc, response.result)
				: el(doc, 'p', {
						className: 'pg-muted',
						text: response.fault ? 'The service answered with a fault.' : 'No decoded result.',
					});
		case 'headers':
			return el(
				doc,
				'table',
				{ className: 'pg-table' },
				response.headers.map(([name, value]) =>
					el(doc, 'tr', {}, [
						el(doc, 'th', { text: name, attrs: { scope: 'row' } }),
						el(doc, 'td', { text: value }),
					]),
				),
			);
		case 'sent-request':
			return pre(doc, requestText(response.request));
	}
}
