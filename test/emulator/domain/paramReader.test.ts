import * as assert from 'node:assert/strict';
import { OPERATION_NAMES } from '../../../src/protocol/catalogue';
import { FaultError } from '../../../src/protocol/faults';
import { createOperationHandlers, type OperationHandlers } from '../../../src/emulator/domain/handlers';
import { lookupHandlers } from '../../../src/emulator/domain/handlers/lookups';
import type { HandlerDeps } from '../../../src/emulator/domain/handlers/handler';
import * as parse from '../../../src/emulator/domain/params';
import { readParams, type OperationParams, type ParamReader } from '../../../src/emulator/domain/paramReader';
import { openSandbox } from '../../../src/emulator/sandbox';

/**
 * Compile-time checks: each line marked @ts-expect-error must fail to compile, so compile-tests fails
 * if the reader or the handler table stop catching these mistakes. Never called.
 */
export function typeChecks(addAdvert: OperationParams<'AddAdvert'>, deps: HandlerDeps): void {
	addAdvert.text('sAdvertIdentifier');
	// @ts-expect-error a misspelt parameter name
	addAdvert.text('sAdvertIdd');
	// @ts-expect-error a parameter of another operation (GetApplicationsPaged)
	addAdvert.csv('RankingAsCSV');
	const paged: ParamReader<'CurrentPage' | 'RowsPerPage'> = {} as OperationParams<'GetAdvertPaged'>;
	// @ts-expect-error AddAdvert has no paging, so it cannot be read as a paged search
	const notPaged: ParamReader<'CurrentPage' | 'RowsPerPage'> = addAdvert;
	// @ts-expect-error a handler table without every operation
	const partial: OperationHandlers = { ...lookupHandlers(deps) };
	void [paged, notPaged, partial];
}

describe('emulator domain: typed parameter reader and handler table', () => {
	const params = {
		sText: '  padded  ',
		sBlank: '   ',
		sNumber: '42',
		sBad: 'forty-two',
		sFlag: 'TRUE',
		sList: ['a', ' b ', ''],
		sCsv: '1, 2,3',
		sDate: '2026-11-02 10:15:00',
		sPassword: ' keeps spaces ',
	};

	it('reads every kind of parameter exactly as the parsing functions do', () => {
		const reader = readParams(params);
		for (const name of Object.keys(params)) {
			assert.equal(reader.isGiven(name), parse.isGiven(params, name), name);
			assert.equal(reader.text(name), parse.text(params, name), name);
			assert.deepEqual(reader.csv(name), parse.csv(params, name), name);
			assert.equal(reader.includeFlag(name), parse.includeFlag(params, name), name);
			assert.equal(reader.value(name), params[name as keyof typeof params], name);
		}
		assert.equal(reader.integer('sNumber'), 42);
		assert.equal(reader.id('sNumber'), 42);
		assert.equal(reader.flag('sFlag'), true);
		assert.equal(reader.flag('sMissing', true), true);
		assert.deepEqual(reader.numericCsv('sCsv'), [1, 2, 3]);
		assert.equal(reader.dateTime('sDate'), '2026-11-02T10:15:00Z');
		assert.equal(reader.value('sPassword'), ' keeps spaces ');
		assert.throws(() => reader.integer('sBad'), FaultError);
		assert.throws(() => reader.requiredText('sBlank', 'a value'), /sBlank is required: give a value/);
		assert.throws(() => reader.requiredId('sMissing'), /sMissing is required/);
	});

	it('has exactly one handler per operation of the catalogue', () => {
		const sandbox = openSandbox({
			dataDir: ':memory:',
			passwordCost: 1024,
			demoSize: { adverts: 2, applications: 2 },
		});
		try {
			const handlers = createOperationHandlers(sandbox.store);
			assert.deepEqual(Object.keys(handlers).sort(), [...OPERATION_NAMES].sort());
			assert.ok(Object.values(handlers).every((handler) => typeof handler === 'function'));
		} finally {
			sandbox.close();
		}
	});
});
