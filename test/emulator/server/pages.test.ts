import * as assert from 'node:assert/strict';
import { indentXml } from '../../../src/emulator/pages/servicePage';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/server';
import { OPERATIONS, operationsOf } from '../../../src/protocol/catalogue';
import { fakeHandlers, send } from './helpers';

function cspOf(headers: Record<string, unknown>): string {
	return String(headers['content-security-policy']);
}

describe('emulator server: WSDL and pages', () => {
	let emulator: RunningEmulator;

	before(async () => {
		emulator = await startEmulator({ handlers: fakeHandlers(), namespace: 'https://example.com/multiposting/' });
	});
	after(() => emulator.stop());

	it('serves the WSDL on ?WSDL and ?wsdl with the emulator address and the fixed namespace', async () => {
		for (const query of ['?WSDL', '?wsdl', '?Wsdl']) {
			const res = await send(`${emulator.postingUrl}${query}`);
			assert.equal(res.status, 200);
			assert.equal(res.headers['content-type'], 'text/xml; charset=utf-8');
			assert.ok(res.body.includes(`<soap:address location="${emulator.postingUrl}" />`));
			assert.ok(res.body.includes('targetNamespace="https://example.com/multiposting/"'));
			assert.ok(res.body.includes('<wsdl:service name="Posting">'));
		}
		const admin = await send(emulator.adminWsdl);
		assert.ok(admin.body.includes(`<soap12:address location="${emulator.adminUrl}" />`));
		assert.ok(admin.body.includes('<wsdl:service name="Administration">'));
	});

	it('serves the service page with every operation in catalogue order, its parameters and a strict CSP', async () => {
		const res = await send(emulator.postingUrl);
		assert.equal(res.status, 200);
		assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
		const csp = cspOf(res.headers);
		const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
		assert.ok(nonce, csp);
		assert.equal(
			csp,
			`default-src 'none'; style-src 'nonce-${nonce}'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
		);
		assert.ok(res.body.includes(`<style nonce="${nonce}">`));
		// The DISCO link names a document for tools (wsdl.exe, Add Web Reference); a browser loads nothing.
		const disco = '<link rel="alternate" type="text/xml" href="/SOAP/Posting.asmx?disco" />';
		assert.ok(res.body.includes(disco));
		assert.ok(
			!/<script|<link|<img|<iframe|\ssrc=|url\(|@import/i.test(res.body.replace(disco, '')),
			'no external resources',
		);
		// Links are relative to the page (/SOAP/Posting.asmx), so they work under any path prefix.
		const linked = [...res.body.matchAll(/<h2 id="op-(\w+)"><a href="Posting\.asmx\?op=(\w+)">/g)].map((m) => m[2]);
		assert.deepEqual(linked, operationsOf('posting'));
		const addAdvert = res.body.slice(
			res.body.indexOf('id="op-AddAdvert"'),
			res.body.indexOf('id="op-AdvertTrackingResponseLog"'),
		);
		const params = [...addAdvert.matchAll(/<tr><td><code>(\w+)<\/code><\/td><td>([^<]+)<\/td>/g)].map((m) => m[1]);
		assert.deepEqual(
			params,
			OPERATIONS.AddAdvert.params.map((p) => p.name),
		);
		assert.ok(res.body.includes('<a href="Posting.asmx?WSDL">'));
		assert.ok(res.body.includes('<a href="../">All endpoints</a>'));
	});

	it('serves an operation page with sample requests of the four bindings, escaped', async () => {
		const res = await send(`${emulator.postingUrl}?op=ApplicationScore`);
		assert.equal(res.status, 200);
		assert.match(cspOf(res.headers), /^default-src 'none'; style-src 'nonce-/);
		for (const label of ['SOAP 1.1', 'SOAP 1.2', 'HTTP GET', 'HTTP POST']) {
			assert.ok(res.body.includes(`>${label}</h2>`), label);
		}
		assert.ok(res.body.includes('SOAPAction: &quot;https://example.com/multiposting/ApplicationScore&quot;'));
		assert.ok(
			res.body.includes(
				'\n    &lt;ApplicationScore xmlns=&quot;https://example.com/multiposting/&quot;&gt;\n      &lt;sCultureID&gt;string&lt;/sCultureID&gt;\n',
			),
		);
		assert.ok(res.body.includes('\n      &lt;sScoreAsJobOwner&gt;true&lt;/sScoreAsJobOwner&gt;\n'));
		assert.ok(res.body.includes('GET /SOAP/Posting.asmx/ApplicationScore?sCultureID=string&amp;sAPIKey=string'));
		assert.ok(res.body.includes('Content-Type: application/x-www-form-urlencoded'));
		assert.ok(!res.body.includes('<soap:Envelope'), 'XML is shown as text, never as markup');
	});

	it('answers 404 for the page of an operation the endpoint does not offer', async () => {
		const res = await send(`${emulator.postingUrl}?op=UserList`);
		assert.equal(res.status, 404);
	});

	it('serves an index page at / linking both endpoints and their WSDL', async () => {
		const res = await send(`${emulator.baseUrl}/`);
		assert.equal(res.status, 200);
		assert.match(cspOf(res.headers), /^default-src 'none';/);
		for (const href of [
			'SOAP/Posting.asmx',
			'SOAP/Posting.asmx?WSDL',
			'SOAP/Administration.asmx',
			'SOAP/Administration.asmx?WSDL',
		]) {
			assert.ok(res.body.includes(`href="${href}"`), href);
		}
	});

	it('indents sample XML one element per line, leaves on one line', () => {
		assert.equal(
			indentXml('<?xml version="1.0"?><a x="1"><b>t</b><c /><d><e>u</e></d></a>'),
			'<?xml version="1.0"?>\n<a x="1">\n  <b>t</b>\n  <c />\n  <d>\n    <e>u</e>\n  </d>\n</a>',
		);
	});
});
