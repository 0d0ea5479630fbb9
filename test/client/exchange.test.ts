import * as assert from 'node:assert/strict';
import {
	LAZY_REDACTION_BYTES,
	REDACTED,
	bodyExcerpt,
	copyExchange,
	createRedactor,
	redactExchange,
	type Exchange,
	type Redactor,
} from '../../src/client';

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

	it('replaces the forms a service may echo: escaped twice, JSON-escaped and base64, also inside longer base64', () => {
		const long = 'p@ss/w"rd&<x>';
		const redactor = createRedactor([long]);
		const xml = long.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
		const echoes = [
			xml.replace(/&/g, '&amp;'),
			encodeURIComponent(encodeURIComponent(long)),
			JSON.stringify(long).slice(1, -1),
			JSON.stringify(long).slice(1, -1).replace(/\//g, '\\/'),
			JSON.stringify(long)
				.slice(1, -1)
				.replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
			Buffer.from(long).toString('base64'),
			Buffer.from(long).toString('base64url'),
		];
		for (const echo of echoes) {
			assert.equal(redactor.text(`<Value>${echo}</Value>`).includes(echo), false, echo);
			assert.match(redactor.text(`<Value>${echo}</Value>`), /^<Value>\*\*\*[^<]{0,3}<\/Value>$/, echo);
		}
		// Inside a longer base64 text (a document) at each alignment: at most the edge characters stay.
		for (const before of [10, 11, 12]) {
			const blob = Buffer.concat([Buffer.alloc(before, 7), Buffer.from(long), Buffer.alloc(10, 9)]).toString(
				'base64',
			);
			const [left, right, ...rest] = redactor.text(blob).split(REDACTED);
			assert.equal(rest.length, 0, blob);
			assert.ok(blob.startsWith(left) && left.length <= Math.ceil((before * 8) / 6) + 1, `${before}: ${left}`);
			assert.ok(blob.endsWith(right) && right.length <= Math.ceil((10 * 8) / 6) + 4, `${before}: ${right}`);
		}
	});

	it('replaces a secret shorter than 6 characters only as a whole token, never inside other words', () => {
		const redactor = createRedactor(['k', 'ab1']);
		assert.equal(
			redactor.text('Connection: keep-alive; key=k; "k" ab12 ab1 <p>k</p>'),
			'Connection: keep-alive; key=***; "***" ab12 *** <p>***</p>',
		);
		assert.equal(text(redactor.bytes(Buffer.from('Keep-Alive: timeout=5, k'))), 'Keep-Alive: timeout=5, ***');
		// A cut excerpt does not mask a trailing letter that merely could begin a short secret.
		assert.equal(redactor.excerpt(Buffer.from(`look ${'x'.repeat(100)}`), 4), 'look');
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

	it('hands back the bytes themselves when there is nothing to redact, and a redacted copy otherwise', () => {
		const redactor = createRedactor(['s3cret-value', 'a&b']);
		const clean = Buffer.from('<a>nothing here</a>'.repeat(100_000));
		assert.equal(redactor.bytes(clean), clean);
		const dirty = Buffer.from(`${'<a>x</a>'.repeat(100_000)}<b>s3cret-value</b><c>a&amp;b</c>`);
		const before = Buffer.from(dirty);
		const redacted = redactor.bytes(dirty);
		assert.notEqual(redacted, dirty);
		assert.ok(text(redacted).endsWith('<b>***</b><c>***</c>'));
		assert.deepEqual(dirty, before, 'the input is not modified');
	});

	it('finds every form of a secret and credential fields in any letter case, anywhere in megabytes', () => {
		// Secrets with a long run that no encoding changes, with short runs only, and with none.
		const secrets = ['Plain-Run_0123.xyz', 'a b&c<d>e', '&<>"\''];
		const redactor = createRedactor(secrets);
		const forms = (secret: string): string[] => {
			const percent = encodeURIComponent(secret);
			const form = new URLSearchParams({ v: secret }).toString().slice(2);
			const xml = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
			return [
				secret,
				percent,
				form,
				percent.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
				form.replace(/\+/g, '%20'),
				xml,
				xml.replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
				xml.replace(/"/g, '&#34;').replace(/'/g, '&#39;'),
				xml.replace(/"/g, '&#x22;').replace(/'/g, '&#x27;'),
			];
		};
		const filler = 'filler text '.repeat(200_000);
		for (const secret of secrets) {
			for (const form of forms(secret)) {
				const out = text(redactor.bytes(Buffer.from(`${filler}[${form}]${filler}`)));
				assert.ok(out.includes('[***]'), `${JSON.stringify(form)} of ${JSON.stringify(secret)}`);
			}
		}
		// A name across the boundary of the chunks the field names are looked for in (64 KiB).
		for (let shift = 1; shift < 10; shift++) {
			const out = text(redactor.bytes(Buffer.from(`${'x'.repeat(65_536 - shift)}<sPassword>v</sPassword>`)));
			assert.ok(out.endsWith('<sPassword>***</sPassword>'), `name split ${shift} bytes before the boundary`);
		}
		for (const field of ['<PASSWORD>v</PASSWORD>', '<x:SapiKey a="1">v</x:SapiKey>', '?spassWORD=v']) {
			const out = text(redactor.bytes(Buffer.from(`${filler}${field}${filler}`)));
			assert.ok(!out.includes('>v<') && !out.includes('=v'), field);
			assert.ok(out.includes('***'), field);
		}
	});

	it('quotes an excerpt without a secret, also where the cut splits one or an open credential element', () => {
		const redactor = createRedactor(['TheSecretKey-42']);
		const bytes = (value: string): Uint8Array => Buffer.from(value);
		assert.equal(redactor.excerpt(bytes('short TheSecretKey-42 text'), 50), 'short *** text');
		assert.equal(redactor.excerpt(bytes(`${'a'.repeat(45)}TheSecretKey-42 more`), 50), `${'a'.repeat(45)}*** m`);
		// Redaction shortens the text, so the end of the decoded window falls inside the excerpt.
		assert.equal(redactor.excerpt(bytes('TheSecretKey-42'.repeat(40)), 50), '*'.repeat(45));
		assert.equal(
			redactor.excerpt(bytes(`${'a'.repeat(30)}<tns:sAPIKey>unknown-${'v'.repeat(300)}</tns:sAPIKey>`), 50),
			`${'a'.repeat(30)}<tns:sAPIKey>***`,
		);
		assert.equal(redactor.excerpt(bytes('é'.repeat(600)), 500), 'é'.repeat(500));
	});

	it('redacts a large body when it is first read, and quotes its beginning without redacting the rest', () => {
		const secret = 'TheSecretKey-42';
		const calls: Uint8Array[] = [];
		const real = createRedactor([secret]);
		const counting: Redactor = {
			...real,
			bytes: (value) => {
				calls.push(value);
				return real.bytes(value);
			},
		};
		const filler = 'lorem ipsum '.repeat(LAZY_REDACTION_BYTES / 6);
		const body = `<a>${secret}</a>${filler}<sPassword>unknown</sPassword>${encodeURIComponent(secret)}`;
		const exchange = exchangeWith('http://h/', '<q/>', body);
		const raw = exchange.response!.body;
		const redacted = redactExchange(exchange, counting);
		assert.deepEqual(calls, [exchange.request.body], 'only the short request body is redacted at once');

		const quoted = bodyExcerpt(redacted.response!, 100);
		assert.equal(quoted.text, `<a>***</a>${filler.slice(0, 90)}`);
		assert.equal(quoted.moreBytes, raw.length - Buffer.byteLength(quoted.text));
		// The cut splits an open credential element or a secret: what is left of it is masked.
		assert.equal(bodyExcerpt(redacted.response!, 10).text, '<a>***</a>');
		const cutSecret = redactExchange(exchangeWith('http://h/', '', `${'x'.repeat(20)}${secret}${filler}`), [
			secret,
		]);
		assert.equal(bodyExcerpt(cutSecret.response!, 25).text, `${'x'.repeat(20)}***lo`);
		const cutElement = redactExchange(exchangeWith('http://h/', '', `<sAPIKey>${filler}</sAPIKey>`), [secret]);
		assert.equal(bodyExcerpt(cutElement.response!, 30).text, '<sAPIKey>***');
		assert.equal(calls.length, 1, 'quoting the beginning did not redact the whole body');

		const whole = text(redacted.response!.body);
		assert.equal(calls.length, 2);
		assert.equal(whole, `<a>***</a>${filler}<sPassword>***</sPassword>***`);
		assert.equal(redacted.response!.body, redacted.response!.body, 'redacted once');
		assert.equal(calls.length, 2);
		assert.ok(!JSON.stringify(redacted).includes(JSON.stringify([...Buffer.from(secret)]).slice(1, -1)));
		assert.equal(text(raw), body, 'the input is not modified');
		// Read whole, the body is quoted as it now is.
		assert.equal(bodyExcerpt(redacted.response!, 100).text, `<a>***</a>${filler.slice(0, 90)}`);
	});

	it('copies a body still to be redacted as a body of its own, redacted when read', () => {
		const filler = 'x'.repeat(LAZY_REDACTION_BYTES);
		const redacted = redactExchange(exchangeWith('http://h/', '', `${filler}<b>s3cret</b>`), ['s3cret']);
		const copy = copyExchange(redacted);
		copy.response!.body.fill(0x21);
		assert.ok(text(redacted.response!.body).endsWith('<b>***</b>'));
		assert.ok(text(copyExchange(redacted).response!.body).endsWith('<b>***</b>'));
		assert.notEqual(copyExchange(redacted).response!.body, redacted.response!.body);
		// A short body is redacted at once and copied as before.
		const short = redactExchange(exchangeWith('http://h/', '', '<b>s3cret</b>'), ['s3cret']);
		assert.equal(text(copyExchange(short).response!.body), '<b>***</b>');
		assert.deepEqual(bodyExcerpt(short.response!, 5), { text: '<b>**', moreBytes: 5 });
		assert.deepEqual(bodyExcerpt(short.response!, 50), { text: '<b>***</b>', moreBytes: 0 });
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
