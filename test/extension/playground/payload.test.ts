import * as assert from 'node:assert/strict';
import { payloadOf } from '../../../src/extension/playground/payload';

const NS = 'http://127.0.0.1:8099/';

describe('playground payloads (compare bindings)', function () {
	it('takes the result element out of a SOAP 1.1 and a SOAP 1.2 envelope and out of an HTTP root alike', function () {
		const soap11 = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetCurrencyResponse xmlns="${NS}"><GetCurrencyResult><GetValue><FieldID>1</FieldID><Value>GBP</Value></GetValue></GetCurrencyResult></GetCurrencyResponse></soap:Body></soap:Envelope>`;
		const soap12 = `<?xml version="1.0"?>\n<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope">\n  <env:Body>\n    <GetCurrencyResponse xmlns="${NS}">\n      <GetCurrencyResult>\n        <GetValue>\n          <FieldID>1</FieldID>\n          <Value>GBP</Value>\n        </GetValue>\n      </GetCurrencyResult>\n    </GetCurrencyResponse>\n  </env:Body>\n</env:Envelope>`;
		const http = `<?xml version="1.0" encoding="utf-8"?><ArrayOfGetValue xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns="${NS}"><GetValue><FieldID>1</FieldID><Value>GBP</Value></GetValue></ArrayOfGetValue>`;
		const expected = '<GetValue>\n  <FieldID>1</FieldID>\n  <Value>GBP</Value>\n</GetValue>';
		assert.equal(payloadOf(soap11), expected);
		assert.equal(payloadOf(soap12), expected);
		assert.equal(payloadOf(http), expected);
	});

	it('keeps xsi:nil and other attributes, drops namespace declarations, escapes text', function () {
		const body = `<Advert xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><latitude xsi:nil="true" /><Title>R&amp;D</Title></Advert>`;
		assert.equal(payloadOf(body), '<latitude xsi:nil="true" />\n<Title>R&amp;D</Title>');
	});

	it('gives the fault of a SOAP fault, the text of a non-XML answer and nothing for an empty body', function () {
		const fault =
			'<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>No.</faultstring></soap:Fault></soap:Body></soap:Envelope>';
		assert.equal(
			payloadOf(fault),
			'<Fault>\n  <faultcode>soap:Client</faultcode>\n  <faultstring>No.</faultstring>\n</Fault>',
		);
		assert.equal(payloadOf('RowsPerPage must be between 1 and 500.\r\n'), 'RowsPerPage must be between 1 and 500.');
		assert.equal(payloadOf('  '), '');
	});
});
