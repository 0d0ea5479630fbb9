import * as assert from 'node:assert/strict';
import { ScenarioEngine, type ScenarioRequest } from '../../../src/emulator/scenarios/engine';
import { readScenario } from '../../../src/emulator/scenarios/format';

const GET: ScenarioRequest = {
	operation: 'GetAdvertPaged',
	binding: 'soap11',
	endpoint: 'posting',
	params: { sAdvertID: 12 },
};
const WRITE: ScenarioRequest = { operation: 'ApplicationScore', binding: 'httpPost', endpoint: 'posting', params: {} };

function engineWith(rules: unknown[], options: { now?: () => number; seed?: number } = {}): ScenarioEngine {
	const engine = new ScenarioEngine({ now: options.now });
	engine.activate(readScenario({ name: 'test', seed: options.seed, rules }, 'test.json'));
	return engine;
}

function marks(engine: ScenarioEngine, request: ScenarioRequest, times: number): (string | undefined)[] {
	return Array.from({ length: times }, () => engine.decide(request)?.failure?.kind);
}

describe('scenario engine', () => {
	it('matches operation, binding, endpoint and parameter values (a CSV item counts)', () => {
		const engine = engineWith([
			{
				name: 'one',
				match: { operations: ['GetAdvertPaged'], bindings: ['soap11'], params: { sAdvertID: ['11', '12'] } },
				effect: { kind: 'reset' },
			},
			{ name: 'csv', match: { params: { DestinationsAsCSV: '103' } }, effect: { kind: 'empty' } },
		]);
		assert.equal(engine.decide(GET)?.mark, 'test/one');
		assert.equal(engine.decide({ ...GET, binding: 'soap12' }), undefined);
		assert.equal(engine.decide({ ...GET, params: { sAdvertID: 13 } }), undefined);
		assert.equal(engine.decide({ ...WRITE, params: { DestinationsAsCSV: '101,103' } })?.mark, 'test/csv');
	});

	it('counts calls: the third only, or every second from the second', () => {
		assert.deepEqual(
			marks(
				engineWith([{ name: 'third', match: { calls: { from: 3, to: 3 } }, effect: { kind: 'reset' } }]),
				GET,
				5,
			),
			[undefined, undefined, 'reset', undefined, undefined],
		);
		assert.deepEqual(
			marks(
				engineWith([{ name: 'even', match: { calls: { from: 2, every: 2 } }, effect: { kind: 'reset' } }]),
				GET,
				5,
			),
			[undefined, 'reset', undefined, 'reset', undefined],
		);
	});

	it('draws a share of requests from the seed: the same seed, the same requests', () => {
		const rules = [{ name: 'some', match: { share: 0.3 }, effect: { kind: 'reset' } }];
		const first = marks(engineWith(rules, { seed: 42 }), GET, 200);
		const again = marks(engineWith(rules, { seed: 42 }), GET, 200);
		const other = marks(engineWith(rules, { seed: 43 }), GET, 200);
		assert.deepEqual(first, again);
		assert.notDeepEqual(first, other);
		const hits = first.filter(Boolean).length;
		assert.ok(hits > 30 && hits < 90, `about 30 % of 200, got ${hits}`);
	});

	it('applies a rule only within its time window since the scenario was turned on', () => {
		let now = 1_000_000;
		const engine = engineWith(
			[{ name: 'later', match: { window: { fromMs: 1000, toMs: 2000 } }, effect: { kind: 'reset' } }],
			{
				now: () => now,
			},
		);
		assert.equal(engine.decide(GET), undefined);
		now += 1500;
		assert.equal(engine.decide(GET)?.failure?.kind, 'reset');
		now += 600;
		assert.equal(engine.decide(GET), undefined);
	});

	it('throttles: N requests per interval pass, the rest get 503 with the seconds left', () => {
		let now = 5_000;
		const engine = engineWith([{ name: 'busy', effect: { kind: 'throttle', limit: 2, intervalMs: 10_000 } }], {
			now: () => now,
		});
		assert.equal(engine.decide(GET), undefined);
		assert.equal(engine.decide(GET), undefined);
		assert.deepEqual(engine.decide(GET)?.failure, { kind: 'unavailable', retryAfterSeconds: 10 });
		now += 10_000;
		assert.equal(engine.decide(GET), undefined);
	});

	it('never cuts off the answer of a write unless the rule says it fails after committing', () => {
		assert.equal(engineWith([{ name: 'cut', effect: { kind: 'truncated' } }]).decide(WRITE), undefined);
		assert.equal(
			engineWith([{ name: 'cut', effect: { kind: 'truncated' } }]).decide(GET)?.failure?.kind,
			'truncated',
		);
		const afterCommit = engineWith([{ name: 'cut', effect: { kind: 'truncated' }, afterCommit: true }]).decide(
			WRITE,
		);
		assert.equal(afterCommit?.failure?.kind, 'truncated');
		assert.equal(afterCommit?.afterCommit, true);
	});

	it('turns scenarios off one by one or all at once and lists what is on', () => {
		const changes: number[] = [];
		const engine = new ScenarioEngine({ onChange: (active) => changes.push(active.length) });
		engine.activate(readScenario({ name: 'a', rules: [{ name: 'r', effect: { kind: 'reset' } }] }, 'a.json'));
		engine.activate(readScenario({ name: 'b', rules: [{ name: 'r', latency: { ms: 5 } }] }, 'b.json'));
		engine.decide(GET);
		assert.deepEqual(
			engine.list().map((s) => [s.name, s.rules[0].effect, s.rules[0].injected]),
			[
				['a', 'reset', 1],
				['b', '5 ms delay', 0],
			],
		);
		assert.equal(engine.deactivate('a'), true);
		assert.equal(engine.deactivate('a'), false);
		assert.equal(engine.decide(GET)?.mark, 'b/r');
		assert.equal(engine.deactivate(), true);
		assert.equal(engine.isActive, false);
		assert.deepEqual(changes, [1, 2, 1, 0]);
	});
});
