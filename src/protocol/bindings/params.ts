/**
 * Parameter codecs shared by the bindings: SOAP writes typed child elements, GET and POST write text
 * fields (transport rules 3 and 5). Decoding turns both back into typed values by the catalogue.
 */
import { OPERATIONS, type AnyParams, type OperationName, type ParamSpec, type ParamValue } from '../catalogue';
import { encodeScalar } from '../codecs/scalars';
import { checkValue, parseBoolean, parseInteger } from '../rules';
import { XmlOut, isNil } from '../codecs/records';
import type { XmlElement } from '../codecs/xml';
import { FaultError } from '../faults';

/** The value to send for a parameter, applying its default; undefined when nothing is sent. */
function effectiveValue(param: ParamSpec, params: AnyParams): ParamValue | undefined {
	const value = params[param.name];
	return value === undefined || value === null ? param.default : value;
}

function scalarText(param: ParamSpec, value: ParamValue): string {
	switch (param.type) {
		case 'int':
			return encodeScalar('int', typeof value === 'string' ? Number(value) : (value as number));
		case 'boolean':
			return encodeScalar(
				'boolean',
				typeof value === 'string' ? value === 'true' || value === '1' : (value as boolean),
			);
		default:
			return String(value);
	}
}

/** Writes one child element per parameter, in catalogue order (SOAP request body). */
export function writeParamElements(out: XmlOut, operation: OperationName, params: AnyParams): void {
	for (const param of OPERATIONS[operation].params) {
		const value = effectiveValue(param, params);
		if (value === undefined) continue;
		if (param.type === 'string[]') {
			const items = Array.isArray(value) ? value : [String(value)];
			out.raw(`<${param.name}>`);
			for (const item of items) out.leaf(param.itemElement ?? 'string', String(item));
			out.raw(`</${param.name}>`);
		} else {
			out.leaf(param.name, scalarText(param, value));
		}
	}
}

/**
 * The text fields of a GET query or POST form, in catalogue order. Every parameter is sent, empty
 * when not given, as ASMX-generated clients do (ASMX refuses a GET or POST with a missing field);
 * lists repeat the field (rule 3) and are left out when empty.
 */
export function paramFields(operation: OperationName, params: AnyParams): [string, string][] {
	const fields: [string, string][] = [];
	for (const param of OPERATIONS[operation].params) {
		const value = effectiveValue(param, params);
		if (param.type === 'string[]') {
			const items = value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
			for (const item of items) fields.push([param.name, String(item)]);
		} else {
			fields.push([param.name, value === undefined ? '' : scalarText(param, value)]);
		}
	}
	return fields;
}

/**
 * Converts received text to the parameter's type; empty text means "not given". A value that is not
 * of the type is an InvalidParameter fault worded as the parameter rules word it (src/protocol/rules).
 */
function decodeParamText(param: ParamSpec, text: string): ParamValue | undefined {
	if (text === '') return undefined;
	if (param.type !== 'int' && param.type !== 'boolean') return text;
	const value = param.type === 'int' ? parseInteger(text) : parseBoolean(text);
	if (value === undefined) {
		const problem = checkValue(param, text);
		throw FaultError.client('InvalidParameter', problem?.message ?? `${param.name} has an invalid value.`);
	}
	return value;
}

/**
 * Reads parameters from the operation element of a SOAP body. As ASMX's XmlSerializer does
 * (elementFormDefault="qualified"), only elements in the service namespace are parameters; others are
 * ignored, or in loose mode read anyway and reported in `leniencies`. Unknown elements are ignored.
 */
export function readParamElements(
	operation: OperationName,
	el: XmlElement,
	namespace: string,
	leniencies: string[] | undefined,
): AnyParams {
	const params: AnyParams = {};
	const specs = new Map(OPERATIONS[operation].params.map((p) => [p.name, p]));
	const qualified = (child: XmlElement): boolean => {
		if (child.ns === namespace) return true;
		leniencies?.push(
			`<${child.name}> is not in the service namespace "${namespace}" (${child.ns ? `it is in "${child.ns}"` : 'it has no namespace'}); production ignores it`,
		);
		return leniencies !== undefined;
	};
	for (const child of el.children) {
		const param = specs.get(child.local);
		if (!param || !qualified(child) || isNil(child)) continue;
		if (param.type === 'string[]') {
			const items = child.children
				.filter((c) => c.local === (param.itemElement ?? 'string') && qualified(c) && !isNil(c))
				.map((c) => c.text);
			params[param.name] = items;
		} else {
			params[param.name] = decodeParamText(param, child.text);
		}
	}
	return params;
}

/**
 * The exact text of ASMX's answer to a GET or POST request without one of the operation's fields
 * (HTTP 500 text/plain; the stack trace that follows it in ASMX is left out).
 */
export function missingParameterMessage(name: string): string {
	return `System.InvalidOperationException: Missing parameter: ${name}.`;
}

/**
 * Reads parameters from GET query or POST form fields. ASMX needs every field of the operation
 * (empty is allowed): a missing one is a Client fault with ASMX's message, or in loose mode "not
 * given" and a leniency. List parameters may be left out (no items).
 */
export function readParamFields(
	operation: OperationName,
	fields: URLSearchParams,
	leniencies: string[] | undefined,
): AnyParams {
	const params: AnyParams = {};
	for (const param of OPERATIONS[operation].params) {
		if (param.type === 'string[]') {
			const items = fields.getAll(param.name).filter((v) => v !== '');
			if (items.length > 0) params[param.name] = items;
			continue;
		}
		const text = fields.get(param.name);
		if (text !== null) {
			const value = decodeParamText(param, text);
			if (value !== undefined) params[param.name] = value;
		} else if (leniencies) {
			leniencies.push(`missing parameter ${param.name}`);
		} else {
			throw FaultError.client('MissingParameter', missingParameterMessage(param.name));
		}
	}
	return params;
}
