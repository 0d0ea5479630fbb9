import * as assert from 'node:assert/strict';
import type { RequestRunResult } from '../../../src/client/requestFileRunner';
import { describeRun, responseSummary, runHeadline } from '../../../src/extension/requestFiles/running';

const failed: RequestRunResult = {
	index: 1,
	label: 'Read it back',
	status: 'failed',
	setup: false,
	outcomes: [
		{ text: 'status == 200', passed: true, expected: '== 200', actual: '200', message: 'status == 200: passed' },
		{ text: 'result.TotalItemCount == 2', passed: false, expected: '== 2', actual: '1', message: 'x' },
	],
	captured: { id: '42' },
	problems: [],
	decoded: { fault: { code: 'Client', subcode: 'MissingFilter', message: 'm' } },
	exchange: {
		request: {
			method: 'POST',
			url: 'http://127.0.0.1:1/SOAP/Posting.asmx',
			headers: [['content-type', 'text/xml']],
			body: '<a/>',
		},
		response: { status: 500, headers: [], body: '<fault/>' },
		timeMs: 12.4,
	},
};

describe('request file runs in the editor', () => {
	it('sums a request up in one line', () => {
		assert.equal(
			runHeadline(failed, 'GetApplicationsPaged', 'soap12'),
			'GetApplicationsPaged (soap12): HTTP 500 · fault MissingFilter · 1 of 2 expectations passed',
		);
		assert.equal(
			runHeadline({ ...failed, outcomes: [], decoded: undefined, exchange: undefined, problems: ['Timed out.'] }),
			'Read it back: Timed out.',
		);
	});

	it('describes a run failures first, at their lines, with the exchanges below everything', () => {
		const passed: RequestRunResult = {
			index: 0,
			label: 'Post it',
			status: 'passed',
			setup: true,
			outcomes: [{ text: 'no fault', passed: true, expected: 'no fault', actual: 'a result', message: 'ok' }],
			captured: { id: '42' },
			problems: [],
			decoded: { result: [{ Value: 'EUR' }, { Value: 'GBP' }] },
			exchange: { ...failed.exchange!, response: { status: 200, headers: [], body: '<ok/>' }, timeMs: 3 },
		};
		const lines = (index: number) =>
			index === 1 ? { first: 9, expectationLines: [12, 13] } : { first: 1, expectationLines: [5] };
		const text = describeRun('scenario.mpreq', [passed, failed], lines);
		assert.equal(
			text,
			[
				'scenario.mpreq: 1 passed, 1 failed',
				'',
				'FAILED Read it back (line 9)',
				'  ✗ expect: result.TotalItemCount == 2 (line 13)',
				'      expected: == 2',
				'      actual:   1',
				'  ✓ status == 200',
				'  captured id = 42',
				'  response: HTTP 500 · fault Client/MissingFilter: m · 12 ms',
				'',
				'PASSED Post it (line 1, needed by the selected request)',
				'  ✓ no fault',
				'  captured id = 42',
				'  response: HTTP 200 · 2 rows · 3 ms',
				'',
				'── Exchanges ──',
				'',
				'### Read it back',
				'POST http://127.0.0.1:1/SOAP/Posting.asmx',
				'content-type: text/xml',
				'',
				'<a/>',
				'',
				'HTTP 500 (12 ms)',
				'',
				'<fault/>',
				'',
				'### Post it',
				'POST http://127.0.0.1:1/SOAP/Posting.asmx',
				'content-type: text/xml',
				'',
				'<a/>',
				'',
				'HTTP 200 (3 ms)',
				'',
				'<ok/>',
				'',
				'── scenario.mpreq: 1 passed, 1 failed ──',
				'FAILED Read it back: expect: result.TotalItemCount == 2 (line 13): expected == 2, actual 1',
				'',
			].join('\n'),
		);
	});

	it('says in one line what came back', () => {
		assert.equal(
			responseSummary({ ...failed, exchange: { ...failed.exchange!, response: undefined, error: 'Timed out.' } }),
			'no response: Timed out.',
		);
		assert.equal(
			responseSummary({ ...failed, decoded: undefined, decodeError: 'not XML\n at line 1' }),
			'HTTP 500 · not decodable: not XML at line 1 · 12 ms',
		);
		assert.equal(responseSummary({ ...failed, exchange: undefined }), undefined);
	});
});
