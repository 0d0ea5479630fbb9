/**
 * The language features of request files, free of any editor API: diagnostics (with quick fixes),
 * completion and hover, from the catalogue. Positions are 0-based lines and columns, as editors
 * count them. Pure.
 */
import { BINDING_LABELS, BINDING_NAMES, type BindingName } from '../bindings/types';
import {
	OPERATIONS,
	OPERATION_NAMES,
	RECORDS,
	VALUE_SETS,
	isOperationName,
	type OperationName,
	type ParamSpec,
} from '../catalogue';
import { FAULT_SUBCODES } from '../faults';
import { parseExpectation, parseSubject, type PathSegment, type Subject } from './expressions';
import { parseRequestFileEntries, REQUEST_SEPARATOR, RAW_SEPARATOR, type ParsedEntry } from './format';
import { closestNames, type IssueFix } from './issues';
import { CONNECTION_PLACEHOLDERS } from './placeholders';
import { variableIssues } from './variables';
import { describeType, fieldsOf, resultType, typeOfPath, type PathType } from './resultPaths';

/** A problem to show in the editor. */
export interface LanguageDiagnostic {
	line: number;
	column: number;
	endColumn: number;
	message: string;
	severity: 'error' | 'warning';
	fixes: IssueFix[];
}

/** What completion offers. */
export interface LanguageCompletion {
	label: string;
	kind: 'keyword' | 'operation' | 'param' | 'value' | 'field' | 'variable' | 'snippet';
	detail?: string;
	documentation?: string;
	/** Text inserted instead of the label. */
	insertText?: string;
	/** Columns of the text it replaces on the line (default: the word at the cursor). */
	replaceFrom?: number;
}

/** Hover text (Markdown) and the columns it covers. */
export interface LanguageHover {
	markdown: string;
	column: number;
	endColumn: number;
}

const KEYS = ['operation', 'binding', 'endpoint', 'expect', 'capture', 'retry', 'scenario', 'replay'] as const;

/**
 * Everything wrong in a file: parse problems, variables no earlier request captures, then checks
 * against the catalogue. `environmentVariables` are set before the first request (by the chosen
 * environment).
 */
export function diagnose(text: string, environmentVariables: readonly string[] = []): LanguageDiagnostic[] {
	const lines = text.split(/\r?\n/);
	const parsed = parseRequestFileEntries(text);
	const issues = [
		...parsed.issues,
		...variableIssues(parsed.entries, environmentVariables).map(({ issue }) => issue),
	];
	const diagnostics: LanguageDiagnostic[] = issues.map((issue) => ({
		line: issue.line - 1,
		column: issue.column ?? firstNonSpace(lines[issue.line - 1] ?? ''),
		endColumn: issue.endColumn ?? (lines[issue.line - 1] ?? '').length,
		message: issue.message,
		severity: issue.severity ?? 'error',
		fixes: issue.fixes ?? [],
	}));
	for (const entry of parsed.entries) diagnostics.push(...checkEntry(entry, lines));
	return diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
}

function firstNonSpace(line: string): number {
	return line.length - line.trimStart().length;
}

/** The key lines of an entry: 0-based line, key, value and where the value starts. */
function keyLines(
	entry: ParsedEntry,
	lines: readonly string[],
): { line: number; key: string; value: string; valueStart: number }[] {
	const result: { line: number; key: string; value: string; valueStart: number }[] = [];
	for (let index = entry.location.start - 1; index < entry.location.end; index += 1) {
		const line = lines[index] ?? '';
		if (line.trim() === RAW_SEPARATOR) break;
		if (line.startsWith(REQUEST_SEPARATOR) || line.trim().startsWith('#')) continue;
		const colon = line.indexOf(':');
		if (colon < 0) continue;
		const after = line.slice(colon + 1);
		const valueStart = colon + 1 + (after.length - after.trimStart().length);
		result.push({ line: index, key: line.slice(0, colon).trim(), value: after.trim(), valueStart });
	}
	return result;
}

function checkEntry(entry: ParsedEntry, lines: readonly string[]): LanguageDiagnostic[] {
	const diagnostics: LanguageDiagnostic[] = [];
	const keys = keyLines(entry, lines);
	const operationText = keys.find((key) => key.key === 'operation')?.value;
	const operation = operationText && isOperationName(operationText) ? operationText : undefined;
	const expectsFault = entry.expectations.some((expectation) => expectation.kind === 'fault');
	if (!operation) return diagnostics;
	const spec = OPERATIONS[operation];
	const specs = new Map(spec.params.map((param) => [param.name, param]));
	const given = new Map<string, string>();
	const bindingText = keys.find((key) => key.key === 'binding')?.value ?? 'soap11';
	const binding = (BINDING_NAMES as readonly string[]).includes(bindingText)
		? (bindingText as BindingName)
		: undefined;
	for (const key of keys) {
		if (key.key.startsWith('param.')) {
			const param = specs.get(key.key.slice('param.'.length));
			if (!param) continue;
			const value = key.value.startsWith('"') ? safeJson(key.value) : key.value;
			if (value !== undefined) given.set(param.name, value);
			const problem = value === undefined ? undefined : valueSetProblem(param, value);
			if (problem) {
				diagnostics.push({
					line: key.line,
					column: key.valueStart,
					endColumn: key.valueStart + key.value.length,
					severity: 'warning',
					message: problem.message,
					fixes: problem.suggestions.map((candidate) => ({
						title: `Change to ${candidate}`,
						replacement: candidate,
					})),
				});
			}
		} else if (key.key === 'expect' || key.key === 'capture') {
			diagnostics.push(...checkSubjectLine(key, operation, entry));
			if (key.key === 'expect') diagnostics.push(...checkFaultCode(key, binding));
		}
	}
	// The catalogue's rules, unless the request is written to get a fault.
	if (!expectsFault && !entry.document?.raw) {
		const firstLine = (entry.location.operationLine ?? entry.location.first) - 1;
		for (const rule of spec.rules ?? []) {
			const isGiven = (name: string): boolean => (given.get(name) ?? '').trim().length > 0;
			const broken =
				rule.kind === 'minLength'
					? isGiven(rule.param) &&
						!(given.get(rule.param) ?? '').includes('{{') &&
						(given.get(rule.param) ?? '').trim().length < rule.min
					: rule.kind === 'required'
						? rule.params.some((name) => !isGiven(name))
						: rule.kind === 'anyOf'
							? !rule.params.some(isGiven)
							: false; // 'order' rules need parsed values: left to src/protocol/rules at send time.
			if (broken) {
				diagnostics.push({
					line: firstLine,
					column: firstNonSpace(lines[firstLine] ?? ''),
					endColumn: (lines[firstLine] ?? '').length,
					severity: 'warning',
					message: `${rule.message} (The service will answer with a fault; add "expect: fault" if that is the point.)`,
					fixes: [],
				});
			}
		}
	}
	return diagnostics;
}

function safeJson(text: string): string | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === 'string' ? value : undefined;
	} catch {
		return undefined;
	}
}

/** A value outside a closed value set, with the closest allowed values. */
function valueSetProblem(param: ParamSpec, value: string): { message: string; suggestions: string[] } | undefined {
	if (!param.valueSet || value.length === 0 || value.includes('{{')) return undefined;
	const set = (VALUE_SETS as Record<string, { closed: boolean; values: readonly { value: string }[] }>)[
		param.valueSet
	];
	if (!set?.closed) return undefined;
	const allowed = set.values.map((choice) => choice.value);
	const items = param.format === 'csv' ? value.split(',').map((item) => item.trim()) : [value];
	const codes = new Set(
		(VALUE_SETS as Record<string, { values: readonly { code?: number }[] }>)[param.valueSet].values.map((choice) =>
			String(choice.code),
		),
	);
	const bad = items.find((item) => !allowed.includes(item) && !codes.has(item));
	if (bad === undefined) return undefined;
	return {
		message: `"${bad}" is not a value of ${param.name}: use ${allowed.join(', ')}.`,
		suggestions: items.length === 1 ? closestNames(bad, allowed) : [],
	};
}

/** Result paths of expect and capture lines against the record model of the operation's result. */
function checkSubjectLine(
	key: { line: number; key: string; value: string; valueStart: number },
	operation: OperationName,
	entry: ParsedEntry,
): LanguageDiagnostic[] {
	let subjectText = key.value;
	let offset = key.valueStart;
	if (key.key === 'capture') {
		const head = /^[A-Za-z_][A-Za-z0-9_]*\s*=\s*/.exec(subjectText);
		if (!head) return [];
		subjectText = subjectText.slice(head[0].length);
		offset += head[0].length;
	}
	let subject: Subject;
	try {
		subject = key.key === 'expect' ? subjectOfExpectation(subjectText) : parseSubject(subjectText).subject;
	} catch {
		return [];
	}
	if (subject.kind === 'xpath') return checkPrefixes(subject.expression, entry, key.line, offset, subjectText);
	if (subject.kind !== 'result') return [];
	const { problem } = typeOfPath(resultType(operation), subject.path);
	if (!problem) return [];
	const range = segmentRange(subjectText, subject.path, problem.segment);
	return [
		{
			line: key.line,
			column: offset + range.start,
			endColumn: offset + range.end,
			severity: 'error',
			message: problem.message,
			fixes: problem.suggestions.map((name) => ({ title: `Change to ${name}`, replacement: name })),
		},
	];
}

/** The codes each SOAP version writes, and their counterpart in the other version. */
const OTHER_VERSION_CODE: Record<'soap11' | 'soap12', Record<string, string>> = {
	soap11: { Sender: 'Client', Receiver: 'Server' },
	soap12: { Client: 'Sender', Server: 'Receiver' },
};

/** `fault.code == Client` on SOAP 1.2 (which sends Sender) and the like: a warning with the right code. */
function checkFaultCode(
	key: { line: number; value: string; valueStart: number },
	binding: BindingName | undefined,
): LanguageDiagnostic[] {
	let expectation;
	try {
		expectation = parseExpectation(key.value);
	} catch {
		return [];
	}
	if (expectation.kind !== 'compare' || expectation.subject.kind !== 'fault') return [];
	if (expectation.subject.field !== 'code' || expectation.operand?.kind !== 'string' || !binding) return [];
	const written = expectation.operand.value;
	const column = key.valueStart + key.value.lastIndexOf(written);
	const range = { line: key.line, column, endColumn: column + written.length, severity: 'warning' as const };
	if (binding === 'httpGet' || binding === 'httpPost') {
		return [
			{
				...range,
				message: `HTTP GET and POST carry no fault code (every error is HTTP 500 with a text): check fault.message or status == 500.`,
				fixes: [],
			},
		];
	}
	const right = OTHER_VERSION_CODE[binding][written];
	if (!right) return [];
	return [
		{
			...range,
			message: `${binding === 'soap12' ? 'SOAP 1.2' : 'SOAP 1.1'} sends ${right}, not ${written}: write fault.code == ${right}, or fault.cause == ${right === 'Server' || right === 'Receiver' ? 'service' : 'caller'} for any binding.`,
			fixes: [{ title: `Change to ${right}`, replacement: right }],
		},
	];
}

function subjectOfExpectation(text: string): Subject {
	const expectation = parseExpectation(text);
	if (expectation.kind !== 'compare') throw new Error('no subject');
	return expectation.subject;
}

/** Columns (in the subject text) of a path segment's name, for highlighting and replacing it. */
function segmentRange(text: string, path: readonly PathSegment[], index: number): { start: number; end: number } {
	let at = 'result'.length;
	for (let current = 0; current < path.length; current += 1) {
		const segment = path[current];
		const width =
			'field' in segment ? segment.field.length + 1 : 'index' in segment ? String(segment.index).length + 2 : 3;
		if (current === index) {
			return 'field' in segment ? { start: at + 1, end: at + width } : { start: at, end: at + width };
		}
		at += width;
	}
	return { start: 0, end: text.length };
}

function checkPrefixes(
	expression: string,
	entry: ParsedEntry,
	line: number,
	offset: number,
	subjectText: string,
): LanguageDiagnostic[] {
	const known = new Set(['soap', 'soap12', 'xsi', 'mp', 'xml', ...Object.keys(entry.namespaces)]);
	const diagnostics: LanguageDiagnostic[] = [];
	// Prefixes of name tests (prefix:name), not inside quoted strings or axes (axis::).
	const unquoted = expression.replace(/"[^"]*"|'[^']*'/g, (match) => ' '.repeat(match.length));
	for (const match of unquoted.matchAll(/(?<![\w.:-])([A-Za-z_][\w.-]*):(?!:)(?=[A-Za-z_*])/g)) {
		const prefix = match[1];
		if (known.has(prefix)) continue;
		const start = subjectText.indexOf(expression) + (match.index ?? 0);
		diagnostics.push({
			line,
			column: offset + start,
			endColumn: offset + start + prefix.length,
			severity: 'error',
			message: `the prefix ${prefix} is not declared: add "xmlns.${prefix}: <namespace URI>" (built in: soap, soap12, xsi, mp).`,
			fixes: [],
		});
	}
	return diagnostics;
}

/** The request block around a line: its operation (when valid) and whether the line is in its raw part. */
function blockAt(
	lines: readonly string[],
	line: number,
): { operation?: OperationName; inRaw: boolean; start: number; end: number } {
	let start = line;
	while (start > 0 && !lines[start].startsWith(REQUEST_SEPARATOR)) start -= 1;
	let end = line + 1;
	while (end < lines.length && !lines[end].startsWith(REQUEST_SEPARATOR)) end += 1;
	let operation: OperationName | undefined;
	let inRaw = false;
	for (let index = start; index < end; index += 1) {
		const text = lines[index];
		if (text.trim() === RAW_SEPARATOR) {
			if (index < line) inRaw = true;
			break;
		}
		const match = /^\s*operation\s*:\s*(\S+)/.exec(text);
		if (match && isOperationName(match[1])) operation = match[1];
	}
	return { operation, inRaw, start, end };
}

/** Capture names defined before a line. */
function capturesBefore(lines: readonly string[], line: number): string[] {
	const names: string[] = [];
	for (let index = 0; index < line; index += 1) {
		const match = /^\s*capture\s*:\s*([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(lines[index]);
		if (match && !names.includes(match[1])) names.push(match[1]);
	}
	return names;
}

/** Completion at a position. */
export function complete(text: string, line: number, character: number): LanguageCompletion[] {
	const lines = text.split(/\r?\n/);
	const current = lines[line] ?? '';
	const before = current.slice(0, character);
	const block = blockAt(lines, line);
	if (block.inRaw) return variableCompletions(before, lines, line) ?? [];
	const variables = variableCompletions(before, lines, line);
	if (variables) return variables;
	const colon = before.indexOf(':');
	if (colon < 0) return keyCompletions(block, lines);
	const key = before.slice(0, colon).trim();
	const valueStart = colon + 1 + (before.slice(colon + 1).length - before.slice(colon + 1).trimStart().length);
	const typed = before.slice(valueStart);
	switch (key) {
		case 'operation':
			return OPERATION_NAMES.map((name) => ({
				label: name,
				kind: 'operation',
				detail: `${OPERATIONS[name].endpoint} endpoint`,
				documentation: OPERATIONS[name].doc,
				replaceFrom: valueStart,
			}));
		case 'binding':
			return BINDING_NAMES.map((name) => ({
				label: name,
				kind: 'value',
				detail: BINDING_LABELS[name],
				replaceFrom: valueStart,
			}));
		case 'endpoint':
			return (['posting', 'administration'] as const).map((name) => ({
				label: name,
				kind: 'value',
				replaceFrom: valueStart,
			}));
		case 'expect':
			return subjectCompletions(typed, valueStart, block.operation, true);
		case 'capture': {
			const head = /^[A-Za-z_][A-Za-z0-9_]*\s*=\s*/.exec(typed);
			return head
				? subjectCompletions(typed.slice(head[0].length), valueStart + head[0].length, block.operation, false)
				: [];
		}
	}
	if (key.startsWith('param.') && block.operation) {
		const param = OPERATIONS[block.operation].params.find(
			(candidate) => candidate.name === key.slice('param.'.length),
		);
		if (!param) return [];
		const items: LanguageCompletion[] = [];
		if (param.role) {
			items.push({
				label: CONNECTION_PLACEHOLDERS[param.role],
				kind: 'variable',
				detail: 'from the active connection',
				replaceFrom: valueStart,
			});
		}
		if (param.valueSet) {
			const set = (VALUE_SETS as Record<string, { values: readonly { value: string; label: string }[] }>)[
				param.valueSet
			];
			for (const choice of set?.values ?? []) {
				items.push({ label: choice.value, kind: 'value', detail: choice.label, replaceFrom: valueStart });
			}
		}
		for (const name of capturesBefore(lines, block.start)) {
			items.push({
				label: `{{${name}}}`,
				kind: 'variable',
				detail: 'captured by an earlier request',
				replaceFrom: valueStart,
			});
		}
		return items;
	}
	return [];
}

/** `{{` typed in a value: the captured variables and the connection placeholders. */
function variableCompletions(before: string, lines: readonly string[], line: number): LanguageCompletion[] | undefined {
	const open = before.lastIndexOf('{{');
	if (open < 0 || before.indexOf('}}', open) >= 0) return undefined;
	const block = blockAt(lines, line);
	return [
		...capturesBefore(lines, block.start).map((name) => ({
			label: `{{${name}}}`,
			kind: 'variable' as const,
			detail: 'captured by an earlier request',
			replaceFrom: open,
		})),
		...Object.values(CONNECTION_PLACEHOLDERS).map((placeholder) => ({
			label: placeholder,
			kind: 'variable' as const,
			detail: 'from the active connection',
			replaceFrom: open,
		})),
	];
}

function keyCompletions(
	block: { operation?: OperationName; start: number; end: number },
	lines: readonly string[],
): LanguageCompletion[] {
	const items: LanguageCompletion[] = KEYS.map((key) => ({
		label: `${key}:`,
		kind: 'keyword' as const,
		insertText: `${key}: `,
		documentation: KEY_DOCS[key],
	}));
	items.push({
		label: 'xmlns.',
		kind: 'keyword',
		insertText: 'xmlns.',
		documentation: 'Declares an XPath prefix: `xmlns.<prefix>: <namespace URI>`.',
	});
	items.push({
		label: '###',
		kind: 'snippet',
		insertText: '### ',
		documentation: 'Starts a new request; the rest of the line is its name.',
	});
	if (block.operation) {
		const given = new Set<string>();
		for (let index = block.start; index < block.end; index += 1) {
			const match = /^\s*param\.([A-Za-z0-9_]+)\s*:/.exec(lines[index]);
			if (match) given.add(match[1]);
		}
		for (const param of OPERATIONS[block.operation].params) {
			if (given.has(param.name) && param.type !== 'string[]') continue;
			items.push({
				label: `param.${param.name}`,
				kind: 'param',
				insertText: `param.${param.name}: ${param.role ? CONNECTION_PLACEHOLDERS[param.role] : ''}`,
				detail: param.type,
				documentation: paramDoc(param),
			});
		}
	}
	return items;
}

const KEY_DOCS: Record<(typeof KEYS)[number], string> = {
	operation: 'The operation to call (one of the 20 of the catalogue).',
	binding: 'soap11 (default), soap12, httpGet or httpPost.',
	endpoint: 'posting or administration; optional, it follows from the operation.',
	expect: 'A check of the response: `status == 200`, `no fault`, `fault <Subcode>`, `result.<Path> >= 1`, `xpath(<XPath>) == x`, `time < 2s`, `header.<Name> contains x`, `body matches /re/`, `valid against wsdl`.',
	capture: 'Keeps a value for later requests: `capture: advertId = result.AdvertID`, then `{{advertId}}`.',
	retry: 'Sends the request again until its expectations hold: `retry: 10 every 500ms` (at most 10 sends, 500 ms apart; `s` for seconds).',
	scenario:
		"Sandbox only: turns a failure scenario on from this request to the end of the file: a library name (`service-down`, `slow-service`, `flaky-network`, …) or a `.json` file next to this one; `off` turns the file's scenarios off.",
	replay: 'Sandbox only: answers from a recording (`.mprec.json` next to this file) from this request to the end of the file: `strict` (default: a request not recorded gets the NotRecorded fault) or `fall-through` (the sandbox answers it); `off` stops it.',
};

const SUBJECT_COMPLETIONS: LanguageCompletion[] = [
	{ label: 'status', kind: 'keyword', detail: 'HTTP status', insertText: 'status == 200' },
	{ label: 'no fault', kind: 'keyword', detail: 'the response decodes to a result' },
	{ label: 'fault', kind: 'keyword', detail: 'the response is a fault (optionally with a subcode)' },
	{ label: 'result', kind: 'keyword', detail: 'the decoded result', insertText: 'result.' },
	{ label: 'xpath', kind: 'keyword', detail: 'XPath over the body', insertText: 'xpath(//mp:' },
	{ label: 'time', kind: 'keyword', detail: 'response time', insertText: 'time < 2s' },
	{ label: 'header', kind: 'keyword', detail: 'a response header', insertText: 'header.Content-Type' },
	{ label: 'body', kind: 'keyword', detail: 'the body as text', insertText: 'body contains ' },
	{ label: 'valid against wsdl', kind: 'keyword', detail: "the body is valid against the endpoint's schema" },
];

function subjectCompletions(
	typed: string,
	start: number,
	operation: OperationName | undefined,
	expect: boolean,
): LanguageCompletion[] {
	const fault = /^fault\s+(\w*)$/.exec(typed);
	if (expect && fault) {
		return FAULT_SUBCODES.map((code) => ({
			label: code,
			kind: 'value',
			replaceFrom: start + typed.length - fault[1].length,
		}));
	}
	const path = /^result((?:\.[A-Za-z_][A-Za-z0-9_]*|\[(?:\d+|\*)\])*)(\.|\[)?([A-Za-z_0-9]*)$/.exec(typed);
	if (path && operation && (path[2] || path[1])) {
		let segments: PathSegment[];
		try {
			segments = path[1] ? (parseSubject(`result${path[1]}`).subject as { path: PathSegment[] }).path : [];
		} catch {
			return [];
		}
		const { type } = typeOfPath(resultType(operation), segments);
		if (!type) return [];
		const replaceFrom = start + typed.length - path[3].length;
		if (path[2] === '[' || (type.kind === 'list' && !path[2])) {
			return [
				{
					label: '[0]',
					kind: 'field',
					detail: 'the first item',
					insertText: path[2] === '[' ? '0]' : '[0]',
					replaceFrom,
				},
				{
					label: '[*]',
					kind: 'field',
					detail: 'every item',
					insertText: path[2] === '[' ? '*]' : '[*]',
					replaceFrom,
				},
				{
					label: 'length',
					kind: 'field',
					detail: 'int: number of items',
					insertText: path[2] === '[' ? undefined : '.length',
					replaceFrom,
				},
			].filter((item) => item.insertText !== undefined) as LanguageCompletion[];
		}
		if (path[2] === '.') return fieldCompletions(type, replaceFrom);
		return [];
	}
	if (/^[a-z ]*$/.test(typed)) {
		return SUBJECT_COMPLETIONS.filter(
			(item) => expect || !['no fault', 'fault', 'valid against wsdl'].includes(item.label),
		).map((item) => ({ ...item, replaceFrom: start }));
	}
	return [];
}

function fieldCompletions(type: PathType, replaceFrom: number): LanguageCompletion[] {
	const items: LanguageCompletion[] = fieldsOf(type).map((field) => ({
		label: field.name,
		kind: 'field',
		detail: describeType(typeOfPath(type, [{ field: field.name }]).type ?? type),
		documentation: field.doc,
		replaceFrom,
	}));
	if (type.kind === 'list' || (type.kind === 'scalar' && type.scalar === 'string')) {
		items.push({ label: 'length', kind: 'field', detail: 'int', replaceFrom });
	}
	return items;
}

/** Hover at a position: operations, parameters, bindings, result fields and the keys. */
export function hover(text: string, line: number, character: number): LanguageHover | undefined {
	const lines = text.split(/\r?\n/);
	const current = lines[line] ?? '';
	const block = blockAt(lines, line);
	if (block.inRaw) return undefined;
	const word = wordAt(current, character);
	if (!word) return undefined;
	const colon = current.indexOf(':');
	const key = colon >= 0 ? current.slice(0, colon).trim() : '';
	const onKey = colon < 0 || character <= colon;
	if (onKey && key.startsWith('param.') && block.operation) {
		const param = OPERATIONS[block.operation].params.find((candidate) => candidate.name === key.slice(6));
		if (param) return { markdown: `**${param.name}** (${param.type})\n\n${paramDoc(param)}`, ...word };
	}
	if (onKey && (KEYS as readonly string[]).includes(key)) {
		return { markdown: `**${key}**: ${KEY_DOCS[key as (typeof KEYS)[number]]}`, ...word };
	}
	if (!onKey && key === 'operation' && isOperationName(word.text)) {
		return { markdown: operationDoc(word.text), ...word };
	}
	if (!onKey && key === 'binding' && (BINDING_NAMES as readonly string[]).includes(word.text)) {
		return { markdown: `**${word.text}**: ${BINDING_LABELS[word.text as keyof typeof BINDING_LABELS]}`, ...word };
	}
	if (!onKey && (key === 'expect' || key === 'capture') && block.operation) {
		const upto = current.slice(0, word.endColumn);
		const path = /result((?:\.[A-Za-z_][A-Za-z0-9_]*|\[(?:\d+|\*)\])*)$/.exec(upto);
		if (path) {
			try {
				const segments = (parseSubject(`result${path[1]}`).subject as { path: PathSegment[] }).path;
				const { type } = typeOfPath(resultType(block.operation), segments);
				if (type) {
					const last = segments[segments.length - 1];
					const parent = typeOfPath(resultType(block.operation), segments.slice(0, -1)).type;
					const field =
						last && 'field' in last && parent
							? fieldsOf(parent).find((candidate) => candidate.name === last.field)
							: undefined;
					const doc = field?.doc ?? (type.kind === 'record' ? recordDoc(type.record) : '');
					return {
						markdown: `**result${path[1]}**: ${describeType(type)}${doc ? `\n\n${doc}` : ''}`,
						...word,
					};
				}
			} catch {
				return undefined;
			}
		}
	}
	return undefined;
}

function recordDoc(record: string): string {
	return (RECORDS as Record<string, { doc: string }>)[record]?.doc ?? '';
}

function wordAt(line: string, character: number): { text: string; column: number; endColumn: number } | undefined {
	const pattern = /[A-Za-z0-9_.]+/g;
	for (const match of line.matchAll(pattern)) {
		const start = match.index ?? 0;
		if (character >= start && character <= start + match[0].length) {
			// Hover names the part under the cursor of a dotted word.
			const parts = match[0].split('.');
			let at = start;
			for (const part of parts) {
				if (character <= at + part.length) return { text: part, column: at, endColumn: at + part.length };
				at += part.length + 1;
			}
		}
	}
	return undefined;
}

function paramDoc(param: ParamSpec): string {
	const lines = [param.doc ?? ''];
	if (param.role) lines.push(`Filled from the connection: \`${CONNECTION_PLACEHOLDERS[param.role]}\`.`);
	if (param.valueSet) {
		const set = (
			VALUE_SETS as Record<string, { closed: boolean; values: readonly { value: string; label: string }[] }>
		)[param.valueSet];
		if (set) {
			lines.push(
				`${set.closed ? 'One of' : 'For example'}: ${set.values.map((choice) => `\`${choice.value}\` (${choice.label})`).join(', ')}.`,
			);
		}
	}
	return lines.filter((text) => text.length > 0).join('\n\n');
}

function operationDoc(operation: OperationName): string {
	const spec = OPERATIONS[operation];
	const params = spec.params.map(
		(param) => `- \`${param.name}\` (${param.type})${param.doc ? `: ${param.doc}` : ''}`,
	);
	const result = spec.result.kind === 'list' ? `list of ${spec.result.record}` : spec.result.record;
	return [
		`**${operation}** (${spec.endpoint} endpoint)`,
		spec.doc,
		`Returns: ${result}`,
		'Parameters:',
		...params,
	].join('\n\n');
}
