import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { build } from 'esbuild';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { buildShell, inlinable, jsonForScript, type ShellParts } from '../../../src/extension/webviews/shell';
import { buildApplicationView } from '../../../src/extension/panels/models';
import { INITIAL_MESSAGES_ID } from '../../../src/shared/webviewProtocol';

const HOSTILE = `</script><script>window.pwned=1</script><!--<script x>--></SCRIPT ><img src=x onerror="window.pwned=2">&amp;\u2028\u2029'"`;

function parts(overrides: Partial<ShellParts> = {}): ShellParts {
	return {
		nonce: 'n0nce',
		cspSource: 'https://webview.test',
		title: 'Loading…',
		script: { href: 'https://webview.test/dist/webview/application.js', text: 'window.ran = true;' },
		styles: [{ href: 'https://webview.test/media/webview.css', text: 'body { color: red; }' }],
		lazyScripts: [{ name: 'pdf', href: 'https://webview.test/dist/webview/pdf.js' }],
		...overrides,
	};
}

function parse(html: string): Document {
	return new JSDOM(html).window.document;
}

describe('webview shell (the HTML of every panel)', function () {
	it('writes JSON that has no <, > or & and parses back to the same value', function () {
		const value = [{ type: 'application', view: { name: HOSTILE, n: 1, list: [true, null] } }];
		const json = jsonForScript(value);
		assert.doesNotMatch(json, /[<>&\u2028\u2029]/);
		assert.deepEqual(JSON.parse(json), value);
	});

	it('keeps hostile service data inside the data block: no element added, the same value read back', function () {
		const initialMessages = [
			{ type: 'mode', preview: true },
			{ type: 'application', view: { title: HOSTILE } },
		];
		const doc = parse(buildShell(parts({ initialMessages })));
		const block = doc.getElementById(INITIAL_MESSAGES_ID);
		assert.ok(block);
		assert.equal(block.getAttribute('type'), 'application/json');
		assert.deepEqual(JSON.parse(block.textContent ?? ''), initialMessages);
		// The body holds the root, the data block and the page's one script, nothing else.
		assert.deepEqual(
			Array.from(doc.body.children).map((e) => `${e.tagName}${e.id ? `#${e.id}` : ''}`),
			['DIV#root', `SCRIPT#${INITIAL_MESSAGES_ID}`, 'SCRIPT'],
		);
		assert.equal(doc.querySelectorAll('img').length, 0);
	});

	it('round-trips any text of the data block (property)', function () {
		const unit = fc.constantFrom(
			'<',
			'/',
			's',
			'S',
			'c',
			'r',
			'i',
			'p',
			't',
			'>',
			'!',
			'-',
			'&',
			'"',
			'\u2028',
			'é',
			' ',
		);
		fc.assert(
			fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
				const initialMessages = [{ type: 'x', text }];
				const doc = parse(buildShell(parts({ initialMessages })));
				assert.deepEqual(
					JSON.parse(doc.getElementById(INITIAL_MESSAGES_ID)?.textContent ?? ''),
					initialMessages,
				);
				assert.equal(doc.body.children.length, 3);
			}),
			{ numRuns: 100 },
		);
	});

	it('inlines the bundle and styles under the nonce, keeps the CSP strict and the lazy bundles by address', function () {
		const doc = parse(buildShell(parts()));
		const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '';
		assert.match(csp, /default-src 'none'/);
		assert.match(csp, /script-src 'nonce-n0nce' https:\/\/webview\.test;/);
		assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
		const scripts = Array.from(doc.querySelectorAll('script:not([type])'));
		assert.equal(scripts.length, 1);
		assert.equal(scripts[0].getAttribute('nonce'), 'n0nce');
		assert.equal(scripts[0].getAttribute('src'), null);
		assert.equal(scripts[0].textContent, 'window.ran = true;');
		assert.equal(scripts[0].getAttribute('data-script-pdf'), 'https://webview.test/dist/webview/pdf.js');
		const style = doc.querySelector('style');
		assert.equal(style?.getAttribute('nonce'), 'n0nce');
		assert.equal(doc.querySelectorAll('link').length, 0);
		assert.equal(doc.getElementById(INITIAL_MESSAGES_ID), null, 'no data block without initial messages');
	});

	it('links instead of inlining a text that could end its element early, or that could not be read', function () {
		for (const text of ['a("</script>")', 'a("</SCRIPT")', 'a("<!--<script>")', 'a("<script/")', undefined]) {
			const doc = parse(buildShell(parts({ script: { href: 'https://webview.test/app.js', text } })));
			const script = doc.querySelector('script:not([type])');
			assert.equal(script?.getAttribute('src'), 'https://webview.test/app.js', String(text));
			assert.equal(script?.textContent, '');
		}
		const doc = parse(buildShell(parts({ styles: [{ href: 'https://webview.test/a.css', text: 'a{}</style>' }] })));
		assert.equal(doc.querySelector('link')?.getAttribute('href'), 'https://webview.test/a.css');
		assert.equal(doc.querySelectorAll('style').length, 0);
		assert.equal(inlinable('x = "<!-- a --> <scripts>"', 'script'), true, 'a comment opener alone is harmless');
	});
});

describe('a new application panel draws the view its HTML carries (the real bundle in jsdom)', function () {
	this.timeout(60_000);
	let bundle = '';

	before(async function () {
		const result = await build({
			entryPoints: [path.join(__dirname, '..', '..', '..', '..', 'src', 'webview', 'application', 'main.ts')],
			bundle: true,
			write: false,
			platform: 'browser',
			format: 'iife',
			target: 'es2022',
			loader: { '.css': 'text' },
			logLevel: 'silent',
		});
		bundle = result.outputFiles[0].text;
	});

	function open(initialMessages: unknown[] | undefined, saved?: unknown) {
		const posted: { type: string }[] = [];
		const html = buildShell(
			parts({ script: { href: 'https://webview.test/a.js', text: bundle }, initialMessages }),
		);
		const dom = new JSDOM(html, {
			runScripts: 'dangerously',
			pretendToBeVisual: true,
			beforeParse(window) {
				// jsdom has no User Timing; the page's marks are for the e2e run and the bench.
				Object.assign(window.performance, { mark: () => undefined });
				Object.assign(window, {
					acquireVsCodeApi: () => ({
						postMessage: (m: { type: string }) => posted.push(m),
						getState: () => saved,
						setState: () => undefined,
					}),
				});
			},
		});
		return { dom, posted, doc: dom.window.document };
	}

	const view = buildApplicationView({
		AdvertID: 1001,
		AdvertCandidateID: 5003,
		FirstName: HOSTILE,
		LastName: 'Lovelace',
		AdvertTitle: 'Staff nurse',
		Score: 2,
	});

	it('shows the candidate (as text) and the preview bar before any message from the host, then asks for data', function () {
		const { doc, posted, dom } = open([
			{ type: 'mode', preview: true },
			{ type: 'application', view },
		]);
		assert.equal(doc.querySelector('.mp-header h1')?.textContent, view.title);
		assert.ok(doc.querySelector('.mp-header h1')?.textContent?.includes('</script>'));
		assert.equal((dom.window as unknown as { pwned?: number }).pwned, undefined);
		assert.equal(doc.querySelectorAll('body img').length, 0);
		assert.ok(Array.from(doc.querySelectorAll('button')).some((b) => b.textContent === 'Keep Open'));
		assert.deepEqual(
			posted.map((m) => m.type),
			['ready'],
		);
	});

	it('waits for the host without initial messages, and prefers its saved state when re-created', function () {
		assert.equal(open(undefined).doc.querySelector('.mp-header h1'), null);
		const newer = { ...view, advertCandidateId: 5004, title: 'Grace Hopper' };
		const { doc } = open([{ type: 'application', view }], { tab: 'overview', docs: {}, view: newer });
		assert.equal(doc.querySelector('.mp-header h1')?.textContent, 'Grace Hopper');
	});
});
