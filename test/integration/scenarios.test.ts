/**
 * Failure scenarios against a real sandbox: each shipped scenario as a client of each binding meets
 * it (and node-soap, a third-party SOAP stack, for the faults), injected faults byte for byte the
 * service's own, the marks, and that an injected failure leaves the data alone.
 */
import * as assert from 'node:assert/strict';
import * as soap from 'soap';
import {
	HttpStatusError,
	MultipostingError,
	NetworkError,
	SoapFaultError,
	TimeoutError,
	UnexpectedResponseError,
} from '../../src/client';
import type { AccessLogEntry, RunningEmulator } from '../../src/emulator';
import { readScenario } from '../../src/emulator/scenarios/format';
import { libraryScenario } from '../../src/emulator/scenarios/library';
import { getBinding } from '../../src/protocol/bindings';
import { BINDING_NAMES, type BindingName } from '../../src/protocol/bindings/types';
import { DEFAULT_ENDPOINT_PATHS, type AnyParams, type OperationName } from '../../src/protocol/catalogue';
import { clientFor, rawRequest, SANDBOX_START_TIMEOUT_MS, startSandbox, type RawResponse } from './support';

const ALL_TIME = '-1';
/** A date as the dateTime parameters take it. */
const stamp = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ');

describe('integration: failure scenarios', function () {
	this.timeout(30_000);
	let emulator: RunningEmulator;
	const log: AccessLogEntry[] = [];

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		emulator = await startSandbox({ size: 'small', passwordCost: 1024, logger: (entry) => log.push(entry) });
	});
	afterEach(() => emulator.scenarios.deactivate());
	after(() => emulator?.stop());

	const on = (name: string): void => emulator.scenarios.activate(libraryScenario(name)!);
	const custom = (rules: unknown[], name = 'custom'): void =>
		emulator.scenarios.activate(readScenario({ name, rules }, `${name}.json`));

	/** A live advert that was posted to Indeed (101): ExpressPostAdvert to it meets Indeed's quota. */
	let postedToIndeed: string | undefined;
	async function advertPostedToIndeed(): Promise<string> {
		if (postedToIndeed) return postedToIndeed;
		const client = clientFor(emulator, { binding: 'soap11' });
		const page = await client.getAdvertPaged({ sSearchDays: ALL_TIME, CurrentPage: 1, RowsPerPage: 200 });
		for (const advert of page.Adverts ?? []) {
			if (advert.AdvertStatusID !== 0 || advert.LastPostDate === undefined) continue;
			const log = await client.advertTrackingResponseLog({ sAdvertID: String(advert.AdvertID) });
			if (log.some((row) => row.FeedID === 101)) return (postedToIndeed = String(advert.AdvertID));
		}
		throw new Error('the seed has no live advert posted to Indeed');
	}

	/** One call over raw HTTP, encoded by the binding as a client would send it. */
	function raw(binding: BindingName, operation: OperationName, params: AnyParams): Promise<RawResponse> {
		const endpoint = operation === 'FeedQuotaList' || operation === 'UserList' ? 'administration' : 'posting';
		const encoded = getBinding(binding).encodeRequest(operation, params, {
			namespace: emulator.namespace,
			endpointPath: DEFAULT_ENDPOINT_PATHS[endpoint],
		});
		return rawRequest(emulator.baseUrl + encoded.path, {
			method: encoded.method,
			headers: encoded.headers,
			body: encoded.body.byteLength > 0 ? encoded.body : undefined,
		});
	}

	/** The Fault element node-soap (a third-party SOAP stack) reads from a posting call that fails. */
	async function soapFault(soap12: boolean, operation: string, args: AnyParams): Promise<Record<string, unknown>> {
		type Port = Record<string, (args: AnyParams, done: (error: unknown) => void) => void>;
		const client = await soap.createClientAsync(emulator.postingWsdl, { forceSoap12Headers: soap12 });
		const port = client.Posting[soap12 ? 'PostingSoap12' : 'PostingSoap'] as Port;
		const error = await new Promise<{ root?: { Envelope?: { Body?: { Fault?: Record<string, unknown> } } } }>(
			(resolve) => port[operation](args, (err) => resolve(err as never)),
		);
		const fault = error?.root?.Envelope?.Body?.Fault;
		assert.ok(fault, `node-soap saw no fault from ${operation}`);
		return fault;
	}

	/** The mark of the first injected request logged after `index`; a dropped connection is logged once it closes. */
	async function injectedSince(index: number): Promise<string | undefined> {
		for (let wait = 0; wait < 200; wait++) {
			const entry = log.slice(index).find((line) => line.injected !== undefined);
			if (entry) return entry.injected;
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		return undefined;
	}

	async function failure(promise: Promise<unknown>): Promise<MultipostingError> {
		try {
			await promise;
		} catch (error) {
			assert.ok(error instanceof MultipostingError, String(error));
			return error;
		}
		assert.fail('the call succeeded');
	}

	describe("injected faults look exactly like the service's own", () => {
		for (const binding of BINDING_NAMES) {
			it(`${binding}: the same status, content type and bytes as a real authentication fault`, async () => {
				const params = { sCultureID: 'en', sAPIKey: 'no-such-key' };
				const real = await raw(binding, 'GetCurrency', params);
				assert.equal(real.status, 500);
				const fault = (await failure(
					clientFor(emulator, { binding, credentials: { apiKey: 'no-such-key' } }).getCurrency({
						sCultureID: 'en',
					}),
				)) as SoapFaultError;
				custom([
					{
						name: 'auth',
						effect: {
							kind: 'fault',
							code: fault.fault.code,
							subcode: fault.fault.subcode,
							message: fault.fault.message,
						},
					},
				]);
				const injected = await raw(binding, 'GetCurrency', { sCultureID: 'en', sAPIKey: emulator.demo.apiKey });
				assert.equal(injected.status, real.status);
				assert.equal(injected.headers['content-type'], real.headers['content-type']);
				assert.equal(injected.body, real.body);
				assert.equal(injected.headers['x-sandbox-injected'], 'custom/auth');
				assert.equal(real.headers['x-sandbox-injected'], undefined);
			});
		}

		it('node-soap reads an injected Server fault as soap:Server with its text, over SOAP 1.1 and 1.2', async () => {
			custom([
				{
					name: 'boom',
					effect: { kind: 'fault', code: 'Server', message: 'Server was unable to process request.' },
				},
			]);
			for (const soap12 of [false, true]) {
				const fault = await soapFault(soap12, 'GetCurrency', {
					sCultureID: 'en',
					sAPIKey: emulator.demo.apiKey,
				});
				if (soap12) {
					assert.match((fault.Code as { Value: string }).Value, /:Receiver$/);
					assert.equal(JSON.stringify(fault.Reason).includes('Server was unable to process request.'), true);
				} else {
					assert.equal(fault.faultcode, 'soap:Server');
					assert.equal(fault.faultstring, 'Server was unable to process request.');
				}
			}
		});
	});

	describe('library: service-down', () => {
		for (const binding of BINDING_NAMES) {
			it(`${binding}: 503 with Retry-After and IIS's page, marked as injected`, async () => {
				on('service-down');
				const error = await failure(clientFor(emulator, { binding }).getCurrency({ sCultureID: 'en' }));
				assert.ok(error instanceof HttpStatusError || error instanceof UnexpectedResponseError, error.message);
				assert.equal((error as HttpStatusError).status, 503);
				const answer = await raw(binding, 'GetCurrency', { sCultureID: 'en', sAPIKey: emulator.demo.apiKey });
				assert.equal(answer.status, 503);
				assert.equal(answer.headers['retry-after'], '120');
				assert.equal(answer.headers['content-type'], 'text/html; charset=us-ascii');
				assert.match(answer.body, /HTTP Error 503\. The service is unavailable\./);
				assert.equal(answer.headers['x-sandbox-injected'], 'service-down/unavailable');
				assert.equal(log.at(-1)?.injected, 'service-down/unavailable: unavailable');
			});
		}
	});

	describe('library: slow-service', () => {
		for (const binding of BINDING_NAMES) {
			it(`${binding}: a client whose timeout is below the delay times out`, async () => {
				on('slow-service');
				const error = await failure(
					clientFor(emulator, { binding, timeoutMs: 300 }).getCurrency({ sCultureID: 'en' }),
				);
				assert.ok(error instanceof TimeoutError, error.message);
			});
		}

		it('a read trickling in chunks still arrives whole, marked', async () => {
			custom([{ name: 'trickle', latency: { ms: 50, where: 'chunks', chunks: 3 } }]);
			const answer = await raw('httpGet', 'GetCurrency', { sCultureID: 'en', sAPIKey: emulator.demo.apiKey });
			assert.equal(answer.status, 200);
			assert.match(answer.body, /<\/ArrayOfGetValue>\s*$/);
			assert.equal(answer.headers['x-sandbox-injected'], 'custom/trickle');
		});
	});

	describe('library: flaky-network', () => {
		const expected: Record<string, (error: MultipostingError) => boolean> = {
			'flaky-network/reset': (error) => error instanceof NetworkError,
			'flaky-network/empty': (error) => error instanceof NetworkError,
			'flaky-network/cut-off': (error) =>
				error instanceof NetworkError ||
				(error instanceof UnexpectedResponseError && error.reason === 'TRUNCATED'),
			'flaky-network/not-xml': (error) => error instanceof UnexpectedResponseError,
		};
		for (const binding of BINDING_NAMES) {
			it(`${binding}: resets, empty answers, cut-off bodies and non-XML bytes, each as the client meets it`, async () => {
				on('flaky-network');
				const client = clientFor(emulator, { binding, timeoutMs: 5_000 });
				const seen = new Set<string>();
				for (let i = 0; i < 80 && seen.size < 4; i++) {
					const before = log.length;
					try {
						await client.getCurrency({ sCultureID: 'en' });
					} catch (error) {
						assert.ok(error instanceof MultipostingError);
						const mark = (await injectedSince(before))?.split(':')[0];
						assert.ok(mark && expected[mark], `a failure without a known mark: ${error.message}`);
						assert.ok(expected[mark](error), `${mark} gave ${error.name}: ${error.message}`);
						seen.add(mark);
					}
				}
				await client.close();
				assert.deepEqual([...seen].sort(), Object.keys(expected).sort());
			});
		}
	});

	describe('library: quota-exhausted-on-one-board', () => {
		for (const binding of BINDING_NAMES) {
			it(`${binding}: Indeed shows its quota used up and ExpressPostAdvert to it is a QuotaExceeded Client fault`, async () => {
				on('quota-exhausted-on-one-board');
				const client = clientFor(emulator, { binding });
				const feeds = (await client.userFeedsAndQuotaWithDestinations({})) as Record<string, unknown>[];
				const indeed = feeds.find((feed) => feed.FeedID === 101)!;
				assert.ok(indeed, 'the demo administrator has Indeed');
				assert.equal(indeed.PostingsUsed, indeed.EffectiveQuota);
				const error = await failure(
					client.expressPostAdvert({
						sAdvertID: await advertPostedToIndeed(),
						DestinationsAsCSV: '101',
						sSearchDays: ALL_TIME,
					}),
				);
				assert.ok(error instanceof SoapFaultError, error.message);
				assert.match(error.fault.message, /posting quota of the advert's owner is used up for Indeed/);
				if (binding.startsWith('soap')) assert.equal(error.fault.subcode, 'QuotaExceeded');
				assert.equal(error.fault.code, binding.startsWith('soap') ? 'Client' : error.fault.code);
			});
		}

		it("is one state everywhere: the service's own QuotaExceeded words, the completion page, marked, and nothing stored", async () => {
			const client = clientFor(emulator, { binding: 'soap11' });
			const before = (await client.userFeedsAndQuotaWithDestinations({})) as Record<string, unknown>[];
			const created = await client.addAdvert({
				sAdvertIdentifier: `QUOTA-${Date.now()}`,
				sJobTitle: 'Quota tester',
				sPrimaryLocation: 'Leeds',
				sJobType: 'P',
				DestinationsAsCSV: '101',
			});
			on('quota-exhausted-on-one-board');
			const page = await rawRequest(created.RedirectUrl!);
			assert.equal(page.status, 200);
			const quota = String(before.find((feed) => feed.FeedID === 101)!.EffectiveQuota);
			assert.match(page.body, new RegExp(`Indeed[\\s\\S]*?Quota: ${quota} of ${quota} postings used, 0 left`));
			// Without sUsername: it would narrow the search to the demo administrator's own adverts.
			const express = await raw('soap11', 'ExpressPostAdvert', {
				sAPIKey: emulator.demo.apiKey,
				sAdvertID: await advertPostedToIndeed(),
				DestinationsAsCSV: '101',
				sSearchDays: ALL_TIME,
			});
			assert.equal(express.status, 500);
			assert.match(
				express.body,
				new RegExp(`used up for Indeed \\(${quota} of ${quota} used\\); nothing was posted`),
			);
			assert.equal(express.headers['x-sandbox-injected'], 'quota-exhausted-on-one-board/indeed-used-up');
			emulator.scenarios.deactivate();
			const after = (await client.userFeedsAndQuotaWithDestinations({})) as Record<string, unknown>[];
			assert.deepEqual(after, before, 'the stored quota use is untouched');
		});

		it('node-soap meets the QuotaExceeded fault as soap:Client', async () => {
			const sAdvertID = await advertPostedToIndeed();
			on('quota-exhausted-on-one-board');
			const fault = await soapFault(false, 'ExpressPostAdvert', {
				sAPIKey: emulator.demo.apiKey,
				sCultureID: 'en',
				sAdvertID,
				DestinationsAsCSV: '101',
				sSearchDays: ALL_TIME,
			});
			assert.equal(fault.faultcode, 'soap:Client');
			assert.match(String(fault.faultstring), /used up for Indeed/);
		});
	});

	describe('library: expired-login-link', () => {
		it('a fresh login link answers 410 and stays unused', async () => {
			const client = clientFor(emulator, { binding: 'soap11' });
			const { RedirectUrl: url } = (await client.getLoginURL({ returnUrl: '/web/' })) as { RedirectUrl: string };
			on('expired-login-link');
			const expired = await rawRequest(url);
			assert.equal(expired.status, 410);
			assert.match(expired.body, /Login link used or expired/);
			assert.equal(expired.headers['x-sandbox-injected'], 'expired-login-link/all-links-expired');
			assert.equal(log.at(-1)?.injected, 'expired-login-link/all-links-expired');
			emulator.scenarios.deactivate();
			const works = await rawRequest(url);
			assert.equal(works.status, 303, 'the token was not spent by the injected answer');
		});
	});

	describe('library: burst-of-applications', () => {
		it('50 applications arrive when it is turned on', async () => {
			const client = clientFor(emulator, { binding: 'httpGet' });
			const count = async () =>
				(
					(await client.getApplicationsPaged({
						sApplicationStartDateTime: stamp(new Date(Date.now() - 60_000)),
						sApplicationEndDateTime: stamp(new Date(Date.now() + 60_000)),
						CurrentPage: 1,
						RowsPerPage: 1,
					})) as { TotalItemCount: number }
				).TotalItemCount;
			const before = await count();
			on('burst-of-applications');
			emulator.scenarios.deactivate();
			assert.equal((await count()) - before, 50);
		});
	});

	describe('data safety', () => {
		const scoreOf = async (applicationId: number): Promise<unknown> => {
			const page = (await clientFor(emulator, { binding: 'soap11' }).getApplicationsPaged({
				AdvertCandidateIDAsCSV: String(applicationId),
				sApplicationStartDateTime: '2000-01-01 00:00:00',
				sApplicationEndDateTime: stamp(new Date(Date.now() + 86_400_000)),
				CurrentPage: 1,
				RowsPerPage: 1,
			})) as { Applications?: { Ranking?: unknown; AdvertID: number; AdvertCandidateID: number }[] };
			return page.Applications?.[0];
		};

		it('a write answered with an injected failure has no effect; after commit, it happened and the answer was lost', async () => {
			const client = clientFor(emulator, { binding: 'soap11' });
			const application = (await scoreOf(1)) as {
				AdvertID: number;
				AdvertCandidateID: number;
				Ranking?: unknown;
			};
			assert.ok(application, 'the seed has application 1');
			const score = (value: string) =>
				client.applicationScore({
					sAdvertID: String(application.AdvertID),
					sAdvertCandidateID: String(application.AdvertCandidateID),
					sScore: value,
					sScoreAsJobOwner: false,
				});
			const ranking = async () => ((await scoreOf(1)) as { Ranking?: unknown }).Ranking;
			const original = await ranking();
			const [next, nextRanking] = original === 'Suitable' ? ['U', 'Unsuitable'] : ['S', 'Suitable'];

			for (const kind of ['fault', 'unavailable', 'reset', 'empty', 'garbage']) {
				const effect =
					kind === 'fault'
						? { kind, code: 'Server', message: 'Server was unable to process request.' }
						: { kind };
				custom([{ name: 'lost', match: { operations: ['ApplicationScore'] }, effect }]);
				await failure(score(next));
				assert.equal(await ranking(), original, `${kind}: nothing was written`);
			}

			// A cut-off answer needs the real one, so it never applies to a write unless after commit.
			custom([{ name: 'cut', match: { operations: ['ApplicationScore'] }, effect: { kind: 'truncated' } }]);
			const before = log.length;
			await score(next);
			assert.equal(await ranking(), nextRanking);
			assert.equal(
				log.slice(before).find((entry) => entry.operation === 'ApplicationScore')?.injected,
				undefined,
			);

			custom([
				{
					name: 'lost',
					match: { operations: ['ApplicationScore'] },
					effect: { kind: 'reset' },
					afterCommit: true,
				},
			]);
			assert.ok((await failure(score(original === 'Suitable' ? 'S' : 'U'))) instanceof NetworkError);
			assert.equal(
				await ranking(),
				original === 'Suitable' ? 'Suitable' : 'Unsuitable',
				'the write happened, the answer was lost',
			);
			assert.equal(
				log.filter((entry) => entry.operation === 'ApplicationScore').at(-1)?.injected,
				'custom/lost: reset, after commit',
			);
		});
	});
});
