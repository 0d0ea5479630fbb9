/**
 * Property-based fuzzing of every operation's parameters in every binding against the sandbox: the
 * emulator never fails internally, always answers with a decodable result or a decodable Client
 * fault within its budget, and a batch of rejected mutations changes nothing.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { RunningEmulator } from '../../src/emulator';
import { BINDING_NAMES, type BindingName } from '../../src/protocol/bindings/types';
import {
	OPERATION_NAMES,
	OPERATIONS,
	type AnyParams,
	type OperationName,
	type ParamSpec,
} from '../../src/protocol/catalogue';
import {
	clientFor,
	DEMO_CREDENTIALS,
	DEMO_PASSWORD,
	SANDBOX_START_TIMEOUT_MS,
	startSandbox,
} from '../integration/support';
import { callRaw, type RawCall } from './raw';

/** Each answer must come within this time (the emulator's own budget is 30 s; these are small requests). */
const ANSWER_BUDGET_MS = 10_000;
const RUNS_PER_OPERATION_AND_BINDING = 12;
const MUTATION_BATCHES = 20;

/** Characters XML 1.0 can carry, biased towards markup, entities and whitespace controls. */
const xmlChar = fc.oneof(
	{
		weight: 5,
		arbitrary: fc.constantFrom(
			'<',
			'>',
			'&',
			'"',
			"'",
			';',
			'/',
			']]>',
			'<!--',
			'&amp;',
			'&#0;',
			'&lt;',
			'\t',
			'\n',
			'\r',
			' ',
			',',
			'%',
			'+',
			'=',
			'?',
			'#',
		),
	},
	{ weight: 5, arbitrary: fc.string({ minLength: 1, maxLength: 1 }) },
	{ weight: 2, arbitrary: fc.constantFrom('é', 'ß', '日', '😀', '\u00a0', '\u200b', '\ufeff', '\u0085') },
);
const text = fc.oneof(
	{ weight: 6, arbitrary: fc.array(xmlChar, { maxLength: 40 }).map((chars) => chars.join('')) },
	{ weight: 2, arbitrary: fc.integer({ min: -3, max: 3_000_000_000 }).map(String) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			'',
			' ',
			'-1',
			'0',
			'1',
			'true',
			'null',
			'S',
			'de',
			'108',
			'Totaljobs',
			'acme-north',
			'demo.admin',
			'2024-01-01 00:00:00',
			'ApplicationDate desc',
		),
	},
	{ weight: 1, arbitrary: fc.integer({ min: 1_000, max: 60_000 }).map((length) => 'x'.repeat(length)) },
);

function paramValue(param: ParamSpec): fc.Arbitrary<AnyParams[string]> {
	if (param.type === 'int') {
		return fc.oneof(fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }), fc.integer({ min: 0, max: 600 }));
	}
	if (param.type === 'boolean') return fc.boolean();
	if (param.type === 'string[]') return fc.array(text, { maxLength: 4 });
	return text;
}

/** Random parameters: each one missing, random, or (for credentials) mostly valid so the fuzz gets past the login. */
function paramsOf(operation: OperationName): fc.Arbitrary<AnyParams> {
	const entries = OPERATIONS[operation].params.map((param) => {
		const credential =
			param.name === 'sAPIKey'
				? DEMO_CREDENTIALS.apiKey
				: param.name === 'sPassword'
					? DEMO_PASSWORD
					: param.name === 'sUsername' && param.role
						? DEMO_CREDENTIALS.username
						: undefined;
		const value =
			credential === undefined
				? paramValue(param)
				: fc.oneof(
						{ weight: 4, arbitrary: fc.constant(credential) },
						{ weight: 1, arbitrary: paramValue(param) },
					);
		return [param.name, fc.option(value, { nil: undefined, freq: 4 })] as const;
	});
	return fc.record(Object.fromEntries(entries) as Record<string, fc.Arbitrary<AnyParams[string]>>);
}

/** The property every answer has: a decodable result, or a Client fault (or HTTP text), in time. */
function assertWellFormed(call: RawCall, binding: BindingName, operation: OperationName): void {
	assert.ok(call.ms < ANSWER_BUDGET_MS, `${operation} answered in ${call.ms} ms`);
	// A query string over the 16 KiB request-head limit is refused by documented design (431, empty body).
	if (binding === 'httpGet' && call.status === 431) return;
	assert.ok(
		call.decoded,
		`${binding} ${operation}: undecodable HTTP ${call.status}: ${String(call.decodeError)} ${call.text.slice(0, 200)}`,
	);
	if (call.decoded.ok) {
		assert.equal(call.status, 200);
		return;
	}
	assert.ok([400, 413, 500].includes(call.status), `${operation}: status ${call.status}`);
	assert.ok(
		!/Server was unable to process request/.test(call.decoded.fault.message),
		`${binding} ${operation}: internal failure for fuzzed input`,
	);
	if (binding === 'soap11' || binding === 'soap12') {
		assert.equal(call.decoded.fault.code, 'Client', `${operation}: ${call.decoded.fault.message}`);
	}
}

describe('hardening: fuzzing every operation in every binding', function () {
	this.timeout(120_000);
	let emulator: RunningEmulator;
	const stats = { requests: 0, results: 0, faults: 0 };

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		emulator = await startSandbox();
	});

	after(async () => {
		await emulator?.stop();
		console.log(
			`fuzz: ${stats.requests} requests, ${stats.results} results, ${stats.faults} faults, 0 internal failures`,
		);
	});

	for (const binding of BINDING_NAMES) {
		it(`${binding}: random parameters never break the emulator`, async () => {
			for (const operation of OPERATION_NAMES) {
				// The client's encoder refuses what it cannot carry (e.g. control characters); that is not sent.
				await fc.assert(
					fc.asyncProperty(paramsOf(operation), async (params) => {
						const call = await callRaw(emulator, binding, operation, params, ANSWER_BUDGET_MS + 5_000);
						stats.requests += 1;
						if (call.decoded?.ok) stats.results += 1;
						else stats.faults += 1;
						assertWellFormed(call, binding, operation);
					}),
					{ numRuns: RUNS_PER_OPERATION_AND_BINDING, seed: 20_261_122 + OPERATION_NAMES.indexOf(operation) },
				);
			}
		});
	}

	it('a batch of rejected mutations changes no data', async () => {
		const client = clientFor(emulator);
		const adverts = await client.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 500 });
		const advert = adverts.Adverts!.find((a) => (a.Applications ?? 0) >= 3)!;
		const other = adverts.Adverts!.find((a) => a.AdvertID !== advert.AdvertID && (a.Applications ?? 0) >= 1)!;
		const page = await client.getApplicationsPaged({
			sAdvertID: String(advert.AdvertID),
			CurrentPage: 1,
			RowsPerPage: 3,
		});
		const target = page.Applications![0];
		const foreign = (
			await client.getApplicationsPaged({ sAdvertID: String(other.AdvertID), CurrentPage: 1, RowsPerPage: 1 })
		).Applications![0];
		const snapshot = async (): Promise<unknown> => {
			const application = await client.getApplicationsPaged({
				sAdvertID: String(advert.AdvertID),
				AdvertCandidateIDAsCSV: String(target.AdvertCandidateID),
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			const counters = await client.getAdvertPaged({
				sAdvertID: String(advert.AdvertID),
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			const total = await client.getAdvertPaged({
				sSearchDays: '-1',
				sAdvertStatusIDs: '0,1,16',
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			return { application: application.Applications, advert: counters.Adverts, total: total.TotalItemCount };
		};
		const login = {
			sAPIKey: DEMO_CREDENTIALS.apiKey,
			sUsername: DEMO_CREDENTIALS.username,
			sPassword: DEMO_PASSWORD,
		};
		const action = {
			...login,
			sAdvertID: String(advert.AdvertID),
			sAdvertCandidateID: String(target.AdvertCandidateID),
		};
		const notScore = text.filter((value) => !['S', 'M', 'U', 'F', 'N'].includes(value.trim().toUpperCase()));
		const notProgress = text.filter((value) => !/^\s*[+-]?0*[1-7]\s*$/.test(value));
		const notEmail = text.filter((value) => value.trim() !== '' && !value.includes('@'));
		const rejected: fc.Arbitrary<[OperationName, AnyParams]>[] = [
			fc.tuple(
				fc.constant<OperationName>('ApplicationScore'),
				fc.record({ sScore: notScore }).map((p) => ({ ...action, ...p })),
			),
			fc.tuple(
				fc.constant<OperationName>('ApplicationProgress'),
				fc.record({ sProgressID: notProgress }).map((p) => ({ ...action, ...p })),
			),
			fc.tuple(
				fc.constant<OperationName>('AddAdvertCandidateNote'),
				fc
					.record({ sBody: text })
					.map((p) => ({ ...action, sAdvertCandidateID: String(foreign.AdvertCandidateID), ...p })),
			),
			fc.tuple(
				fc.constant<OperationName>('ApplicationScore'),
				fc
					.record({ sScore: fc.constantFrom('S', 'U', 'F') })
					.map((p) => ({ ...action, sPassword: 'wrong', ...p })),
			),
			fc.tuple(
				fc.constant<OperationName>('AddAdvert'),
				fc.record({ sJobTitle: text, sContactEmail: notEmail }).map((p) => ({ ...login, ...p })),
			),
			fc.tuple(
				fc.constant<OperationName>('CandidateTag'),
				fc
					.record({ Tag: fc.string({ minLength: 60, maxLength: 200 }).filter((t) => t.trim().length > 50) })
					.map((p) => ({ sAPIKey: DEMO_CREDENTIALS.apiKey, sCandidateEmail: target.EmailAddress, ...p })),
			),
		];
		try {
			const before = await snapshot();
			await fc.assert(
				fc.asyncProperty(
					fc.array(fc.tuple(fc.oneof(...rejected), fc.constantFrom(...BINDING_NAMES)), {
						minLength: 3,
						maxLength: 6,
					}),
					async (batch) => {
						for (const [[operation, params], binding] of batch) {
							const call = await callRaw(emulator, binding, operation, params, ANSWER_BUDGET_MS + 5_000);
							stats.requests += 1;
							stats.faults += 1;
							assertWellFormed(call, binding, operation);
							assert.ok(
								call.status === 431 || call.decoded?.ok === false,
								`${binding} ${operation} must be rejected: ${JSON.stringify(params).slice(0, 300)}`,
							);
						}
						assert.deepEqual(await snapshot(), before, 'rejected mutations left the data as it was');
					},
				),
				{ numRuns: MUTATION_BATCHES, seed: 42 },
			);
		} finally {
			await client.close();
		}
	});
});
