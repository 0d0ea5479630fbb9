import * as assert from 'node:assert/strict';
import { getBinding } from '../../src/protocol/bindings';
import type { BindingName, EncodedResponse } from '../../src/protocol/bindings/types';
import type { OperationName } from '../../src/protocol/catalogue';
import { driftOf, formatDrift, type AnswerContext, type AnswerText, type Drift } from '../../src/protocol/drift';
import type { Fault } from '../../src/protocol/faults';

const NAMESPACE = 'https://api.example.test/';
const OTHER_NAMESPACE = 'https://live.example.com/';
const codec = { namespace: NAMESPACE, endpointPath: '/SOAP/Posting.asmx' };

function context(binding: BindingName, operation: OperationName = 'GetCurrency', namespace = NAMESPACE): AnswerContext {
	return { operation, binding, codec: { ...codec, namespace } };
}

function text(encoded: EncodedResponse): AnswerText {
	return {
		status: encoded.status,
		headers: { ...encoded.headers },
		body: Buffer.from(encoded.body).toString('utf8'),
	};
}

type Currency = { Value: string; Description?: string | null; SortOrder?: number | null };

function currencies(binding: BindingName, items: Currency[], namespace = NAMESPACE): AnswerText {
	return text(getBinding(binding).encodeResponse('GetCurrency', items, { ...codec, namespace }));
}

function fault(binding: BindingName, value: Fault, status?: number): AnswerText {
	return text(getBinding(binding).encodeFault(value, codec, status));
}

/** The drift between two answers of GetCurrency in one binding. */
function between(binding: BindingName, recorded: AnswerText, sandbox: AnswerText): Drift[] {
	return driftOf(recorded, context(binding), sandbox, context(binding));
}

const aspects = (drift: Drift[]) => drift.map((item) => item.aspect);
const GBP: Currency = { Value: 'GBP', Description: 'Pound sterling', SortOrder: 1 };
const EUR: Currency = { Value: 'EUR', Description: 'Euro', SortOrder: 2 };
const refusedFault: Fault = { code: 'Client', subcode: 'InvalidAPIKey', message: 'Bad key.' };
const USD: Currency = { Value: 'USD', Description: 'US dollar', SortOrder: 3 };

/** The element path of GetValue's fields in each binding's answer. */
const ITEM: Record<BindingName, string> = {
	soap11: 'GetCurrencyResponse/GetCurrencyResult/GetValue',
	soap12: 'GetCurrencyResponse/GetCurrencyResult/GetValue',
	httpGet: 'ArrayOfGetValue/GetValue',
	httpPost: 'ArrayOfGetValue/GetValue',
};

describe('drift', () => {
	for (const binding of ['soap11', 'soap12', 'httpGet', 'httpPost'] as const) {
		describe(binding, () => {
			it('identical answers give no drift', () => {
				const answer = currencies(binding, [GBP, EUR]);
				assert.deepEqual(between(binding, answer, answer), []);
				const refused = fault(binding, { code: 'Client', subcode: 'InvalidAPIKey', message: 'Bad key.' });
				assert.deepEqual(between(binding, refused, refused), []);
			});

			it('values differing are not drift: other values, other messages, another number of items', () => {
				assert.deepEqual(
					between(binding, currencies(binding, [GBP]), currencies(binding, [{ ...EUR }, USD, GBP])),
					[],
				);
				assert.deepEqual(between(binding, currencies(binding, [GBP, EUR]), currencies(binding, [])), []);
				assert.deepEqual(
					between(
						binding,
						fault(binding, { code: 'Client', subcode: 'InvalidAPIKey', message: 'Bad key.' }),
						fault(binding, { code: 'Client', subcode: 'InvalidAPIKey', message: 'Another text.' }),
					),
					[],
				);
			});

			it('a header a client acts on, present on one side only', () => {
				const answer = currencies(binding, [GBP]);
				const drift = between(binding, answer, {
					...answer,
					headers: { ...answer.headers, 'retry-after': '5' },
				});
				assert.deepEqual(drift, [
					{ aspect: 'header', path: 'retry-after', recorded: 'absent', sandbox: 'retry-after: 5' },
				]);
				// Other headers, and values of those that count, are not drift.
				const other = {
					...answer,
					headers: { ...answer.headers, 'x-powered-by': 'ASP.NET', 'retry-after': '5' },
				};
				const again = { ...answer, headers: { ...answer.headers, 'retry-after': '60' } };
				assert.deepEqual(between(binding, other, again), []);
			});

			it('a fault where a result stands', () => {
				const result = currencies(binding, [GBP]);
				const soap = binding === 'soap11' || binding === 'soap12';
				// SOAP: the outcome alone (and the status a fault usually has); GET/POST faults are plain text besides.
				const drift = between(binding, result, fault(binding, refusedFault));
				assert.deepEqual(aspects(drift), soap ? ['status', 'outcome'] : ['status', 'contentType', 'outcome']);
				const outcome = drift.find((item) => item.aspect === 'outcome')!;
				assert.equal(outcome.recorded, 'a result');
				assert.match(outcome.sandbox, soap ? /^a fault \(Client\/InvalidAPIKey\)$/ : /^a fault \(Server\)$/);
				if (soap) {
					assert.deepEqual(aspects(between(binding, result, fault(binding, refusedFault, 200))), ['outcome']);
				}
			});

			it('the element tree: present, nil and left out each differ from the others', () => {
				// Description: present vs left out (null is left out); SortOrder: present vs nil.
				const full = currencies(binding, [GBP]);
				const noDescription = currencies(binding, [{ ...GBP, Description: null }]);
				assert.deepEqual(between(binding, full, noDescription), [
					{
						aspect: 'element',
						path: `${ITEM[binding]}/Description`,
						recorded: 'present',
						sandbox: 'left out',
					},
				]);
				const nilOrder = currencies(binding, [{ ...GBP, SortOrder: null }]);
				assert.deepEqual(between(binding, full, nilOrder), [
					{ aspect: 'element', path: `${ITEM[binding]}/SortOrder`, recorded: 'present', sandbox: 'nil' },
				]);
				const noOrder = { ...nilOrder, body: nilOrder.body.replace(/<SortOrder xsi:nil="true" \/>/, '') };
				assert.notEqual(noOrder.body, nilOrder.body);
				assert.deepEqual(between(binding, nilOrder, noOrder), [
					{ aspect: 'element', path: `${ITEM[binding]}/SortOrder`, recorded: 'nil', sandbox: 'left out' },
				]);
			});

			it('an element of list items that varies with the data agrees with each of its forms', () => {
				// Description present in one item and left out in another: either form alone agrees.
				const mixed = currencies(binding, [GBP, { ...EUR, Description: null }]);
				assert.deepEqual(between(binding, mixed, currencies(binding, [GBP])), []);
				assert.deepEqual(between(binding, mixed, currencies(binding, [{ ...GBP, Description: null }])), []);
				assert.deepEqual(between(binding, currencies(binding, [GBP]), mixed), []);
			});

			it('the service namespace counts as one, whatever its URI', () => {
				const recorded = currencies(binding, [GBP], OTHER_NAMESPACE);
				const sandbox = currencies(binding, [EUR], NAMESPACE);
				assert.deepEqual(
					driftOf(recorded, context(binding, 'GetCurrency', OTHER_NAMESPACE), sandbox, context(binding)),
					[],
				);
			});
		});
	}

	for (const binding of ['soap11', 'soap12'] as const) {
		it(`${binding}: the status alone`, () => {
			const drift = between(binding, fault(binding, refusedFault), fault(binding, refusedFault, 400));
			assert.deepEqual(drift, [{ aspect: 'status', recorded: '500', sandbox: '400' }]);
		});

		it(`${binding}: another fault code, and only that`, () => {
			const drift = between(
				binding,
				fault(binding, { code: 'Client', message: 'Bad request.' }),
				fault(binding, { code: 'Server', message: 'Bad request.' }),
			);
			assert.deepEqual(drift, [{ aspect: 'fault', recorded: 'a fault (Client)', sandbox: 'a fault (Server)' }]);
		});
	}

	it('GET/POST: the status alone, read as text', () => {
		const answer = currencies('httpGet', [GBP]);
		const plain: AnswerContext = { codec };
		assert.deepEqual(driftOf(answer, plain, { ...answer, status: 203 }, plain), [
			{ aspect: 'status', recorded: '200', sandbox: '203' },
		]);
	});

	it('GET/POST faults are plain text: their code cannot differ, the status that comes with them can', () => {
		const client = fault('httpGet', { code: 'Client', message: 'Bad request.' });
		const server = fault('httpGet', { code: 'Server', subcode: 'Other', message: 'Bad request.' });
		assert.deepEqual(between('httpGet', client, server), []);
		assert.deepEqual(aspects(between('httpGet', client, fault('httpGet', refusedFault, 400))), [
			'status',
			'outcome',
		]);
	});

	it('another fault subcode, and only that (SOAP: the detail says it)', () => {
		for (const binding of ['soap11', 'soap12'] as const) {
			const drift = between(
				binding,
				fault(binding, refusedFault),
				fault(binding, { ...refusedFault, subcode: 'InvalidParameter' }),
			);
			assert.deepEqual(aspects(drift), ['fault'], binding);
			assert.equal(drift[0].recorded, 'a fault (Client/InvalidAPIKey)');
			assert.equal(drift[0].sandbox, 'a fault (Client/InvalidParameter)');
		}
	});

	it('the content type alone, when the answer still decodes (HTTP GET)', () => {
		const answer = currencies('httpGet', [GBP]);
		const other = { ...answer, headers: { ...answer.headers, 'content-type': 'application/xml; charset=utf-8' } };
		assert.deepEqual(between('httpGet', answer, other), [
			{ aspect: 'contentType', recorded: 'text/xml;charset=utf-8', sandbox: 'application/xml;charset=utf-8' },
		]);
		// Case, spaces and quotes are no difference.
		const written = { ...answer, headers: { ...answer.headers, 'content-type': 'Text/XML; charset="utf-8"' } };
		assert.deepEqual(between('httpGet', answer, written), []);
	});

	it('a content type SOAP does not read is drift in the content type and the outcome', () => {
		const answer = currencies('soap11', [GBP]);
		const other = { ...answer, headers: { ...answer.headers, 'content-type': 'application/xml; charset=utf-8' } };
		const drift = between('soap11', answer, other);
		assert.deepEqual(aspects(drift), ['contentType', 'outcome']);
		assert.match(drift[1].sandbox, /^an answer that does not decode/);
	});

	it('a list where a single record stands is drift at the root, and only there', () => {
		const list = currencies('httpGet', [GBP]);
		const single = {
			...list,
			body: `<?xml version="1.0" encoding="utf-8"?><GetValue xmlns="${NAMESPACE}"><Description>Pound</Description><FieldID>0</FieldID><OrganisationID>0</OrganisationID><SortOrder>1</SortOrder><Value>GBP</Value></GetValue>`,
		};
		const plain: AnswerContext = { codec };
		assert.deepEqual(driftOf(list, plain, single, plain), [
			{ aspect: 'element', path: '/', recorded: '<ArrayOfGetValue>', sandbox: '<GetValue>' },
		]);
	});

	it('a value where a record stands is drift there, and an empty list where a full one stands is not', () => {
		const list = currencies('httpGet', [GBP]);
		const valueForRecord = {
			...list,
			body: list.body.replace(/<GetValue>[\s\S]*<\/GetValue>/, '<GetValue>GBP</GetValue>'),
		};
		const plain: AnswerContext = { codec };
		assert.deepEqual(driftOf(list, plain, valueForRecord, plain), [
			{
				aspect: 'element',
				path: 'ArrayOfGetValue/GetValue',
				recorded: 'a record (elements)',
				sandbox: 'a value',
			},
		]);
		assert.deepEqual(driftOf(list, plain, currencies('httpGet', []), plain), []);
	});

	it('an element of another namespace is another element', () => {
		const list = currencies('httpGet', [GBP]);
		const foreign = {
			...list,
			body: list.body.replace('<Value>GBP</Value>', '<Value xmlns="urn:other">GBP</Value>'),
		};
		const drift = between('httpGet', list, foreign);
		assert.deepEqual(
			drift.map((item) => [item.path, item.recorded, item.sandbox]),
			[
				['ArrayOfGetValue/GetValue/Value', 'present', 'left out'],
				['ArrayOfGetValue/GetValue/{urn:other}Value', 'left out', 'present'],
			],
		);
	});

	it('no body and a body are another outcome; two empty answers agree', () => {
		const answer = currencies('httpGet', [GBP]);
		const empty = { ...answer, body: '' };
		assert.deepEqual(aspects(between('httpGet', answer, empty)), ['outcome']);
		assert.equal(between('httpGet', answer, empty)[0].sandbox, 'no body');
		assert.deepEqual(between('httpGet', empty, { ...empty, body: '  \n' }), []);
	});

	it('gives at most `limit` differences', () => {
		const full = currencies('httpGet', [GBP]);
		const bare = currencies('httpGet', [{ Value: 'GBP', Description: null, SortOrder: null }]);
		const plain: AnswerContext = { codec };
		const drift = driftOf(full, plain, { ...bare, status: 203 }, plain);
		assert.deepEqual(aspects(drift), ['status', 'element', 'element']);
		assert.deepEqual(driftOf(full, plain, { ...bare, status: 203 }, plain, 1), [drift[0]]);
		assert.deepEqual(driftOf(full, plain, { ...bare, status: 203 }, plain, 2), drift.slice(0, 2));
	});

	it('formats a drift as one line', () => {
		assert.equal(
			formatDrift({
				aspect: 'element',
				path: 'AdvertPaged/Adverts/APIAdvert/latitude',
				recorded: 'nil',
				sandbox: 'present',
			}),
			'element AdvertPaged/Adverts/APIAdvert/latitude: nil (recorded) vs present (sandbox)',
		);
		assert.equal(
			formatDrift({ aspect: 'contentType', recorded: 'text/xml', sandbox: 'text/plain' }),
			'content type: text/xml (recorded) vs text/plain (sandbox)',
		);
		assert.equal(
			formatDrift({ aspect: 'status', recorded: '200', sandbox: '500' }),
			'status: 200 (recorded) vs 500 (sandbox)',
		);
	});
});
