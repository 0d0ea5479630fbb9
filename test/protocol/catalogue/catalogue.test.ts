import * as assert from 'node:assert/strict';
import {
	DEFAULT_ENDPOINT_PATHS,
	OPERATIONS,
	OPERATION_NAMES,
	RECORDS,
	VALUE_SETS,
	defaultNamespace,
	getRecord,
	operationsOf,
	resolveOperationName,
	type FieldType,
	type ParamsOf,
	type ResultOf,
} from '../../../src/protocol/catalogue';

describe('operation catalogue', () => {
	it('has the 16 posting and 4 administration operations of the spec', () => {
		assert.deepEqual(operationsOf('posting'), [
			'UserFeedsAndQuotaWithDestinations',
			'GetAdvertWithValuesPaged',
			'GetAdvertWithValues',
			'GetAdvertPaged',
			'ExpressPostAdvert',
			'AddAdvert',
			'AdvertTrackingResponseLog',
			'CandidateTagPartner',
			'CandidateTag',
			'QueryJobTitle',
			'GetLoginURL',
			'GetCurrency',
			'ApplicationScore',
			'AddAdvertCandidateNote',
			'ApplicationProgress',
			'GetApplicationsPaged',
		]);
		assert.deepEqual(operationsOf('administration'), [
			'UserList',
			'FeedQuotaList',
			'GetWeeksToAdvertise',
			'FeedList',
		]);
	});

	it('keeps AddAdvert parameters in the spec order', () => {
		assert.deepEqual(
			OPERATIONS.AddAdvert.params.map((p) => p.name),
			[
				'sCultureID',
				'sAPIKey',
				'sUsername',
				'sPassword',
				'sAdvertIdentifier',
				'sAdvertReference',
				'sSearchDays',
				'sOnDuplicate',
				'sJobTitle',
				'sJobType',
				'sJobHours',
				'sPrimaryLocation',
				'sIndustry',
				'sSalaryFrom',
				'sSalaryTo',
				'sSalaryCurrency',
				'sSalaryPer',
				'sSalaryBenefits',
				'sContactName',
				'sContactEmail',
				'sJobDescription',
				'sApplicationURL',
				'DestinationsAsCSV',
				'sFuturePostDateTimeInUtc',
				'sRedirectDomain',
				'sAdvertStatusID',
				'sAdvertID',
				'sApplicationCallbackURL',
				'sIframe',
			],
		);
	});

	it('keeps GetApplicationsPaged parameters in the spec order', () => {
		assert.deepEqual(
			OPERATIONS.GetApplicationsPaged.params.map((p) => p.name),
			[
				'sCultureID',
				'sAPIKey',
				'sUsername',
				'sUserIdentifier',
				'sStartOrganisation',
				'sAdvertIdentifier',
				'sAdvertReference',
				'sAdvertID',
				'DestinationsAsCSV',
				'sApplicationStartDateTime',
				'sApplicationEndDateTime',
				'RankingAsCSV',
				'ProgressIDAsCSV',
				'AdvertCandidateIDAsCSV',
				'boolIncludeEmailBody',
				'boolIncludeAttachment',
				'boolIncludeParsed',
				'boolIncludeEmail',
				'sLastScoreDate',
				'sLastProgressDate',
				'CurrentPage',
				'RowsPerPage',
				'OrderBy',
			],
		);
	});

	it('states the transport exceptions as data', () => {
		// Rule 1: paged operations put the wrapper directly in the response element.
		assert.equal(OPERATIONS.GetAdvertPaged.soapResult, 'AdvertPaged');
		assert.equal(OPERATIONS.GetApplicationsPaged.soapResult, 'ApplicationPaged');
		assert.equal(OPERATIONS.GetAdvertWithValuesPaged.soapResult, 'AdvertWithValuesPaged');
		// Rule 2: lists have ArrayOf roots in GET and POST.
		assert.equal(OPERATIONS.UserList.httpRoot, 'ArrayOfCUser');
		assert.equal(OPERATIONS.GetCurrency.httpRoot, 'ArrayOfGetValue');
		// Rule 3: Destinations is a list of strings.
		const destinations = OPERATIONS.UserFeedsAndQuotaWithDestinations.params.find((p) => p.name === 'Destinations');
		assert.deepEqual([destinations?.type, destinations?.itemElement], ['string[]', 'string']);
		// The CandidateTagPartner result element differs from its HTTP root.
		assert.deepEqual(
			[OPERATIONS.CandidateTagPartner.soapResult, OPERATIONS.CandidateTagPartner.httpRoot],
			['CandidateTagPartnerResult', 'CandidateTagResult'],
		);
	});

	it('refers only to records that exist, and every list root names its record', () => {
		const visit = (type: FieldType) => {
			if (typeof type === 'object' && 'record' in type) getRecord(type.record);
			if (typeof type === 'object' && 'list' in type) getRecord(type.list);
		};
		for (const record of Object.values(RECORDS)) record.fields.forEach((f) => visit(f.type));
		for (const name of OPERATION_NAMES) {
			const op = OPERATIONS[name];
			getRecord(op.result.record);
			if (op.result.kind === 'list') assert.equal(op.httpRoot, `ArrayOf${op.result.record}`, name);
			for (const param of op.params) {
				if (param.valueSet) {
					assert.ok(param.valueSet in VALUE_SETS, `${name}.${param.name} names ${param.valueSet}`);
				}
			}
			assert.equal(
				new Set(op.params.map((p) => p.name)).size,
				op.params.length,
				`${name} has duplicate parameters`,
			);
		}
	});

	it('has the APIApplication document objects with their attributes', () => {
		const fields = RECORDS.APIDocument.fields;
		assert.deepEqual(
			fields.filter((f) => 'attribute' in f && f.attribute).map((f) => f.name),
			['FileName', 'DocumentType', 'EncodingType', 'DocumentSource', 'DocumentFormat'],
		);
		const app = RECORDS.APIApplication.fields.map((f) => f.name);
		assert.deepEqual(app.slice(28, 32), ['EmailBody', 'EmailFirstAttachment', 'Parsed', 'Email']);
		assert.equal(app.length, 40);
		assert.equal(RECORDS.Advert.fields.length, 44);
	});

	it('resolves operation names ignoring case and knows the endpoint paths and namespace rule', () => {
		assert.equal(resolveOperationName('getcurrency'), 'GetCurrency');
		assert.equal(resolveOperationName('NoSuchOperation'), undefined);
		assert.equal(DEFAULT_ENDPOINT_PATHS.administration, '/SOAP/Administration.asmx');
		assert.equal(defaultNamespace('https://api.example.com'), 'https://api.example.com/');
	});

	it('derives parameter and result types from the catalogue', () => {
		// Compile-time checks: these assignments fail to type-check if the derivation drifts.
		const params: ParamsOf<'GetApplicationsPaged'> = { CurrentPage: 1, RowsPerPage: 10, sAdvertID: '5' };
		const score: ParamsOf<'ApplicationScore'> = { sScore: 'S' };
		const page: ResultOf<'GetApplicationsPaged'> = {
			PageCount: 1,
			Applications: [
				{ AdvertCandidateID: 3, EmailBody: { FileName: 'a.html', DocumentBytes: new Uint8Array(1) } },
			],
		};
		const users: ResultOf<'UserList'> = [{ UserID: 1, Username: 'a', BBDExpiredEmail: true }];
		// @ts-expect-error CurrentPage is required
		const missing: ParamsOf<'GetAdvertPaged'> = { RowsPerPage: 1 };
		// @ts-expect-error decimal is a string, never a float
		const feed: ResultOf<'UserFeedsAndQuotaWithDestinations'> = [{ FeedCost: 1.5 }];
		assert.equal(params.CurrentPage + (score.sScoreAsJobOwner ? 1 : 0), 1);
		assert.equal(page.Applications?.[0]?.AdvertCandidateID, 3);
		assert.equal(users[0].Username, 'a');
		assert.ok(missing && feed);
	});
});
