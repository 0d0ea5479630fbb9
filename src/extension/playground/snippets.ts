/**
 * The same request as code: curl, Python (zeep), PHP (SoapClient), C# (HttpClient with the SOAP
 * envelope) and TypeScript (this project's client). Snippets read the API key and password from the
 * environment variables MP_API_KEY and MP_PASSWORD; only curl can include the real values, and only
 * when the caller passes them (after the user's explicit consent).
 */
import { methodName } from '../../client';
import { OPERATIONS, type OperationName, type ParamRole } from '../../protocol/catalogue';
import { serviceNameOf } from '../../protocol/wsdl';
import type { BindingName } from '../../protocol/bindings/types';
import { substitutePlaceholders, type ConnectionValues, type RequestParamValue } from '../../protocol/requestFile';
import type { RawDraft } from '../../shared/playgroundMessages';
import { encodeFormRequest, prepareRawRequest, urlPrefix, type PreparedRequest, type Target } from './request';

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

/** One form request, as every snippet builder reads it. */
export interface SnippetRequest {
	operation: OperationName;
	binding: BindingName;
	params: Readonly<Record<string, RequestParamValue>>;
	target: Target;
	/** The connection's values; secrets among them never reach a snippet unless curl is asked to include them. */
	values: ConnectionValues;
}

/** curl for a form request. */
export function curlForForm(request: SnippetRequest, includeSecrets = false): string {
	const { operation, binding, params, target, values } = request;
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

/** The languages a request can be copied as. */
export const SNIPPET_LANGUAGES = [
	{ id: 'curl', label: 'curl' },
	{ id: 'python', label: 'Python (zeep)' },
	{ id: 'php', label: 'PHP (SoapClient)' },
	{ id: 'csharp', label: 'C# (HttpClient)' },
	{ id: 'typescript', label: "TypeScript (this project's client)" },
] as const;
export type SnippetLanguage = (typeof SNIPPET_LANGUAGES)[number]['id'];

/** The same form request in a language; secrets always come from environment variables here. */
export function requestSnippet(language: SnippetLanguage, request: SnippetRequest): string {
	switch (language) {
		case 'curl':
			return curlForForm(request, false);
		case 'python':
			return pythonZeepSnippet(request);
		case 'php':
			return phpSoapClientSnippet(request);
		case 'csharp':
			return csharpHttpClientSnippet(request);
		case 'typescript':
			return typescriptClientSnippet(request);
	}
}

/** One parameter as a snippet sees it: a literal value, or a secret read from the environment. */
type SnippetValue = { secret: 'apiKey' | 'password' } | { literal: RequestParamValue };

/** The parameters in catalogue order: secrets as environment references, placeholders filled in. */
function snippetParams(
	operation: OperationName,
	params: Readonly<Record<string, RequestParamValue>>,
	values: ConnectionValues,
): [string, SnippetValue][] {
	const entries: [string, SnippetValue][] = [];
	const fill = (text: string): string => substitutePlaceholders(text, { ...values, apiKey: '', password: '' });
	for (const param of OPERATIONS[operation].params) {
		const value = params[param.name];
		if (value === undefined) continue;
		const role: ParamRole | undefined = param.role;
		if (role === 'apiKey' || role === 'password') {
			entries.push([param.name, { secret: role }]);
			continue;
		}
		const literal = typeof value === 'string' ? fill(value) : Array.isArray(value) ? value.map(fill) : value;
		if (literal === '' && role) continue;
		entries.push([param.name, { literal }]);
	}
	return entries;
}

function wsdlUrl(operation: OperationName, target: Target): string {
	return `${urlPrefix(target.baseUrl)}${target.paths[OPERATIONS[operation].endpoint]}?WSDL`;
}

function pythonLiteral(value: RequestParamValue): string {
	if (typeof value === 'boolean') return value ? 'True' : 'False';
	if (typeof value === 'number') return String(value);
	if (Array.isArray(value)) return `{"string": [${value.map(pythonLiteral).join(', ')}]}`;
	return JSON.stringify(value);
}

/** Python with zeep, from the endpoint's WSDL, on the port of the binding. */
export function pythonZeepSnippet(request: SnippetRequest): string {
	const { operation, binding, params, target, values } = request;
	const endpoint = OPERATIONS[operation].endpoint;
	const service = serviceNameOf(endpoint, target.paths[endpoint]);
	const port = `${service}${{ soap11: 'Soap', soap12: 'Soap12', httpGet: 'HttpGet', httpPost: 'HttpPost' }[binding]}`;
	const args = snippetParams(operation, params, values).map(
		([name, value]) =>
			`    ${name}=${'secret' in value ? `os.environ["${CURL_ENV[value.secret]}"]` : pythonLiteral(value.literal)},`,
	);
	const lines = [
		'# pip install zeep',
		'import os',
		'',
		'from zeep import Client',
		'',
		`client = Client(${JSON.stringify(wsdlUrl(operation, target))})`,
		binding === 'soap11'
			? `service = client.service  # port ${port}`
			: `service = client.bind(${JSON.stringify(service)}, ${JSON.stringify(port)})`,
		args.length > 0 ? `result = service.${operation}(\n${args.join('\n')}\n)` : `result = service.${operation}()`,
		'print(result)',
	];
	return lines.join('\n');
}

function phpLiteral(value: RequestParamValue): string {
	if (typeof value === 'boolean' || typeof value === 'number') return String(value);
	if (Array.isArray(value)) return `['string' => [${value.map(phpLiteral).join(', ')}]]`;
	return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** PHP's SoapClient from the endpoint's WSDL (SOAP 1.1 or 1.2; SoapClient speaks no HTTP GET/POST). */
export function phpSoapClientSnippet(request: SnippetRequest): string {
	const { operation, binding, params, target, values } = request;
	const version = binding === 'soap12' ? 'SOAP_1_2' : 'SOAP_1_1';
	const args = snippetParams(operation, params, values).map(
		([name, value]) =>
			`    '${name}' => ${'secret' in value ? `getenv('${CURL_ENV[value.secret]}')` : phpLiteral(value.literal)},`,
	);
	const resultName = OPERATIONS[operation].soapResult;
	return [
		'<?php',
		binding === 'httpGet' || binding === 'httpPost'
			? `// SoapClient speaks SOAP only: this call uses SOAP 1.1 instead of ${binding}.`
			: undefined,
		`$client = new SoapClient(${phpLiteral(wsdlUrl(operation, target))}, ['soap_version' => ${version}, 'exceptions' => true]);`,
		`$response = $client->${operation}([`,
		...args,
		']);',
		`var_dump($response->${resultName});`,
	]
		.filter((line) => line !== undefined)
		.join('\n');
}

/** A C# verbatim string. */
function csharpString(text: string): string {
	return `@"${text.replace(/"/g, '""')}"`;
}

// Tokens that survive URL, form and XML encoding, replaced by C# expressions afterwards.
const CSHARP_TOKENS = { apiKey: 'MPWBCSAPIKEY', password: 'MPWBCSPASSWORD' } as const;

/** C# with HttpClient: the exact request of the binding (the SOAP envelope, or the GET/POST form). */
export function csharpHttpClientSnippet(request: SnippetRequest): string {
	const { operation, binding, params, target, values } = request;
	const prepared = encodeFormRequest(operation, binding, params, target, {
		...values,
		apiKey: CSHARP_TOKENS.apiKey,
		password: CSHARP_TOKENS.password,
	});
	const soap = binding === 'soap11' || binding === 'soap12';
	// Each secret is escaped for where it lands: XML text in an envelope, a URL or form value otherwise.
	const escapeFor = (variable: string): string =>
		soap ? `SecurityElement.Escape(${variable})` : `Uri.EscapeDataString(${variable})`;
	const withSecrets = (text: string): string =>
		text
			.split(CSHARP_TOKENS.apiKey)
			.map((part) =>
				part
					.split(CSHARP_TOKENS.password)
					.map(csharpString)
					.join(` + ${escapeFor('password')} + `),
			)
			.join(` + ${escapeFor('apiKey')} + `);
	const headers = prepared.headers.filter(([name]) => name.toLowerCase() !== 'content-type');
	const contentType = prepared.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
	const body = Buffer.from(prepared.body).toString('utf8');
	const lines = [
		'using System.Net.Http.Headers;',
		'using System.Security;',
		'using System.Text;',
		'',
		`var apiKey = Environment.GetEnvironmentVariable("${CURL_ENV.apiKey}") ?? "";`,
		`var password = Environment.GetEnvironmentVariable("${CURL_ENV.password}") ?? "";`,
		'using var http = new HttpClient();',
		`using var request = new HttpRequestMessage(HttpMethod.${prepared.method === 'GET' ? 'Get' : 'Post'}, ${withSecrets(prepared.url)});`,
		...headers.map(
			([name, value]) => `request.Headers.TryAddWithoutValidation(${csharpString(name)}, ${withSecrets(value)});`,
		),
	];
	if (prepared.method !== 'GET') {
		lines.push(`request.Content = new StringContent(${withSecrets(body)}, Encoding.UTF8);`);
		if (contentType) {
			lines.push(
				`request.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(${csharpString(contentType)});`,
			);
		}
	}
	lines.push(
		'using var response = await http.SendAsync(request);',
		'Console.WriteLine((int)response.StatusCode);',
		'Console.WriteLine(await response.Content.ReadAsStringAsync());',
	);
	return lines.join('\n');
}

/** A small TypeScript program that calls the operation through this project's typed client. */
export function typescriptClientSnippet(request: SnippetRequest): string {
	const { operation, binding, params, target, values } = request;
	const filled: Record<string, RequestParamValue> = {};
	for (const [name, value] of snippetParams(operation, params, values)) {
		if ('literal' in value) filled[name] = value.literal;
	}
	const options = [
		`	baseUrl: ${literal(target.baseUrl)},`,
		`	namespace: ${literal(target.namespace)},`,
		target.paths.posting !== '/SOAP/Posting.asmx'
			? `	paths: { posting: ${literal(target.paths.posting)} },`
			: undefined,
		binding === 'soap11' ? undefined : `	binding: '${binding}',`,
		'	credentials: {',
		`		apiKey: process.env.${CURL_ENV.apiKey} ?? '',`,
		`		username: ${values.username ? literal(values.username) : 'process.env.MP_USERNAME'},`,
		`		password: process.env.${CURL_ENV.password},`,
		values.culture ? `		culture: ${literal(values.culture)},` : undefined,
		'	},',
	].filter((line) => line !== undefined);
	return [
		'// The typed client of this project (src/client); credentials come from the environment.',
		"import { MultipostingClient } from './src/client';",
		'',
		'const client = new MultipostingClient({',
		...options,
		'});',
		clientCallSnippet(operation, 'soap11', filled),
		'console.log(result);',
		'await client.close();',
	].join('\n');
}
