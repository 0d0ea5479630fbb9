/**
 * What came back: the status line, transport errors, SOAP faults, HTTP GET/POST error answers as
 * they came over the wire, and tabs with the decoded result, the pretty-printed body (or where it
 * stops being XML), the body as received, the headers and the request that was sent. The response
 * and the sent request open in real (read-only) editors. Every service text is set as text.
 */
import { formatDateTime } from '../../shared/dates';
import type { EditorText, RequestView, ResponseView } from '../../shared/playgroundMessages';
import { button, el } from '../common/dom';
import { createTabs } from '../common/tabs';
import { renderValue } from './result';

export interface ResponseContext {
	doc: Document;
	/** The operation the response is decoded for, and the binding's label (for titles). */
	operation: string;
	bindingLabel: string;
	/** Width available to the result table. */
	width: number;
	copy(label: string, text: string): void;
	open(document: EditorText): void;
}

/** The request as one block of text: request line, headers, blank line, body. */
export function requestText(request: RequestView): string {
	return [
		`${request.method} ${request.url}`,
		...request.headers.map(([name, value]) => `${name}: ${value}`),
		'',
		request.body,
	].join('\n');
}

/**
 * The sent request for an editor: its XML body when it has one (the cursor where the service's error
 * points, when it says), else the whole request as text.
 */
export function requestDocument(
	request: RequestView,
	title: string,
	position?: { line: number; column: number },
): EditorText {
	if (!request.body.trimStart().startsWith('<')) return { title, text: requestText(request), language: 'plaintext' };
	return position
		? { title, text: request.body, language: 'xml', position }
		: { title, text: request.body, language: 'xml' };
}

/**
 * The response for an editor: pretty-printed when it is well-formed XML; as received otherwise, the
 * cursor on the parse error when there is one.
 */
export function responseDocument(response: ResponseView, title: string): EditorText {
	if (response.pretty !== undefined) return { title, text: response.pretty, language: 'xml' };
	const problem = response.prettyError;
	if (problem && problem.line > 0) {
		return {
			title,
			text: response.bodyText,
			language: 'xml',
			position: { line: problem.line, column: Math.max(1, problem.column) },
		};
	}
	return { title, text: response.bodyText, language: 'plaintext' };
}

/** The content type of a response, from its headers. */
export function contentTypeOf(response: ResponseView): string {
	return response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
}

type ResponseTab = 'result' | 'pretty' | 'body' | 'headers' | 'sent-request';

const TABS: { id: ResponseTab; label: string }[] = [
	{ id: 'result', label: 'Result' },
	{ id: 'pretty', label: 'Pretty' },
	{ id: 'body', label: 'Body' },
	{ id: 'headers', label: 'Headers' },
	{ id: 'sent-request', label: 'Sent request' },
];

function isBad(response: ResponseView): boolean {
	return (
		response.error !== undefined ||
		response.fault !== undefined ||
		response.httpError !== undefined ||
		(response.status ?? 0) >= 400
	);
}

/** The status line: HTTP status, content type, size, timing and when it was sent. */
export function statusLine(doc: Document, response: ResponseView): HTMLElement {
	const timing = `${Math.round(response.timings.totalMs)} ms${
		response.timings.headersMs !== undefined ? ` (headers after ${Math.round(response.timings.headersMs)} ms)` : ''
	}`;
	const when = formatDateTime(response.timings.startedAt);
	const type = contentTypeOf(response).split(';')[0].trim();
	const parts = [
		response.status !== undefined ? `HTTP ${response.status}` : 'No response',
		type,
		`${response.size.toLocaleString()} bytes`,
		timing,
	].filter((part) => part.length > 0);
	return el(
		doc,
		'p',
		{ className: `pg-status ${isBad(response) ? 'pg-bad' : 'pg-good'}`, attrs: { id: 'status-line' } },
		[
			parts.join(' · '),
			when && ' · ',
			when && el(doc, 'time', { text: when.text, attrs: { datetime: when.iso, title: when.iso } }),
		],
	);
}

/** The header a loose-mode sandbox adds once per leniency it applied (see src/emulator/README.md). */
const SANDBOX_WARNING_HEADER = 'x-sandbox-warning';
/** The start of each warning; several headers of one name may arrive joined with commas. */
const SANDBOX_WARNING_START = /,\s*(?=production would refuse this request: )/;

/** The leniency warnings of a loose-mode sandbox, one per applied leniency, in the order received. */
export function sandboxWarnings(response: ResponseView): string[] {
	return response.headers
		.filter(([name]) => name.toLowerCase() === SANDBOX_WARNING_HEADER)
		.flatMap(([, value]) => value.split(SANDBOX_WARNING_START))
		.map((warning) => warning.trim())
		.filter((warning) => warning.length > 0);
}

/** The response view of one exchange. */
export function renderResponse(ctx: ResponseContext, response: ResponseView): HTMLElement {
	const { doc } = ctx;
	const title = `${ctx.operation} response (${ctx.bindingLabel})`;
	const wrap = el(doc, 'div', { className: 'pg-response' }, [
		el(doc, 'div', { className: 'pg-response-head' }, [
			statusLine(doc, response),
			el(doc, 'div', { className: 'pg-response-actions' }, [
				button(doc, 'Open in editor', () => ctx.open(responseDocument(response, title)), {
					className: 'mp-button mp-secondary',
					title: 'Open the response body in a read-only XML editor (search, folding, go to line)',
					attrs: { id: 'open-response' },
				}),
				button(
					doc,
					'Open sent request',
					() =>
						ctx.open(
							requestDocument(
								response.request,
								`${ctx.operation} request (${ctx.bindingLabel})`,
								response.requestErrorPosition,
							),
						),
					{ className: 'mp-button mp-secondary', attrs: { id: 'open-sent-request' } },
				),
			]),
		]),
	]);
	if (response.error !== undefined) {
		wrap.append(el(doc, 'p', { className: 'pg-error', text: response.error, attrs: { role: 'alert' } }));
	}
	const warnings = sandboxWarnings(response);
	if (warnings.length > 0) {
		wrap.append(
			el(doc, 'div', { className: 'pg-warning', attrs: { role: 'status', id: 'sandbox-warnings' } }, [
				el(doc, 'strong', {
					text: 'The sandbox accepted this request in loose mode; the production service would refuse it:',
				}),
				el(
					doc,
					'ul',
					{},
					warnings.map((warning) => el(doc, 'li', { text: warning })),
				),
			]),
		);
	}
	if (response.httpError) {
		const error = response.httpError;
		const verdict = { caller: 'Mistake in the request', service: 'Failure of the service', unknown: 'Not said' }[
			error.verdict
		];
		wrap.append(
			el(doc, 'div', { className: 'pg-fault', attrs: { role: 'alert', id: 'http-error' } }, [
				el(doc, 'strong', { text: `HTTP ${error.status} error answer (${error.contentType})` }),
				el(doc, 'pre', { className: 'pg-pre pg-error-text', text: error.text }),
				el(doc, 'dl', {}, [
					el(doc, 'dt', { text: 'Whose mistake' }),
					el(doc, 'dd', { text: `${verdict}. ${error.explanation}` }),
				]),
			]),
		);
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
			el(doc, 'p', { className: 'pg-error', text: `Not decodable as ${ctx.operation}: ${response.decodeError}` }),
		);
	}
	const tabs = createTabs(doc, 'pg-response', TABS, (tab) =>
		tabs.panel.replaceChildren(renderTab(ctx, response, tab)),
	);
	wrap.append(tabs.element, tabs.panel);
	tabs.select(response.result !== undefined ? 'result' : response.pretty !== undefined ? 'pretty' : 'body');
	return wrap;
}

function pre(doc: Document, text: string, id?: string): HTMLPreElement {
	return el(doc, 'pre', { className: 'pg-pre', text, attrs: { tabindex: '0', id } });
}

function renderTab(ctx: ResponseContext, response: ResponseView, tab: ResponseTab): Node {
	const { doc } = ctx;
	switch (tab) {
		case 'result':
			return response.result !== undefined
				? renderValue(ctx, response.result)
				: el(doc, 'p', {
						className: 'pg-muted',
						text:
							response.fault || response.httpError
								? 'The service answered with an error.'
								: 'No decoded result.',
					});
		case 'pretty': {
			if (response.pretty !== undefined) return pre(doc, response.pretty, 'body-pretty');
			const problem = response.prettyError;
			const text = problem
				? `${problem.message}${problem.line > 0 ? ` (line ${problem.line}, column ${problem.column})` : ''}`
				: 'Empty body.';
			return el(doc, 'p', { className: 'pg-error', text, attrs: { id: 'body-pretty' } });
		}
		case 'body':
			return pre(doc, response.bodyText, 'body-raw');
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
