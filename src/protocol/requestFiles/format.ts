/**
 * The `.mpreq` request file: a plain-text, diff-friendly list of requests, each with optional
 * expectations and captures. Pure (no I/O): parse and serialise only. Format (docs/request-files.md
 * "Request files as tests"):
 *
 *     # Multiposting request
 *
 *     ### Post an advert
 *     operation: AddAdvert
 *     binding: soap12
 *     param.sAPIKey: {{connection.apiKey}}
 *     param.sJobTitle: Staff Nurse
 *     expect: no fault
 *     capture: advertId = result.AdvertID
 *
 *     ### Read it back
 *     operation: GetAdvertPaged
 *     param.sAdvertID: {{advertId}}
 *     expect: result.Adverts[0].AdvertTitle == "Staff Nurse"
 *
 * Lines starting with `###` start a request (the rest of the line is its name); other lines starting
 * with `#` are comments; blank lines are ignored. A file without `###` is one request (the format of
 * earlier versions). One `param.<Name>: <value>` line per parameter; list parameters repeat the line.
 * A value that is empty, has leading or trailing spaces, a line break or starts with `"` is written
 * as a JSON string. Credentials are never written: they are `{{connection.*}}` references resolved
 * at send time. An optional raw HTTP request follows a line `---` and runs to the next `###` line;
 * a raw request without `operation` is plain HTTP (no decoding, so no result or fault).
 * `scenario: <name or file.json>` turns a sandbox failure scenario on from that request to the end of
 * the file (`scenario: off` turns the file's scenarios off earlier); see docs/scenarios.md.
 * `replay: <file.mprec.json> [strict|fall-through]` has the sandbox answer from a recording from that
 * request to the end of the file (`replay: off` earlier); see docs/live-service.md.
 */
import { BINDING_NAMES, type BindingName } from '../bindings/types';
import {
	OPERATIONS,
	OPERATION_NAMES,
	isOperationName,
	type Endpoint,
	type OperationName,
	type ParamSpec,
} from '../catalogue';
import {
	ExpressionError,
	formatCapture,
	formatExpectation,
	parseCapture,
	parseExpectation,
	type Capture,
	type Expectation,
} from './expressions';
import { RequestFileError, closestNames, type RequestFileIssue } from './issues';
import {
	CONNECTION_PLACEHOLDERS,
	SECRET_ROLES,
	VARIABLE_PATTERN,
	hasVariable,
	type ConnectionValues,
} from './placeholders';
import { createPlaceholderRedactor } from './placeholderRedactor';
import { parseRawHttpRequest, truncate, type RawHttpRequest } from './rawHttp';

/** The first line of every file written by the playground. */
export const REQUEST_FILE_HEADER = '# Multiposting request';
/** The file extension of request files (the language id is multiposting-request). */
export const REQUEST_FILE_EXTENSION = '.mpreq';
/** Separates the header block from the raw HTTP request. */
export const RAW_SEPARATOR = '---';
/** Starts a request (followed by its optional name). */
export const REQUEST_SEPARATOR = '###';

/**
 * A parameter value in a request file; strings may contain `{{connection.*}}` placeholders and
 * `{{name}}` variables (an int or boolean parameter holding a variable stays text until sent).
 */
export type RequestParamValue = string | number | boolean | string[];

/** One operation request: operation + params, optionally with a raw HTTP request. */
export interface RequestDocument {
	operation: OperationName;
	binding: BindingName;
	endpoint: Endpoint;
	/** Parameter values by name; absent parameters are not sent. */
	params: Record<string, RequestParamValue>;
	/** When present, the file describes a raw request (params are kept for reference). */
	raw?: RawHttpRequest;
}

/** One request of a file with what it checks and keeps. */
export interface RequestEntry {
	/** The text after `###`, when given. */
	name?: string;
	/** An operation request; absent for a plain HTTP request (see `http`) or when it has errors. */
	document?: RequestDocument;
	/** A raw request with no operation: sent as written, never decoded. */
	http?: RawHttpRequest;
	expectations: Expectation[];
	captures: Capture[];
	/** XPath prefixes declared with `xmlns.<prefix>: <uri>`. */
	namespaces: Record<string, string>;
	/**
	 * `scenario:` a sandbox failure scenario (library name or JSON file relative to the request file)
	 * turned on before this request and off at the end of the file; `off` turns the file's scenarios off.
	 */
	scenario?: string;
	/**
	 * `replay:` a recording (a .json file relative to the request file, then `strict`, the default, or
	 * `fall-through`) the sandbox answers from, from this request to the end of the file; `off` stops it.
	 */
	replay?: string;
	/** `retry: <tries> every <interval>`: sent again until its expectations hold. */
	retry?: RetryPolicy;
}

/** How often a request is sent until its expectations hold, and how long apart. */
export interface RetryPolicy {
	/** Most sends in all (the first one included). */
	tries: number;
	intervalMs: number;
}

/** Most tries of `retry:`; with the longest interval, a request waits at most about an hour and a half. */
export const MAX_RETRY_TRIES = 100;
/** Longest interval of `retry:`. */
export const MAX_RETRY_INTERVAL_MS = 60_000;
const DEFAULT_RETRY_INTERVAL_MS = 1000;

/** Reads `<tries> [every <n>ms|s]`, e.g. `10 every 500ms`. */
export function parseRetry(text: string): RetryPolicy | { problem: string } {
	const match = /^(\d+)(?:\s+every\s+(\d+(?:\.\d+)?)\s*(ms|s))?$/.exec(text.trim());
	const usage = 'write retry: <tries> every <interval>, e.g. retry: 10 every 500ms (or 2s).';
	if (!match) return { problem: `"${truncate(text)}" is not a retry; ${usage}` };
	const tries = Number(match[1]);
	if (tries < 1 || tries > MAX_RETRY_TRIES) {
		return { problem: `retry takes 1 to ${MAX_RETRY_TRIES} tries, got ${match[1]}.` };
	}
	const intervalMs =
		match[2] === undefined
			? DEFAULT_RETRY_INTERVAL_MS
			: Math.round(Number(match[2]) * (match[3] === 's' ? 1000 : 1));
	if (intervalMs > MAX_RETRY_INTERVAL_MS) {
		return {
			problem: `the interval of retry is at most ${MAX_RETRY_INTERVAL_MS / 1000}s, got ${match[2]}${match[3]}.`,
		};
	}
	return { tries, intervalMs };
}

/** The text of a retry policy, as parseRetry reads it. */
export function formatRetry(retry: RetryPolicy): string {
	return `${retry.tries} every ${retry.intervalMs}ms`;
}

/** Where an entry and its parts are in the file (1-based lines). */
export interface EntryLocation {
	/** The `###` line, or the first line of a file without one. */
	start: number;
	/** The last line of the request. */
	end: number;
	/** The first line with content (where CodeLenses go). */
	first: number;
	/** Lines of the expectations and captures, in the order of `expectations` and `captures`. */
	expectationLines: number[];
	captureLines: number[];
	/** Line of `operation:`, when given. */
	operationLine?: number;
	/** Every `{{name}}` variable written in the request (not in comments), where it is written. */
	variableUses: VariableUse[];
}

/** A `{{name}}` written in a request: its name, 1-based line and 0-based columns. */
export interface VariableUse {
	name: string;
	line: number;
	column: number;
	endColumn: number;
}

/** A parsed entry with its location and problems. */
export interface ParsedEntry extends RequestEntry {
	location: EntryLocation;
	issues: RequestFileIssue[];
}

/** Every request of a file, and the problems found. */
export interface ParsedRequestFile {
	entries: ParsedEntry[];
	/** All issues of all entries, by line. */
	issues: RequestFileIssue[];
}

/** The display name of an entry: its name, else its operation, else its method and target. */
export function entryLabel(entry: RequestEntry, index: number): string {
	if (entry.name) return entry.name;
	if (entry.document) return entry.document.operation;
	if (entry.http) return `${entry.http.method} ${entry.http.target}`;
	return `Request ${index + 1}`;
}

/** The lines of a text, without line ends. */
function splitLines(text: string): string[] {
	return text.split(/\r?\n/);
}

/** Lines (0-based, end exclusive) of each request block. */
function blocksOf(lines: readonly string[]): { start: number; end: number; named: boolean }[] {
	const separators: number[] = [];
	lines.forEach((line, index) => {
		if (line.startsWith(REQUEST_SEPARATOR)) separators.push(index);
	});
	const blocks: { start: number; end: number; named: boolean }[] = [];
	const firstEnd = separators[0] ?? lines.length;
	blocks.push({ start: 0, end: firstEnd, named: false });
	separators.forEach((start, index) => {
		blocks.push({ start, end: separators[index + 1] ?? lines.length, named: true });
	});
	// A block with nothing but comments and blank lines is not a request.
	return blocks.filter((block) => {
		for (let index = block.named ? block.start + 1 : block.start; index < block.end; index += 1) {
			const trimmed = lines[index].trim();
			if (trimmed.length > 0 && !trimmed.startsWith('#')) return true;
		}
		return false;
	});
}

/**
 * Reads every request of a file. Never throws: problems are in `issues` (per entry too), and an
 * entry whose operation request cannot be built has no `document`.
 */
export function parseRequestFileEntries(text: string): ParsedRequestFile {
	const lines = splitLines(text);
	const entries = blocksOf(lines).map((block) => parseBlock(lines, block.start, block.end, block.named));
	return {
		entries,
		issues: entries.flatMap((entry) => entry.issues).sort((a, b) => a.line - b.line),
	};
}

function parseBlock(lines: readonly string[], start: number, end: number, named: boolean): ParsedEntry {
	const issues: RequestFileIssue[] = [];
	const location: EntryLocation = {
		start: start + 1,
		end,
		first: start + 1,
		expectationLines: [],
		captureLines: [],
		variableUses: variableUsesOf(lines, named ? start + 1 : start, end),
	};
	const entry: ParsedEntry = { expectations: [], captures: [], namespaces: {}, location, issues };
	if (named) {
		const name = lines[start].replace(/^#+/, '').trim();
		if (name.length > 0) entry.name = name;
	}
	let separator = -1;
	for (let index = named ? start + 1 : start; index < end; index += 1) {
		if (lines[index].trim() === RAW_SEPARATOR) {
			separator = index;
			break;
		}
	}
	const headerEnd = separator < 0 ? end : separator;
	let operation: OperationName | undefined;
	let binding: BindingName | undefined;
	let endpoint: { value: string; line: number; column: number } | undefined;
	const rawParams: { name: string; value: string; line: number; column: number; keyEnd: number }[] = [];
	const seen = new Map<string, number>();
	let firstContent: number | undefined;

	for (let index = named ? start + 1 : start; index < headerEnd; index += 1) {
		const line = lines[index];
		const lineNo = index + 1;
		const trimmed = line.trim();
		if (trimmed.length === 0 || trimmed.startsWith('#')) continue;
		firstContent ??= lineNo;
		const colon = line.indexOf(':');
		const indent = line.length - line.trimStart().length;
		if (colon < 0) {
			issues.push({
				line: lineNo,
				message: `expected "key: value", got "${truncate(trimmed)}".`,
				column: indent,
				endColumn: line.length,
			});
			continue;
		}
		const key = line.slice(0, colon).trim();
		const valueStart = colon + 1 + (line.slice(colon + 1).length - line.slice(colon + 1).trimStart().length);
		const valueText = line.slice(colon + 1).trim();
		const valueRange = { column: valueStart, endColumn: valueStart + valueText.length };
		const keyRange = { column: indent, endColumn: indent + key.length };
		if (key.startsWith('param.')) {
			const name = key.slice('param.'.length);
			const value = parseValue(valueText);
			if (name.length === 0) {
				issues.push({
					line: lineNo,
					message: 'a parameter line needs a name: param.<Name>: <value>.',
					...keyRange,
				});
			} else if (value === undefined) {
				issues.push({
					line: lineNo,
					message: `the value of ${name} starts with " but is not a valid JSON string.`,
					...valueRange,
				});
			} else {
				rawParams.push({
					name,
					value,
					line: lineNo,
					column: indent + 'param.'.length,
					keyEnd: keyRange.endColumn,
				});
			}
			continue;
		}
		if (key === 'expect') {
			try {
				entry.expectations.push(parseExpectation(valueText));
				location.expectationLines.push(lineNo);
			} catch (error) {
				issues.push(expressionIssue(error, lineNo, valueStart, valueText));
			}
			continue;
		}
		if (key === 'capture') {
			try {
				entry.captures.push(parseCapture(valueText));
				location.captureLines.push(lineNo);
			} catch (error) {
				issues.push(expressionIssue(error, lineNo, valueStart, valueText));
			}
			continue;
		}
		if (key.startsWith('xmlns.')) {
			const prefix = key.slice('xmlns.'.length);
			if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(prefix)) {
				issues.push({ line: lineNo, message: `"${prefix}" is not a valid XML prefix.`, ...keyRange });
			} else if (valueText.length === 0) {
				issues.push({ line: lineNo, message: `xmlns.${prefix} needs a namespace URI.`, ...keyRange });
			} else {
				entry.namespaces[prefix] = valueText;
			}
			continue;
		}
		if (key === 'scenario') {
			if (entry.scenario !== undefined) {
				issues.push({ line: lineNo, message: 'scenario is given twice in this request.', ...keyRange });
			} else if (!/^[A-Za-z0-9_./\\-]+$/.test(valueText)) {
				issues.push({
					line: lineNo,
					message: 'scenario needs a library name (e.g. service-down), a .json file or off.',
					...valueRange,
				});
			} else {
				entry.scenario = valueText;
			}
			continue;
		}
		if (key === 'replay') {
			if (entry.replay !== undefined) {
				issues.push({ line: lineNo, message: 'replay is given twice in this request.', ...keyRange });
			} else if (!/^(off|[A-Za-z0-9_./\\-]+\.json(\s+(strict|fall-through))?)$/.test(valueText)) {
				issues.push({
					line: lineNo,
					message:
						'replay needs a recording (.mprec.json), optionally followed by strict or fall-through, or off.',
					...valueRange,
				});
			} else {
				entry.replay = valueText;
			}
			continue;
		}
		if (key !== 'operation' && key !== 'binding' && key !== 'endpoint' && key !== 'retry') {
			issues.push({
				line: lineNo,
				message: `unknown key "${key}"; use operation, binding, endpoint, param.<Name>, expect, capture, retry, xmlns.<prefix>, scenario or replay.`,
				...keyRange,
				fixes: closestNames(key, [
					'operation',
					'binding',
					'endpoint',
					'expect',
					'capture',
					'retry',
					'scenario',
					'replay',
				]).map((name) => ({
					title: `Change to ${name}`,
					replacement: name,
				})),
			});
			continue;
		}
		if (seen.has(key)) {
			issues.push({
				line: lineNo,
				message: `${key} is given twice (first on line ${seen.get(key)}).`,
				...keyRange,
			});
			continue;
		}
		seen.set(key, lineNo);
		if (key === 'retry') {
			const retry = parseRetry(valueText);
			if ('problem' in retry) issues.push({ line: lineNo, message: retry.problem, ...valueRange });
			else entry.retry = retry;
		} else if (key === 'operation') {
			location.operationLine = lineNo;
			if (isOperationName(valueText)) {
				operation = valueText;
			} else {
				issues.push({
					line: lineNo,
					message: `unknown operation "${valueText}".`,
					...valueRange,
					fixes: closestNames(valueText, OPERATION_NAMES).map((name) => ({
						title: `Change to ${name}`,
						replacement: name,
					})),
				});
			}
		} else if (key === 'binding') {
			if ((BINDING_NAMES as readonly string[]).includes(valueText)) {
				binding = valueText as BindingName;
			} else {
				issues.push({
					line: lineNo,
					message: `unknown binding "${valueText}"; use one of ${BINDING_NAMES.join(', ')}.`,
					...valueRange,
					fixes: closestNames(valueText, BINDING_NAMES).map((name) => ({
						title: `Change to ${name}`,
						replacement: name,
					})),
				});
			}
		} else {
			endpoint = { value: valueText, line: lineNo, column: valueRange.column };
		}
	}
	location.first = firstContent ?? location.first;
	if (entry.retry && entry.expectations.length === 0 && entry.captures.length === 0) {
		issues.push({
			line: seen.get('retry') ?? location.first,
			severity: 'warning',
			message: 'retry waits for the expectations to hold, and this request has none: add an expect line.',
		});
	}

	let raw: RawHttpRequest | undefined;
	if (separator >= 0) {
		location.first = firstContent ?? separator + 1;
		try {
			raw = parseRawHttpRequest(lines.slice(separator + 1, end).join('\n'), separator + 1);
			for (let index = separator + 1; index < end; index += 1) {
				const key = /^(expect|capture)\s*:/.exec(lines[index]);
				if (key) {
					issues.push({
						line: index + 1,
						severity: 'warning',
						message: `this ${key[1]} line is part of the raw request; ${key[1]} lines go before ---.`,
						column: 0,
						endColumn: key[1].length,
					});
				}
			}
			// The serialiser ends a body with one line break (before the file's end or the next request).
			raw.body = raw.body.replace(/\r?\n$/, '');
		} catch (error) {
			if (error instanceof RequestFileError) issues.push(...error.issues);
			else throw error;
		}
	}

	if (!seen.has('operation')) {
		if (separator >= 0) {
			// A plain HTTP request: only the raw part, expectations, captures and namespaces apply.
			for (const key of ['binding', 'endpoint'] as const) {
				const line = seen.get(key);
				if (line !== undefined) {
					issues.push({
						line,
						message: `${key} needs an operation; a request without one is sent as plain HTTP.`,
					});
				}
			}
			for (const param of rawParams) {
				issues.push({
					line: param.line,
					message: `param.${param.name} needs an operation; a request without one is sent as plain HTTP.`,
				});
			}
			if (raw) entry.http = raw;
		} else {
			issues.push({
				line: location.first,
				message:
					'the request names no operation: add a line "operation: <Name>" (or a raw HTTP request after ---).',
			});
		}
	}
	const params: Record<string, RequestParamValue> = {};
	if (operation) {
		const spec = OPERATIONS[operation];
		if (endpoint && endpoint.value !== spec.endpoint) {
			const known = endpoint.value === 'posting' || endpoint.value === 'administration';
			issues.push({
				line: endpoint.line,
				message: known
					? `${operation} belongs to the ${spec.endpoint} endpoint, not ${endpoint.value}.`
					: `unknown endpoint "${endpoint.value}"; use posting or administration.`,
				column: endpoint.column,
				endColumn: endpoint.column + endpoint.value.length,
				fixes: [{ title: `Change to ${spec.endpoint}`, replacement: spec.endpoint }],
			});
		}
		const byName = new Map(spec.params.map((param) => [param.name, param]));
		const firstLine = new Map<string, number>();
		for (const { name, value, line, column, keyEnd } of rawParams) {
			const param = byName.get(name);
			if (!param) {
				issues.push({
					line,
					message: `${operation} has no parameter ${name}.`,
					column,
					endColumn: keyEnd,
					fixes: closestNames(
						name,
						spec.params.map((candidate) => candidate.name),
					).map((candidate) => ({ title: `Change to ${candidate}`, replacement: candidate })),
				});
				continue;
			}
			if (param.type === 'string[]') {
				const list = (params[name] as string[] | undefined) ?? [];
				list.push(value);
				params[name] = list;
				continue;
			}
			if (firstLine.has(name)) {
				issues.push({
					line,
					message: `${name} is not a list but is given twice (first on line ${firstLine.get(name)}).`,
				});
				continue;
			}
			firstLine.set(name, line);
			const typed = typedValue(param, value);
			if ('value' in typed) params[name] = typed.value;
			else issues.push({ line, message: typed.issue, column: keyEnd + 2, endColumn: lines[line - 1].length });
		}
		const hasErrors = issues.some((issue) => (issue.severity ?? 'error') === 'error');
		if (!hasErrors) {
			entry.document = { operation, binding: binding ?? 'soap11', endpoint: spec.endpoint, params };
			if (raw) entry.document.raw = raw;
		}
	}
	if (issues.some((issue) => (issue.severity ?? 'error') === 'error')) {
		delete entry.http;
	}
	issues.sort((a, b) => a.line - b.line);
	return entry;
}

/** The variables written in lines [from, end): key lines other than comments, and every line of a raw part. */
function variableUsesOf(lines: readonly string[], from: number, end: number): VariableUse[] {
	const uses: VariableUse[] = [];
	let raw = false;
	for (let index = from; index < end; index += 1) {
		const line = lines[index];
		if (!raw && line.trim() === RAW_SEPARATOR) raw = true;
		if (!raw && line.trim().startsWith('#')) continue;
		for (const match of line.matchAll(new RegExp(VARIABLE_PATTERN.source, 'g'))) {
			const column = match.index ?? 0;
			uses.push({ name: match[1], line: index + 1, column, endColumn: column + match[0].length });
		}
	}
	return uses;
}

function expressionIssue(error: unknown, line: number, valueStart: number, valueText: string): RequestFileIssue {
	if (!(error instanceof ExpressionError)) throw error;
	const column = valueStart + Math.min(error.offset, valueText.length);
	return {
		line,
		message: error.message,
		column,
		endColumn: error.length > 0 ? column + error.length : valueStart + valueText.length,
	};
}

function parseValue(text: string): string | undefined {
	if (!text.startsWith('"')) return text;
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === 'string' ? value : undefined;
	} catch {
		return undefined;
	}
}

/** Converts a value's text by the parameter's type; placeholders and variables stay text. */
export function typedValue(param: ParamSpec, text: string): { value: RequestParamValue } | { issue: string } {
	if (hasVariable(text) || text.includes('{{connection.')) return { value: text };
	if (param.type === 'int') {
		if (!/^-?\d+$/.test(text)) return { issue: `${param.name} must be a whole number, got "${truncate(text)}".` };
		const value = Number(text);
		if (value < -2147483648 || value > 2147483647) {
			return { issue: `${param.name} must fit a 32-bit int, got ${text}.` };
		}
		return { value };
	}
	if (param.type === 'boolean') {
		if (text !== 'true' && text !== 'false') {
			return { issue: `${param.name} must be true or false, got "${truncate(text)}".` };
		}
		return { value: text === 'true' };
	}
	return { value: text };
}

/**
 * Reads a file holding one request (the format of earlier versions, or a file with one `###`
 * request). Hand-written files may give parameters in any order, omit `endpoint` (it follows from
 * the operation) and `binding` (default soap11). Throws RequestFileError with the line of every
 * problem, or when the file holds no operation request or several requests.
 */
export function parseRequestFile(text: string): RequestDocument {
	const parsed = parseRequestFileEntries(text);
	const errors = parsed.issues.filter((issue) => (issue.severity ?? 'error') === 'error');
	if (errors.length > 0) throw new RequestFileError(errors);
	if (parsed.entries.length === 0) {
		throw new RequestFileError([
			{ line: 1, message: 'the file names no operation: add a line "operation: <Name>".' },
		]);
	}
	if (parsed.entries.length > 1) {
		throw new RequestFileError([
			{ line: 1, message: `the file holds ${parsed.entries.length} requests; choose one of them.` },
		]);
	}
	const document = parsed.entries[0].document;
	if (!document) {
		throw new RequestFileError([
			{
				line: parsed.entries[0].location.first,
				message: 'this is a plain HTTP request, not an operation request.',
			},
		]);
	}
	return document;
}

/** Writes one operation request in the key lines of the format (no header, no raw part). */
function documentLines(doc: RequestDocument, scrub: (text: string) => string): string[] {
	const spec = OPERATIONS[doc.operation];
	const lines = [`operation: ${doc.operation}`, `binding: ${doc.binding}`, `endpoint: ${doc.endpoint}`];
	const known = new Set(spec.params.map((param) => param.name));
	const writeParam = (name: string, value: RequestParamValue, param?: ParamSpec): void => {
		if (param?.role && SECRET_ROLES.includes(param.role)) {
			lines.push(`param.${name}: ${CONNECTION_PLACEHOLDERS[param.role]}`);
			return;
		}
		const items = Array.isArray(value) ? value : [value];
		for (const item of items) lines.push(`param.${name}: ${formatValue(scrub(String(item)))}`);
	};
	for (const param of spec.params) {
		const value = doc.params[param.name];
		if (value !== undefined) writeParam(param.name, value, param);
	}
	// Unknown parameters are kept (a hand-written file may name them on purpose) after the known ones.
	for (const [name, value] of Object.entries(doc.params)) {
		if (!known.has(name) && value !== undefined) writeParam(name, value);
	}
	return lines;
}

function rawLines(raw: RawHttpRequest, scrub: (text: string) => string): string[] {
	const lines = [RAW_SEPARATOR, `${scrub(raw.method)} ${scrub(raw.target)} HTTP/1.1`];
	for (const [name, value] of raw.headers) lines.push(`${name}: ${scrub(value)}`);
	const body = scrub(raw.body);
	if (body.split('\n').some((line) => line.startsWith(REQUEST_SEPARATOR))) {
		throw new RequestFileError([
			{
				line: 1,
				message: `a raw body cannot hold a line starting with ${REQUEST_SEPARATOR}: it would start a request.`,
			},
		]);
	}
	lines.push('', body);
	return lines;
}

/**
 * Writes a request file. Secret parameters (role apiKey or password) are always written as their
 * placeholder, and any occurrence of a value in `secrets` anywhere is replaced by its placeholder:
 * the output never contains a credential.
 */
export function serializeRequestFile(doc: RequestDocument, secrets: ConnectionValues = {}): string {
	return serializeRequestEntries([{ document: doc, expectations: [], captures: [], namespaces: {} }], secrets);
}

/**
 * Writes requests as a file: one unnamed request is written in the single-request form, anything
 * else as `###` blocks separated by a blank line. Same secret rules as serializeRequestFile.
 */
export function serializeRequestEntries(entries: readonly RequestEntry[], secrets: ConnectionValues = {}): string {
	const scrub = createPlaceholderRedactor(secrets).text;
	const single = entries.length === 1 && entries[0].name === undefined && entries[0].document !== undefined;
	const blocks = entries.map((entry, index) => entryBlock(entry, index, scrub, !single));
	return `${REQUEST_FILE_HEADER}\n${single ? '' : '\n'}${blocks.join('\n\n')}\n`;
}

/** The lines of one request: its `###` line (when `separated`), keys, expectations, captures, raw part. */
function entryBlock(entry: RequestEntry, index: number, scrub: (text: string) => string, separated: boolean): string {
	const lines: string[] = [];
	if (separated) {
		if (entry.name !== undefined && /[\r\n]/.test(entry.name)) {
			throw new RequestFileError([{ line: 1, message: `the name of request ${index + 1} has a line break.` }]);
		}
		lines.push(entry.name ? `${REQUEST_SEPARATOR} ${entry.name}` : REQUEST_SEPARATOR);
	}
	if (entry.scenario !== undefined) lines.push(`scenario: ${entry.scenario}`);
	if (entry.replay !== undefined) lines.push(`replay: ${entry.replay}`);
	if (entry.document) lines.push(...documentLines(entry.document, scrub));
	if (entry.retry) lines.push(`retry: ${formatRetry(entry.retry)}`);
	for (const [prefix, uri] of Object.entries(entry.namespaces)) lines.push(`xmlns.${prefix}: ${uri}`);
	for (const expectation of entry.expectations) lines.push(`expect: ${scrub(formatExpectation(expectation))}`);
	for (const capture of entry.captures) lines.push(`capture: ${formatCapture(capture)}`);
	const raw = entry.document?.raw ?? entry.http;
	if (raw) lines.push(...rawLines(raw, scrub));
	return lines.join('\n');
}

function formatValue(value: string): string {
	const plain =
		value.length > 0 &&
		value === value.trim() &&
		![...value].some((char) => char.charCodeAt(0) < 0x20) &&
		!value.startsWith('"');
	return plain ? value : JSON.stringify(value);
}

/**
 * Adds a request at the end of an existing file's text (e.g. "Save to file" in the playground),
 * keeping everything already written. Returns the new text.
 */
export function appendRequestEntry(text: string, entry: RequestEntry, secrets: ConnectionValues = {}): string {
	if (text.trim().length === 0) return serializeRequestEntries([entry], secrets);
	const scrub = createPlaceholderRedactor(secrets).text;
	// One line break ends the last line, the next one is the blank line between requests.
	const base = text.endsWith('\n') ? text : `${text}\n`;
	return `${base}\n${entryBlock(entry, 0, scrub, true)}\n`;
}
