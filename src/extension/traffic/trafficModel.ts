/**
 * The Traffic view's logic without the editor API: the rows (newest first, bounded), the filter typed
 * by the user, the exchange as a read-only Markdown document (verdict and near misses above, request
 * and response below as highlighted XML), and the exchange turned into a playground form, a `.mpreq`
 * request test and a curl command line. Everything starts from the journal's redacted entries, so
 * credentials are `{{connection.*}}` placeholders throughout.
 */
import { entryMatches, type JournalFilter } from '../../emulator/journal/journal';
import type { JournalEntry } from '../../emulator/journal/types';
import type { Verdict } from '../../emulator/journal/verdict';
import { isOperationName, OPERATIONS } from '../../protocol/catalogue';
import { prettyPrintXml } from '../../protocol/codecs/xml';
import type { Expectation } from '../../protocol/requestFiles/expressions';
import type { RequestEntry } from '../../protocol/requestFiles/format';
import { newForm } from '../../shared/playgroundForms';
import type { PlaygroundForm, RawDraft } from '../../shared/playgroundMessages';

/** An exchange with production's verdict, as `GET /__admin/requests/{id}` answers it. */
export type DetailedEntry = JournalEntry & { verdict: Verdict };

/** Rows the view keeps at most (the sandbox's journal keeps 500 by default). */
export const MAX_ROWS = 500;

/** The icon of a row: a fault, a request production refuses or ignores in part, or a clean exchange. */
export type RowMark = 'fault' | 'production' | 'ok';

export function rowMark(entry: JournalEntry): RowMark {
	if (entry.status >= 400) return 'fault';
	if (entry.leniencies?.length) return 'production';
	return 'ok';
}

/** The row's label and description: time, operation (or path); binding, status, duration, client. */
export function rowText(entry: JournalEntry): { label: string; description: string; tooltip: string } {
	const time = entry.time.slice(11, 19);
	const what = entry.operation ?? `${entry.method} ${entry.path}`;
	const description = `${entry.binding ?? '-'} · ${entry.status} · ${entry.durationMs} ms · ${entry.client}`;
	const why = entry.fault
		? `\n${entry.fault.code}${entry.fault.subcode ? `/${entry.fault.subcode}` : ''}: ${entry.fault.message}`
		: '';
	const lenient = entry.leniencies?.length ? `\nProduction would refuse: ${entry.leniencies.join('; ')}` : '';
	return {
		label: `${time} ${what}`,
		description,
		tooltip: `${entry.method} ${entry.path} → ${entry.status}${why}${lenient}`,
	};
}

/**
 * The filter typed in the view: `op:AddAdvert status:5xx client:127.0.0.1` and free text, which is
 * looked for in the path, operation, fault and bodies.
 */
export function parseFilter(text: string): JournalFilter {
	const filter: JournalFilter = {};
	const words: string[] = [];
	for (const word of text.trim().split(/\s+/).filter(Boolean)) {
		const match = /^(op|operation|status|client):(.+)$/i.exec(word);
		if (!match) words.push(word);
		else if (match[1].toLowerCase() === 'status') filter.status = match[2];
		else if (match[1].toLowerCase() === 'client') filter.client = match[2];
		else filter.operation = match[2];
	}
	if (words.length > 0) filter.text = words.join(' ');
	return filter;
}

/** The rows: newest first, at most MAX_ROWS, merged as they arrive. */
export class TrafficRows {
	private rows: JournalEntry[] = [];

	/** Adds exchanges (any order); returns true when something was new. */
	add(entries: readonly JournalEntry[]): boolean {
		const known = new Set(this.rows.map((row) => row.id));
		const fresh = entries.filter((entry) => !known.has(entry.id));
		if (fresh.length === 0) return false;
		this.rows = [...fresh, ...this.rows].sort((a, b) => b.id - a.id).slice(0, MAX_ROWS);
		return true;
	}

	clear(): void {
		this.rows = [];
	}

	/** The id of the newest row, 0 when none. */
	get lastId(): number {
		return this.rows[0]?.id ?? 0;
	}

	list(filter: JournalFilter = {}): JournalEntry[] {
		return this.rows.filter((row) => entryMatches(row, filter));
	}

	get(id: number): JournalEntry | undefined {
		return this.rows.find((row) => row.id === id);
	}
}

function fenced(language: string, text: string): string {
	const fence = text.includes('```') ? '~~~~' : '```';
	return `${fence}${language}\n${text}\n${fence}`;
}

function bodyBlock(text: string, contentType: string | undefined, cut: boolean): string {
	if (text === '') return '_(no body)_';
	const xml = /xml/i.test(contentType ?? '') || text.trimStart().startsWith('<');
	let shown = text;
	if (xml && !cut) {
		try {
			shown = prettyPrintXml(text);
		} catch {
			// Not well-formed: shown as sent.
		}
	}
	return fenced(xml ? 'xml' : /json/i.test(contentType ?? '') ? 'json' : 'text', shown);
}

function headerBlock(headers: Readonly<Record<string, string>>): string {
	const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
	return fenced('http', lines.join('\n') || '(no headers)');
}

function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The verdict as Markdown: summary, refusal, what production refuses or ignores, the WSDL, near misses. */
export function verdictMarkdown(verdict: Verdict): string {
	const lines = [`**${verdict.summary}**`, ''];
	if (verdict.refusal) {
		const { fault } = verdict.refusal;
		lines.push(
			`- Production answers HTTP ${verdict.refusal.status}: ${fault.code}${fault.subcode ? `/${fault.subcode}` : ''}, "${fault.message}"`,
		);
	}
	for (const item of verdict.production) lines.push(`- ${item}`);
	for (const issue of verdict.ruleIssues) lines.push(`- Parameter rule: ${issue}`);
	if (verdict.wsdl) {
		lines.push(`- WSDL (${verdict.wsdl.checked}): ${verdict.wsdl.valid ? 'valid' : 'not valid'}`);
		for (const problem of verdict.wsdl.problems) {
			lines.push(`  - ${problem.line > 0 ? `request line ${problem.line}: ` : ''}${problem.message}`);
		}
	}
	if (verdict.note) lines.push(`- ${verdict.note}`);
	if (verdict.nearMisses.length > 0) {
		lines.push('', '### Near misses', '', '| | Sent | Closest | What differs | Fix |', '|---|---|---|---|---|');
		for (const miss of verdict.nearMisses) {
			lines.push(
				`| ${miss.kind}${miss.line ? ` (line ${miss.line})` : ''} | ${cell(miss.sent || '(nothing)')} | ${cell(miss.closest.join(', '))} | ${cell(miss.differs)} | ${cell(miss.fix)} |`,
			);
		}
	}
	return lines.join('\n');
}

/** The whole exchange as a read-only Markdown document. */
export function exchangeMarkdown(entry: DetailedEntry): string {
	const title = entry.operation ?? `${entry.method} ${entry.path}`;
	const target = entry.query ? `${entry.path}?${entry.query}` : entry.path;
	const cut = (body: JournalEntry['request']['body']): string =>
		body.truncated
			? `\n\n_The body was ${body.bytes} bytes: its middle (${body.truncated.omittedChars} characters) is not kept._`
			: '';
	return [
		`# ${title} · ${entry.binding ?? '-'} · ${entry.status} · ${entry.durationMs} ms`,
		'',
		`Exchange ${entry.id} at ${entry.time} from ${entry.client}${entry.soapAction ? ` · SOAPAction \`${entry.soapAction}\`` : ''}`,
		'',
		'## Verdict',
		'',
		verdictMarkdown(entry.verdict),
		...(entry.fault
			? [
					'',
					`The sandbox answered the fault ${entry.fault.code}${entry.fault.subcode ? `/${entry.fault.subcode}` : ''}: "${entry.fault.message}".`,
				]
			: []),
		...(entry.internalReason
			? ['', `Internal reason (the client saw only the fixed text): ${entry.internalReason}`]
			: []),
		'',
		`## Request: ${entry.method} ${target}`,
		'',
		headerBlock(entry.request.headers),
		'',
		bodyBlock(entry.request.body.text, entry.contentType, Boolean(entry.request.body.truncated)) +
			cut(entry.request.body),
		'',
		`## Response: ${entry.status}`,
		'',
		headerBlock(entry.response.headers),
		'',
		bodyBlock(
			entry.response.body.text,
			entry.response.headers['content-type'],
			Boolean(entry.response.body.truncated),
		) + cut(entry.response.body),
		'',
	].join('\n');
}

/** The request body as it is compared: pretty XML when it is XML. */
export function comparableText(entry: JournalEntry, side: 'request' | 'response'): string {
	const { text } = entry[side].body;
	const head =
		side === 'request'
			? `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''}`
			: `HTTP ${entry.status}`;
	try {
		return `${head}\n\n${prettyPrintXml(text)}`;
	} catch {
		return `${head}\n\n${text}`;
	}
}

const SENT_HEADERS = ['content-type', 'soapaction'];

/** The exchange's request as the playground's raw draft: the same method, target, headers and body. */
export function rawDraftOf(entry: JournalEntry): RawDraft {
	const headers = Object.entries(entry.request.headers).filter(([name]) => SENT_HEADERS.includes(name));
	return {
		method: entry.method,
		target: entry.query ? `${entry.path}?${entry.query}` : entry.path,
		headersText: headers
			.map(([name, value]) => `${name === 'soapaction' ? 'SOAPAction' : 'Content-Type'}: ${value}`)
			.join('\n'),
		body: entry.method === 'GET' ? '' : entry.request.body.text,
	};
}

/** The exchange in the playground: raw mode, the same request ready to edit and send again. */
export function playgroundFormOf(entry: JournalEntry): PlaygroundForm {
	const form = newForm(entry.operation && isOperationName(entry.operation) ? entry.operation : undefined);
	return { ...form, mode: 'raw', binding: entry.binding ?? form.binding, raw: rawDraftOf(entry) };
}

/**
 * The exchange as a request test: the same raw request, expecting what came back (the status, and
 * no fault or the fault's subcode). The runner substitutes the `{{connection.*}}` placeholders.
 */
export function requestTestOf(entry: JournalEntry): RequestEntry {
	const draft = rawDraftOf(entry);
	const raw = {
		method: draft.method,
		target: draft.target,
		headers: draft.headersText
			.split('\n')
			.filter(Boolean)
			.map(
				(line) =>
					[line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string],
			),
		body: draft.body,
	};
	const expectations: Expectation[] = [
		{
			kind: 'compare',
			subject: { kind: 'status' },
			operator: '==',
			operand: { kind: 'number', value: entry.status },
		},
	];
	const name = `${entry.operation ?? entry.path} as seen at ${entry.time} (${entry.status})`;
	const operation = entry.operation && isOperationName(entry.operation) ? entry.operation : undefined;
	if (!operation || !entry.binding) return { name, http: raw, expectations, captures: [], namespaces: {} };
	expectations.push(entry.fault ? { kind: 'fault', subcode: entry.fault.subcode } : { kind: 'noFault' });
	return {
		name,
		document: { operation, binding: entry.binding, endpoint: OPERATIONS[operation].endpoint, params: {}, raw },
		expectations,
		captures: [],
		namespaces: {},
	};
}
