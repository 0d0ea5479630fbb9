import * as assert from 'node:assert/strict';
import type { MultipostingClient } from '../../../src/client';
import type { Advert } from '../../../src/protocol/catalogue';
import {
	checkAnswer,
	createAdvertFlow,
	formatDeliveryLog,
	formatFeeds,
	showDeliveryLog,
	showFeeds,
} from '../../../src/extension/actions/advertFlows';
import { pickValue, type Answer } from '../fakes';
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
		// LastPostDate is always written (the creation date until posted); NotDelivered (0) means never posted.
		const advert = page.Adverts!.find((a) => (a.LastDeliveryStatusID ?? 0) !== 0);
		assert.ok(advert, 'the demo data has a posted advert');
		return advert;
	}

	it('express posts to all previous destinations', async function () {
		const advert = await postedAdvert();
		wb.ui.script(pickValue('all'));
		assert.equal(await wb.services.adverts.expressPost({ advertId: advert.AdvertID! }), true);
		assert.match(
			wb.ui.messages('info').at(-1)!,
			new RegExp(`Advert ${advert.AdvertID} will be delivered again to \\d+ job board`),
		);
	});

	it("express posts to destinations picked from the user's feeds", async function () {
		const advert = await postedAdvert();
		const tracking = await client.advertTrackingResponseLog({ sAdvertID: String(advert.AdvertID) });
		const previousFeed = tracking.find((t) => t.FeedName)?.FeedName;
		assert.ok(previousFeed, 'the advert was delivered to a feed before');
		let offered = 0;
		wb.ui.script(pickValue('pick'), {
			pickMany: (items) => {
				offered = items.length;
				return items.filter((i) => i.label === previousFeed);
			},
		});
		assert.equal(await wb.services.adverts.expressPost({ advertId: advert.AdvertID! }), true);
		assert.ok(offered >= 10, "the demo account's feeds are offered");
		assert.match(wb.ui.messages('info').at(-1)!, /will be delivered again to 1 job board\.$/);
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

	it('creates an advert through every step and the service then finds it', async function () {
		const answers: Answer[] = [
			{ input: 'Workbench test engineer' },
			pickValue('P'),
			pickValue('F'),
			{ input: 'Leeds' },
			{ input: '30000' },
			{ input: '40000' },
			pickValue('GBP'),
			pickValue('Y'),
			{ input: 'Dana Whitfield' },
			{ input: 'dana@acme-recruitment.example' },
			{ input: 'Builds and tests VS Code extensions.' },
			{ pickMany: (items) => items.slice(0, 2) },
			{ input: '' },
		];
		wb.ui.script(...answers);
		const advertId = await createAdvertFlow(wb.services, wb.ui);
		assert.equal(wb.ui.remaining, 0, 'every step was asked');
		assert.ok(typeof advertId === 'number' && advertId > 0);
		const steps = wb.ui.calls.filter(
			(c) =>
				(c.kind === 'input' || c.kind === 'pick' || c.kind === 'pickMany') &&
				c.options?.title === 'Create advert',
		);
		assert.deepEqual(
			steps.map((s) => s.options?.step),
			[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
		);
		const page = await client.getAdvertPaged({
			sAdvertID: String(advertId),
			sSearchDays: '-1',
			CurrentPage: 1,
			RowsPerPage: 1,
		});
		const created = page.Adverts![0];
		assert.equal(created.AdvertTitle, 'Workbench test engineer');
		assert.equal(created.PrimaryLocation, 'Leeds');
		assert.equal(created.SalaryCurrency, 'GBP');
		assert.match(wb.ui.messages('info').at(-1)!, /^Advert \d+ "Workbench test engineer" was created\./);
	});

	it('validates the answers with the catalogue rules the client and the sandbox use', function () {
		assert.equal(
			checkAnswer('sSalaryFrom', 'lots'),
			"sSalaryFrom must be numeric, e.g. 35000 or 12.50; got 'lots'.",
		);
		assert.equal(checkAnswer('sSalaryFrom', '25000.50'), undefined);
		assert.equal(checkAnswer('sContactEmail', 'nobody'), "sContactEmail is not an email address: 'nobody'.");
		assert.equal(checkAnswer('sFuturePostDateTimeInUtc', '2026-12-1 09:00:00'), undefined);
		assert.match(checkAnswer('sFuturePostDateTimeInUtc', 'tomorrow')!, /is not a date and time: 'tomorrow'/);
		assert.match(checkAnswer('sJobType', 'X')!, /^sJobType must be one of P, C, T; got 'X'\.$/);
		assert.equal(checkAnswer('sJobTitle', ' ', true), 'This field is required');
	});

	it('shows the delivery log and the feeds as documents', async function () {
		const advert = await postedAdvert();
		await showDeliveryLog(wb.services, wb.ui, { advertId: advert.AdvertID! });
		const log = wb.ui.documents.at(-1)!;
		assert.equal(log.language, 'plaintext');
		assert.match(log.content, new RegExp(`^Delivery log of advert ${advert.AdvertID}`));
		await showFeeds(wb.services, wb.ui);
		const feeds = wb.ui.documents.at(-1)!;
		assert.equal(feeds.language, 'markdown');
		assert.match(feeds.content, /^# Feeds and quota of demo\\\.admin/);
		assert.ok(feeds.content.split('\n').filter((l) => l.startsWith('| ')).length > 10);
	});

	it('formats empty logs and escapes feed names', function () {
		assert.equal(formatDeliveryLog({ advertId: 4 }, []), 'Advert 4: no deliveries yet.\n');
		const md = formatFeeds('x', [{ FeedName: '[x](javascript:alert(1))', FeedIdentifier: 'a|b' }]);
		assert.ok(!md.includes('[x](javascript'));
		assert.ok(md.includes('a\\|b'));
	});
});
