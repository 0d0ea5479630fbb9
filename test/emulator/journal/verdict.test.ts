import * as assert from 'node:assert/strict';
import { SANDBOX_NAMESPACE } from '../../../src/emulator/endpoint';
import type { RunningEmulator } from '../../../src/emulator/server';
import { allFields, API_KEY, envelope, send } from '../server/helpers';
import { newest, startJournaled } from './support';

const NS = SANDBOX_NAMESPACE;

function soap11(emulator: RunningEmulator, body: string, action?: string): Promise<unknown> {
	const headers: Record<string, string> = { 'content-type': 'text/xml; charset=utf-8' };
	if (action !== undefined) headers.soapaction = `"${action}"`;
	return send(emulator.postingUrl, { method: 'POST', headers, body });
}

describe('journal: verdict and near misses', function () {
	this.timeout(20_000); // the first WSDL check loads libxml2
	let emulator: RunningEmulator;
	let loose: RunningEmulator;
	before(async () => {
		emulator = await startJournaled();
		loose = await startJournaled({ loose: true });
	});
	after(async () => {
		await emulator.stop();
		await loose.stop();
	});

	it('finds nothing to say about a valid request', async () => {
		await soap11(
			emulator,
			envelope('1.1', 'GetCurrency', NS, `<sCultureID>en</sCultureID><sAPIKey>${API_KEY}</sAPIKey>`),
		);
		const { verdict } = await newest(emulator);
		assert.equal(verdict.summary, 'Production accepts this request as it is.');
		assert.deepEqual(verdict.nearMisses, []);
		assert.deepEqual(verdict.wsdl?.problems, []);
		assert.equal(verdict.wsdl?.valid, true);
	});

	it('names the operation a misspelt GET path meant', async () => {
		await send(`${emulator.postingUrl}/GetCurency?${allFields('GetCurrency', { sAPIKey: API_KEY })}`);
		const { verdict } = await newest(emulator);
		assert.match(verdict.summary, /Unknown operation GetCurency/);
		const [miss] = verdict.nearMisses;
		assert.equal(miss.kind, 'operation');
		assert.equal(miss.closest[0], 'GetCurrency');
		assert.equal(miss.fix, 'name the operation GetCurrency');
		assert.equal(miss.differs, '"GetCurency" instead of "GetCurrency"');
	});

	it('names the operation a misspelt SOAP body element meant, at its line', async () => {
		await soap11(
			emulator,
			envelope('1.1', 'getcurrency', NS, `<sAPIKey>${API_KEY}</sAPIKey>`).replace(
				'<soap:Body>',
				'\n<soap:Body>\n',
			),
		);
		const { verdict } = await newest(emulator);
		const miss = verdict.nearMisses.find((m) => m.kind === 'operation');
		assert.equal(miss?.closest[0], 'GetCurrency');
		assert.match(miss!.differs, /letter case only/);
		assert.equal(miss?.line, 3);
	});

	it('points an operation sent to the wrong endpoint at the right one', async () => {
		await send(`${emulator.postingUrl}/UserList?${allFields('UserList', { sAPIKey: API_KEY })}`);
		const { verdict } = await newest(emulator);
		const [miss] = verdict.nearMisses;
		assert.equal(miss.kind, 'endpoint');
		assert.equal(miss.fix, 'send it to /SOAP/Administration.asmx');
	});

	it('names the namespace a body element in the wrong namespace must use', async () => {
		const wrong = NS.replace(/\/$/, '');
		await soap11(emulator, envelope('1.1', 'GetCurrency', wrong, `<sAPIKey>${API_KEY}</sAPIKey>`));
		const { verdict } = await newest(emulator);
		assert.match(verdict.refusal!.fault.message, /this service expects/);
		const miss = verdict.nearMisses.find((m) => m.kind === 'namespace');
		assert.equal(miss?.sent, wrong);
		assert.equal(miss?.closest[0], NS);
		assert.match(miss!.differs, /lacks the trailing "\/"/);
		assert.equal(miss?.fix, `write <GetCurrency xmlns="${NS}">`);
	});

	it('says production ignores an unqualified parameter (an ignored key is a missing one), where it is, how to qualify it, and what the WSDL says', async () => {
		const body =
			`<?xml version="1.0"?>\n<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\n<soap:Body>\n` +
			`<m:GetCurrency xmlns:m="${NS}">\n<m:sCultureID>en</m:sCultureID>\n<sAPIKey>${API_KEY}</sAPIKey>\n</m:GetCurrency>\n</soap:Body>\n</soap:Envelope>`;
		await soap11(emulator, body);
		const { verdict } = await newest(emulator);
		// Strict: the key is ignored, so production finds no key: the API key is checked first.
		assert.equal(
			verdict.summary,
			'Production refuses this request: HTTP 500, sAPIKey is missing. Give the API key of your connection.',
		);
		assert.equal(verdict.refusal?.fault.subcode, 'AuthenticationFailed');
		assert.deepEqual(verdict.production, [
			`production would refuse this request: <sAPIKey> is not in the service namespace "${NS}" (it has no namespace); production ignores it`,
		]);
		const miss = verdict.nearMisses.find((m) => m.kind === 'namespace');
		assert.equal(miss?.line, 6);
		assert.match(miss!.differs, /unqualified \(no namespace\)/);
		assert.match(miss!.fix, new RegExp(`qualify it: <sAPIKey xmlns="${NS}">`));
		assert.equal(verdict.wsdl?.valid, false);
		assert.ok(
			verdict.wsdl!.problems.some((p) => p.line === 6 && /sAPIKey/.test(p.message)),
			JSON.stringify(verdict.wsdl),
		);
	});

	it("tells a loose sandbox's leniency as what production refuses", async () => {
		await send(`${loose.postingUrl}/GetCurrency?sAPIKey=${API_KEY}`);
		const entry = await newest(loose);
		assert.equal(entry.status, 200);
		assert.deepEqual(entry.leniencies, ['missing parameter sCultureID']);
		assert.equal(
			entry.verdict.refusal?.fault.message,
			'System.InvalidOperationException: Missing parameter: sCultureID.',
		);
		assert.deepEqual(entry.verdict.production, [
			'production would refuse this request: missing parameter sCultureID',
		]);
	});

	it('names a missing GET parameter and the misspelt field that was meant', async () => {
		await send(`${emulator.postingUrl}/GetCurrency?sCultureID=en&sApiKey=${API_KEY}`);
		const { verdict } = await newest(emulator);
		assert.equal(verdict.refusal?.fault.message, 'System.InvalidOperationException: Missing parameter: sAPIKey.');
		const [miss] = verdict.nearMisses;
		assert.equal(miss.kind, 'parameter');
		assert.equal(miss.sent, 'sApiKey');
		assert.equal(miss.fix, 'rename the field sApiKey to sAPIKey');
		assert.match(miss.differs, /letter case only \(field names are case-sensitive\)/);
		assert.equal(verdict.wsdl?.valid, false);
	});

	it('names a missing GET parameter that was left out altogether', async () => {
		await send(`${emulator.postingUrl}/GetCurrency?sAPIKey=${API_KEY}`);
		const { verdict } = await newest(emulator);
		const [miss] = verdict.nearMisses;
		assert.equal(miss.closest[0], 'sCultureID');
		assert.match(miss.fix, /^add sCultureID= to the query/);
	});

	it('names a SOAPAction that does not match the body', async () => {
		await soap11(
			emulator,
			envelope('1.1', 'GetCurrency', NS, `<sCultureID>en</sCultureID><sAPIKey>${API_KEY}</sAPIKey>`),
			`${NS}GetCurrencies`,
		);
		const { verdict } = await newest(emulator);
		const miss = verdict.nearMisses.find((m) => m.kind === 'soapAction');
		assert.equal(miss?.fix, `send the header SOAPAction: "${NS}GetCurrency"`);
	});

	it('names the endpoint a misspelt path meant', async () => {
		await send(`${emulator.baseUrl}/SOAP/Postng.asmx/GetCurrency?${allFields('GetCurrency')}`);
		const { verdict } = await newest(emulator);
		assert.equal(verdict.refusal?.status, 404);
		assert.equal(verdict.nearMisses[0].kind, 'path');
		assert.equal(verdict.nearMisses[0].closest[0], '/SOAP/Posting.asmx/GetCurrency');
	});
});
