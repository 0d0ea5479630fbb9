/**
 * Step 1 of the pipeline: from method, URL and headers alone, decide what is asked for (a page, a
 * WSDL or an operation call), which endpoint and which binding. Nothing of the body is read here.
 */
import type { BindingName } from '../../protocol/bindings/types';
import { OPERATIONS, resolveOperationName, type Endpoint, type OperationName } from '../../protocol/catalogue';
import { methodNotAllowed, notFound, unknownOperation, unsupportedMediaType } from './errors';

export type Route =
	| { kind: 'index' }
	| { kind: 'wsdl'; endpoint: Endpoint }
	| { kind: 'disco'; endpoint: Endpoint }
	| { kind: 'servicePage'; endpoint: Endpoint }
	| { kind: 'operationPage'; endpoint: Endpoint; operation: OperationName }
	| {
			kind: 'call';
			endpoint: Endpoint;
			binding: BindingName;
			/** Path after the endpoint path: '' for SOAP, '/<Operation>' for GET and POST. */
			subPath: string;
			/** Raw query string without '?'. */
			query: string;
	  };

const ALLOWED = ['GET', 'POST'] as const;

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
	if (contentType === undefined) return '';
	// indexOf and slice: split() builds an array on every request.
	const end = contentType.indexOf(';');
	return (end < 0 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

/** Splits a request target into path and raw query without decoding either. */
export function splitTarget(target: string): { path: string; query: string } {
	const mark = target.indexOf('?');
	return mark < 0 ? { path: target, query: '' } : { path: target.slice(0, mark), query: target.slice(mark + 1) };
}

/** An endpoint path in the form requests are matched against: lower case, no trailing slash. */
interface EndpointBase {
	endpoint: Endpoint;
	base: string;
	baseWithSlash: string;
}

/** The bases of each paths table, computed on its first request rather than on every one. */
const endpointBases = new WeakMap<Readonly<Record<Endpoint, string>>, readonly EndpointBase[]>();

function basesOf(paths: Readonly<Record<Endpoint, string>>): readonly EndpointBase[] {
	let bases = endpointBases.get(paths);
	if (bases === undefined) {
		bases = (Object.keys(paths) as Endpoint[]).map((endpoint) => {
			const base = paths[endpoint].toLowerCase().replace(/\/+$/, '');
			return { endpoint, base, baseWithSlash: `${base}/` };
		});
		endpointBases.set(paths, bases);
	}
	return bases;
}

/** The endpoint a path belongs to, matched ignoring case as IIS does, and the rest of the path. */
function matchEndpoint(
	path: string,
	paths: Readonly<Record<Endpoint, string>>,
): { endpoint: Endpoint; subPath: string } | undefined {
	const lower = path.toLowerCase();
	for (const { endpoint, base, baseWithSlash } of basesOf(paths)) {
		if (lower === base || lower.startsWith(baseWithSlash)) {
			return { endpoint, subPath: path.slice(base.length) };
		}
	}
	return undefined;
}

/** Query keys compared ignoring case (ASMX accepts ?WSDL and ?wsdl). */
function queryKeys(query: string): Map<string, string> {
	const keys = new Map<string, string>();
	for (const [key, value] of new URLSearchParams(query)) keys.set(key.toLowerCase(), value);
	return keys;
}

/** The operation named by a GET/POST path or ?op=, if this endpoint offers it. */
export function operationOnEndpoint(name: string, endpoint: Endpoint): OperationName | undefined {
	const operation = resolveOperationName(name);
	return operation && OPERATIONS[operation].endpoint === endpoint ? operation : undefined;
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/**
 * Decides the route of a request from its method, target (split by splitTarget) and Content-Type;
 * throws HttpError for 404/405/415.
 */
export function route(
	method: string,
	{ path, query }: { path: string; query: string },
	contentType: string | undefined,
	paths: Readonly<Record<Endpoint, string>>,
): Route {
	if (path === '/' || path === '') {
		if (method !== 'GET') throw methodNotAllowed(method, ['GET']);
		return { kind: 'index' };
	}
	const match = matchEndpoint(path, paths);
	if (!match) throw notFound(path);
	const { endpoint } = match;
	const subPath = match.subPath.replace(/^\/+$/, '');
	if (!(ALLOWED as readonly string[]).includes(method)) throw methodNotAllowed(method, ALLOWED);
	const type = mediaTypeOf(contentType);

	if (subPath === '') {
		if (method === 'GET') {
			const keys = queryKeys(query);
			if (keys.has('wsdl')) return { kind: 'wsdl', endpoint };
			if (keys.has('disco')) return { kind: 'disco', endpoint };
			const opName = keys.get('op');
			if (opName !== undefined) {
				const operation = operationOnEndpoint(opName, endpoint);
				if (!operation) throw notFound(`${path}?op=${opName}`);
				return { kind: 'operationPage', endpoint, operation };
			}
			return { kind: 'servicePage', endpoint };
		}
		// SOAP: the version is told by the Content-Type alone.
		if (type === 'text/xml') return { kind: 'call', endpoint, binding: 'soap11', subPath, query };
		if (type === 'application/soap+xml') return { kind: 'call', endpoint, binding: 'soap12', subPath, query };
		throw unsupportedMediaType('text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2)', contentType);
	}

	if (method === 'GET') return { kind: 'call', endpoint, binding: 'httpGet', subPath, query };
	if (type !== 'application/x-www-form-urlencoded') {
		throw unsupportedMediaType('application/x-www-form-urlencoded', contentType);
	}
	return { kind: 'call', endpoint, binding: 'httpPost', subPath, query };
}

/**
 * Step 2 for GET and POST: the operation named by the path must exist on this endpoint. SOAP
 * operations are known once the binding has decoded the body.
 */
export function lookupPathOperation(subPath: string, endpoint: Endpoint, endpointPath: string): OperationName {
	const name = safeDecode(subPath.replace(/^\/+/, '').replace(/\/+$/, ''));
	const operation = operationOnEndpoint(name, endpoint);
	if (!operation) throw unknownOperation(name || '(none)', endpointPath);
	return operation;
}
