import * as assert from 'node:assert/strict';
import type { RequestRunResult } from '../../../src/client/requestFileRunner';
import { describeRun, runHeadline } from '../../../src/extension/requestFiles/running';

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

	it('describes a run with expectations, captures and the exchange', () => {
		const text = describeRun('scenario.mpreq', [{ ...failed, setup: true }]);
		assert.equal(
			text,
			[
				'scenario.mpreq',
				'',
				'FAILED Read it back (needed by the selected request)',
				'  ok     expect: status == 200',
				'  FAILED expect: result.TotalItemCount == 2',
				'         expected: == 2',
				'         actual:   1',
				'  captured id = 42',
				'',
				'POST http://127.0.0.1:1/SOAP/Posting.asmx',
				'content-type: text/xml',
				'',
				'<a/>',
				'',
				'HTTP 500 (12 ms)',
				'',
				'<fault/>',
				'',
			].join('\n'),
		);
	});
});
