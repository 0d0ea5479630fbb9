import * as assert from 'node:assert/strict';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../../src/emulator/journal/journal';
import type { ExchangeCapture, JournalEntry } from '../../../src/emulator/journal/types';
import type { VerdictContext } from '../../../src/emulator/journal/verdict';
import {
	makeRecording,
	recordToFile,
	RecordingError,
	recordedExchange,
	unrecordable,
	writeFileAtomically,
} from '../../../src/emulator/recordings/recorder';
import { getBinding } from '../../../src/protocol/bindings';
import type { BindingName } from '../../../src/protocol/bindings/types';
import { OPERATIONS, type AnyParams, type OperationName } from '../../../src/protocol/catalogue';
import { CredentialInRecordingError } from '../../../src/protocol/recordings/credentials';
import { parseRecording } from '../../../src/protocol/recordings/format';
import { echoedSecretForms, secretForms } from '../../../src/protocol/secretForms';

const NAMESPACE = 'https://live.example.com/';
const UPSTREAM = 'https://live.example.com';
const CONTEXT: VerdictContext = {
	namespace: NAMESPACE,
	paths: { posting: '/SOAP/Posting.asmx', administration: '/SOAP/Administration.asmx' },
	wsdl: { posting: '<definitions/>', administration: '<definitions/>' },
};
const contexts = (upstream: string | undefined) => (upstream === UPSTREAM ? CONTEXT : undefined);

const API_KEY = 'Live&Key<2026>"k"';
const PASSWORD = 'P@ss w0rd&<más>';
const SANDBOX_KEY = 'sandbox-api-key';

/** An exchange as the proxy hands it to the journal: the request as the client codec writes it, the answer given. */
function capture(
	binding: BindingName,
	operation: OperationName,
	params: AnyParams,
	answer: { status?: number; headers?: Record<string, string>; body: Uint8Array | string },
	extra: Partial<ExchangeCapture> = {},
): ExchangeCapture {
	const endpoint = OPERATIONS[operation].endpoint;
	const encoded = getBinding(binding).encodeRequest(operation, params, {
		namespace: NAMESPACE,
		endpointPath: CONTEXT.paths[endpoint],
	});
	const [path, query = ''] = encoded.path.split('?');
	return {
		startedAt: Date.parse('2026-03-01T10:00:00.000Z'),
		durationMs: 12,
		client: '127.0.0.1',
		method: encoded.method,
		path,
		query,
		requestHeaders: {
			host: 'live.example.com',
			'content-length': String(encoded.body.byteLength),
			connection: 'keep-alive',
			'x-sandbox-client': 'test',
			...encoded.headers,
		},
		requestBody: encoded.body,
		endpoint,
		binding,
		operation,
		params,
		status: answer.status ?? 200,
		responseHeaders: { 'content-length': '10', 'x-aspnet-version': '4.0.30319', ...answer.headers },
		responseBody: typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body,
		upstream: UPSTREAM,
		...extra,
	};
}

const codecOf = (operation: OperationName) => ({
	namespace: NAMESPACE,
	endpointPath: CONTEXT.paths[OPERATIONS[operation].endpoint],
});

/** Three proxied exchanges carrying the live credentials in a query, a SOAP body and a form, echoed back. */
function liveCaptures(): ExchangeCapture[] {
	const currency = getBinding('httpGet').encodeResponse(
		'GetCurrency',
		[{ Value: 'GBP', Description: `echo ${Buffer.from(API_KEY).toString('base64')}` }],
		codecOf('GetCurrency'),
	);
	const refused = getBinding('soap11').encodeFault(
		{ code: 'Client', subcode: 'InvalidPassword', message: `The password ${PASSWORD} is wrong.` },
		codecOf('UserList'),
	);
	const weeks = getBinding('httpPost').encodeResponse(
		'GetWeeksToAdvertise',
		[{ Value: '1', Description: 'One week' }],
		codecOf('GetWeeksToAdvertise'),
	);
	return [
		capture('httpGet', 'GetCurrency', { sCultureID: 'en-GB', sAPIKey: API_KEY }, currency),
		capture('soap11', 'UserList', { sAPIKey: API_KEY, sUsername: 'ada', sPassword: PASSWORD }, refused),
		capture('httpPost', 'GetWeeksToAdvertise', { sCultureID: 'en-GB', sAPIKey: API_KEY }, weeks),
	];
}

function journalOf(captures: ExchangeCapture[]): { journal: Journal; entries: JournalEntry[] } {
	const journal = new Journal({ knownSecrets: { apiKey: SANDBOX_KEY, password: 'sandbox-password' } });
	for (const item of captures) journal.record(item);
	journal.flush();
	return { journal, entries: journal.list({}).reverse() };
}

function entry(id: number, extra: Partial<JournalEntry> = {}): JournalEntry {
	return {
		id,
		time: '2026-03-01T10:00:00.000Z',
		client: '127.0.0.1',
		method: 'GET',
		path: '/SOAP/Posting.asmx/GetCurrency',
		query: 'sCultureID=en-GB&sAPIKey={{connection.apiKey}}',
		status: 200,
		durationMs: 3,
		request: { headers: {}, body: { text: '', bytes: 0 } },
		response: { headers: { 'content-type': 'text/xml; charset=utf-8' }, body: { text: '<x/>', bytes: 4 } },
		upstream: UPSTREAM,
		...extra,
	};
}

const noSecrets = { secretsInPlay: () => [] };

function recordingError(run: () => unknown): string {
	try {
		run();
	} catch (error) {
		assert.ok(error instanceof RecordingError, String(error));
		return error.message;
	}
	assert.fail('recorded');
}

describe('recorder', () => {
	describe('makeRecording', () => {
		it('records exchanges of one service oldest first, requests and answers as sent, decoded for reading', () => {
			const { journal, entries } = journalOf(liveCaptures());
			const now = new Date('2026-03-02T08:00:00.000Z');
			const { recording, text } = makeRecording([...entries].reverse(), contexts, journal, now);
			assert.equal(recording.recordedAt, now.toISOString());
			assert.equal(recording.upstream, UPSTREAM);
			assert.equal(recording.namespace, NAMESPACE);
			assert.deepEqual(recording.paths, CONTEXT.paths);
			assert.deepEqual(
				recording.exchanges.map((exchange) => [
					exchange.id,
					exchange.operation,
					exchange.binding,
					exchange.endpoint,
				]),
				[
					[entries[0].id, 'GetCurrency', 'httpGet', 'posting'],
					[entries[1].id, 'UserList', 'soap11', 'administration'],
					[entries[2].id, 'GetWeeksToAdvertise', 'httpPost', 'administration'],
				],
			);
			const [currency, users, weeks] = recording.exchanges;
			assert.equal(currency.request.query, 'sCultureID=en-GB&sAPIKey={{connection.apiKey}}');
			assert.deepEqual(currency.request.params, { sCultureID: 'en-GB', sAPIKey: '{{connection.apiKey}}' });
			assert.equal(currency.response.status, 200);
			assert.ok(Array.isArray(currency.response.result));
			assert.equal(users.response.status, 500);
			assert.equal(users.response.fault?.code, 'Client');
			assert.equal(users.response.fault?.subcode, 'InvalidPassword');
			assert.deepEqual(users.request.params, {
				sAPIKey: '{{connection.apiKey}}',
				sUsername: 'ada',
				sPassword: '{{connection.password}}',
			});
			assert.match(users.request.body, /<sPassword>\{\{connection\.password\}\}<\/sPassword>/);
			assert.match(weeks.request.body, /sAPIKey=\{\{connection\.apiKey\}\}/);
			// Hop-by-hop headers, the host and the sandbox's own headers are not recorded.
			for (const exchange of recording.exchanges) {
				for (const name of ['host', 'content-length', 'connection', 'x-sandbox-client']) {
					assert.equal(exchange.request.headers[name], undefined, name);
					assert.equal(exchange.response.headers[name], undefined, name);
				}
				assert.equal(exchange.response.headers['x-aspnet-version'], '4.0.30319');
			}
			// The text is the file: it reads back as the recording.
			assert.deepEqual(parseRecording(text, 'live.mprec.json'), recording);
		});

		it('never keeps a credential in the saved file, in any form', () => {
			const { journal, entries } = journalOf(liveCaptures());
			const { text } = makeRecording(entries, contexts, journal);
			for (const secret of [API_KEY, PASSWORD]) {
				for (const form of [...secretForms(secret), ...echoedSecretForms(secret)]) {
					assert.ok(!text.includes(form), `${JSON.stringify(form)} is in the recording`);
				}
			}
			assert.ok(text.includes('{{connection.apiKey}}') && text.includes('{{connection.password}}'));
		});

		it('refuses a recording that would keep a credential the journal has seen', () => {
			const leaked = entry(4, {
				response: { headers: {}, body: { text: `<Key>${encodeURIComponent(API_KEY)}</Key>`, bytes: 40 } },
			});
			const journal = { secretsInPlay: () => [{ role: 'apiKey' as const, value: API_KEY }] };
			assert.throws(
				() => makeRecording([leaked], contexts, journal),
				(error: unknown) =>
					error instanceof CredentialInRecordingError &&
					error.places.length === 1 &&
					error.places[0] === 'exchanges[0].response.body',
			);
		});

		it('refuses what is not one service, or not known', () => {
			assert.match(
				recordingError(() => makeRecording([], contexts, noSecrets)),
				/No exchanges to record/,
			);
			assert.match(
				recordingError(() => makeRecording([entry(1), entry(2, { upstream: undefined })], contexts, noSecrets)),
				/one service; these come from https:\/\/live\.example\.com, the sandbox/,
			);
			assert.match(
				recordingError(() =>
					makeRecording([entry(1, { upstream: 'https://gone.example' })], contexts, noSecrets),
				),
				/namespace of https:\/\/gone\.example is no longer known/,
			);
		});

		it('refuses unrecordable exchanges, naming each with its reason', () => {
			const message = recordingError(() =>
				makeRecording(
					[
						entry(1),
						entry(2, { status: 502, proxyError: { kind: 'timeout', message: 'no answer in 30 s' } }),
						entry(3, { status: 499 }),
					],
					contexts,
					noSecrets,
				),
			);
			assert.equal(
				message,
				'Not recorded: exchange 2 was answered by the proxy itself (502: timeout), not by the service; exchange 3 has no answer (the client went away first).',
			);
		});

		it('a recording of the sandbox itself has no upstream', () => {
			const own = entry(1, { upstream: undefined });
			const { recording } = makeRecording([own], () => CONTEXT, noSecrets);
			assert.equal(recording.upstream, undefined);
			assert.equal(recording.exchanges.length, 1);
		});
	});

	describe('unrecordable', () => {
		it('gives the reason an exchange cannot be recorded, or nothing', () => {
			assert.equal(unrecordable(entry(1)), undefined);
			assert.equal(
				unrecordable(entry(2, { status: 502, proxyError: { kind: 'unreachable', message: 'refused' } })),
				'exchange 2 was answered by the proxy itself (502: unreachable), not by the service',
			);
			assert.equal(
				unrecordable(entry(3, { status: 499 })),
				'exchange 3 has no answer (the client went away first)',
			);
			const cut = {
				text: 'head…tail',
				bytes: 9_000_000,
				truncated: { headChars: 4, tailChars: 4, omittedChars: 100 },
			};
			assert.equal(
				unrecordable(entry(4, { response: { headers: {}, body: cut } })),
				"exchange 4's response body (9000000 bytes) was kept only in part by the journal",
			);
			assert.equal(
				unrecordable(entry(5, { request: { headers: {}, body: cut } })),
				"exchange 5's request body (9000000 bytes) was kept only in part by the journal",
			);
		});

		it('a body the journal had to cut is refused', () => {
			const big = capture(
				'httpGet',
				'GetCurrency',
				{ sCultureID: 'en-GB', sAPIKey: API_KEY },
				{ body: `<x>${'y'.repeat(2_000)}</x>` },
			);
			const journal = new Journal({ maxBodyChars: 256 });
			journal.record(big);
			const [kept] = journal.list({});
			assert.ok(kept.response.body.truncated);
			assert.match(unrecordable(kept) ?? '', /response body \(2007 bytes\) was kept only in part/);
			assert.throws(() => makeRecording([kept], contexts, journal), RecordingError);
		});
	});

	describe('recordedExchange', () => {
		it('an exchange that does not decode keeps its bodies, without decoded parts', () => {
			const odd = entry(9, {
				operation: 'GetCurrency',
				binding: 'soap11',
				endpoint: 'posting',
				method: 'POST',
				path: '/SOAP/Posting.asmx',
				query: '',
				contentType: 'text/xml; charset=utf-8',
				request: {
					headers: { 'content-type': 'text/xml; charset=utf-8' },
					body: { text: '<not xml', bytes: 8 },
				},
				response: { headers: {}, body: { text: 'Bad Request', bytes: 11 } },
				status: 400,
			});
			const exchange = recordedExchange(odd, CONTEXT);
			assert.equal(exchange.request.body, '<not xml');
			assert.equal(exchange.response.body, 'Bad Request');
			assert.equal(exchange.request.params, undefined);
			assert.equal(exchange.response.result, undefined);
			assert.equal(exchange.response.fault, undefined);
			assert.equal(exchange.operation, 'GetCurrency');
		});
	});

	describe('writeFileAtomically', () => {
		let folder: string;
		beforeEach(() => {
			folder = mkdtempSync(join(tmpdir(), 'mp-recorder-'));
		});
		afterEach(() => rmSync(folder, { recursive: true, force: true }));

		it('writes the whole text, replacing the file, leaving no temporary file, readable by its owner only', () => {
			const path = join(folder, 'live.mprec.json');
			writeFileSync(path, 'old and longer text than the new one');
			writeFileAtomically(path, 'new');
			assert.equal(readFileSync(path, 'utf8'), 'new');
			assert.deepEqual(readdirSync(folder), ['live.mprec.json']);
			if (process.platform !== 'win32') assert.equal(statSync(path).mode & 0o777, 0o600);
		});

		it('leaves neither a half-written file nor a temporary one when it cannot write', () => {
			const path = join(folder, 'taken');
			mkdirSync(path);
			writeFileSync(join(path, 'inside'), 'x');
			assert.throws(() => writeFileAtomically(path, 'text'));
			assert.deepEqual(readdirSync(folder), ['taken']);
			assert.throws(() => writeFileAtomically(join(folder, 'missing', 'file.json'), 'text'));
			assert.equal(existsSync(join(folder, 'missing')), false);
		});
	});

	describe('recordToFile', () => {
		let folder: string;
		beforeEach(() => {
			folder = mkdtempSync(join(tmpdir(), 'mp-record-'));
		});
		afterEach(() => rmSync(folder, { recursive: true, force: true }));

		it('records every proxied exchange of one upstream; says why others are left out', () => {
			const path = join(folder, 'session.mprec.json');
			const journal = new Journal({ knownSecrets: { apiKey: SANDBOX_KEY } });
			const skipped: string[] = [];
			const recorder = recordToFile(path, journal, contexts, (reason) => skipped.push(reason));
			const [currency, users, weeks] = liveCaptures();
			const own = { ...currency, upstream: undefined };
			const failed = { ...currency, status: 502, proxyError: { kind: 'reset' as const, message: 'reset' } };
			const elsewhere = { ...weeks, upstream: 'https://other.example' };
			for (const item of [currency, own, failed, users, elsewhere, weeks]) journal.record(item);
			recorder.close();
			const recording = parseRecording(readFileSync(path, 'utf8'), path);
			assert.deepEqual(
				recording.exchanges.map((exchange) => exchange.operation),
				['GetCurrency', 'UserList', 'GetWeeksToAdvertise'],
			);
			assert.equal(recording.upstream, UPSTREAM);
			assert.deepEqual(skipped, [
				'exchange 3 was answered by the proxy itself (502: reset), not by the service; not recorded',
				'exchange 5 went to another upstream (https://other.example); not recorded',
			]);
			const text = readFileSync(path, 'utf8');
			assert.ok(!text.includes(API_KEY) && !text.includes(encodeURIComponent(API_KEY)));
			// Closed: later exchanges are not recorded.
			journal.record(currency);
			journal.flush();
			assert.equal(parseRecording(readFileSync(path, 'utf8'), path).exchanges.length, 3);
		});

		it('writes nothing when nothing was recorded; says so when the file cannot be written', () => {
			const path = join(folder, 'empty.mprec.json');
			const journal = new Journal();
			const skipped: string[] = [];
			recordToFile(path, journal, contexts, (reason) => skipped.push(reason)).close();
			assert.equal(existsSync(path), false);
			assert.equal(skipped.length, 0);

			const nowhere = join(folder, 'missing', 'x.mprec.json');
			const recorder = recordToFile(nowhere, journal, contexts, (reason) => skipped.push(reason));
			journal.record(liveCaptures()[0]);
			recorder.close();
			assert.equal(skipped.length, 1);
			assert.match(skipped[0], /^the recording .*x\.mprec\.json was not written: /);
		});
	});
});
