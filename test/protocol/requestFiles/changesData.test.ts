import * as assert from 'node:assert/strict';
import { OPERATION_NAMES, OPERATIONS } from '../../../src/protocol/catalogue';
import {
	DATA_CHANGING_OPERATIONS,
	dataChangingCall,
	dataChangingOperation,
} from '../../../src/protocol/requestFiles/changesData';
import { parseRequestFileEntries } from '../../../src/protocol/requestFile';

describe('requests that change data (not sent to a second connection unless asked)', () => {
	it('are the operations the spec describes as creating, posting, scoring, progressing, tagging or noting', () => {
		assert.deepEqual(
			[...DATA_CHANGING_OPERATIONS].sort(),
			[
				'AddAdvert',
				'AddAdvertCandidateNote',
				'ApplicationProgress',
				'ApplicationScore',
				'CandidateTag',
				'CandidateTagPartner',
				'ExpressPostAdvert',
			].sort(),
		);
		for (const name of OPERATION_NAMES) {
			if (/^(Get|Query|User|Feed)/.test(name) || name === 'AdvertTrackingResponseLog') {
				assert.ok(!OPERATIONS[name].changesData, `${name} only reads`);
			}
		}
	});

	it('are told by the operation a request declares, and by what a raw request names', () => {
		const file = `# Multiposting request

### A read
operation: GetCurrency
param.sCultureID: en-GB

### A write
operation: ApplicationScore
param.sAdvertID: 1

### A raw write in SOAP
---
POST /SOAP/Posting.asmx HTTP/1.1
Content-Type: text/xml
SOAPAction: "https://api.example.com/AddAdvertCandidateNote"

<x/>

### A raw write by its path
---
GET /SOAP/Posting.asmx/candidatetag?sAdvertID=1 HTTP/1.1

### A raw read
---
GET /SOAP/Posting.asmx/GetAdvertPaged?CurrentPage=1 HTTP/1.1
`;
		const entries = parseRequestFileEntries(file).entries;
		assert.deepEqual(entries.map(dataChangingOperation), [
			undefined,
			'ApplicationScore',
			'AddAdvertCandidateNote',
			'CandidateTag',
			undefined,
		]);
	});

	it('are told for a playground call, declared or raw', () => {
		assert.equal(dataChangingCall('AddAdvert', []), 'AddAdvert');
		assert.equal(dataChangingCall('GetCurrency', []), undefined);
		assert.equal(
			dataChangingCall('GetCurrency', ['/x', '<ExpressPostAdvert xmlns="urn:x"/>']),
			'ExpressPostAdvert',
		);
	});
});
