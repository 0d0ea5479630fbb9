import * as assert from 'node:assert/strict';
import { RecordCodecError, writeList, XmlOut } from '../../../src/protocol/codecs/records';

describe('record writer', () => {
	it('names the exact field of the exact item when a value cannot be written', () => {
		const applications = [{ AdvertCandidateID: 1 }, { AdvertCandidateID: 2, AdvertID: 'not a number' }];
		assert.throws(
			() => writeList(new XmlOut(), 'Applications', 'APIApplication', 'APIApplication', applications),
			(error: unknown) =>
				error instanceof RecordCodecError &&
				error.path === 'Applications[1].AdvertID' &&
				error.message.startsWith('Applications[1].AdvertID: '),
		);
	});

	it('writes scalar fields of every item', () => {
		const out = new XmlOut();
		writeList(out, 'Applications', 'APIApplication', 'APIApplication', [{ AdvertCandidateID: 7, AdvertID: 9 }]);
		const xml = out.toString();
		assert.match(
			xml,
			/^<Applications><APIApplication>.*<AdvertCandidateID>7<\/AdvertCandidateID><AdvertID>9<\/AdvertID>/,
		);
	});
});
