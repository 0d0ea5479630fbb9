import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { route } from '../../../src/emulator/pipeline/dispatch';
import { getBinding } from '../../../src/protocol/bindings';
import type { BindingName, EncodedRequest } from '../../../src/protocol/bindings/types';
import { OPERATIONS, type AnyParams, type Endpoint, type OperationName } from '../../../src/protocol/catalogue';
import {
	bindingFamily,
	describeParamDifference,
	meaningKey,
	meaningOf,
	paramDifferences,
	type RequestMeaning,
} from '../../../src/protocol/recordings/meaning';

const NAMESPACE = 'https://api.example.test/';
const PATHS: Record<Endpoint, string> = { posting: '/SOAP/Posting.asmx', administration: '/SOAP/Administration.asmx' };
const OPERATION = 'GetAdvertPaged';

/** Encodes a call with one binding's codec. */
function encoded(binding: BindingName, operation: OperationName, params: AnyParams): EncodedRequest {
	return getBinding(binding).encodeRequest(operation, params, {
		namespace: NAMESPACE,
		endpointPath: PATHS[OPERATIONS[operation].endpoint],
	});
}

/** What a request means, read as replay reads it: routed by its path and content type, decoded loosely. */
function meaningOfRequest(request: EncodedRequest): RequestMeaning {
	const [path, query = ''] = request.path.split('?');
	const found = route(request.method, { path, query }, request.headers['content-type'], PATHS);
	assert.equal(found.kind, 'call');
	if (found.kind !== 'call') throw new Error('not a call');
	const decoded = getBinding(found.binding).decodeRequest(
		{
			method: request.method,
			subPath: found.subPath,
			query: found.query,
			headers: request.headers,
			body: request.body,
		},
		{ namespace: NAMESPACE, endpointPath: PATHS[found.endpoint] },
		{ loose: true },
	);
	return meaningOf(decoded.operation, found.endpoint, found.binding, decoded.params);
}

const keyOf = (request: EncodedRequest): string => meaningKey(meaningOfRequest(request));

/** Text without leading or trailing spaces, with characters every encoding escapes. */
const text = fc.stringMatching(/^[A-Za-z0-9&<>'"%+=#é][A-Za-z0-9 &<>'"%+=#é._/-]{0,14}[A-Za-z0-9&<>'"%+é]$/);
const apiKey = fc.stringMatching(/^[A-Za-z0-9-]{6,24}$/);

interface Call {
	[name: string]: string | number | undefined;
	sCultureID: string;
	CurrentPage: number;
	RowsPerPage: number;
}

/** Parameters of GetAdvertPaged: the paging always, any of the others now and then. */
const call: fc.Arbitrary<Call> = fc.record(
	{
		sCultureID: fc.constantFrom('en-GB', 'fr-FR', 'de-DE'),
		sUsername: text,
		sAdvertIdentifier: text,
		sAdvertReference: text,
		sAdvertID: fc.integer({ min: 1, max: 1_000_000 }).map(String),
		sSearchDays: fc.integer({ min: 0, max: 365 }).map(String),
		sAdvertStatusIDs: fc
			.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 4 })
			.map((ids) => ids.join(',')),
		sHideFutureJobs: fc.constantFrom('true', 'false'),
		sLastScoreDate: fc.constantFrom('2026-01-02T03:04:05Z', '2025-12-31T23:59:59Z'),
		OrderBy: fc.constantFrom('Title', 'DateCreated desc'),
		CurrentPage: fc.integer({ min: 1, max: 50 }),
		RowsPerPage: fc.integer({ min: 1, max: 500 }),
	},
	{ requiredKeys: ['sCultureID', 'CurrentPage', 'RowsPerPage'] },
);

/** The same SOAP request written otherwise: envelope prefix, prefixed payload, whitespace, declarations, key. */
interface SoapRewrite {
	prefix: string;
	prefixedPayload: boolean;
	indent: string;
	declaration: boolean;
	schemaNamespaces: boolean;
	apiKey: string;
}

const soapRewrite: fc.Arbitrary<SoapRewrite> = fc.record({
	prefix: fc.constantFrom('s', 'env', 'SOAP-ENV', 'x1'),
	prefixedPayload: fc.boolean(),
	indent: fc.constantFrom('\n', '\n  ', '\r\n\t', ' '),
	declaration: fc.boolean(),
	schemaNamespaces: fc.boolean(),
	apiKey,
});

function rewrittenSoap(request: EncodedRequest, rewrite: SoapRewrite): EncodedRequest {
	let body = Buffer.from(request.body).toString('utf8');
	body = body.replace(/<sAPIKey>[^<]*<\/sAPIKey>/, `<sAPIKey>${rewrite.apiKey}</sAPIKey>`);
	if (rewrite.prefixedPayload) {
		// Every element of the payload (the names without a prefix) in a prefixed namespace instead of the default one.
		body = body
			.replace(/<(\/?)([A-Za-z][\w]*)(?=[\s/>])/g, '<$1m:$2')
			.replace(`xmlns="${NAMESPACE}"`, `xmlns:m="${NAMESPACE}"`);
	}
	body = body
		.replace(/<(\/?)(?:soap12|soap):/g, `<$1${rewrite.prefix}:`)
		.replace(/xmlns:(?:soap12|soap)=/, `xmlns:${rewrite.prefix}=`);
	if (!rewrite.schemaNamespaces) {
		body = body.replace(/ xmlns:xsi="[^"]*"/, '').replace(/ xmlns:xsd="[^"]*"/, '');
	}
	if (!rewrite.declaration) body = body.replace(/^<\?xml[^>]*\?>/, '');
	// Whitespace between elements only: before an opening tag, and between two closing tags.
	body = body.replace(/>(?=<[A-Za-z])/g, `>${rewrite.indent}`).replace(/(<\/[^>]+>)(?=<\/)/g, `$1${rewrite.indent}`);
	return { ...request, body: Buffer.from(body, 'utf8') };
}

/** The same GET/POST request written otherwise: fields in another order, empty ones dropped, encoded otherwise, as GET or POST. */
interface HttpRewrite {
	order: number[];
	dropEmpty: boolean;
	plusForSpace: boolean;
	lowerHex: boolean;
	asPost: boolean;
	apiKey: string;
}

const httpRewrite: fc.Arbitrary<HttpRewrite> = fc.record({
	order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 32, maxLength: 32 }),
	dropEmpty: fc.boolean(),
	plusForSpace: fc.boolean(),
	lowerHex: fc.boolean(),
	asPost: fc.boolean(),
	apiKey,
});

function rewrittenHttp(request: EncodedRequest, rewrite: HttpRewrite): EncodedRequest {
	const [path, query = ''] = request.path.split('?');
	const fields = [...new URLSearchParams(request.method === 'GET' ? query : Buffer.from(request.body).toString())];
	const kept = fields
		.map(([name, value]) => [name, name === 'sAPIKey' ? rewrite.apiKey : value] as const)
		.filter(([, value]) => !rewrite.dropEmpty || value !== '')
		.map((field, index) => ({ field, rank: rewrite.order[index % rewrite.order.length] }))
		.sort((a, b) => a.rank - b.rank)
		.map(({ field }) => field);
	const encode = (value: string): string => {
		let out = encodeURIComponent(value);
		if (rewrite.plusForSpace) out = out.replace(/%20/g, '+');
		if (rewrite.lowerHex) out = out.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
		return out;
	};
	const written = kept.map(([name, value]) => `${name}=${encode(value)}`).join('&');
	return rewrite.asPost
		? {
				method: 'POST',
				path,
				headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
				body: Buffer.from(written, 'utf8'),
			}
		: { method: 'GET', path: `${path}?${written}`, headers: {}, body: new Uint8Array() };
}

/** The call with one parameter changed: another value, or a value where none was given. */
function changedOne(params: Call, name: string): Call {
	const value = params[name];
	const changed: Call = { ...params };
	if (name === 'CurrentPage' || name === 'RowsPerPage') changed[name] = (value as number) + 1;
	else if (name === 'sCultureID') changed[name] = value === 'en-GB' ? 'fr-FR' : 'en-GB';
	else if (name === 'sAdvertID' || name === 'sSearchDays') changed[name] = String(Number(value ?? 0) + 1);
	else if (name === 'sHideFutureJobs') changed[name] = value === 'true' ? 'false' : 'true';
	else if (name === 'sAdvertStatusIDs') changed[name] = value === undefined ? '1' : `${value},9`;
	else changed[name] = value === undefined ? 'given' : `${value}x`;
	return changed;
}

const CHANGEABLE = OPERATIONS[OPERATION].params.map((spec) => spec.name).filter((name) => name !== 'sAPIKey');
const withKey = (params: Call, key: string): AnyParams => ({ ...params, sAPIKey: key }) as AnyParams;

describe('the meaning of a request', () => {
	describe('property: the same request written otherwise means the same', () => {
		for (const binding of ['soap11', 'soap12'] as const) {
			it(`${binding}: other envelope prefixes, whitespace, payload prefix and credentials`, () => {
				fc.assert(
					fc.property(call, apiKey, soapRewrite, (params, key, rewrite) => {
						const original = encoded(binding, OPERATION, withKey(params, key));
						const rewritten = rewrittenSoap(original, rewrite);
						assert.equal(keyOf(rewritten), keyOf(original));
						assert.deepEqual(meaningOfRequest(rewritten), meaningOfRequest(original));
					}),
				);
			});
		}

		for (const binding of ['httpGet', 'httpPost'] as const) {
			it(`${binding}: fields in any order, empty ones left out, encoded otherwise, as GET or POST, other credentials`, () => {
				fc.assert(
					fc.property(call, apiKey, httpRewrite, (params, key, rewrite) => {
						const original = encoded(binding, OPERATION, withKey(params, key));
						const rewritten = rewrittenHttp(original, rewrite);
						assert.equal(keyOf(rewritten), keyOf(original));
						// GET and POST are one family: the other binding's codec writes the same meaning.
						const other = encoded(
							binding === 'httpGet' ? 'httpPost' : 'httpGet',
							OPERATION,
							withKey(params, key),
						);
						assert.equal(keyOf(other), keyOf(original));
					}),
				);
			});
		}

		it('the meaning holds the parameters given, without credentials, with the family of the binding', () => {
			fc.assert(
				fc.property(
					call,
					apiKey,
					fc.constantFrom<BindingName>('soap11', 'soap12', 'httpGet', 'httpPost'),
					(params, key, binding) => {
						const meaning = meaningOfRequest(encoded(binding, OPERATION, withKey(params, key)));
						assert.equal(meaning.operation, OPERATION);
						assert.equal(meaning.endpoint, 'posting');
						assert.equal(meaning.family, bindingFamily(binding));
						const given = Object.fromEntries(
							Object.entries(params).filter(([, value]) => value !== undefined),
						);
						assert.deepEqual(meaning.params, given);
						assert.ok(!meaningKey(meaning).includes(key));
					},
				),
			);
		});
	});

	describe('property: changing any one parameter value never matches', () => {
		for (const binding of ['soap11', 'soap12', 'httpGet', 'httpPost'] as const) {
			it(`${binding}: another value of one parameter is another meaning, and only it differs`, () => {
				fc.assert(
					fc.property(call, apiKey, fc.constantFrom(...CHANGEABLE), (params, key, name) => {
						const original = meaningOfRequest(encoded(binding, OPERATION, withKey(params, key)));
						const changed = meaningOfRequest(
							encoded(binding, OPERATION, withKey(changedOne(params, name), key)),
						);
						assert.notEqual(meaningKey(changed), meaningKey(original));
						const differences = paramDifferences(changed, original);
						assert.deepEqual(
							differences.map((difference) => difference.name),
							[name],
						);
					}),
				);
			});
		}
	});

	describe('families', () => {
		it('SOAP 1.1 and SOAP 1.2 are families of their own; GET and POST are one', () => {
			assert.equal(bindingFamily('soap11'), 'soap11');
			assert.equal(bindingFamily('soap12'), 'soap12');
			assert.equal(bindingFamily('httpGet'), 'http');
			assert.equal(bindingFamily('httpPost'), 'http');
			const params = withKey({ sCultureID: 'en-GB', CurrentPage: 1, RowsPerPage: 2 }, 'KEY-123456');
			const keys = (['soap11', 'soap12', 'httpGet'] as const).map((binding) =>
				keyOf(encoded(binding, OPERATION, params)),
			);
			assert.equal(new Set(keys).size, 3);
			assert.equal(keyOf(encoded('httpPost', OPERATION, params)), keys[2]);
		});

		it('the same parameters of another operation or endpoint are another meaning', () => {
			const weeks = meaningOfRequest(
				encoded('httpGet', 'GetWeeksToAdvertise', { sCultureID: 'en-GB', sAPIKey: 'k' }),
			);
			const currency = meaningOfRequest(encoded('httpGet', 'GetCurrency', { sCultureID: 'en-GB', sAPIKey: 'k' }));
			assert.equal(weeks.endpoint, 'administration');
			assert.equal(currency.endpoint, 'posting');
			assert.notEqual(meaningKey(weeks), meaningKey(currency));
		});
	});

	describe('normalisation', () => {
		it('an empty value, a left-out one and null are the same: not given', () => {
			const base = meaningOf(OPERATION, 'posting', 'httpGet', { CurrentPage: 1, RowsPerPage: 2 });
			for (const empty of ['', undefined, null, []]) {
				const other = meaningOf(OPERATION, 'posting', 'httpPost', {
					CurrentPage: 1,
					RowsPerPage: 2,
					sAdvertIdentifier: empty,
				} as AnyParams);
				assert.equal(meaningKey(other), meaningKey(base), String(empty));
			}
		});

		it('a default stands for a value left out', () => {
			const leftOut = meaningOf('ApplicationScore', 'posting', 'soap11', { sAdvertID: '5' } as AnyParams);
			const given = meaningOf('ApplicationScore', 'posting', 'soap11', {
				sAdvertID: '5',
				sScoreAsJobOwner: false,
			} as AnyParams);
			assert.equal(meaningKey(leftOut), meaningKey(given));
			const other = meaningOf('ApplicationScore', 'posting', 'soap11', {
				sAdvertID: '5',
				sScoreAsJobOwner: true,
			} as AnyParams);
			assert.notEqual(meaningKey(other), meaningKey(given));
		});

		it('credentials play no part, whatever they are', () => {
			const a = meaningOf('UserList', 'administration', 'soap11', {
				sAPIKey: 'one',
				sUsername: 'ada',
				sPassword: 'first',
			} as AnyParams);
			const b = meaningOf('UserList', 'administration', 'soap11', {
				sAPIKey: 'two',
				sUsername: 'ada',
				sPassword: 'second',
			} as AnyParams);
			assert.equal(meaningKey(a), meaningKey(b));
			assert.deepEqual(a.params, { sUsername: 'ada' });
			const c = meaningOf('UserList', 'administration', 'soap11', { sUsername: 'bob' } as AnyParams);
			assert.notEqual(meaningKey(a), meaningKey(c));
		});
	});

	describe('differences', () => {
		it('lists the parameters that differ in catalogue order, and says so in a short phrase', () => {
			const sent = meaningOf(OPERATION, 'posting', 'httpGet', {
				sAdvertID: '43',
				CurrentPage: 1,
				RowsPerPage: 2,
			} as AnyParams);
			const recorded = meaningOf(OPERATION, 'posting', 'httpGet', {
				sAdvertID: '42',
				CurrentPage: 1,
				RowsPerPage: 5,
				OrderBy: 'Title',
			} as AnyParams);
			const differences = paramDifferences(sent, recorded);
			assert.deepEqual(
				differences.map((difference) => difference.name),
				['sAdvertID', 'RowsPerPage', 'OrderBy'],
			);
			assert.deepEqual(differences.map(describeParamDifference), [
				'sAdvertID: "43" sent, "42" recorded',
				'RowsPerPage: 2 sent, 5 recorded',
				'OrderBy: not given sent, "Title" recorded',
			]);
			assert.deepEqual(paramDifferences(sent, sent), []);
		});

		it('a long value is cut in the phrase', () => {
			const phrase = describeParamDifference({ name: 'sAdvertIdentifier', sent: 'x'.repeat(100), recorded: 'y' });
			assert.ok(phrase.length < 100);
			assert.match(phrase, /^sAdvertIdentifier: "x+…/);
		});
	});
});
