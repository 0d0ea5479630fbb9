/** A journaled answer read back with the catalogue, as the client that sent the request reads it. */
import { getBinding } from '../../protocol/bindings';
import type { BindingName, DecodedResponse } from '../../protocol/bindings/types';
import type { OperationName } from '../../protocol/catalogue';
import type { JournalEntry } from './types';

/**
 * The answer of `entry` decoded as `operation`'s in `binding`, against the endpoint the request went to
 * (its path: SOAP posts to the endpoint, HTTP GET/POST to the endpoint's `/<operation>`). Throws when
 * the body is not such an answer.
 */
export function decodeJournaledAnswer(
	entry: JournalEntry,
	operation: OperationName,
	binding: BindingName,
	namespace: string,
): DecodedResponse {
	const soap = binding === 'soap11' || binding === 'soap12';
	const endpointPath = soap ? entry.path : entry.path.slice(0, entry.path.lastIndexOf('/'));
	return getBinding(binding).decodeResponse(
		operation,
		{ status: entry.status, headers: entry.response.headers, body: Buffer.from(entry.response.body.text, 'utf8') },
		{ namespace, endpointPath },
	);
}
