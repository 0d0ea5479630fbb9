import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { BINDING_NAMES } from '../../../src/protocol/bindings/types';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../../src/protocol/catalogue';
import {
	CONNECTION_PLACEHOLDERS,
	OPERATORS,
	REQUEST_FILE_HEADER,
	appendRequestEntry,
	parseRequestFile,
	parseRequestFileEntries,
	serializeRequestEntries,
	serializeRequestFile,
	type Capture,
	type Expectation,
	type Operand,
	type PathSegment,
	type RequestEntry,
	type Subject,
} from '../../../src/protocol/requestFile';

/** The entries of a file without positions and issues, for comparisons. */
function entriesOf(text: string): RequestEntry[] {
	const parsed = parseRequestFileEntries(text);
	assert.deepEqual(
		parsed.issues.filter((issue) => issue.severity !== 'warning'),
		[],
		`unexpected issues in:\n${text}`,
	);
	return parsed.entries.map(({ location: _location, issues: _issues, ...entry }) => entry);
}

const SCENARIO = `# Multiposting request
# A scenario: post an advert, then read it back.

### Post an advert
operation: AddAdvert
binding: soap12
param.sAPIKey: {{connection.apiKey}}
param.sJobTitle: Staff Nurse
expect: status == 200
expect: no fault
capture: advertId = result.AdvertID

### Read it back
operation: GetAdvertPaged
param.sAdvertID: {{advertId}}
param.CurrentPage: 1
param.RowsPerPage: {{rows}}
xmlns.a: urn:example
expect: result.Adverts[0].AdvertTitle == "Staff Nurse"
expect: result.Adverts[*].AdvertID == {{advertId}}
expect: xpath(count(//mp:APIAdvert)) >= 1
expect: time < 2s

###
---
GET /complete-posting/{{token}} HTTP/1.1

expect: not a key line but part of the body
`;

describe('request files with several requests', () => {
	it('reads named requests with expectations, captures, namespaces and a plain HTTP request', () => {
		const parsed = parseRequestFileEntries(SCENARIO);
		// The last line is body text that looks like a key line: a warning, nothing more.
		assert.deepEqual(parsed.issues, [
			{
				line: 28,
				severity: 'warning',
				message: 'this expect line is part of the raw request; expect lines go before ---.',
				column: 0,
				endColumn: 6,
			},
		]);
		assert.equal(parsed.entries.length, 3);
		const [post, read, plain] = parsed.entries;
		assert.equal(post.name, 'Post an advert');
		assert.deepEqual(post.document, {
			operation: 'AddAdvert',
			binding: 'soap12',
			endpoint: 'posting',
			params: { sAPIKey: '{{connection.apiKey}}', sJobTitle: 'Staff Nurse' },
		});
		assert.deepEqual(post.expectations, [
			{ kind: 'compare', subject: { kind: 'status' }, operator: '==', operand: { kind: 'number', value: 200 } },
			{ kind: 'noFault' },
		]);
		assert.deepEqual(post.captures, [
			{ name: 'advertId', subject: { kind: 'result', path: [{ field: 'AdvertID' }] } },
		]);
		assert.deepEqual(post.location, {
			start: 4,
			end: 12,
			first: 5,
			expectationLines: [9, 10],
			captureLines: [11],
			operationLine: 5,
			variableUses: [],
		});
		assert.deepEqual(
			read.location.variableUses.map((use) => [use.name, use.line, use.column, use.endColumn]),
			[
				['advertId', 15, 17, 29],
				['rows', 17, 19, 27],
				['advertId', 20, 38, 50],
			],
		);
		assert.deepEqual(
			plain.location.variableUses.map((use) => [use.name, use.line]),
			[['token', 26]],
		);
		// An int parameter holding a variable stays text until it is sent.
		assert.equal(read.document?.params.RowsPerPage, '{{rows}}');
		assert.equal(read.document?.params.CurrentPage, 1);
		assert.deepEqual(read.namespaces, { a: 'urn:example' });
		assert.deepEqual(read.expectations[1], {
			kind: 'compare',
			subject: { kind: 'result', path: [{ field: 'Adverts' }, { every: true }, { field: 'AdvertID' }] },
			operator: '==',
			operand: { kind: 'string', value: '{{advertId}}' },
		});
		assert.deepEqual(read.expectations[3], {
			kind: 'compare',
			subject: { kind: 'time' },
			operator: '<',
			operand: { kind: 'number', value: 2, unit: 's' },
		});
		assert.equal(plain.name, undefined);
		assert.equal(plain.document, undefined);
		assert.deepEqual(plain.http, {
			method: 'GET',
			target: '/complete-posting/{{token}}',
			headers: [],
			body: 'expect: not a key line but part of the body',
		});
	});

	it('reads a file of the earlier single-request format as one request', () => {
		const text = `${REQUEST_FILE_HEADER}\noperation: GetCurrency\nparam.sCultureID: en-GB\n---\nPOST /SOAP/Posting.asmx HTTP/1.1\n\n<x/>\n`;
		const [entry] = entriesOf(text);
		assert.equal(entry.document?.operation, 'GetCurrency');
		assert.equal(entry.document?.raw?.body, '<x/>');
		assert.deepEqual(parseRequestFile(text), entry.document);
	});

	it('refuses to read a file of several requests as one', () => {
		assert.throws(() => parseRequestFile(SCENARIO), /holds 3 requests/);
	});

	it('reports problems with their line, columns and quick fixes', () => {
		const text = [
			'### one',
			'operation: GetCurency',
			'### two',
			'operation: GetCurrency',
			'binding: soap13',
			'endpoint: administration',
			'param.sCultureId: en',
			'expect: result[0].Value === GBP',
			'expect: staus == 200',
			'capture: 1x = status',
			'expekt: no fault',
		].join('\n');
		const parsed = parseRequestFileEntries(text);
		const summary = parsed.issues.map((issue) => ({
			line: issue.line,
			column: issue.column,
			endColumn: issue.endColumn,
			fixes: issue.fixes?.map((fix) => fix.replacement),
		}));
		assert.deepEqual(summary, [
			{ line: 2, column: 11, endColumn: 21, fixes: ['GetCurrency'] },
			{ line: 5, column: 9, endColumn: 15, fixes: ['soap11', 'soap12'] },
			{ line: 6, column: 10, endColumn: 24, fixes: ['posting'] },
			{ line: 7, column: 6, endColumn: 16, fixes: ['sCultureID'] },
			{ line: 8, column: 24, endColumn: 27, fixes: undefined },
			{ line: 9, column: 8, endColumn: 13, fixes: undefined },
			{ line: 10, column: 9, endColumn: 11, fixes: undefined },
			{ line: 11, column: 0, endColumn: 6, fixes: ['expect'] },
		]);
		assert.match(parsed.issues[4].message, /expected an operator/);
		assert.match(parsed.issues[5].message, /expected status, time, body/);
		// An entry with errors is not runnable.
		assert.equal(parsed.entries[0].document, undefined);
		assert.equal(parsed.entries[1].document, undefined);
	});

	it('explains bad expressions', () => {
		const messages = (line: string): string[] =>
			parseRequestFileEntries(`operation: GetCurrency\n${line}`).issues.map((issue) => issue.message);
		assert.match(messages('expect: status exists 3')[0], /exists takes no value/);
		assert.match(messages('expect: status ==')[0], /== needs a value/);
		assert.match(messages('expect: body matches Acme')[0], /matches needs a regular expression/);
		assert.match(messages('expect: body == /x/')[0], /goes with matches/);
		assert.match(messages('expect: status < 3s')[0], /units .* go with time only/);
		assert.match(messages('expect: body matches /(/')[0], /not valid/);
		assert.match(messages('expect: fault.reason == x')[0], /code, cause, subcode, message/);
		assert.match(messages('expect: xpath(//a == 1')[0], /no closing parenthesis/);
		assert.match(messages('expect: result.Items[x] == 1')[0], /\[<index>\] or \[\*\]/);
		assert.match(messages('capture: connection = status')[0], /reserved/);
		assert.match(messages('capture: id = status then')[0], /match \/pattern\//);
		assert.match(messages('capture: id')[0], /<name> = <subject>/);
		assert.match(messages('param.sCultureID: en\nparam.sCultureID: de')[0], /given twice/);
		assert.match(messages('binding: httpGet\nparam.q: x')[0], /no parameter q/);
		// Lines after --- are the raw request's headers, not keys.
		assert.deepEqual(parseRequestFileEntries('---\nGET / HTTP/1.1\nbinding: soap11').issues, []);
		assert.match(
			parseRequestFileEntries('binding: soap11\n---\nGET / HTTP/1.1').issues[0].message,
			/binding needs an operation/,
		);
		assert.match(parseRequestFileEntries('expect: no fault').issues[0].message, /names no operation/);
	});

	it('reads and writes retry: tries and an interval, within bounds', () => {
		const [entry] = entriesOf('### Wait\noperation: GetCurrency\nretry: 10 every 500ms\nexpect: no fault\n');
		assert.deepEqual(entry.retry, { tries: 10, intervalMs: 500 });
		assert.deepEqual(entriesOf(serializeRequestEntries([entry]))[0].retry, { tries: 10, intervalMs: 500 });
		assert.match(serializeRequestEntries([entry]), /\nretry: 10 every 500ms\n/);
		assert.deepEqual(entriesOf('operation: GetCurrency\nretry: 3 every 1.5s\nexpect: no fault')[0].retry, {
			tries: 3,
			intervalMs: 1500,
		});
		assert.deepEqual(entriesOf('operation: GetCurrency\nretry: 3\nexpect: no fault')[0].retry, {
			tries: 3,
			intervalMs: 1000,
		});
		const messages = (line: string): string[] =>
			parseRequestFileEntries(`operation: GetCurrency\n${line}\nexpect: no fault`).issues.map(
				(issue) => issue.message,
			);
		assert.match(messages('retry: often')[0], /write retry: <tries> every <interval>/);
		assert.match(messages('retry: 0 every 1s')[0], /1 to 100 tries, got 0/);
		assert.match(messages('retry: 101')[0], /1 to 100 tries/);
		assert.match(messages('retry: 5 every 2m')[0], /write retry/);
		assert.match(messages('retry: 5 every 61s')[0], /at most 60s/);
		assert.match(messages('retry: 2\nretry: 3')[0], /retry is given twice/);
		assert.match(
			parseRequestFileEntries('operation: GetCurrency\nretry: 2').issues[0].message,
			/retry waits for the expectations to hold, and this request has none/,
		);
	});

	it('appends a request to an existing file without changing what is there', () => {
		const single = serializeRequestFile({
			operation: 'GetCurrency',
			binding: 'soap11',
			endpoint: 'posting',
			params: { sCultureID: 'en' },
			raw: { method: 'POST', target: '/SOAP/Posting.asmx', headers: [], body: '<a/>\n' },
		});
		const added: RequestEntry = {
			name: 'Weeks',
			document: { operation: 'GetWeeksToAdvertise', binding: 'httpGet', endpoint: 'administration', params: {} },
			expectations: [{ kind: 'noFault' }],
			captures: [],
			namespaces: {},
		};
		const text = appendRequestEntry(single, added);
		const entries = entriesOf(text);
		assert.equal(entries.length, 2);
		assert.deepEqual(entries[0].document, parseRequestFile(single));
		assert.deepEqual(entries[1], added);
		assert.ok(text.startsWith(single));
	});

	it('never writes a secret in expectations either', () => {
		const text = serializeRequestEntries(
			[
				{
					name: 'x',
					document: {
						operation: 'GetCurrency',
						binding: 'soap11',
						endpoint: 'posting',
						params: { sAPIKey: 'top-secret' },
					},
					expectations: [
						{
							kind: 'compare',
							subject: { kind: 'body' },
							operator: 'contains',
							operand: { kind: 'string', value: 'top-secret' },
						},
					],
					captures: [],
					namespaces: {},
				},
			],
			{ apiKey: 'top-secret' },
		);
		assert.ok(!text.includes('top-secret'), text);
		assert.ok(text.includes(`param.sAPIKey: ${CONNECTION_PLACEHOLDERS.apiKey}`));
	});
});

// Generators of the format's building blocks, for the round-trip property.
const fieldName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
const segment: fc.Arbitrary<PathSegment> = fc.oneof(
	fieldName.map((field) => ({ field })),
	fc.nat(20).map((index) => ({ index })),
	fc.constant({ every: true as const }),
);
const subject: fc.Arbitrary<Subject> = fc.oneof(
	fc.constantFrom<Subject>({ kind: 'status' }, { kind: 'time' }, { kind: 'body' }, { kind: 'fault' }),
	fc.constantFrom('code', 'subcode', 'message').map((field) => ({ kind: 'fault' as const, field })),
	fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/).map((name) => ({ kind: 'header' as const, name })),
	fc.array(segment, { maxLength: 4 }).map((path) => ({ kind: 'result' as const, path })),
	fc
		.constantFrom('//mp:AdvertID', 'count(//a:x[@y="1"])', 'string(/soap:Envelope/soap:Body/*[1])', '1 + (2)')
		.map((expression) => ({ kind: 'xpath' as const, expression })),
);
const regex = fc.constantFrom(
	{ source: '^Acme', flags: 'i' },
	{ source: 'a\\/b', flags: '' },
	{ source: 'x(y)', flags: 'su' },
);
const operand: fc.Arbitrary<Operand> = fc.oneof(
	fc.integer({ min: -1000, max: 100000 }).map((value) => ({ kind: 'number' as const, value })),
	fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }).map((value) => ({
		kind: 'number' as const,
		value: Number(value.toFixed(3)) || 0,
	})),
	fc.string().map((value) => ({ kind: 'string' as const, value })),
	fc.boolean().map((value) => ({ kind: 'boolean' as const, value })),
	fc.constant({ kind: 'null' as const }),
);
const expectation: fc.Arbitrary<Expectation> = fc.oneof(
	fc.constantFrom<Expectation>({ kind: 'noFault' }, { kind: 'fault' }, { kind: 'schemaValid' }),
	fc.stringMatching(/^[A-Z][A-Za-z]{0,12}$/).map((subcode) => ({ kind: 'fault' as const, subcode })),
	fc.tuple(subject, fc.constantFrom(...OPERATORS), operand, regex).map(([subject, operator, value, pattern]) => {
		if (operator === 'exists' || operator === 'absent') return { kind: 'compare' as const, subject, operator };
		if (operator === 'matches') {
			return { kind: 'compare' as const, subject, operator, operand: { kind: 'regex' as const, ...pattern } };
		}
		return { kind: 'compare' as const, subject, operator, operand: value };
	}),
	fc.integer({ min: 0, max: 5000 }).map((value) => ({
		kind: 'compare' as const,
		subject: { kind: 'time' as const },
		operator: '<' as const,
		operand: { kind: 'number' as const, value, unit: 'ms' as const },
	})),
);
const capture: fc.Arbitrary<Capture> = fc
	.tuple(
		fieldName.filter((name) => name !== 'connection'),
		subject,
		fc.option(regex, { nil: undefined }),
	)
	.map(([name, subject, pattern]) => (pattern ? { name, subject, pattern } : { name, subject }));
const safeText = fc.string().filter((text) => !text.split('\n').some((line) => line.startsWith('###')));
const entry: fc.Arbitrary<RequestEntry> = fc
	.record({
		name: fc.option(
			fc
				.string()
				.filter(
					(name) => name === name.trim() && !/[\r\n]/.test(name) && name.length > 0 && !name.startsWith('#'),
				),
			{ nil: undefined },
		),
		operation: fc.option(fc.constantFrom(...OPERATION_NAMES), { nil: undefined }),
		binding: fc.constantFrom(...BINDING_NAMES),
		text: fc.string(),
		withRaw: fc.boolean(),
		body: safeText,
		expectations: fc.array(expectation, { maxLength: 4 }),
		captures: fc.array(capture, { maxLength: 2 }),
		namespaces: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9]{0,4}$/), fc.webUrl(), { maxKeys: 2 }),
	})
	.map((record) => {
		const raw = {
			method: 'POST',
			target: '/SOAP/Posting.asmx',
			headers: [['Content-Type', 'text/xml']] as [string, string][],
			body: record.body,
		};
		const result: RequestEntry = {
			expectations: record.expectations,
			captures: record.captures,
			namespaces: { ...record.namespaces },
		};
		if (record.name !== undefined) result.name = record.name;
		if (record.operation) {
			const operation: OperationName = record.operation;
			const params: Record<string, string | number | boolean | string[]> = {};
			for (const param of OPERATIONS[operation].params) {
				if (param.role === 'apiKey' || param.role === 'password') {
					params[param.name] = CONNECTION_PLACEHOLDERS[param.role];
				} else if (param.type === 'string[]') params[param.name] = [record.text, 'x'];
				else if (param.type === 'int') params[param.name] = 3;
				else if (param.type === 'boolean') params[param.name] = true;
				else params[param.name] = record.text;
			}
			result.document = { operation, binding: record.binding, endpoint: OPERATIONS[operation].endpoint, params };
			if (record.withRaw) result.document.raw = raw;
		} else {
			result.http = raw;
		}
		return result;
	});

describe('request file round trip (property)', () => {
	it('reads back every list of requests it writes', () => {
		fc.assert(
			fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), (entries) => {
				const text = serializeRequestEntries(entries);
				assert.deepEqual(entriesOf(text), entries);
				// Writing what was read gives the same text: the canonical form is stable in a diff.
				assert.equal(serializeRequestEntries(entriesOf(text)), text);
			}),
			{ numRuns: 300 },
		);
	});
});
