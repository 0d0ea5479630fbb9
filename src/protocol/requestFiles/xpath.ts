/**
 * XPath 1.0 over a response body, for `expect: xpath(...)` and `capture: x = xpath(...)`. Uses the
 * well-kept `xpath` engine over `@xmldom/xmldom` (no DTD entities are expanded, nothing is fetched).
 * Pure.
 */
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { SOAP11_ENV, SOAP12_ENV } from '../bindings/soap';
import { XSI_NS } from '../codecs/xml';

/** Bodies larger than this are not searched (a test reads a few values, not a download). */
export const MAX_XPATH_BODY_CHARS = 16 * 1024 * 1024;

/** Prefixes every XPath may use without declaring them; `mp` is the service namespace of the target. */
export function builtInNamespaces(serviceNamespace: string): Record<string, string> {
	return { soap: SOAP11_ENV, soap12: SOAP12_ENV, xsi: XSI_NS, mp: serviceNamespace };
}

/** What an XPath selected: a number, text, a boolean, or the string values of the nodes found. */
export type XPathValue = number | string | boolean | { nodes: string[] };

/** Evaluates an XPath over an XML text; throws an Error with a readable message on failure. */
export function evaluateXPath(body: string, expression: string, namespaces: Record<string, string>): XPathValue {
	if (body.length > MAX_XPATH_BODY_CHARS) {
		throw new Error(`the body is too large for XPath (${body.length} characters).`);
	}
	let document: unknown;
	try {
		document = new DOMParser({
			onError: (level, message) => {
				if (level !== 'warning') throw new Error(message);
			},
		}).parseFromString(body, 'text/xml');
	} catch (error) {
		throw new Error(`the body is not well-formed XML: ${firstLine(error)}`, { cause: error });
	}
	let selected: xpath.SelectReturnType;
	try {
		selected = xpath.useNamespaces(namespaces)(expression, document as Node);
	} catch (error) {
		throw new Error(`the XPath ${expression} could not be evaluated: ${firstLine(error)}`, { cause: error });
	}
	if (typeof selected === 'number' || typeof selected === 'string' || typeof selected === 'boolean') {
		return selected;
	}
	const nodes = Array.isArray(selected) ? selected : selected ? [selected] : [];
	return { nodes: nodes.map((node) => node.textContent ?? node.nodeValue ?? '') };
}

function firstLine(error: unknown): string {
	return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}
