import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { OPERATION_NAMES, OPERATIONS } from '../../../src/protocol/catalogue';
import {
	BINDING_NAMES,
	getBinding,
	ProtocolError,
	type BindingName,
	type CodecContext,
	type EncodedRequest,
	type ReceivedRequest,
} from '../../../src/protocol/bindings';
import { parseXml, type XmlElement } from '../../../src/protocol/codecs/xml';
import { FaultError } from '../../../src/protocol/faults';
import { sampleParams, sampleResult } from '../../builders/samples';

const FIXTURES = path.join(__dirname, '../../../../test/fixtures/envelopes');
const ctx: CodecContext = { namespace: 'http://mp.example/', endpointPath: '/SOAP/Posting.asmx' };
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

/** A comparable form of an XML tree: names, namespaces, attributes and text, whitespace-only text dropped. */
function canonical(el: XmlElement): unknown {
	const attrs = el.attrs
		.filter((a) => a.name !== 'xmlns' && !a.name.startsWith('xmlns:'))
		.map((a) => `${a.ns}|${a.local}=${a.value}`)
		.sort();
	return {
		name: `${el.ns}|${el.local}`,
		attrs,
		text: el.children.length ? el.text.trim() : el.text,
		children: el.children.map(canonical),
	};
}

/** What the emulator would hand to decodeRequest for a request the client encoded. */
function asReceived(request: EncodedRequest): ReceivedRequest {
	const [pathPart, query = ''] = request.path.split('?');
	return {
		method: request.method,
		subPath: pathPart.slice(ctx.endpointPath.length),
		query,
		headers: request.headers,
		body: request.body,
	};
}

describe('bindings against golden fixtures written from the spec', () => {
	it('SOAP 1.1 GetCurrency request: envelope, namespace, SOAPAction and content type', () => {
		const request = getBinding('soap11').encodeRequest('GetCurrency', { sCultureID: 'en-GB', sAPIKey: 'KEY' }, ctx);
		assert.equal(request.method, 'POST');
		assert.equal(request.path, '/SOAP/Posting.asmx');
		assert.equal(request.headers['content-type'], 'text/xml; charset=utf-8');
		assert.equal(request.headers['soapaction'], '"http://mp.example/GetCurrency"');
		assert.deepEqual(
			canonical(parseXml(request.body)),
			canonical(parseXml(fixture('soap11-GetCurrency.request.xml'))),
		);
	});

	it('SOAP 1.2 ApplicationScore request: action in the content type, boolean default written', () => {
		const request = getBinding('soap12').encodeRequest(
			'ApplicationScore',
			{
				sCultureID: 'en',
				sAPIKey: 'KEY',
				sUsername: 'jane',
				sPassword: 'secret',
				sAdvertID: '42',
				sAdvertCandidateID: '9001',
				sScore: 'S',
			},
			ctx,
		);
		assert.equal(
			request.headers['content-type'],
			'application/soap+xml; charset=utf-8; action="http://mp.example/ApplicationScore"',
		);
		assert.equal(request.headers['soapaction'], undefined);
		assert.deepEqual(
			canonical(parseXml(request.body)),
			canonical(parseXml(fixture('soap12-ApplicationScore.request.xml'))),
		);
	});

	it('SOAP 1.1 Destinations are repeated <string> children (rule 3), absent strings are left out', () => {
		const request = getBinding('soap11').encodeRequest(
			'UserFeedsAndQuotaWithDestinations',
			{ sAPIKey: 'KEY', sUsername: 'jane', sPassword: 'secret', Destinations: ['108', 'Totaljobs'] },
			ctx,
		);
		assert.deepEqual(
			canonical(parseXml(request.body)),
			canonical(parseXml(fixture('soap11-UserFeedsAndQuotaWithDestinations.request.xml'))),
		);
	});

	it('decodes a SOAP 1.1 list result with character references', () => {
		const decoded = getBinding('soap11').decodeResponse(
			'GetCurrency',
			{
				status: 200,
				headers: { 'content-type': 'text/xml; charset=utf-8' },
				body: fixture('soap11-GetCurrency.response.xml'),
			},
			ctx,
		);
		assert.deepEqual(decoded, {
			ok: true,
			result: [
				{
					CultureID: 'en-GB',
					Description: 'Pound sterling',
					FieldID: 12,
					OrganisationID: 0,
					SortOrder: 1,
					Value: 'GBP',
				},
				{
					CultureID: 'en-GB',
					Description: 'Café & Euro',
					FieldID: 12,
					OrganisationID: 0,
					SortOrder: 2,
					Value: 'EUR',
				},
			],
		});
	});

	it('decodes a paged response without a Result element (rule 1), skipping nil and unknown elements', () => {
		const decoded = getBinding('soap11').decodeResponse(
			'GetAdvertPaged',
			{
				status: 200,
				headers: { 'content-type': 'text/xml; charset=utf-8' },
				body: fixture('soap11-GetAdvertPaged.response.xml'),
			},
			ctx,
		);
		assert.deepEqual(decoded, {
			ok: true,
			result: {
				PageCount: 3,
				PageIndex: 1,
				TotalItemCount: 25,
				Adverts: [
					{
						SchemaIdentifier: '1.0',
						AdvertID: 42,
						UserID: 7,
						OrganisationID: 3,
						LastPostDate: '2026-11-02T10:15:00Z',
						LastDeliveryStatusID: 1,
						AdvertIdentifier: 'JOB-42',
						AdvertStatusID: 0,
						AdvertTitle: 'Senior <Java> Developer',
						Applications: 12,
						SalaryHide: false,
						latitude: '51.507351',
						longitude: '-0.127758',
					},
				],
			},
		});
	});

	it('encodes a paged SOAP response with the wrapper directly inside the Response element', () => {
		const response = getBinding('soap11').encodeResponse(
			'GetAdvertPaged',
			{ PageCount: 0, PageIndex: 1, TotalItemCount: 0, Adverts: [] },
			ctx,
		);
		const body = parseXml(response.body).children[0];
		const opResponse = body.children[0];
		assert.equal(opResponse.local, 'GetAdvertPagedResponse');
		assert.deepEqual(
			opResponse.children.map((c) => c.local),
			['AdvertPaged'],
		);
		assert.equal(response.headers['content-type'], 'text/xml; charset=utf-8');
	});

	it('decodes an HTTP GET ApplicationPaged root with document objects, attributes, base64 and nil documents', () => {
		const decoded = getBinding('httpGet').decodeResponse(
			'GetApplicationsPaged',
			{
				status: 200,
				headers: { 'content-type': 'text/xml; charset=utf-8' },
				body: fixture('httpGet-GetApplicationsPaged.response.xml'),
			},
			ctx,
		);
		assert.ok(decoded.ok);
		const page = decoded.result as { Applications: Record<string, unknown>[] };
		assert.deepEqual(page.Applications[0], {
			AdvertCandidateID: 9001,
			AdvertID: 42,
			ApplicationDate: '2026-11-03T08:00:00.123+01:00',
			LastName: "O'Brien",
			FirstName: 'Zoë',
			Viewed: true,
			Score: 4,
			Ranking: 'Suitable',
			Favourite: false,
			EmailBody: {
				FileName: 'body.html',
				DocumentType: 'EmailBody',
				EncodingType: 'UTF-8',
				DocumentSource: 'Email',
				DocumentFormat: 'html',
				Document: '<p>Hello</p>',
			},
			EmailFirstAttachment: {
				FileName: 'cv.txt',
				DocumentType: 'Attachment',
				DocumentBytes: new Uint8Array(Buffer.from('Hello World')),
			},
		});
	});

	it('encodes HTTP GET with every parameter in order and a repeated Destinations field', () => {
		const request = getBinding('httpGet').encodeRequest(
			'UserFeedsAndQuotaWithDestinations',
			{ sAPIKey: 'K&Y', sUsername: 'jane', Destinations: ['108', 'Total jobs'] },
			ctx,
		);
		assert.equal(request.method, 'GET');
		assert.equal(
			request.path,
			'/SOAP/Posting.asmx/UserFeedsAndQuotaWithDestinations?sCultureID=&sAPIKey=K%26Y&sUsername=jane&sPassword=&Destinations=108&Destinations=Total+jobs',
		);
	});

	it('encodes HTTP POST as a form, CurrentPage as text (rule 5)', () => {
		const request = getBinding('httpPost').encodeRequest(
			'GetAdvertPaged',
			{ sAPIKey: 'KEY', CurrentPage: 2, RowsPerPage: 50 },
			ctx,
		);
		assert.equal(request.path, '/SOAP/Posting.asmx/GetAdvertPaged');
		assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
		const form = new URLSearchParams(text(request.body));
		assert.equal(form.get('CurrentPage'), '2');
		assert.equal(form.get('RowsPerPage'), '50');
		assert.deepEqual(
			[...form.keys()],
			OPERATIONS.GetAdvertPaged.params.map((p) => p.name),
		);
	});

	it('decodes SOAP 1.1 and SOAP 1.2 faults', () => {
		const f11 = getBinding('soap11').decodeResponse(
			'GetCurrency',
			{ status: 500, headers: { 'content-type': 'text/xml; charset=utf-8' }, body: fixture('soap11-fault.xml') },
			ctx,
		);
		assert.deepEqual(f11, {
			ok: false,
			status: 500,
			fault: {
				code: 'Client',
				message: 'sAPIKey is not valid.',
				subcode: 'AuthenticationFailed',
				detail: undefined,
			},
		});
		const f12 = getBinding('soap12').decodeResponse(
			'GetApplicationsPaged',
			{
				status: 500,
				headers: { 'content-type': 'application/soap+xml; charset=utf-8' },
				body: fixture('soap12-fault.xml'),
			},
			ctx,
		);
		assert.deepEqual(f12, {
			ok: false,
			status: 500,
			fault: {
				code: 'Client',
				message: 'At least one search filter must be given.',
				subcode: 'MissingFilter',
				detail: undefined,
			},
		});
	});

	it('writes the SOAP 1.1 sub-code in a WCF ExceptionDetail, first in detail, and reads it back', () => {
		const fault = {
			code: 'Client' as const,
			subcode: 'InvalidParameter',
			message: 'Bad & wrong',
			detail: 'value: x',
		};
		const encoded = getBinding('soap11').encodeFault(fault, ctx);
		const text = Buffer.from(encoded.body).toString('utf8');
		// WCF clients without a fault contract read detail's first child as ExceptionDetail.
		assert.match(
			text,
			/<detail><ExceptionDetail xmlns="http:\/\/schemas\.datacontract\.org\/2004\/07\/System\.ServiceModel"><Message>Bad &amp; wrong<\/Message><Type>InvalidParameter<\/Type><\/ExceptionDetail><Detail xmlns="http:\/\/mp\.example\/">value: x<\/Detail><\/detail>/,
		);
		const back = getBinding('soap11').decodeResponse('GetCurrency', { ...encoded, headers: encoded.headers }, ctx);
		assert.deepEqual(back, { ok: false, status: 500, fault });
	});

	it('decodes an HTTP GET/POST error as a fault from the text/plain body', () => {
		const decoded = getBinding('httpPost').decodeResponse(
			'GetCurrency',
			{
				status: 500,
				headers: { 'content-type': 'text/plain; charset=utf-8' },
				body: Buffer.from('Missing parameter: sAPIKey.\r\n   at System.Web'),
			},
			ctx,
		);
		assert.deepEqual(decoded, {
			ok: false,
			status: 500,
			fault: { code: 'Server', message: 'Missing parameter: sAPIKey.' },
		});
	});

	it('refuses responses that are not what the binding promises, with a reason', () => {
		const html = Buffer.from('<!DOCTYPE html><html><body>Bad gateway</body></html>');
		const cases: [BindingName, number, string, Uint8Array, string][] = [
			['soap11', 200, 'text/html', html, 'HTML_PAGE'],
			['soap11', 502, 'text/html', html, 'HTTP_STATUS'],
			['soap12', 200, 'text/xml', fixture('soap11-GetCurrency.response.xml'), 'CONTENT_TYPE'],
			[
				'soap11',
				200,
				'text/xml',
				Buffer.from(
					'<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetCurr',
				),
				'XML_MALFORMED',
			],
			['soap11', 200, 'text/xml', fixture('soap11-GetCurrency.response.xml'), 'UNEXPECTED_ROOT'],
			['httpGet', 200, 'text/xml', Buffer.from('<ArrayOfGetValue xmlns="http://other/"/>'), 'NAMESPACE'],
			[
				'httpGet',
				200,
				'text/xml',
				Buffer.from(
					'<ArrayOfGetValue xmlns="http://mp.example/"><GetValue><FieldID>x</FieldID></GetValue></ArrayOfGetValue>',
				),
				'INVALID_VALUE',
			],
		];
		for (const [binding, status, type, body, reason] of cases) {
			const operation = reason === 'UNEXPECTED_ROOT' ? 'UserList' : 'GetCurrency';
			assert.throws(
				() =>
					getBinding(binding).decodeResponse(
						operation,
						{ status, headers: { 'content-type': type }, body },
						ctx,
					),
				(error: unknown) => error instanceof ProtocolError && error.reason === reason,
				`${binding} ${reason}`,
			);
		}
	});
});

describe('bindings: every operation in every binding', () => {
	for (const binding of BINDING_NAMES) {
		for (const operation of OPERATION_NAMES) {
			it(`${binding} ${operation}: request and response round trip, fault`, () => {
				const codec = getBinding(binding);
				const params = sampleParams(operation);
				const decoded = codec.decodeRequest(asReceived(codec.encodeRequest(operation, params, ctx)), ctx);
				assert.equal(decoded.operation, operation);
				assert.deepEqual(decoded.params, params);

				const result = sampleResult(operation);
				const response = codec.encodeResponse(operation, result, ctx);
				assert.equal(response.status, 200);
				const back = codec.decodeResponse(
					operation,
					{ status: response.status, headers: response.headers, body: response.body },
					ctx,
				);
				assert.deepEqual(back, { ok: true, result });

				const fault = codec.encodeFault(
					{ code: 'Client', subcode: 'InvalidParameter', message: `Bad <${operation}> & "value"` },
					ctx,
				);
				assert.equal(fault.status, 500);
				const faultBack = codec.decodeResponse(
					operation,
					{ status: fault.status, headers: fault.headers, body: fault.body },
					ctx,
				);
				assert.equal(faultBack.ok, false);
				if (!faultBack.ok) {
					assert.equal(faultBack.fault.message, `Bad <${operation}> & "value"`);
					if (binding.startsWith('soap')) {
						assert.deepEqual(
							[faultBack.fault.code, faultBack.fault.subcode],
							['Client', 'InvalidParameter'],
						);
					}
				}
			});
		}
	}
});

describe('bindings: decoding requests on the service side', () => {
	const soap = (body: string, version: 'soap11' | 'soap12' = 'soap11'): ReceivedRequest => ({
		method: 'POST',
		subPath: '',
		query: '',
		headers: { 'content-type': version === 'soap11' ? 'text/xml' : 'application/soap+xml' },
		body: Buffer.from(body),
	});
	const envelope = (inner: string) =>
		`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
	const faultOf = (fn: () => unknown) => {
		try {
			fn();
		} catch (error) {
			assert.ok(error instanceof FaultError, `expected a FaultError, got ${String(error)}`);
			return error.fault;
		}
		assert.fail('expected a fault');
	};

	it('refuses a DOCTYPE, malformed XML, the wrong envelope version and an empty body', () => {
		assert.equal(
			faultOf(() =>
				getBinding('soap11').decodeRequest(soap('<!DOCTYPE x [<!ENTITY a "b">]>' + envelope('')), ctx),
			).subcode,
			'MalformedRequest',
		);
		assert.equal(
			faultOf(() =>
				getBinding('soap11').decodeRequest(soap(envelope('<GetCurrency xmlns="http://mp.example/">')), ctx),
			).subcode,
			'MalformedRequest',
		);
		assert.equal(
			faultOf(() =>
				getBinding('soap12').decodeRequest(
					soap(envelope('<GetCurrency xmlns="http://mp.example/"/>'), 'soap12'),
					ctx,
				),
			).code,
			'VersionMismatch',
		);
		assert.equal(
			faultOf(() => getBinding('soap11').decodeRequest(soap(envelope('')), ctx)).subcode,
			'MalformedRequest',
		);
	});

	it('names the expected namespace, unknown operations and a mismatched SOAPAction', () => {
		assert.match(
			faultOf(() =>
				getBinding('soap11').decodeRequest(soap(envelope('<GetCurrency xmlns="http://other/"/>')), ctx),
			).message,
			/expects "http:\/\/mp.example\/"/,
		);
		assert.match(
			faultOf(() => getBinding('soap11').decodeRequest(soap(envelope('<Nope xmlns="http://mp.example/"/>')), ctx))
				.message,
			/Unknown operation Nope/,
		);
		const mismatched = soap(envelope('<GetCurrency xmlns="http://mp.example/"/>'));
		mismatched.headers['soapaction'] = '"http://mp.example/UserList"';
		assert.match(
			faultOf(() => getBinding('soap11').decodeRequest(mismatched, ctx)).message,
			/does not match the body element GetCurrency/,
		);
	});

	it('reports a bad int parameter by name, and reads empty strings as not given', () => {
		const fault = faultOf(() =>
			getBinding('soap11').decodeRequest(
				soap(
					envelope(
						'<GetAdvertPaged xmlns="http://mp.example/"><CurrentPage>one</CurrentPage></GetAdvertPaged>',
					),
				),
				ctx,
			),
		);
		assert.deepEqual([fault.subcode, /CurrentPage/.test(fault.message)], ['InvalidParameter', true]);
		const get = getBinding('httpGet').decodeRequest(
			{
				method: 'GET',
				subPath: '/getcurrency',
				query: 'sAPIKey=&sCultureID=en',
				headers: {},
				body: new Uint8Array(),
			},
			ctx,
		);
		assert.deepEqual(get, { operation: 'GetCurrency', params: { sCultureID: 'en' }, leniencies: [] });
		assert.equal(
			faultOf(() =>
				getBinding('httpGet').decodeRequest(
					{ method: 'GET', subPath: '/Nope', query: '', headers: {}, body: new Uint8Array() },
					ctx,
				),
			).subcode,
			'UnknownOperation',
		);
	});
});
