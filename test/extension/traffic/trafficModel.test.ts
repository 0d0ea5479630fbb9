import * as assert from 'node:assert/strict';
import { runRequestEntries } from '../../../src/client/requestFileRunner';
import { SANDBOX_NAMESPACE } from '../../../src/emulator/endpoint';
import type { RunningEmulator } from '../../../src/emulator/server';
import {
	exchangeMarkdown,
	locatedProblems,
	parseFilter,
	playgroundFormOf,
	requestTestOf,
	rowMark,
	rowText,
	TrafficRows,
	upstreamAnswerText,
	verdictMarkdown,
	viewStatus,
} from '../../../src/extension/traffic/trafficModel';
import { curlForRaw } from '../../../src/extension/playground/snippets';
import { DEFAULT_ENDPOINT_PATHS } from '../../../src/protocol/catalogue';
import { appendRequestEntry, parseRequestFileEntries } from '../../../src/protocol/requestFile';
import { allFields, API_KEY, envelope, send } from '../../emulator/server/helpers';
import { listed, newest, startJournaled } from '../../emulator/journal/support';

describe('traffic view model', () => {
	let emulator: RunningEmulator;
	before(async () => {
		emulator = await startJournaled();
	});
	after(() => emulator.stop());

	async function soapCall(key: string): Promise<void> {
		await send(emulator.postingUrl, {
			method: 'POST',
			headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${SANDBOX_NAMESPACE}GetCurrency"` },
			body: envelope(
				'1.1',
				'GetCurrency',
				SANDBOX_NAMESPACE,
				`<sCultureID>en</sCultureID><sAPIKey>${key}</sAPIKey>`,
			),
		});
	}

	it('keeps rows newest first without repeats and filters them as typed', async () => {
		await soapCall(API_KEY);
		await send(`${emulator.postingUrl}/GetCurrency?${allFields('GetCurrency', { sAPIKey: 'wrong-key' })}`);
		const rows = new TrafficRows();
		assert.equal(rows.add(await listed(emulator)), true);
		assert.equal(rows.add(await listed(emulator)), false);
		assert.deepEqual(
			rows.list().map((row) => row.binding),
			['httpGet', 'soap11'],
		);
		assert.deepEqual(parseFilter('op:GetCurrency status:5xx  client:127 invalid key'), {
			operation: 'GetCurrency',
			status: '5xx',
			client: '127',
			text: 'invalid key',
		});
		assert.deepEqual(
			rows.list(parseFilter('status:5xx')).map((row) => row.binding),
			['httpGet'],
		);
		assert.equal(rows.list(parseFilter('op:AddAdvert')).length, 0);
	});

	it('says where to send a request while empty, and counts the exchanges beside its title', () => {
		const url = 'http://127.0.0.1:8099';
		const state = { following: url, paused: false, filter: '', shown: 0, total: 0, hidden: false };
		assert.deepEqual(viewStatus(state), {
			message: `No exchanges yet: send a request to ${url}`,
			description: undefined,
			title: 'Traffic',
		});
		assert.deepEqual(viewStatus({ ...state, shown: 1, total: 1 }), {
			message: `Following ${url}`,
			description: '1 exchange',
			title: 'Traffic',
		});
		assert.deepEqual(viewStatus({ ...state, paused: true, filter: 'status:5xx', shown: 2, total: 7 }), {
			message: `Following ${url} (paused) · filter: status:5xx`,
			description: '2 of 7 exchanges · paused',
			title: 'Traffic',
		});
		assert.deepEqual(viewStatus({ ...state, following: undefined }), {
			message: 'Start the sandbox or attach to a sandbox URL.',
			description: undefined,
			title: 'Traffic',
		});
		assert.equal(
			viewStatus({ ...state, problem: 'The sandbox did not answer.' }).message,
			'The sandbox did not answer. Retrying…',
		);
	});

	it("counts the exchanges in its title while collapsed (VS Code hides a collapsed view's description)", () => {
		const state = {
			following: 'http://127.0.0.1:8099',
			paused: false,
			filter: '',
			shown: 3,
			total: 3,
			hidden: true,
		};
		assert.equal(viewStatus(state).title, 'Traffic · 3 exchanges');
		assert.equal(viewStatus({ ...state, paused: true }).title, 'Traffic · 3 exchanges · paused');
		assert.equal(viewStatus({ ...state, shown: 0, total: 0 }).title, 'Traffic');
	});

	it('shows the verdict above the request and response, the XML indented, no credential', async () => {
		await send(`${emulator.postingUrl}/GetCurency?${allFields('GetCurrency', { sAPIKey: API_KEY })}`);
		const text = exchangeMarkdown(await newest(emulator));
		assert.ok(text.indexOf('## Verdict') < text.indexOf('## Request'));
		assert.ok(text.indexOf('## Request') < text.indexOf('## Response'));
		assert.match(text, /\| operation \| GetCurency \| GetCurrency \|/);
		assert.match(text, /sAPIKey=\{\{connection\.apiKey\}\}/);
		assert.ok(!text.includes(API_KEY));
	});

	it('writes service text literally: element names, markup and table bars survive the preview', () => {
		const text = verdictMarkdown({
			summary: 'Production accepts this request but ignores part of it.',
			production: ['production would refuse this request: <sAPIKey> is not in the service namespace'],
			ruleIssues: ['*q* must be [3] characters & more'],
			nearMisses: [
				{
					kind: 'namespace',
					sent: '',
					closest: ['http://sandbox.multiposting.test/'],
					differs: 'a|b is unqualified',
					fix: 'write <m:GetCurrency xmlns:m="http://sandbox.multiposting.test/">',
					line: 5,
				},
			],
		});
		assert.match(text, /refuse this request: \\<sAPIKey\\> is not/);
		assert.match(text, /\\\*q\\\* must be \\\[3\\\] characters \\& more/);
		assert.match(
			text,
			/\| a\\\|b is unqualified \| write \\<m:GetCurrency xmlns:m="http:\/\/sandbox\.multiposting\.test\/"\\> \|/,
		);
		// Nothing left that Markdown takes for an HTML tag.
		assert.doesNotMatch(text, /(^|[^\\])</m);
	});

	it('labels a row that reached no operation by the last two segments of its path', async () => {
		await send(`${emulator.postingUrl}/GetCurency?${allFields('GetCurrency', { sAPIKey: API_KEY })}`);
		const { label, tooltip } = rowText(await newest(emulator));
		assert.match(label, /^\d\d:\d\d:\d\d GET …\/Posting\.asmx\/GetCurency$/);
		assert.match(tooltip, /^GET \/SOAP\/Posting\.asmx\/GetCurency → 500/);
	});

	it("reads a proxied exchange's answer with the catalogue, on either endpoint, as a result, a fault or what does not decode", async () => {
		const proxied = async () => ({ ...(await newest(emulator)), upstream: 'https://live.example.com' });
		await send(`${emulator.postingUrl}/GetCurrency?${allFields('GetCurrency', { sAPIKey: API_KEY })}`);
		const currency = await proxied();
		assert.match(
			upstreamAnswerText(currency, SANDBOX_NAMESPACE) ?? '',
			/^a result of GetCurrency: [1-9]\d* record\(s\)$/,
		);
		await send(
			`${emulator.adminUrl}/GetWeeksToAdvertise?${allFields('GetWeeksToAdvertise', { sAPIKey: API_KEY })}`,
		);
		assert.match(
			upstreamAnswerText(await proxied(), SANDBOX_NAMESPACE) ?? '',
			/^a result of GetWeeksToAdvertise: [1-9]\d* record\(s\)$/,
		);
		await soapCall('wrong-key');
		assert.match(upstreamAnswerText(await proxied(), SANDBOX_NAMESPACE) ?? '', /^a fault Client\/\w+: ".+"$/);
		const page = {
			...currency,
			response: { ...currency.response, body: { ...currency.response.body, text: '<html>Gateway</html>' } },
		};
		assert.match(
			upstreamAnswerText(page, SANDBOX_NAMESPACE) ?? '',
			/^an answer that does not decode as GetCurrency's \(.+\)$/,
		);
		// Nothing to read: the sandbox's own answer, the proxy's own 502, an answer cut at the cap.
		assert.equal(upstreamAnswerText({ ...currency, upstream: undefined }, SANDBOX_NAMESPACE), undefined);
		assert.equal(
			upstreamAnswerText(
				{ ...currency, proxyError: { kind: 'timeout', message: 'no answer' } },
				SANDBOX_NAMESPACE,
			),
			undefined,
		);
		const cut = {
			...currency,
			response: {
				...currency.response,
				body: { ...currency.response.body, truncated: { headChars: 10, tailChars: 10, omittedChars: 5 } },
			},
		};
		assert.equal(upstreamAnswerText(cut, SANDBOX_NAMESPACE), undefined);
	});

	it('locates the problems of an unqualified parameter at its line, and marks the row once judged', async () => {
		const body = [
			'<?xml version="1.0" encoding="utf-8"?>',
			'<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">',
			'  <soap:Body>',
			`    <m:GetCurrency xmlns:m="${SANDBOX_NAMESPACE}">`,
			'      <sCultureID>en</sCultureID>',
			`      <m:sAPIKey>${API_KEY}</m:sAPIKey>`,
			'    </m:GetCurrency>',
			'  </soap:Body>',
			'</soap:Envelope>',
		].join('\n');
		await send(emulator.postingUrl, {
			method: 'POST',
			headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${SANDBOX_NAMESPACE}GetCurrency"` },
			body,
		});
		const entry = await newest(emulator);
		const problems = locatedProblems(entry);
		assert.ok(problems.length > 0, JSON.stringify(entry.verdict));
		assert.deepEqual(
			problems.map((problem) => problem.line),
			problems.map(() => 5),
		);
		assert.ok(problems.some((problem) => /sCultureID/.test(problem.message)));
		assert.equal(rowMark(entry), entry.leniencies?.length ? 'production' : 'ok');
		assert.equal(rowMark(entry, entry.verdict), 'production');
	});

	it('says when a failure scenario injected what the client got', async () => {
		await send(`${emulator.postingUrl}/GetCurrency?${allFields('GetCurrency', { sAPIKey: API_KEY })}`);
		const entry = { ...(await newest(emulator)), injected: 'slow-board/1: delayed 2000 ms' };
		assert.match(
			exchangeMarkdown(entry),
			/Injected on purpose by a failure scenario \(not a sandbox bug\): slow-board\/1: delayed 2000 ms/,
		);
		assert.match(rowText(entry).tooltip, /failure scenario \(not a sandbox bug\): slow-board\/1/);
	});

	it("copies an exchange as curl with the playground's shell variables for credentials", async () => {
		await soapCall(API_KEY);
		const draft = playgroundFormOf(await newest(emulator)).raw;
		const curl = curlForRaw(
			draft,
			{ baseUrl: emulator.baseUrl, namespace: emulator.namespace, paths: DEFAULT_ENDPOINT_PATHS },
			{},
		);
		assert.match(curl, /<sAPIKey>'"\$MP_API_KEY"'<\/sAPIKey>/);
		assert.match(curl, /-H 'SOAPAction: "http:\/\/sandbox\.multiposting\.test\/GetCurrency"'/);
		assert.ok(!curl.includes(API_KEY));
	});

	it('saves exchanges as request tests that the runner passes: a success, a fault and a 404', async () => {
		await soapCall(API_KEY);
		const success = await newest(emulator);
		// Credentials are replayed as the connection's, so the fault must come from something else.
		await send(emulator.postingUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/soap+xml; charset=utf-8' },
			body: envelope('1.2', 'QueryJobTitle', SANDBOX_NAMESPACE, `<sAPIKey>${API_KEY}</sAPIKey><q>a</q>`),
		});
		const fault = await newest(emulator);
		assert.equal(fault.fault?.subcode, 'InvalidParameter');
		await send(`${emulator.baseUrl}/SOAP/Postng.asmx/GetCurrency`);
		const notFound = await newest(emulator);
		let file = '';
		for (const entry of [success, fault, notFound]) file = appendRequestEntry(file, requestTestOf(entry));
		assert.match(file, /expect: status == 200\nexpect: no fault/);
		assert.match(file, /expect: status == 500\nexpect: fault InvalidParameter/);
		assert.ok(!file.includes(API_KEY));
		const { entries } = parseRequestFileEntries(file);
		assert.deepEqual(
			entries.map((entry) => entry.expectations.length),
			[2, 2, 1],
		);
		const results = await runRequestEntries(entries, {
			target: { baseUrl: emulator.baseUrl, namespace: emulator.namespace, paths: DEFAULT_ENDPOINT_PATHS },
			connection: { apiKey: API_KEY },
		});
		assert.deepEqual(
			results.map((result) => [result.status, result.problems, result.outcomes.filter((o) => !o.passed)]),
			[
				['passed', [], []],
				['passed', [], []],
				['passed', [], []],
			],
		);
	});
});
