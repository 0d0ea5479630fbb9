/** Shared helpers of the server tests: fake handlers and raw HTTP requests. */
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { OPERATIONS, type AnyParams, type OperationName } from '../../../src/protocol/catalogue';
import { FaultError } from '../../../src/protocol/faults';
import type { OperationHandlers } from '../../../src/emulator/domain/handlers';

export const API_KEY = 'test-key';

/** Calls seen by the fake handlers, newest last. */
export interface Recorded {
	operation: string;
	params: AnyParams;
}

function notImplemented(name: string): () => never {
	return () => {
		throw FaultError.client('InvalidParameter', `${name} is not part of this test.`);
	};
}

function checkKey(params: AnyParams): void {
	if (params['sAPIKey'] === undefined) throw FaultError.client('MissingParameter', 'Missing parameter: sAPIKey.');
	if (params['sAPIKey'] !== API_KEY) throw FaultError.client('AuthenticationFailed', 'Invalid API key.');
}

/** Handlers with fixed answers for the operations the tests call; the rest fault. */
export function fakeHandlers(calls: Recorded[] = []): OperationHandlers {
	const handlers: Record<string, (params: AnyParams) => unknown> = {};
	const names = [
		'UserFeedsAndQuotaWithDestinations',
		'GetAdvertWithValuesPaged',
		'GetAdvertWithValues',
		'GetAdvertPaged',
		'ExpressPostAdvert',
		'AddAdvert',
		'AdvertTrackingResponseLog',
		'CandidateTagPartner',
		'CandidateTag',
		'QueryJobTitle',
		'GetLoginURL',
		'GetCurrency',
		'ApplicationScore',
		'AddAdvertCandidateNote',
		'ApplicationProgress',
		'GetApplicationsPaged',
		'UserList',
		'FeedQuotaList',
		'GetWeeksToAdvertise',
		'FeedList',
	];
	for (const name of names) handlers[name] = notImplemented(name);
	const record =
		(operation: string, fn: (params: AnyParams) => unknown) =>
		(params: AnyParams): unknown => {
			calls.push({ operation, params });
			return fn(params);
		};
	handlers.GetCurrency = record('GetCurrency', (params) => {
		checkKey(params);
		return [
			{
				CultureID: 'en',
				Description: 'Pound sterling',
				FieldID: 7,
				OrganisationID: 0,
				SortOrder: 1,
				Value: 'GBP',
			},
			{ CultureID: 'en', Description: 'Euro', FieldID: 7, OrganisationID: 0, SortOrder: 2, Value: 'EUR' },
		];
	});
	handlers.GetWeeksToAdvertise = record('GetWeeksToAdvertise', (params) => {
		checkKey(params);
		return [{ CultureID: 'en', Description: '1 week', FieldID: 9, OrganisationID: 0, SortOrder: 1, Value: '1' }];
	});
	handlers.ApplicationScore = record('ApplicationScore', (params) => {
		checkKey(params);
		if (params['sUsername'] !== 'demo' || params['sPassword'] !== 'secret-pw') {
			throw FaultError.client('AuthenticationFailed', 'Invalid username or password.');
		}
		if (!['S', 'M', 'U', 'F', 'N'].includes(String(params['sScore']))) {
			throw FaultError.client('InvalidParameter', 'sScore must be S, M, U, F or N.');
		}
		return { Success: true };
	});
	handlers.GetApplicationsPaged = record('GetApplicationsPaged', (params) => {
		checkKey(params);
		if (params['sAdvertID'] === undefined) {
			throw FaultError.client('MissingFilter', 'At least one search filter must be given.');
		}
		return { PageCount: 1, PageIndex: 1, TotalItemCount: 0, Applications: [] };
	});
	handlers.FeedList = record('FeedList', () => {
		throw new Error('database exploded at /secret/path');
	});
	return handlers as unknown as OperationHandlers;
}

export interface RawResponse {
	status: number;
	headers: IncomingHttpHeaders;
	body: string;
}

export interface RawRequest {
	method?: string;
	headers?: Record<string, string | number>;
	body?: string | Buffer;
	agent?: Agent;
}

/** One HTTP request with exactly the given method, headers and body; resolves with the whole answer. */
export function send(url: string, options: RawRequest = {}): Promise<RawResponse> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			url,
			{ method: options.method ?? 'GET', headers: options.headers, agent: options.agent },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(chunks).toString('utf8'),
					}),
				);
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(options.body);
	});
}

/** A SOAP 1.1 or 1.2 envelope around an operation element in namespace `ns`. */
export function envelope(version: '1.1' | '1.2', operation: string, ns: string, inner: string): string {
	const env =
		version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${env}"><soap:Body><${operation} xmlns="${ns}">${inner}</${operation}></soap:Body></soap:Envelope>`;
}

/**
 * GET query or POST form text with every field of the operation (empty unless given), as ASMX
 * requires and ASMX-generated clients send.
 */
export function allFields(operation: OperationName, given: Record<string, string> = {}): string {
	const fields = new URLSearchParams();
	for (const param of OPERATIONS[operation].params) {
		if (param.type !== 'string[]' || given[param.name] !== undefined) {
			fields.set(param.name, given[param.name] ?? '');
		}
	}
	return fields.toString();
}
