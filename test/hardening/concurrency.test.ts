/**
 * Many clients at once scoring, progressing, noting and tagging the same applications and posting
 * adverts: no lost update, no duplicate id, counters consistent with the applications afterwards.
 */
import * as assert from 'node:assert/strict';
import type { MultipostingClient } from '../../src/client';
import type { RunningEmulator } from '../../src/emulator';
import { BINDING_NAMES } from '../../src/protocol/bindings/types';
import type { APIApplication } from '../../src/protocol/catalogue';
import { clientFor, SANDBOX_START_TIMEOUT_MS, startSandbox } from '../integration/support';

const CLIENTS = 8;
const CALLS_PER_CLIENT = 30;
const SCORES = ['S', 'M', 'U', 'N'] as const;

describe('hardening: concurrency', function () {
	this.timeout(180_000);
	let emulator: RunningEmulator;
	let clients: MultipostingClient[] = [];

	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		emulator = await startSandbox();
		clients = Array.from({ length: CLIENTS }, (_, i) =>
			clientFor(emulator, { binding: BINDING_NAMES[i % BINDING_NAMES.length], timeoutMs: 60_000 }),
		);
	});

	after(async () => {
		for (const client of clients) await client.close();
		await emulator?.stop();
	});

	it(`${CLIENTS} clients x ${CALLS_PER_CLIENT} calls: no lost note, no duplicate AdvertID, consistent counters`, async () => {
		const reader = clients[0];
		const adverts = await reader.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 500 });
		const advert = adverts
			.Adverts!.filter((a) => (a.Applications ?? 0) >= 8)
			.sort((a, b) => b.Applications! - a.Applications!)[0];
		const advertId = String(advert.AdvertID);
		const all = await reader.getApplicationsPaged({ sAdvertID: advertId, CurrentPage: 1, RowsPerPage: 500 });
		const targets = all.Applications!.slice(0, 6);

		const noteIds: number[] = [];
		const advertIds: number[] = [];
		const noted = new Map<number, number>();
		const failures: unknown[] = [];
		const runClient = async (client: MultipostingClient, c: number): Promise<void> => {
			for (let i = 0; i < CALLS_PER_CLIENT; i++) {
				const target = targets[(c + i) % targets.length];
				const applicationId = String(target.AdvertCandidateID);
				try {
					switch (i % 5) {
						case 0: {
							const note = await client.addAdvertCandidateNote({
								sAdvertID: advertId,
								sAdvertCandidateID: applicationId,
								sSubject: `c${c}`,
								sBody: `client ${c} call ${i}`,
							});
							noteIds.push(note.AdvertCandidateNoteID!);
							noted.set(target.AdvertCandidateID!, (noted.get(target.AdvertCandidateID!) ?? 0) + 1);
							break;
						}
						case 1:
							assert.equal(
								(
									await client.applicationScore({
										sAdvertID: advertId,
										sAdvertCandidateID: applicationId,
										sScore: SCORES[(c + i) % SCORES.length],
									})
								).Success,
								true,
							);
							break;
						case 2:
							assert.equal(
								(
									await client.applicationProgress({
										sAdvertID: advertId,
										sAdvertCandidateID: applicationId,
										sProgressID: String(1 + ((c + i) % 7)),
									})
								).Success,
								true,
							);
							break;
						case 3:
							assert.equal(
								(await client.candidateTag({ sCandidateEmail: target.EmailAddress, Tag: `Batch ${c}` }))
									.Success,
								true,
							);
							break;
						default: {
							const created = await client.addAdvert({
								sAdvertIdentifier: `CONC-${c}-${i}`,
								sJobTitle: `Concurrent ${c}/${i}`,
							});
							advertIds.push(created.AdvertID!);
						}
					}
				} catch (error) {
					failures.push(error);
				}
			}
		};
		await Promise.all(clients.map(runClient));

		assert.deepEqual(failures, [], 'every concurrent call succeeded');
		const expectedNotes = CLIENTS * Math.ceil(CALLS_PER_CLIENT / 5);
		assert.equal(noteIds.length, expectedNotes);
		assert.equal(new Set(noteIds).size, noteIds.length, 'each note got its own AdvertCandidateNoteID');
		assert.equal(new Set(advertIds).size, advertIds.length, 'no AdvertID was handed out twice');

		for (const created of advertIds.slice(0, 8)) {
			const found = await reader.getAdvertPaged({ sAdvertID: String(created), CurrentPage: 1, RowsPerPage: 1 });
			assert.equal(found.TotalItemCount, 1, `advert ${created} is there`);
		}
		const posted = await reader.getAdvertPaged({ sSearchDays: '-1', CurrentPage: 1, RowsPerPage: 500 });
		const concurrent = posted.Adverts!.filter((a) => a.AdvertIdentifier?.startsWith('CONC-'));
		assert.equal(concurrent.length, advertIds.length, 'every acknowledged advert is found once');

		const after = await reader.getApplicationsPaged({ sAdvertID: advertId, CurrentPage: 1, RowsPerPage: 500 });
		const count = (ranking: string): number =>
			after.Applications!.filter((a: APIApplication) => a.Ranking === ranking).length;
		const advertAfter = (await reader.getAdvertPaged({ sAdvertID: advertId, CurrentPage: 1, RowsPerPage: 1 }))
			.Adverts![0];
		assert.equal(advertAfter.Suitable, count('Suitable'));
		assert.equal(advertAfter.MaybeSuitable, count('MaybeSuitable'));
		assert.equal(advertAfter.Unsuitable, count('Unsuitable'));
		assert.equal(advertAfter.Applications, after.TotalItemCount);
		for (const target of targets) {
			const now = after.Applications!.find((a) => a.AdvertCandidateID === target.AdvertCandidateID)!;
			if (noted.has(target.AdvertCandidateID!)) {
				assert.ok(now.LastNoteDate, 'a noted application has a LastNoteDate');
			}
			assert.ok(now.LastScoreDate && now.LastProgressDate, 'scored and progressed applications carry both dates');
		}
	});
});
