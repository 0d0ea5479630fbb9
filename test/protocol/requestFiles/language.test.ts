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

	it('takes the variables of the chosen environment as set before the first request', () => {
		const text = 'operation: GetCurrency\nparam.sCultureID: {{culture}}\nexpect: result.length >= {{minimum}}\n';
		const messages = (variables?: string[]) => diagnose(text, variables).map((item) => item.message);
		assert.deepEqual(
			messages().filter((message) => message.includes('is not captured')),
			[
				'{{culture}} is not captured by an earlier request (add "capture: culture = …" to one).',
				'{{minimum}} is not captured by an earlier request (add "capture: minimum = …" to one).',
			],
		);
		assert.deepEqual(
			messages(['culture', 'minimum']).filter((message) => message.includes('is not captured')),
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
