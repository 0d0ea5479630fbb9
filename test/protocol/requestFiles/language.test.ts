import * as assert from 'node:assert/strict';
import { complete, diagnose, hover } from '../../../src/protocol/requestFiles/language';

const FILE = [
	'# Multiposting request', //                                     0
	'',
	'### Find',
	'operation: GetApplicationsPaged',
	'param.sApplicationStartDateTime: 2020-01-01',
	'param.CurrentPage: 1', //                                        5
	'param.RowsPerPage: 5',
	'param.RankingAsCSV: Suitable,Great',
	'expect: result.Applications[0].Scor == 4',
	'expect: xpath(//q:Score) exists',
	'capture: id = result.Applications[0].AdvertCandidateID', //     10
	'',
	'### Score',
	'operation: ApplicationScore',
	'param.sAdvertCandidateID: {{id}}',
	'param.sAdvertID: {{advert}}', //                                 15
	'param.sScore: s',
	'',
	'### Page without a filter',
	'operation: GetApplicationsPaged',
	'param.CurrentPage: 1', //                                        20
	'param.RowsPerPage: 5',
	'',
	'### Page without a filter, on purpose',
	'operation: GetApplicationsPaged',
	'expect: fault MissingFilter', //                                 25
].join('\n');

/** The problems of a text: line, the text at fault, message and the replacements offered. */
function problemsOf(text: string, environmentVariables: string[] = []) {
	return diagnose(text, environmentVariables).map((item) => ({
		line: item.line,
		text: text.split('\n')[item.line].slice(item.column, item.endColumn),
		message: item.message,
		fixes: item.fixes.map((fix) => fix.replacement),
	}));
}

describe('request file language features', () => {
	it('diagnoses against the catalogue, the record model and the captures', () => {
		const found = diagnose(FILE).map((item) => ({
			line: item.line,
			text: FILE.split('\n')[item.line].slice(item.column, item.endColumn),
			severity: item.severity,
			fixes: item.fixes.map((fix) => fix.replacement),
		}));
		assert.deepEqual(found, [
			{ line: 7, text: 'Suitable,Great', severity: 'warning', fixes: [] },
			{ line: 8, text: 'Scor', severity: 'error', fixes: ['Score'] },
			{ line: 9, text: 'q', severity: 'error', fixes: [] },
			{ line: 15, text: '{{advert}}', severity: 'error', fixes: [] },
			{ line: 16, text: 's', severity: 'warning', fixes: ['S'] },
			{ line: 19, text: 'operation: GetApplicationsPaged', severity: 'warning', fixes: [] },
		]);
		assert.match(diagnose(FILE)[0].message, /"Great" is not a value of RankingAsCSV/);
		assert.match(diagnose(FILE)[5].message, /At least one search filter .* add "expect: fault"/);
	});

	it('reports every variable no earlier request captures, with its line: a typo, a later capture, its own', () => {
		const text = [
			'### Uses a later capture', //                                  0
			'operation: GetCurrency',
			'param.sCultureID: {{culture}}',
			'# {{inComment}} is not a use',
			'capture: code = result[0].Value',
			'expect: result[0].Value == {{code}}', //                        5
			'',
			'### Typo',
			'operation: GetCurrency',
			'param.sCultureID: {{cdoe}}',
			'param.sAPIKey: {{fromEnvironment}}', //                         10
			'---',
			'GET /x?c={{code}} HTTP/1.1',
			'',
			'### Captures the culture',
			'operation: GetCurrency', //                                     15
			'capture: culture = result[0].Value',
		].join('\n');
		const found = problemsOf(text, ['fromEnvironment']).filter((item) => item.message.includes('{{'));
		assert.deepEqual(found, [
			{
				line: 2,
				text: '{{culture}}',
				message:
					'{{culture}} is captured only by a later request (line 17): move that request before this one.',
				fixes: [],
			},
			{
				line: 5,
				text: '{{code}}',
				message:
					'{{code}} is captured by this same request (line 5), after it is sent: only later requests can use it.',
				fixes: [],
			},
			{
				line: 9,
				text: '{{cdoe}}',
				message:
					'{{cdoe}} is captured by no request of this file (add "capture: cdoe = …" to an earlier one). Did you mean {{code}}?',
				fixes: ['{{code}}'],
			},
		]);
		assert.ok(
			diagnose(text).some((item) => item.message.startsWith('{{fromEnvironment}} is captured by no request')),
		);
	});

	it("warns when an expected fault code is the other SOAP version's, or on HTTP GET/POST, which send none", () => {
		const text = [
			'### SOAP 1.2',
			'operation: GetCurrency',
			'binding: soap12',
			'expect: fault.code == Client',
			'expect: fault.code == Sender',
			'',
			'### SOAP 1.1',
			'operation: GetCurrency',
			'expect: fault.code == Receiver',
			'expect: fault.cause == service',
			'',
			'### HTTP GET',
			'operation: GetCurrency',
			'binding: httpGet',
			'expect: fault.code == Server',
		].join('\n');
		const found = problemsOf(text);
		assert.deepEqual(found, [
			{
				line: 3,
				text: 'Client',
				message:
					'SOAP 1.2 sends Sender, not Client: write fault.code == Sender, or fault.cause == caller for any binding.',
				fixes: ['Sender'],
			},
			{
				line: 8,
				text: 'Receiver',
				message:
					'SOAP 1.1 sends Server, not Receiver: write fault.code == Server, or fault.cause == service for any binding.',
				fixes: ['Server'],
			},
			{
				line: 14,
				text: 'Server',
				message:
					'HTTP GET and POST carry no fault code (every error is HTTP 500 with a text): check fault.message or status == 500.',
				fixes: [],
			},
		]);
	});

	it('takes the variables of the chosen environment as set before the first request', () => {
		const text = 'operation: GetCurrency\nparam.sCultureID: {{culture}}\nexpect: result.length >= {{minimum}}\n';
		const messages = (variables?: string[]) => diagnose(text, variables).map((item) => item.message);
		assert.deepEqual(
			messages().filter((message) => message.includes('is captured by no request')),
			[
				'{{culture}} is captured by no request of this file (add "capture: culture = …" to an earlier one).',
				'{{minimum}} is captured by no request of this file (add "capture: minimum = …" to an earlier one).',
			],
		);
		assert.deepEqual(
			messages(['culture', 'minimum']).filter((message) => message.includes('is captured by no request')),
			[],
		);
	});

	it('completes keys, operations, parameter values, result fields, subcodes and variables', () => {
		const lines = FILE.split('\n');
		const labels = (line: number, character: number, text = FILE): string[] =>
			complete(text, line, character).map((item) => item.label);
		const keys = labels(
			17,
			0,
			[...lines.slice(0, 17), '', ...lines.slice(17)].join('\n').replace(/\n\n### Page/, '\n\n### Page'),
		);
		assert.ok(
			keys.includes('expect:') && keys.includes('param.sScoreAsJobOwner') && !keys.includes('param.sScore'),
			keys.join(),
		);
		assert.ok(labels(3, 14).includes('GetAdvertPaged'));
		assert.deepEqual(labels(16, 15), ['S', 'M', 'U', 'F', 'N', '{{id}}']);
		const withText = (line: number, text: string): string[] => {
			const changed = [...lines];
			changed[line] = text;
			return complete(changed.join('\n'), line, text.length).map((item) => item.label);
		};
		assert.ok(withText(8, 'expect: result.Applications[0].').includes('AdvertCandidateID'));
		assert.deepEqual(withText(8, 'expect: result.Applications'), ['[0]', '[*]', 'length']);
		assert.ok(withText(8, 'expect: fault Miss').includes('MissingFilter'));
		assert.deepEqual(withText(15, 'param.sAdvertID: {{'), [
			'{{id}}',
			'{{connection.apiKey}}',
			'{{connection.username}}',
			'{{connection.password}}',
			'{{connection.culture}}',
		]);
		assert.ok(withText(8, 'expect: ').includes('no fault'));
	});

	it('shows documentation from the catalogue on hover', () => {
		assert.match(
			hover(FILE, 3, 14)!.markdown,
			/^\*\*GetApplicationsPaged\*\* \(posting endpoint\)\n\nPaged search of applications/,
		);
		assert.match(
			hover(FILE, 16, 8)!.markdown,
			/\*\*sScore\*\* \(string\)\n\nS, M, U, F or N\.\n\nOne of: `S` \(Suitable/,
		);
		const field = hover(FILE, 10, 45)!;
		assert.equal(field.markdown.split('\n')[0], '**result.Applications[0].AdvertCandidateID**: int');
		assert.equal(FILE.split('\n')[10].slice(field.column, field.endColumn), 'AdvertCandidateID');
		assert.match(hover(FILE, 8, 2)!.markdown, /^\*\*expect\*\*: A check of the response/);
	});
});
