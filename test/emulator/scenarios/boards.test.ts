import * as assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../../src/emulator';
import { createClock, type EmulatorClock } from '../../../src/emulator/delivery/clock';
import { DeliveryScheduler, type DeliveryEvent } from '../../../src/emulator/delivery/scheduler';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ScenarioEngine } from '../../../src/emulator/scenarios/engine';
import { libraryScenario } from '../../../src/emulator/scenarios/library';
import { BINDING_NAMES } from '../../../src/protocol/bindings/types';
import { DELIVERY_STATUS } from '../../../src/protocol/catalogue';
import { clientFor } from '../../integration/support';

const START = new Date(Date.UTC(2026, 10, 2, 9, 0, 0));

describe('scenario library: board-rejects-deliveries', () => {
	let sandbox: Sandbox;
	let clock: EmulatorClock;
	let engine: ScenarioEngine;
	let scheduler: DeliveryScheduler;
	let emulator: RunningEmulator;
	const events: DeliveryEvent[] = [];

	before(async () => {
		sandbox = openSandbox({
			dataDir: ':memory:',
			passwordCost: 1024,
			now: START,
			demoSize: { adverts: 10, applications: 20 },
		});
		clock = createClock({ mode: 'manual', start: START });
		engine = new ScenarioEngine();
		scheduler = new DeliveryScheduler(sandbox.store, clock, {
			flakyFeedIds: [],
			boards: engine,
			onDelivery: (event) => events.push(event),
		});
		scheduler.start();
		// The same sandbox over HTTP, to read the tracking log as clients do.
		emulator = await startEmulator({ handlers: sandbox.handlers });
	});
	after(async () => {
		await emulator.stop();
		scheduler.stop();
		clock.stop();
		sandbox.close();
	});

	it('Reed rejects every delivery and Monster never answers, until the scenario is off', async () => {
		engine.activate(libraryScenario('board-rejects-deliveries')!);
		const [indeed, reed, monster] = sandbox.store.transaction(() =>
			scheduler.enqueue(1, 1, [101, 103, 105], clock.now()),
		);
		clock.advance(60_000);
		assert.equal(sandbox.store.postings.byId(indeed)!.deliveryStatusId, DELIVERY_STATUS.Delivered);
		assert.equal(sandbox.store.postings.byId(reed)!.deliveryStatusId, DELIVERY_STATUS.Failed);
		assert.equal(sandbox.store.postings.byId(monster)!.deliveryStatusId, DELIVERY_STATUS.Pending);
		assert.equal(
			events.find((event) => event.postingId === reed)?.injected,
			'board-rejects-deliveries/reed-rejects',
		);

		for (const binding of BINDING_NAMES) {
			const client = clientFor({ ...emulator, demo: sandbox.demo }, { binding });
			const logs = (await client.advertTrackingResponseLog({ sAdvertID: '1' })) as {
				PostingID: number;
				ErrorLevel: string;
				Response: string;
			}[];
			await client.close();
			const last = (postingId: number) => logs.filter((log) => log.PostingID === postingId).at(-1);
			assert.deepEqual(
				[last(reed)?.ErrorLevel, last(reed)?.Response],
				['Error', 'Rejected: location could not be mapped to a board region.'],
				binding,
			);
			assert.equal(last(monster)?.ErrorLevel, 'Pending', binding);
		}

		engine.deactivate();
		clock.advance(1_000);
		assert.equal(
			sandbox.store.postings.byId(monster)!.deliveryStatusId,
			DELIVERY_STATUS.Delivered,
			'the board answers again',
		);
	});
});
