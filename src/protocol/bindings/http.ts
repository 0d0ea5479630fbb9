/**
 * The HTTP GET and HTTP POST bindings: parameters as query or form fields, the result as a bare
 * document whose root is the operation's httpRoot (rule 2), and errors as HTTP 500 text/plain with a
 * short message, as ASMX answers them.
 */
import { OPERATIONS, resolveOperationName, type AnyParams, type OperationName } from '../catalogue';
import { RecordCodecError, XSD_NS, XSI_NS, XmlOut } from '../codecs/records';
import { parseXml, utf8Strict, XmlError } from '../codecs/xml';
import { FaultError, type Fault } from '../faults';
import { FORM, TEXT_PLAIN, TEXT_XML, fromUtf8, looksLikeHtml, mediaType, utf8 } from './content';
import { paramFields, readParamFields } from './params';
import { readResult, streamResult, writeResult } from './results';
import {
	ProtocolError,
	type Binding,
	type CodecContext,
	type DecodedRequest,
	type DecodedResponse,
	type DecodeOptions,
	type EncodedRequest,
	type EncodedResponse,
	type ReceivedRequest,
	type ReceivedResponse,
} from './types';

function formText(fields: [string, string][]): string {
	return new URLSearchParams(fields).toString();
}

/** The operation named by the path after the endpoint (matched ignoring case). */
function operationFromPath(subPath: string): OperationName {
	const name = decodeURIComponent(subPath.replace(/^\/+/, '').replace(/\/+$/, ''));
	const operation = resolveOperationName(name);
	if (!operation) {
		throw FaultError.client(
			'UnknownOperation',
			name
				? `Unknown operation ${name}.`
				: 'The URL names no operation: append /<Operation> to the endpoint path.',
		);
	}
	return operation;
}

function encodeResponse(operation: OperationName, result: unknown, ctx: CodecContext): EncodedResponse {
	const out = new XmlOut().raw('<?xml version="1.0" encoding="utf-8"?>');
	const root = OPERATIONS[operation].httpRoot;
	const rootAttrs = { 'xmlns:xsi': XSI_NS, 'xmlns:xsd': XSD_NS, xmlns: ctx.namespace };
	if (result === undefined || result === null) {
		out.raw(`<${root} xsi:nil="true" xmlns:xsi="${XSI_NS}" xmlns="${ctx.namespace}" />`);
	} else {
		writeResult(out, operation, root, result, rootAttrs);
	}
	return { status: 200, headers: { 'content-type': TEXT_XML }, body: utf8(out.toString()) };
}

function decodeResponse(operation: OperationName, response: ReceivedResponse, ctx: CodecContext): DecodedResponse {
	const type = mediaType(response.headers['content-type']);
	// Decoded only on the error paths: a large body is decoded once, by the XML parser.
	const text =
		response.status !== 200 || (type !== 'text/xml' && type !== 'application/xml') ? fromUtf8(response.body) : '';
	if (response.status !== 200) {
		// ASMX answers GET and POST errors as HTTP 500 text/plain; keep only the first line (no stack
		// trace). Other statuses with text (a proxy's 502) are not the service speaking.
		if (type === 'text/plain' && response.status === 500) {
			return {
				ok: false,
				status: response.status,
				fault: { code: 'Server', message: text.split(/\r?\n/, 1)[0].trim() },
			};
		}
		throw new ProtocolError(`HTTP ${response.status} with content type "${type || 'none'}".`, 'HTTP_STATUS');
	}
	if (type !== 'text/xml' && type !== 'application/xml') {
		const html = looksLikeHtml(text);
		throw new ProtocolError(
			`Expected text/xml but the service answered with ${html ? 'an HTML page' : `content type "${type || 'none'}"`}.`,
			html ? 'HTML_PAGE' : 'CONTENT_TYPE',
		);
	}
	let root;
	try {
		const expectedRoot = OPERATIONS[operation].httpRoot;
		root = parseXml(response.body, undefined, {
			deferLargeText: true,
			stream: streamResult(operation, 1, expectedRoot),
		});
	} catch (error) {
		throw new ProtocolError(
			error instanceof XmlError ? error.message : 'The body is not XML.',
			error instanceof XmlError ? error.code : 'NOT_XML',
		);
	}
	const expected = OPERATIONS[operation].httpRoot;
	if (root.local !== expected) {
		throw new ProtocolError(`Expected the root element <${expected}> but found <${root.name}>.`, 'UNEXPECTED_ROOT');
	}
	if (root.ns !== ctx.namespace) {
		throw new ProtocolError(
			`The response is in namespace "${root.ns}" but the connection expects "${ctx.namespace}". Set the connection's XML namespace to "${root.ns}".`,
			'NAMESPACE',
		);
	}
	try {
		return { ok: true, result: readResult(operation, root) };
	} catch (error) {
		if (error instanceof RecordCodecError) throw new ProtocolError(error.message, 'INVALID_VALUE');
		// A deferred text run is checked when read (see parseXml's deferLargeText).
		if (error instanceof XmlError) throw new ProtocolError(error.message, error.code);
		throw error;
	}
}

function encodeFault(fault: Fault, _ctx: CodecContext, status = 500): EncodedResponse {
	return { status, headers: { 'content-type': TEXT_PLAIN }, body: utf8(fault.message) };
}

export const httpGetBinding: Binding = {
	name: 'httpGet',
	encodeRequest(operation: OperationName, params: AnyParams, ctx: CodecContext): EncodedRequest {
		const query = formText(paramFields(operation, params));
		return {
			method: 'GET',
			path: `${ctx.endpointPath}/${operation}${query ? `?${query}` : ''}`,
			headers: {},
			body: new Uint8Array(0),
		};
	},
	decodeRequest(request: ReceivedRequest, _ctx: CodecContext, options?: DecodeOptions): DecodedRequest {
		const operation = operationFromPath(request.subPath);
		const leniencies: string[] = [];
		const fields = new URLSearchParams(request.query);
		const params = readParamFields(operation, fields, options?.loose ? leniencies : undefined);
		return { operation, params, leniencies };
	},
	encodeResponse,
	decodeResponse,
	encodeFault,
};

export const httpPostBinding: Binding = {
	name: 'httpPost',
	encodeRequest(operation: OperationName, params: AnyParams, ctx: CodecContext): EncodedRequest {
		return {
			method: 'POST',
			path: `${ctx.endpointPath}/${operation}`,
			headers: { 'content-type': FORM },
			body: utf8(formText(paramFields(operation, params))),
		};
	},
	decodeRequest(request: ReceivedRequest, _ctx: CodecContext, options?: DecodeOptions): DecodedRequest {
		const operation = operationFromPath(request.subPath);
		if (mediaType(request.headers['content-type']) !== FORM) {
			throw FaultError.client('MalformedRequest', `HTTP POST requests must have Content-Type ${FORM}.`);
		}
		let text: string;
		try {
			text = utf8Strict(request.body);
		} catch {
			throw FaultError.client('MalformedRequest', 'The form body is not valid UTF-8.');
		}
		const leniencies: string[] = [];
		const params = readParamFields(operation, new URLSearchParams(text), options?.loose ? leniencies : undefined);
		return { operation, params, leniencies };
	},
	encodeResponse,
	decodeResponse,
	encodeFault,
};
