import * as assert from 'node:assert/strict';
import { NOT_RECORDED, REPLAY_HEADER, Replayer, type ReplayRequest } from '../../../src/emulator/replay/replayer';
import { getBinding } from '../../../src/protocol/bindings';
import type { BindingName, EncodedResponse } from '../../../src/protocol/bindings/types';
import { OPERATIONS, type AnyParams, type Endpoint, type OperationName } from '../../../src/protocol/catalogue';
import type { RecordedExchange, Recording } from '../../../src/protocol/recordings/format';

const NAMESPACE = 'https://live.example.com/';
const PATHS: Record<Endpoint, string> = { posting: '/SOAP/Posting.asmx', administration: '/SOAP/Administration.asmx' };
const BINDINGS: readonly BindingName[] = ['soap11', 'soap12', 'httpGet', 'httpPost'];

interface Service {
	namespace: string;
	paths: Record<Endpoint, string>;
}
const LIVE: Service = { namespace: NAMESPACE, paths: PATHS };
const OTHER: Service = {
	namespace: 'https://other.example.org/ws/',
	paths: { posting: '/v2/Posting.asmx', administration: '/v2/Administration.asmx' },
};

/** A request as the client codec writes it, in a service's namespace and paths. */
function request(
	binding: BindingName,
	operation: OperationName,
	params: AnyParams,
	service: Service = LIVE,
): ReplayRequest {
	const encoded = getBinding(binding).encodeRequest(operation, params, {
		namespace: service.namespace,
		endpointPath: service.paths[OPERATIONS[operation].endpoint],
	});
	const [path, query = ''] = encoded.path.split('?');
	return { method: encoded.method, path, query, headers: encoded.headers, body: encoded.body, url: encoded.path };
}

/** A recorded exchange of that request, with an answer given as it was sent. */
function exchange(
	id: number,
	sent: ReplayRequest,
	answer: { status?: number; headers?: Record<string, string>; body: string },
	binding?: BindingName,
): RecordedExchange {
	return {
		id,
		time: '2026-03-01T10:00:00.000Z',
		...(binding ? { binding } : {}),
		request: {
			method: sent.method,
			path: sent.path,
			query: sent.query,
			headers: Object.fromEntries(
				Object.entries(sent.headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
			),
			body: Buffer.from(sent.body).toString('utf8'),
		},
		response: {
			status: answer.status ?? 200,
			headers: answer.headers ?? { 'content-type': 'text/xml; charset=utf-8' },
			body: answer.body,
		},
	};
}

function recording(exchanges: RecordedExchange[], service: Service = LIVE): Recording {
	return {
		format: 'multiposting-recording',
		version: 1,
		recordedAt: '2026-03-01T10:05:00.000Z',
		upstream: 'https://live.example.com',
		namespace: service.namespace,
		paths: service.paths,
		exchanges,
	};
}

const adverts = (advertId: string, more: AnyParams = {}): AnyParams => ({
	sCultureID: 'en-GB',
	sAPIKey: '{{connection.apiKey}}',
	sAdvertID: advertId,
	CurrentPage: 1,
	RowsPerPage: 10,
	...more,
});

const bodyOf = (answer: EncodedResponse | undefined): string => Buffer.from(answer!.body).toString('utf8');

/** A body no codec would write: replay must serve it as it is. */
const ODD_BODY =
	'<?xml version="1.0"?>\r\n<AdvertPaged  xmlns="https://live.example.com/" >\n\t<TotalRows>1</TotalRows>  </AdvertPaged>\n';

describe('Replayer', () => {
	describe('a recorded request', () => {
		for (const binding of BINDINGS) {
			it(`${binding}: answered byte for byte, however it is written again`, () => {
				const sent = request(binding, 'GetAdvertPaged', adverts('42', { sAPIKey: 'recorded-key' }));
				const replayer = new Replayer(
					[
						{
							name: 'live.mprec.json',
							recording: recording([
								exchange(
									7,
									sent,
									{
										status: 200,
										headers: {
											'content-type': 'text/xml; charset=utf-8',
											'content-length': '999',
											'transfer-encoding': 'chunked',
											'x-aspnet-version': '4.0.30319',
										},
										body: ODD_BODY,
									},
									binding,
								),
							]),
						},
					],
					'strict',
				);
				// Other credentials, and (for GET/POST) the other verb of the family.
				const again =
					binding === 'httpGet' || binding === 'httpPost'
						? request(
								binding === 'httpGet' ? 'httpPost' : 'httpGet',
								'GetAdvertPaged',
								adverts('42', { sAPIKey: 'a-key' }),
							)
						: request(binding, 'GetAdvertPaged', adverts('42', { sAPIKey: 'another-key' }));
				for (const asked of [sent, again]) {
					const match = replayer.match(asked);
					assert.equal(match.kind, 'served');
					assert.equal(match.answer!.status, 200);
					assert.deepEqual(Buffer.from(match.answer!.body), Buffer.from(ODD_BODY, 'utf8'));
					assert.deepEqual(match.answer!.headers, {
						'content-type': 'text/xml; charset=utf-8',
						'x-aspnet-version': '4.0.30319',
						[REPLAY_HEADER]: 'live.mprec.json#7',
					});
					assert.deepEqual(match.outcome, { outcome: 'served', recording: 'live.mprec.json', exchange: 7 });
					assert.equal(match.operation, 'GetAdvertPaged');
				}
				assert.deepEqual(
					{ served: replayer.info().served, unmatched: replayer.info().unmatched },
					{ served: 2, unmatched: 0 },
				);
			});
		}

		it('a SOAP request written with other prefixes and whitespace is the same request', () => {
			const sent = request('soap11', 'GetAdvertPaged', adverts('42'));
			const replayer = new Replayer(
				[{ name: 'r', recording: recording([exchange(1, sent, { body: ODD_BODY })]) }],
				'strict',
			);
			const written = Buffer.from(sent.body)
				.toString('utf8')
				.replace(/soap:/g, 'env:')
				.replace('xmlns:soap=', 'xmlns:env=')
				.replace(/></g, '>\n  <');
			const match = replayer.match({ ...sent, body: Buffer.from(written, 'utf8') });
			assert.equal(match.kind, 'served');
			assert.equal(bodyOf(match.answer), ODD_BODY);
		});

		it('several answers to one request come in order, then the last again', () => {
			const sent = request('httpGet', 'GetAdvertPaged', adverts('42'));
			const replayer = new Replayer(
				[
					{
						name: 'steps',
						recording: recording([
							exchange(1, sent, { body: '<first/>' }),
							exchange(2, request('httpGet', 'GetAdvertPaged', adverts('7')), { body: '<other/>' }),
							exchange(3, sent, { status: 503, body: '<second/>' }),
							exchange(4, sent, { body: '<third/>' }),
						]),
					},
				],
				'strict',
			);
			const answers = Array.from({ length: 5 }, () => replayer.match(sent)).map((match) => [
				match.answer!.status,
				bodyOf(match.answer),
				match.answer!.headers[REPLAY_HEADER],
			]);
			assert.deepEqual(answers, [
				[200, '<first/>', 'steps#1'],
				[503, '<second/>', 'steps#3'],
				[200, '<third/>', 'steps#4'],
				[200, '<third/>', 'steps#4'],
				[200, '<third/>', 'steps#4'],
			]);
			// The other request keeps its own answer.
			assert.equal(
				bodyOf(replayer.match(request('httpPost', 'GetAdvertPaged', adverts('7'))).answer),
				'<other/>',
			);
		});

		it('a recorded request that does not decode is matched by its bytes', () => {
			const broken: ReplayRequest = {
				method: 'POST',
				path: '/SOAP/Posting.asmx',
				query: '',
				headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NAMESPACE}GetAdvertPaged"` },
				body: Buffer.from('<not xml', 'utf8'),
				url: '/SOAP/Posting.asmx',
			};
			const replayer = new Replayer(
				[{ name: 'r', recording: recording([exchange(1, broken, { status: 400, body: 'Bad Request' })]) }],
				'strict',
			);
			const match = replayer.match(broken);
			assert.equal(match.kind, 'served');
			assert.equal(match.answer!.status, 400);
			assert.equal(bodyOf(match.answer), 'Bad Request');
			const other = replayer.match({ ...broken, body: Buffer.from('<not xml either', 'utf8') });
			assert.equal(other.kind, 'unmatched');
			assert.match(other.outcome.why ?? '', /does not decode/);
			assert.equal(other.answer!.status, 500);
		});
	});

	describe('strict: a request not recorded', () => {
		for (const binding of BINDINGS) {
			it(`${binding}: a Client fault NotRecorded in the binding's shape, naming the closest recorded request and what differs`, () => {
				const replayer = new Replayer(
					[
						{
							name: 'live.mprec.json',
							recording: recording([
								exchange(
									3,
									request(
										binding,
										'GetAdvertPaged',
										adverts('42', { RowsPerPage: 50, OrderBy: 'Title' }),
									),
									{
										body: '<far/>',
									},
								),
								exchange(5, request(binding, 'GetAdvertPaged', adverts('42')), { body: '<near/>' }),
								exchange(6, request(binding, 'GetCurrency', { sCultureID: 'en-GB', sAPIKey: 'k' }), {
									body: '<currency/>',
								}),
							]),
						},
					],
					'strict',
				);
				const match = replayer.match(request(binding, 'GetAdvertPaged', adverts('43')));
				assert.equal(match.kind, 'unmatched');
				assert.deepEqual(match.outcome, {
					outcome: 'unmatched',
					mode: 'strict',
					closest: {
						recording: 'live.mprec.json',
						exchange: 5,
						operation: 'GetAdvertPaged',
						differs: ['sAdvertID: "43" sent, "42" recorded'],
					},
				});
				assert.equal(match.operation, 'GetAdvertPaged');
				const answer = match.answer!;
				assert.equal(answer.headers[REPLAY_HEADER], 'unmatched');
				const decoded = getBinding(binding).decodeResponse(
					'GetAdvertPaged',
					{ status: answer.status, headers: answer.headers, body: answer.body },
					{ namespace: NAMESPACE, endpointPath: PATHS.posting },
				);
				assert.equal(decoded.ok, false);
				if (decoded.ok) return;
				// SOAP carries the code and subcode; a GET/POST fault is plain text, its message alone.
				if (binding === 'soap11' || binding === 'soap12') {
					assert.equal(decoded.fault.code, 'Client');
					assert.equal(decoded.fault.subcode, NOT_RECORDED);
				} else {
					assert.equal(answer.status, 500);
					assert.match(answer.headers['content-type'], /^text\/plain/);
				}
				assert.equal(
					decoded.fault.message,
					'Not in the recording (strict replay); the closest recorded request is live.mprec.json #5, where sAdvertID: "43" sent, "42" recorded.',
				);
				// The fault is the one the binding writes for any fault.
				const expected = getBinding(binding).encodeFault(
					{ code: 'Client', subcode: NOT_RECORDED, message: decoded.fault.message },
					{ namespace: NAMESPACE, endpointPath: PATHS.posting },
				);
				assert.equal(answer.status, expected.status);
				assert.equal(answer.headers['content-type'], expected.headers['content-type']);
				assert.deepEqual(Buffer.from(answer.body), Buffer.from(expected.body));
				assert.deepEqual(
					{ served: replayer.info().served, unmatched: replayer.info().unmatched },
					{ served: 0, unmatched: 1 },
				);
			});
		}

		it('another binding family is named as what differs', () => {
			const replayer = new Replayer(
				[
					{
						name: 'r',
						recording: recording([
							exchange(2, request('soap11', 'GetAdvertPaged', adverts('42')), { body: '<x/>' }),
						]),
					},
				],
				'strict',
			);
			const match = replayer.match(request('soap12', 'GetAdvertPaged', adverts('42')));
			assert.equal(match.kind, 'unmatched');
			assert.deepEqual(match.outcome.closest?.differs, ['binding: soap12 sent, soap11 recorded']);
			// Answered as SOAP 1.2 answers faults.
			assert.match(match.answer!.headers['content-type'], /^application\/soap\+xml/);
		});

		it('an operation never recorded: says which ones are', () => {
			const replayer = new Replayer(
				[
					{
						name: 'r',
						recording: recording([
							exchange(2, request('httpGet', 'GetAdvertPaged', adverts('42')), { body: '<x/>' }),
						]),
					},
				],
				'strict',
			);
			const match = replayer.match(
				request('httpGet', 'GetWeeksToAdvertise', { sCultureID: 'en-GB', sAPIKey: 'k' }),
			);
			assert.equal(match.kind, 'unmatched');
			assert.equal(match.outcome.closest, undefined);
			assert.equal(
				match.outcome.why,
				'no GetWeeksToAdvertise request is recorded (the recordings hold GetAdvertPaged)',
			);
			assert.match(bodyOf(match.answer), /no GetWeeksToAdvertise request is recorded/);
		});

		it('a request that is no call of the recorded service: a plain-text 500', () => {
			const replayer = new Replayer(
				[
					{
						name: 'r',
						recording: recording([
							exchange(2, request('httpGet', 'GetAdvertPaged', adverts('42')), { body: '<x/>' }),
						]),
					},
				],
				'strict',
			);
			const match = replayer.match({
				method: 'GET',
				path: '/elsewhere',
				query: '',
				headers: {},
				body: new Uint8Array(),
				url: '/elsewhere',
			});
			assert.equal(match.kind, 'unmatched');
			assert.equal(match.answer!.status, 500);
			assert.match(match.answer!.headers['content-type'], /^text\/plain/);
			assert.match(bodyOf(match.answer), /^Not in the recording \(strict replay\): /);
		});
	});

	describe('fall-through', () => {
		it('a request not recorded gets no answer, only what replay found, and goes on', () => {
			const replayer = new Replayer(
				[
					{
						name: 'r',
						recording: recording([
							exchange(2, request('httpGet', 'GetAdvertPaged', adverts('42')), { body: '<x/>' }),
						]),
					},
				],
				'fallThrough',
			);
			assert.equal(replayer.mode, 'fallThrough');
			const match = replayer.match(request('httpGet', 'GetAdvertPaged', adverts('43')));
			assert.equal(match.kind, 'unmatched');
			assert.equal(match.answer, undefined);
			assert.equal(match.outcome.mode, 'fallThrough');
			assert.deepEqual(match.outcome.closest?.differs, ['sAdvertID: "43" sent, "42" recorded']);
			assert.equal(match.params?.sAdvertID, '43');
			// A recorded one is still served.
			assert.equal(replayer.match(request('httpGet', 'GetAdvertPaged', adverts('42'))).kind, 'served');
			assert.equal(replayer.info().mode, 'fallThrough');
		});
	});

	describe('several recordings', () => {
		it('each read in its own namespace and paths; one request recorded in two comes from both in order', () => {
			const live = recording([
				exchange(1, request('soap11', 'GetAdvertPaged', adverts('42')), { body: '<live-1/>' }),
				exchange(2, request('httpGet', 'GetCurrency', { sCultureID: 'en-GB', sAPIKey: 'k' }), {
					body: '<currency/>',
				}),
			]);
			const later = recording([
				exchange(9, request('soap11', 'GetAdvertPaged', adverts('42')), { body: '<live-2/>' }),
			]);
			const other = recording(
				[exchange(1, request('soap11', 'GetAdvertPaged', adverts('42'), OTHER), { body: '<other/>' })],
				OTHER,
			);
			const replayer = new Replayer(
				[
					{ name: 'live.mprec.json', recording: live },
					{ name: 'later.mprec.json', recording: later },
					{ name: 'other.mprec.json', recording: { ...other, upstream: undefined } },
				],
				'strict',
			);
			const fromLive = request('soap11', 'GetAdvertPaged', adverts('42'));
			assert.equal(replayer.match(fromLive).answer!.headers[REPLAY_HEADER], 'live.mprec.json#1');
			assert.equal(replayer.match(fromLive).answer!.headers[REPLAY_HEADER], 'later.mprec.json#9');
			assert.equal(bodyOf(replayer.match(fromLive).answer), '<live-2/>');
			const fromOther = replayer.match(request('soap11', 'GetAdvertPaged', adverts('42'), OTHER));
			assert.equal(fromOther.answer!.headers[REPLAY_HEADER], 'other.mprec.json#1');
			assert.equal(
				bodyOf(replayer.match(request('httpGet', 'GetCurrency', { sCultureID: 'en-GB', sAPIKey: 'x' })).answer),
				'<currency/>',
			);
			assert.equal(
				replayer.callOf('GET', { path: '/v2/Posting.asmx/GetCurrency', query: '' }, undefined)?.endpoint,
				'posting',
			);
			assert.equal(replayer.callOf('GET', { path: '/nowhere', query: '' }, undefined), undefined);
			assert.deepEqual(replayer.info(), {
				mode: 'strict',
				recordings: [
					{
						name: 'live.mprec.json',
						exchanges: 2,
						namespace: NAMESPACE,
						upstream: 'https://live.example.com',
					},
					{
						name: 'later.mprec.json',
						exchanges: 1,
						namespace: NAMESPACE,
						upstream: 'https://live.example.com',
					},
					{ name: 'other.mprec.json', exchanges: 1, namespace: OTHER.namespace },
				],
				served: 5,
				unmatched: 0,
			});
		});

		it('the closest recorded request is looked for in every recording', () => {
			const replayer = new Replayer(
				[
					{
						name: 'a',
						recording: recording([
							exchange(
								1,
								request(
									'httpGet',
									'GetAdvertPaged',
									adverts('1', { OrderBy: 'Title', RowsPerPage: 3 }),
								),
								{
									body: '<a/>',
								},
							),
						]),
					},
					{
						name: 'b',
						recording: recording([
							exchange(4, request('httpGet', 'GetAdvertPaged', adverts('2')), { body: '<b/>' }),
						]),
					},
				],
				'strict',
			);
			const match = replayer.match(request('httpGet', 'GetAdvertPaged', adverts('3')));
			assert.equal(match.kind, 'unmatched');
			if (match.kind !== 'unmatched') return;
			assert.equal(match.outcome.closest?.recording, 'b');
			assert.equal(match.outcome.closest?.exchange, 4);
		});
	});
});
