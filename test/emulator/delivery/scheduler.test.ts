import * as assert from 'node:assert/strict';
import { DELIVERY_STATUS } from '../../../src/protocol/catalogue';
import { createClock, type EmulatorClock } from '../../../src/emulator/delivery/clock';
import { deliveryOutcome, DeliveryScheduler, type DeliveryEvent } from '../../../src/emulator/delivery/scheduler';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';

const START = new Date(Date.UTC(2026, 10, 2, 9, 0, 0));

describe('emulator delivery over time', () => {
	let sandbox: Sandbox;
	let clock: EmulatorClock;
	let scheduler: DeliveryScheduler;
	let events: DeliveryEvent[];

	beforeEach(() => {
		sandbox = openSandbox({
			dataDir: ':memory:',
			passwordCost: 1024,
			now: START,
			demoSize: { adverts: 10, applications: 20 },
		});
		clock = createClock({ mode: 'manual', start: START });
		events = [];
		scheduler = new DeliveryScheduler(sandbox.store, clock, {
			deliveryDelayMs: 3_000,
			flakyFeedIds: [108],
			seed: 7,
			onDelivery: (event) => events.push(event),
		});
		scheduler.start();
	});
	afterEach(() => {
		scheduler.stop();
		clock.stop();
		sandbox.close();
	});

	const enqueue = (feedIds: number[], postAt = clock.now()) =>
		sandbox.store.transaction(() => scheduler.enqueue(1, 1, feedIds, postAt));

	it('keeps postings pending until the delay has passed on the clock, then records the board answers', () => {
		const [indeed, totaljobs] = enqueue([101, 108]);
		assert.equal(sandbox.store.postings.byId(indeed)!.deliveryStatusId, DELIVERY_STATUS.Pending);
		clock.advance(2_999);
		assert.equal(events.length, 0);
		assert.equal(sandbox.store.postings.byId(indeed)!.deliveryStatusId, DELIVERY_STATUS.Pending);
		clock.advance(1);
		assert.deepEqual(
			events.map((event) => event.postingId),
			[indeed, totaljobs],
		);
		const posting = sandbox.store.postings.byId(indeed)!;
		assert.equal(posting.deliveryStatusId, DELIVERY_STATUS.Delivered);
		assert.equal(posting.deliveredAt, '2026-11-02T09:00:03Z');
		const expectedTotaljobs = deliveryOutcome(totaljobs, 108, 7, [108]);
		assert.equal(sandbox.store.postings.byId(totaljobs)!.deliveryStatusId, expectedTotaljobs.statusId);
		const logs = sandbox.store.postings.trackingLogs(1, indeed, undefined);
		assert.deepEqual(
			logs.slice(-2).map((log) => [log.errorLevel, log.deliveredAt]),
			[
				['Pending', '2026-11-02T09:00:00Z'],
				['None', '2026-11-02T09:00:03Z'],
			],
		);
		assert.match(logs[logs.length - 1].response, /^Delivered: job board reference \d{6}\.$/);
		const advert = sandbox.store.adverts.byId(1)!;
		assert.equal(advert.lastDeliveryDate, '2026-11-02T09:00:03Z');
		assert.equal(advert.lastDeliveryStatusId, expectedTotaljobs.statusId);
		clock.advance(60_000);
		assert.equal(events.length, 2, 'a posting is delivered once');
	});

	it('sends scheduled postings at their post date, not before', () => {
		const postAt = new Date(START.getTime() + 86_400_000);
		const [id] = enqueue([101], postAt);
		assert.match(
			sandbox.store.postings.trackingLogs(1, id, undefined)[0].response,
			/^Scheduled: goes out at 2026-11-03T09:00:00Z\.$/,
		);
		clock.advance(86_400_000);
		assert.equal(sandbox.store.postings.byId(id)!.deliveryStatusId, DELIVERY_STATUS.Pending);
		clock.advance(3_000);
		const posting = sandbox.store.postings.byId(id)!;
		assert.equal(posting.deliveryStatusId, DELIVERY_STATUS.Delivered);
		assert.equal(posting.postedAt, '2026-11-03T09:00:00Z');
		assert.equal(sandbox.store.adverts.byId(1)!.lastPostDate, '2026-11-03T09:00:00Z');
	});

	it('fails some deliveries of a flaky feed by a seeded rule, and never those of other feeds', () => {
		const flaky = enqueue(new Array<number>(30).fill(108));
		const steady = enqueue(new Array<number>(30).fill(101));
		clock.advance(3_000);
		const statuses = (ids: number[]) => ids.map((id) => sandbox.store.postings.byId(id)!.deliveryStatusId);
		const failed = statuses(flaky).filter((status) => status === DELIVERY_STATUS.Failed).length;
		assert.ok(failed > 0 && failed < 30, `${failed} of 30 failed`);
		assert.ok(statuses(steady).every((status) => status === DELIVERY_STATUS.Delivered));
		for (const id of flaky) {
			assert.equal(
				sandbox.store.postings.byId(id)!.deliveryStatusId,
				deliveryOutcome(id, 108, 7, [108]).statusId,
			);
		}
		const failure = sandbox.store.postings.trackingLogs(
			1,
			flaky.find((id) => sandbox.store.postings.byId(id)!.deliveryStatusId === DELIVERY_STATUS.Failed),
			undefined,
		);
		assert.equal(failure[failure.length - 1].errorLevel, 'Error');
		assert.deepEqual(deliveryOutcome(5, 108, 7, [108]), deliveryOutcome(5, 108, 7, [108]));
	});

	it('stops ticking once stopped', () => {
		enqueue([101]);
		scheduler.stop();
		clock.advance(10_000);
		assert.equal(events.length, 0);
		assert.equal(scheduler.deliverDue(), 1);
	});
});

describe('emulator clock', () => {
	it('moves a manual clock only on advance, from a whole second, and refuses negative steps', () => {
		const clock = createClock({ mode: 'manual', start: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 750)) });
		let ticks = 0;
		clock.onTick(() => ticks++);
		assert.equal(clock.now().toISOString(), '2026-01-01T00:00:00.000Z');
		clock.advance(1_500);
		assert.equal(clock.now().toISOString(), '2026-01-01T00:00:01.500Z');
		assert.equal(ticks, 1);
		assert.throws(() => clock.advance(-1), RangeError);
		clock.stop();
		clock.advance(1);
		assert.equal(ticks, 1);
	});

	it('keeps running the other listeners when one throws', () => {
		const errors: unknown[] = [];
		const clock = createClock({ mode: 'manual', onError: (error) => errors.push(error) });
		let ran = false;
		clock.onTick(() => {
			throw new Error('boom');
		});
		clock.onTick(() => {
			ran = true;
		});
		clock.advance(1);
		assert.ok(ran);
		assert.equal(errors.length, 1);
	});

	it('refuses to advance a real clock and rejects a bad speed', () => {
		const clock = createClock({ mode: 'real', speed: 60 });
		assert.throws(() => clock.advance(1), /Only a manual clock/);
		clock.stop();
		assert.throws(() => createClock({ mode: 'real', speed: 0 }), RangeError);
	});
});
