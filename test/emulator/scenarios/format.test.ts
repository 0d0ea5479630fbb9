import * as assert from 'node:assert/strict';
import { parseScenario, readScenario, ScenarioFormatError } from '../../../src/emulator/scenarios/format';
import { loadScenario, SCENARIO_LIBRARY } from '../../../src/emulator/scenarios/library';

function problem(data: unknown, source = 'ci/down.json'): string {
	try {
		readScenario(data, source);
	} catch (error) {
		assert.ok(error instanceof ScenarioFormatError);
		return error.message;
	}
	assert.fail('the scenario was accepted');
}

const rule = (extra: Record<string, unknown>) => ({ name: 'r', effect: { kind: 'reset' }, ...extra });

describe('scenario format', () => {
	it('reads a scenario with every kind of condition and fills the defaults', () => {
		const scenario = parseScenario(
			JSON.stringify({
				name: 'mixed',
				rules: [
					{
						name: 'third-get',
						match: {
							operations: ['GetAdvertPaged'],
							bindings: ['httpGet'],
							endpoints: ['posting'],
							params: { sAdvertID: 12, DestinationsAsCSV: ['101', '103'] },
							share: 0.5,
							calls: { from: 3, to: 3 },
							window: { fromMs: 0, toMs: 60000 },
						},
						latency: { minMs: 10, maxMs: 20 },
						effect: { kind: 'fault', code: 'Server', subcode: 'InternalError', message: 'Down.' },
					},
				],
			}),
			'mixed.json',
		);
		assert.equal(scenario.title, 'mixed');
		assert.equal(scenario.seed, 1);
		assert.equal(scenario.source, 'mixed.json');
		assert.deepEqual(scenario.rules[0].match.params, { sAdvertID: '12', DestinationsAsCSV: ['101', '103'] });
		assert.deepEqual(scenario.rules[0].latency, {
			ms: undefined,
			minMs: 10,
			maxMs: 20,
			where: 'answer',
			chunks: undefined,
		});
		assert.equal(scenario.rules[0].afterCommit, false);
	});

	it('names the file, the rule and the field of a mistake', () => {
		assert.equal(
			problem({ name: 'down', rules: [rule({ name: 'slow', match: { share: 2 } })] }),
			'ci/down.json: rule "slow" (rules[0]), field match.share: must be a number from 0 to 1.',
		);
		assert.equal(
			problem({ name: 'down', rules: [rule({ match: { operations: ['GetAdverts'] } })] }),
			'ci/down.json: rule "r" (rules[0]), field match.operations: "GetAdverts" is not one of ' +
				'UserFeedsAndQuotaWithDestinations, GetAdvertWithValuesPaged, GetAdvertWithValues, GetAdvertPaged, ExpressPostAdvert, AddAdvert, AdvertTrackingResponseLog, CandidateTagPartner, CandidateTag, QueryJobTitle, GetLoginURL, GetCurrency, ApplicationScore, AddAdvertCandidateNote, ApplicationProgress, GetApplicationsPaged, UserList, FeedQuotaList, GetWeeksToAdvertise, FeedList.',
		);
		assert.match(
			problem({ name: 'down', rules: [{ name: 'x', effect: { kind: 'explode' } }] }),
			/rule "x" \(rules\[0\]\), field effect\.kind: must be one of fault, unavailable/,
		);
		assert.match(
			problem({ name: 'down', rules: [{ name: 'x', effect: { kind: 'fault', code: 'Server' } }] }),
			/field effect\.message: is missing/,
		);
		assert.match(
			problem({ name: 'down', rules: [rule({ lag: 3 })] }),
			/rule "r" \(rules\[0\]\), field lag: is not a known field/,
		);
		assert.match(
			problem({ name: 'Down Now', rules: [rule({})] }),
			/^ci\/down\.json: field name: "Down Now" is not allowed/,
		);
		assert.match(problem({ name: 'down', rules: [] }), /field rules: must be a list of 1 to 100 rules/);
		assert.match(problem({ name: 'down', rules: [{ name: 'x' }] }), /a rule needs an effect, a latency or both/);
		assert.match(problem({ name: 'down', rules: [rule({}), rule({})] }), /rules\[1\]: name "r" is used twice/);
		assert.match(
			problem({ name: 'down', rules: [{ name: 'x', latency: { ms: 5 }, afterCommit: true }] }),
			/field afterCommit: applies only to the effects fault, unavailable, reset, empty, truncated and garbage/,
		);
		assert.match(
			problem({ name: 'down', rules: [rule({ latency: { ms: 5, minMs: 1, maxMs: 2 } })] }),
			/give ms or a range/,
		);
	});

	it('says where the JSON is broken', () => {
		assert.throws(
			() => parseScenario('{"name": ', 'broken.json'),
			/^ScenarioFormatError: broken\.json: not valid JSON/,
		);
	});

	it('ships the seven library scenarios, each with what it does and what a client should do', () => {
		assert.deepEqual(
			SCENARIO_LIBRARY.map((scenario) => scenario.name),
			[
				'slow-service',
				'service-down',
				'flaky-network',
				'quota-exhausted-on-one-board',
				'board-rejects-deliveries',
				'burst-of-applications',
				'expired-login-link',
			],
		);
		for (const scenario of SCENARIO_LIBRARY) {
			assert.ok(scenario.description.length > 40, scenario.name);
			assert.ok(scenario.expectation.length > 40, scenario.name);
		}
	});

	it('loads a library scenario by name and says what exists when a file is missing', () => {
		assert.equal(loadScenario('service-down').name, 'service-down');
		assert.throws(
			() => loadScenario('no-such.json'),
			/no-such\.json: no such scenario file, and no library scenario of that name \(library: slow-service, /,
		);
	});
});
