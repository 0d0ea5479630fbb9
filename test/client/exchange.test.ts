import * as assert from 'node:assert/strict';
import { REDACTED, createRedactor, redactExchange, type Exchange } from '../../src/client';

const text = (bytes: Uint8Array | undefined): string => Buffer.from(bytes ?? new Uint8Array()).toString('utf8');

function exchangeWith(
	url: string,
	requestBody: string,
	responseBody: string,
	headers: Record<string, string> = {},
): Exchange {
	return {
		operation: 'GetCurrency',
		binding: 'soap11',
		request: {
			method: 'POST',
			url,
			headers: { 'content-type': 'text/xml', ...headers },
			body: Buffer.from(requestBody),
		},
		response: { status: 200, headers: { 'content-type': 'text/xml' }, body: Buffer.from(responseBody) },
		timings: { startedAt: 1, headersMs: 2, totalMs: 3 },
		error: 'failed',
	};
}

describe('redactExchange', () => {
	const secret = 'a&b<c> d/é';

	it('replaces raw, URL-encoded, form-encoded and XML-escaped forms of each secret', () => {
		const exchange = exchangeWith(
			`http://h/x?other=${encodeURIComponent(secret)}`,
			`<a>a&amp;b&lt;c&gt; d/é</a><b>${new URLSearchParams({ v: secret }).toString().slice(2)}</b>`,
			`raw ${secret} lower ${encodeURIComponent(secret).toLowerCase()}`,
			{ 'x-echo': secret },
		);
		const redacted = redactExchange(exchange, [secret]);
		assert.equal(redacted.request.url, 'http://h/x?other=***');
		assert.equal(text(redacted.request.body), '<a>***</a><b>***</b>');
		assert.equal(text(redacted.response?.body), 'raw *** lower ***');
		assert.equal(redacted.request.headers['x-echo'], REDACTED);
		assert.deepEqual(redacted.timings, exchange.timings);
		assert.equal(text(exchange.request.body).includes('a&amp;b'), true, 'the input is not modified');
	});

	it('redacts credential fields by name even when the value is unknown', () => {
		const exchange = exchangeWith(
			'http://h/SOAP/Posting.asmx/GetCurrency?sCultureID=en&sAPIKey=UNKNOWN-KEY&sPassword=pw',
			'<soap:Body><tns:GetLoginURL><tns:sAPIKey>UNKNOWN</tns:sAPIKey><sPassword xsi:type="s">pw&amp;1</sPassword><sUsername>jane</sUsername></tns:GetLoginURL>',
			'<CUser><Username>bob</Username><Password>bobs</Password><Password /></CUser>',
			{ authorization: 'Basic abc' },
		);
		const redacted = redactExchange(exchange, []);
		assert.equal(
			redacted.request.url,
			'http://h/SOAP/Posting.asmx/GetCurrency?sCultureID=en&sAPIKey=***&sPassword=***',
		);
		assert.equal(
			text(redacted.request.body),
			'<soap:Body><tns:GetLoginURL><tns:sAPIKey>***</tns:sAPIKey><sPassword xsi:type="s">***</sPassword><sUsername>jane</sUsername></tns:GetLoginURL>',
		);
		assert.equal(
			text(redacted.response?.body),
			'<CUser><Username>bob</Username><Password>***</Password><Password /></CUser>',
		);
		assert.equal(redacted.request.headers.authorization, REDACTED);
	});

	it('redacts form bodies by field name', () => {
		const redactor = createRedactor([]);
		assert.equal(
			text(redactor.bytes(Buffer.from('sCultureID=en&sAPIKey=k%26y&sUsername=jane&sPassword=p'))),
			'sCultureID=en&sAPIKey=***&sUsername=jane&sPassword=***',
		);
	});

	it('keeps bytes that are not UTF-8 unchanged', () => {
		const bytes = new Uint8Array([0xff, 0xfe, 0x41, 0x80]);
		assert.deepEqual(createRedactor(['zz']).bytes(bytes), bytes);
	});

	it('replaces the longest secret first and ignores empty secrets', () => {
		assert.equal(createRedactor(['', 'abc', 'abcdef']).text('x abcdef y abc'), 'x *** y ***');
	});

	it('leaves an exchange without a response or error as it is', () => {
		const exchange = exchangeWith('http://h/', '', '');
		delete exchange.response;
		delete exchange.error;
		const redacted = redactExchange(exchange, ['x']);
		assert.equal('response' in redacted, false);
		assert.equal('error' in redacted, false);
	});
});
