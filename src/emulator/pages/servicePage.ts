/**
 * Human-readable pages in the style of ASMX: the service page of an endpoint (its operations with
 * their parameters) and one page per operation with a sample request for each of the four bindings.
 * The samples are written by the bindings' own request encoders, so they cannot drift from the wire.
 */
import { getBinding } from '../../protocol/bindings';
import { BINDING_LABELS, BINDING_NAMES, type EncodedRequest } from '../../protocol/bindings/types';
import {
	OPERATIONS,
	operationsOf,
	type AnyParams,
	type Endpoint,
	type OperationName,
	type ParamSpec,
} from '../../protocol/catalogue';
import { escapeHtml } from '../../shared/html';
import { relativeHref, renderPage } from './html';

/** What the pages need to know about the running emulator. */
export interface PageContext {
	/** http://host:port */
	baseUrl: string;
	namespace: string;
	paths: Readonly<Record<Endpoint, string>>;
}

const ENDPOINT_TITLES: Readonly<Record<Endpoint, string>> = {
	posting: 'Posting endpoint',
	administration: 'Administration endpoint',
};

function paramType(param: ParamSpec): string {
	return param.type === 'string[]' ? `list of ${param.itemElement ?? 'string'}` : param.type;
}

function paramTable(params: readonly ParamSpec[]): string {
	if (params.length === 0) return '<p>No parameters.</p>';
	const rows = params.map(
		(p) =>
			`<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(paramType(p))}</td><td>${escapeHtml(p.doc ?? '')}</td></tr>`,
	);
	return `<table><caption class="note">Parameters, in order</caption><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The service page of an endpoint: every operation with its description and parameters. */
export function renderServicePage(endpoint: Endpoint, page: PageContext, nonce: string): string {
	const path = page.paths[endpoint];
	const sections = operationsOf(endpoint).map((name) => {
		const op = OPERATIONS[name];
		return (
			`<section aria-labelledby="op-${escapeHtml(name)}"><h2 id="op-${escapeHtml(name)}"><a href="${escapeHtml(relativeHref(path, `${path}?op=${name}`))}">${escapeHtml(name)}</a></h2>` +
			`<p>${escapeHtml(op.doc)}</p>${paramTable(op.params)}</section>`
		);
	});
	const body =
		`<h1>${escapeHtml(ENDPOINT_TITLES[endpoint])} (sandbox)</h1>` +
		`<p>The following operations are supported. For a formal definition, see the <a href="${escapeHtml(relativeHref(path, `${path}?WSDL`))}">service description (WSDL)</a>.</p>` +
		`<p class="note">XML namespace: <code>${escapeHtml(page.namespace)}</code>. Endpoint: <code>${escapeHtml(page.baseUrl + path)}</code>.</p>` +
		`<p><a href="${escapeHtml(relativeHref(path, '/'))}">All endpoints</a></p>` +
		sections.join('');
	// ASMX's service page links its DISCO document, which `wsdl.exe <endpoint URL>` and Visual Studio's
	// "Add Web Reference" follow from the bare endpoint URL.
	const disco = `<link rel="alternate" type="text/xml" href="${escapeHtml(`${path}?disco`)}" />`;
	return renderPage(`${ENDPOINT_TITLES[endpoint]} - Multiposting sandbox`, body, nonce, disco);
}

const DISCO_NS = {
	disco: 'http://schemas.xmlsoap.org/disco/',
	scl: 'http://schemas.xmlsoap.org/disco/scl/',
	soap: 'http://schemas.xmlsoap.org/disco/soap/',
} as const;

/**
 * The DISCO document of an endpoint (`?disco`), as ASMX writes it: a contractRef to the WSDL and one
 * soap entry per SOAP port (bindings <Service>Soap and <Service>Soap12 in the service namespace).
 */
export function renderDisco(endpoint: Endpoint, page: PageContext, serviceName: string): string {
	const url = escapeHtml(page.baseUrl + page.paths[endpoint]);
	const ns = escapeHtml(page.namespace);
	const soap = (prefix: string, binding: string): string =>
		`<soap address="${url}" xmlns:${prefix}="${ns}" binding="${prefix}:${escapeHtml(binding)}" xmlns="${DISCO_NS.soap}" />`;
	return (
		'<?xml version="1.0" encoding="utf-8"?>' +
		`<discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="${DISCO_NS.disco}">` +
		`<contractRef ref="${url}?wsdl" docRef="${url}" xmlns="${DISCO_NS.scl}" />` +
		soap('q1', `${serviceName}Soap`) +
		soap('q2', `${serviceName}Soap12`) +
		'</discovery>'
	);
}

/** Placeholder values shown in the samples, as ASMX shows type names. */
function placeholders(operation: OperationName): AnyParams {
	const params: AnyParams = {};
	for (const param of OPERATIONS[operation].params) {
		params[param.name] =
			param.type === 'int'
				? 0
				: param.type === 'boolean'
					? true
					: param.type === 'string[]'
						? ['string', 'string']
						: 'string';
	}
	return params;
}

const HEADER_NAMES: Readonly<Record<string, string>> = { 'content-type': 'Content-Type', soapaction: 'SOAPAction' };

/** Indents compact XML written by the encoders, one element per line, for reading. */
export function indentXml(xml: string): string {
	const tokens = xml.split(/(<[^>]+>)/).filter((t) => t !== '');
	const lines: string[] = [];
	let depth = 0;
	for (let i = 0; i < tokens.length; i++) {
		const token = tokens[i];
		const pad = '  '.repeat(depth);
		if (token.startsWith('</')) {
			depth = Math.max(0, depth - 1);
			lines.push('  '.repeat(depth) + token);
		} else if (token.startsWith('<?') || token.endsWith('/>') || !token.startsWith('<')) {
			lines.push(pad + token);
		} else if (tokens[i + 2]?.startsWith('</') && !tokens[i + 1].startsWith('<')) {
			// <a>text</a> stays on one line.
			lines.push(pad + token + tokens[i + 1] + tokens[i + 2]);
			i += 2;
		} else {
			lines.push(pad + token);
			depth += 1;
		}
	}
	return lines.join('\n');
}

/** An encoded request as the text of an HTTP/1.1 message. */
function requestText(request: EncodedRequest, host: string): string {
	const text = new TextDecoder().decode(request.body);
	const body = text.startsWith('<') ? indentXml(text) : text;
	const lines = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${host}`];
	for (const [name, value] of Object.entries(request.headers)) lines.push(`${HEADER_NAMES[name] ?? name}: ${value}`);
	if (request.method === 'POST') lines.push(`Content-Length: ${request.body.byteLength}`);
	return `${lines.join('\n')}\n\n${body}`;
}

/** The page of one operation: description, parameters and a sample request per binding. */
export function renderOperationPage(operation: OperationName, page: PageContext, nonce: string): string {
	const op = OPERATIONS[operation];
	const path = page.paths[op.endpoint];
	const host = new URL(page.baseUrl).host;
	const ctx = { namespace: page.namespace, endpointPath: path };
	const samples = BINDING_NAMES.map((binding) => {
		const request = getBinding(binding).encodeRequest(operation, placeholders(operation), ctx);
		return (
			`<section aria-labelledby="b-${binding}"><h2 id="b-${binding}">${escapeHtml(BINDING_LABELS[binding])}</h2>` +
			'<p>A sample request; replace the placeholders with real values.</p>' +
			`<pre>${escapeHtml(requestText(request, host))}</pre></section>`
		);
	});
	const result = op.result.kind === 'list' ? `list of ${op.result.record}` : op.result.record;
	const body =
		`<h1>${escapeHtml(operation)}</h1>` +
		`<p><a href="${escapeHtml(relativeHref(path, path))}">Back to all operations of the ${escapeHtml(ENDPOINT_TITLES[op.endpoint].toLowerCase())}</a></p>` +
		`<p>${escapeHtml(op.doc)}</p>${paramTable(op.params)}` +
		`<p>Result: <code>${escapeHtml(result)}</code>; SOAP element <code>${escapeHtml(op.soapResult)}</code>, HTTP GET/POST root <code>${escapeHtml(op.httpRoot)}</code>.</p>` +
		samples.join('');
	return renderPage(`${operation} - Multiposting sandbox`, body, nonce);
}

/** The index page at /: both endpoints with their WSDL links. */
export function renderIndexPage(page: PageContext, nonce: string): string {
	const items = (Object.keys(page.paths) as Endpoint[]).map((endpoint) => {
		const path = page.paths[endpoint];
		return (
			`<li><a href="${escapeHtml(relativeHref('/', path))}">${escapeHtml(ENDPOINT_TITLES[endpoint])}</a> (<code>${escapeHtml(path)}</code>, ` +
			`${operationsOf(endpoint).length} operations) - <a href="${escapeHtml(relativeHref('/', `${path}?WSDL`))}">WSDL</a></li>`
		);
	});
	const body =
		'<h1>Multiposting sandbox</h1>' +
		'<p>A local emulator of the job advert multiposting service. It answers SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST on both endpoints.</p>' +
		`<ul>${items.join('')}</ul>` +
		`<p class="note">XML namespace: <code>${escapeHtml(page.namespace)}</code></p>`;
	return renderPage('Multiposting sandbox', body, nonce);
}
