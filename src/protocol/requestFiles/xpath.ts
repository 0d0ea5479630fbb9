/**
 * XPath 1.0 over a response body, for `expect: xpath(...)` and `capture: x = xpath(...)`. Uses the
 * well-kept `xpath` engine over `@xmldom/xmldom` (no DTD entities are expanded, nothing is fetched).
 * Pure.
 */
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { SOAP11_ENV, SOAP12_ENV } from '../bindings/soap';
import { XSI_NS } from '../codecs/xml';
import { VARIABLE_PATTERN, type CapturedValues } from './placeholders';

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

/**
 * Puts the values of `{{name}}` variables into an XPath. Outside quotes a value becomes a string
 * literal of its own (`[mp:AdvertID={{id}}]` → `[mp:AdvertID='42']`; XPath compares it with numbers
 * as a number), so any value is safe there. Inside a quoted string it is put in as it is, and a value
 * holding that quote is a problem (XPath 1.0 strings have no escapes).
 */
export function substituteXPathVariables(
	expression: string,
	variables: CapturedValues,
): { text: string; missing: string[] } | { problem: string } {
	const missing: string[] = [];
	let text = '';
	let quote: string | undefined;
	let at = 0;
	for (const match of expression.matchAll(new RegExp(VARIABLE_PATTERN.source, 'g'))) {
		const start = match.index ?? 0;
		for (const char of expression.slice(at, start)) {
			if (quote === undefined && (char === '"' || char === "'")) quote = char;
			else if (char === quote) quote = undefined;
		}
		text += expression.slice(at, start);
		at = start + match[0].length;
		const name = match[1];
		if (!Object.prototype.hasOwnProperty.call(variables, name)) {
			if (!missing.includes(name)) missing.push(name);
			text += match[0];
			continue;
		}
		const value = variables[name];
		if (quote === undefined) {
			text += xpathLiteral(value);
		} else if (value.includes(quote)) {
			return {
				problem: `{{${name}}} holds a ${quote} and stands inside a ${quote}-quoted XPath string; write it outside quotes, where it is a string of its own.`,
			};
		} else {
			text += value;
		}
	}
	return { text: text + expression.slice(at), missing };
}

/** A string literal of XPath 1.0 for any text (concat() when it holds both quotes). */
export function xpathLiteral(value: string): string {
	if (!value.includes("'")) return `'${value}'`;
	if (!value.includes('"')) return `"${value}"`;
	return `concat(${value
		.split("'")
		.map((part) => `'${part}'`)
		.join(`, "'", `)})`;
}
