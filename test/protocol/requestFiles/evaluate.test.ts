import * as assert from 'node:assert/strict';
import type { BindingName } from '../../../src/protocol/bindings/types';
import type { FaultCode } from '../../../src/protocol/faults';
import {
	evaluateExpectation,
	observedFault,
	readCapture,
	type ObservedExchange,
} from '../../../src/protocol/requestFiles/evaluate';
import { substituteXPathVariables } from '../../../src/protocol/requestFiles/xpath';
import { parseCapture, parseExpectation } from '../../../src/protocol/requestFiles/expressions';
import { resultType, typeOfPath, describeType } from '../../../src/protocol/requestFiles/resultPaths';

const NS = 'http://127.0.0.1:8099/';
const BODY = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<GetApplicationsPagedResponse xmlns="${NS}"><ApplicationPaged><PageCount>3</PageCount><TotalItemCount>120</TotalItemCount>
<Applications><APIApplication><AdvertCandidateID>11</AdvertCandidateID><Score>4</Score></APIApplication>
<APIApplication><AdvertCandidateID>12</AdvertCandidateID><Score>2</Score></APIApplication></Applications>
</ApplicationPaged></GetApplicationsPagedResponse></soap:Body></soap:Envelope>`;

const page: ObservedExchange = {
	status: 200,
	headers: [['Content-Type', 'text/xml; charset=utf-8']],
	bodyText: BODY,
	timeMs: 42.4,
	serviceNamespace: NS,
	decoded: {
		result: {
			PageCount: 3,
			TotalItemCount: 120,
			Applications: [
				{
					AdvertCandidateID: 11,
					AdvertID: 7,
					Score: 4,
					ApplicationDate: '2026-01-02T10:00:00.000Z',
					EmailAddress: 'a@example.com',
				},
				{
					AdvertCandidateID: 12,
					AdvertID: 7,
					Score: 2,
					ApplicationDate: '2026-01-03T10:00:00.000Z',
					LastScoreDate: null,
				},
			],
		},
	},
};

const fault: ObservedExchange = {
	status: 500,
	headers: [],
	bodyText: '<soap:Envelope/>',
	timeMs: 3,
	serviceNamespace: NS,
	decoded: {
		fault: { code: 'Client', subcode: 'MissingFilter', message: 'At least one search filter must be given.' },
	},
};

function check(text: string, observed: ObservedExchange = page, variables: Record<string, string> = {}) {
	return evaluateExpectation(parseExpectation(text), observed, { variables, namespaces: { x: NS } });
}

describe('expectations', () => {
	it('passes and fails on status, time, headers and body', () => {
		assert.equal(check('status == 200').passed, true);
		assert.deepEqual(check('status != 200'), {
			text: 'status != 200',
			passed: false,
			expected: '!= 200',
			actual: '200',
			message: 'status != 200: got 200',
		});
		assert.equal(check('time < 1s').passed, true);
		assert.equal(check('time < 40ms').passed, false);
		assert.equal(check('header.content-type contains text/xml').passed, true);
		assert.equal(check('header.X-Missing absent').passed, true);
		assert.equal(check('body contains "<TotalItemCount>120"').passed, true);
		assert.equal(check('body matches /totalitemcount>\\d+/i').passed, true);
	});

	it('compares result fields by path in the record model', () => {
		assert.equal(check('result.TotalItemCount >= 1').passed, true);
		assert.equal(check('result.Applications[0].Score == 4').passed, true);
		assert.equal(check('result.Applications[1].Score == "2"').passed, true);
		assert.equal(check('result.Applications.length == 2').passed, true);
		assert.equal(check('result.Applications[5].Score exists').passed, false);
		assert.equal(check('result.Applications[1].LastScoreDate absent').passed, true);
		assert.equal(check('result.Applications[0].ApplicationDate < 2026-01-03').passed, true);
		assert.equal(check('result.Applications[0].EmailAddress matches /@example\\.com$/').passed, true);
		const every = check('result.Applications[*].Score >= 3');
		assert.equal(every.passed, false);
		assert.equal(every.actual, 'item 1: 2');
		assert.equal(check('result.Applications[*].AdvertID == {{advertId}}', page, { advertId: '7' }).passed, true);
		assert.equal(
			check('result.Applications[*].AdvertID == 7', { ...page, decoded: { result: { Applications: [] } } })
				.passed,
			false,
		);
		assert.match(check('result.TotalItemCount == {{missing}}').actual, /no value for \{\{missing\}\}/);
		assert.match(check('result.TotalItemCount == 1', fault).actual, /no result: fault Client\/MissingFilter/);
	});

	it('checks faults and their subcodes', () => {
		assert.equal(check('no fault').passed, true);
		assert.equal(check('no fault', fault).passed, false);
		assert.equal(check('fault', fault).passed, true);
		assert.equal(check('fault MissingFilter', fault).passed, true);
		assert.deepEqual(check('fault AccessDenied', fault), {
			text: 'fault AccessDenied',
			passed: false,
			expected: 'fault AccessDenied',
			actual: 'fault Client/MissingFilter: At least one search filter must be given.',
			message: 'fault AccessDenied: got fault Client/MissingFilter: At least one search filter must be given.',
		});
		assert.equal(check('fault.code == Client', fault).passed, true);
		assert.equal(check('fault.message contains "search filter"', fault).passed, true);
		assert.equal(check('fault', page).actual, 'a result (no fault)');
	});

	it('reports a fault code as the binding sent it, and who caused it whatever the binding', () => {
		const missing = {
			code: 'Client' as const,
			subcode: 'MissingFilter',
			message: 'At least one search filter must be given.',
		};
		const sent = (binding: BindingName, code: FaultCode = 'Client'): ObservedExchange => ({
			...fault,
			decoded: { fault: observedFault({ ...missing, code }, binding) },
		});
		assert.deepEqual(observedFault(missing, 'soap12'), { ...missing, code: 'Sender', cause: 'caller' });
		assert.deepEqual(observedFault({ ...missing, code: 'Server' }, 'soap11'), {
			...missing,
			code: 'Server',
			cause: 'service',
		});
		assert.equal(check('fault.code == Sender', sent('soap12')).passed, true);
		assert.equal(check('fault.code == Client', sent('soap12')).actual, '"Sender"');
		assert.equal(check('fault.code == Client', sent('soap11')).passed, true);
		assert.equal(check('fault.code == Receiver', sent('soap12', 'Server')).passed, true);
		for (const binding of ['soap11', 'soap12'] as const) {
			assert.equal(check('fault.cause == caller', sent(binding)).passed, true, binding);
			assert.equal(check('fault.cause == service', sent(binding, 'Server')).passed, true, binding);
		}
		// HTTP GET and POST answer every error with HTTP 500 and a text: no code, no cause.
		assert.equal(check('fault.code absent', sent('httpGet')).passed, true);
		assert.equal(check('fault.cause absent', sent('httpPost')).passed, true);
		assert.equal(
			check('fault', sent('httpGet')).actual,
			'fault MissingFilter: At least one search filter must be given.',
		);
		assert.equal(
			check('fault', sent('soap12')).actual,
			'fault Sender/MissingFilter: At least one search filter must be given.',
		);
	});

	it('evaluates XPath with built-in and declared prefixes', () => {
		assert.equal(check('xpath(//mp:TotalItemCount) == 120').passed, true);
		assert.equal(check('xpath(count(//x:APIApplication)) == 2').passed, true);
		assert.equal(check('xpath(/soap:Envelope/soap:Body/*[1]/x:ApplicationPaged/x:PageCount) == 3').passed, true);
		assert.equal(check('xpath(//mp:Nothing) absent').passed, true);
		assert.equal(check('xpath(boolean(//mp:PageCount)) == true').passed, true);
		assert.match(check('xpath(//q:x) exists').actual, /could not be evaluated/);
		assert.match(check('xpath(//a) exists', { ...page, bodyText: '<a><b></a>' }).actual, /not well-formed/);
	});

	it('checks the schema verdict', () => {
		assert.equal(check('valid against wsdl', { ...page, schema: { valid: true } }).passed, true);
		const invalid = check('valid against wsdl', {
			...page,
			schema: { valid: false, errors: ['Element PageCount: not an int'] },
		});
		assert.equal(invalid.passed, false);
		assert.equal(invalid.actual, 'Element PageCount: not an int');
		assert.match(check('valid against wsdl').actual, /not checked/);
	});

	it('fails every expectation when no response arrived', () => {
		const none: ObservedExchange = {
			headers: [],
			bodyText: '',
			timeMs: 5,
			error: 'connection refused',
			serviceNamespace: NS,
		};
		assert.equal(check('status exists', none).passed, false);
		assert.equal(check('no fault', none).actual, 'no response (connection refused)');
	});
});

describe('variables in XPaths and patterns', () => {
	it('puts a value into an XPath as a string of its own outside quotes, as it is inside them', () => {
		const vars = { id: '12', min: '3', title: 'Nurse', quoted: `it's "x"` };
		assert.equal(
			check('xpath(//mp:APIApplication[mp:AdvertCandidateID={{id}}]/mp:Score) == 2', page, vars).passed,
			true,
		);
		assert.equal(check('xpath(count(//mp:APIApplication[mp:Score > {{min}}])) == 1', page, vars).passed, true);
		assert.equal(check('xpath(count(//mp:Score[. = "{{min}}"])) == 0', page, vars).passed, true);
		assert.equal(check(`xpath(count(//mp:Score[. = {{quoted}}])) == 0`, page, vars).passed, true);
		assert.match(
			check('xpath(//mp:Score[. = "{{quoted}}"]) absent', page, vars).actual,
			/\{\{quoted\}\} holds a " and stands inside a "-quoted XPath string/,
		);
		assert.equal(
			check('xpath(//mp:Score[. = {{nope}}]) absent', page, vars).actual,
			'no value for {{nope}} (not captured)',
		);
		assert.deepEqual(substituteXPathVariables(`a[b={{q}}]`, { q: `it's "x"` }), {
			text: `a[b=concat('it', "'", 's "x"')]`,
			missing: [],
		});
	});

	it('makes a value in a pattern match itself only, in expectations and captures', () => {
		assert.equal(check('body matches /TotalItemCount>{{n}}</', page, { n: '120' }).passed, true);
		// "1.0" would match "120" as a pattern; as a value it matches only "1.0".
		assert.equal(check('body matches /TotalItemCount>{{n}}</', page, { n: '1.0' }).passed, false);
		assert.deepEqual(parseExpectation('body matches /{{x}}+/u').kind, 'compare');
		assert.deepEqual(
			readCapture(
				parseCapture('score = body match /<AdvertCandidateID>{{id}}<\\/AdvertCandidateID><Score>(\\d+)/'),
				page,
				{},
				{ id: '12' },
			),
			{ value: '2' },
		);
		assert.deepEqual(
			readCapture(parseCapture('x = xpath(string(//mp:Score[../mp:AdvertCandidateID={{id}}]))'), page, {}, {}),
			{
				problem:
					'capture x = xpath(string(//mp:Score[../mp:AdvertCandidateID={{id}}])): no value for {{id}} (not captured)',
			},
		);
	});
});

describe('captures', () => {
	it('reads values as text, with an optional pattern', () => {
		assert.deepEqual(readCapture(parseCapture('total = result.TotalItemCount'), page), { value: '120' });
		assert.deepEqual(readCapture(parseCapture('first = xpath(string(//mp:AdvertCandidateID))'), page), {
			value: '11',
		});
		assert.deepEqual(readCapture(parseCapture('charset = header.content-type match /charset=([\\w-]+)/'), page), {
			value: 'utf-8',
		});
	});

	it('reports what is missing', () => {
		assert.match((readCapture(parseCapture('id = result.Nope'), page) as { problem: string }).problem, /absent/);
		assert.match(
			(readCapture(parseCapture('id = result.Applications[*].Score'), page) as { problem: string }).problem,
			/several values/,
		);
		assert.match(
			(readCapture(parseCapture('id = result.TotalItemCount'), fault) as { problem: string }).problem,
			/MissingFilter/,
		);
		assert.match(
			(readCapture(parseCapture('id = body match /nothing(\\d)/'), page) as { problem: string }).problem,
			/does not match/,
		);
	});
});

describe('result paths in the record model', () => {
	it('types paths and names the problem with suggestions', () => {
		const start = resultType('GetApplicationsPaged');
		assert.equal(describeType(typeOfPath(start, [{ field: 'Applications' }]).type!), 'list of APIApplication');
		assert.equal(
			describeType(typeOfPath(start, [{ field: 'Applications' }, { index: 0 }, { field: 'Score' }]).type!),
			'short',
		);
		assert.equal(describeType(typeOfPath(start, [{ field: 'Applications' }, { field: 'length' }]).type!), 'int');
		assert.deepEqual(typeOfPath(start, [{ field: 'Applications' }, { every: true }, { field: 'Scor' }]).problem, {
			segment: 2,
			message: 'APIApplication has no field Scor.',
			suggestions: ['Score'],
		});
		assert.match(
			typeOfPath(start, [{ field: 'Applications' }, { field: 'Score' }]).problem!.message,
			/has items, not fields/,
		);
		assert.equal(
			describeType(typeOfPath(resultType('GetCurrency'), [{ index: 0 }, { field: 'Value' }]).type!),
			'string',
		);
	});
});
