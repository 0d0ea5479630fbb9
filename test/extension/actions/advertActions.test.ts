import * as assert from 'node:assert/strict';
import type { MultipostingClient } from '../../../src/client';
import type { Advert } from '../../../src/protocol/catalogue';
import { formatDeliveryLog, formatFeeds, showDeliveryLog, showFeeds } from '../../../src/extension/actions/advertFlows';
import { createTestWorkbench, type TestWorkbench } from '../harness';

describe('advert actions and flows (real emulator)', function () {
	this.timeout(60_000);
	let wb: TestWorkbench;
	let client: MultipostingClient;

	before(async function () {
		wb = createTestWorkbench();
		client = await wb.services.activeClient();
	});
	after(async function () {
		await wb.dispose();
	});

	async function postedAdvert(): Promise<Advert> {
		const page = await client.getAdvertPaged({
			sUsername: 'demo.admin',
			sSearchDays: '-1',
			sAdvertStatusIDs: '0',
			CurrentPage: 1,
			RowsPerPage: 50,
		});
		// NotDelivered (0) means never posted (LastPostDate is then .NET's empty date).
		const advert = page.Adverts!.find((a) => (a.LastDeliveryStatusID ?? 0) !== 0);
		assert.ok(advert, 'the demo data has a posted advert');
		return advert;
	}

	/** The names of the job boards an advert was delivered to, from its log. */
	async function postedBoards(advertId: number): Promise<string[]> {
		const tracking = await client.advertTrackingResponseLog({ sAdvertID: String(advertId) });
		return [...new Set(tracking.map((t) => t.FeedName!).filter(Boolean))];
	}

	it('offers only the boards the advert was posted to, all ticked, and confirms quota and cost before posting', async function () {
		const advert = await postedAdvert();
		const boards = await postedBoards(advert.AdvertID!);
		assert.ok(boards.length > 0, 'the advert was delivered before');
		const before = (await client.advertTrackingResponseLog({ sAdvertID: String(advert.AdvertID) })).length;
		let offered: string[] = [];
		let ticked: string[] = [];
		wb.ui.script(
			{
				pickMany: (items) => {
					offered = items.map((i) => i.label);
					ticked = items.filter((i) => i.picked).map((i) => i.label);
					return items.filter((i) => i.picked);
				},
			},
			{ modal: 'Express Post' },
		);
		assert.equal(await wb.services.adverts.expressPost({ advertId: advert.AdvertID! }), true);
		assert.deepEqual([...offered].sort(), [...boards].sort(), 'exactly the boards of its delivery log');
		assert.ok(ticked.length > 0);
		const pick = wb.ui.calls.filter((c) => c.kind === 'pickMany').at(-1)!;
		assert.equal(pick.options?.title, `Express post “${advert.AdvertTitle}” (advert ${advert.AdvertID})`);
		assert.ok(
			pick.items!.every((i) => /postings left|no quota left/.test(i.description ?? '')),
			'each board says its quota',
		);
		const confirm = wb.ui.messages('warnModal').at(-1)!;
		assert.equal(
			confirm,
			`Express post “${advert.AdvertTitle}” (advert ${advert.AdvertID}) to ${ticked.join(', ')}?`,
		);
		assert.match(
			wb.ui.messages('info').at(-1)!,
			new RegExp(`^“.+” \\(advert ${advert.AdvertID}\\) will be delivered again to ${ticked.join(', ')}\\.$`),
		);
		const after = (await client.advertTrackingResponseLog({ sAdvertID: String(advert.AdvertID) })).length;
		assert.ok(after > before, 'new deliveries were logged');
	});

	it('posts nothing when the user does not confirm', async function () {
		const advert = await postedAdvert();
		const before = (await client.advertTrackingResponseLog({ sAdvertID: String(advert.AdvertID) })).length;
		wb.ui.script({ pickMany: (items) => items }, { modal: undefined });
		assert.equal(
			await wb.services.adverts.expressPost({ advertId: advert.AdvertID!, title: advert.AdvertTitle }),
			false,
		);
		const after = (await client.advertTrackingResponseLog({ sAdvertID: String(advert.AdvertID) })).length;
		assert.equal(after, before);
	});

	it('says an advert that was never posted cannot be express posted, and offers nothing to pick', async function () {
		const created = await client.addAdvert({ sJobTitle: 'Never posted', sJobDescription: 'x'.repeat(300) });
		const picks = wb.ui.calls.filter((c) => c.kind === 'pickMany').length;
		assert.equal(await wb.services.adverts.expressPost({ advertId: created.AdvertID! }), false);
		assert.equal(wb.ui.calls.filter((c) => c.kind === 'pickMany').length, picks);
		assert.equal(
			wb.ui.messages('info').at(-1),
			`“Never posted” (advert ${created.AdvertID}) has never been posted, so it cannot be express posted. Complete its posting first.`,
		);
	});

	it('opens the web interface after showing the host and asking', async function () {
		wb.ui.script({ modal: 'Open' });
		await wb.services.adverts.openInWebInterface();
		const modal = wb.ui.messages('warnModal').at(-1)!;
		const host = new URL(wb.sandbox.running!.baseUrl).host;
		assert.equal(modal, `Open the web interface at ${host}?`);
		assert.ok(wb.ui.messages('openExternal').at(-1)!.startsWith(`${wb.sandbox.running!.baseUrl}/login/`));
	});

	it('does not open the web interface when the user declines', async function () {
		const opened = wb.ui.messages('openExternal').length;
		wb.ui.script({ modal: undefined });
		await wb.services.adverts.openInWebInterface();
		assert.equal(wb.ui.messages('openExternal').length, opened);
	});

	it('shows the delivery log and the feeds as documents', async function () {
		const advert = await postedAdvert();
		await showDeliveryLog(wb.services, wb.ui, { advertId: advert.AdvertID! });
		const log = wb.ui.documents.at(-1)!;
		assert.equal(log.language, 'plaintext');
		assert.match(log.content, new RegExp(`^Delivery log of “.+” \\(advert ${advert.AdvertID}\\)`));
		assert.equal(log.title, `Delivery log of ${advert.AdvertTitle} (${advert.AdvertID})`);
		await showFeeds(wb.services, wb.ui);
		const feeds = wb.ui.documents.at(-1)!;
		assert.equal(feeds.language, 'markdown');
		assert.equal(feeds.title, 'Feeds and quota of demo.admin');
		assert.match(feeds.content, /^# Feeds and quota of demo\\\.admin/);
		assert.ok(feeds.content.split('\n').filter((l) => l.startsWith('| ')).length > 10);
	});

	it('formats empty logs and escapes feed names', function () {
		assert.equal(formatDeliveryLog({ advertId: 4 }, []), 'Delivery log of advert 4: nothing delivered yet.\n');
		assert.equal(
			formatDeliveryLog(
				{ advertId: 4, title: 'Chef' },
				[
					{ DeliveryDate: '2026-02-03T04:05:06', FeedName: 'Board', PostingID: 9, ErrorLevel: 'Info' },
					{ DeliveryDate: '0001-01-01T00:00:00', FeedID: 2, Response: 'queued' },
					{ DeliveryDate: '2026-02-03T05:00:00', FeedName: 'Reed', PostingID: 10, ErrorLevel: 'Pending' },
					{ DeliveryDate: '2026-02-03T06:00:00', FeedName: 'Reed', PostingID: 10, ErrorLevel: 'None' },
				],
				{ locale: 'en-GB', timeZone: 'UTC' },
			),
			[
				'Delivery log of “Chef” (advert 4)',
				'',
				'3 Feb 2026, 04:05 (2026-02-03T04:05:06Z)  Board  posting 9  Info',
				'(no date)  job board 2  posting ?',
				'    queued',
				'3 Feb 2026, 05:00 (2026-02-03T05:00:00Z)  Reed  posting 10  Queued, not delivered yet (ErrorLevel Pending)',
				'3 Feb 2026, 06:00 (2026-02-03T06:00:00Z)  Reed  posting 10  Delivered (ErrorLevel None)',
				'',
			].join('\n'),
		);
		const md = formatFeeds('x', [{ FeedName: '[x](javascript:alert(1))', FeedIdentifier: 'a|b' }]);
		assert.ok(!md.includes('[x](javascript'));
		assert.ok(md.includes('a\\|b'));
	});
});
