/**
 * Hostile XML against the emulator (raw HTTP) and against the client's decoders: entity expansion,
 * external entities, DOCTYPE, deep nesting, very many elements or attributes, long names and values,
 * bad encodings, mismatched SOAPAction and wrong content types. Each must be refused quickly with a
 * clear fault or typed error, with bounded memory, and without touching the disk or the network.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MultipostingClient, MultipostingError } from '../../src/client';
import type { RunningEmulator } from '../../src/emulator';
import { getBinding } from '../../src/protocol/bindings';
import { BINDING_NAMES, ProtocolError, type BindingName } from '../../src/protocol/bindings/types';
import { DEFAULT_ENDPOINT_PATHS } from '../../src/protocol/catalogue';
import {
	clientFor,
	envelope,
	loginXml,
	rawRequest,
	SANDBOX_START_TIMEOUT_MS,
	soap11Headers,
	SOAP11_NS,
	startSandbox,
	type RawResponse,
} from '../integration/support';

/** Every attack must be answered within this time. */
const QUICK_MS = 5_000;
const MEMORY_BOUND_BYTES = 200 * 1024 * 1024;

const tally = { tried: 0, refused: 0 };

/** A tiny server that records whether anything ever contacted it. */
class Canary {
	hits = 0;
	private constructor(
		private readonly server: http.Server,
		readonly url: string,
	) {}
	static async start(): Promise<Canary> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const canary = new Canary(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/canary.dtd`);
		server.on('request', (_req, res) => {
			canary.hits += 1;
			res.writeHead(200, { 'content-type': 'application/xml-dtd' }).end('<!ENTITY leak "CANARY-CONTENT">');
		});
		server.on('connection', () => {
			canary.hits += 1;
		});
		return canary;
	}
	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

const LAUGHS = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]>`;

describe('hardening: hostile XML', function () {
	this.timeout(60_000);
	let emulator: RunningEmulator;
	let canary: Canary;
	let rssBefore = 0;
	let peakRss = 0;

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		[emulator, canary] = await Promise.all([startSandbox(), Canary.start()]);
		rssBefore = process.memoryUsage().rss;
	});

	afterEach(() => {
		peakRss = Math.max(peakRss, process.memoryUsage().rss);
	});

	after(async () => {
		await emulator?.stop();
		await canary?.stop();
		console.log(`xml attacks: ${tally.tried} tried, ${tally.refused} refused`);
	});

	const postingUrl = (): string => emulator.postingUrl;

	/** Sends a SOAP 1.1 body to the posting endpoint. */
	const sendSoap = (
		body: string | Uint8Array,
		headers: Record<string, string> = soap11Headers(emulator.namespace, 'GetCurrency'),
	): Promise<RawResponse> => rawRequest(postingUrl(), { method: 'POST', headers, body, deadlineMs: QUICK_MS * 2 });

	/** Asserts a refusal: the status, a decodable Client fault (or plain text), quickly, with no leak. */
	const assertRefused = (
		response: RawResponse,
		statuses: number[],
		options: { subcode?: string; binding?: BindingName } = {},
	): void => {
		tally.tried += 1;
		assert.ok(
			statuses.includes(response.status),
			`status ${response.status} (expected ${statuses.join('/')}): ${response.body.slice(0, 300)}`,
		);
		assert.ok(response.ms < QUICK_MS, `answered in ${response.ms} ms`);
		assert.ok(!response.body.includes('root:x:0:0'), 'no file content in the answer');
		assert.ok(!response.body.includes('CANARY-CONTENT'), 'no fetched content in the answer');
		assert.ok(!response.body.includes('lollollol'), 'no expanded entity in the answer');
		assert.ok(!/\bat .+\.js:\d+/.test(response.body), 'no stack trace in the answer');
		const type = String(response.headers['content-type'] ?? '');
		if (/xml/.test(type)) {
			const decoded = getBinding(options.binding ?? 'soap11').decodeResponse(
				'GetCurrency',
				{
					status: response.status,
					headers: { 'content-type': type },
					body: new TextEncoder().encode(response.body),
				},
				{ namespace: emulator.namespace, endpointPath: DEFAULT_ENDPOINT_PATHS.posting },
			);
			assert.equal(decoded.ok, false, 'a fault, not a result');
			if (!decoded.ok) {
				assert.equal(decoded.fault.code, 'Client');
				if (options.subcode) assert.equal(decoded.fault.subcode, options.subcode);
			}
		} else {
			assert.match(type, /text\/plain/);
			assert.ok(response.body.length < 2_000, 'a short plain-text message');
		}
		tally.refused += 1;
	};

	describe('against the emulator', () => {
		it('refuses a billion-laughs entity expansion', async () => {
			const body = `<?xml version="1.0"?>${LAUGHS}${envelope('1.1', 'GetCurrency', emulator.namespace, '<sAPIKey>&lol9;</sAPIKey>', '')}`;
			assertRefused(await sendSoap(body), [400], { subcode: 'MalformedRequest' });
		});

		it('refuses an external entity pointing at /etc/passwd', async () => {
			const body = `<?xml version="1.0"?><!DOCTYPE e [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${envelope('1.1', 'GetCurrency', emulator.namespace, '<sAPIKey>&xxe;</sAPIKey>', '')}`;
			assertRefused(await sendSoap(body), [400], { subcode: 'MalformedRequest' });
		});

		it('refuses an external entity and an external DTD on a loopback URL without contacting it', async () => {
			const entity = `<?xml version="1.0"?><!DOCTYPE e [<!ENTITY xxe SYSTEM "${canary.url}">]>${envelope('1.1', 'GetCurrency', emulator.namespace, '<sAPIKey>&xxe;</sAPIKey>', '')}`;
			assertRefused(await sendSoap(entity), [400]);
			const dtd = `<?xml version="1.0"?><!DOCTYPE soap:Envelope SYSTEM "${canary.url}">${envelope('1.1', 'GetCurrency', emulator.namespace, '<sAPIKey>x</sAPIKey>', '')}`;
			assertRefused(await sendSoap(dtd), [400]);
			const parameterEntity = `<?xml version="1.0"?><!DOCTYPE e [<!ENTITY % remote SYSTEM "${canary.url}"> %remote;]>${envelope('1.1', 'GetCurrency', emulator.namespace, '', '')}`;
			assertRefused(await sendSoap(parameterEntity), [400]);
			assert.equal(canary.hits, 0, 'the canary was never contacted');
		});

		it('refuses a DOCTYPE even without entities, also inside the body', async () => {
			assertRefused(
				await sendSoap(
					`<?xml version="1.0"?><!DOCTYPE soap:Envelope>${envelope('1.1', 'GetCurrency', emulator.namespace, '', '')}`,
				),
				[400],
			);
			assertRefused(
				await sendSoap(envelope('1.1', 'GetCurrency', emulator.namespace, '<!DOCTYPE x><sAPIKey>x</sAPIKey>')),
				[400],
			);
		});

		it('refuses nesting 100,000 deep', async () => {
			const depth = 100_000;
			const inner = '<a>'.repeat(depth) + '</a>'.repeat(depth);
			assertRefused(await sendSoap(envelope('1.1', 'GetCurrency', emulator.namespace, inner)), [400], {
				subcode: 'MalformedRequest',
			});
		});

		it('survives 500,000 sibling elements and 100,000 attributes within the size limit', async () => {
			const many = envelope(
				'1.1',
				'GetCurrency',
				emulator.namespace,
				`<sAPIKey>wrong</sAPIKey>${'<x/>'.repeat(500_000)}`,
			);
			assertRefused(await sendSoap(many), [400, 413, 500]);
			const attributes = Array.from({ length: 100_000 }, (_, i) => `a${i}="1"`).join(' ');
			const manyAttributes = `<?xml version="1.0"?><soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><GetCurrency xmlns="${emulator.namespace}" ${attributes}><sAPIKey>wrong</sAPIKey></GetCurrency></soap:Body></soap:Envelope>`;
			assertRefused(await sendSoap(manyAttributes), [400, 413, 500]);
			const duplicateAttributes = `<?xml version="1.0"?><soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><GetCurrency xmlns="${emulator.namespace}" a="1" a="2"/></soap:Body></soap:Envelope>`;
			assertRefused(await sendSoap(duplicateAttributes), [400]);
		});

		it('refuses very long names and values without echoing them back', async () => {
			const longName = 'n'.repeat(1_000_000);
			assertRefused(
				await sendSoap(envelope('1.1', 'GetCurrency', emulator.namespace, `<${longName}>1</${longName}>`)),
				[400, 500],
			);
			const longValue = await sendSoap(
				envelope('1.1', 'GetCurrency', emulator.namespace, `<sAPIKey>${'k'.repeat(3_000_000)}</sAPIKey>`),
			);
			assertRefused(longValue, [400, 500]);
			assert.ok(longValue.body.length < 10_000, 'the long value is not echoed back');
			assertRefused(
				await sendSoap(
					envelope(
						'1.1',
						'GetCurrency',
						emulator.namespace,
						`<sAPIKey>${'k'.repeat(5 * 1024 * 1024)}</sAPIKey>`,
					),
				),
				[413],
				{ subcode: 'RequestTooLarge' },
			);
		});

		it('refuses invalid UTF-8 as malformed XML with HTTP 400, as documented for malformed requests', async () => {
			const broken = Buffer.concat([
				Buffer.from(
					envelope('1.1', 'GetCurrency', emulator.namespace, '<sAPIKey>').replace(
						'</GetCurrency></soap:Body></soap:Envelope>',
						'',
					),
				),
				Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
				Buffer.from('</sAPIKey></GetCurrency></soap:Body></soap:Envelope>'),
			]);
			assertRefused(await sendSoap(broken), [400], { subcode: 'MalformedRequest' });
		});

		it('decodes UTF-16 as ASMX reads it (charset, byte order mark, the XML declaration), refuses UTF-16 that declares UTF-8, accepts a UTF-8 BOM', async () => {
			const valid = Buffer.from(
				envelope('1.1', 'GetCurrency', emulator.namespace, `<sAPIKey>${emulator.demo.apiKey}</sAPIKey>`),
			);
			const utf16Text = valid.toString('utf8').replace('encoding="utf-8"', 'encoding="utf-16"');
			const headers = (contentType: string) => ({
				'content-type': contentType,
				soapaction: `"${emulator.namespace}GetCurrency"`,
			});
			// As ASMX: the declared charset (and a byte order mark) decides how the bytes are read.
			const declared = await sendSoap(
				Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16Text, 'utf16le')]),
				headers('text/xml; charset=utf-16'),
			);
			assert.equal(declared.status, 200, declared.body.slice(0, 300));
			assert.match(declared.body, /GBP/);
			// Neither a charset nor a byte order mark: the first bytes and the XML declaration say UTF-16.
			const undeclared = await sendSoap(Buffer.from(utf16Text, 'utf16le'), headers('text/xml'));
			assert.equal(undeclared.status, 200, undeclared.body.slice(0, 300));
			assert.match(undeclared.body, /GBP/);
			// 16-bit characters that declare UTF-8 are read neither way.
			assertRefused(await sendSoap(Buffer.from(valid.toString('utf8'), 'utf16le'), headers('text/xml')), [400], {
				subcode: 'MalformedRequest',
			});
			const withBom = await sendSoap(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), valid]));
			assert.equal(withBom.status, 200, withBom.body.slice(0, 300));
			assert.match(withBom.body, /GBP/);
		});

		it('refuses a SOAPAction naming another operation than the body, and other endpoint operations', async () => {
			const body = envelope(
				'1.1',
				'GetCurrency',
				emulator.namespace,
				`<sAPIKey>${emulator.demo.apiKey}</sAPIKey>`,
			);
			assertRefused(await sendSoap(body, soap11Headers(emulator.namespace, 'ApplicationScore')), [500]);
			const userList = envelope('1.1', 'UserList', emulator.namespace, loginXml());
			assertRefused(await sendSoap(userList, soap11Headers(emulator.namespace, 'UserList')), [500], {
				subcode: 'UnknownOperation',
			});
			assertRefused(
				await sendSoap(envelope('1.1', 'GetCurrency', 'http://evil.example/', '<sAPIKey>x</sAPIKey>')),
				[500],
			);
		});

		it('refuses wrong content types and SOAP versions', async () => {
			const body = envelope(
				'1.1',
				'GetCurrency',
				emulator.namespace,
				`<sAPIKey>${emulator.demo.apiKey}</sAPIKey>`,
			);
			assertRefused(await sendSoap(body, { 'content-type': 'application/json' }), [415]);
			assertRefused(await sendSoap(body, { 'content-type': 'text/html' }), [415]);
			assertRefused(
				await rawRequest(`${postingUrl()}/GetCurrency`, {
					method: 'POST',
					headers: { 'content-type': 'text/xml' },
					body: `sAPIKey=${emulator.demo.apiKey}`,
					deadlineMs: QUICK_MS,
				}),
				[415],
			);
			// A SOAP 1.2 envelope sent as SOAP 1.1 (text/xml) is a version mismatch, not a result.
			const soap12 = await sendSoap(
				envelope('1.2', 'GetCurrency', emulator.namespace, `<sAPIKey>${emulator.demo.apiKey}</sAPIKey>`),
			);
			tally.tried += 1;
			assert.ok([400, 500].includes(soap12.status), `status ${soap12.status}`);
			assert.doesNotMatch(soap12.body, /GBP/);
			tally.refused += 1;
		});

		it('answers a normal call after all of this, and memory stayed bounded', async () => {
			const client = clientFor(emulator);
			try {
				const currencies = await client.getCurrency();
				assert.ok(currencies.some((row) => row.Value === 'GBP'));
			} finally {
				await client.close();
			}
			assert.equal(canary.hits, 0);
			assert.ok(
				peakRss - rssBefore < MEMORY_BOUND_BYTES,
				`rss grew by ${Math.round((peakRss - rssBefore) / 1e6)} MB`,
			);
		});
	});

	describe("against the client's decoders", () => {
		const ctx = (): { namespace: string; endpointPath: string } => ({
			namespace: 'http://service.example/',
			endpointPath: DEFAULT_ENDPOINT_PATHS.posting,
		});
		const xmlTypes: Record<BindingName, string> = {
			soap11: 'text/xml; charset=utf-8',
			soap12: 'application/soap+xml; charset=utf-8',
			httpGet: 'text/xml; charset=utf-8',
			httpPost: 'text/xml; charset=utf-8',
		};
		const attacks = (): Record<string, string> => ({
			'billion laughs': `<?xml version="1.0"?>${LAUGHS}<ArrayOfGetValue xmlns="http://service.example/"><GetValue><Value>&lol9;</Value></GetValue></ArrayOfGetValue>`,
			'XXE /etc/passwd':
				'<?xml version="1.0"?><!DOCTYPE e [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><ArrayOfGetValue xmlns="http://service.example/"><GetValue><Value>&xxe;</Value></GetValue></ArrayOfGetValue>',
			'XXE loopback': `<?xml version="1.0"?><!DOCTYPE e [<!ENTITY xxe SYSTEM "${canary.url}">]><ArrayOfGetValue xmlns="http://service.example/"><GetValue><Value>&xxe;</Value></GetValue></ArrayOfGetValue>`,
			'deep nesting': `<ArrayOfGetValue xmlns="http://service.example/">${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</ArrayOfGetValue>`,
			'undefined entity':
				'<ArrayOfGetValue xmlns="http://service.example/"><GetValue><Value>&undefined;</Value></GetValue></ArrayOfGetValue>',
			'long name': `<${'n'.repeat(1_000_000)}/>`,
		});
		const wrap = (binding: BindingName, xml: string): string => {
			if (binding === 'httpGet' || binding === 'httpPost') return xml;
			const ns = binding === 'soap11' ? SOAP11_NS : 'http://www.w3.org/2003/05/soap-envelope';
			const [prolog, rest] = xml.startsWith('<?xml')
				? [xml.slice(0, xml.indexOf('?>') + 2), xml.slice(xml.indexOf('?>') + 2)]
				: ['', xml];
			const doctypeEnd = rest.startsWith('<!DOCTYPE') ? rest.indexOf(']>') + 2 : 0;
			return `${prolog}${rest.slice(0, doctypeEnd)}<s:Envelope xmlns:s="${ns}"><s:Body><GetCurrencyResponse xmlns="http://service.example/"><GetCurrencyResult>${rest.slice(doctypeEnd)}</GetCurrencyResult></GetCurrencyResponse></s:Body></s:Envelope>`;
		};

		for (const binding of BINDING_NAMES) {
			it(`${binding}: decodeResponse throws a ProtocolError quickly for each attack`, () => {
				for (const [name, xml] of Object.entries(attacks())) {
					tally.tried += 1;
					const started = Date.now();
					assert.throws(
						() =>
							getBinding(binding).decodeResponse(
								'GetCurrency',
								{
									status: 200,
									headers: { 'content-type': xmlTypes[binding] },
									body: new TextEncoder().encode(wrap(binding, xml)),
								},
								ctx(),
							),
						(error: unknown) => error instanceof ProtocolError,
						`${binding} ${name}`,
					);
					assert.ok(Date.now() - started < QUICK_MS, `${name} took ${Date.now() - started} ms`);
					tally.refused += 1;
				}
			});
		}

		it('the client turns each attack in a response into a typed error without contacting the canary', async () => {
			const server = http.createServer();
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
			let next = '';
			server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
				req.resume();
				req.on('end', () => res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(next));
			});
			const client = new MultipostingClient({
				baseUrl,
				namespace: 'http://service.example/',
				credentials: { apiKey: 'k' },
				timeoutMs: QUICK_MS,
			});
			try {
				for (const [name, xml] of Object.entries(attacks())) {
					next = wrap('soap11', xml);
					tally.tried += 1;
					await assert.rejects(
						client.getCurrency(),
						(error: unknown) =>
							error instanceof MultipostingError && error.code === 'MP_ERR_UNEXPECTED_RESPONSE',
						name,
					);
					tally.refused += 1;
				}
			} finally {
				await client.close();
				server.closeAllConnections();
				await new Promise<void>((resolve) => server.close(() => resolve()));
			}
			assert.equal(canary.hits, 0);
		});
	});
});
