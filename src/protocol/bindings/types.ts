/**
 * One interface for the four bindings (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST). The client uses the
 * request encoder and response decoder; the emulator uses the request decoder and the response and
 * fault encoders. Codecs are pure: they turn values into bytes and back, nothing else.
 */
import type { AnyParams, OperationName } from '../catalogue';
import type { Fault } from '../faults';

export type BindingName = 'soap11' | 'soap12' | 'httpGet' | 'httpPost';

export const BINDING_NAMES: readonly BindingName[] = ['soap11', 'soap12', 'httpGet', 'httpPost'];

export const BINDING_LABELS: Readonly<Record<BindingName, string>> = {
	soap11: 'SOAP 1.1',
	soap12: 'SOAP 1.2',
	httpGet: 'HTTP GET',
	httpPost: 'HTTP POST',
};

/** Where a request goes: the namespace of the messages and the path of the endpoint. */
export interface CodecContext {
	/** The XML namespace of all messages ({xml_namespace}). */
	namespace: string;
	/** Path of the endpoint the operation belongs to, e.g. /SOAP/Administration.asmx. */
	endpointPath: string;
}

/** An HTTP request as bytes, before it is sent (client) or after it was received (emulator). */
export interface EncodedRequest {
	method: 'GET' | 'POST';
	/** Path plus query string, e.g. /SOAP/Posting.asmx/GetCurrency?sAPIKey=... */
	path: string;
	/** Header names in lower case. */
	headers: Record<string, string>;
	body: Uint8Array;
}

/** What the emulator hands to decodeRequest: what it read from the socket. */
export interface ReceivedRequest {
	method: string;
	/** Path after the endpoint path, e.g. '' for SOAP or '/GetCurrency' for GET/POST. */
	subPath: string;
	/** The raw query string without '?'. */
	query: string;
	/** Header names in lower case. */
	headers: Record<string, string | undefined>;
	body: Uint8Array;
}

export interface DecodedRequest {
	operation: OperationName;
	params: AnyParams;
	/**
	 * What a loose decode accepted that an ASP.NET ASMX service would refuse or ignore, one sentence
	 * each (e.g. "missing parameter sCultureID"); empty in strict mode, which refuses or ignores instead.
	 */
	leniencies: string[];
}

/** How requests are read: strictly like ASMX (default), or loosely with every leniency reported. */
export interface DecodeOptions {
	loose?: boolean;
}

export interface EncodedResponse {
	status: number;
	headers: Record<string, string>;
	body: Uint8Array;
}

/** A response as the client received it. */
export interface ReceivedResponse {
	status: number;
	/** Header names in lower case. */
	headers: Record<string, string | undefined>;
	body: Uint8Array;
}

/**
 * The outcome of decoding a response: the typed result, or the fault the service answered with.
 * Anything else (wrong content type, not XML, wrong root) throws a ProtocolError.
 */
export type DecodedResponse = { ok: true; result: unknown } | { ok: false; fault: Fault; status: number };

export interface Binding {
	readonly name: BindingName;
	encodeRequest(operation: OperationName, params: AnyParams, ctx: CodecContext): EncodedRequest;
	decodeRequest(request: ReceivedRequest, ctx: CodecContext, options?: DecodeOptions): DecodedRequest;
	encodeResponse(operation: OperationName, result: unknown, ctx: CodecContext): EncodedResponse;
	decodeResponse(operation: OperationName, response: ReceivedResponse, ctx: CodecContext): DecodedResponse;
	/** A fault response; status defaults to 500 as ASMX answers faults. */
	encodeFault(fault: Fault, ctx: CodecContext, status?: number): EncodedResponse;
}

/** Raised when bytes do not form what the binding expects (client side: unexpected response). */
export class ProtocolError extends Error {
	override readonly name = 'ProtocolError';
	constructor(
		message: string,
		/** Stable reason, e.g. 'CONTENT_TYPE', 'NOT_XML', 'UNEXPECTED_ROOT', 'INVALID_VALUE'. */
		readonly reason: string,
	) {
		super(message);
	}
}
