import * as assert from 'node:assert/strict';
import { DOCUMENT_TYPE } from '../../../src/protocol/catalogue';
import { child, parseXml } from '../../../src/protocol/codecs/xml';
import { HOSTILE_FRAGMENTS } from '../../../src/emulator/domain/demoContent';
import { mulberry32 } from '../../../src/emulator/domain/seed';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';

const NOW = new Date('2026-11-22T12:00:00Z');

describe('demo data', () => {
	let sandbox: Sandbox;
	before(() => {
		sandbox = openSandbox({ dataDir: ':memory:', now: NOW, passwordCost: 1024 });
	});
	after(() => sandbox.close());

	it('mulberry32 is deterministic and in [0, 1)', () => {
		const a = mulberry32(42);
		const b = mulberry32(42);
		const values = Array.from({ length: 100 }, () => a());
		assert.deepEqual(
			values,
			Array.from({ length: 100 }, () => b()),
		);
		assert.ok(values.every((v) => v >= 0 && v < 1));
		assert.ok(new Set(values).size > 95);
	});

	it('has the documented sizes', () => {
		const counts = sandbox.store.counts();
		assert.equal(counts.advert, 200);
		assert.equal(counts.application, 5000);
		assert.equal(counts.feed, 15);
		assert.ok(counts.app_user >= 10);
		assert.equal(counts.application_document, 20000);
		assert.ok(counts.note > 0 && counts.candidate_tag > 0 && counts.posting > 0);
	});

	it('builds an organisation tree at least three levels deep', () => {
		const branch = sandbox.store.accounts.findOrganisation('acme-london')!;
		assert.deepEqual(sandbox.store.accounts.ancestorIds(branch.id).length, 3);
		assert.deepEqual(sandbox.store.accounts.subtreeIds(1), [1, 2, 3, 4, 5, 6, 7]);
		assert.equal(sandbox.store.feeds.find('108')?.identifier, 'Totaljobs');
		assert.equal(sandbox.store.feeds.find('totaljobs')?.id, 108);
	});

	it('includes future, deleted, failed-delivery and multi-instance adverts', () => {
		const adverts = sandbox.store.adverts.search(
			{ organisationIds: [1, 2, 3, 4, 5, 6, 7, 8, 9], statusIds: [0, 1, 16] },
			[],
		).rows;
		assert.ok(adverts.some((a) => a.scheduledPostAt !== null && a.scheduledPostAt > '2026-11-22T12:00:00Z'));
		assert.ok(adverts.some((a) => a.statusId === 1));
		assert.ok(adverts.some((a) => a.lastDeliveryStatusId === 3));
		const identifiers = adverts.map((a) => a.identifier);
		assert.ok(new Set(identifiers).size < identifiers.length);
		assert.ok(adverts.every((a) => a.createdAt >= '2026-07-24T00:00:00Z'));
		const failed = adverts
			.flatMap((a) => sandbox.store.postings.trackingLogs(a.id, undefined, undefined))
			.filter((log) => log.errorLevel === 'Error');
		assert.ok(failed.length > 0 && failed.every((log) => /Error|Rejected/.test(log.response)));
	});

	it('plants every kind of hostile markup in email bodies', () => {
		const bodies = sandbox.store.applications
			.documents(
				Array.from({ length: 200 }, (_, i) => (i + 1) * 12),
				[DOCUMENT_TYPE.EmailBody],
			)
			.map((doc) => doc.text ?? '');
		for (const fragment of HOSTILE_FRAGMENTS) {
			assert.ok(
				bodies.some((body) => body.includes(fragment)),
				fragment,
			);
		}
	});

	it('stores well-formed HR-XML candidates with contact, experience, education and skills', () => {
		for (const doc of sandbox.store.applications.documents([1, 2, 3, 4, 5], [DOCUMENT_TYPE.Parsed])) {
			const root = parseXml(doc.bytes!);
			assert.equal(root.local, 'Candidate');
			const resume = child(child(root, 'Resume')!, 'StructuredXMLResume')!;
			assert.ok(child(child(root, 'CandidateProfile')!, 'PersonalData'));
			for (const section of ['EmploymentHistory', 'EducationHistory', 'Qualifications']) {
				assert.ok(child(resume, section), section);
			}
		}
	});

	it('stores attachments as text or a small PDF', () => {
		const docs = sandbox.store.applications.documents([1, 2, 3], [DOCUMENT_TYPE.Attachment]);
		const pdf = docs.find((doc) => doc.documentFormat === 'pdf')!;
		assert.match(new TextDecoder().decode(pdf.bytes!), /^%PDF-1\.4[\s\S]*%%EOF\n$/);
		assert.ok(docs.every((doc) => doc.bytes!.length < 4096));
	});
});
