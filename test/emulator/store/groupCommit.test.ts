import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';

const TINY = { adverts: 3, applications: 20 };
const AT = '2026-11-22T12:00:00Z';

describe('emulator store group commit', () => {
	let dir: string;
	let sandbox: Sandbox;
	/** Bodies of the notes the tests add, in order. */
	const notes = (): string[] =>
		sandbox.store.applications
			.notesOf(1)
			.map((note) => note.body)
			.filter((body) => body.startsWith('unit'));
	const note = (body: string): number => sandbox.store.applications.addNote(1, 1, 'group', body, AT);
	const open = (): Sandbox => openSandbox({ dataDir: dir, demoSize: TINY, passwordCost: 1024 });

	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'mp-group-'));
		sandbox = open();
	});
	afterEach(() => {
		sandbox.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('keeps every unit that succeeded and rolls back a failing one alone, all of its writes', () => {
		const outcomes = sandbox.store.groupCommit([
			() => note('unit 1'),
			() => {
				note('unit 2a');
				// A handler's own transaction joins the group's, inside the unit's savepoint.
				sandbox.store.transaction(() => note('unit 2b'));
				throw new Error('refused');
			},
			() => note('unit 3'),
			// A constraint broken by the last write of a unit: no such application.
			() => {
				note('unit 4');
				sandbox.store.applications.addNote(999_999, 1, 'group', 'unit 4b', AT);
			},
		]);
		assert.deepEqual(
			outcomes.map((outcome) => (outcome.ok ? 'ok' : (outcome.error as Error).message)),
			['ok', 'refused', 'ok', 'FOREIGN KEY constraint failed'],
		);
		assert.deepEqual(notes(), ['unit 1', 'unit 3']);
		sandbox.close();
		sandbox = open();
		assert.deepEqual(notes(), ['unit 1', 'unit 3'], 'committed to the file');
	});

	it('moves the change count past a rolled-back unit, so nothing derived from its writes is kept', () => {
		let before = sandbox.store.changeCount;
		sandbox.store.transaction(() => note('unit 0'));
		const writesOfANote = sandbox.store.changeCount - before;
		before = sandbox.store.changeCount;
		const outcomes = sandbox.store.groupCommit([
			() => note('unit a'),
			() => {
				note('unit b');
				throw new Error('refused');
			},
		]);
		assert.deepEqual(
			outcomes.map((outcome) => outcome.ok),
			[true, false],
		);
		// The writes of both units, and one more for the rollback.
		assert.equal(sandbox.store.changeCount, before + 2 * writesOfANote + 1);
		assert.deepEqual(notes(), ['unit 0', 'unit a']);
	});

	it('rolls a group of one back whole when it fails', () => {
		const [outcome] = sandbox.store.groupCommit([
			() => {
				note('unit alone');
				throw new Error('refused');
			},
		]);
		assert.equal(outcome.ok, false);
		assert.deepEqual(notes(), []);
	});
});
