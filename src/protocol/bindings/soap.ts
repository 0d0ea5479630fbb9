/**
 * The SOAP envelope codec, shared by SOAP 1.1 and SOAP 1.2 (transport rules table). The two versions
 * differ only in the envelope namespace, the content type, how the action travels and the fault shape.
 */
import { OPERATIONS, isOperationName, soapAction, type AnyParams, type OperationName } from '../catalogue';
import { RecordCodecError, XSD_NS, XSI_NS, XmlOut } from '../codecs/records';
import { escapeText, parseXml, XmlError, type XmlElement, type XmlParseOptions } from '../codecs/xml';
import { FaultError, type Fault, type FaultCode } from '../faults';
import { contentTypeParam, fromUtf8, looksLikeHtml, mediaType, utf8 } from './content';
import { readParamElements, writeParamElements } from './params';
import { emptyResult, readResult, streamResult, writeResult } from './results';
import {
	ProtocolError,
	type Binding,
	type BindingName,
	type CodecContext,
	type DecodedRequest,
	type DecodedResponse,
	type DecodeOptions,
	type EncodedRequest,
	type EncodedResponse,
	type ReceivedRequest,
	type ReceivedResponse,
} from './types';

export const SOAP11_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENV = 'http://www.w3.org/2003/05/soap-envelope';

interface SoapVersion {
	name: Extract<BindingName, 'soap11' | 'soap12'>;
	envelopeNs: string;
	prefix: string;
	mediaType: string;
	contentType(action: string): string;
	/** Request headers other than Content-Type. */
	actionHeaders(action: string): Record<string, string>;
	/** The action the request names, if any. */
	requestAction(request: ReceivedRequest): string | undefined;
	writeFault(out: XmlOut, fault: Fault, namespace: string): void;
	readFault(el: XmlElement): Fault;
}

const FAULT_CODE_NAMES: Record<'soap11' | 'soap12', Record<FaultCode, string>> = {
	soap11: {
		Client: 'Client',
		Server: 'Server',
		VersionMismatch: 'VersionMismatch',
		MustUnderstand: 'MustUnderstand',
	},
	soap12: {
		Client: 'Sender',
		Server: 'Receiver',
		VersionMismatch: 'VersionMismatch',
		MustUnderstand: 'MustUnderstand',
	},
};

/**
 * A fault code as the binding writes it: SOAP 1.1 Client/Server, SOAP 1.2 Sender/Receiver; undefined
 * for HTTP GET and POST, which answer every error with HTTP 500 and a text, whoever is at fault.
 */
export function faultCodeAsSent(binding: BindingName, code: FaultCode): string | undefined {
	return binding === 'soap11' || binding === 'soap12' ? FAULT_CODE_NAMES[binding][code] : undefined;
}

function faultCodeFromQName(qname: string): FaultCode {
	const local = qname.slice(qname.indexOf(':') + 1).split('.')[0];
	switch (local) {
		case 'Client':
		case 'Sender':
			return 'Client';
		case 'VersionMismatch':
			return 'VersionMismatch';
		case 'MustUnderstand':
			return 'MustUnderstand';
		default:
			return 'Server';
	}
}

function childText(el: XmlElement | undefined, local: string): string | undefined {
	return el?.children.find((c) => c.local === local)?.text;
}

/** Namespace of WCF's ExceptionDetail data contract. */
export const WCF_EXCEPTION_DETAIL_NS = 'http://schemas.datacontract.org/2004/07/System.ServiceModel';

/**
 * The detail element's content: the sub-code in an ExceptionDetail's Type (or a Subcode element, the
 * earlier form), the Detail element, or the raw text of other services.
 */
function readDetail(detail: XmlElement | undefined): { subcode?: string; detail?: string } {
	if (!detail) return {};
	const exception = detail.children.find((c) => c.local === 'ExceptionDetail' && c.ns === WCF_EXCEPTION_DETAIL_NS);
	const subcode = childText(exception, 'Type')?.trim() || childText(detail, 'Subcode');
	const text = childText(detail, 'Detail') ?? (exception ? undefined : detail.text.trim() || undefined);
	return { subcode, detail: text };
}

/**
 * The SOAP 1.1 detail. Its first child is a WCF ExceptionDetail (Message, Type = the sub-code): a WCF
 * client without a fault contract reads the detail as ExceptionDetail and throws a SerializationException
 * on anything else (measured with Mono's WCF), while ASMX proxies, node-soap and suds take any content.
 * The detail text follows in our Detail element.
 */
function writeDetail11(out: XmlOut, fault: Fault, namespace: string): void {
	if (!fault.subcode && !fault.detail) return;
	out.raw('<detail>');
	if (fault.subcode) {
		out.raw(`<ExceptionDetail xmlns="${WCF_EXCEPTION_DETAIL_NS}">`);
		out.leaf('Message', fault.message).leaf('Type', fault.subcode);
		out.raw('</ExceptionDetail>');
	}
	if (fault.detail) out.raw(`<Detail xmlns="${namespace}">`).raw(escapeText(fault.detail)).raw('</Detail>');
	out.raw('</detail>');
}

/** The SOAP 1.2 Detail: the sub-code travels in Code/Subcode, so only the detail text. */
function writeDetail12(out: XmlOut, detail: string, namespace: string): void {
	out.raw(`<soap12:Detail><Detail xmlns="${namespace}">`).raw(escapeText(detail)).raw('</Detail></soap12:Detail>');
}

const SOAP11: SoapVersion = {
	name: 'soap11',
	envelopeNs: SOAP11_ENV,
	prefix: 'soap',
	mediaType: 'text/xml',
	contentType: () => 'text/xml; charset=utf-8',
	actionHeaders: (action) => ({ soapaction: `"${action}"` }),
	requestAction: (request) => {
		const header = request.headers['soapaction'];
		return header === undefined ? undefined : header.trim().replace(/^"(.*)"$/, '$1');
	},
	writeFault(out, fault, namespace) {
		out.raw('<soap:Fault>');
		out.leaf('faultcode', `soap:${FAULT_CODE_NAMES.soap11[fault.code]}`);
		out.leaf('faultstring', fault.message);
		writeDetail11(out, fault, namespace);
		out.raw('</soap:Fault>');
	},
	readFault(el) {
		const code = faultCodeFromQName(childText(el, 'faultcode')?.trim() ?? 'Server');
		return {
			code,
			message: childText(el, 'faultstring') ?? '',
			...readDetail(el.children.find((c) => c.local === 'detail')),
		};
	},
};

const SOAP12: SoapVersion = {
	name: 'soap12',
	envelopeNs: SOAP12_ENV,
	prefix: 'soap12',
	mediaType: 'application/soap+xml',
	contentType: (action) => `application/soap+xml; charset=utf-8; action="${action}"`,
	actionHeaders: () => ({}),
	requestAction: (request) => contentTypeParam(request.headers['content-type'], 'action'),
	writeFault(out, fault, namespace) {
		out.raw('<soap12:Fault><soap12:Code>');
		out.leaf('soap12:Value', `soap12:${FAULT_CODE_NAMES.soap12[fault.code]}`);
		if (fault.subcode) {
			out.raw(
				`<soap12:Subcode><soap12:Value xmlns:mp="${namespace}">mp:${fault.subcode}</soap12:Value></soap12:Subcode>`,
			);
		}
		out.raw('</soap12:Code><soap12:Reason>');
		out.raw('<soap12:Text xml:lang="en">').raw(escapeText(fault.message)).raw('</soap12:Text>');
		out.raw('</soap12:Reason>');
		if (fault.detail) writeDetail12(out, fault.detail, namespace);
		out.raw('</soap12:Fault>');
	},
	readFault(el) {
		const codeEl = el.children.find((c) => c.local === 'Code');
		const code = faultCodeFromQName(childText(codeEl, 'Value')?.trim() ?? 'Receiver');
		const subcodeText = childText(
			codeEl?.children.find((c) => c.local === 'Subcode'),
			'Value',
		)?.trim();
		const reason = el.children.find((c) => c.local === 'Reason');
		const message = childText(reason, 'Text') ?? '';
		const detail = readDetail(el.children.find((c) => c.local === 'Detail'));
		return {
			code,
			message,
			subcode: subcodeText ? subcodeText.slice(subcodeText.indexOf(':') + 1) : detail.subcode,
			detail: detail.detail,
		};
	},
};

function envelopeOpen(version: SoapVersion): string {
	return `<?xml version="1.0" encoding="utf-8"?><${version.prefix}:Envelope xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}" xmlns:${version.prefix}="${version.envelopeNs}"><${version.prefix}:Body>`;
}

function envelopeClose(version: SoapVersion): string {
	return `</${version.prefix}:Body></${version.prefix}:Envelope>`;
}

/** The Content-Type of responses and faults: media type and charset, never the action (ASMX style). */
function responseContentType(version: SoapVersion): string {
	return version.contentType('').split(';').slice(0, 2).join(';');
}

function malformed(message: string): FaultError {
	return FaultError.client('MalformedRequest', message);
}

/**
 * A request that is not safe, well-formed XML (not XML, a DOCTYPE, nesting past the limit): a
 * 'MalformedRequest' Client fault that a server can tell apart from a readable envelope with wrong
 * content, e.g. to answer it with HTTP 400. `xmlCode` is the parser's reason.
 */
export class MalformedXmlError extends FaultError {
	constructor(
		message: string,
		/** XmlError code, or 'EMPTY' for a body without any XML. */
		readonly xmlCode: string,
	) {
		super({ code: 'Client', subcode: 'MalformedRequest', message });
	}
}

/** The message of a request that cannot be read as XML, in the words the emulator has always used. */
function malformedXml(message: string, xmlCode: string): MalformedXmlError {
	switch (xmlCode) {
		case 'XML_DOCTYPE':
			return new MalformedXmlError('A DOCTYPE is not allowed in requests.', xmlCode);
		case 'XML_DEPTH':
			return new MalformedXmlError('The XML is nested deeper than 100 elements.', xmlCode);
		default:
			return new MalformedXmlError(`The request is not well-formed XML: ${message}`, xmlCode);
	}
}

function isBlank(body: Uint8Array): boolean {
	for (let i = 0; i < body.length; i++) {
		const c = body[i];
		if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
	}
	return true;
}

/** Parses an envelope and returns its Body element, or throws with what is wrong. */
function readBody(
	text: string | Uint8Array,
	version: SoapVersion,
	onError: (message: string, reason: string) => Error,
	options?: XmlParseOptions,
): XmlElement {
	return readEnvelope(text, version, onError, options).body;
}

/** Parses an envelope: its root and (first) Body element, or throws with what is wrong. */
function readEnvelope(
	text: string | Uint8Array,
	version: SoapVersion,
	onError: (message: string, reason: string) => Error,
	options?: XmlParseOptions,
): { root: XmlElement; body: XmlElement } {
	let root: XmlElement;
	try {
		root = parseXml(text, undefined, options);
	} catch (error) {
		throw onError(
			error instanceof XmlError ? error.message : 'The body is not XML.',
			error instanceof XmlError ? error.code : 'NOT_XML',
		);
	}
	if (root.local !== 'Envelope') {
		throw onError(`Expected a SOAP Envelope but the document root is <${root.name}>.`, 'UNEXPECTED_ROOT');
	}
	if (root.ns !== version.envelopeNs) {
		throw onError(
			`The Envelope is in namespace "${root.ns}", not the ${version.name === 'soap11' ? 'SOAP 1.1' : 'SOAP 1.2'} namespace "${version.envelopeNs}".`,
			'VERSION_MISMATCH',
		);
	}
	const body = root.children.find((c) => c.local === 'Body' && c.ns === version.envelopeNs);
	if (!body) throw onError('The Envelope has no Body.', 'NO_BODY');
	return { root, body };
}

/** True for a mustUnderstand attribute that asks for the header to be processed ("1" or "true"). */
function mustUnderstand(header: XmlElement, version: SoapVersion): boolean {
	const value = header.attrs.find((a) => a.local === 'mustUnderstand' && a.ns === version.envelopeNs)?.value.trim();
	return value === '1' || value === 'true';
}

/**
 * What ASMX would not accept in an envelope beyond its Body's first element: a header block it must
 * understand (it understands none), a second element in the Body, a second Body. Strict: a fault;
 * loose: one leniency each.
 */
function checkEnvelope(
	root: XmlElement,
	body: XmlElement,
	version: SoapVersion,
	leniencies: string[] | undefined,
): void {
	const refuse = (leniency: string, fault: () => FaultError): void => {
		if (!leniencies) throw fault();
		leniencies.push(leniency);
	};
	for (const header of root.children.filter((c) => c.local === 'Header' && c.ns === version.envelopeNs)) {
		for (const block of header.children.filter((c) => mustUnderstand(c, version))) {
			refuse(
				`the SOAP header <${block.name}> has mustUnderstand set and the service understands no header`,
				() =>
					new FaultError({
						code: 'MustUnderstand',
						subcode: 'MalformedRequest',
						message: `SOAP header ${block.local} was not understood.`,
					}),
			);
		}
	}
	const bodies = root.children.filter((c) => c.local === 'Body' && c.ns === version.envelopeNs);
	if (bodies.length > 1) {
		refuse(`the Envelope has ${bodies.length} Body elements; production reads one`, () =>
			malformed(`The Envelope has ${bodies.length} Body elements; a SOAP message has exactly one.`),
		);
	}
	if (body.children.length > 1) {
		refuse(`the SOAP Body holds ${body.children.length} elements; production reads the first only`, () =>
			malformed(
				`The SOAP Body holds ${body.children.length} elements (${body.children.map((c) => `<${c.name}>`).join(', ')}); it must hold exactly one, the operation element.`,
			),
		);
	}
}

function createSoapBinding(version: SoapVersion): Binding {
	// Fixed per version, so built once rather than on every response.
	const open = envelopeOpen(version);
	const close = envelopeClose(version);
	const answerContentType = responseContentType(version);
	return {
		name: version.name,

		encodeRequest(operation: OperationName, params: AnyParams, ctx: CodecContext): EncodedRequest {
			const action = soapAction(ctx.namespace, operation);
			const out = new XmlOut().raw(open).raw(`<${operation} xmlns="${ctx.namespace}">`);
			writeParamElements(out, operation, params);
			out.raw(`</${operation}>`).raw(close);
			return {
				method: 'POST',
				path: ctx.endpointPath,
				headers: { 'content-type': version.contentType(action), ...version.actionHeaders(action) },
				body: utf8(out.toString()),
			};
		},

		decodeRequest(request: ReceivedRequest, ctx: CodecContext, options?: DecodeOptions): DecodedRequest {
			if (isBlank(request.body)) {
				throw new MalformedXmlError('The request body is empty; a SOAP envelope was expected.', 'EMPTY');
			}
			const leniencies: string[] = [];
			const loose = options?.loose ? leniencies : undefined;
			const { root, body } = readEnvelope(request.body, version, (message, reason) => {
				if (reason === 'VERSION_MISMATCH') {
					return new FaultError({ code: 'VersionMismatch', subcode: 'MalformedRequest', message });
				}
				return reason.startsWith('XML_') || reason === 'NOT_XML'
					? malformedXml(message, reason)
					: malformed(message);
			});
			const opElement = body.children[0];
			if (!opElement) {
				throw malformed('The SOAP Body is empty: it must contain one element named after the operation.');
			}
			checkEnvelope(root, body, version, loose);
			if (opElement.ns !== ctx.namespace) {
				throw FaultError.client(
					'UnknownOperation',
					`The element <${opElement.local}> is in namespace "${opElement.ns}"; this service expects "${ctx.namespace}".`,
				);
			}
			if (!isOperationName(opElement.local)) {
				throw FaultError.client(
					'UnknownOperation',
					`Unknown operation ${opElement.local} on ${ctx.endpointPath}.`,
				);
			}
			const operation = opElement.local;
			const action = version.requestAction(request);
			if (action && action !== soapAction(ctx.namespace, operation)) {
				throw FaultError.client(
					'MalformedRequest',
					`The action "${action}" does not match the body element ${operation} (expected "${soapAction(ctx.namespace, operation)}").`,
				);
			}
			return { operation, params: readParamElements(operation, opElement, ctx.namespace, loose), leniencies };
		},

		encodeResponse(operation: OperationName, result: unknown, ctx: CodecContext): EncodedResponse {
			const out = new XmlOut().raw(open).raw(`<${operation}Response xmlns="${ctx.namespace}">`);
			if (result !== undefined && result !== null) {
				writeResult(out, operation, OPERATIONS[operation].soapResult, result);
			}
			out.raw(`</${operation}Response>`).raw(close);
			return { status: 200, headers: { 'content-type': answerContentType }, body: utf8(out.toString()) };
		},

		decodeResponse(operation: OperationName, response: ReceivedResponse, ctx: CodecContext): DecodedResponse {
			const type = mediaType(response.headers['content-type']);
			if (type !== version.mediaType) {
				// Decoded only here: a large body is decoded once, by the XML parser.
				const text = fromUtf8(response.body);
				if (response.status !== 200) {
					throw new ProtocolError(
						`HTTP ${response.status} with content type "${type || 'none'}".`,
						'HTTP_STATUS',
					);
				}
				const what = looksLikeHtml(text) ? 'an HTML page' : `content type "${type || 'none'}"`;
				throw new ProtocolError(
					`Expected ${version.mediaType} but the service answered with ${what}.`,
					looksLikeHtml(text) ? 'HTML_PAGE' : 'CONTENT_TYPE',
				);
			}
			// The result is read while parsing (Envelope/Body/{op}Response/{op}Result), and attachments
			// are decoded straight from the bytes.
			const stream = streamResult(operation, 4, OPERATIONS[operation].soapResult, `${operation}Response`);
			const body = readBody(response.body, version, (message, reason) => new ProtocolError(message, reason), {
				deferLargeText: true,
				stream,
			});
			const first = body.children[0];
			if (first && first.local === 'Fault' && first.ns === version.envelopeNs) {
				return { ok: false, fault: version.readFault(first), status: response.status };
			}
			if (response.status !== 200) {
				throw new ProtocolError(`HTTP ${response.status} without a SOAP fault.`, 'HTTP_STATUS');
			}
			if (!first || first.local !== `${operation}Response`) {
				throw new ProtocolError(
					`Expected <${operation}Response> in the SOAP Body but found ${first ? `<${first.name}>` : 'nothing'}.`,
					'UNEXPECTED_ROOT',
				);
			}
			if (first.ns !== ctx.namespace) {
				throw new ProtocolError(
					`The response is in namespace "${first.ns}" but the connection expects "${ctx.namespace}". Set the connection's XML namespace to "${first.ns}".`,
					'NAMESPACE',
				);
			}
			const resultElement = first.children.find((c) => c.local === OPERATIONS[operation].soapResult);
			try {
				return {
					ok: true,
					result: resultElement ? readResult(operation, resultElement) : emptyResult(operation),
				};
			} catch (error) {
				if (error instanceof RecordCodecError) throw new ProtocolError(error.message, 'INVALID_VALUE');
				// A deferred text run is checked when read (see parseXml's deferLargeText).
				if (error instanceof XmlError) throw new ProtocolError(error.message, error.code);
				throw error;
			}
		},

		encodeFault(fault: Fault, ctx: CodecContext, status = 500): EncodedResponse {
			const out = new XmlOut().raw(open);
			version.writeFault(out, fault, ctx.namespace);
			out.raw(close);
			return { status, headers: { 'content-type': answerContentType }, body: utf8(out.toString()) };
		},
	};
}

export const soap11Binding = createSoapBinding(SOAP11);
export const soap12Binding = createSoapBinding(SOAP12);
