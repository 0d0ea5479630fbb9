/**
 * The recording file format (docs/live-service.md): exchanges with a service, saved to be reviewed in a
 * diff and replayed by the sandbox. One JSON document, one entry per exchange, each with the request and
 * the answer as sent (bodies as text, credentials as `{{connection.*}}` placeholders) and, for reading,
 * the request's decoded parameters and the answer's decoded result or fault. Parsing validates
 * everything once and every error names the file, the exchange and the field. Pure.
 */
import { BINDING_NAMES, type BindingName } from '../bindings/types';
import { OPERATIONS, type Endpoint, type OperationName } from '../catalogue';
import type { Normalised } from '../compare';

export const RECORDING_FORMAT = 'multiposting-recording';
export const RECORDING_VERSION = 1;
/** Recording files end so; VS Code validates them against media/multiposting.recording.schema.json. */
export const RECORDING_FILE_SUFFIX = '.mprec.json';
/** Exchanges one recording holds at most. */
export const MAX_RECORDED_EXCHANGES = 10_000;
/** Largest recording sent to a sandbox's control endpoint (`POST /__admin/replay`), bytes. */
export const MAX_REPLAY_BODY_BYTES = 64 * 1024 * 1024;
/** Characters of one recorded body at most (a body the journal had to cut is never recorded). */
export const MAX_RECORDED_BODY_CHARS = 4 * 1024 * 1024;

export interface RecordedRequest {
	method: string;
	/** The path as sent, without the query. */
	path: string;
	/** The raw query string without '?' ('' when none). */
	query: string;
	/** Header names in lower case. */
	headers: Record<string, string>;
	/** The parameters as the catalogue decodes them, for reading; replay decodes `query` and `body` itself. */
	params?: Record<string, Normalised>;
	/** The body as text (UTF-8); '' for none. */
	body: string;
}

export interface RecordedResponse {
	status: number;
	headers: Record<string, string>;
	/** The decoded result (normalised: keys sorted, bytes as `base64:…`, dates as ISO), for reading. */
	result?: Normalised;
	/** The decoded fault, for reading. */
	fault?: { code: string; subcode?: string; message: string };
	/** The body as text (UTF-8), served again byte for byte by replay. */
	body: string;
}

export interface RecordedExchange {
	/** Unique within the file: the journal's id when it was recorded. */
	id: number;
	/** ISO time the request arrived. */
	time: string;
	operation?: OperationName;
	endpoint?: Endpoint;
	binding?: BindingName;
	/** The request carried credentials other than the connection's own (replayed and re-sent with wrong ones). */
	otherCredentials?: true;
	request: RecordedRequest;
	response: RecordedResponse;
}

export interface Recording {
	$schema?: string;
	format: typeof RECORDING_FORMAT;
	version: typeof RECORDING_VERSION;
	recordedAt: string;
	/** Where the answers came from: the live service's base URL (no credentials), or the sandbox. */
	upstream?: string;
	/** The XML namespace of the messages. */
	namespace: string;
	/** The endpoints' paths on that service. */
	paths: Record<Endpoint, string>;
	exchanges: RecordedExchange[];
}

/** A recording that does not follow the format; the message names the file, the exchange and the field. */
export class RecordingFormatError extends Error {
	override readonly name = 'RecordingFormatError';
}

type Json = Record<string, unknown>;
const ENDPOINTS: readonly Endpoint[] = ['posting', 'administration'];

/** The recording as its file's text: pretty JSON (a diff shows one field per line), ending with a newline. */
export function serializeRecording(recording: Recording): string {
	return `${JSON.stringify(recording, null, 2)}\n`;
}

/** Reads and validates a recording from its file's text; `source` names the file in errors. */
export function parseRecording(text: string, source: string): Recording {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		throw new RecordingFormatError(`${source}: not valid JSON (${(error as Error).message}).`);
	}
	return readRecording(data, source);
}

/** Validates an already parsed recording (a control endpoint body). */
export function readRecording(data: unknown, source: string): Recording {
	const fail = (where: string, problem: string): never => {
		throw new RecordingFormatError(`${source}: ${where ? `${where}: ` : ''}${problem}.`);
	};
	const top = objectAt(data, '', fail);
	only(top, ['$schema', 'format', 'version', 'recordedAt', 'upstream', 'namespace', 'paths', 'exchanges'], '', fail);
	if (top.format !== RECORDING_FORMAT) fail('format', `must be "${RECORDING_FORMAT}"`);
	if (top.version !== RECORDING_VERSION) {
		fail('version', `must be ${RECORDING_VERSION} (this file says ${JSON.stringify(top.version)})`);
	}
	const paths = objectAt(top.paths, 'paths', fail);
	only(paths, ENDPOINTS, 'paths', fail);
	for (const endpoint of ENDPOINTS) {
		if (typeof paths[endpoint] !== 'string' || !String(paths[endpoint]).startsWith('/')) {
			fail(`paths.${endpoint}`, 'must be a path starting with /');
		}
	}
	const exchangesData = top.exchanges;
	if (!Array.isArray(exchangesData) || exchangesData.length > MAX_RECORDED_EXCHANGES) {
		fail('exchanges', `must be a list of at most ${MAX_RECORDED_EXCHANGES} exchanges`);
	}
	const ids = new Set<number>();
	const exchanges = (exchangesData as unknown[]).map((item, index) => {
		const exchange = readExchange(item, `exchanges[${index}]`, fail);
		if (ids.has(exchange.id)) fail(`exchanges[${index}].id`, `${exchange.id} is used twice`);
		ids.add(exchange.id);
		return exchange;
	});
	const recording: Recording = {
		format: RECORDING_FORMAT,
		version: RECORDING_VERSION,
		recordedAt: text(top, 'recordedAt', '', fail),
		namespace: text(top, 'namespace', '', fail),
		paths: { posting: String(paths.posting), administration: String(paths.administration) },
		exchanges,
	};
	if (top.$schema !== undefined) recording.$schema = text(top, '$schema', '', fail);
	if (top.upstream !== undefined) recording.upstream = text(top, 'upstream', '', fail);
	return recording;
}

type Fail = (where: string, problem: string) => never;

function objectAt(value: unknown, where: string, fail: Fail): Json {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(where, 'must be an object');
	return value as Json;
}

function only(data: Json, allowed: readonly string[], where: string, fail: Fail): void {
	for (const key of Object.keys(data)) {
		if (!allowed.includes(key)) {
			fail(where ? `${where}.${key}` : key, `is not a known field (known: ${allowed.join(', ')})`);
		}
	}
}

function text(data: Json, field: string, where: string, fail: Fail, max = 4096): string {
	const value = data[field];
	const at = where ? `${where}.${field}` : field;
	if (typeof value !== 'string') return fail(at, 'must be text');
	if (value.length > max) return fail(at, `must be at most ${max} characters`);
	return value;
}

function headersAt(value: unknown, where: string, fail: Fail): Record<string, string> {
	const data = objectAt(value, where, fail);
	const headers: Record<string, string> = {};
	for (const [name, item] of Object.entries(data)) {
		if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) fail(`${where}.${name}`, 'must be a lower-case header name');
		if (typeof item !== 'string' || /[\r\n]/.test(item)) fail(`${where}.${name}`, 'must be one line of text');
		headers[name] = item as string;
	}
	return headers;
}

function readExchange(value: unknown, where: string, fail: Fail): RecordedExchange {
	const data = objectAt(value, where, fail);
	only(
		data,
		['id', 'time', 'operation', 'endpoint', 'binding', 'otherCredentials', 'request', 'response'],
		where,
		fail,
	);
	if (!Number.isSafeInteger(data.id) || (data.id as number) < 0) fail(`${where}.id`, 'must be a whole number');
	const exchange: RecordedExchange = {
		id: data.id as number,
		time: text(data, 'time', where, fail),
		request: readRequest(data.request, `${where}.request`, fail),
		response: readResponse(data.response, `${where}.response`, fail),
	};
	if (data.otherCredentials !== undefined) {
		if (data.otherCredentials !== true) fail(`${where}.otherCredentials`, 'must be true when given');
		exchange.otherCredentials = true;
	}
	if (data.operation !== undefined) {
		if (typeof data.operation !== 'string' || !Object.prototype.hasOwnProperty.call(OPERATIONS, data.operation)) {
			fail(`${where}.operation`, `${JSON.stringify(data.operation)} is not an operation of the service`);
		}
		exchange.operation = data.operation as OperationName;
	}
	if (data.endpoint !== undefined) {
		if (!ENDPOINTS.includes(data.endpoint as Endpoint)) {
			fail(`${where}.endpoint`, 'must be posting or administration');
		}
		exchange.endpoint = data.endpoint as Endpoint;
	}
	if (data.binding !== undefined) {
		if (!BINDING_NAMES.includes(data.binding as BindingName)) {
			fail(`${where}.binding`, `must be one of ${BINDING_NAMES.join(', ')}`);
		}
		exchange.binding = data.binding as BindingName;
	}
	return exchange;
}

function readRequest(value: unknown, where: string, fail: Fail): RecordedRequest {
	const data = objectAt(value, where, fail);
	only(data, ['method', 'path', 'query', 'headers', 'params', 'body'], where, fail);
	const method = text(data, 'method', where, fail, 16);
	if (!/^[A-Z]+$/.test(method)) fail(`${where}.method`, 'must be an HTTP method in capitals');
	const path = text(data, 'path', where, fail);
	if (!path.startsWith('/')) fail(`${where}.path`, 'must start with /');
	const request: RecordedRequest = {
		method,
		path,
		query: text(data, 'query', where, fail, 64 * 1024),
		headers: headersAt(data.headers, `${where}.headers`, fail),
		body: text(data, 'body', where, fail, MAX_RECORDED_BODY_CHARS),
	};
	if (data.params !== undefined) request.params = objectAt(data.params, `${where}.params`, fail) as never;
	return request;
}

function readResponse(value: unknown, where: string, fail: Fail): RecordedResponse {
	const data = objectAt(value, where, fail);
	only(data, ['status', 'headers', 'result', 'fault', 'body'], where, fail);
	const status = data.status;
	if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599) {
		fail(`${where}.status`, 'must be an HTTP status from 100 to 599');
	}
	const response: RecordedResponse = {
		status: status as number,
		headers: headersAt(data.headers, `${where}.headers`, fail),
		body: text(data, 'body', where, fail, MAX_RECORDED_BODY_CHARS),
	};
	if (data.result !== undefined) response.result = data.result as Normalised;
	if (data.fault !== undefined) {
		const fault = objectAt(data.fault, `${where}.fault`, fail);
		only(fault, ['code', 'subcode', 'message'], `${where}.fault`, fail);
		response.fault = {
			code: text(fault, 'code', `${where}.fault`, fail),
			message: text(fault, 'message', `${where}.fault`, fail, 64 * 1024),
		};
		if (fault.subcode !== undefined) response.fault.subcode = text(fault, 'subcode', `${where}.fault`, fail);
	}
	return response;
}
