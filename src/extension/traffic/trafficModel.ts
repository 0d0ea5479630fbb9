/**
 * The Traffic view's logic without the editor API: the rows (newest first, bounded), the filter typed
 * by the user, the exchange as a read-only Markdown document (verdict and near misses above, request
 * and response below as highlighted XML), and the exchange turned into a playground form, a `.mpreq`
 * request test and a curl command line. Everything starts from the journal's redacted entries, so
 * credentials are `{{connection.*}}` placeholders throughout.
 */
import { entryMatches, type JournalFilter } from '../../emulator/journal/journal';
import { decodeJournaledAnswer } from '../../emulator/journal/answer';
import type { JournalEntry } from '../../emulator/journal/types';
import type { Verdict } from '../../emulator/journal/verdict';
import { isOperationName, OPERATION_NAMES, OPERATIONS, type OperationName } from '../../protocol/catalogue';
import { prettyPrintXml } from '../../protocol/codecs/xml';
import { normaliseResult, type Normalised } from '../../protocol/compare';
import type { Expectation, Operand, PathSegment } from '../../protocol/requestFiles/expressions';
import { LENGTH_FIELD } from '../../protocol/requestFiles/resultPaths';
import type { RequestEntry } from '../../protocol/requestFiles/format';
import { newForm } from '../../shared/playgroundForms';
import type { PlaygroundForm, RawDraft } from '../../shared/playgroundMessages';

/** An exchange with production's verdict, as `GET /__admin/requests/{id}` answers it. */
export type DetailedEntry = JournalEntry & { verdict: Verdict };

/** Rows the view keeps at most (the sandbox's journal keeps 500 by default). */
export const MAX_ROWS = 500;

/** The icon of a row: a fault, a request production refuses or ignores in part, or a clean exchange. */
export type RowMark = 'fault' | 'production' | 'ok';

/** The mark of a row; once the exchange was opened, its verdict also counts (production ignores a part). */
export function rowMark(entry: JournalEntry, verdict?: Verdict): RowMark {
	if (entry.status >= 400) return 'fault';
	if (entry.leniencies?.length || verdict?.refusal || verdict?.production.length) return 'production';
	return 'ok';
}

/** A problem of the verdict at its 1-based line of the request body as sent. */
export interface LocatedProblem {
	line: number;
	message: string;
	severity: 'error' | 'warning';
}

/** The verdict's problems that name a line of the request body: the WSDL's errors and the near misses. */
export function locatedProblems(entry: DetailedEntry): LocatedProblem[] {
	// A cut body is not judged, and its lines past the cut would not be where the text shows them.
	if (entry.request.body.truncated || entry.request.body.text === '') return [];
	const { wsdl, nearMisses } = entry.verdict;
	return [
		...(wsdl?.problems ?? [])
			.filter((problem) => problem.line > 0)
			.map((problem) => ({ line: problem.line, message: problem.message, severity: 'error' as const })),
		...nearMisses
			.filter((miss) => miss.line)
			.map((miss) => ({
				line: miss.line ?? 0,
				message: `${miss.kind}: ${miss.differs} (fix: ${miss.fix})`,
				severity: 'warning' as const,
			})),
	];
}

/** What the view says: which sandbox it follows and how, and how many exchanges it has. */
export interface TrafficViewState {
	/** The base URL followed; undefined when none. */
	following?: string;
	/** Why the last read failed (it retries). */
	problem?: string;
	paused: boolean;
	filter: string;
	/** Exchanges shown (those the filter keeps) and held. */
	shown: number;
	total: number;
	/** The view's rows are out of sight (collapsed, or another view shown). */
	hidden: boolean;
}

/**
 * The view's message (above its rows, or its empty state), its description (beside its title: the
 * count of exchanges, and whether it is paused) and its title. VS Code hides a collapsed view's
 * description, so its title carries the count then.
 */
export function viewStatus(state: TrafficViewState): { message: string; description?: string; title: string } {
	const { following, problem, paused, filter, shown, total, hidden } = state;
	const count =
		total === 0 ? undefined : `${shown === total ? '' : `${shown} of `}${total} exchange${total === 1 ? '' : 's'}`;
	const description = [count, paused ? 'paused' : undefined].filter(Boolean).join(' · ') || undefined;
	const title = hidden && description ? `Traffic · ${description}` : 'Traffic';
	if (problem) return { message: `${problem} Retrying…`, description, title };
	const where = !following
		? 'Start the sandbox or attach to a sandbox URL.'
		: total === 0
			? `No exchanges yet: send a request to ${following}`
			: `Following ${following}`;
	return {
		message: `${where}${paused ? ' (paused)' : ''}${filter ? ` · filter: ${filter}` : ''}`,
		description,
		title,
	};
}

/** The row's label and description: time, operation (or path); binding, status, duration, client. */
export function rowText(entry: JournalEntry): { label: string; description: string; tooltip: string } {
	const time = entry.time.slice(11, 19);
	// No operation reached: the path's last two segments (endpoint and name), the whole path in the tooltip.
	const segments = entry.path.split('/').filter(Boolean);
	const what =
		entry.operation ?? `${entry.method} ${segments.length > 2 ? '…/' : '/'}${segments.slice(-2).join('/')}`;
	const via = entry.upstream
		? ` → ${hostOf(entry.upstream)}`
		: entry.replay?.outcome === 'served'
			? ' · replayed'
			: '';
	const description = `${entry.binding ?? '-'} · ${entry.status} · ${entry.durationMs} ms · ${entry.client}${via}`;
	const why = entry.fault
		? `\n${faultName(entry.fault)}: ${entry.fault.message}`
		: entry.proxyError
			? `\nThe proxy answered ${entry.status} itself: ${entry.proxyError.message}`
			: '';
	const where = entry.upstream ? `\nProxied to ${entry.upstream}` : '';
	const replay = entry.replay ? `\n${replayText(entry.replay)}` : '';
	const held = entry.breakpoint ? `\nBreakpoint: ${entry.breakpoint}` : '';
	const lenient = entry.leniencies?.length ? `\nProduction would refuse: ${entry.leniencies.join('; ')}` : '';
	const injected = entry.injected ? `\n${injectedText(entry.injected)}` : '';
	return {
		label: `${time} ${what}`,
		description,
		tooltip: `${entry.method} ${entry.path} → ${entry.status}${where}${why}${lenient}${injected}${replay}${held}`,
	};
}

function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return url;
	}
}

function replayText(replay: NonNullable<JournalEntry['replay']>): string {
	if (replay.outcome === 'served') {
		return `Answered from the recording ${replay.recording}, exchange ${replay.exchange}`;
	}
	return replay.mode === 'strict'
		? 'Not in the recording: answered with the NotRecorded fault (strict replay)'
		: 'Not in the recording: the sandbox answered (fall-through replay)';
}

/** What the upstream answered, decoded with the catalogue: a result's size, a fault, or why it does not decode. */
export function upstreamAnswerText(entry: JournalEntry, namespace: string): string | undefined {
	if (!entry.upstream || entry.proxyError || !entry.operation || !entry.binding || entry.response.body.truncated) {
		return undefined;
	}
	try {
		const decoded = decodeJournaledAnswer(entry, entry.operation, entry.binding, namespace);
		if (!decoded.ok) return `a fault ${faultName(decoded.fault)}: "${decoded.fault.message}"`;
		const result = normaliseResult(decoded.result);
		if (Array.isArray(result)) return `a result of ${entry.operation}: ${result.length} record(s)`;
		return `a result of ${entry.operation}`;
	} catch (error) {
		return `an answer that does not decode as ${entry.operation}'s (${error instanceof Error ? error.message : String(error)})`;
	}
}

function injectedText(injected: string): string {
	return `Injected on purpose by a failure scenario (not a sandbox bug): ${injected}`;
}

export { parseFilter } from '../../emulator/journal/filterText';

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

	get size(): number {
		return this.rows.length;
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

/**
 * Service text (fault messages, element names, paths) as literal Markdown: `<sAPIKey>` would otherwise
 * be taken for an HTML tag and vanish from the preview, and `*`, `_` or `[` would format.
 */
export function literal(text: string): string {
	return text.replace(/[\\`*_[\]<>&]/g, '\\$&').replace(/\s*\n\s*/g, ' ');
}

function cell(text: string): string {
	return literal(text).replace(/\|/g, '\\|');
}

/** The verdict as Markdown: summary, refusal, what production refuses or ignores, the WSDL, near misses. */
export function verdictMarkdown(verdict: Verdict): string {
	const lines = [`**${literal(verdict.summary)}**`, ''];
	if (verdict.refusal) {
		const { fault } = verdict.refusal;
		lines.push(
			`- Production answers HTTP ${verdict.refusal.status}: ${literal(faultName(fault))}, "${literal(fault.message)}"`,
		);
	}
	for (const item of verdict.production) lines.push(`- ${literal(item)}`);
	for (const issue of verdict.ruleIssues) lines.push(`- Parameter rule: ${literal(issue)}`);
	if (verdict.wsdl) {
		lines.push(`- WSDL (${literal(verdict.wsdl.checked)}): ${verdict.wsdl.valid ? 'valid' : 'not valid'}`);
		for (const problem of verdict.wsdl.problems) {
			lines.push(`  - ${problem.line > 0 ? `request line ${problem.line}: ` : ''}${literal(problem.message)}`);
		}
	}
	if (verdict.note) lines.push(`- ${literal(verdict.note)}`);
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

function faultName(fault: { code: string; subcode?: string }): string {
	return `${fault.code}${fault.subcode ? `/${fault.subcode}` : ''}`;
}

/** The whole exchange as a read-only Markdown document; `upstream` reads a proxied exchange's answer. */
export function exchangeMarkdown(entry: DetailedEntry, upstream?: { namespace: string }): string {
	const answered = upstream ? upstreamAnswerText(entry, upstream.namespace) : undefined;
	const live = entry.upstream
		? [
				'',
				`Proxied to ${literal(entry.upstream)}: the verdict above was computed here, before forwarding; ${
					entry.proxyError
						? `the upstream gave no answer, so the proxy answered ${entry.status} itself: ${literal(entry.proxyError.message)}.`
						: `the upstream answered HTTP ${entry.status}${answered ? `, ${literal(answered)}` : ''}.`
				}`,
				...(entry.verdict.refusal && !entry.proxyError && entry.status < 400
					? [
							'',
							'**The verdict and the live service disagree**: production was expected to refuse this request, and it did not. The sandbox may be stricter than the service here: worth a fidelity report.',
						]
					: []),
			]
		: [];
	const title = entry.operation ?? `${entry.method} ${entry.path}`;
	const target = entry.query ? `${entry.path}?${entry.query}` : entry.path;
	const cut = (body: JournalEntry['request']['body']): string =>
		body.truncated
			? `\n\n_The body was ${body.bytes} bytes: its middle (${body.truncated.omittedChars} characters) is not kept._`
			: '';
	return [
		`# ${literal(title)} · ${entry.binding ?? '-'} · ${entry.status} · ${entry.durationMs} ms`,
		'',
		`Exchange ${entry.id} at ${entry.time} from ${literal(entry.client)}${entry.soapAction ? ` · SOAPAction ${literal(entry.soapAction)}` : ''}`,
		'',
		'## Verdict',
		'',
		verdictMarkdown(entry.verdict),
		...(entry.fault
			? [
					'',
					`The sandbox answered the fault ${literal(faultName(entry.fault))}: "${literal(entry.fault.message)}".`,
				]
			: []),
		...(entry.internalReason
			? ['', `Internal reason (the client saw only the fixed text): ${literal(entry.internalReason)}`]
			: []),
		...(entry.injected ? ['', literal(injectedText(entry.injected))] : []),
		...live,
		...(entry.replay ? ['', literal(replayText(entry.replay))] : []),
		...(entry.breakpoint ? ['', `Breakpoint: ${literal(entry.breakpoint)}`] : []),
		...(entry.otherCredentials ? ['', "This request carried credentials other than the connection's own."] : []),
		'',
		`## Request: ${entry.method} ${literal(target)}`,
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
 * Operations whose answer differs on every call (the state they change, or GetLoginURL's new login
 * token): a replay of one is checked by its status and fault only.
 */
const ANSWER_CHANGES: ReadonlySet<OperationName> = new Set([
	...OPERATION_NAMES.filter((name) => OPERATIONS[name].changesData),
	'GetLoginURL',
]);

/** Result fields that become expectations at most: enough to catch a changed answer, few enough to read. */
const MAX_RESULT_FIELDS = 3;
const MAX_EXPECTED_TEXT = 100;

function resultPath(...segments: (string | number)[]): PathSegment[] {
	return segments.map((segment) => (typeof segment === 'number' ? { index: segment } : { field: segment }));
}

function equals(path: PathSegment[], value: Normalised): Expectation | undefined {
	const operand = operandOf(value);
	return operand && { kind: 'compare', subject: { kind: 'result', path }, operator: '==', operand };
}

function operandOf(value: Normalised): Operand | undefined {
	if (typeof value === 'number') return { kind: 'number', value };
	if (typeof value === 'boolean') return { kind: 'boolean', value };
	// A redacted credential ({{connection.*}}) or a long text is no key value.
	if (typeof value !== 'string' || value === '' || value.length > MAX_EXPECTED_TEXT) return undefined;
	if (value.includes('{{') || /[\r\n]/.test(value)) return undefined;
	return { kind: 'string', value };
}

/** The first scalar fields of a record (and the count of its first list), as expectations. */
function recordExpectations(record: { [key: string]: Normalised }, at: (string | number)[]): Expectation[] {
	const found: Expectation[] = [];
	for (const [field, value] of Object.entries(record)) {
		if (found.length >= MAX_RESULT_FIELDS) break;
		const expectation = Array.isArray(value)
			? equals(resultPath(...at, field, LENGTH_FIELD), value.length)
			: equals(resultPath(...at, field), value);
		if (expectation) found.push(expectation);
	}
	return found;
}

/**
 * Key values of the answer: for a list its count and its first item's first fields, for a record its
 * first fields. None when the answer changes on every call, was cut or cannot be decoded.
 */
export function resultExpectations(entry: JournalEntry, namespace: string): Expectation[] {
	const operation = entry.operation && isOperationName(entry.operation) ? entry.operation : undefined;
	if (!operation || !entry.binding || entry.fault || entry.status !== 200) return [];
	if (ANSWER_CHANGES.has(operation) || entry.response.body.truncated) return [];
	let result: Normalised | undefined;
	try {
		const decoded = decodeJournaledAnswer(entry, operation, entry.binding, namespace);
		result = decoded.ok ? normaliseResult(decoded.result) : undefined;
	} catch {
		return [];
	}
	if (Array.isArray(result)) {
		const count = equals(resultPath(LENGTH_FIELD), result.length);
		const first = result[0];
		const firstFields = first && typeof first === 'object' && !Array.isArray(first) ? first : undefined;
		return [...(count ? [count] : []), ...(firstFields ? recordExpectations(firstFields, [0]) : [])];
	}
	return result && typeof result === 'object' ? recordExpectations(result, []) : [];
}

/**
 * The exchange as a request test: the same raw request, expecting what came back (the status, no
 * fault or the fault's subcode, and key values of the result when the service's XML namespace is
 * known). The runner substitutes the `{{connection.*}}` placeholders.
 */
export function requestTestOf(entry: JournalEntry, namespace?: string): RequestEntry {
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
	if (namespace) expectations.push(...resultExpectations(entry, namespace));
	return {
		name,
		document: { operation, binding: entry.binding, endpoint: OPERATIONS[operation].endpoint, params: {}, raw },
		expectations,
		captures: [],
		namespaces: {},
	};
}
