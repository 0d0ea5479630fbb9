import * as assert from 'node:assert/strict';
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import type { AdvertToHostMessage, ApplicationToHostMessage, DocumentView } from '../../src/shared/panelMessages';
import { renderAdvert } from '../../src/webview/advert/render';
import { renderHeader, renderOverview } from '../../src/webview/application/render';
import { formatDateTime } from '../../src/shared/dates';
import {
	frameBlock,
	renderDocumentView,
	updaterKey,
	type DocumentContext,
} from '../../src/webview/common/documentView';
import { createTabs } from '../../src/webview/common/tabs';
import { buildAdvertView } from '../../src/extension/panels/models';

function setup(): { doc: Document; window: JSDOM['window']; ctx: DocumentContext; posted: ApplicationToHostMessage[] } {
	const dom = new JSDOM('<!DOCTYPE html><body></body>');
	const posted: ApplicationToHostMessage[] = [];
	const ctx: DocumentContext = {
		doc: dom.window.document,
		purify: createDOMPurify(dom.window as unknown as Parameters<typeof createDOMPurify>[0]),
		post: (m) => posted.push(m),
		updaters: new Map(),
	};
	return { doc: dom.window.document, window: dom.window, ctx, posted };
}

/** Nothing in the panel's own DOM may need 'unsafe-inline' or run code. */
function assertPanelDomIsInert(root: Element): void {
	for (const element of [root, ...Array.from(root.querySelectorAll('*'))]) {
		assert.equal(element.hasAttribute('style'), false, `${element.localName} has a style attribute`);
		for (const attribute of Array.from(element.attributes)) {
			assert.ok(!/^on/i.test(attribute.name), `${element.localName} has ${attribute.name}`);
		}
		assert.notEqual(element.localName, 'script');
		assert.notEqual(element.localName, 'a');
	}
}

const HOSTILE_BODY =
	'<h1 onclick="document.title=1">Hello</h1><script>document.title="pwned";parent.postMessage("x","*")</script>' +
	'<img src="https://tracker.example/p.gif" onerror="alert(1)"><a href="https://jobs.example/apply">Apply</a><a href="javascript:alert(1)">x</a>' +
	'<style>@import url(https://evil.example/a.css)</style><svg><script>alert(1)</script></svg>';

describe('webview rendering', function () {
	it('puts hostile HTML only into an iframe with an empty sandbox, sanitised, under a locked-down CSP', function () {
		const { doc, ctx, posted } = setup();
		const view: DocumentView = {
			kind: 'html',
			html: { html: HOSTILE_BODY, truncated: false, totalChars: HOSTILE_BODY.length },
		};
		const root = renderDocumentView(ctx, 'emailBody', view);
		doc.body.appendChild(root);
		const frames = root.querySelectorAll('iframe');
		assert.equal(frames.length, 1);
		const frame = frames[0];
		assert.equal(frame.getAttribute('sandbox'), '');
		assert.ok(!/allow-/.test(frame.getAttribute('sandbox') ?? ''));
		const srcdoc = frame.getAttribute('srcdoc') ?? '';
		assert.match(
			srcdoc,
			/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">/,
		);
		const inner = new JSDOM(srcdoc).window.document;
		assert.equal(inner.querySelectorAll('script,svg,style:not(head style),a,img,link').length, 0, srcdoc);
		assert.equal(inner.querySelector('h1')?.textContent, 'Hello');
		assert.equal(inner.querySelector('h1')?.hasAttribute('onclick'), false);
		assert.ok(!/tracker\.example|evil\.example|pwned/.test(srcdoc));
		assert.equal(inner.querySelectorAll('.mp-blocked-image').length, 1);
		// The link is listed below the frame as a button that only asks the host.
		const linkButtons = Array.from(root.querySelectorAll<HTMLButtonElement>('.mp-link-button'));
		assert.deepEqual(
			linkButtons.map((b) => b.textContent),
			['https://jobs.example/apply'],
		);
		linkButtons[0].click();
		assert.deepEqual(posted, [{ type: 'openLink', url: 'https://jobs.example/apply' }]);
		assert.match(root.textContent ?? '', /1 remote image was blocked/);
		assertPanelDomIsInert(root);
	});

	it('shows more of a cut HTML document when the host sends a longer prefix', function () {
		const { ctx, posted } = setup();
		const root = renderDocumentView(ctx, 'emailBody', {
			kind: 'html',
			html: { html: '<p>first</p>', truncated: true, totalChars: 5000 },
		});
		const more = Array.from(root.querySelectorAll('button')).find(
			(b) => b.textContent === 'Show more of this document',
		)!;
		more.click();
		assert.deepEqual(posted.at(-1), { type: 'showMore', tab: 'emailBody', part: undefined, offset: 12 });
		ctx.updaters.get(updaterKey('emailBody'))!.html!({
			html: '<p>first</p><p>second</p>',
			truncated: false,
			totalChars: 5000,
		});
		assert.match(root.querySelector('iframe')!.getAttribute('srcdoc')!, /second/);
		assert.equal(
			Array.from(root.querySelectorAll('button')).some((b) => b.textContent === 'Show more of this document'),
			false,
		);
	});

	it('shows text as text, appends further slices, and offers Save as…', function () {
		const { ctx, posted } = setup();
		const root = renderDocumentView(ctx, 'attachment', {
			kind: 'text',
			fileName: 'cv.txt',
			slice: { text: '<script>alert(1)</script>', offset: 0, totalChars: 40 },
		});
		assert.equal(root.querySelector('pre')?.textContent, '<script>alert(1)</script>');
		assert.equal(root.querySelectorAll('script').length, 0);
		const buttons = Array.from(root.querySelectorAll('button'));
		const more = buttons.find((b) => b.textContent?.startsWith('Show more'))!;
		assert.equal(more.hidden, false);
		more.click();
		assert.deepEqual(posted.at(-1), { type: 'showMore', tab: 'attachment', part: undefined, offset: 25 });
		ctx.updaters.get(updaterKey('attachment'))!.text!({ text: ' and the rest....', offset: 25, totalChars: 40 });
		assert.equal(root.querySelector('pre')?.textContent, '<script>alert(1)</script> and the rest....');
		buttons.find((b) => b.textContent === 'Save as…')!.click();
		assert.deepEqual(posted.at(-1), { type: 'save', tab: 'attachment', part: undefined });
		assertPanelDomIsInert(root);
	});

	it('renders a CV with the raw XML one click away, and shows the raw XML at once when the CV was refused', function () {
		const { ctx } = setup();
		const cv = {
			name: 'Ada <b>Lovelace</b>',
			contact: [{ label: 'Email', value: 'ada@example.com' }],
			summary: '',
			experience: [{ title: 'Programmer', organisation: 'AE', period: '1842', description: '' }],
			education: [],
			skills: ['Maths'],
			languages: [],
		};
		const good = renderDocumentView(ctx, 'parsed', {
			kind: 'cv',
			cv,
			raw: { text: '<Resume/>', offset: 0, totalChars: 9 },
			rawIsPretty: true,
		});
		assert.equal(good.querySelector('h2')?.textContent, 'Ada <b>Lovelace</b>');
		assert.equal(good.querySelectorAll('b').length, 0);
		const raw = good.querySelector<HTMLElement>('.mp-raw')!;
		assert.equal(raw.hidden, true);
		Array.from(good.querySelectorAll('button'))
			.find((b) => b.textContent === 'Show raw XML')!
			.click();
		assert.equal(raw.hidden, false);
		const refused = renderDocumentView(ctx, 'parsed', {
			kind: 'cv',
			problem: 'The parsed data was refused: it contains a DOCTYPE',
			raw: { text: '<!DOCTYPE x>', offset: 0, totalChars: 12 },
			rawIsPretty: false,
		});
		assert.match(refused.textContent ?? '', /refused: it contains a DOCTYPE/);
		assert.equal(refused.querySelector<HTMLElement>('.mp-raw')!.hidden, false);
	});

	it('renders a full email: headers, text and sanitised HTML parts, savable attachments', function () {
		const { ctx, posted } = setup();
		const root = renderDocumentView(ctx, 'email', {
			kind: 'email',
			headers: [
				{ label: 'Subject', value: 'Hi <img src=x onerror=alert(1)>' },
				{ label: 'X-Mailer', value: 'm' },
			],
			parts: [
				{
					index: 0,
					contentType: 'text/plain',
					size: 2,
					body: { kind: 'text', slice: { text: 'hi', offset: 0, totalChars: 2 } },
				},
				{
					index: 1,
					contentType: 'text/html',
					size: 30,
					body: {
						kind: 'html',
						html: { html: '<p onclick=x()>hi</p><script>x</script>', truncated: false, totalChars: 30 },
					},
				},
				{
					index: 2,
					contentType: 'application/pdf',
					fileName: 'cv.pdf',
					size: 100,
					body: { kind: 'attachment' },
				},
			],
		});
		assert.equal(root.querySelectorAll('img').length, 0);
		assert.match(root.querySelector('dd')?.textContent ?? '', /^Hi <img/);
		assert.equal(root.querySelectorAll('iframe[sandbox=""]').length, 1);
		assert.equal(root.querySelectorAll('.mp-email-part').length, 3);
		const save = root.querySelectorAll<HTMLButtonElement>('.mp-email-part button');
		save[save.length - 1].click();
		assert.deepEqual(posted.at(-1), { type: 'save', tab: 'email', part: 2 });
		assertPanelDomIsInert(root);
	});

	it('draws the advert counters as an SVG bar chart sized by attributes, not styles', function () {
		const { doc } = setup();
		const posted: AdvertToHostMessage[] = [];
		const view = buildAdvertView(
			{
				AdvertID: 7,
				AdvertTitle: 'Nurse <script>',
				Applications: 40,
				Viewed: 20,
				Suitable: 10,
				MaybeSuitable: 5,
				Unsuitable: 0,
				InterviewConfirmed: 2,
			},
			{
				tracking: [
					{ PostingID: 1, FeedID: 3, FeedName: 'Board', ErrorLevel: 'Error', Response: '<html>500</html>' },
				],
			},
		);
		const root = renderAdvert(doc, view, (m) => posted.push(m), { purify: setup().ctx.purify });
		assert.equal(root.querySelector('h1')?.textContent, 'Nurse <script>');
		const bars = Array.from(root.querySelectorAll('rect.mp-chart-bar'));
		assert.equal(bars.length, 9);
		assert.deepEqual(
			bars.slice(0, 5).map((b) => b.getAttribute('width')),
			['260', '130', '65', '33', '0'],
		);
		assert.match(bars[0].getAttribute('class') ?? '', /counter-total/);
		assert.match(root.querySelector('table')?.textContent ?? '', /<html>500<\/html>/);
		// Columns say what they hold, the level what happened (the service's word on hover).
		assert.deepEqual(
			Array.from(root.querySelectorAll('table th')).map((th) => th.textContent),
			['Posting', 'Job board', 'Logged at', 'Outcome', 'Job board’s response'],
		);
		const outcome = root.querySelectorAll('table tbody td')[3];
		assert.equal(outcome.textContent, 'Failed');
		assert.equal(outcome.getAttribute('title'), 'ErrorLevel: Error');
		Array.from(root.querySelectorAll('button'))
			.find((b) => b.textContent === 'Express post…')!
			.click();
		Array.from(root.querySelectorAll('button'))
			.find((b) => b.textContent === 'Copy reference')!
			.click();
		assert.deepEqual(posted, [{ type: 'expressPost' }, { type: 'copy', field: 'advertReference' }]);
		assertPanelDomIsInert(root);
	});

	it('sizes the job description frame to its content: a short one is short, a long one is capped', function () {
		const { doc } = setup();
		const frameOf = (html: string) =>
			renderAdvert(doc, buildAdvertView({ AdvertID: 7, JobDescription: html }), () => undefined, {
				purify: setup().ctx.purify,
			}).querySelector<HTMLIFrameElement>('.mp-description iframe')!;
		const short = Number(frameOf('<p>Two lines of duties.</p><p>Apply today.</p>').getAttribute('height'));
		const long = Number(frameOf(`<p>${'Care for patients on the ward. '.repeat(200)}</p>`).getAttribute('height'));
		assert.ok(short > 0 && short <= 120, `a two-paragraph description gets a small frame (${short} px)`);
		assert.ok(long > short * 10, `a long one a tall frame (${long} px), capped by CSS at 60vh`);
		assert.equal(frameOf('<p>x</p>').getAttribute('sandbox'), '', 'still fully sandboxed');
	});

	it("shows panel dates in the user's locale with ISO in the tooltip, service text when it is no date", function () {
		const { doc } = setup();
		// The renderers format with the runtime's locale and zone (VS Code's in a webview): compare with the formatter.
		const local = (iso: string, options = {}) => formatDateTime(iso, options)!.text;
		const view = buildAdvertView(
			{
				AdvertID: 7,
				AdvertTitle: 'Nurse',
				sLastPostDate: '01/02/2026 10:00:00',
				LastPostDate: '2026-02-01T10:00:00',
			},
			{ tracking: [{ PostingID: 1, FeedName: 'Board', DeliveryDate: '2026-02-03T04:05:06Z' }, { PostingID: 2 }] },
		);
		const root = renderAdvert(doc, view, () => undefined, { purify: setup().ctx.purify });
		const posted = Array.from(root.querySelectorAll('dt')).find(
			(dt) => dt.textContent === 'Last posted',
		)!.nextElementSibling!;
		assert.equal(posted.textContent, local('2026-02-01T10:00:00Z'));
		assert.equal(posted.getAttribute('title'), '2026-02-01T10:00:00Z');
		assert.notEqual(posted.textContent, '01/02/2026 10:00:00');
		const cells = Array.from(root.querySelectorAll('table tbody tr')).map((tr) => tr.querySelectorAll('td')[2]);
		assert.equal(cells[0].textContent, local('2026-02-03T04:05:06Z'));
		assert.equal(cells[0].getAttribute('title'), '2026-02-03T04:05:06Z');
		assert.equal(cells[1].textContent, '');
		assert.equal(cells[1].hasAttribute('title'), false);

		const overview = renderOverview(doc, {
			advertId: 1,
			advertCandidateId: 2,
			title: 'A',
			subtitle: '',
			badges: [],
			groups: [
				{ title: 'Dates', rows: [{ label: 'Applied', value: '02/03/2026', iso: '2026-03-02T08:00:00Z' }] },
			],
			processingMessages: '',
			activity: [{ at: '2026-03-03T09:05:00Z', text: 'Added a note' }],
		});
		assert.equal(overview.querySelector('dd')?.textContent, local('2026-03-02T08:00:00Z'));
		const when = overview.querySelector('.mp-activity-list li span')!;
		assert.equal(when.textContent, local('2026-03-03T09:05:00Z', { timeOnly: true }));
		assert.equal(when.getAttribute('title'), '2026-03-03T09:05:00Z');
		assert.equal(overview.querySelector('.mp-activity-list li')?.textContent, `${when.textContent} Added a note`);
	});

	it('makes application actions buttons that post the shared action names', function () {
		const { doc } = setup();
		const posted: ApplicationToHostMessage[] = [];
		const header = renderHeader(
			doc,
			{
				advertId: 1,
				advertCandidateId: 2,
				title: 'A',
				subtitle: '',
				badges: [],
				groups: [],
				processingMessages: '',
				activity: [],
			},
			(m) => posted.push(m),
		);
		for (const label of ['Score…', 'Progress…', 'Add note…', 'Tag…', 'Partner tag…']) {
			Array.from(header.querySelectorAll('button'))
				.find((b) => b.textContent === label)!
				.click();
		}
		assert.deepEqual(
			posted.map((m) => (m.type === 'action' ? m.action : m.type)),
			['score', 'progress', 'note', 'tag', 'partnerTag'],
		);
	});

	it('implements the tabs pattern: roving tabindex and arrow, Home and End keys', function () {
		const { doc, window } = setup();
		const selected: string[] = [];
		const tabs = createTabs(
			doc,
			't',
			[
				{ id: 'a', label: 'A' },
				{ id: 'b', label: 'B' },
				{ id: 'c', label: 'C' },
			],
			(id) => selected.push(id),
		);
		doc.body.append(tabs.element, tabs.panel);
		tabs.select('a');
		const key = (k: string) =>
			tabs.element.dispatchEvent(new window.KeyboardEvent('keydown', { key: k, bubbles: true }));
		key('ArrowRight');
		key('ArrowRight');
		key('ArrowRight');
		key('ArrowLeft');
		key('End');
		key('Home');
		assert.deepEqual(selected, ['a', 'b', 'c', 'a', 'c', 'c', 'a']);
		const buttons = Array.from(tabs.element.querySelectorAll('[role="tab"]'));
		assert.deepEqual(
			buttons.map((b) => [b.getAttribute('aria-selected'), (b as HTMLElement).tabIndex]),
			[
				['true', 0],
				['false', -1],
				['false', -1],
			],
		);
		assert.equal(doc.activeElement, buttons[0]);
		assert.equal(tabs.element.getAttribute('role'), 'tablist');
		assert.equal(tabs.panel.getAttribute('aria-labelledby'), 't-tab-a');
	});
	it('paints a document frame again when VS Code sets or changes the theme after the first paint', async function () {
		const { doc, window, ctx } = setup();
		// The theme as VS Code gives it: variables on <html>, set after the page started.
		const theme = () => ({
			foreground: doc.documentElement.style.getPropertyValue('--fg') || undefined,
			background: doc.documentElement.style.getPropertyValue('--bg') || undefined,
		});
		const block = frameBlock(doc, ctx.purify, '<p>Dear Hiring Manager</p>', {
			theme,
			onLink: () => undefined,
			title: 'Email body',
		});
		doc.body.appendChild(block);
		const frame = block.querySelector('iframe')!;
		assert.doesNotMatch(frame.srcdoc, /#222222/);
		doc.documentElement.setAttribute('style', '--fg: #eeeeee; --bg: #222222');
		await new Promise((resolve) => window.setTimeout(resolve, 0));
		assert.match(frame.srcdoc, /color:#eeeeee;background:#222222/);
		// Replaced blocks stop listening: no error, no repaint of a frame nobody sees.
		block.remove();
		doc.documentElement.setAttribute('style', '--fg: #000000; --bg: #ffffff');
		await new Promise((resolve) => window.setTimeout(resolve, 0));
		assert.match(frame.srcdoc, /#222222/);
	});
});
