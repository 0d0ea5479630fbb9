/**
 * The client and the sandbox interpret the catalogue's parameter rules the same way (issue 14): over
 * generated requests of every operation in every binding, a request the client accepts is never refused
 * by the sandbox for its form, and one the client refuses is refused by the sandbox with the client's
 * first reason (same sub-code, same message).
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateParams } from '../../src/client';
import type { RunningEmulator } from '../../src/emulator';
import { getBinding } from '../../src/protocol/bindings';
import { BINDING_NAMES, type BindingName, type CodecContext } from '../../src/protocol/bindings/types';
import {
	OPERATION_NAMES,
	OPERATIONS,
	VALUE_SETS,
	type AnyParams,
	type OperationName,
	type ParamSpec,
	type ParamValue,
	type ValueSet,
} from '../../src/protocol/catalogue';
import { SANDBOX_START_TIMEOUT_MS, startSandbox } from './support';

const RUNS = 8;
/** Sub-codes of refusals for the form of a request (what the rules module decides). */
const FORM_SUBCODES = new Set(['InvalidParameter', 'MissingParameter', 'MissingFilter']);
/**
 * Refusals that depend on the sandbox's data, not on the form of the request: the generator uses real
 * feeds and progress ids, but cannot know which adverts were posted where.
 */
const DATA_REFUSALS = [
	/is not a known FeedID or FeedIdentifier/,
	/is not configured for user/,
	/has never been posted/,
	/was never posted to feed/,
	/is not a progress of this account/,
	/is not a ProgressID of this account/,
	// Whether sUsername and sUserIdentifier name one user depends on the data.
	/name different users/,
];

const text = (values: readonly string[]) => fc.constantFrom(...values);
const anyCase = (value: string) => fc.constantFrom(value, value.toLowerCase(), value.toUpperCase());

/** A value the rules accept, for one parameter (credentials are filled separately). */
function validValue(operation: OperationName, param: ParamSpec): fc.Arbitrary<ParamValue> {
	const set = param.valueSet ? (VALUE_SETS as Record<string, ValueSet>)[param.valueSet] : undefined;
	if (param.name === 'RowsPerPage') return fc.integer({ min: 1, max: 500 });
	if (param.name === 'CurrentPage') return fc.integer({ min: 0, max: 3 });
	if (param.name === 'OrderBy') {
		return text(operation === 'GetApplicationsPaged' ? ['ApplicationDate desc', 'Score asc'] : ['AdvertID desc']);
	}
	if (param.name === 'q') return text(['de', 'Engineer']);
	if (param.name === 'sProgressID') return text(['1', '4', '7']);
	if (param.name === 'ProgressIDAsCSV') return text(['1', '2,3']);
	if (param.name === 'sUsername') return text(['demo.admin']);
	if (param.name.includes('Destinations')) {
		const feeds = fc.subarray(['108', 'Totaljobs'], { minLength: 1 });
		return param.type === 'string[]' ? feeds : feeds.map((items) => items.join(','));
	}
	switch (param.type) {
		case 'int':
			return fc.integer({ min: 0, max: 100 });
		case 'boolean':
			return fc.boolean();
		case 'string[]':
			return fc.constant(['108']);
		default:
			break;
	}
	switch (param.format) {
		case 'integer':
			return set?.closed
				? fc.constantFrom(...set.values.map((v) => v.value))
				: fc.integer({ min: param.range?.min ?? 0, max: Math.min(param.range?.max ?? 400, 400) }).map(String);
		case 'id':
			return fc.integer({ min: 1, max: 300 }).map(String);
		case 'decimal':
			return fc.integer({ min: 0, max: 99999 }).map(String);
		case 'boolean':
			return text(['true', 'false', '1', '0', 'True']);
		case 'dateTime':
			return text(['2026-01-02 03:04:05', '2025-12-1', '2026-01-02T03:04:05Z', '02/01/2026 03:04:05']);
		case 'csv':
			return set
				? fc.subarray(['Suitable', '2', 'unranked'], { minLength: 1 }).map((a) => a.join(','))
				: text(['1,2']);
		case 'integerCsv':
			return text(['1', '1,2,3']);
		case 'url':
			return text(['https://example.com/apply']);
		case 'email':
			return text(['jane@example.com']);
		case 'currency':
			return text(['GBP', 'eur']);
		case 'localPath':
			return text(['/web/adverts']);
		default:
			break;
	}
	if (set?.closed) return fc.constantFrom(...set.values.map((v) => v.value)).chain(anyCase);
	return fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '' && !s.includes(','));
}

/** A value the rules refuse for this parameter, or undefined when every value of its type is allowed. */
function invalidValue(param: ParamSpec): fc.Arbitrary<ParamValue> | undefined {
	const set = param.valueSet ? (VALUE_SETS as Record<string, ValueSet>)[param.valueSet] : undefined;
	if (param.type === 'int') {
		return param.name === 'RowsPerPage' ? fc.constantFrom(0, 501) : param.range ? fc.constant(-1) : undefined;
	}
	if (param.type !== 'string') return undefined;
	if (param.maxLength !== undefined) return fc.constant('x'.repeat(param.maxLength + 1));
	if (param.format && param.format !== 'csv' && param.format !== 'idOrIdentifier') {
		return text(['not valid', '1e3', '//x']);
	}
	if (set?.closed) return text(['Q', 'Nope']);
	return undefined;
}

/** Parameters of a request: each absent or valid, and at most one made invalid or left out on purpose. */
function requestParams(operation: OperationName): fc.Arbitrary<AnyParams> {
	const entries = OPERATIONS[operation].params
		.filter((p) => p.role === undefined)
		.map((p) => {
			const bad = invalidValue(p);
			const choice = bad
				? fc.oneof({ weight: 4, arbitrary: validValue(operation, p) }, { weight: 1, arbitrary: bad })
				: validValue(operation, p);
			return [p.name, fc.option(choice, { freq: 2, nil: undefined })] as const;
		});
	return fc.record(Object.fromEntries(entries) as Record<string, fc.Arbitrary<ParamValue | undefined>>);
}

describe('integration: the client and the sandbox agree on the parameter rules (fast-check)', function () {
	this.timeout(600_000);
	let emulator: RunningEmulator;

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		emulator = await startSandbox({ size: 'small' });
	});
	after(() => emulator?.stop());

	const credentials = (): AnyParams => ({
		sAPIKey: emulator.demo.apiKey,
		sUsername: emulator.demo.username,
		sPassword: emulator.demo.password,
		sCultureID: 'en-GB',
	});

	for (const binding of BINDING_NAMES) {
		for (const operation of OPERATION_NAMES) {
			it(`${binding} ${operation}`, async () => {
				await fc.assert(
					fc.asyncProperty(requestParams(operation), async (generated) => {
						const params = { ...filterKnown(operation, credentials()), ...dropUndefined(generated) };
						const issues = validateParams(operation, params);
						const fault = await sandboxFault(emulator, binding, operation, params);
						if (issues.length === 0) {
							if (
								fault &&
								FORM_SUBCODES.has(fault.subcode ?? '') &&
								!DATA_REFUSALS.some((r) => r.test(fault.message))
							) {
								assert.fail(
									`the client accepts ${JSON.stringify(params)} but the sandbox refused it: ${fault.message}`,
								);
							}
						} else {
							assert.ok(fault, `the client refuses (${issues[0].message}) but the sandbox answered`);
							assert.equal(fault.message, issues[0].message);
							if (binding === 'soap11' || binding === 'soap12') {
								assert.equal(fault.subcode, issues[0].subcode);
							}
						}
					}),
					{ numRuns: RUNS },
				);
			});
		}
	}
});

function filterKnown(operation: OperationName, params: AnyParams): AnyParams {
	const names = new Set(OPERATIONS[operation].params.map((p) => p.name));
	return Object.fromEntries(Object.entries(params).filter(([name]) => names.has(name)));
}

function dropUndefined(params: AnyParams): AnyParams {
	return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
}

/** Sends the request as the binding encodes it (no client-side validation) and returns the fault, if any. */
async function sandboxFault(
	emulator: RunningEmulator,
	binding: BindingName,
	operation: OperationName,
	params: AnyParams,
): Promise<{ message: string; subcode?: string } | undefined> {
	const codec = getBinding(binding);
	const ctx: CodecContext = {
		namespace: emulator.namespace,
		endpointPath: new URL(OPERATIONS[operation].endpoint === 'posting' ? emulator.postingUrl : emulator.adminUrl)
			.pathname,
	};
	const request = codec.encodeRequest(operation, params, ctx);
	const response = await fetch(`${emulator.baseUrl}${request.path}`, {
		method: request.method,
		headers: request.headers,
		body: request.method === 'POST' ? Buffer.from(request.body) : undefined,
	});
	const body = new Uint8Array(await response.arrayBuffer());
	const headers = Object.fromEntries(response.headers.entries());
	const decoded = codec.decodeResponse(operation, { status: response.status, headers, body }, ctx);
	return decoded.ok ? undefined : decoded.fault;
}
