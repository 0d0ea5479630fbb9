import * as assert from 'node:assert/strict';
import type { AnyParams, OperationName } from '../../../src/protocol/catalogue';
import { FaultError } from '../../../src/protocol/faults';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/server';
import { API_KEY, allFields, fakeHandlers, send } from './helpers';

/**
 * The pipeline checks the catalogue's parameter rules (src/protocol/rules) before it dispatches, so
 * a handler never sees a value the rules refuse and need not check formats or value sets again.
 */
describe('emulator pipeline: parameter rules run before the handler', () => {
	let emulator: RunningEmulator;
	const reached: AnyParams[] = [];

	before(async () => {
		const handlers = fakeHandlers();
		handlers.AddAdvert = (params: AnyParams) => {
			reached.push(params);
			throw FaultError.client('InvalidParameter', 'reached the AddAdvert handler');
		};
		handlers.CandidateTagPartner = (params: AnyParams) => {
			reached.push(params);
			throw FaultError.client('InvalidParameter', 'reached the CandidateTagPartner handler');
		};
		handlers.AddAdvertCandidateNote = (params: AnyParams) => {
			reached.push(params);
			throw FaultError.client('InvalidParameter', 'reached the AddAdvertCandidateNote handler');
		};
		emulator = await startEmulator({ handlers });
	});
	after(() => emulator.stop());

	/** Posts an HTTP POST form of `operation` with every field, as ASMX requires. */
	function postForm(operation: OperationName, given: Record<string, string>) {
		return send(`${emulator.postingUrl}/${operation}`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: allFields(operation, { sAPIKey: API_KEY, ...given }),
		});
	}

	function addAdvert(given: Record<string, string>) {
		return postForm('AddAdvert', { sJobTitle: 'Nurse', ...given });
	}

	const refused: [string, Record<string, string>, RegExp][] = [
		['a job type outside its set', { sJobType: 'X' }, /sJobType must be one of P, C, T; got 'X'/],
		['job hours outside their set', { sJobHours: 'Z' }, /sJobHours must be one of/],
		['a salary period outside its set', { sSalaryPer: 'Q' }, /sSalaryPer must be one of/],
		['a salary that is not numeric', { sSalaryFrom: 'lots' }, /sSalaryFrom must be numeric/],
		['a salary range upside down', { sSalaryFrom: '9', sSalaryTo: '1' }, /sSalaryFrom is higher than sSalaryTo/],
		['a currency that is not a code', { sSalaryCurrency: 'POUND' }, /sSalaryCurrency must be a 3-letter/],
		['a contact email that is not one', { sContactEmail: 'nobody' }, /sContactEmail is not an email address/],
		['an advert status outside its set', { sAdvertStatusID: '42' }, /sAdvertStatusID must be one of/],
		['an unknown duplicate policy', { sOnDuplicate: 'merge' }, /sOnDuplicate must be one of/],
	];
	for (const [what, given, message] of refused) {
		it(`refuses ${what} without calling the handler`, async () => {
			reached.length = 0;
			const res = await addAdvert(given);
			assert.equal(res.status, 500);
			assert.match(res.body, message);
			assert.equal(reached.length, 0);
		});
	}

	it('refuses a partner tag outside its set without calling the handler', async () => {
		reached.length = 0;
		const res = await postForm('CandidateTagPartner', {
			sCandidateEmail: 'a@example.com',
			PartnerTag: 'PartnerNope',
		});
		assert.equal(res.status, 500);
		assert.match(res.body, /PartnerTag must be one of/);
		assert.equal(reached.length, 0);
	});

	for (const [what, given, message] of [
		[
			'a note subject over 200 characters',
			{ sSubject: 's'.repeat(201) },
			/sSubject must be at most 200 characters/,
		],
		['a note body over 10,000 characters', { sBody: 'b'.repeat(10_001) }, /sBody must be at most 10000 characters/],
	] as const) {
		it(`refuses ${what} without calling the handler`, async () => {
			reached.length = 0;
			const res = await postForm('AddAdvertCandidateNote', {
				sAdvertID: '1',
				sAdvertCandidateID: '1',
				sBody: 'note',
				...given,
			});
			assert.equal(res.status, 500);
			assert.match(res.body, message);
			assert.equal(reached.length, 0);
		});
	}

	it('hands valid values to the handler, value-set choices in the case they were sent', async () => {
		reached.length = 0;
		const res = await addAdvert({ sJobType: 'p', sSalaryFrom: '1', sSalaryTo: '9', sSalaryCurrency: 'gbp' });
		assert.match(res.body, /reached the AddAdvert handler/);
		assert.equal(reached.length, 1);
		assert.equal(reached[0].sJobType, 'p');
	});
});
