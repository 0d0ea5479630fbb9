import * as assert from 'node:assert/strict';
import mammoth from 'mammoth';
import { DOCUMENT_TYPE } from '../../../src/protocol/catalogue';
import { parseXml } from '../../../src/protocol/codecs/xml';
import { createClock } from '../../../src/emulator/delivery/clock';
import { LiveApplications, type ArrivedApplication } from '../../../src/emulator/live/liveApplications';
import { openSandbox } from '../../../src/emulator/sandbox';
import { startEmulator } from '../../../src/emulator';
import { callGet } from '../web/helpers';

describe('emulator live mode', () => {
	it('makes applications at the configured rate on the clock, with documents', async () => {
		const sandbox = openSandbox({
			dataDir: ':memory:',
			passwordCost: 1024,
			demoSize: { adverts: 20, applications: 50 },
		});
		const clock = createClock({ mode: 'manual' });
		const arrived: ArrivedApplication[] = [];
		const live = new LiveApplications(sandbox.store, clock, {
			ratePerMinute: 4,
			seed: 3,
			onApplication: (application) => arrived.push(application),
		});
		try {
			const before = sandbox.store.counts().application;
			live.start();
			clock.advance(14_999);
			assert.equal(arrived.length, 0);
			clock.advance(1);
			assert.equal(arrived.length, 1);
			clock.advance(60_000);
			assert.equal(arrived.length, 5);
			assert.equal(sandbox.store.counts().application, before + 5);
			const application = sandbox.store.applications.byId(arrived[0].advertCandidateId)!;
			assert.equal(application.progressId, 1);
			assert.equal(application.ranking, 0);
			const documents = sandbox.store.applications.documents(
				[application.id],
				[DOCUMENT_TYPE.EmailBody, DOCUMENT_TYPE.Attachment, DOCUMENT_TYPE.Parsed, DOCUMENT_TYPE.Email],
			);
			assert.deepEqual(
				documents.map((document) => document.kind).sort(),
				[DOCUMENT_TYPE.Attachment, DOCUMENT_TYPE.Email, DOCUMENT_TYPE.EmailBody, DOCUMENT_TYPE.Parsed].sort(),
			);
			assert.equal(
				parseXml(documents.find((document) => document.kind === DOCUMENT_TYPE.Parsed)!.bytes!).local,
				'Candidate',
			);
			const docx = arrived
				.map(
					(item) =>
						sandbox.store.applications.documents([item.advertCandidateId], [DOCUMENT_TYPE.Attachment])[0],
				)
				.find((document) => document.documentFormat === 'docx');
			assert.ok(docx, 'PDF and DOCX CVs both occur');
			assert.match((await mammoth.extractRawText({ buffer: Buffer.from(docx.bytes!) })).value, /Experience/);
			assert.ok(arrived.every((item) => new Date(item.appliedAt).getTime() <= clock.now().getTime()));
			live.stop();
			clock.advance(600_000);
			assert.equal(arrived.length, 5);
		} finally {
			clock.stop();
			sandbox.close();
		}
	});

	it('changes the account seen through the API in live mode, and reset() brings back the seeded state', async function () {
		this.timeout(30_000);
		const emulator = await startEmulator({
			size: 'small',
			clock: 'manual',
			live: true,
			liveRatePerMinute: 60,
			passwordCost: 1024,
		});
		try {
			const count = async () => {
				const page = await callGet(emulator, 'posting', 'GetApplicationsPaged', {
					sAPIKey: emulator.demo.apiKey,
					sApplicationStartDateTime: '2000-01-01',
					CurrentPage: '1',
					RowsPerPage: '1',
				});
				return Number(page.children.find((element) => element.local === 'TotalItemCount')?.text ?? NaN);
			};
			const seeded = await count();
			assert.ok(Number.isFinite(seeded), 'the page reports a total');
			emulator.advance(10_000);
			assert.equal(await count(), seeded + 10);
			await emulator.reset();
			assert.equal(await count(), seeded);
		} finally {
			await emulator.stop();
		}
	});
});
