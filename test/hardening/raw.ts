/** Calls with exactly the given parameters through a binding's codec, bypassing client validation. */
import type { RunningEmulator } from '../../src/emulator';
import { getBinding } from '../../src/protocol/bindings';
import type { BindingName, DecodedResponse } from '../../src/protocol/bindings/types';
import { DEFAULT_ENDPOINT_PATHS, OPERATIONS, type AnyParams, type OperationName } from '../../src/protocol/catalogue';
import { rawRequest } from '../integration/support';

export interface RawCall {
	status: number;
	/** The decoded answer; undefined when the bytes could not be decoded at all. */
	decoded?: DecodedResponse;
	decodeError?: unknown;
	text: string;
	ms: number;
}

/** Encodes `params` as they are, sends them and decodes the answer. */
export async function callRaw(
	emulator: RunningEmulator,
	binding: BindingName,
	operation: OperationName,
	params: AnyParams,
	deadlineMs = 15_000,
): Promise<RawCall> {
	const ctx = { namespace: emulator.namespace, endpointPath: DEFAULT_ENDPOINT_PATHS[OPERATIONS[operation].endpoint] };
	const codec = getBinding(binding);
	const encoded = codec.encodeRequest(operation, params, ctx);
	const response = await rawRequest(`${emulator.baseUrl}${encoded.path}`, {
		method: encoded.method,
		headers: encoded.headers,
		body: encoded.method === 'GET' ? undefined : encoded.body,
		deadlineMs,
	});
	const headers: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(response.headers)) {
		headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	try {
		const decoded = codec.decodeResponse(
			operation,
			{ status: response.status, headers, body: new TextEncoder().encode(response.body) },
			ctx,
		);
		return { status: response.status, decoded, text: response.body, ms: response.ms };
	} catch (decodeError) {
		return { status: response.status, decodeError, text: response.body, ms: response.ms };
	}
}

/** The fault of a raw call, or a failure message when it was not a fault. */
export function faultOf(call: RawCall): { code: string; subcode?: string; message: string } {
	if (!call.decoded || call.decoded.ok) {
		throw new Error(`expected a fault, got HTTP ${call.status}: ${call.text.slice(0, 300)}`);
	}
	return call.decoded.fault;
}
