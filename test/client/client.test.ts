import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import {
	AbortedError,
	DEFAULT_MAX_PAGES,
	HttpStatusError,
	InvalidArgumentError,
	MultipostingClient,
	MultipostingError,
	NetworkError,
	SoapFaultError,
	TimeoutError,
	UnexpectedResponseError,
	ValidationError,
	bodyExcerpt,
	methodName,
	type CallParams,
	type ClientOptions,
	type Exchange,
} from '../../src/client';
import { BINDING_NAMES, getBinding, type BindingName } from '../../src/protocol/bindings/index';
import {
	OPERATIONS,
	OPERATION_NAMES,
	VALUE_SETS,
	type AnyParams,
	type OperationName,
	type ResultOf,
	type ValueSet,
} from '../../src/protocol/catalogue';
import type { Fault } from '../../src/protocol/faults';
import {
	ScriptedServer,
	answerWithResult,
	contextFor,
	guardUnhandledRejections,
	sampleRecord,
	sampleResult,
} from './helpers';

const CREDENTIALS = { apiKey: 'API-KEY-1234', username: 'jane', password: 'hunter2', culture: 'en-GB' };

/** Parameters that pass validation, without the credential parameters (the client fills those). */
function paramsFor(operation: OperationName): AnyParams {
	const params: AnyParams = {};
	for (const param of OPERATIONS[operation].params) {
		if (param.role) {
			continue;
		}
		const set = param.valueSet === undefined ? undefined : (VALUE_SETS as Record<string, ValueSet>)[param.valueSet];
		if (param.type === 'int') {
			params[param.name] = 2;
		} else if (param.type === 'boolean') {
			params[param.name] = true;
		} else if (param.type === 'string[]') {
			params[param.name] = ['108', 'Totaljobs'];
		} else if (set?.closed && param.format === 'integer') {
			params[param.name] = set.values[0].value;
		} else if (param.format === 'integer' || param.format === 'id' || param.format === 'integerCsv') {
			params[param.name] = '12';
		} else if (param.format === 'decimal') {
			params[param.name] = '12.5';
		} else if (param.format === 'boolean') {
			params[param.name] = 'true';
		} else if (param.format === 'dateTime') {
			params[param.name] = '2024-05-06 07:08:09';
		} else if (param.format === 'currency') {
			params[param.name] = 'GBP';
		} else if (param.format === 'email') {
			params[param.name] = 'jane@example.com';
		} else if (param.format === 'url') {
			params[param.name] = 'https://example.com/apply?a=1&b=<2>';
		} else if (param.format === 'localPath') {
			params[param.name] = '/web/adverts';
		} else if (set?.closed) {
			params[param.name] = set.values[0].value;
		} else {
			params[param.name] = `${param.name} value & <more>`;
		}
	}
	return params;
}

/** What the client should hand to the binding: the parameters plus the filled credentials. */
function filledFor(operation: OperationName, params: AnyParams): AnyParams {
	const filled: AnyParams = { ...params };
	const byRole = {
		apiKey: CREDENTIALS.apiKey,
		username: CREDENTIALS.username,
		password: CREDENTIALS.password,
		culture: CREDENTIALS.culture,
	};
	for (const param of OPERATIONS[operation].params) {
		if (param.role && filled[param.name] === undefined) {
			filled[param.name] = byRole[param.role];
		}
	}
	return filled;
}

async function rejection(promise: Promise<unknown>): Promise<MultipostingError> {
	try {
		await promise;
	} catch (error) {
		assert.ok(error instanceof MultipostingError, `expected a MultipostingError, got ${String(error)}`);
		return error;
	}
	assert.fail('expected the call to fail');
}

/** Compile-time checks of the generated method types: tsc fails if an expected error disappears. Never called. */
export function compileTimeChecks(client: MultipostingClient): void {
	// @ts-expect-error CurrentPage and RowsPerPage are required.
	void client.getAdvertPaged({});
	// @ts-expect-error q is text.
	void client.queryJobTitle({ q: 5 });
	// @ts-expect-error sScoreAsJobOwner is a boolean.
	void client.applicationScore({ sScoreAsJobOwner: 'true' });
	// @ts-expect-error unknown parameter.
	void client.getCurrency({ sApiKey: 'typo' });
	// @ts-expect-error no such operation.
	void client.call('GetAdverts', {});
	// @ts-expect-error only paged operations can be paged.
	void client.pages('GetCurrency', {}, { rowsPerPage: 1 });
	// @ts-expect-error the pager sets CurrentPage.
	void client.items('GetApplicationsPaged', { CurrentPage: 2 }, { rowsPerPage: 1 });
}

describe('MultipostingClient', () => {
	guardUnhandledRejections();
	let server: ScriptedServer;
	let client: MultipostingClient;
	const exchanges: Exchange[] = [];

	function newClient(options: Partial<ClientOptions> = {}): MultipostingClient {
		return new MultipostingClient({
			baseUrl: server.baseUrl,
			credentials: CREDENTIALS,
			onExchange: (exchange) => exchanges.push(exchange),
			...options,
		});
	}

	beforeEach(async () => {
		server = await ScriptedServer.start();
		exchanges.length = 0;
		client = newClient();
	});

	afterEach(async () => {
		await client.close();
		await server.close();
	});

	describe('operations', () => {
		for (const binding of BINDING_NAMES) {
			it(`sends exactly what the ${binding} binding encodes and returns the decoded result, for all 20 operations`, async () => {
				for (const operation of OPERATION_NAMES) {
					const params = paramsFor(operation);
					const expected = getBinding(binding).encodeRequest(
						operation,
						filledFor(operation, params),
						contextFor(server.baseUrl, operation),
					);
					const result = sampleResult(operation);
					answerWithResult(server, binding, operation, result);
					server.requests.length = 0;

					const method = (client as unknown as Record<string, (p: AnyParams, o: object) => Promise<unknown>>)[
						methodName(operation)
					];
					const actual = await method.call(client, params, { binding });

					assert.equal(server.requests.length, 1, operation);
					const sent = server.requests[0];
					assert.equal(sent.method, expected.method, operation);
					assert.equal(sent.url, expected.path, operation);
					assert.deepEqual(new Uint8Array(sent.body), new Uint8Array(expected.body), operation);
					for (const [name, value] of Object.entries(expected.headers)) {
						assert.equal(sent.headers[name], value, `${operation} header ${name}`);
					}
					assert.deepEqual(actual, result, operation);
				}
			});
		}

		it('has a lowerCamelCase method for every operation', () => {
			for (const operation of OPERATION_NAMES) {
				assert.equal(
					typeof (client as unknown as Record<string, unknown>)[methodName(operation)],
					'function',
					operation,
				);
			}
			assert.equal(methodName('GetLoginURL'), 'getLoginURL');
		});

		it('types the methods with the catalogue and fills credentials the caller leaves out', async () => {
			const page = sampleRecord('AdvertPaged');
			answerWithResult(server, 'soap11', 'GetAdvertPaged', page);
			const params: CallParams<'GetAdvertPaged'> = { CurrentPage: 1, RowsPerPage: 10, sAdvertID: '5' };
			const result: ResultOf<'GetAdvertPaged'> = await client.getAdvertPaged(params);
			assert.deepEqual(result, page);
			const body = server.requests[0].body.toString('utf8');
			assert.match(body, /<sAPIKey>API-KEY-1234<\/sAPIKey>/);
			assert.match(body, /<sCultureID>en-GB<\/sCultureID>/);

			answerWithResult(server, 'httpGet', 'GetCurrency', []);
			const currencies = await client.getCurrency(undefined, { binding: 'httpGet' });
			assert.deepEqual(currencies, []);
			assert.match(server.requests[1].url, /sAPIKey=API-KEY-1234/);
		});

		it('lets a call override the credential parameters', async () => {
			answerWithResult(server, 'httpPost', 'GetCurrency', []);
			await client.call('GetCurrency', { sAPIKey: 'OTHER-KEY', sCultureID: 'fr' }, { binding: 'httpPost' });
			const form = new URLSearchParams(server.requests[0].body.toString('utf8'));
			assert.equal(form.get('sAPIKey'), 'OTHER-KEY');
			assert.equal(form.get('sCultureID'), 'fr');
		});

		it('keeps a path prefix of the base URL and uses configured paths and namespace', async () => {
			await client.close();
			client = newClient({
				baseUrl: `${server.baseUrl}/prefix/`,
				paths: { posting: '/soap/posting.asmx' },
				namespace: 'http://fixed.example/',
			});
			const encoded = getBinding('soap11').encodeResponse('GetCurrency', [], {
				namespace: 'http://fixed.example/',
				endpointPath: '/soap/posting.asmx',
			});
			server.answer(encoded.status, encoded.headers, encoded.body);
			await client.getCurrency();
			assert.equal(server.requests[0].url, '/prefix/soap/posting.asmx');
			assert.equal(server.requests[0].headers['soapaction'], '"http://fixed.example/GetCurrency"');
		});
	});

	describe('validation', () => {
		it('rejects QueryJobTitle with a one-character q without sending', async () => {
			const error = await rejection(client.queryJobTitle({ q: 'a' }));
			assert.ok(error instanceof ValidationError);
			assert.equal(error.code, 'MP_ERR_VALIDATION');
			assert.equal(error.param, 'q');
			assert.equal(server.requests.length, 0);
			assert.equal(exchanges.length, 0);
		});

		it('rejects GetApplicationsPaged without a search filter without sending', async () => {
			const error = await rejection(client.getApplicationsPaged({ CurrentPage: 1, RowsPerPage: 10 }));
			assert.ok(error instanceof ValidationError);
			assert.equal(error.issues[0].rule, 'anyOf');
			assert.match(error.message, /search filter/);
			assert.equal(server.requests.length, 0);
		});
	});

	describe('failures', () => {
		it('times out against a server that never answers', async () => {
			server.handler = () => undefined;
			const error = await rejection(client.getCurrency(undefined, { timeoutMs: 150 }));
			assert.ok(error instanceof TimeoutError);
			assert.equal(error.code, 'MP_ERR_TIMEOUT');
			assert.equal(error.timeoutMs, 150);
			assert.equal(exchanges.length, 1);
			assert.match(exchanges[0].error ?? '', /did not complete/);
		});

		it('times out when the body stalls after the headers', async () => {
			server.handler = (_request, response) => {
				response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': '100' });
				response.write('<?xml');
			};
			const error = await rejection(client.getCurrency(undefined, { timeoutMs: 500 }));
			assert.ok(error instanceof TimeoutError);
			assert.equal(error.exchange?.response?.status, 200);
		});

		it('does not send when the signal is already aborted', async () => {
			const controller = new AbortController();
			controller.abort();
			const error = await rejection(client.getCurrency(undefined, { signal: controller.signal }));
			assert.ok(error instanceof AbortedError);
			assert.equal(error.code, 'MP_ERR_ABORTED');
			assert.equal(server.requests.length, 0);
		});

		it('aborts a call in flight', async () => {
			const controller = new AbortController();
			server.handler = () => controller.abort();
			const error = await rejection(client.getCurrency(undefined, { signal: controller.signal }));
			assert.ok(error instanceof AbortedError);
			assert.equal(server.requests.length, 1);
		});

		it('aborts a call whose response has started and never ends', async () => {
			const controller = new AbortController();
			server.handler = (_request, response) => {
				response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': '1000' });
				response.write('<?xml version="1.0"?>', () => setImmediate(() => controller.abort()));
			};
			const error = await rejection(client.getCurrency(undefined, { signal: controller.signal }));
			assert.ok(error instanceof AbortedError);
			assert.equal(error.exchange?.operation, 'GetCurrency');
		});

		for (const binding of ['soap11', 'soap12'] as const) {
			it(`maps a ${binding} fault (HTTP 500) to SoapFaultError with the decoded fault`, async () => {
				const fault: Fault = {
					code: 'Client',
					subcode: 'AuthenticationFailed',
					message: 'The API key is not valid.',
					detail: 'Check sAPIKey.',
				};
				const encoded = getBinding(binding).encodeFault(fault, contextFor(server.baseUrl, 'GetCurrency'));
				server.answer(encoded.status, encoded.headers, encoded.body);
				const error = await rejection(client.getCurrency(undefined, { binding }));
				assert.ok(error instanceof SoapFaultError);
				assert.equal(error.code, 'MP_ERR_FAULT');
				assert.equal(error.status, 500);
				assert.deepEqual(error.fault, fault);
				assert.match(error.message, /The API key is not valid\. Check the parameters/);
				assert.equal(error.exchange?.response?.status, 500);
			});
		}

		for (const binding of ['httpGet', 'httpPost'] as const) {
			it(`maps a ${binding} HTTP 500 text/plain error to SoapFaultError`, async () => {
				server.answer(
					500,
					{ 'content-type': 'text/plain; charset=utf-8' },
					'System.ArgumentException: Invalid advert id.\r\n   at Service.Stack()',
				);
				const error = await rejection(client.getCurrency(undefined, { binding }));
				assert.ok(error instanceof SoapFaultError);
				assert.equal(error.fault.code, 'Server');
				assert.equal(error.fault.message, 'System.ArgumentException: Invalid advert id.');
			});
		}

		it('reports an HTML page with HTTP 200 as an unexpected response', async () => {
			const page = '<!DOCTYPE html><html><body><h1>Welcome to nginx</h1></body></html>';
			server.answer(200, { 'content-type': 'text/html' }, page);
			const error = await rejection(client.getCurrency());
			assert.ok(error instanceof UnexpectedResponseError);
			assert.equal(error.code, 'MP_ERR_UNEXPECTED_RESPONSE');
			assert.equal(error.reason, 'HTML_PAGE');
			assert.equal(Buffer.from(error.responseBody).toString('utf8'), page);
		});

		it('reports an HTML error page with HTTP 502 as an HTTP status error', async () => {
			server.answer(502, { 'content-type': 'text/html' }, '<html><body>Bad Gateway</body></html>');
			const error = await rejection(client.getCurrency());
			assert.ok(error instanceof HttpStatusError);
			assert.equal(error.code, 'MP_ERR_HTTP_STATUS');
			assert.equal(error.status, 502);
			assert.match(error.bodyExcerpt, /Bad Gateway/);
		});

		it('reports a text/plain 502 of a proxy as an HTTP status error, not a fault', async () => {
			server.answer(502, { 'content-type': 'text/plain' }, 'upstream unavailable');
			const error = await rejection(client.getCurrency(undefined, { binding: 'httpGet' }));
			assert.ok(error instanceof HttpStatusError);
		});

		it('reports a wrong root element as an unexpected response', async () => {
			answerWithResult(server, 'soap11', 'GetWeeksToAdvertise', []);
			const error = await rejection(client.getCurrency());
			assert.ok(error instanceof UnexpectedResponseError);
			assert.ok(error.responseBody.length > 0);
		});

		it('reports a body cut off by the server as a truncated response', async () => {
			server.handler = (_request, response) => {
				response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': '5000' });
				response.write('<?xml version="1.0"?><soap:Envelope', () => response.socket?.destroy());
			};
			const error = await rejection(client.getCurrency());
			assert.ok(error instanceof UnexpectedResponseError);
			assert.equal(error.reason, 'TRUNCATED');
			assert.equal(Buffer.from(error.responseBody).toString('utf8'), '<?xml version="1.0"?><soap:Envelope');
		});

		it('does not follow a redirect and names its Location', async () => {
			server.answer(302, { location: 'https://elsewhere.example/SOAP/Posting.asmx' }, '');
			const error = await rejection(client.getCurrency());
			assert.ok(error instanceof HttpStatusError);
			assert.equal(error.status, 302);
			assert.equal(error.location, 'https://elsewhere.example/SOAP/Posting.asmx');
			assert.match(error.message, /elsewhere\.example/);
			assert.equal(server.requests.length, 1);
		});

		for (const framing of ['content-length', 'chunked'] as const) {
			it(`rejects a response larger than maxResponseBytes (${framing})`, async () => {
				await client.close();
				client = newClient({ maxResponseBytes: 1024 });
				const body = Buffer.from(`<?xml version="1.0"?><x>${'a'.repeat(5000)}</x>`);
				server.handler = (_request, response) => {
					response.writeHead(
						200,
						framing === 'chunked'
							? { 'content-type': 'text/xml' }
							: { 'content-type': 'text/xml', 'content-length': String(body.length) },
					);
					if (framing === 'chunked') {
						response.write(body.subarray(0, 800));
						response.end(body.subarray(800));
					} else {
						response.end(body);
					}
				};
				const error = await rejection(client.getCurrency());
				assert.ok(error instanceof UnexpectedResponseError);
				assert.equal(error.reason, 'TOO_LARGE');
				assert.ok(error.responseBody.length <= 1024);
			});
		}

		it('reports a refused connection as a network error', async () => {
			const closed = http.createServer();
			await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
			const { port } = closed.address() as AddressInfo;
			await new Promise<void>((resolve) => closed.close(() => resolve()));
			await client.close();
			client = newClient({ baseUrl: `http://127.0.0.1:${port}` });
			const error = await rejection(client.getCurrency());
			assert.ok(error instanceof NetworkError);
			assert.equal(error.code, 'MP_ERR_NETWORK');
			assert.ok(error.cause instanceof Error);
			assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
			assert.equal(error.exchange?.response, undefined);
		});
	});

	describe('options', () => {
		it('validates options eagerly', () => {
			const base = { baseUrl: 'http://127.0.0.1:1', credentials: CREDENTIALS };
			assert.throws(() => new MultipostingClient({ ...base, baseUrl: 'not a url' }), InvalidArgumentError);
			assert.throws(() => new MultipostingClient({ ...base, baseUrl: 'ftp://host' }), InvalidArgumentError);
			assert.throws(
				() => new MultipostingClient({ ...base, binding: 'soap99' as BindingName }),
				InvalidArgumentError,
			);
			assert.throws(() => new MultipostingClient({ ...base, timeoutMs: -1 }), InvalidArgumentError);
			assert.throws(() => new MultipostingClient({ ...base, maxResponseBytes: 1.5 }), InvalidArgumentError);
			assert.throws(
				() => new MultipostingClient({ ...base, paths: { posting: 'no-slash' } }),
				InvalidArgumentError,
			);
			assert.throws(
				() => new MultipostingClient({ ...base, credentials: {} as typeof CREDENTIALS }),
				(error: unknown) => error instanceof InvalidArgumentError && error.code === 'MP_ERR_INVALID_ARGUMENT',
			);
		});

		it('uses a dispatcher given in the options and leaves it open on close()', async () => {
			const dispatcher = new Agent();
			try {
				const own = newClient({ dispatcher });
				answerWithResult(server, 'soap11', 'GetCurrency', []);
				assert.deepEqual(await own.getCurrency(), []);
				await own.close();
				assert.equal(dispatcher.closed, false);
			} finally {
				await dispatcher.close();
			}
		});

		it('refuses calls after close()', async () => {
			await client.close();
			await assert.rejects(client.getCurrency(), InvalidArgumentError);
		});
	});

	describe('paging', () => {
		/** Answers GetAdvertPaged pages of two adverts; PageCount as given per page. */
		function servePages(
			pageCount: (page: number) => number,
			itemsOn: (page: number) => number,
			idOf: (page: number, index: number) => number = (page, index) => page * 100 + index,
		): number[] {
			const requested: number[] = [];
			server.handler = (request, response) => {
				const page = Number(/<CurrentPage>(\d+)<\/CurrentPage>/.exec(request.body.toString('utf8'))?.[1]);
				requested.push(page);
				const adverts = Array.from({ length: itemsOn(page) }, (_, index) => ({ AdvertID: idOf(page, index) }));
				const encoded = getBinding('soap11').encodeResponse(
					'GetAdvertPaged',
					{ PageCount: pageCount(page), PageIndex: page, TotalItemCount: 6, Adverts: adverts },
					contextFor(server.baseUrl, 'GetAdvertPaged'),
				);
				response.writeHead(encoded.status, encoded.headers).end(Buffer.from(encoded.body));
			};
			return requested;
		}

		it('iterates the items of three pages', async () => {
			const requested = servePages(
				() => 3,
				() => 2,
			);
			const ids: number[] = [];
			for await (const advert of client.items('GetAdvertPaged', { sAdvertIdentifier: 'X' }, { rowsPerPage: 2 })) {
				ids.push(advert.AdvertID ?? -1);
			}
			assert.deepEqual(ids, [100, 101, 200, 201, 300, 301]);
			assert.deepEqual(requested, [1, 2, 3]);
			assert.match(server.requests[0].body.toString('utf8'), /<RowsPerPage>2<\/RowsPerPage>/);
		});

		it('yields whole pages from startPage', async () => {
			const requested = servePages(
				() => 3,
				() => 2,
			);
			const pages = [];
			for await (const page of client.pages('GetAdvertPaged', {}, { rowsPerPage: 2, startPage: 2 })) {
				pages.push(page.PageIndex);
			}
			assert.deepEqual(pages, [2, 3]);
			assert.deepEqual(requested, [2, 3]);
		});

		it('is bounded by the PageCount of the first page and stops at an empty page', async () => {
			const growing = servePages(
				(page) => page + 5,
				() => 1,
			);
			let count = 0;
			for await (const _advert of client.items('GetAdvertPaged', {}, { rowsPerPage: 1 })) {
				count += 1;
			}
			assert.equal(count, 6);
			assert.deepEqual(growing, [1, 2, 3, 4, 5, 6]);

			const emptyAfterTwo = servePages(
				() => 10,
				(page) => (page <= 2 ? 2 : 0),
			);
			let items = 0;
			for await (const _advert of client.items('GetAdvertPaged', {}, { rowsPerPage: 2 })) {
				items += 1;
			}
			assert.equal(items, 4);
			assert.deepEqual(emptyAfterTwo, [1, 2, 3]);
		});

		it('stops when a hostile service ignores CurrentPage and repeats a page', async () => {
			const requested = servePages(
				() => 2 ** 31 - 1,
				() => 2,
				(_page, index) => 7 + index,
			);
			const ids: number[] = [];
			for await (const advert of client.items('GetAdvertPaged', {}, { rowsPerPage: 2 })) {
				ids.push(advert.AdvertID ?? -1);
			}
			assert.deepEqual(ids, [7, 8], 'the repeated page is not yielded again');
			assert.deepEqual(requested, [1, 2]);
		});

		it('stops when a page repeats an earlier one, not only the one before', async () => {
			const requested = servePages(
				() => 1000,
				() => 1,
				(page) => (page <= 3 ? page : 1),
			);
			const pages = [];
			for await (const page of client.pages('GetAdvertPaged', {}, { rowsPerPage: 1 })) {
				pages.push(page.Adverts?.[0]?.AdvertID);
			}
			assert.deepEqual(pages, [1, 2, 3]);
			assert.deepEqual(requested, [1, 2, 3, 4]);
		});

		it('stops at an empty page whatever PageCount says', async () => {
			const requested = servePages(
				() => 2 ** 31 - 1,
				(page) => (page < 3 ? 1 : 0),
			);
			let pages = 0;
			for await (const _page of client.pages('GetAdvertPaged', {}, { rowsPerPage: 1 })) {
				pages += 1;
			}
			assert.equal(pages, 3, 'the empty page is yielded');
			assert.deepEqual(requested, [1, 2, 3]);
		});

		it('fetches at most maxPages pages of a hostile PageCount (default DEFAULT_MAX_PAGES)', async function () {
			this.timeout(120_000); // a thousand round trips on a loaded machine
			const requested = servePages(
				() => 2 ** 31 - 1,
				() => 1,
			);
			let items = 0;
			for await (const _advert of client.items(
				'GetAdvertPaged',
				{},
				{ rowsPerPage: 1, maxPages: 5, startPage: 3 },
			)) {
				items += 1;
			}
			assert.equal(items, 5);
			assert.deepEqual(requested, [3, 4, 5, 6, 7]);

			requested.length = 0;
			let pages = 0;
			for await (const _page of client.pages('GetAdvertPaged', {}, { rowsPerPage: 1 })) {
				pages += 1;
			}
			assert.equal(pages, DEFAULT_MAX_PAGES);
			assert.equal(requested.length, DEFAULT_MAX_PAGES);
		});

		it('rejects a bad maxPages before sending', async () => {
			const iterator = client.pages('GetAdvertPaged', {}, { rowsPerPage: 1, maxPages: 0 });
			await assert.rejects(iterator.next(), InvalidArgumentError);
			assert.equal(server.requests.length, 0);
		});

		it('rejects a bad page size before sending', async () => {
			const iterator = client.pages('GetAdvertPaged', {}, { rowsPerPage: 0 });
			await assert.rejects(iterator.next(), InvalidArgumentError);
			assert.equal(server.requests.length, 0);
		});
	});

	describe('exchanges and redaction', () => {
		const apiKey = 'k&y<1>"\'ü +/=%';
		const password = 'p@ss word&=<secret>';
		const forms = (secret: string): string[] => [
			secret,
			encodeURIComponent(secret),
			new URLSearchParams({ v: secret }).toString().slice(2),
			secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
			secret
				.replace(/&/g, '&amp;')
				.replace(/</g, '&lt;')
				.replace(/>/g, '&gt;')
				.replace(/"/g, '&quot;')
				.replace(/'/g, '&apos;'),
		];
		const texts = (exchange: Exchange): string[] => [
			exchange.request.url,
			JSON.stringify(exchange.request.headers),
			Buffer.from(exchange.request.body).toString('utf8'),
			JSON.stringify(exchange.response?.headers ?? {}),
			Buffer.from(exchange.response?.body ?? new Uint8Array()).toString('utf8'),
			exchange.error ?? '',
		];

		it('never gives onExchange the API key or password, in any binding, on success or failure', async () => {
			await client.close();
			client = newClient({ credentials: { apiKey, username: 'jane', password } });
			for (const binding of BINDING_NAMES) {
				// The service echoes the credentials back, as a careless error page might.
				const result = {
					UserID: 1,
					OrganisationID: 2,
					RedirectUrl: `https://x.example/?k=${encodeURIComponent(apiKey)}&p=${password}`,
					LoginSuccess: true,
					LoginMessage: `${apiKey} ${password}`,
				};
				answerWithResult(server, binding, 'GetLoginURL', result);
				const login = await client.getLoginURL({ returnUrl: '/home' }, { binding });
				assert.equal(login.LoginMessage, `${apiKey} ${password}`, 'the result itself is not redacted');

				const fault = { code: 'Client' as const, message: `Unknown key ${apiKey}` };
				const encodedFault = getBinding(binding).encodeFault(fault, contextFor(server.baseUrl, 'UserList'));
				server.answer(encodedFault.status, encodedFault.headers, encodedFault.body);
				const error = await rejection(client.userList({}, { binding }));
				assert.ok(error instanceof SoapFaultError);
				assert.ok(!error.message.includes(apiKey), 'fault message redacted');
			}
			assert.equal(exchanges.length, 8);
			for (const exchange of exchanges) {
				for (const text of texts(exchange)) {
					for (const form of [...forms(apiKey), ...forms(password)]) {
						assert.ok(
							!text.includes(form),
							`${exchange.binding} ${exchange.operation} shows a secret in ${text.slice(0, 200)}`,
						);
					}
				}
				assert.ok(texts(exchange).some((text) => text.includes('***')));
			}
			// What was sent really carried the credentials: only the log is redacted.
			assert.ok(server.requests.some((request) => request.body.toString('utf8').includes(forms(password)[3])));
		});

		it('redacts credentials passed as parameters and the Password field of users', async () => {
			answerWithResult(server, 'soap11', 'UserList', [{ UserID: 1, Username: 'bob', Password: 'bobs-password' }]);
			await client.userList({ sAPIKey: 'PER-CALL-KEY', sPassword: 'per-call-pass' });
			const all = texts(exchanges[0]).join('\n');
			for (const secret of ['PER-CALL-KEY', 'per-call-pass', 'bobs-password']) {
				assert.ok(!all.includes(secret), secret);
			}
			assert.ok(all.includes('bob'));
		});

		it('returns the exchange with the result, redacted unless asked otherwise', async () => {
			answerWithResult(server, 'httpPost', 'GetCurrency', [{ Value: 'GBP' }]);
			const { result, exchange } = await client.callWithExchange('GetCurrency', {}, { binding: 'httpPost' });
			// The writer follows ASMX: the int fields are always written (0 when the record has none).
			assert.deepEqual(result, [{ FieldID: 0, OrganisationID: 0, Value: 'GBP' }]);
			assert.equal(exchange.operation, 'GetCurrency');
			assert.equal(exchange.binding, 'httpPost');
			assert.equal(exchange.request.method, 'POST');
			assert.equal(exchange.request.url, `${server.baseUrl}/SOAP/Posting.asmx/GetCurrency`);
			assert.match(Buffer.from(exchange.request.body).toString('utf8'), /sAPIKey=\*\*\*/);
			assert.equal(exchange.response?.status, 200);
			assert.ok(exchange.timings.totalMs >= 0 && exchange.timings.startedAt > 0);
			assert.equal(typeof exchange.timings.headersMs, 'number');

			const raw = await client.callWithExchange('GetCurrency', {}, { binding: 'httpPost', redact: false });
			assert.deepEqual(new Uint8Array(raw.exchange.request.body), new Uint8Array(server.requests[1].body));
			assert.deepEqual(
				Buffer.from(raw.exchange.response?.body ?? [])
					.toString('utf8')
					.includes('GBP'),
				true,
			);
			assert.ok(
				!JSON.stringify(exchanges.map(texts)).includes(CREDENTIALS.apiKey),
				'onExchange still gets redacted exchanges',
			);
		});

		it('keeps secrets out of a large error body, its excerpt and its exchange, where the excerpt cuts too', async () => {
			const key = 'k&y<1>"\'ü +/=%';
			const pass = 'LongPasswordValue-123';
			const every = (secret: string): string[] => {
				const percent = encodeURIComponent(secret);
				const form = new URLSearchParams({ v: secret }).toString().slice(2);
				const lower = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
				const xml = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
				return [
					secret,
					percent,
					form,
					lower(percent),
					lower(form),
					form.replace(/\+/g, '%20'),
					xml,
					xml.replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
					xml.replace(/"/g, '&#34;').replace(/'/g, '&#39;'),
					xml.replace(/"/g, '&#x22;').replace(/'/g, '&#x27;'),
				];
			};
			const knownForms = [...every(key), ...every(pass)];
			const secretForms = [...knownForms, 'UNKNOWN-PASSWORD-VALUE', 'UNKNOWN-KEY-VALUE'];
			await client.close();
			client = newClient({ credentials: { apiKey: key, username: 'jane', password: pass } });
			const filler = 'lorem ipsum '.repeat(250_000);
			const cases: [string, string][] = [
				// A secret cut by the end of the excerpt.
				[`${'x'.repeat(495)}${pass} ${filler}`, `${'x'.repeat(495)}*** l`],
				[`${'x'.repeat(497)}${key}`, `${'x'.repeat(497)}***`],
				// Redaction shortens the text: the end of the decoded part falls inside the excerpt.
				[pass.repeat(200), ''],
				// The content of a credential element cut by the end of the excerpt.
				[`${'y'.repeat(400)}<sPassword>${'z'.repeat(5000)}</sPassword>`, `${'y'.repeat(400)}<sPassword>***`],
			];
			for (const [body, excerpt] of cases) {
				const tail = `${knownForms.join(' | ')} <PASSWORD>UNKNOWN-PASSWORD-VALUE</PASSWORD> x&SAPIKEY=UNKNOWN-KEY-VALUE`;
				server.answer(502, { 'content-type': 'text/plain; charset=utf-8' }, `${body} ${filler} ${tail}`);
				const error = await rejection(client.getCurrency());
				assert.ok(error instanceof HttpStatusError);
				if (excerpt) assert.equal(error.bodyExcerpt, excerpt);
				else assert.match(error.bodyExcerpt, /^(\*\*\*)+$/);
				const exposed = [
					error.message,
					error.bodyExcerpt,
					...texts(error.exchange!),
					...texts(exchanges[exchanges.length - 1]),
				];
				for (const text of exposed) {
					for (const form of secretForms) {
						assert.ok(!text.includes(form), `a secret (${form}) is shown in ${text.slice(0, 80)}…`);
					}
				}
				assert.ok(texts(error.exchange!)[4].length > 3_000_000, 'the body is kept whole, redacted');
			}
		});

		it('gives onExchange a copy the caller does not share', async () => {
			await client.close();
			const seen: Exchange[] = [];
			client = newClient({
				onExchange: (exchange) => {
					seen.push(exchange);
					exchange.response?.body.fill(0x21);
					exchange.request.body.fill(0x21);
				},
			});
			answerWithResult(server, 'soap11', 'GetCurrency', [{ Value: 'GBP' }]);
			const { exchange } = await client.callWithExchange('GetCurrency', {});
			assert.equal(seen.length, 1);
			assert.match(Buffer.from(exchange.response!.body).toString('utf8'), /GBP/);
			assert.match(Buffer.from(exchange.request.body).toString('utf8'), /GetCurrency/);
		});

		it('keeps secrets out of a large successful page, read whole or quoted by its beginning', async () => {
			await client.close();
			client = newClient({ credentials: { apiKey, username: 'jane', password } });
			// Secrets at the start, where the quoted beginning is cut (4,096 characters) and at the end.
			const padding = 'é'.repeat(100_000);
			const message = `${apiKey} ${'a'.repeat(3_000)}${password}${padding}${encodeURIComponent(apiKey)}`;
			const result = {
				UserID: 1,
				OrganisationID: 2,
				RedirectUrl: '/',
				LoginSuccess: true,
				LoginMessage: message,
			};
			answerWithResult(server, 'soap11', 'GetLoginURL', result);
			const login = await client.getLoginURL({ returnUrl: '/home' });
			assert.equal(login.LoginMessage, message, 'the result itself is not redacted');
			const exchange = exchanges[exchanges.length - 1];
			const quoted = bodyExcerpt(exchange.response!, 4096);
			assert.equal(quoted.text.length <= 4096, true);
			assert.ok(quoted.text.includes('<LoginMessage>***'), quoted.text.slice(0, 600));
			assert.ok(quoted.moreBytes > 100_000);
			for (const text of [quoted.text, bodyExcerpt(exchange.response!, 3_010).text, ...texts(exchange)]) {
				for (const form of [...forms(apiKey), ...forms(password)]) {
					assert.ok(!text.includes(form), `a secret (${form}) is shown in ${text.slice(0, 80)}…`);
				}
			}
			assert.ok(texts(exchange)[4].includes(padding), 'the body is kept whole, redacted');
		});

		it('gives onExchange a copy the caller does not share, also of a body redacted when first read', async () => {
			await client.close();
			client = newClient({
				onExchange: (exchange) => {
					exchange.response?.body.fill(0x21);
				},
			});
			const values = Array.from({ length: 5_000 }, (_, i) => ({ Value: `currency-${i}` }));
			answerWithResult(server, 'soap11', 'GetCurrency', values);
			const { result, exchange } = await client.callWithExchange('GetCurrency', {});
			assert.equal(result.length, 5_000);
			assert.ok(exchange.response!.body.length > 64 * 1024);
			assert.match(Buffer.from(exchange.response!.body).toString('utf8'), /currency-4999/);
		});

		it('skips the exchange when captureExchange is false and survives a throwing listener', async () => {
			answerWithResult(server, 'soap11', 'GetCurrency', []);
			await client.getCurrency(undefined, { captureExchange: false });
			assert.equal(exchanges.length, 0);

			await client.close();
			client = newClient({
				onExchange: () => {
					throw new Error('listener bug');
				},
			});
			assert.deepEqual(await client.getCurrency(), []);
		});
	});
});
