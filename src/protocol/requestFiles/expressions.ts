/**
 * The expressions of `expect:` and `capture:` lines: what they look at (a subject), how they compare
 * (an operator) and with what (an operand). Parsing and canonical formatting; evaluation is in
 * evaluate.ts. Pure.
 *
 *     expect: status == 200
 *     expect: no fault
 *     expect: fault MissingFilter
 *     expect: result.TotalItemCount >= 1
 *     expect: result.Applications[*].AdvertID == {{advertId}}
 *     expect: xpath(//mp:TotalItemCount) == 5000
 *     expect: time < 2s
 *     expect: valid against wsdl
 *     capture: advertId = result.AdvertID
 *     capture: csrf = body match /name="csrf" value="([^"]+)"/
 */

/** One step of a result path: a field, an index, or every item (`[*]`). */
export type PathSegment = { field: string } | { index: number } | { every: true };

/** What an expectation or capture looks at. */
export type Subject =
	| { kind: 'status' }
	| { kind: 'time' }
	| { kind: 'body' }
	| { kind: 'header'; name: string }
	| { kind: 'fault'; field?: FaultField }
	| { kind: 'result'; path: PathSegment[] }
	| { kind: 'xpath'; expression: string };

export const OPERATORS = ['==', '!=', '<=', '>=', '<', '>', 'contains', 'matches', 'exists', 'absent'] as const;
export type Operator = (typeof OPERATORS)[number];
/** Operators that take no operand. */
export const UNARY_OPERATORS: readonly Operator[] = ['exists', 'absent'];

/** The value an expectation compares with. Strings may hold `{{name}}` variables. */
export type Operand =
	| { kind: 'number'; value: number; unit?: 'ms' | 's' }
	| { kind: 'string'; value: string }
	| { kind: 'boolean'; value: boolean }
	| { kind: 'null' }
	| { kind: 'regex'; source: string; flags: string };

/** One expectation. */
export type Expectation =
	| { kind: 'noFault' }
	| { kind: 'fault'; subcode?: string }
	| { kind: 'schemaValid' }
	| { kind: 'compare'; subject: Subject; operator: Operator; operand?: Operand };

/** One capture: a name, the subject it reads and an optional pattern whose first group is kept. */
export interface Capture {
	name: string;
	subject: Subject;
	pattern?: { source: string; flags: string };
}

/** A parse failure, with the 0-based offset in the expression text where it was found. */
export class ExpressionError extends Error {
	override readonly name = 'ExpressionError';
	constructor(
		message: string,
		readonly offset = 0,
		readonly length = 0,
	) {
		super(message);
	}
}

/**
 * The fields of `fault.<field>`: `code` as sent (SOAP 1.1 Client/Server, SOAP 1.2 Sender/Receiver),
 * `cause` the same for any binding (caller or service), `subcode`, `message`.
 */
export const FAULT_FIELDS = ['code', 'cause', 'subcode', 'message'] as const;
export type FaultField = (typeof FAULT_FIELDS)[number];

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+/;

/** Reads a subject at the start of `text`; returns it with the number of characters read. */
export function parseSubject(text: string): { subject: Subject; length: number } {
	const word = /^[A-Za-z]+/.exec(text)?.[0] ?? '';
	switch (word) {
		case 'status':
		case 'time':
		case 'body':
			return { subject: { kind: word }, length: word.length };
		case 'header': {
			if (text[6] !== '.') throw new ExpressionError('header needs a name, e.g. header.Content-Type.', 0, 6);
			const name = HEADER_NAME.exec(text.slice(7))?.[0];
			if (!name) throw new ExpressionError('header needs a name, e.g. header.Content-Type.', 7, 0);
			return { subject: { kind: 'header', name }, length: 7 + name.length };
		}
		case 'fault': {
			if (text[5] !== '.') return { subject: { kind: 'fault' }, length: 5 };
			const field = FIELD_NAME.exec(text.slice(6))?.[0] ?? '';
			if (!(FAULT_FIELDS as readonly string[]).includes(field)) {
				throw new ExpressionError(
					`a fault has ${FAULT_FIELDS.join(', ')}; "${field}" is none of them.`,
					6,
					field.length,
				);
			}
			return {
				subject: { kind: 'fault', field: field as FaultField },
				length: 6 + field.length,
			};
		}
		case 'result': {
			const { path, length } = parsePath(text, 6);
			return { subject: { kind: 'result', path }, length };
		}
		case 'xpath': {
			if (text[5] !== '(') throw new ExpressionError('write an XPath as xpath(<expression>).', 0, 5);
			const end = closingParenthesis(text, 5);
			if (end < 0) throw new ExpressionError('the xpath( has no closing parenthesis.', 5, text.length - 5);
			const expression = text.slice(6, end).trim();
			if (expression.length === 0) throw new ExpressionError('the XPath expression is empty.', 5, end - 4);
			return { subject: { kind: 'xpath', expression }, length: end + 1 };
		}
		default:
			throw new ExpressionError(
				`expected status, time, body, header.<Name>, fault, result… or xpath(…), got "${firstToken(text)}".`,
				0,
				firstToken(text).length,
			);
	}
}

/** Reads `.Field`, `[3]` and `[*]` steps from `start`; stops at whitespace or the end. */
function parsePath(text: string, start: number): { path: PathSegment[]; length: number } {
	const path: PathSegment[] = [];
	let at = start;
	while (at < text.length && !/\s/.test(text[at])) {
		if (text[at] === '.') {
			const field = FIELD_NAME.exec(text.slice(at + 1))?.[0];
			if (!field) throw new ExpressionError('expected a field name after ".".', at, 1);
			path.push({ field });
			at += 1 + field.length;
		} else if (text[at] === '[') {
			const step = /^\[(\*|\d+)\]/.exec(text.slice(at));
			if (!step) throw new ExpressionError('expected [<index>] or [*].', at, 1);
			path.push(step[1] === '*' ? { every: true } : { index: Number(step[1]) });
			at += step[0].length;
		} else {
			throw new ExpressionError(`unexpected "${text[at]}" in a result path.`, at, 1);
		}
	}
	return { path, length: at };
}

/** The index of the parenthesis that closes the one at `open`, skipping quoted strings; -1 if none. */
function closingParenthesis(text: string, open: number): number {
	let depth = 0;
	let quote: string | undefined;
	for (let at = open; at < text.length; at += 1) {
		const char = text[at];
		if (quote) {
			if (char === quote) quote = undefined;
		} else if (char === '"' || char === "'") {
			quote = char;
		} else if (char === '(') {
			depth += 1;
		} else if (char === ')') {
			depth -= 1;
			if (depth === 0) return at;
		}
	}
	return -1;
}

function firstToken(text: string): string {
	return /^\S*/.exec(text)?.[0] ?? '';
}

/** Parses the text after `expect:`. */
export function parseExpectation(text: string): Expectation {
	const trimmed = text.trim();
	const lead = text.length - text.trimStart().length;
	try {
		if (/^no\s+fault$/i.test(trimmed)) return { kind: 'noFault' };
		if (/^valid\s+against\s+wsdl$/i.test(trimmed)) return { kind: 'schemaValid' };
		const shorthand = /^fault(?:\s+([A-Za-z][A-Za-z0-9_.:-]*))?$/.exec(trimmed);
		if (shorthand && !(OPERATORS as readonly string[]).includes(shorthand[1] ?? '')) {
			return shorthand[1] ? { kind: 'fault', subcode: shorthand[1] } : { kind: 'fault' };
		}
		if (trimmed.length === 0) {
			throw new ExpressionError(
				'an expectation is empty; e.g. "status == 200", "no fault" or "result.TotalItemCount >= 1".',
			);
		}
		const { subject, length } = parseSubject(trimmed);
		const rest = trimmed.slice(length);
		const operatorMatch = /^\s+(==|!=|<=|>=|<|>|contains|matches|exists|absent)(?=\s|$)/.exec(rest);
		if (!operatorMatch) {
			const found = firstToken(rest.trimStart());
			throw new ExpressionError(
				found
					? `expected an operator (${OPERATORS.join(', ')}), got "${found}".`
					: `expected an operator after the subject: ${OPERATORS.join(', ')}.`,
				length + (rest.length - rest.trimStart().length),
				found.length,
			);
		}
		const operator = operatorMatch[1] as Operator;
		const operandText = rest.slice(operatorMatch[0].length).trim();
		const operandOffset = trimmed.length - operandText.length;
		if (UNARY_OPERATORS.includes(operator)) {
			if (operandText.length > 0) {
				throw new ExpressionError(`${operator} takes no value.`, operandOffset, operandText.length);
			}
			return { kind: 'compare', subject, operator };
		}
		if (operandText.length === 0) {
			throw new ExpressionError(`${operator} needs a value to compare with.`, trimmed.length, 0);
		}
		let operand: Operand;
		try {
			operand = parseOperand(operandText);
		} catch (error) {
			if (error instanceof ExpressionError) {
				throw new ExpressionError(
					error.message,
					operandOffset + error.offset,
					error.length || operandText.length,
				);
			}
			throw error;
		}
		if (operator === 'matches' && operand.kind !== 'regex') {
			throw new ExpressionError(
				'matches needs a regular expression, e.g. /^Acme/i.',
				operandOffset,
				operandText.length,
			);
		}
		if (operand.kind === 'regex' && operator !== 'matches') {
			throw new ExpressionError(
				`a regular expression goes with matches, not ${operator}.`,
				operandOffset,
				operandText.length,
			);
		}
		if (operand.kind === 'number' && operand.unit && subject.kind !== 'time') {
			throw new ExpressionError('units (ms, s) go with time only.', operandOffset, operandText.length);
		}
		return { kind: 'compare', subject, operator, operand };
	} catch (error) {
		if (error instanceof ExpressionError) {
			throw new ExpressionError(error.message, lead + error.offset, error.length);
		}
		throw error;
	}
}

/** Parses a value: a number (with ms or s after a time), a JSON string, true, false, null, /regex/ or a bare word. */
export function parseOperand(text: string): Operand {
	const number = /^(-?\d+(?:\.\d+)?)\s*(ms|s)?$/.exec(text);
	if (number) {
		const operand: Operand = { kind: 'number', value: Number(number[1]) };
		if (number[2]) operand.unit = number[2] as 'ms' | 's';
		return operand;
	}
	if (text === 'true' || text === 'false') return { kind: 'boolean', value: text === 'true' };
	if (text === 'null') return { kind: 'null' };
	if (text.startsWith('"')) {
		try {
			const value: unknown = JSON.parse(text);
			if (typeof value === 'string') return { kind: 'string', value };
		} catch {
			// Reported below.
		}
		throw new ExpressionError('a value that starts with " must be a complete JSON string.', 0, text.length);
	}
	if (text.startsWith('/')) return { kind: 'regex', ...parseRegex(text) };
	return { kind: 'string', value: text };
}

/**
 * Parses `/source/flags`; the source is checked by compiling it, each `{{name}}` standing for a
 * value it will match literally.
 */
export function parseRegex(text: string): { source: string; flags: string } {
	const match = /^\/((?:\\.|[^\\/])+)\/([dgimsuy]*)$/.exec(text);
	if (!match) throw new ExpressionError('a regular expression is written /pattern/flags.', 0, text.length);
	try {
		new RegExp(match[1].replace(/\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}/g, 'x'), match[2]);
	} catch (error) {
		throw new ExpressionError(
			`the regular expression is not valid: ${error instanceof Error ? error.message : String(error)}`,
			0,
			text.length,
		);
	}
	return { source: match[1], flags: match[2] };
}

/** Parses the text after `capture:`: `<name> = <subject> [match /regex/]`. */
export function parseCapture(text: string): Capture {
	const lead = text.length - text.trimStart().length;
	const trimmed = text.trim();
	const head = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*/.exec(trimmed);
	if (!head) {
		const name = /^[^\s=]*/.exec(trimmed)?.[0] ?? '';
		throw new ExpressionError(
			trimmed.includes('=')
				? `"${name}" is not a capture name: use letters, digits and _, starting with a letter.`
				: 'write a capture as <name> = <subject>, e.g. advertId = result.AdvertID.',
			lead,
			name.length,
		);
	}
	if (head[1] === 'connection') {
		throw new ExpressionError('"connection" is reserved for the connection placeholders.', lead, head[1].length);
	}
	const at = head[0].length;
	const rest = trimmed.slice(at);
	try {
		const { subject, length } = parseSubject(rest);
		const capture: Capture = { name: head[1], subject };
		const tail = rest.slice(length).trim();
		if (tail.length > 0) {
			const pattern = /^match\s+(\/.*)$/.exec(tail);
			if (!pattern) {
				throw new ExpressionError(
					`unexpected "${truncateText(tail)}"; a capture may end with match /pattern/.`,
					length + (rest.length - length - rest.slice(length).trimStart().length),
					tail.length,
				);
			}
			capture.pattern = parseRegex(pattern[1]);
		}
		return capture;
	} catch (error) {
		if (error instanceof ExpressionError) {
			throw new ExpressionError(error.message, lead + at + error.offset, error.length);
		}
		throw error;
	}
}

function truncateText(text: string): string {
	return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** The canonical text of a subject. */
export function formatSubject(subject: Subject): string {
	switch (subject.kind) {
		case 'status':
		case 'time':
		case 'body':
			return subject.kind;
		case 'header':
			return `header.${subject.name}`;
		case 'fault':
			return subject.field ? `fault.${subject.field}` : 'fault';
		case 'result':
			return `result${formatPath(subject.path)}`;
		case 'xpath':
			return `xpath(${subject.expression})`;
	}
}

/** A path as text: `.Applications[0].Score`. */
export function formatPath(path: readonly PathSegment[]): string {
	return path
		.map((segment) =>
			'field' in segment ? `.${segment.field}` : 'index' in segment ? `[${segment.index}]` : '[*]',
		)
		.join('');
}

/** The canonical text of an operand; parseOperand reads it back as the same operand. */
export function formatOperand(operand: Operand): string {
	switch (operand.kind) {
		case 'number':
			return `${operand.value}${operand.unit ?? ''}`;
		case 'boolean':
			return String(operand.value);
		case 'null':
			return 'null';
		case 'regex':
			return `/${operand.source}/${operand.flags}`;
		case 'string': {
			const value = operand.value;
			const bare =
				value.length > 0 &&
				!/\s/.test(value) &&
				!/^["/]/.test(value) &&
				![...value].some((char) => char.charCodeAt(0) < 0x20) &&
				parseOperand(value).kind === 'string';
			return bare ? value : JSON.stringify(value);
		}
	}
}

/** The canonical text of an expectation (what follows `expect: `). */
export function formatExpectation(expectation: Expectation): string {
	switch (expectation.kind) {
		case 'noFault':
			return 'no fault';
		case 'schemaValid':
			return 'valid against wsdl';
		case 'fault':
			return expectation.subcode ? `fault ${expectation.subcode}` : 'fault';
		case 'compare': {
			const head = `${formatSubject(expectation.subject)} ${expectation.operator}`;
			return expectation.operand ? `${head} ${formatOperand(expectation.operand)}` : head;
		}
	}
}

/** The canonical text of a capture (what follows `capture: `). */
export function formatCapture(capture: Capture): string {
	const pattern = capture.pattern ? ` match /${capture.pattern.source}/${capture.pattern.flags}` : '';
	return `${capture.name} = ${formatSubject(capture.subject)}${pattern}`;
}
