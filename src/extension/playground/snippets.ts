/**
 * "Copy as curl" and "Copy as client call". curl snippets refer to credentials as $MP_API_KEY and
 * $MP_PASSWORD unless the caller passes the real values (after the user's explicit consent); client
 * calls never contain credentials: the client fills them from its own options.
 */
import { methodName } from '../../client';
import { OPERATIONS, type OperationName } from '../../protocol/catalogue';
import type { BindingName } from '../../protocol/bindings/types';
import type { ConnectionValues, RequestParamValue } from '../../protocol/requestFile';
import type { RawDraft } from '../../shared/playgroundMessages';
import { encodeFormRequest, prepareRawRequest, type PreparedRequest, type Target } from './request';

/** Environment variables the curl snippet uses for secrets. */
export const CURL_ENV = { apiKey: 'MP_API_KEY', password: 'MP_PASSWORD' } as const;

// Tokens that survive URL and XML encoding, replaced by shell variable references afterwards.
const API_KEY_TOKEN = 'MPWBSECRETAPIKEY';
const PASSWORD_TOKEN = 'MPWBSECRETPASSWORD';

/** Quotes text for a POSIX shell: single quotes, with ' written as '\''. */
export function shellQuote(text: string): string {
	return `'${text.replace(/'/g, `'\\''`)}'`;
}

function quoteWithEnv(text: string, includeSecrets: boolean): string {
	const quoted = shellQuote(text);
	if (includeSecrets) return quoted;
	return quoted
		.split(API_KEY_TOKEN)
		.join(`'"$${CURL_ENV.apiKey}"'`)
		.split(PASSWORD_TOKEN)
		.join(`'"$${CURL_ENV.password}"'`);
}

/** The connection values used for a snippet: secrets replaced by tokens unless included. */
function snippetValues(values: ConnectionValues, includeSecrets: boolean): ConnectionValues {
	return includeSecrets ? values : { ...values, apiKey: API_KEY_TOKEN, password: PASSWORD_TOKEN };
}

/** A curl command line for a prepared request. */
export function curlFromPrepared(prepared: PreparedRequest, includeSecrets: boolean): string {
	const parts = [`curl -sS -X ${shellQuote(prepared.method)} ${quoteWithEnv(prepared.url, includeSecrets)}`];
	for (const [name, value] of prepared.headers) parts.push(`-H ${quoteWithEnv(`${name}: ${value}`, includeSecrets)}`);
	if (prepared.body.byteLength > 0 && prepared.method.toUpperCase() !== 'GET') {
		parts.push(`--data-binary ${quoteWithEnv(Buffer.from(prepared.body).toString('utf8'), includeSecrets)}`);
	}
	return parts.join(' \\\n  ');
}

/** curl for a form request. */
export function curlForForm(
	operation: OperationName,
	binding: BindingName,
	params: Readonly<Record<string, RequestParamValue>>,
	target: Target,
	values: ConnectionValues,
	includeSecrets = false,
): string {
	return curlFromPrepared(
		encodeFormRequest(operation, binding, params, target, snippetValues(values, includeSecrets)),
		includeSecrets,
	);
}

/** curl for a raw draft; throws when the draft cannot be prepared. */
export function curlForRaw(draft: RawDraft, target: Target, values: ConnectionValues, includeSecrets = false): string {
	const prepared = prepareRawRequest(draft, target.baseUrl, snippetValues(values, includeSecrets));
	if (!prepared.request) throw new Error(prepared.issues.join(' '));
	return curlFromPrepared(prepared.request, includeSecrets);
}

/**
 * A call of the project's TypeScript client, e.g. `await client.getCurrency({ sCultureID: 'en-GB' })`.
 * Credential parameters and placeholder values are left out: the client fills them.
 */
export function clientCallSnippet(
	operation: OperationName,
	binding: BindingName,
	params: Readonly<Record<string, RequestParamValue>>,
): string {
	const entries: string[] = [];
	for (const param of OPERATIONS[operation].params) {
		const value = params[param.name];
		if (value === undefined || param.role === 'apiKey' || param.role === 'password') continue;
		if (typeof value === 'string' && value.includes('{{connection.')) continue;
		entries.push(`${param.name}: ${literal(value)}`);
	}
	const args = entries.length > 0 ? `{ ${entries.join(', ')} }` : '{}';
	const options = binding === 'soap11' ? '' : `, { binding: '${binding}' }`;
	return `const result = await client.${methodName(operation)}(${args}${options});`;
}

function literal(value: RequestParamValue): string {
	if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
	if (typeof value === 'string') {
		return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\r/g, '\\r').replace(/\n/g, '\\n')}'`;
	}
	return String(value);
}
