import * as assert from 'node:assert/strict';
import { GroupCommit, MAX_BATCH } from '../../../src/emulator/pipeline/groupCommit';
import type { UnitOutcome } from '../../../src/emulator/store/store';

/** A group commit over a recording commit: units run in order, then "COMMIT" is logged. */
function recording(): { group: GroupCommit; log: string[]; batches: number[] } {
	const log: string[] = [];
	const batches: number[] = [];
	const group = new GroupCommit((units) => {
		batches.push(units.length);
		const outcomes = units.map((unit): UnitOutcome<unknown> => {
			try {
				return { ok: true, value: unit() };
			} catch (error) {
				return { ok: false, error };
			}
		});
		log.push('COMMIT');
		return outcomes;
	});
	return { group, log, batches };
}

describe('emulator group commit (pipeline)', () => {
	it('runs the writes queued in one turn as one batch, in order, after the turn', async () => {
		const { group, log, batches } = recording();
		const results = ['a', 'b', 'c'].map((name) =>
			group.run(() => {
				log.push(name);
				return name.toUpperCase();
			}),
		);
		log.push('turn ends');
		assert.deepEqual(await Promise.all(results), ['A', 'B', 'C']);
		assert.deepEqual(log, ['turn ends', 'a', 'b', 'c', 'COMMIT']);
		assert.deepEqual(batches, [3]);
		assert.deepEqual(group.stats(), { batches: 1, units: 3, grouped: 3 });
	});

	it('settles no request before its batch has committed', async () => {
		const { group, log } = recording();
		const settled = ['a', 'b'].map((name) =>
			group
				.run(() => log.push(name))
				.then(() => {
					assert.ok(log.includes('COMMIT'), `${name} settled after the commit`);
					log.push(`answer ${name}`);
				}),
		);
		await Promise.all(settled);
		assert.deepEqual(log, ['a', 'b', 'COMMIT', 'answer a', 'answer b']);
	});

	it('rejects only the request that failed; the others get their results', async () => {
		const { group } = recording();
		const ok = group.run(() => 1);
		const failing = group.run(() => {
			throw new Error('refused');
		});
		const also = group.run(() => 3);
		await assert.rejects(failing, /refused/);
		assert.deepEqual(await Promise.all([ok, also]), [1, 3]);
	});

	it('fails every request of a batch whose commit throws', async () => {
		const group = new GroupCommit(() => {
			throw new Error('disk full');
		});
		const all = [group.run(() => 1), group.run(() => 2)];
		for (const request of all) await assert.rejects(request, /disk full/);
	});

	it(`holds at most ${MAX_BATCH} writes in a batch; the rest go in the next`, async () => {
		const { group, batches } = recording();
		await Promise.all(Array.from({ length: MAX_BATCH + 5 }, (_, i) => group.run(() => i)));
		assert.deepEqual(batches, [MAX_BATCH, 5]);
	});

	it('commits writes of later turns in batches of their own', async () => {
		const { group, batches } = recording();
		await group.run(() => 1);
		await Promise.all([group.run(() => 2), group.run(() => 3)]);
		assert.deepEqual(batches, [1, 2]);
	});
});
