import * as assert from 'node:assert/strict';
import {
	MAX_RECORDED_BODY_CHARS,
	MAX_RECORDED_EXCHANGES,
	parseRecording,
	readRecording,
	RecordingFormatError,
	serializeRecording,
} from '../../../src/protocol/recordings/format';
import { recordedExchange, recordingOf } from '../../builders/recordings';

const SOURCE = 'recordings/staging.mprec.json';

/** A recording parsed as plain JSON, for tests that break one field of it on purpose. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any field, any depth, any value
type RawRecording = Record<string, any>;

/** The recording as plain data, with one field changed by `change`. */
function changed(change: (data: RawRecording) => void): unknown {
	const data = JSON.parse(
		serializeRecording(recordingOf([recordedExchange(1), recordedExchange(2)])),
	) as RawRecording;
	change(data);
	return data;
}

function problem(data: unknown): string {
	try {
		readRecording(data, SOURCE);
	} catch (error) {
		assert.ok(error instanceof RecordingFormatError, String(error));
		return error.message;
	}
	assert.fail('the recording was accepted');
}

describe('recording format', () => {
	it('reads back what it writes, every optional field included', () => {
		const full = recordingOf([
			recordedExchange(7, {
				operation: 'GetCurrency',
				endpoint: 'posting',
				binding: 'soap12',
				otherCredentials: true,
				request: {
					method: 'POST',
					path: '/SOAP/Posting.asmx',
					query: '',
					headers: { 'content-type': 'application/soap+xml; charset=utf-8' },
					params: { sCultureID: 'en-GB', sAPIKey: '{{connection.apiKey}}' },
					body: '<soap12:Envelope>é 😀\r\n</soap12:Envelope>',
				},
				response: {
					status: 500,
					headers: { 'content-type': 'application/soap+xml; charset=utf-8', 'retry-after': '5' },
					fault: { code: 'Client', subcode: 'InvalidParameter', message: 'No.' },
					result: { Value: 'GBP' },
					body: '<soap12:Envelope/>',
				},
			}),
			recordedExchange(9),
		]);
		full.$schema = '../media/multiposting.recording.schema.json';
		full.upstream = 'https://staging.example.com';
		const text = serializeRecording(full);
		assert.deepEqual(parseRecording(text, SOURCE), full);
		// Pretty, so that a diff shows one field per line, and ending with a newline.
		assert.ok(text.endsWith('}\n'));
		assert.match(text, /\n {6}"id": 7,\n/);
	});

	it('keeps a fault without a subcode and leaves out what was not given', () => {
		const read = readRecording(
			changed((data) => {
				data.exchanges[0].response.fault = { code: 'Server', message: 'Down.' };
			}),
			SOURCE,
		);
		assert.deepEqual(read.exchanges[0].response.fault, { code: 'Server', message: 'Down.' });
		assert.equal('subcode' in read.exchanges[0].response.fault!, false);
		assert.equal('upstream' in read, false);
		assert.equal('$schema' in read, false);
		assert.equal('operation' in read.exchanges[1], false);
		assert.equal('params' in read.exchanges[1].request, false);
	});

	it('names the file when the text is not JSON', () => {
		assert.throws(
			() => parseRecording('{"format": ', SOURCE),
			(error: Error) =>
				error instanceof RecordingFormatError &&
				error.message.startsWith(`${SOURCE}: not valid JSON (`) &&
				error.message.endsWith(').'),
		);
	});

	it('refuses another format or version, saying which version the file has', () => {
		assert.equal(problem([]), `${SOURCE}: must be an object.`);
		assert.equal(
			problem(changed((data) => (data.format = 'har'))),
			`${SOURCE}: format: must be "multiposting-recording".`,
		);
		assert.equal(
			problem(changed((data) => (data.version = 2))),
			`${SOURCE}: version: must be 1 (this file says 2).`,
		);
	});

	it('names the field of a mistake at the top and in the paths', () => {
		assert.equal(
			problem(changed((data) => (data.extra = 1))),
			`${SOURCE}: extra: is not a known field (known: $schema, format, version, recordedAt, upstream, namespace, paths, exchanges).`,
		);
		assert.equal(problem(changed((data) => delete data.namespace)), `${SOURCE}: namespace: must be text.`);
		assert.equal(problem(changed((data) => (data.recordedAt = 5))), `${SOURCE}: recordedAt: must be text.`);
		assert.equal(problem(changed((data) => (data.upstream = null))), `${SOURCE}: upstream: must be text.`);
		assert.equal(problem(changed((data) => (data.paths = '/x'))), `${SOURCE}: paths: must be an object.`);
		assert.equal(
			problem(changed((data) => (data.paths.administration = 'SOAP/Administration.asmx'))),
			`${SOURCE}: paths.administration: must be a path starting with /.`,
		);
		assert.equal(
			problem(changed((data) => (data.paths.other = '/x'))),
			`${SOURCE}: paths.other: is not a known field (known: posting, administration).`,
		);
	});

	it('refuses exchanges that are not a list or too many', () => {
		const expected = `${SOURCE}: exchanges: must be a list of at most ${MAX_RECORDED_EXCHANGES} exchanges.`;
		assert.equal(problem(changed((data) => (data.exchanges = {}))), expected);
		assert.equal(
			problem(changed((data) => (data.exchanges = new Array(MAX_RECORDED_EXCHANGES + 1).fill({})))),
			expected,
		);
	});

	it('names the exchange and the field of a mistake inside an exchange', () => {
		const cases: [(data: RawRecording) => void, string][] = [
			[(data) => (data.exchanges[1].id = 1), 'exchanges[1].id: 1 is used twice'],
			[(data) => (data.exchanges[1].id = -1), 'exchanges[1].id: must be a whole number'],
			[(data) => (data.exchanges[1].id = 1.5), 'exchanges[1].id: must be a whole number'],
			[(data) => (data.exchanges[1].id = '2'), 'exchanges[1].id: must be a whole number'],
			[(data) => delete data.exchanges[1].time, 'exchanges[1].time: must be text'],
			[
				(data) => (data.exchanges[1].note = 'x'),
				'exchanges[1].note: is not a known field (known: id, time, operation, endpoint, binding, otherCredentials, request, response)',
			],
			[
				(data) => (data.exchanges[1].operation = 'GetAdverts'),
				'exchanges[1].operation: "GetAdverts" is not an operation of the service',
			],
			[
				(data) => (data.exchanges[1].operation = 'toString'),
				'exchanges[1].operation: "toString" is not an operation of the service',
			],
			[
				(data) => (data.exchanges[1].endpoint = 'admin'),
				'exchanges[1].endpoint: must be posting or administration',
			],
			[
				(data) => (data.exchanges[1].binding = 'soap'),
				'exchanges[1].binding: must be one of soap11, soap12, httpGet, httpPost',
			],
			[
				(data) => (data.exchanges[1].otherCredentials = false),
				'exchanges[1].otherCredentials: must be true when given',
			],
			[(data) => (data.exchanges[1].request = 'GET /'), 'exchanges[1].request: must be an object'],
			[
				(data) => (data.exchanges[1].request.method = 'get'),
				'exchanges[1].request.method: must be an HTTP method in capitals',
			],
			[
				(data) => (data.exchanges[1].request.method = 'X'.repeat(17)),
				'exchanges[1].request.method: must be at most 16 characters',
			],
			[
				(data) => (data.exchanges[1].request.path = 'SOAP/Posting.asmx'),
				'exchanges[1].request.path: must start with /',
			],
			[(data) => delete data.exchanges[1].request.query, 'exchanges[1].request.query: must be text'],
			[(data) => (data.exchanges[1].request.body = null), 'exchanges[1].request.body: must be text'],
			[(data) => (data.exchanges[1].request.params = []), 'exchanges[1].request.params: must be an object'],
			[
				(data) => (data.exchanges[1].request.headers = { Accept: 'text/xml' }),
				'exchanges[1].request.headers.Accept: must be a lower-case header name',
			],
			[
				(data) => (data.exchanges[1].request.headers = { accept: 'a\r\nx-injected: 1' }),
				'exchanges[1].request.headers.accept: must be one line of text',
			],
			[
				(data) => (data.exchanges[1].response.headers = { accept: 1 }),
				'exchanges[1].response.headers.accept: must be one line of text',
			],
			[
				(data) => (data.exchanges[1].response.status = 99),
				'exchanges[1].response.status: must be an HTTP status from 100 to 599',
			],
			[
				(data) => (data.exchanges[1].response.status = 600),
				'exchanges[1].response.status: must be an HTTP status from 100 to 599',
			],
			[
				(data) => (data.exchanges[1].response.status = 200.5),
				'exchanges[1].response.status: must be an HTTP status from 100 to 599',
			],
			[
				(data) => (data.exchanges[1].response.cookies = []),
				'exchanges[1].response.cookies: is not a known field (known: status, headers, result, fault, body)',
			],
			[
				(data) => (data.exchanges[1].response.fault = { code: 'Client' }),
				'exchanges[1].response.fault.message: must be text',
			],
			[
				(data) => (data.exchanges[1].response.fault = { code: 'Client', message: 'm', subcode: 3 }),
				'exchanges[1].response.fault.subcode: must be text',
			],
			[
				(data) => (data.exchanges[1].response.fault = { code: 'Client', message: 'm', detail: 'd' }),
				'exchanges[1].response.fault.detail: is not a known field (known: code, subcode, message)',
			],
		];
		for (const [change, expected] of cases) {
			assert.equal(problem(changed(change)), `${SOURCE}: ${expected}.`);
		}
	});

	it('takes a body up to its limit and refuses a longer one', () => {
		const longest = 'x'.repeat(MAX_RECORDED_BODY_CHARS);
		const read = readRecording(
			changed((data) => (data.exchanges[0].response.body = longest)),
			SOURCE,
		);
		assert.equal(read.exchanges[0].response.body.length, MAX_RECORDED_BODY_CHARS);
		assert.equal(
			problem(changed((data) => (data.exchanges[0].request.body = `${longest}x`))),
			`${SOURCE}: exchanges[0].request.body: must be at most ${MAX_RECORDED_BODY_CHARS} characters.`,
		);
	});
});
