import * as assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEmulator, type RunningEmulator } from '../../../src/emulator';
import { callGet, demoLogin, field, launchBrowser, screenshotPath, startPrefixProxy } from './helpers';

const LONG_DESCRIPTION = 'We are hiring a pastry chef to run our bakery counter in Leeds. '.repeat(6);

describe('emulator web pages (headless Chromium)', function () {
	this.timeout(60_000);
	let emulator: RunningEmulator;
	let browser: Browser;
	let page: Page;

	before(async () => {
		emulator = await startEmulator({ size: 'small', clock: 'manual', deliveryDelayMs: 5_000, passwordCost: 1024 });
		browser = await launchBrowser();
	});
	after(async () => {
		await browser?.close();
		await emulator?.stop();
	});
	beforeEach(async () => {
		page = await browser.newPage();
	});
	afterEach(async () => {
		await page.close();
	});

	async function addAdvert(extra: Record<string, string>): Promise<{ advertId: string; redirectUrl: string }> {
		const result = await callGet(emulator, 'posting', 'AddAdvert', {
			...demoLogin(emulator),
			sJobTitle: 'Pastry Chef',
			sPrimaryLocation: 'Leeds',
			sJobDescription: LONG_DESCRIPTION,
			...extra,
		});
		return { advertId: field(result, 'AdvertID')!, redirectUrl: field(result, 'RedirectUrl')! };
	}

	async function trackingLogs(advertId: string): Promise<{ errorLevel: string; response: string }[]> {
		const result = await callGet(emulator, 'posting', 'AdvertTrackingResponseLog', {
			sAPIKey: emulator.demo.apiKey,
			sAdvertID: advertId,
		});
		return result.children.map((log) => ({
			errorLevel: field(log, 'ErrorLevel') ?? '',
			response: field(log, 'Response') ?? '',
		}));
	}

	async function advertDelivery(advertId: string): Promise<{ status: string; date: string | undefined }> {
		const result = await callGet(emulator, 'posting', 'GetAdvertPaged', {
			sAPIKey: emulator.demo.apiKey,
			sAdvertID: advertId,
			CurrentPage: '1',
			RowsPerPage: '1',
		});
		return { status: field(result, 'LastDeliveryStatusID') ?? '', date: field(result, 'LastDeliveryDate') };
	}

	it('completes a posting: feed choice, confirm, pending postings, then delivery on the clock', async () => {
		const { advertId, redirectUrl } = await addAdvert({ sAdvertIdentifier: 'WEB-1', DestinationsAsCSV: '108,101' });
		assert.match(redirectUrl, /\/complete-posting\//);
		const response = await page.goto(redirectUrl);
		assert.equal(response?.status(), 200);
		assert.match(
			response?.headers()['content-security-policy'] ?? '',
			/default-src 'none'; style-src 'nonce-[^']+'.*frame-ancestors 'none'/,
		);
		await page.getByRole('heading', { level: 1, name: 'Complete your posting' }).waitFor();
		assert.equal(await page.getByRole('link', { name: 'Skip to content' }).count(), 1);
		assert.ok(await page.getByRole('checkbox', { name: /^Totaljobs/ }).isChecked());
		assert.ok(await page.getByRole('checkbox', { name: /^Indeed/ }).isChecked());
		assert.ok(
			await page
				.getByText(/Quota: \d+ of \d+ postings used/)
				.first()
				.isVisible(),
		);
		// Force-selected feeds are checked and disabled; they are posted too.
		const forced = await page.getByRole('checkbox', { disabled: true }).count();
		for (const box of await page.getByRole('checkbox', { disabled: true }).all()) assert.ok(await box.isChecked());
		const expected = 2 + forced;
		await page.screenshot({ path: screenshotPath('complete-posting-form'), fullPage: true });

		await page.getByRole('button', { name: 'Confirm and post' }).click();
		await page.getByRole('heading', { level: 1, name: 'Posting completed' }).waitFor();
		const rows = page.locator('tbody tr');
		assert.equal(await rows.count(), expected);
		assert.ok((await rows.allInnerTexts()).every((row) => /Pending/.test(row)));
		assert.ok((await rows.allInnerTexts()).some((row) => /Totaljobs/.test(row)));
		await page.screenshot({ path: screenshotPath('complete-posting-done'), fullPage: true });

		const pending = await trackingLogs(advertId);
		assert.deepEqual(
			pending.map((log) => log.errorLevel),
			new Array<string>(expected).fill('Pending'),
		);
		assert.equal((await advertDelivery(advertId)).status, '1');

		emulator.advance(4_999);
		assert.equal(
			(await trackingLogs(advertId)).length,
			expected,
			'nothing is delivered before the delay has passed',
		);
		emulator.advance(1);
		const delivered = await trackingLogs(advertId);
		assert.equal(delivered.length, 2 * expected);
		assert.ok(
			delivered
				.slice(expected)
				.every(
					(log) => log.errorLevel === 'None' && /^Delivered: job board reference \d+\.$/.test(log.response),
				),
		);
		const advert = await advertDelivery(advertId);
		assert.equal(advert.status, '2');
		assert.ok(advert.date);

		// The page now shows the delivered postings, and offers no second submission.
		const again = await page.goto(redirectUrl);
		assert.equal(again?.status(), 200);
		assert.equal(await page.getByRole('button', { name: 'Confirm and post' }).count(), 0);
		assert.ok((await page.locator('tbody tr').allInnerTexts()).every((row) => /Delivered/.test(row)));
		await page.screenshot({ path: screenshotPath('complete-posting-delivered'), fullPage: true });
	});

	it('shows validation errors on the page and stores nothing', async () => {
		const { advertId, redirectUrl } = await addAdvert({
			sAdvertIdentifier: 'WEB-2',
			sJobDescription: 'Too short.',
		});
		await page.goto(redirectUrl);
		for (const box of await page.getByRole('checkbox').all()) if (await box.isEnabled()) await box.check();
		const [response] = await Promise.all([
			page.waitForResponse((r) => r.request().method() === 'POST'),
			page.getByRole('button', { name: 'Confirm and post' }).click(),
		]);
		assert.equal(response.status(), 422);
		const alert = page.getByRole('alert');
		await alert.waitFor();
		assert.match(await alert.innerText(), /The posting was not completed/);
		assert.match(await alert.innerText(), /the job description is too short \(10 characters; at least \d+\)/);
		await page.screenshot({ path: screenshotPath('complete-posting-errors'), fullPage: true });
		assert.deepEqual(await trackingLogs(advertId), []);
		assert.equal((await advertDelivery(advertId)).status, '0');
	});

	it('renders for an iframe when sIframe is true (no page chrome, framing allowed)', async () => {
		const { redirectUrl } = await addAdvert({ sAdvertIdentifier: 'WEB-3', sIframe: 'true' });
		const response = await page.goto(redirectUrl);
		assert.match(response?.headers()['content-security-policy'] ?? '', /frame-ancestors \*/);
		assert.equal(response?.headers()['x-frame-options'], undefined);
		assert.equal(await page.locator('header').count(), 0);
		await page.getByRole('heading', { level: 1, name: 'Complete your posting' }).waitFor();
	});

	it('refuses a form without the CSRF token of this completion', async () => {
		const { redirectUrl } = await addAdvert({ sAdvertIdentifier: 'WEB-4' });
		const response = await fetch(redirectUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'csrf=forged&feed=108',
		});
		assert.equal(response.status, 403);
	});

	it('signs in once through the login URL, lands on the return page, and refuses the second use with 410', async () => {
		const login = await callGet(emulator, 'posting', 'GetLoginURL', {
			...demoLogin(emulator),
			returnUrl: '/web/applications',
		});
		const url = field(login, 'RedirectUrl')!;
		assert.match(url, /\/login\//);
		const first = await page.goto(url);
		assert.equal(first?.status(), 200);
		assert.match(page.url(), /\/web\/applications$/);
		await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
		assert.ok((await page.getByRole('columnheader').allInnerTexts()).includes('AdvertCandidateID'));
		assert.match(await page.getByRole('navigation', { name: 'Pages' }).innerText(), /Page 1 of \d+/);
		const [cookie] = await page.context().cookies();
		assert.equal(cookie.httpOnly, true);
		assert.equal(cookie.sameSite, 'Strict');
		await page.screenshot({ path: screenshotPath('web-applications'), fullPage: true });

		await page.getByRole('link', { name: 'Adverts' }).click();
		await page.getByRole('heading', { level: 1, name: 'Adverts' }).waitFor();
		await page.getByRole('link', { name: 'Postings' }).click();
		await page.getByRole('heading', { level: 1, name: 'Postings' }).waitFor();
		assert.ok((await page.locator('tbody tr').count()) > 0);
		await page.screenshot({ path: screenshotPath('web-postings'), fullPage: true });

		const second = await page.goto(url);
		assert.equal(second?.status(), 410);
		await page.getByRole('heading', { level: 1, name: 'Login link used or expired' }).waitFor();
		await page.screenshot({ path: screenshotPath('login-used'), fullPage: true });
	});

	it('lands on the account page without a return URL, and asks for a login without a session', async () => {
		const login = await callGet(emulator, 'posting', 'GetLoginURL', demoLogin(emulator));
		const response = await fetch(field(login, 'RedirectUrl')!, { redirect: 'manual' });
		assert.equal(response.status, 303);
		// Relative, so that it stays inside any path prefix the sandbox is served under.
		assert.equal(response.headers.get('location'), '../web/');
		assert.match(
			response.headers.get('set-cookie') ?? '',
			/^mp_sandbox_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=1800$/,
		);
		const anonymous = await fetch(`${emulator.baseUrl}/web/adverts`);
		assert.equal(anonymous.status, 401);
		const forged = await fetch(`${emulator.baseUrl}/web/adverts`, {
			headers: { cookie: 'mp_sandbox_session=forged' },
		});
		assert.equal(forged.status, 401);
	});

	describe('behind a path prefix (as code-server serves it at /proxy/<port>/)', function () {
		let proxy: { origin: string; prefix: string; requests: string[]; stop(): Promise<void> };

		before(async () => {
			proxy = await startPrefixProxy(emulator.baseUrl);
		});
		after(async () => {
			await proxy?.stop();
		});

		/** Every link of the page resolves inside the prefix. */
		async function assertLinksStayInside(): Promise<void> {
			const hrefs = await page
				.locator('a[href]')
				.evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
			for (const href of hrefs) {
				assert.ok(href.startsWith(`${proxy.origin}${proxy.prefix}`), `${href} leaves ${proxy.prefix}`);
			}
			const actions = await page
				.locator('form')
				.evaluateAll((forms) => forms.map((f) => (f as HTMLFormElement).action));
			for (const action of actions) assert.ok(action.startsWith(`${proxy.origin}${proxy.prefix}`), action);
		}

		it('completes a posting through the prefix: the form posts and redirects inside it', async () => {
			const { redirectUrl } = await addAdvert({ sAdvertIdentifier: 'WEB-PROXY-1', DestinationsAsCSV: '108' });
			const proxied = redirectUrl.replace(emulator.baseUrl, `${proxy.origin}${proxy.prefix.slice(0, -1)}`);
			await page.goto(proxied);
			await page.getByRole('heading', { level: 1, name: 'Complete your posting' }).waitFor();
			await assertLinksStayInside();
			await page.getByRole('button', { name: 'Confirm and post' }).click();
			await page.getByRole('heading', { level: 1, name: 'Posting completed' }).waitFor();
			assert.equal(page.url(), proxied);
			assert.ok(
				proxy.requests.every((path) => path.startsWith(proxy.prefix)),
				proxy.requests.join(' '),
			);
		});

		it('signs in and walks the web interface (advert, application, notes and tags) without leaving the prefix', async () => {
			const applications = await callGet(emulator, 'posting', 'GetApplicationsPaged', {
				sAPIKey: emulator.demo.apiKey,
				sUsername: emulator.demo.username,
				sApplicationStartDateTime: '2000-01-01 00:00:00',
				CurrentPage: '1',
				RowsPerPage: '1',
			});
			const advertId = field(applications, 'AdvertID')!;
			const applicationId = field(applications, 'AdvertCandidateID')!;
			const email = field(applications, 'EmailAddress')!;
			await callGet(emulator, 'posting', 'AddAdvertCandidateNote', {
				...demoLogin(emulator),
				sAdvertID: advertId,
				sAdvertCandidateID: applicationId,
				sSubject: 'Phone screen <b>',
				sBody: 'Strong candidate; call back on Monday.',
			});
			await callGet(emulator, 'posting', 'CandidateTag', {
				sAPIKey: emulator.demo.apiKey,
				sCandidateEmail: email,
				Tag: 'Shortlist 2026',
			});
			await callGet(emulator, 'posting', 'CandidateTagPartner', {
				sAPIKey: emulator.demo.apiKey,
				sCandidateEmail: email,
				PartnerTag: 'PartnerAccepted',
			});
			const login = await callGet(emulator, 'posting', 'GetLoginURL', {
				...demoLogin(emulator),
				returnUrl: `/web/adverts/${advertId}`,
			});
			const url = field(login, 'RedirectUrl')!.replace(
				emulator.baseUrl,
				`${proxy.origin}${proxy.prefix.slice(0, -1)}`,
			);
			await page.goto(url);
			assert.equal(page.url(), `${proxy.origin}${proxy.prefix}web/adverts/${advertId}`);
			await page
				.getByRole('table', { name: 'Postings' })
				.or(page.getByText('No postings yet.'))
				.first()
				.waitFor();
			await assertLinksStayInside();
			await page.screenshot({ path: screenshotPath('web-advert-behind-proxy'), fullPage: true });
			await page.locator(`a[href$="applications/${applicationId}"]`).first().click();
			await page.getByRole('heading', { level: 2, name: 'Notes' }).waitFor();
			assert.match(
				await page.locator('.note').first().innerText(),
				/Phone screen <b>\s+Strong candidate; call back on Monday\./,
			);
			assert.deepEqual(await page.locator('.tags li').allInnerTexts(), ['Partner: Accepted', 'Shortlist 2026']);
			await assertLinksStayInside();
			await page.screenshot({ path: screenshotPath('web-application-notes'), fullPage: true });
			for (const name of ['Applications', 'Postings', 'Adverts', 'Account']) {
				await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name }).click();
				await page.getByRole('heading', { level: 1 }).first().waitFor();
				await assertLinksStayInside();
			}
			await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Applications' }).click();
			assert.ok((await page.getByRole('columnheader').allInnerTexts()).includes('Tags'));
			assert.ok(
				proxy.requests.every((path) => path.startsWith(proxy.prefix)),
				proxy.requests.join(' '),
			);
		});

		it('serves the endpoint and operation pages with links inside the prefix', async () => {
			await page.goto(`${proxy.origin}${proxy.prefix}`);
			await page.getByRole('heading', { level: 1, name: 'Multiposting sandbox' }).waitFor();
			await assertLinksStayInside();
			await page.getByRole('link', { name: 'Posting endpoint' }).click();
			await page.getByRole('link', { name: 'GetCurrency' }).click();
			await page.getByRole('heading', { level: 1, name: 'GetCurrency' }).waitFor();
			await assertLinksStayInside();
			await page.getByRole('link', { name: /Back to all operations/ }).click();
			await page.getByRole('link', { name: 'All endpoints' }).click();
			assert.equal(page.url(), `${proxy.origin}${proxy.prefix}`);
			const wsdl = await page.getByRole('link', { name: 'WSDL' }).first().getAttribute('href');
			assert.match(wsdl ?? '', /^SOAP\/Posting\.asmx\?WSDL$/);
		});
	});
});
