/**
 * `valid against wsdl` for request files: the response is checked against the schema of its
 * endpoint's own WSDL (fetched once per endpoint from `?WSDL`) with an XSD validator behind the
 * protocol's port (libxml2 in practice).
 */
import type { Endpoint } from '../protocol/catalogue';
import type { SchemaVerdict } from '../protocol/requestFiles/evaluate';
import { urlPrefix, type RequestTarget } from '../protocol/requestFiles/prepare';
import {
	checkResponseAgainstWsdl,
	formatSchemaProblems,
	type XsdValidatorPort,
} from '../protocol/schema/wsdlValidation';
import { targetNamespaceOf } from '../protocol/wsdl';
import type { SchemaValidator } from './requestFileRunner';
import { sendRequest } from './transport';

/** A SchemaValidator for a target; `loadPort` is called once, when the first check needs it. */
export function wsdlSchemaValidator(
	target: RequestTarget,
	loadPort: () => Promise<XsdValidatorPort>,
	timeoutMs = 30_000,
): SchemaValidator {
	const wsdls = new Map<Endpoint, Promise<string>>();
	let port: Promise<XsdValidatorPort> | undefined;
	const wsdlOf = (endpoint: Endpoint): Promise<string> => {
		let pending = wsdls.get(endpoint);
		if (!pending) {
			pending = fetchWsdl(target, endpoint, timeoutMs);
			wsdls.set(endpoint, pending);
		}
		return pending;
	};
	return async ({ endpoint, binding, body }): Promise<SchemaVerdict> => {
		let validator: XsdValidatorPort;
		try {
			port ??= loadPort();
			validator = await port;
		} catch (error) {
			return {
				unavailable: `no XSD validator could be loaded (${error instanceof Error ? error.message : String(error)}).`,
			};
		}
		let wsdl: string;
		try {
			wsdl = await wsdlOf(endpoint);
		} catch (error) {
			return { unavailable: error instanceof Error ? error.message : String(error) };
		}
		const problems = checkResponseAgainstWsdl(validator, { wsdl, namespace: target.namespace, binding, body });
		return problems.length === 0
			? { valid: true }
			: { valid: false, errors: formatSchemaProblems(problems).split('\n') };
	};
}

/** The WSDL an endpoint serves at `?WSDL`; throws an Error saying why it could not be fetched. */
async function fetchWsdl(
	target: Pick<RequestTarget, 'baseUrl' | 'paths'>,
	endpoint: Endpoint,
	timeoutMs: number,
): Promise<string> {
	const sent = await sendRequest(
		{
			method: 'GET',
			url: `${urlPrefix(target.baseUrl)}${target.paths[endpoint]}?WSDL`,
			headers: [],
			body: new Uint8Array(0),
		},
		{ timeoutMs, maxBodyBytes: 8 * 1024 * 1024 },
	);
	if (!sent.response || sent.response.status !== 200 || sent.failure) {
		throw new Error(
			`the ${endpoint} endpoint's WSDL could not be fetched (${sent.response ? `HTTP ${sent.response.status}` : (sent.failure?.kind ?? 'no answer')}).`,
		);
	}
	return new TextDecoder().decode(sent.response.body);
}

/**
 * The service namespace of a target, read from its posting endpoint's WSDL (production uses one
 * fixed namespace whatever the host, so the URL alone does not tell it); why not, when it cannot be read.
 */
export async function serviceNamespaceOf(
	target: Pick<RequestTarget, 'baseUrl' | 'paths'>,
	timeoutMs: number,
): Promise<{ namespace: string } | { problem: string }> {
	let wsdl: string;
	try {
		wsdl = await fetchWsdl(target, 'posting', timeoutMs);
	} catch (error) {
		return { problem: error instanceof Error ? error.message : String(error) };
	}
	const namespace = targetNamespaceOf(wsdl);
	return namespace
		? { namespace }
		: { problem: "the posting endpoint's ?WSDL is not a WSDL with a targetNamespace." };
}
