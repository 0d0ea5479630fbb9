/**
 * Checks expectations and reads captures against one observed exchange: its status, headers, body,
 * time, and the decoded result or fault. Pure: the runner sends, this only looks.
 */
import type { Normalised } from '../compare';
import { faultCodeAsSent } from '../bindings/soap';
import type { BindingName } from '../bindings/types';
import type { Fault } from '../faults';
import {
	formatExpectation,
	formatOperand,
	formatSubject,
	parseOperand,
	type Capture,
	type Expectation,
	type Operand,
	type Operator,
	type Subject,
} from './expressions';
import { substituteVariables, variablesIn, type CapturedValues } from './placeholders';
import { valuesAtPath } from './resultPaths';
import { builtInNamespaces, evaluateXPath, substituteXPathVariables, type XPathValue } from './xpath';

/** Whether the response is valid against the XSD of the endpoint's WSDL, when that was checked. */
export type SchemaVerdict = { valid: true } | { valid: false; errors: string[] } | { unavailable: string };

/** What came back from one request, as the expectations see it. */
export interface ObservedExchange {
	/** Absent when no response arrived. */
	status?: number;
	headers: readonly [string, string][];
	bodyText: string;
	/** From sending to the last byte. */
	timeMs: number;
	/** Why no (complete) response arrived. */
	error?: string;
	/** The decoded outcome of an operation request; absent for plain HTTP or when decoding failed. */
	decoded?: { result: Normalised | null } | { fault: ObservedFault };
	/** Why the body could not be decoded. */
	decodeError?: string;
	/** The service namespace of the target (the `mp` XPath prefix). */
	serviceNamespace: string;
	/** Present when the schema was checked. */
	schema?: SchemaVerdict;
}

/** A fault as a request file sees it: its code as sent, and who caused it whatever the binding. */
export interface ObservedFault {
	/** As the binding wrote it (SOAP 1.1 Client/Server, SOAP 1.2 Sender/Receiver); none on HTTP GET/POST. */
	code?: string;
	/** caller (Client/Sender, and the envelope faults) or service (Server/Receiver); none on HTTP GET/POST. */
	cause?: 'caller' | 'service';
	subcode?: string;
	message: string;
	detail?: string;
}

/** The fault of a response of `binding` as request files report it (`fault.code`, `fault.cause`). */
export function observedFault(fault: Fault, binding: BindingName): ObservedFault {
	const observed: ObservedFault = { message: fault.message };
	const code = faultCodeAsSent(binding, fault.code);
	if (code !== undefined) {
		observed.code = code;
		observed.cause = fault.code === 'Server' ? 'service' : 'caller';
	}
	if (fault.subcode !== undefined) observed.subcode = fault.subcode;
	if (fault.detail !== undefined) observed.detail = fault.detail;
	return observed;
}

/** What an expectation needs besides the exchange. */
export interface EvaluationContext {
	/** Captured values, for `{{name}}` in operands. */
	variables: CapturedValues;
	/** XPath prefixes declared in the request (added to the built-in ones). */
	namespaces: Readonly<Record<string, string>>;
}

/** The outcome of one expectation. */
export interface ExpectationOutcome {
	/** The expectation as written (canonical form). */
	text: string;
	passed: boolean;
	/** What was expected, e.g. `>= 1`, `no fault`. */
	expected: string;
	/** What was found, e.g. `0`, `fault Client/MissingFilter: At least one…`. */
	actual: string;
	/** One sentence for reports, e.g. `result.TotalItemCount >= 1: got 0`. */
	message: string;
	/** The 1-based line of the expectation in its file, when known. */
	line?: number;
}

const MAX_SHOWN = 300;

/** Checks one expectation. Never throws: a subject that cannot be read fails the expectation. */
export function evaluateExpectation(
	expectation: Expectation,
	observed: ObservedExchange,
	context: EvaluationContext,
): ExpectationOutcome {
	const text = formatExpectation(expectation);
	const values = variablesNote(text, context.variables);
	const outcome = (passed: boolean, expected: string, actual: string): ExpectationOutcome => ({
		text,
		passed,
		expected: `${expected}${values}`,
		actual,
		message: passed ? `${text}: passed` : `${text}: got ${actual}`,
	});
	if (observed.error !== undefined && observed.status === undefined) {
		return outcome(false, expectedText(expectation), `no response (${observed.error})`);
	}
	switch (expectation.kind) {
		case 'noFault':
			if ('decoded' in observed && observed.decoded && 'result' in observed.decoded) {
				return outcome(true, 'no fault', 'a result');
			}
			return outcome(false, 'no fault', describeOutcome(observed));
		case 'fault': {
			const fault = observed.decoded && 'fault' in observed.decoded ? observed.decoded.fault : undefined;
			const expected = expectation.subcode ? `fault ${expectation.subcode}` : 'a fault';
			if (!fault) return outcome(false, expected, describeOutcome(observed));
			const passed = !expectation.subcode || fault.subcode === expectation.subcode;
			return outcome(passed, expected, describeFault(fault));
		}
		case 'schemaValid': {
			const schema = observed.schema;
			if (!schema) return outcome(false, 'valid against the WSDL', 'the schema was not checked');
			if ('unavailable' in schema) {
				return outcome(false, 'valid against the WSDL', `not checked: ${schema.unavailable}`);
			}
			return schema.valid
				? outcome(true, 'valid against the WSDL', 'valid')
				: outcome(false, 'valid against the WSDL', schema.errors.slice(0, 5).join('; ') || 'invalid');
		}
		case 'compare': {
			const expected = expectedText(expectation);
			const read = readSubject(expectation.subject, observed, context.namespaces, context.variables);
			if ('error' in read) return outcome(false, expected, read.error);
			let operand: Operand | undefined = expectation.operand;
			if (operand?.kind === 'string') {
				const substituted = substituteVariables(operand.value, context.variables);
				if (substituted.missing.length > 0) return outcome(false, expected, noValue(substituted.missing));
				// A variable holds text; read it again so "{{id}}" compares as the number it holds.
				operand = substituted.text === operand.value ? operand : reparse(substituted.text);
			} else if (operand?.kind === 'regex') {
				const pattern = patternWithValues(operand, context.variables);
				if ('missing' in pattern) return outcome(false, expected, noValue(pattern.missing));
				operand = { kind: 'regex', ...pattern };
			}
			if (operand?.kind === 'number' && operand.unit === 's') {
				operand = { kind: 'number', value: operand.value * 1000 };
			}
			const { values, every } = read;
			if (every && values.length === 0) {
				return outcome(false, expected, 'no items (every item of an empty list proves nothing)');
			}
			for (let index = 0; index < values.length; index += 1) {
				if (!compare(values[index], expectation.operator, operand)) {
					const where = every ? `item ${index}: ` : '';
					return outcome(false, expected, `${where}${show(values[index])}`);
				}
			}
			return outcome(true, expected, every ? `${values.length} items` : show(values[0]));
		}
	}
}

/** The values of the variables an expectation uses, for reports: ` (with {{id}} = 42)`. */
function variablesNote(text: string, variables: CapturedValues): string {
	const known = variablesIn(text).filter((name) => Object.prototype.hasOwnProperty.call(variables, name));
	if (known.length === 0) return '';
	const value = (text: string): string => (numeric(text) === undefined ? show(text) : text);
	return ` (with ${known.map((name) => `{{${name}}} = ${value(variables[name])}`).join(', ')})`;
}

function noValue(missing: readonly string[]): string {
	return `no value for {{${missing[0]}}} (not captured)`;
}

/** A pattern with the values of its variables, each matching itself only (special characters escaped). */
function patternWithValues(
	pattern: { source: string; flags: string },
	variables: CapturedValues,
): { source: string; flags: string } | { missing: string[] } {
	const substituted = substituteVariables(pattern.source, variables, escapeRegExp);
	return substituted.missing.length > 0 ? { missing: substituted.missing } : { ...pattern, source: substituted.text };
}

function escapeRegExp(value: string): string {
	return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function reparse(text: string): Operand {
	try {
		const operand = parseOperand(text);
		return operand.kind === 'regex' ? { kind: 'string', value: text } : operand;
	} catch {
		return { kind: 'string', value: text };
	}
}

function expectedText(expectation: Expectation): string {
	if (expectation.kind !== 'compare') return formatExpectation(expectation);
	return expectation.operand ? `${expectation.operator} ${formatOperand(expectation.operand)}` : expectation.operator;
}

/** Reads a subject: its value(s), or why it cannot be read. */
export function readSubject(
	subject: Subject,
	observed: ObservedExchange,
	declared: Readonly<Record<string, string>> = {},
	variables: CapturedValues = {},
): { values: (Normalised | undefined)[]; every: boolean } | { error: string } {
	const one = (value: Normalised | undefined): { values: (Normalised | undefined)[]; every: boolean } => ({
		values: [value],
		every: false,
	});
	switch (subject.kind) {
		case 'status':
			return one(observed.status);
		case 'time':
			return one(Math.round(observed.timeMs));
		case 'body':
			return one(observed.bodyText);
		case 'header': {
			const wanted = subject.name.toLowerCase();
			return one(observed.headers.find(([name]) => name.toLowerCase() === wanted)?.[1]);
		}
		case 'fault': {
			const fault = observed.decoded && 'fault' in observed.decoded ? observed.decoded.fault : undefined;
			if (!subject.field) return one(fault ? describeFault(fault) : undefined);
			return one(fault?.[subject.field]);
		}
		case 'result': {
			if (!observed.decoded) {
				return {
					error:
						observed.decodeError !== undefined
							? `no result: the response could not be decoded (${observed.decodeError})`
							: 'no result: this request is not decoded (plain HTTP)',
				};
			}
			if ('fault' in observed.decoded) return { error: `no result: ${describeFault(observed.decoded.fault)}` };
			return valuesAtPath(observed.decoded.result, subject.path);
		}
		case 'xpath': {
			const expression = substituteXPathVariables(subject.expression, variables);
			if ('problem' in expression) return { error: expression.problem };
			if (expression.missing.length > 0) return { error: noValue(expression.missing) };
			let value: XPathValue;
			try {
				value = evaluateXPath(observed.bodyText, expression.text, {
					...builtInNamespaces(observed.serviceNamespace),
					...declared,
				});
			} catch (error) {
				return { error: error instanceof Error ? error.message : String(error) };
			}
			// A node-set gives the text of its first node (count(...) tells how many there are).
			return one(typeof value === 'object' ? value.nodes[0] : value);
		}
	}
}

/** Compares one value with the operand by the operator. */
export function compare(actual: Normalised | undefined, operator: Operator, operand?: Operand): boolean {
	switch (operator) {
		case 'exists':
			return actual !== undefined && actual !== null;
		case 'absent':
			return actual === undefined || actual === null;
		case '==':
			return equals(actual, operand);
		case '!=':
			return !equals(actual, operand);
		case '<':
		case '<=':
		case '>':
		case '>=': {
			const order = ordering(actual, operand);
			if (order === undefined) return false;
			return operator === '<'
				? order < 0
				: operator === '<='
					? order <= 0
					: operator === '>'
						? order > 0
						: order >= 0;
		}
		case 'contains':
			if (Array.isArray(actual)) return actual.some((item) => equals(item, operand));
			return typeof actual === 'string' && operand !== undefined && actual.includes(operandText(operand));
		case 'matches':
			if (operand?.kind !== 'regex' || actual === undefined || actual === null || typeof actual === 'object') {
				return false;
			}
			return new RegExp(operand.source, operand.flags.replace(/[gy]/g, '')).test(String(actual));
	}
}

function operandText(operand: Operand): string {
	switch (operand.kind) {
		case 'number':
		case 'boolean':
		case 'string':
			return String(operand.value);
		case 'null':
			return 'null';
		case 'regex':
			return operand.source;
	}
}

function equals(actual: Normalised | undefined, operand?: Operand): boolean {
	if (!operand) return false;
	if (operand.kind === 'null') return actual === null || actual === undefined;
	if (actual === undefined || actual === null) return false;
	if (typeof actual === 'number') {
		const number =
			operand.kind === 'number' ? operand.value : operand.kind === 'string' ? numeric(operand.value) : undefined;
		return number !== undefined && number === actual;
	}
	if (typeof actual === 'boolean') {
		if (operand.kind === 'boolean') return operand.value === actual;
		return operand.kind === 'string' && operand.value === String(actual);
	}
	if (typeof actual === 'string') {
		if (operand.kind === 'number') return numeric(actual) === operand.value || actual === String(operand.value);
		return actual === operandText(operand);
	}
	return JSON.stringify(actual) === operandText(operand);
}

/** The order of two values: numbers numerically, texts (ISO dates included) by code point. */
function ordering(actual: Normalised | undefined, operand?: Operand): number | undefined {
	if (!operand || actual === undefined || actual === null || typeof actual === 'object') return undefined;
	const left = typeof actual === 'number' ? actual : typeof actual === 'string' ? numeric(actual) : undefined;
	const right =
		operand.kind === 'number' ? operand.value : operand.kind === 'string' ? numeric(operand.value) : undefined;
	if (left !== undefined && right !== undefined) return left - right;
	if (typeof actual === 'string' && operand.kind === 'string') {
		return actual < operand.value ? -1 : actual > operand.value ? 1 : 0;
	}
	return undefined;
}

function numeric(text: string): number | undefined {
	return /^\s*-?\d+(?:\.\d+)?\s*$/.test(text) ? Number(text) : undefined;
}

/** A value for reports: JSON-like, cut to a few hundred characters. */
export function show(value: Normalised | undefined): string {
	if (value === undefined) return 'absent';
	const text = JSON.stringify(value);
	return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** A fault as one line: `fault Client/MissingFilter: message` (`fault: message` without a code). */
export function describeFault(fault: ObservedFault): string {
	const code = [fault.code, fault.subcode].filter((part) => part !== undefined).join('/');
	return `fault${code ? ` ${code}` : ''}: ${fault.message}`;
}

/** What the exchange amounts to, for a failed fault/no-fault expectation. */
function describeOutcome(observed: ObservedExchange): string {
	if (observed.decoded && 'fault' in observed.decoded) return describeFault(observed.decoded.fault);
	if (observed.decoded) return 'a result (no fault)';
	if (observed.decodeError !== undefined) {
		return `HTTP ${observed.status ?? '?'}, not decodable: ${observed.decodeError}`;
	}
	return `HTTP ${observed.status ?? '?'} (not decoded: plain HTTP)`;
}

/** Reads a capture's value as text; a missing value, a fault or an unmatched pattern is a problem. */
export function readCapture(
	capture: Capture,
	observed: ObservedExchange,
	namespaces: Readonly<Record<string, string>> = {},
	variables: CapturedValues = {},
): { value: string } | { problem: string } {
	const label = `capture ${capture.name} = ${formatSubject(capture.subject)}`;
	if (observed.error !== undefined && observed.status === undefined) {
		return { problem: `${label}: no response (${observed.error})` };
	}
	const read = readSubject(capture.subject, observed, namespaces, variables);
	if ('error' in read) return { problem: `${label}: ${read.error}` };
	if (read.every) return { problem: `${label}: [*] selects several values; capture one, e.g. [0].` };
	const value = read.values[0];
	if (value === undefined || value === null) return { problem: `${label}: the value is absent.` };
	const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
	if (!capture.pattern) return { value: text };
	const pattern = patternWithValues(capture.pattern, variables);
	if ('missing' in pattern) return { problem: `${label}: ${noValue(pattern.missing)}` };
	const match = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')).exec(text);
	if (!match) return { problem: `${label}: /${capture.pattern.source}/ does not match ${show(value)}.` };
	return { value: match[1] ?? match[0] };
}
