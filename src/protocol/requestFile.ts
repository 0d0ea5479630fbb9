/**
 * The `.mpreq` request file: a plain-text, diff-friendly description of one playground request.
 * Pure (no I/O): parse and serialise only. Format (see README "Request files"):
 *
 *     # Multiposting request
 *     operation: GetCurrency
 *     binding: soap11
 *     endpoint: posting
 *     param.sCultureID: en-GB
 *     param.sAPIKey: {{connection.apiKey}}
 *     param.Destinations: 108
 *     param.Destinations: Totaljobs
 *
 * Lines starting with `#` are comments; blank lines are ignored. One `param.<Name>: <value>` line
 * per parameter in catalogue order; list parameters repeat the line. A value that is empty, has
 * leading or trailing spaces, a line break or starts with `"` is written as a JSON string.
 * Credentials are never written: they are `{{connection.*}}` references resolved at send time.
 * An optional raw HTTP request follows a line `---`: request line, headers, blank line, body.
 */
import { BINDING_NAMES, type BindingName } from './bindings/types';
import {
	OPERATIONS,
	isOperationName,
	type Endpoint,
	type OperationName,
	type ParamRole,
	type ParamSpec,
} from './catalogue';

/** The first line of every file written by the playground. */
export const REQUEST_FILE_HEADER = '# Multiposting request';
/** The file extension of request files (the language id is multiposting-request). */
export const REQUEST_FILE_EXTENSION = '.mpreq';
/** Separates the header block from the raw HTTP request. */
export const RAW_SEPARATOR = '---';

/** The placeholder of each connection value; substituted by the host at send time only. */
export const CONNECTION_PLACEHOLDERS: Readonly<Record<ParamRole, string>> = Object.freeze({
	apiKey: '{{connection.apiKey}}',
	username: '{{connection.username}}',
	password: '{{connection.password}}',
	culture: '{{connection.culture}}',
});

/** Roles whose values are secrets: always written as placeholders. */
export const SECRET_ROLES: readonly ParamRole[] = ['apiKey', 'password'];

const PLACEHOLDER_PATTERN = /\{\{connection\.(apiKey|username|password|culture)\}\}/g;

/** A parameter value in a request file; strings may contain `{{connection.*}}` placeholders. */
export type RequestParamValue = string | number | boolean | string[];

/** A raw HTTP request as the user typed it; sent as it is. */
export interface RawHttpRequest {
	method: string;
	/** Path plus query, e.g. /SOAP/Posting.asmx/GetCurrency?sCultureID=en. */
	target: string;
	/** Header lines in order, names as written. */
	headers: [string, string][];
	body: string;
}

/** One request: a form request (operation + params), optionally with a raw HTTP request. */
export interface RequestDocument {
	operation: OperationName;
	binding: BindingName;
	endpoint: Endpoint;
	/** Parameter values by name; absent parameters are not sent. */
	params: Record<string, RequestParamValue>;
	/** When present, the file describes a raw request (params are kept for reference). */
	raw?: RawHttpRequest;
}

/** A problem in a hand-written file, with its 1-based line. */
export interface RequestFileIssue {
	line: number;
	message: string;
}

/** Thrown by parseRequestFile; `issues` holds every problem found, first problem first. */
export class RequestFileError extends Error {
	override readonly name = 'RequestFileError';
	constructor(readonly issues: RequestFileIssue[]) {
		super(issues.map((issue) => `line ${issue.line}: ${issue.message}`).join('\n'));
	}
}

/** Values of the connection, by placeholder role. */
export type ConnectionValues = Partial<Record<ParamRole, string>>;

/** Replaces every `{{connection.*}}` placeholder; unknown values become ''. `encode` escapes per context. */
export function substitutePlaceholders(
	text: string,
	values: ConnectionValues,
	encode: (value: string) => string = (value) => value,
): string {
	return text.replace(PLACEHOLDER_PATTERN, (_match, role: ParamRole) => encode(values[role] ?? ''));
}

/** True when the text contains a `{{connection.*}}` placeholder. */
export function hasPlaceholder(text: string): boolean {
	return new RegExp(PLACEHOLDER_PATTERN.source).test(text);
}

/**
 * Replaces every occurrence of a secret value (raw, URL-encoded or XML-escaped) by its placeholder,
 * so text built with real credentials can be saved or shown. Longest secrets first.
 */
export function replaceSecretsWithPlaceholders(text: string, secrets: ConnectionValues): string {
	const pairs: [string, string][] = [];
	for (const role of SECRET_ROLES) {
		const secret = secrets[role];
		if (!secret) continue;
		const forms = new Set([
			secret,
			encodeURIComponent(secret),
			new URLSearchParams({ v: secret }).toString().slice(2),
			escapeXml(secret),
		]);
		for (const form of forms) pairs.push([form, CONNECTION_PLACEHOLDERS[role]]);
	}
	pairs.sort((a, b) => b[0].length - a[0].length);
	let result = text;
	for (const [form, placeholder] of pairs) result = result.split(form).join(placeholder);
	return result;
}

/** XML text escaping, for placeholders substituted into XML bodies. */
export function escapeXml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&apos;');
}

/**
 * Writes a request file. Secret parameters (role apiKey or password) are always written as their
 * placeholder, and any occurrence of a value in `secrets` anywhere is replaced by its placeholder:
 * the output never contains a credential.
 */
export function serializeRequestFile(doc: RequestDocument, secrets: ConnectionValues = {}): string {
	const spec = OPERATIONS[doc.operation];
	const lines = [
		REQUEST_FILE_HEADER,
		`operation: ${doc.operation}`,
		`binding: ${doc.binding}`,
		`endpoint: ${doc.endpoint}`,
	];
	const scrub = (text: string): string => replaceSecretsWithPlaceholders(text, secrets);
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
	if (doc.raw) {
		lines.push(RAW_SEPARATOR, `${scrub(doc.raw.method)} ${scrub(doc.raw.target)} HTTP/1.1`);
		for (const [name, value] of doc.raw.headers) lines.push(`${name}: ${scrub(value)}`);
		lines.push('');
		return `${lines.join('\n')}\n${scrub(doc.raw.body)}\n`;
	}
	return `${lines.join('\n')}\n`;
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
 * Reads a request file. Hand-written files may give parameters in any order, omit `endpoint` (it
 * follows from the operation) and `binding` (default soap11). Throws RequestFileError with the line
 * of every problem.
 */
export function parseRequestFile(text: string): RequestDocument {
	const allLines = text.split(/\r?\n/);
	const separator = allLines.findIndex((line) => line.trim() === RAW_SEPARATOR);
	const headerLines = separator < 0 ? allLines : allLines.slice(0, separator);
	const issues: RequestFileIssue[] = [];
	let operation: OperationName | undefined;
	let binding: BindingName | undefined;
	let endpoint: { value: string; line: number } | undefined;
	const rawParams: { name: string; value: string; line: number }[] = [];
	const seen = new Map<string, number>();

	headerLines.forEach((line, index) => {
		const lineNo = index + 1;
		const trimmed = line.trim();
		if (trimmed.length === 0 || trimmed.startsWith('#')) return;
		const colon = line.indexOf(':');
		if (colon < 0) {
			issues.push({ line: lineNo, message: `expected "key: value", got "${truncate(trimmed)}".` });
			return;
		}
		const key = line.slice(0, colon).trim();
		const valueText = line.slice(colon + 1).trim();
		if (key.startsWith('param.')) {
			const name = key.slice('param.'.length);
			const value = parseValue(valueText);
			if (name.length === 0) {
				issues.push({ line: lineNo, message: 'a parameter line needs a name: param.<Name>: <value>.' });
			} else if (value === undefined) {
				issues.push({
					line: lineNo,
					message: `the value of ${name} starts with " but is not a valid JSON string.`,
				});
			} else {
				rawParams.push({ name, value, line: lineNo });
			}
			return;
		}
		if (key !== 'operation' && key !== 'binding' && key !== 'endpoint') {
			issues.push({
				line: lineNo,
				message: `unknown key "${key}"; use operation, binding, endpoint or param.<Name>.`,
			});
			return;
		}
		if (seen.has(key)) {
			issues.push({ line: lineNo, message: `${key} is given twice (first on line ${seen.get(key)}).` });
			return;
		}
		seen.set(key, lineNo);
		if (key === 'operation') {
			if (isOperationName(valueText)) operation = valueText;
			else issues.push({ line: lineNo, message: `unknown operation "${valueText}".` });
		} else if (key === 'binding') {
			if ((BINDING_NAMES as readonly string[]).includes(valueText)) binding = valueText as BindingName;
			else {
				issues.push({
					line: lineNo,
					message: `unknown binding "${valueText}"; use one of ${BINDING_NAMES.join(', ')}.`,
				});
			}
		} else {
			endpoint = { value: valueText, line: lineNo };
		}
	});

	if (!seen.has('operation')) {
		issues.push({ line: 1, message: 'the file names no operation: add a line "operation: <Name>".' });
	}
	const params: Record<string, RequestParamValue> = {};
	if (operation) {
		const spec = OPERATIONS[operation];
		if (endpoint && endpoint.value !== spec.endpoint) {
			const message =
				endpoint.value === 'posting' || endpoint.value === 'administration'
					? `${operation} belongs to the ${spec.endpoint} endpoint, not ${endpoint.value}.`
					: `unknown endpoint "${endpoint.value}"; use posting or administration.`;
			issues.push({ line: endpoint.line, message });
		}
		const byName = new Map(spec.params.map((param) => [param.name, param]));
		const firstLine = new Map<string, number>();
		for (const { name, value, line } of rawParams) {
			const param = byName.get(name);
			if (!param) {
				issues.push({ line, message: `${operation} has no parameter ${name}.` });
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
			else issues.push({ line, message: typed.issue });
		}
	}

	let raw: RawHttpRequest | undefined;
	if (separator >= 0) {
		try {
			raw = parseRawHttpRequest(allLines.slice(separator + 1).join('\n'), separator + 1);
			// The serialiser ends the file with one line break after the body.
			raw.body = raw.body.replace(/\r?\n$/, '');
		} catch (error) {
			if (error instanceof RequestFileError) issues.push(...error.issues);
			else throw error;
		}
	}
	if (issues.length > 0 || !operation) {
		throw new RequestFileError(issues.sort((a, b) => a.line - b.line));
	}
	const doc: RequestDocument = {
		operation,
		binding: binding ?? 'soap11',
		endpoint: OPERATIONS[operation].endpoint,
		params,
	};
	if (raw) doc.raw = raw;
	return doc;
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

/** Converts a value's text by the parameter's type; placeholders stay text. */
function typedValue(param: ParamSpec, text: string): { value: RequestParamValue } | { issue: string } {
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
 * Reads a raw HTTP request: `METHOD target [HTTP/1.1]`, header lines `Name: value`, a blank line,
 * then the body verbatim. `lineOffset` is added to line numbers in errors (its position in a file).
 */
export function parseRawHttpRequest(text: string, lineOffset = 0): RawHttpRequest {
	const lines = text.split('\n');
	let index = 0;
	while (index < lines.length && lines[index].trim().length === 0) index += 1;
	const issues: RequestFileIssue[] = [];
	const requestLine = (lines[index] ?? '').replace(/\r$/, '').trim();
	const match = /^(\S+)\s+(\S+)(?:\s+HTTP\/\d(?:\.\d)?)?$/.exec(requestLine);
	if (!match) {
		throw new RequestFileError([
			{
				line: lineOffset + index + 1,
				message: `expected a request line "METHOD /path HTTP/1.1", got "${truncate(requestLine)}".`,
			},
		]);
	}
	const headers: [string, string][] = [];
	index += 1;
	for (; index < lines.length; index += 1) {
		const line = lines[index].replace(/\r$/, '');
		if (line.trim().length === 0) {
			index += 1;
			break;
		}
		const colon = line.indexOf(':');
		if (colon <= 0) {
			issues.push({
				line: lineOffset + index + 1,
				message: `expected a header "Name: value", got "${truncate(line)}".`,
			});
			continue;
		}
		headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
	}
	if (issues.length > 0) throw new RequestFileError(issues);
	return { method: match[1], target: match[2], headers, body: lines.slice(index).join('\n') };
}

/** Writes a raw HTTP request in the text form parseRawHttpRequest reads. */
export function formatRawHttpRequest(raw: RawHttpRequest): string {
	return [
		`${raw.method} ${raw.target} HTTP/1.1`,
		...raw.headers.map(([name, value]) => `${name}: ${value}`),
		'',
		raw.body,
	].join('\n');
}

function truncate(text: string): string {
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
