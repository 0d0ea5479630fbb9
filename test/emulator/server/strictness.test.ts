/**
 * Strict like ASP.NET ASMX by default, and a loose mode that accepts today's lenient forms but
 * reports every leniency (X-Sandbox-Warning header and the access log).
 */
import * as assert from 'node:assert/strict';
import { startEmulator, type AccessLogEntry, type RunningEmulator } from '../../../src/emulator/server';
import { XMLParser } from 'fast-xml-parser';
import { allFields, API_KEY, fakeHandlers, send, type Recorded } from './helpers';

const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
const WARNING = 'production would refuse this request: ';

function soap(version: '1.1' | '1.2', header: string, body: string): { headers: Record<string, string>; body: string } {
	return {
		headers: {
			'content-type': version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8',
		},
		body: `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${version === '1.1' ? SOAP11_NS : SOAP12_NS}">${header}<s:Body>${body}</s:Body></s:Envelope>`,
	};
}

describe('emulator server: strict like ASMX, loose on request', () => {
	const calls: Recorded[] = [];
	const log: AccessLogEntry[] = [];
	let strict: RunningEmulator;
	let loose: RunningEmulator;
	let ns: string;

	before(async () => {
		strict = await startEmulator({ handlers: fakeHandlers(calls), logger: (e) => log.push(e) });
		loose = await startEmulator({ handlers: fakeHandlers(calls), logger: (e) => log.push(e), loose: true });
		ns = strict.namespace;
	});
	after(async () => {
		await strict.stop();
		await loose.stop();
	});

	const currency = (sAPIKey: string, namespace: string) =>
		`<GetCurrency xmlns="${namespace}"><sCultureID>en</sCultureID><sAPIKey>${sAPIKey}</sAPIKey></GetCurrency>`;
	const post = (emulator: RunningEmulator, message: { headers: Record<string, string>; body: string }) =>
		send(emulator.postingUrl, { method: 'POST', headers: message.headers, body: message.body });

	describe('HTTP GET and POST need every field of the operation', () => {
		it('strict: a missing field is HTTP 500 text/plain with ASMX exception text', async () => {
			const get = await send(`${strict.postingUrl}/GetCurrency?sAPIKey=${API_KEY}`);
			assert.equal(get.status, 500);
			assert.equal(get.headers['content-type'], 'text/plain; charset=utf-8');
			assert.equal(get.body, 'System.InvalidOperationException: Missing parameter: sCultureID.');
			const form = await send(`${strict.postingUrl}/GetCurrency`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: 'sCultureID=en',
			});
			assert.equal(form.body, 'System.InvalidOperationException: Missing parameter: sAPIKey.');
			assert.equal(form.headers['x-sandbox-warning'], undefined);
		});

		it('strict: empty fields are allowed, and list fields may be left out', async () => {
			const get = await send(`${strict.postingUrl}/GetCurrency?sCultureID=&sAPIKey=${API_KEY}`);
			assert.equal(get.status, 200, get.body);
			const list = await send(
				`${strict.postingUrl}/UserFeedsAndQuotaWithDestinations?${allFields('UserFeedsAndQuotaWithDestinations', { sAPIKey: API_KEY })}`,
			);
			assert.notEqual(list.body, 'System.InvalidOperationException: Missing parameter: Destinations.');
		});

		it('loose: a missing field is not given, and the answer and the log say production would refuse it', async () => {
			log.length = 0;
			const get = await send(`${loose.postingUrl}/GetCurrency?sAPIKey=${API_KEY}`);
			assert.equal(get.status, 200, get.body);
			assert.equal(get.headers['x-sandbox-warning'], `${WARNING}missing parameter sCultureID`);
			assert.deepEqual(log.at(-1)?.warnings, ['missing parameter sCultureID']);
			const complete = await send(`${loose.postingUrl}/GetCurrency?sCultureID=en&sAPIKey=${API_KEY}`);
			assert.equal(complete.headers['x-sandbox-warning'], undefined);
			assert.equal(log.at(-1)?.warnings, undefined);
		});
	});

	describe('SOAP parameters are read in the service namespace only', () => {
		it('strict: an unqualified or foreign parameter element is ignored, as XmlSerializer ignores it', async () => {
			const unqualified = `<GetCurrency xmlns="${ns}"><sAPIKey xmlns="">${API_KEY}</sAPIKey></GetCurrency>`;
			const res = await post(strict, soap('1.1', '', unqualified));
			assert.equal(res.status, 500);
			assert.match(res.body, /<faultcode>soap:Client<\/faultcode>/);
			assert.equal(calls.at(-1)?.params['sAPIKey'], undefined);
			const foreign = `<GetCurrency xmlns="${ns}"><x:sAPIKey xmlns:x="urn:other">${API_KEY}</x:sAPIKey></GetCurrency>`;
			assert.equal((await post(strict, soap('1.2', '', foreign))).status, 500);
			const qualified = await post(strict, soap('1.1', '', currency(API_KEY, ns)));
			assert.equal(qualified.status, 200, qualified.body);
		});

		it('loose: the value is used and reported', async () => {
			const unqualified = `<GetCurrency xmlns="${ns}"><sAPIKey xmlns="">${API_KEY}</sAPIKey></GetCurrency>`;
			const res = await post(loose, soap('1.1', '', unqualified.replace(ns, loose.namespace)));
			assert.equal(res.status, 200, res.body);
			assert.equal(
				res.headers['x-sandbox-warning'],
				`${WARNING}<sAPIKey> is not in the service namespace "${loose.namespace}" (it has no namespace); production ignores it`,
			);
		});
	});

	describe('mustUnderstand headers', () => {
		const header = (_version: '1.1' | '1.2', value: string) =>
			`<s:Header><a:Action xmlns:a="http://www.w3.org/2005/08/addressing" s:mustUnderstand="${value}">x</a:Action></s:Header>`;

		it('strict: SOAP 1.1 mustUnderstand="1" is a soap:MustUnderstand fault', async () => {
			const res = await post(strict, soap('1.1', header('1.1', '1'), currency(API_KEY, ns)));
			assert.equal(res.status, 500);
			const fault = new XMLParser({ removeNSPrefix: true }).parse(res.body).Envelope.Body.Fault;
			assert.equal(fault.faultcode, 'soap:MustUnderstand');
			assert.equal(fault.faultstring, 'SOAP header Action was not understood.');
		});

		it('strict: SOAP 1.2 mustUnderstand="true" is an env:MustUnderstand fault', async () => {
			const res = await post(strict, soap('1.2', header('1.2', 'true'), currency(API_KEY, ns)));
			assert.equal(res.status, 500);
			assert.match(res.body, /<soap12:Code><soap12:Value>soap12:MustUnderstand<\/soap12:Value>/);
		});

		it('a header without mustUnderstand, or with "0", is ignored', async () => {
			for (const value of ['0', 'false']) {
				const res = await post(strict, soap('1.1', header('1.1', value), currency(API_KEY, ns)));
				assert.equal(res.status, 200, res.body);
			}
		});

		it('loose: the header is ignored and reported', async () => {
			const res = await post(loose, soap('1.2', header('1.2', 'true'), currency(API_KEY, loose.namespace)));
			assert.equal(res.status, 200, res.body);
			assert.match(String(res.headers['x-sandbox-warning']), /<a:Action> has mustUnderstand set/);
		});
	});

	describe('one element in one Body', () => {
		it('strict: a second Body child is a Client fault naming the elements', async () => {
			const res = await post(strict, soap('1.1', '', currency(API_KEY, ns) + currency(API_KEY, ns)));
			assert.equal(res.status, 500);
			assert.match(res.body, /<faultcode>soap:Client<\/faultcode><faultstring>The SOAP Body holds 2 elements/);
		});

		it('strict: a second Body is a Client fault', async () => {
			const message = soap('1.1', '', currency(API_KEY, ns));
			const twice = message.body.replace('</s:Envelope>', '<s:Body/></s:Envelope>');
			const res = await post(strict, { headers: message.headers, body: twice });
			assert.equal(res.status, 500);
			assert.match(res.body, /The Envelope has 2 Body elements/);
		});

		it('loose: the first element is answered and the rest reported', async () => {
			const body = currency(API_KEY, loose.namespace);
			const res = await post(loose, soap('1.1', '', body + body));
			assert.equal(res.status, 200, res.body);
			assert.equal(
				res.headers['x-sandbox-warning'],
				`${WARNING}the SOAP Body holds 2 elements; production reads the first only`,
			);
		});
	});

	describe('discovery', () => {
		it('answers ?disco with a DISCO document pointing at the WSDL and both SOAP ports', async () => {
			for (const query of ['?disco', '?DISCO']) {
				const res = await send(`${strict.postingUrl}${query}`);
				assert.equal(res.status, 200);
				assert.equal(res.headers['content-type'], 'text/xml; charset=utf-8');
				const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });
				const disco = parser.parse(res.body).discovery;
				assert.equal(disco['@xmlns'], 'http://schemas.xmlsoap.org/disco/');
				assert.equal(disco.contractRef['@ref'], `${strict.postingUrl}?wsdl`);
				assert.equal(disco.contractRef['@xmlns'], 'http://schemas.xmlsoap.org/disco/scl/');
				assert.deepEqual(
					disco.soap.map((s: Record<string, string>) => [s['@address'], s['@binding']]),
					[
						[strict.postingUrl, 'q1:PostingSoap'],
						[strict.postingUrl, 'q2:PostingSoap12'],
					],
				);
				assert.equal(disco.soap[0]['@xmlns:q1'], ns);
			}
			const admin = await send(`${strict.adminUrl}?disco`);
			assert.match(admin.body, /binding="q1:AdministrationSoap"/);
		});

		it('links the DISCO document from the service page, as ASMX does', async () => {
			const page = await send(strict.postingUrl);
			assert.ok(page.body.includes('<link rel="alternate" type="text/xml" href="/SOAP/Posting.asmx?disco" />'));
		});
	});
});
