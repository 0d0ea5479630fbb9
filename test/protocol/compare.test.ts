import * as assert from 'node:assert/strict';
import { compareOutcomes, diffLines, diffValues, formatDifference, normaliseResult } from '../../src/protocol/compare';

/** Counts of a line diff. */
function diffStats(lines: readonly { kind: 'same' | 'removed' | 'added' }[]): Record<string, number> {
	const stats = { same: 0, removed: 0, added: 0 };
	for (const line of lines) stats[line.kind] += 1;
	return stats;
}

describe('binding comparison', () => {
	it('normalises key order, undefined fields, bytes and dates', () => {
		const left = normaliseResult({
			b: 1,
			a: undefined,
			c: new Uint8Array([104, 105]),
			d: new Date(Date.UTC(2024, 0, 2)),
		});
		assert.deepEqual(left, { b: 1, c: 'base64:aGk=', d: '2024-01-02T00:00:00.000Z' });
		assert.deepEqual(JSON.stringify(normaliseResult({ z: 1, y: { b: 2, a: 1 } })), '{"y":{"a":1,"b":2},"z":1}');
	});

	it('lists the paths that differ, with absent values', () => {
		const a = normaliseResult([{ Score: 4, Name: 'x' }, { Score: 1 }, { Score: 2 }, { Score: 4 }]);
		const b = normaliseResult([{ Score: 4, Name: 'y' }, { Score: 1 }, { Score: 2 }, {}]);
		assert.deepEqual(diffValues(a, b).map(formatDifference), ['[0].Name: "x" vs "y"', '[3].Score: 4 vs absent']);
	});

	it('reports extra list items, type changes and nested records', () => {
		const differences = diffValues(
			normaliseResult({ Adverts: [{ AdvertID: 1 }], PageCount: 1 }),
			normaliseResult({ Adverts: [{ AdvertID: 1 }, { AdvertID: 2 }], PageCount: '1' }),
		);
		assert.deepEqual(differences.map(formatDifference), [
			'Adverts[1]: absent vs record {AdvertID}',
			'PageCount: 1 vs "1"',
		]);
		assert.deepEqual(diffValues(normaliseResult({ a: [1, 2] }), normaliseResult({ a: [1, 2] })), []);
	});

	it('stops at the limit and survives deep nesting', () => {
		let deepA: unknown = 1;
		let deepB: unknown = 2;
		for (let i = 0; i < 1_000; i += 1) {
			deepA = { x: deepA };
			deepB = { x: deepB };
		}
		assert.equal(diffValues(normaliseResult(deepA), normaliseResult(deepB)).length, 1);
		const many = diffValues(
			normaliseResult(Array.from({ length: 100 }, (_, i) => i)),
			normaliseResult(Array.from({ length: 100 }, (_, i) => -i - 1)),
			10,
		);
		assert.equal(many.length, 10);
	});

	it('compares outcomes against the first: results, faults and errors', () => {
		const comparison = compareOutcomes([
			['soap11', { kind: 'result', result: [{ Value: 'GBP' }] }],
			['soap12', { kind: 'result', result: [{ Value: 'GBP' }] }],
			['httpGet', { kind: 'result', result: [{ Value: 'EUR' }] }],
			['httpPost', { kind: 'fault', code: 'Client', subcode: 'InvalidParameter', message: 'bad' }],
		]);
		assert.equal(comparison.baseline, 'soap11');
		assert.deepEqual(
			comparison.differences.map((d) => [d.key, d.equal]),
			[
				['soap12', true],
				['httpGet', false],
				['httpPost', false],
			],
		);
		assert.deepEqual(comparison.differences[1].differences.map(formatDifference), ['[0].Value: "GBP" vs "EUR"']);
		assert.deepEqual(comparison.differences[2].differences.map(formatDifference), [
			'(root): list of 1 vs record {fault}',
		]);
		const faults = compareOutcomes([
			['soap11', { kind: 'fault', code: 'Client', subcode: 'InvalidParameter', message: 'bad' }],
			['soap12', { kind: 'fault', code: 'Client', message: 'bad' }],
		]);
		assert.deepEqual(faults.differences[0].differences.map(formatDifference), [
			'fault.subcode: "InvalidParameter" vs absent',
		]);
	});

	it('diffs lines with a longest common subsequence', () => {
		const lines = diffLines('a\nb\nc\nd', 'a\nc\nx\nd');
		assert.deepEqual(lines, [
			{ kind: 'same', text: 'a' },
			{ kind: 'removed', text: 'b' },
			{ kind: 'same', text: 'c' },
			{ kind: 'added', text: 'x' },
			{ kind: 'same', text: 'd' },
		]);
		assert.deepEqual(diffStats(lines), { same: 3, removed: 1, added: 1 });
		assert.deepEqual(
			diffLines('same\r\ntext', 'same\ntext').map((line) => line.kind),
			['same', 'same'],
		);
	});

	it('falls back to removed-then-added for huge changed regions', () => {
		const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n');
		const b = Array.from({ length: 3000 }, (_, i) => `b${i}`).join('\n');
		const stats = diffStats(diffLines(a, b));
		assert.deepEqual(stats, { same: 0, removed: 3000, added: 3000 });
	});
});
