import * as assert from 'node:assert/strict';
import { validateParams } from '../../src/client';

describe('validateParams', () => {
	it('accepts valid parameters', () => {
		assert.deepEqual(validateParams('QueryJobTitle', { q: 'de', sAPIKey: 'k' }), []);
		assert.deepEqual(
			validateParams('GetApplicationsPaged', {
				CurrentPage: 1,
				RowsPerPage: 50,
				sApplicationStartDateTime: '2024-01-01 00:00:00',
				RankingAsCSV: 'Suitable,2',
			}),
			[],
		);
		assert.deepEqual(
			validateParams('ApplicationScore', {
				sScore: 'S',
				sScoreAsJobOwner: false,
				sAdvertID: '42',
				sAdvertCandidateID: '9001',
			}),
			[],
		);
	});

	it('checks the minLength rule of QueryJobTitle, also when q is missing', () => {
		assert.deepEqual(validateParams('QueryJobTitle', { q: 'a' }), [
			{
				param: 'q',
				rule: 'minLength',
				subcode: 'InvalidParameter',
				message: 'q must have at least 2 characters.',
			},
		]);
		assert.equal(validateParams('QueryJobTitle', {})[0]?.param, 'q');
		assert.equal(validateParams('QueryJobTitle', { q: ' a ' })[0]?.rule, 'minLength');
	});

	it('checks the anyOf and required rules of GetApplicationsPaged', () => {
		const issues = validateParams('GetApplicationsPaged', { sAdvertIdentifier: '' });
		assert.deepEqual(
			issues.map((issue) => [issue.param, issue.rule]),
			[
				// One issue per rule, naming the first missing parameter.
				['CurrentPage', 'required'],
				['sAdvertIdentifier', 'anyOf'],
			],
		);
		assert.deepEqual(
			validateParams('GetApplicationsPaged', { CurrentPage: 1, RowsPerPage: 1, AdvertCandidateIDAsCSV: '1,2' }),
			[],
		);
	});

	it('checks int types and the 32-bit range', () => {
		assert.deepEqual(
			validateParams('GetAdvertPaged', { CurrentPage: 1.5, RowsPerPage: 2 ** 31 }).map((issue) => [
				issue.param,
				issue.rule,
			]),
			[
				['CurrentPage', 'type'],
				['RowsPerPage', 'range'],
			],
		);
		// Text of a whole number is read as GET/POST send it; CurrentPage from 0, RowsPerPage 1..500.
		assert.deepEqual(validateParams('GetAdvertPaged', { CurrentPage: '1', RowsPerPage: 1 }), []);
		assert.deepEqual(
			validateParams('GetAdvertPaged', { CurrentPage: -1, RowsPerPage: 501 }).map((issue) => issue.message),
			[
				'CurrentPage must be at least 0; got -1.',
				'RowsPerPage must be between 1 and 500 (the maximum page size); got 501.',
			],
		);
		assert.deepEqual(validateParams('GetAdvertPaged', { CurrentPage: 0, RowsPerPage: 500 }), []);
	});

	it('checks booleans, lists and text', () => {
		assert.equal(validateParams('ApplicationScore', { sScoreAsJobOwner: 'maybe' })[0]?.param, 'sScoreAsJobOwner');
		assert.equal(
			validateParams('UserFeedsAndQuotaWithDestinations', { Destinations: ['1', 2] })[0]?.param,
			'Destinations',
		);
		assert.equal(validateParams('GetCurrency', { sAPIKey: 5 })[0]?.rule, 'type');
	});

	it('checks string formats and closed value sets', () => {
		assert.deepEqual(
			validateParams('AddAdvert', { sSalaryFrom: 'lots', sOnDuplicate: 'merge', sIframe: 'yes' }).map((issue) => [
				issue.param,
				issue.rule,
			]),
			[
				['sOnDuplicate', 'valueSet'],
				['sSalaryFrom', 'format'],
				['sIframe', 'format'],
			],
		);
		assert.equal(validateParams('ApplicationScore', { sScore: '4' })[0]?.rule, 'valueSet', 'score letters only');
		assert.equal(
			validateParams('GetApplicationsPaged', {
				CurrentPage: 1,
				RowsPerPage: 1,
				sAdvertID: '1',
				RankingAsCSV: 'Suitable,Great',
			})[0]?.param,
			'RankingAsCSV',
		);
		assert.equal(
			validateParams('GetApplicationsPaged', {
				CurrentPage: 1,
				RowsPerPage: 1,
				sAdvertID: '1',
				ProgressIDAsCSV: '1,x',
			})[0]?.rule,
			'format',
		);
		// Open sets (sCultureID) only suggest values.
		assert.deepEqual(validateParams('GetCurrency', { sCultureID: 'fr-CA' }), []);
	});

	it('agrees with the sandbox where the two copies used to disagree (issue 14)', () => {
		// sJobType: the sandbox refused X while the client let it through; now both refuse it.
		assert.deepEqual(validateParams('AddAdvert', { sJobType: 'Freelance' }), [
			{
				param: 'sJobType',
				rule: 'valueSet',
				subcode: 'InvalidParameter',
				message: "sJobType must be one of P, C, T; got 'Freelance'.",
			},
		]);
		// The client refused these, which the sandbox accepts: letters and tags in any case, 1/0 booleans.
		const application = { sAdvertID: '1', sAdvertCandidateID: '2' };
		assert.deepEqual(validateParams('ApplicationScore', { ...application, sScore: 's' }), []);
		assert.deepEqual(
			validateParams('CandidateTagPartner', { sCandidateEmail: 'a@b.co', PartnerTag: 'partneraccepted' }),
			[],
		);
		assert.deepEqual(
			validateParams('ApplicationProgress', { ...application, sProgressID: '2', sProgressAsJobOwner: '1' }),
			[],
		);
	});

	it('reports unknown parameters and operations', () => {
		assert.deepEqual(validateParams('GetCurrency', { sApiKey: 'typo' }), [
			{
				param: 'sApiKey',
				rule: 'unknown',
				subcode: 'InvalidParameter',
				message: 'sApiKey is not a parameter of GetCurrency.',
			},
		]);
		assert.equal(validateParams('NoSuchOperation' as 'GetCurrency', {})[0]?.rule, 'unknown');
	});
});
