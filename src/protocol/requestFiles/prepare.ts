/**
 * Turns a request of a file into the HTTP request to send: captured `{{name}}` values and the
 * connection's `{{connection.*}}` values substituted (escaped for where they land), the operation
 * encoded by its binding, or the raw part taken as written. Pure: sending is the runner's job.
 */
import { getBinding } from '../bindings';
import type { CodecContext } from '../bindings/types';
import { OPERATIONS, type AnyParams, type Endpoint, type OperationName } from '../catalogue';
import type { Expectation, Operand, Subject } from './expressions';
import type { RequestEntry, RequestParamValue } from './format';
import { typedValue } from './format';
import {
	substitutePlaceholders,
	substituteVariables,
	variablesIn,
	type CapturedValues,
	type ConnectionValues,
} from './placeholders';
import { xmlBodyValue } from './xmlBody';
import type { RawHttpRequest } from './rawHttp';

/** Where requests go: the connection's address, namespace and endpoint paths. */
export interface RequestTarget {
	baseUrl: string;
	namespace: string;
	paths: Readonly<Record<Endpoint, string>>;
}

/** An HTTP request ready to send. */
export interface PreparedHttpRequest {
	method: string;
	url: string;
	headers: [string, string][];
	body: Uint8Array;
}

/** The base URL without a trailing slash, so `${prefix}${path}` is the request URL. */
export function urlPrefix(baseUrl: string): string {
	return baseUrl.replace(/\/+$/, '');
}

/** The codec context of an operation at a target. */
export function codecContextOf(target: RequestTarget, operation: OperationName): CodecContext {
	return { namespace: target.namespace, endpointPath: target.paths[OPERATIONS[operation].endpoint] };
}

/**
 * Every `{{name}}` variable a request uses (parameters, raw part, XPath prefixes, and the values,
 * XPaths and patterns of its expectations and captures), in order.
 */
export function variablesOfEntry(entry: RequestEntry): string[] {
	const texts: string[] = [];
	const document = entry.document;
	if (document) {
		for (const value of Object.values(document.params)) {
			if (typeof value === 'string') texts.push(value);
			else if (Array.isArray(value)) texts.push(...value);
		}
	}
	const raw = document?.raw ?? entry.http;
	if (raw) texts.push(raw.target, ...raw.headers.map(([, value]) => value), raw.body);
	texts.push(...Object.values(entry.namespaces));
	for (const expectation of entry.expectations) {
		if (expectation.kind !== 'compare') continue;
		texts.push(subjectTextOf(expectation.subject));
		if (expectation.operand) texts.push(operandTextOf(expectation.operand));
	}
	for (const capture of entry.captures) texts.push(subjectTextOf(capture.subject), capture.pattern?.source ?? '');
	const names: string[] = [];
	for (const text of texts) for (const name of variablesIn(text)) if (!names.includes(name)) names.push(name);
	return names;
}

function operandTextOf(operand: Operand): string {
	return operand.kind === 'string' ? operand.value : operand.kind === 'regex' ? operand.source : '';
}

function subjectTextOf(subject: Subject): string {
	return subject.kind === 'xpath' ? subject.expression : '';
}

/** True when the request checks its response against the schema. */
export function checksSchema(expectations: readonly Expectation[]): boolean {
	return expectations.some((expectation) => expectation.kind === 'schemaValid');
}

/**
 * The HTTP request of an entry, or the problems that stop it from being sent (a variable without
 * a value, a typed parameter whose value is not of its type, a target on another host).
 */
export function prepareEntry(
	entry: RequestEntry,
	target: RequestTarget,
	connection: ConnectionValues,
	variables: CapturedValues,
): { request?: PreparedHttpRequest; problems: string[] } {
	const missing = variablesOfEntry({ ...entry, expectations: [] }).filter(
		(name) => !Object.prototype.hasOwnProperty.call(variables, name),
	);
	if (missing.length > 0) {
		return { problems: missing.map((name) => `{{${name}}} has no value: no earlier request captured it.`) };
	}
	const raw = entry.document?.raw ?? entry.http;
	if (raw) return prepareRaw(raw, target, connection, variables);
	const document = entry.document;
	if (!document) return { problems: ['The request has errors; fix them first.'] };
	const problems: string[] = [];
	const params: AnyParams = {};
	const specs = new Map(OPERATIONS[document.operation].params.map((param) => [param.name, param]));
	for (const [name, value] of Object.entries(document.params)) {
		const spec = specs.get(name);
		const resolved = resolveValue(value, connection, variables);
		if (typeof resolved === 'string' && spec && spec.type !== 'string' && spec.type !== 'string[]') {
			// An int or boolean given by a variable: typed now that its value is known.
			const typed = typedValue(spec, resolved);
			if ('issue' in typed) problems.push(typed.issue);
			else params[name] = typed.value;
			continue;
		}
		// A credential parameter the connection has no value for is left out.
		if (resolved === '' && spec?.role) continue;
		params[name] = resolved;
	}
	if (problems.length > 0) return { problems };
	const encoded = getBinding(document.binding).encodeRequest(
		document.operation,
		params,
		codecContextOf(target, document.operation),
	);
	return {
		problems,
		request: {
			method: encoded.method,
			url: `${urlPrefix(target.baseUrl)}${encoded.path}`,
			headers: Object.entries(encoded.headers),
			body: encoded.body,
		},
	};
}

function resolveValue(
	value: RequestParamValue,
	connection: ConnectionValues,
	variables: CapturedValues,
): RequestParamValue {
	const text = (item: string): string =>
		substitutePlaceholders(substituteVariables(item, variables).text, connection);
	if (typeof value === 'string') return text(value);
	if (Array.isArray(value)) return value.map(text);
	return value;
}

/**
 * How a value substituted into a raw body is escaped: URL-encoded in a form body, XML-escaped in an
 * XML body (by its content type, or a body that starts with `<`), as it is otherwise.
 */
export function rawBodyEncoder(
	headers: readonly (readonly [string, string])[],
	body: string,
): (value: string) => string {
	const contentType = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1].toLowerCase() ?? '';
	if (contentType.includes('x-www-form-urlencoded')) {
		return (value) => new URLSearchParams({ v: value }).toString().slice(2);
	}
	if (contentType.includes('xml') || body.trimStart().startsWith('<')) return xmlBodyValue;
	return (value) => value;
}

/**
 * A raw request as it will be sent: values URL-encoded in the target and in form bodies,
 * XML-escaped in XML bodies, as they are in headers. Nothing else is changed. The target is a path,
 * or a URL on the connection's own origin (so a file can follow a RedirectUrl, never send a
 * credential elsewhere).
 */
export function prepareRaw(
	raw: RawHttpRequest,
	target: RequestTarget,
	connection: ConnectionValues,
	variables: CapturedValues,
): { request?: PreparedHttpRequest; problems: string[] } {
	const problems: string[] = [];
	const bodyEncode = rawBodyEncoder(raw.headers, raw.body);
	const fill = (text: string, encode: (value: string) => string): string =>
		substitutePlaceholders(substituteVariables(text, variables, encode).text, connection, encode);
	// A variable that holds a whole URL is used as it is; inside a path, values are URL-encoded.
	const wholeVariable = /^\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}$/.test(raw.target);
	const targetText = fill(raw.target, wholeVariable ? (value) => value : encodeURIComponent);
	let url: string;
	if (targetText.startsWith('/')) {
		url = `${urlPrefix(target.baseUrl)}${targetText}`;
	} else if (/^https?:\/\//i.test(targetText)) {
		let origin: string;
		try {
			origin = new URL(targetText).origin;
		} catch {
			return { problems: [`The target ${targetText.slice(0, 80)} is not a valid URL.`] };
		}
		if (origin !== new URL(target.baseUrl).origin) {
			return {
				problems: [
					`The target ${origin} is not the connection's host (${new URL(target.baseUrl).origin}); request files only call the connection.`,
				],
			};
		}
		url = targetText;
	} else {
		return { problems: [`The target must be a path starting with / or a URL, got "${targetText.slice(0, 60)}".`] };
	}
	if (raw.method.trim().length === 0) problems.push('The method is empty.');
	if (problems.length > 0) return { problems };
	return {
		problems,
		request: {
			method: raw.method.trim(),
			url,
			headers: raw.headers.map(([name, value]) => [name, fill(value, (text) => text)]),
			body: new TextEncoder().encode(fill(raw.body, bodyEncode)),
		},
	};
}
