import * as assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { batchedLines } from '../../src/emulator/batchedLines';

describe('batchedLines (the CLI access log)', () => {
	it('writes the lines of one turn in one write, in order, each with its newline', async () => {
		const writes: string[] = [];
		const log = batchedLines((text) => writes.push(text));
		log.line('GET /a');
		log.line('POST /b');
		assert.deepEqual(writes, [], 'nothing is written before the turn ends');
		await nextTurn();
		assert.deepEqual(writes, ['GET /a\nPOST /b\n']);
		log.line('GET /c');
		await nextTurn();
		assert.deepEqual(writes, ['GET /a\nPOST /b\n', 'GET /c\n']);
	});

	it('writes at once when the batch reaches its size, so a burst holds bounded text', () => {
		const writes: string[] = [];
		const log = batchedLines((text) => writes.push(text), 10);
		log.line('12345');
		assert.equal(writes.length, 0);
		log.line('67890');
		assert.deepEqual(writes, ['12345\n67890\n']);
	});

	it('flush() writes what is queued now and nothing twice', async () => {
		const writes: string[] = [];
		const log = batchedLines((text) => writes.push(text));
		log.line('last line before exit');
		log.flush();
		assert.deepEqual(writes, ['last line before exit\n']);
		await nextTurn();
		log.flush();
		assert.deepEqual(writes, ['last line before exit\n']);
	});
});
