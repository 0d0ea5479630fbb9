/**
 * The shapes the codecs keep alive for V8 (keepShape.ts, keepRecordShapes in records.ts): they must
 * hold nothing of a decoded document (no text, no bytes, no credential) and stay few.
 */
import * as assert from 'node:assert/strict';
import { getBinding } from '../../../src/protocol/bindings';
import type { OperationName } from '../../../src/protocol/catalogue';
import { keptShapes } from '../../../src/protocol/codecs/keepShape';
import { compile } from '../../../src/protocol/codecs/records';
import { sampleResult } from '../../builders/samples';

const CTX = { namespace: 'https://api.example.test/', endpointPath: '/SOAP/Posting.asmx' };
const SECRET = 'hunter2-kept-nowhere';

function roundTrip(operation: OperationName, result: unknown): unknown {
	const soap = getBinding('soap11');
	const encoded = soap.encodeResponse(operation, result, CTX);
	const decoded = soap.decodeResponse(operation, { status: 200, headers: encoded.headers, body: encoded.body }, CTX);
	assert.ok(decoded.ok);
	return decoded.result;
}

/** Every string and byte array reachable from `value` (own properties, array items, map entries). */
function leaves(value: unknown, seen = new Set<unknown>(), out: (string | Uint8Array)[] = []): (string | Uint8Array)[] {
	if (typeof value === 'string' || value instanceof Uint8Array) {
		out.push(value);
		return out;
	}
	if (typeof value !== 'object' || value === null || seen.has(value)) return out;
	seen.add(value);
	if (value instanceof Map) {
		for (const [k, v] of value) {
			leaves(k, seen, out);
			leaves(v, seen, out);
		}
		return out;
	}
	for (const key of Object.getOwnPropertyNames(value)) {
		leaves((value as Record<string, unknown>)[key], seen, out);
	}
	return out;
}

describe('shapes kept for V8', () => {
	it('keep the shapes of decoded records with none of their text or bytes', () => {
		const users = (sampleResult('UserList') as Record<string, unknown>[]).map((user) => ({
			...user,
			Password: SECRET,
		}));
		const decodedUsers = roundTrip('UserList', users) as Record<string, unknown>[];
		assert.equal(decodedUsers[0].Password, SECRET);
		const page = sampleResult('GetApplicationsPaged') as { Applications: Record<string, unknown>[] };
		const bytes = new Uint8Array(100_000).fill(7);
		page.Applications[0] = {
			...page.Applications[0],
			FirstName: SECRET,
			EmailFirstAttachment: { FileName: SECRET, DocumentBytes: bytes },
		};
		const decodedPage = roundTrip('GetApplicationsPaged', page) as typeof page;
		assert.deepEqual(
			(decodedPage.Applications[0].EmailFirstAttachment as { DocumentBytes: Uint8Array }).DocumentBytes,
			bytes,
		);

		const records = keptShapes().filter((o) => Object.getPrototypeOf(o) === Object.prototype);
		const keys = records.map((o) => Object.keys(o).join(','));
		// The shapes of what was just decoded are among those kept: a user, an application and its document.
		assert.ok(keys.includes(Object.keys(decodedUsers[0]).join(',')));
		assert.ok(keys.includes(Object.keys(decodedPage.Applications[0]).join(',')));
		assert.ok(keys.includes(Object.keys(decodedPage.Applications[0].EmailFirstAttachment as object).join(',')));
		for (const record of records) {
			for (const leaf of leaves(record)) {
				assert.ok(leaf.length === 0, `a kept record holds ${typeof leaf === 'string' ? `"${leaf}"` : 'bytes'}`);
			}
		}
		for (const leaf of leaves(keptShapes())) {
			assert.ok(typeof leaf !== 'string' || !leaf.includes(SECRET), 'a kept object holds a decoded value');
		}
	});

	it('keep a bounded number of shapes per record type, however many differ', () => {
		const sample = (sampleResult('GetApplicationsPaged') as { Applications: Record<string, unknown>[] })
			.Applications[0];
		const optional = Object.keys(sample).filter((key) => typeof sample[key] === 'string');
		assert.ok(optional.length >= 10);
		for (const left of optional) {
			const application = { ...sample };
			delete application[left];
			const decoded = roundTrip('GetApplicationsPaged', {
				PageCount: 1,
				PageIndex: 1,
				TotalItemCount: 1,
				Applications: [application],
			});
			assert.ok(decoded !== undefined);
		}
		assert.ok(compile('APIApplication').shapes.size <= 8, `${compile('APIApplication').shapes.size} shapes`);
		const kept = keptShapes().filter(
			(o) => Object.getPrototypeOf(o) === Object.prototype && 'AdvertCandidateID' in o,
		);
		assert.ok(kept.length >= 1 && kept.length <= 8, `${kept.length} application shapes kept`);
	});
});
