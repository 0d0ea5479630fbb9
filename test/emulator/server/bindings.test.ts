import * as assert from 'node:assert/strict';
import { SANDBOX_NAMESPACE } from '../../../src/emulator/endpoint';
import { Agent } from 'node:http';
import { startEmulator, type AccessLogEntry, type RunningEmulator } from '../../../src/emulator/server';
import { API_KEY, envelope, fakeHandlers, send, allFields, type Recorded } from './helpers';

const XML_DECL = '<?xml version="1.0" encoding="utf-8"?>';
const XSI_XSD = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';
const CURRENCY_ROWS =
	'<GetValue><CultureID>en</CultureID><Description>Pound sterling</Description><FieldID>7</FieldID><OrganisationID>0</OrganisationID><SortOrder>1</SortOrder><Value>GBP</Value></GetValue>' +
	'<GetValue><CultureID>en</CultureID><Description>Euro</Description><FieldID>7</FieldID><OrganisationID>0</OrganisationID><SortOrder>2</SortOrder><Value>EUR</Value></GetValue>';
const SCORE_PARAMS = `<sAPIKey>${API_KEY}</sAPIKey><sUsername>demo</sUsername><sPassword>secret-pw</sPassword><sAdvertID>1</sAdvertID><sAdvertCandidateID>2</sAdvertCandidateID><sScore>S</sScore><sScoreAsJobOwner>true</sScoreAsJobOwner>`;

describe('emulator server: the four bindings', () => {
	let emulator: RunningEmulator;
	let ns: string;
	const calls: Recorded[] = [];
	const log: AccessLogEntry[] = [];

	before(async () => {
		emulator = await startEmulator({ handlers: fakeHandlers(calls), logger: (entry) => log.push(entry) });
		ns = emulator.namespace;
	});
	after(() => emulator.stop());

	it('listens on 127.0.0.1 with the fixed sandbox namespace and the default endpoint paths', () => {
		assert.match(emulator.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
		assert.equal(ns, SANDBOX_NAMESPACE);
		assert.equal(emulator.postingUrl, `${emulator.baseUrl}/SOAP/Posting.asmx`);
		assert.equal(emulator.adminUrl, `${emulator.baseUrl}/SOAP/Administration.asmx`);
		assert.equal(emulator.postingWsdl, `${emulator.postingUrl}?WSDL`);
		assert.equal(emulator.adminWsdl, `${emulator.adminUrl}?WSDL`);
	});

	it('answers SOAP 1.1 with the result inside <Operation>Response', async () => {
		const res = await send(emulator.postingUrl, {
			method: 'POST',
			headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${ns}GetCurrency"` },
			body: envelope('1.1', 'GetCurrency', ns, `<sCultureID>en</sCultureID><sAPIKey>${API_KEY}</sAPIKey>`),
		});
		assert.equal(res.status, 200);
		assert.equal(res.headers['content-type'], 'text/xml; charset=utf-8');
		assert.equal(
			res.body,
			`${XML_DECL}<soap:Envelope ${XSI_XSD} xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
				`<GetCurrencyResponse xmlns="${ns}"><GetCurrencyResult>${CURRENCY_ROWS}</GetCurrencyResult></GetCurrencyResponse></soap:Body></soap:Envelope>`,
		);
	});

	it('answers SOAP 1.2 with the same body in a SOAP 1.2 envelope', async () => {
		const res = await send(emulator.postingUrl, {
			method: 'POST',
			headers: { 'content-type': `application/soap+xml; charset=utf-8; action="${ns}ApplicationScore"` },
			body: envelope('1.2', 'ApplicationScore', ns, SCORE_PARAMS),
		});
		assert.equal(res.status, 200);
		assert.equal(res.headers['content-type'], 'application/soap+xml; charset=utf-8');
		assert.equal(
			res.body,
			`${XML_DECL}<soap12:Envelope ${XSI_XSD} xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body>` +
				`<ApplicationScoreResponse xmlns="${ns}"><ApplicationScoreResult><Success>true</Success></ApplicationScoreResult></ApplicationScoreResponse></soap12:Body></soap12:Envelope>`,
		);
		assert.deepEqual(calls.at(-1), {
			operation: 'ApplicationScore',
			params: {
				sAPIKey: API_KEY,
				sUsername: 'demo',
				sPassword: 'secret-pw',
				sAdvertID: '1',
				sAdvertCandidateID: '2',
				sScore: 'S',
				sScoreAsJobOwner: true,
			},
		});
	});

	it('answers HTTP GET with the bare ArrayOf<Record> root', async () => {
		const res = await send(`${emulator.postingUrl}/GetCurrency?sCultureID=en&sAPIKey=${API_KEY}`);
		assert.equal(res.status, 200);
		assert.equal(res.headers['content-type'], 'text/xml; charset=utf-8');
		assert.equal(
			res.body,
			`${XML_DECL}<ArrayOfGetValue ${XSI_XSD} xmlns="${ns}">${CURRENCY_ROWS}</ArrayOfGetValue>`,
		);
	});

	it('answers HTTP POST on the administration endpoint', async () => {
		const res = await send(`${emulator.adminUrl}/GetWeeksToAdvertise`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: `sCultureID=en&sAPIKey=${API_KEY}`,
		});
		assert.equal(res.status, 200);
		assert.equal(res.headers['content-type'], 'text/xml; charset=utf-8');
		assert.equal(
			res.body,
			`${XML_DECL}<ArrayOfGetValue ${XSI_XSD} xmlns="${ns}">` +
				'<GetValue><CultureID>en</CultureID><Description>1 week</Description><FieldID>9</FieldID><OrganisationID>0</OrganisationID><SortOrder>1</SortOrder><Value>1</Value></GetValue></ArrayOfGetValue>',
		);
	});

	it('decodes GET parameters as text and hands typed values to the handler', async () => {
		const res = await send(
			`${emulator.postingUrl}/ApplicationScore?sCultureID=&sAPIKey=${API_KEY}&sUsername=demo&sPassword=secret-pw&sAdvertID=1&sAdvertCandidateID=2&sScore=M&sScoreAsJobOwner=false`,
		);
		assert.equal(res.status, 200);
		assert.equal(
			res.body,
			`${XML_DECL}<ApplicationScoreResult ${XSI_XSD} xmlns="${ns}"><Success>true</Success></ApplicationScoreResult>`,
		);
		assert.equal(calls.at(-1)?.params['sScoreAsJobOwner'], false);
	});

	it('matches endpoint paths and GET/POST operation names ignoring case', async () => {
		const lower = `${emulator.baseUrl}/soap/posting.asmx`;
		const soap = await send(lower, {
			method: 'POST',
			headers: { 'content-type': 'text/xml; charset=utf-8' },
			body: envelope('1.1', 'GetCurrency', ns, `<sAPIKey>${API_KEY}</sAPIKey>`),
		});
		assert.equal(soap.status, 200);
		const get = await send(`${lower}/getcurrency?sCultureID=&sAPIKey=${API_KEY}`);
		assert.equal(get.status, 200);
		assert.match(get.body, /^<\?xml[^>]*\?><ArrayOfGetValue /);
	});

	it('hands paging parameters to the handler as typed ints', async () => {
		const res = await send(`${emulator.postingUrl}/GetApplicationsPaged`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: allFields('GetApplicationsPaged', {
				sAPIKey: API_KEY,
				sAdvertID: '5',
				CurrentPage: '2',
				RowsPerPage: '25',
			}),
		});
		assert.equal(res.status, 200);
		assert.deepEqual(calls.at(-1)?.params, { sAPIKey: API_KEY, sAdvertID: '5', CurrentPage: 2, RowsPerPage: 25 });
	});

	it('logs one entry per request with path but never parameters', async () => {
		log.length = 0;
		await send(`${emulator.postingUrl}/GetCurrency?sCultureID=&sAPIKey=${API_KEY}`);
		assert.equal(log.length, 1);
		const entry = log[0];
		assert.deepEqual(
			{ ...entry, time: undefined, durationMs: undefined },
			{
				time: undefined,
				durationMs: undefined,
				method: 'GET',
				path: '/SOAP/Posting.asmx/GetCurrency',
				binding: 'httpGet',
				operation: 'GetCurrency',
				status: 200,
				warnings: undefined,
				error: undefined,
			},
		);
		assert.ok(!JSON.stringify(log).includes(API_KEY));
	});

	it('stop() closes idle keep-alive connections and resolves', async () => {
		const other = await startEmulator({ handlers: fakeHandlers() });
		const agent = new Agent({ keepAlive: true, maxSockets: 1 });
		try {
			const first = await send(`${other.postingUrl}/GetCurrency?sCultureID=&sAPIKey=${API_KEY}`, { agent });
			assert.equal(first.headers.connection, 'keep-alive');
			const socket = Object.values(agent.freeSockets).flat()[0];
			assert.ok(socket, 'the agent keeps the connection open');
			const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
			await other.stop();
			await closed;
			assert.equal(other.server.listening, false);
			await assert.rejects(
				send(`${other.postingUrl}/GetCurrency?sCultureID=&sAPIKey=${API_KEY}`),
				/ECONNREFUSED/,
			);
		} finally {
			agent.destroy();
		}
	});
});

describe('emulator server: with its own sandbox', () => {
	let emulator: RunningEmulator;
	before(async () => {
		emulator = await startEmulator({ dataDir: ':memory:', seed: 3, maxPageSize: 20 });
	});
	after(() => emulator.stop());

	it('opens an in-memory sandbox and answers with its demo credentials', async () => {
		assert.ok(emulator.demo.apiKey && emulator.demo.username && emulator.demo.password);
		const ns = emulator.namespace;
		const res = await send(emulator.postingUrl, {
			method: 'POST',
			headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${ns}GetCurrency"` },
			body: envelope(
				'1.1',
				'GetCurrency',
				ns,
				`<sCultureID>en</sCultureID><sAPIKey>${emulator.demo.apiKey}</sAPIKey>`,
			),
		});
		assert.equal(res.status, 200, res.body);
		assert.match(res.body, /<GetCurrencyResponse xmlns="[^"]+"><GetCurrencyResult><GetValue>/);
	});

	it('hands maxPageSize to the sandbox, which refuses a larger page as a caller error', async () => {
		const res = await send(
			`${emulator.postingUrl}/GetAdvertPaged?${allFields('GetAdvertPaged', { sAPIKey: emulator.demo.apiKey, CurrentPage: '1', RowsPerPage: '21' })}`,
		);
		assert.equal(res.status, 500);
		assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
		assert.match(res.body, /RowsPerPage must be between 1 and 20/);
	});
});
