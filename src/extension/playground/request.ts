/**
 * Request building and sending of the playground, free of the VS Code API so it can be unit-tested:
 * form values to typed parameters, placeholder substitution, the preview, raw requests, the HTTP
 * exchange itself (the client's transport) and the response as the webview shows it.
 */
import { createRedactor, validateParams, type Redactor } from '../../client';
import { checkValue, parseBoolean, parseInteger } from '../../protocol/rules';
import { getBinding } from '../../protocol/bindings';
import type { BindingName, CodecContext } from '../../protocol/bindings/types';
import {
	OPERATIONS,
	isOperationName,
	type AnyParams,
	type Endpoint,
	type OperationName,
} from '../../protocol/catalogue';
import { prettyPrintXml, XmlError } from '../../protocol/codecs/xml';
import { normaliseResult } from '../../protocol/compare';
import {
	CONNECTION_PLACEHOLDERS,
	substitutePlaceholders,
	type ConnectionValues,
	type RawHttpRequest,
	type RequestParamValue,
} from '../../protocol/requestFile';
import { rawBodyEncoder, type PreparedHttpRequest } from '../../protocol/requestFiles/prepare';
import type { Captured } from '../../client/sendPrepared';
import type {
	HttpErrorView,
	IssueView,
	PlaygroundForm,
	RawDraft,
	RequestView,
	ResponseView,
} from '../../shared/playgroundMessages';

/** Where requests go: the connection's address, namespace and endpoint paths. */
export interface Target {
	baseUrl: string;
	namespace: string;
	paths: Readonly<Record<Endpoint, string>>;
}

/** What replaces secrets in anything shown. */
export const MASK = '***';

/** Connection values for display: secrets masked, the rest as they are. */
export function displayValues(values: ConnectionValues): ConnectionValues {
	return { ...values, apiKey: MASK, password: MASK };
}

/** The base URL without a trailing slash, so `${prefix}${path}` is the request URL. */
export function urlPrefix(baseUrl: string): string {
	return baseUrl.replace(/\/+$/, '');
}

export function codecContext(target: Target, operation: OperationName): CodecContext {
	return { namespace: target.namespace, endpointPath: target.paths[OPERATIONS[operation].endpoint] };
}

export { defaultFormParams } from '../../shared/playgroundForms';

/**
 * Typed parameters from form text, in catalogue order. Empty values are left out; ints and
 * booleans are parsed; then the catalogue rules (validateParams) are checked.
 */
export function formToParams(
	operation: OperationName,
	form: Readonly<Record<string, string | string[]>>,
): { params: Record<string, RequestParamValue>; issues: IssueView[] } {
	const params: Record<string, RequestParamValue> = {};
	const issues: IssueView[] = [];
	for (const param of OPERATIONS[operation].params) {
		const value = form[param.name];
		if (value === undefined) continue;
		if (param.type === 'string[]') {
			const items = (Array.isArray(value) ? value : [value]).filter((item) => item.length > 0);
			if (items.length > 0) params[param.name] = items;
			continue;
		}
		const text = Array.isArray(value) ? value.join(',') : value;
		if (text.trim().length === 0) continue;
		if (param.type === 'int' || param.type === 'boolean') {
			// Parsed and worded by the catalogue's rules, as the client and the sandbox do.
			const value = param.type === 'int' ? parseInteger(text) : parseBoolean(text);
			if (value === undefined) {
				const problem = checkValue(param, text);
				issues.push({ param: param.name, message: problem?.message ?? `${param.name} is not valid.` });
				continue;
			}
			params[param.name] = value;
		} else {
			params[param.name] = text;
		}
	}
	for (const issue of validateParams(operation, params)) {
		if (!issues.some((known) => known.param === issue.param)) {
			issues.push({ param: issue.param, message: issue.message });
		}
	}
	return { params, issues };
}

/** Parameters with placeholders replaced; a credential parameter that resolves to '' is left out. */
export function resolveParams(
	operation: OperationName,
	params: Readonly<Record<string, RequestParamValue>>,
	values: ConnectionValues,
): AnyParams {
	const roles = new Map(OPERATIONS[operation].params.map((param) => [param.name, param.role]));
	const resolved: AnyParams = {};
	for (const [name, value] of Object.entries(params)) {
		if (typeof value === 'string') {
			const text = substitutePlaceholders(value, values);
			if (text.length > 0 || !roles.get(name)) resolved[name] = text;
		} else if (Array.isArray(value)) {
			resolved[name] = value.map((item) => substitutePlaceholders(item, values));
		} else {
			resolved[name] = value;
		}
	}
	return resolved;
}

/** An HTTP request ready to send (real credentials) or to show (masked). */
export type PreparedRequest = PreparedHttpRequest;

/** Encodes a form request with the binding, as the playground sends it (with `values` filled in). */
export function encodeFormRequest(
	operation: OperationName,
	binding: BindingName,
	params: Readonly<Record<string, RequestParamValue>>,
	target: Target,
	values: ConnectionValues,
): PreparedRequest {
	const encoded = getBinding(binding).encodeRequest(
		operation,
		resolveParams(operation, params, values),
		codecContext(target, operation),
	);
	return {
		method: encoded.method,
		url: `${urlPrefix(target.baseUrl)}${encoded.path}`,
		headers: Object.entries(encoded.headers),
		body: encoded.body,
	};
}

/** Reads `Name: value` header lines; blank lines are skipped. */
export function parseHeaderLines(text: string): { headers: [string, string][]; issues: string[] } {
	const headers: [string, string][] = [];
	const issues: string[] = [];
	text.split(/\r?\n/).forEach((line, index) => {
		if (line.trim().length === 0) return;
		const colon = line.indexOf(':');
		if (colon <= 0) issues.push(`Header line ${index + 1} is not "Name: value": "${line.slice(0, 60)}".`);
		else headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
	});
	return { headers, issues };
}

/** A raw draft as a RawHttpRequest (for files), and back. */
export function draftToRaw(draft: RawDraft): RawHttpRequest {
	return {
		method: draft.method,
		target: draft.target,
		headers: parseHeaderLines(draft.headersText).headers,
		body: draft.body,
	};
}

export function rawToDraft(raw: RawHttpRequest): RawDraft {
	return {
		method: raw.method,
		target: raw.target,
		headersText: raw.headers.map(([name, value]) => `${name}: ${value}`).join('\n'),
		body: raw.body,
	};
}

/** A raw draft that reproduces a form request, placeholders kept, for editing in raw mode. */
export function formToDraft(
	operation: OperationName,
	binding: BindingName,
	params: Readonly<Record<string, RequestParamValue>>,
	target: Target,
): RawDraft {
	// Unique tokens survive URL and XML encoding unchanged, so they can be turned back into placeholders.
	const tokens: ConnectionValues = {
		apiKey: 'MPWBTOKENAPIKEY',
		username: 'MPWBTOKENUSERNAME',
		password: 'MPWBTOKENPASSWORD',
		culture: 'MPWBTOKENCULTURE',
	};
	const prepared = encodeFormRequest(operation, binding, params, { ...target, baseUrl: '' }, tokens);
	const restore = (text: string): string =>
		text.replace(/MPWBTOKEN(APIKEY|USERNAME|PASSWORD|CULTURE)/g, (_match, role: string) => {
			const key = ({ APIKEY: 'apiKey', USERNAME: 'username', PASSWORD: 'password', CULTURE: 'culture' } as const)[
				role as 'APIKEY'
			];
			return CONNECTION_PLACEHOLDERS[key];
		});
	return {
		method: prepared.method,
		target: restore(prepared.url),
		headersText: prepared.headers.map(([name, value]) => `${name}: ${value}`).join('\n'),
		body: restore(Buffer.from(prepared.body).toString('utf8')),
	};
}

/**
 * A raw draft as it will be sent: placeholders replaced, URL-encoded in the target and in form
 * bodies, XML-escaped in XML bodies, as they are in headers. Nothing else is changed.
 */
export function prepareRawRequest(
	draft: RawDraft,
	baseUrl: string,
	values: ConnectionValues,
): { request?: PreparedRequest; issues: string[] } {
	const { headers, issues } = parseHeaderLines(draft.headersText);
	if (!draft.target.startsWith('/')) issues.push(`The path must start with /, got "${draft.target.slice(0, 60)}".`);
	if (draft.method.trim().length === 0) issues.push('The method is empty.');
	if (issues.length > 0) return { issues };
	const bodyEncode = rawBodyEncoder(headers, draft.body);
	return {
		issues,
		request: {
			method: draft.method.trim(),
			url: `${urlPrefix(baseUrl)}${substitutePlaceholders(draft.target, values, encodeURIComponent)}`,
			headers: headers.map(([name, value]) => [name, substitutePlaceholders(value, values)]),
			body: new Uint8Array(Buffer.from(substitutePlaceholders(draft.body, values, bodyEncode), 'utf8')),
		},
	};
}

export { sendPrepared } from '../../client/sendPrepared';

/** Context for turning a captured exchange into what the webview shows. */
export interface ViewContext {
	/** Operation and binding to decode the body with, when known. */
	operation?: string;
	binding?: BindingName;
	target: Target;
	/** Every secret to hide. */
	secrets: readonly string[];
}

/**
 * The response view: every text redacted (the request too), the body as decoded UTF-8 text, its
 * pretty-printed form or parse error, and the decoded result or fault.
 */
export function buildResponseView(captured: Captured, context: ViewContext): ResponseView {
	const redactor = createRedactor(context.secrets);
	const view: ResponseView = {
		request: requestView(captured.request, redactor),
		headers: [],
		timings: { ...captured.timings },
		size: 0,
		bodyText: '',
	};
	if (captured.error !== undefined) view.error = redactor.text(captured.error);
	const response = captured.response;
	if (!response) return view;
	const body = redactor.bytes(response.body);
	view.status = response.status;
	view.headers = response.headers.map(([name, value]) => [name, redactor.headers({ [name]: value })[name] ?? value]);
	view.size = response.body.byteLength;
	view.bodyText = Buffer.from(body).toString('utf8');
	const contentType = response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
	if (/xml/i.test(contentType) || view.bodyText.trimStart().startsWith('<')) {
		try {
			view.pretty = prettyPrintXml(view.bodyText);
		} catch (error) {
			view.prettyError =
				error instanceof XmlError
					? { message: error.message, line: error.line, column: error.column }
					: { message: error instanceof Error ? error.message : String(error), line: 0, column: 0 };
		}
	} else if (view.bodyText.length > 0) {
		view.prettyError = {
			message: `The body is not XML (content type ${contentType || 'none'}).`,
			line: 0,
			column: 0,
		};
	}
	if (context.operation !== undefined && context.binding !== undefined && isOperationName(context.operation)) {
		try {
			// The redacted bytes are decoded, so the result cannot carry a secret either.
			const decoded = getBinding(context.binding).decodeResponse(
				context.operation,
				{
					status: response.status,
					headers: Object.fromEntries(response.headers.map(([name, value]) => [name.toLowerCase(), value])),
					body,
				},
				codecContext(context.target, context.operation),
			);
			if (decoded.ok) view.result = normaliseResult(decoded.result) ?? null;
			else if (context.binding === 'httpGet' || context.binding === 'httpPost') {
				// No SOAP here: what came over the wire is an HTTP error with a text, not a fault.
				const contentType = response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
				view.httpError = httpErrorView(context.operation, response.status, contentType, view.bodyText);
			} else view.fault = { ...decoded.fault };
		} catch (error) {
			view.decodeError = redactor.text(error instanceof Error ? error.message : String(error));
		}
	}
	const position = errorPosition(view);
	if (position) {
		view.requestErrorPosition = positionInRedacted(
			Buffer.from(captured.request.body).toString('utf8'),
			view.request.body,
			position,
			redactor,
		);
	}
	return view;
}

/** The line and column a service error names ("… at line 1, column 353 …"), if any. */
export function errorPosition(view: ResponseView): { line: number; column: number } | undefined {
	const texts = [view.fault?.message, view.fault?.detail, view.httpError?.text];
	for (const text of texts) {
		const match = text ? /\bline (\d{1,9}), column (\d{1,9})\b/i.exec(text) : null;
		if (match) return { line: Number(match[1]), column: Number(match[2]) };
	}
	return undefined;
}

/** 0-based offset of a 1-based line and column in `text` (clamped to the text). */
function offsetOf(text: string, line: number, column: number): number {
	let offset = 0;
	for (let current = 1; current < line; current++) {
		const next = text.indexOf('\n', offset);
		if (next < 0) return text.length;
		offset = next + 1;
	}
	const end = text.indexOf('\n', offset);
	return Math.min(offset + column - 1, end < 0 ? text.length : end);
}

/**
 * A position in the sent body moved to the same place in its redacted form: secrets before it
 * change the columns ("***" is shorter or longer than the key). Only lengths of the redacted
 * prefix are used, never its text.
 */
export function positionInRedacted(
	sent: string,
	redacted: string,
	position: { line: number; column: number },
	redactor: Redactor,
): { line: number; column: number } {
	const offset = Math.min(
		redactor.text(sent.slice(0, offsetOf(sent, position.line, position.column))).length,
		redacted.length,
	);
	const before = redacted.slice(0, offset);
	const line = before.split('\n').length;
	return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** The sentence ASMX (and the sandbox) answer with when the service itself failed. */
const SERVICE_FAILURE_TEXT = /^Server was unable to process request/i;
const CREDENTIAL_WORDS = /\b(API key|password|username|user name|credentials?)\b/i;

/**
 * An HTTP GET/POST error answer as it came, with an honest verdict: ASMX answers every error of
 * those bindings with HTTP 500 and a text, so only the text can tell whose mistake it is.
 */
export function httpErrorView(
	operation: OperationName,
	status: number,
	contentType: string,
	text: string,
): HttpErrorView {
	const view = { status, contentType: contentType || 'none', text };
	const firstLine = text.split(/\r?\n/, 1)[0].trim();
	if (SERVICE_FAILURE_TEXT.test(firstLine)) {
		return {
			...view,
			verdict: 'service',
			explanation: 'This is the text a service answers with when it failed itself: the request is not at fault.',
		};
	}
	const named = OPERATIONS[operation].params.find((param) => new RegExp(`\\b${param.name}\\b`).test(text));
	if (named) {
		return {
			...view,
			verdict: 'caller',
			explanation: `The text names the parameter ${named.name}: most likely a mistake in the request.`,
		};
	}
	if (CREDENTIAL_WORDS.test(text)) {
		return {
			...view,
			verdict: 'caller',
			explanation: 'The text is about the credentials: most likely a mistake in the request.',
		};
	}
	return {
		...view,
		verdict: 'unknown',
		explanation:
			'HTTP GET and POST carry no fault code: the service answers every error with HTTP 500 and a text, whoever is at fault.',
	};
}

/** A prepared request for display, redacted. */
export function requestView(prepared: PreparedRequest, redactor: Redactor): RequestView {
	return {
		method: prepared.method,
		url: redactor.text(prepared.url),
		headers: prepared.headers.map(([name, value]) => [name, redactor.headers({ [name]: value })[name] ?? value]),
		body: Buffer.from(redactor.bytes(prepared.body)).toString('utf8'),
	};
}

/** The preview of a form: the encoded request with secrets masked, and the validation issues. */
export function previewForm(
	form: PlaygroundForm,
	target: Target,
	values: ConnectionValues,
): { request?: RequestView; issues: IssueView[]; error?: string } {
	if (form.mode === 'raw') {
		const prepared = prepareRawRequest(form.raw, target.baseUrl, displayValues(values));
		return {
			request: prepared.request ? requestView(prepared.request, createRedactor([])) : undefined,
			issues: prepared.issues.map((message) => ({ param: '', message })),
		};
	}
	if (!isOperationName(form.operation)) return { issues: [], error: `Unknown operation ${form.operation}.` };
	const { params, issues } = formToParams(form.operation, form.params);
	try {
		const prepared = encodeFormRequest(form.operation, form.binding, params, target, displayValues(values));
		return { request: requestView(prepared, createRedactor([])), issues };
	} catch (error) {
		return { issues, error: error instanceof Error ? error.message : String(error) };
	}
}
