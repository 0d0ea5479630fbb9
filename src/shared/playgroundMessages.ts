/**
 * Messages between the request playground's webview and its host. The webview never receives a
 * credential: credential parameters hold `{{connection.*}}` placeholders that the host resolves at
 * send time. The host validates every incoming message with parseWebviewMessage.
 */
import { isRecord } from './webviewProtocol';

export type PlaygroundBinding = 'soap11' | 'soap12' | 'httpGet' | 'httpPost';

/** A raw request as edited in the webview. */
export interface RawDraft {
	method: string;
	/** Path plus query, appended to the connection's base URL. */
	target: string;
	/** One `Name: value` per line. */
	headersText: string;
	body: string;
}

/** Everything the user edits; persisted with setState and in history. */
export interface PlaygroundForm {
	mode: 'form' | 'raw';
	operation: string;
	binding: PlaygroundBinding;
	/** Form values as typed: text for scalars, a list of texts for list parameters; '' = not given. */
	params: Record<string, string | string[]>;
	raw: RawDraft;
	timeoutMs: number;
}

/** An HTTP request for display (credentials shown as ***). */
export interface RequestView {
	method: string;
	url: string;
	headers: [string, string][];
	body: string;
}

export interface IssueView {
	param: string;
	message: string;
}

export interface FaultView {
	code: string;
	subcode?: string;
	message: string;
	detail?: string;
}

/**
 * An error answer of HTTP GET or HTTP POST: those bindings have no SOAP, so what came over the wire
 * is shown as it is (status, content type, text), with an honest word on whose mistake it is.
 */
export interface HttpErrorView {
	status: number;
	contentType: string;
	text: string;
	/** 'service': the service's own failure; 'caller': the request is at fault; 'unknown': the answer does not say. */
	verdict: 'caller' | 'service' | 'unknown';
	/** One sentence saying why the verdict is what it is. */
	explanation: string;
}

/** A response as the webview shows it; every text is redacted. */
export interface ResponseView {
	request: RequestView;
	status?: number;
	headers: [string, string][];
	timings: { startedAt: number; headersMs?: number; totalMs: number };
	size: number;
	/** The body decoded as UTF-8, exactly as received. */
	bodyText: string;
	/** prettyPrintXml of the body, when it is well-formed XML. */
	pretty?: string;
	/** Why the body could not be pretty-printed, with line and column when known. */
	prettyError?: { message: string; line: number; column: number };
	/** The decoded typed result (JSON-safe, bytes as base64:...). */
	result?: unknown;
	/** A SOAP fault (SOAP 1.1 and 1.2 only). */
	fault?: FaultView;
	/** An HTTP GET or POST error answer (HTTP 500 text/plain from an ASMX service). */
	httpError?: HttpErrorView;
	/** Why the body could not be decoded as the operation's result. */
	decodeError?: string;
	/** Transport failure (timeout, abort, network). */
	error?: string;
	/**
	 * Where in the (redacted) sent request body the service's error points, when its message gives a
	 * line and column ("Malformed XML at line 1, column 353").
	 */
	requestErrorPosition?: { line: number; column: number };
}

export interface DiffLine {
	kind: 'same' | 'removed' | 'added';
	text: string;
}

export interface ComparisonView {
	/** The same call over the four bindings, or over two connections (what must differ masked). */
	kind: 'bindings' | 'connections';
	operation: string;
	/** Per binding or connection: what came back. */
	columns: {
		/** The binding's name, or the connection's id. */
		key: string;
		label: string;
		status?: number;
		summary: string;
		/** The whole body, pretty-printed when it is XML. */
		pretty: string;
		/**
		 * The payload: the result element (or the fault, or the error text), re-indented,
		 * whitespace-insensitive; between connections with identifiers, dates and the namespace masked.
		 */
		payload: string;
	}[];
	/** Structural differences from the first column (SOAP 1.1, or the active connection). */
	results: { key: string; equal: boolean; differences: string[] }[];
	/** Line diffs of the payloads against the first column. */
	payloads: { key: string; lines: DiffLine[] }[];
}

/** A text the host opens in a read-only editor. */
export interface EditorText {
	/** Names the tab, e.g. "GetCurrency response (SOAP 1.1)". */
	title: string;
	text: string;
	language: 'xml' | 'plaintext';
	/** 1-based place to put the cursor (a parse error). */
	position?: { line: number; column: number };
}

export interface HistorySummary {
	id: string;
	time: number;
	operation: string;
	binding: string;
	mode: 'form' | 'raw';
	status?: number;
	totalMs: number;
	error?: string;
}

export interface ConnectionView {
	label: string;
	baseUrl: string;
	postingPath: string;
	administrationPath: string;
	username?: string;
	culture: string;
}

export type WebviewToHost =
	| { type: 'ready' }
	| { type: 'formChanged'; form: PlaygroundForm }
	| { type: 'send'; form: PlaygroundForm }
	| { type: 'cancel' }
	| { type: 'compare'; form: PlaygroundForm }
	/** The same call over the active connection and another one the user picks. */
	| { type: 'compareConnection'; form: PlaygroundForm }
	| { type: 'rawFromForm'; form: PlaygroundForm }
	| { type: 'save'; form: PlaygroundForm }
	| { type: 'copyCurl'; form: PlaygroundForm }
	| { type: 'copyClient'; form: PlaygroundForm }
	| { type: 'openWsdl'; endpoint: 'posting' | 'administration' }
	| { type: 'historySearch'; query: string }
	| { type: 'historyOpen'; id: string }
	| { type: 'historyClear' }
	/** Opens a text in a read-only editor. */
	| { type: 'openDocument'; document: EditorText }
	/** Opens two texts in VS Code's diff editor. */
	| { type: 'openDiff'; left: EditorText; right: EditorText }
	/** Puts a text the page built (a result as CSV or JSON) into the clipboard. */
	| { type: 'copyText'; label: string; text: string };

export type HostToWebview =
	| { type: 'init'; connection: ConnectionView; form?: PlaygroundForm; placeholders: Record<string, string> }
	| { type: 'load'; form: PlaygroundForm }
	/** The connection changed (e.g. the sandbox started and got its port). */
	| { type: 'connection'; connection: ConnectionView }
	| { type: 'preview'; request?: RequestView; issues: IssueView[]; error?: string }
	| { type: 'busy'; what: 'send' | 'compare' | 'compareConnection' }
	| { type: 'response'; response: ResponseView }
	| { type: 'comparison'; comparison: ComparisonView }
	| { type: 'history'; entries: HistorySummary[]; query: string }
	| { type: 'historyEntry'; id: string; form: PlaygroundForm; response?: ResponseView }
	| { type: 'done' }
	| { type: 'notice'; level: 'info' | 'error'; message: string };

const BINDINGS: readonly string[] = ['soap11', 'soap12', 'httpGet', 'httpPost'];
const MAX_TEXT = 16 * 1024 * 1024;

function isText(value: unknown): value is string {
	return typeof value === 'string' && value.length <= MAX_TEXT;
}

/** The form in `value`, or undefined when it is not a well-formed PlaygroundForm. */
export function parseForm(value: unknown): PlaygroundForm | undefined {
	if (!isRecord(value)) return undefined;
	const { mode, operation, binding, params, raw, timeoutMs } = value;
	if ((mode !== 'form' && mode !== 'raw') || !isText(operation) || !isText(binding) || !BINDINGS.includes(binding)) {
		return undefined;
	}
	if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 600_000) {
		return undefined;
	}
	if (!isRecord(params) || !isRecord(raw)) return undefined;
	const cleanParams: Record<string, string | string[]> = {};
	for (const [name, item] of Object.entries(params)) {
		if (isText(item)) cleanParams[name] = item;
		else if (Array.isArray(item) && item.length <= 1000 && item.every(isText)) cleanParams[name] = [...item];
		else return undefined;
	}
	if (!isText(raw.method) || !isText(raw.target) || !isText(raw.headersText) || !isText(raw.body)) return undefined;
	return {
		mode,
		operation,
		binding: binding as PlaygroundBinding,
		params: cleanParams,
		raw: { method: raw.method, target: raw.target, headersText: raw.headersText, body: raw.body },
		timeoutMs,
	};
}

const LANGUAGES: readonly string[] = ['xml', 'plaintext'];

function isPosition(value: unknown): value is { line: number; column: number } {
	return (
		isRecord(value) &&
		Number.isSafeInteger(value.line) &&
		Number.isSafeInteger(value.column) &&
		(value.line as number) >= 1 &&
		(value.column as number) >= 1
	);
}

/** The editor text in `value`, or undefined when it is not a well-formed EditorText. */
export function parseEditorText(value: unknown): EditorText | undefined {
	if (!isRecord(value)) return undefined;
	const { title, text, language, position } = value;
	if (typeof title !== 'string' || title.length === 0 || title.length > 200 || !isText(text)) return undefined;
	if (typeof language !== 'string' || !LANGUAGES.includes(language)) return undefined;
	if (position !== undefined && !isPosition(position)) return undefined;
	const document: EditorText = { title, text, language: language as EditorText['language'] };
	if (position) document.position = { line: position.line, column: position.column };
	return document;
}

/** The message in `value` when it is a valid WebviewToHost message; undefined otherwise. */
export function parseWebviewMessage(value: unknown): WebviewToHost | undefined {
	if (!isRecord(value) || typeof value.type !== 'string') return undefined;
	switch (value.type) {
		case 'ready':
		case 'cancel':
		case 'historyClear':
			return { type: value.type };
		case 'formChanged':
		case 'send':
		case 'compare':
		case 'compareConnection':
		case 'rawFromForm':
		case 'save':
		case 'copyCurl':
		case 'copyClient': {
			const form = parseForm(value.form);
			return form ? { type: value.type, form } : undefined;
		}
		case 'openWsdl':
			return value.endpoint === 'posting' || value.endpoint === 'administration'
				? { type: 'openWsdl', endpoint: value.endpoint }
				: undefined;
		case 'historySearch':
			return typeof value.query === 'string' && value.query.length <= 500
				? { type: 'historySearch', query: value.query }
				: undefined;
		case 'historyOpen':
			return typeof value.id === 'string' && value.id.length <= 100
				? { type: 'historyOpen', id: value.id }
				: undefined;
		case 'openDocument': {
			const document = parseEditorText(value.document);
			return document ? { type: 'openDocument', document } : undefined;
		}
		case 'openDiff': {
			const left = parseEditorText(value.left);
			const right = parseEditorText(value.right);
			return left && right ? { type: 'openDiff', left, right } : undefined;
		}
		case 'copyText':
			return typeof value.label === 'string' && value.label.length <= 100 && isText(value.text)
				? { type: 'copyText', label: value.label, text: value.text }
				: undefined;
		default:
			return undefined;
	}
}
