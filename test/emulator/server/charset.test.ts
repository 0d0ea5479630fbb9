import * as assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../../src/emulator';
import { bodyAsUtf8, declaredCharset } from '../../../src/emulator/pipeline/charset';
import { API_KEY, allFields, envelope, fakeHandlers, send, type Recorded } from './helpers';

/** Bytes of `text` in a single-byte charset (latin1 covers ISO-8859-1; windows-1252's € is 0x80). */
function latin1(text: string): Buffer {
	return Buffer.from(text.replace(/€/g, '\u0080'), 'latin1');
}

describe('emulator: request charsets', () => {
	let emulator: RunningEmulator;
	const calls: Recorded[] = [];
	before(async () => {
		emulator = await startEmulator({ handlers: fakeHandlers(calls) });
	});
	after(() => emulator.stop());

	const soap = (body: Buffer, contentType: string, version: '1.1' | '1.2' = '1.1') =>
		send(emulator.postingUrl, {
			method: 'POST',
			headers:
				version === '1.1'
					? { 'content-type': contentType, soapaction: `"${emulator.namespace}GetCurrency"` }
					: { 'content-type': contentType },
			body,
		});
	const getCurrency = (culture: string, declaration = '<?xml version="1.0" encoding="utf-8"?>') =>
		envelope(
			'1.1',
			'GetCurrency',
			emulator.namespace,
			`<sCultureID>${culture}</sCultureID><sAPIKey>${API_KEY}</sAPIKey>`,
		).replace('<?xml version="1.0" encoding="utf-8"?>', declaration);
	/** A SOAP 1.2 GetCurrency whose XML declaration names `encoding`. */
	const getCurrency12 = (culture: string, encoding: string) =>
		envelope(
			'1.2',
			'GetCurrency',
			emulator.namespace,
			`<sCultureID>${culture}</sCultureID><sAPIKey>${API_KEY}</sAPIKey>`,
		).replace('encoding="utf-8"', `encoding="${encoding}"`);
	const lastCulture = () => calls.at(-1)?.params.sCultureID;

	it('reads the parameters of the charset that the Content-Type declares (ISO-8859-1, windows-1252)', async () => {
		let res = await soap(
			latin1(getCurrency('Crème brûlée', '<?xml version="1.0" encoding="ISO-8859-1"?>')),
			'text/xml; charset=ISO-8859-1',
		);
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), 'Crème brûlée');

		const soap12 = envelope(
			'1.2',
			'GetCurrency',
			emulator.namespace,
			`<sCultureID>5 €</sCultureID><sAPIKey>${API_KEY}</sAPIKey>`,
		);
		res = await soap(latin1(soap12), 'application/soap+xml; charset="windows-1252"', '1.2');
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), '5 €');
	});

	it('never reads a declared charset as UTF-8: UTF-8 bytes declared ISO-8859-1 are read as ISO-8859-1', async () => {
		const res = await soap(Buffer.from(getCurrency('é'), 'utf8'), 'text/xml; charset=iso-8859-1');
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), 'Ã©');
	});

	it('decodes UTF-16 declared in the Content-Type, and an encoding named only by the XML declaration', async () => {
		let res = await soap(
			Buffer.from(`\uFEFF${getCurrency('Zoë', '<?xml version="1.0" encoding="utf-16"?>')}`, 'utf16le'),
			'text/xml; charset=utf-16',
		);
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), 'Zoë');
		// application/soap+xml without a charset: ASMX lets the XML reader follow the declaration.
		const soap12 = getCurrency12('Noël', 'ISO-8859-1');
		assert.match(soap12, /encoding="ISO-8859-1"/);
		res = await soap(latin1(soap12), 'application/soap+xml', '1.2');
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), 'Noël');
	});

	it('decodes UTF-16 without a byte order mark whose encoding only the XML declaration names (LE and BE)', async () => {
		const declared = getCurrency('Zoë', '<?xml version="1.0" encoding="utf-16"?>');
		let res = await soap(Buffer.from(declared, 'utf16le'), 'text/xml');
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), 'Zoë');
		const soap12 = getCurrency12('Noël', 'UTF-16');
		res = await soap(Buffer.from(soap12, 'utf16le').swap16(), 'application/soap+xml', '1.2');
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), 'Noël');
		// 16-bit characters that declare an 8-bit encoding cannot be read either way.
		res = await soap(Buffer.from(getCurrency('Zoë'), 'utf16le'), 'text/xml');
		assert.equal(res.status, 400, res.body);
		assert.match(res.body, /is UTF-16 \(its first bytes\) but its XML declaration names 'utf-8'/);
		// No declaration at all: the first character '<' in 16 bits says UTF-16, as for .NET's reader.
		const bare = getCurrency('Åsa', '');
		assert.ok(bare.startsWith('<soap:Envelope'));
		res = await soap(Buffer.from(bare, 'utf16le'), 'text/xml');
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), 'Åsa');
	});

	it('lets a byte order mark win over the declared charset, as .NET StreamReader does', async () => {
		const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(getCurrency('Åsa'), 'utf8')]);
		let res = await soap(utf8, 'text/xml; charset=iso-8859-1');
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), 'Åsa');
		const utf16be = Buffer.from(`\uFEFF${getCurrency('Øre')}`, 'utf16le').swap16();
		res = await soap(utf16be, 'text/xml; charset=windows-1252');
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), 'Øre');
	});

	it('reads a form in its declared charset: percent-escapes are bytes of that charset', async () => {
		const form = allFields('GetCurrency', { sAPIKey: API_KEY }).replace('sCultureID=', 'sCultureID=Caf%E9+cr%E8me');
		const res = await send(`${emulator.postingUrl}/GetCurrency`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' },
			body: form,
		});
		assert.equal(res.status, 200, res.body);
		assert.equal(lastCulture(), 'Café crème');
	});

	it('refuses an unknown charset with 415 and a fault that says to send UTF-8', async () => {
		const res = await soap(Buffer.from(getCurrency('x'), 'utf8'), 'text/xml; charset=klingon');
		assert.equal(res.status, 415);
		assert.match(res.body, /<faultcode>soap:Client<\/faultcode>/);
		assert.match(res.body, /charset 'klingon' is not supported; send UTF-8 \(charset=utf-8\)/);
		const form = await send(`${emulator.postingUrl}/GetCurrency`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16' },
			body: allFields('GetCurrency', { sAPIKey: API_KEY }),
		});
		assert.equal(form.status, 415);
		assert.match(form.headers['content-type'] ?? '', /^text\/plain/);
		assert.match(form.body, /charset 'utf-16' is not supported for a form/);
	});

	it('answers bytes that are not valid in the declared charset with 400', async () => {
		const res = await soap(Buffer.from([0x3c, 0x00, 0x3f]), 'text/xml; charset=utf-16le');
		assert.equal(res.status, 400);
		assert.match(res.body, /not valid utf-16le, the charset it declares/);
	});

	it('leaves UTF-8 bodies untouched', () => {
		const body = Buffer.from('<a>é</a>', 'utf8');
		assert.equal(bodyAsUtf8(body, 'text/xml; charset=UTF-8', 'soap11'), body);
		assert.equal(bodyAsUtf8(body, 'text/xml', 'soap11'), body);
		assert.equal(bodyAsUtf8(body, 'application/x-www-form-urlencoded', 'httpPost'), body);
		assert.equal(declaredCharset('text/xml; charset="utf-8"; action=x'), 'utf-8');
		assert.equal(declaredCharset('text/xml'), undefined);
	});
});
