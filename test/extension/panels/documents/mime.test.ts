import * as assert from 'node:assert/strict';
import { loadDocument, moreOf, savable, TEXT_SLICE_CHARS } from '../../../../src/extension/panels/documents/documents';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parseMime } from '../../../../src/extension/panels/documents/mime';
import { createMimeEmail } from '../../../../src/emulator/documents';

const enc = new TextEncoder();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const MESSAGE = [
	'From: =?UTF-8?B?SsO2cmc=?= <jorg@example.com>',
	'To: hr@example.com',
	'Subject: =?ISO-8859-1?Q?Bewerbung_f=FCr?=',
	' =?UTF-8?Q?_die_Stelle?=',
	'MIME-Version: 1.0',
	'Content-Type: multipart/mixed; boundary="outer"',
	'',
	'preamble to ignore',
	'--outer',
	'Content-Type: multipart/alternative; boundary=inner',
	'',
	'--inner',
	'Content-Type: text/plain; charset=utf-8',
	'Content-Transfer-Encoding: quoted-printable',
	'',
	'Gr=C3=BC=C3=9Fe, a long line that is =',
	'soft-wrapped.',
	'--inner',
	'Content-Type: text/html; charset=utf-8',
	'Content-Transfer-Encoding: base64',
	'',
	Buffer.from('<p onclick="x()">Hello <a href="https://cv.example/me">CV</a><script>alert(1)</script></p>').toString(
		'base64',
	),
	'--inner--',
	'--outer',
	'Content-Type: application/pdf; name="cv.pdf"',
	'Content-Disposition: attachment; filename="=?UTF-8?Q?Lebenslauf_J=C3=B6rg.pdf?="',
	'Content-Transfer-Encoding: base64',
	'',
	Buffer.from('%PDF-1.4 fake').toString('base64'),
	'--outer--',
	'epilogue',
].join('\r\n');

describe('MIME reader (postal-mime)', function () {
	it('reads headers with folding and encoded words, and every leaf part of nested multiparts', async function () {
		const message = await parseMime(enc.encode(MESSAGE));
		const header = (name: string) => message.headers.find((h) => h.name === name)?.value;
		assert.equal(header('From'), 'Jörg <jorg@example.com>');
		assert.equal(header('Subject'), 'Bewerbung für die Stelle');
		assert.deepEqual(
			message.parts.map((p) => p.contentType),
			['text/plain', 'text/html', 'application/pdf'],
		);
		assert.equal(text(message.parts[0].bytes).trim(), 'Grüße, a long line that is soft-wrapped.');
		assert.match(text(message.parts[1].bytes), /^<p onclick/);
		assert.equal(message.parts[2].fileName, 'Lebenslauf Jörg.pdf');
		assert.equal(message.parts[2].disposition, 'attachment');
		assert.equal(text(message.parts[2].bytes), '%PDF-1.4 fake');
	});

	it('decodes quoted-printable bodies, encoded words and RFC 2231 file names', async function () {
		const message = await parseMime(
			enc.encode(
				[
					'Subject: =?utf-8?q?caf=C3=A9?= =?utf-8?b?IGF1IGxhaXQ=?=',
					'Content-Type: multipart/mixed; boundary=b',
					'',
					'--b',
					'Content-Type: text/plain; charset=iso-8859-1',
					'Content-Transfer-Encoding: quoted-printable',
					'',
					'a=3Db=',
					'c caf=E9',
					'--b',
					"Content-Disposition: attachment; filename*=utf-8''na%C3%AFve.txt",
					'Content-Type: text/plain',
					'',
					'x',
					'--b--',
				].join('\r\n'),
			),
		);
		assert.equal(message.headers.find((h) => h.name === 'Subject')?.value, 'café au lait');
		assert.equal(text(message.parts[0].bytes).trim(), 'a=bc café');
		assert.equal(message.parts[1].fileName, 'naïve.txt');
	});

	it('survives hostile structure: a boundary that never ends, deep nesting, no headers', async function () {
		const unterminated = await parseMime(
			enc.encode('Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nhello'),
		);
		assert.equal(unterminated.parts.length, 1);
		assert.equal(text(unterminated.parts[0].bytes).trim(), 'hello');
		let nested = 'Content-Type: text/plain\r\n\r\ndeep';
		for (let i = 0; i < 50; i++) {
			nested = `Content-Type: multipart/mixed; boundary=b${i}\r\n\r\n--b${i}\r\n${nested}\r\n--b${i}--`;
		}
		await assert.rejects(parseMime(enc.encode(nested)), /the email could not be read \(.*nesting depth/i);
		const panel = await loadDocument('email', { DocumentBytes: enc.encode(nested) });
		assert.equal(panel.view.kind, 'error', 'the panel says so instead of failing');
		const bare = await parseMime(enc.encode('just a body'));
		assert.deepEqual(bare.headers, [], 'a line without a colon is not a header');
		let many = 'Content-Type: multipart/mixed; boundary=m\r\n\r\n';
		for (let i = 0; i < 500; i++) {
			many += `--m\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=f${i}\r\n\r\nx\r\n`;
		}
		assert.ok((await parseMime(enc.encode(`${many}--m--`))).parts.length <= 200, 'the part count is bounded');
	});

	it('works as bundled for the extension host (esbuild resolves the ES module of postal-mime)', async function () {
		this.timeout(30_000);
		const dir = mkdtempSync(join(tmpdir(), 'mp-mime-'));
		try {
			const outfile = join(dir, 'mime.js');
			await build({
				entryPoints: [join(__dirname, '../../../../../src/extension/panels/documents/mime.ts')],
				outfile,
				bundle: true,
				platform: 'node',
				format: 'cjs',
				target: 'node20',
				logLevel: 'silent',
			});
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const bundled = require(outfile) as typeof import('../../../../src/extension/panels/documents/mime');
			const message = await bundled.parseMime(enc.encode(MESSAGE));
			assert.equal(message.headers.find((h) => h.name === 'Subject')?.value, 'Bewerbung für die Stelle');
			assert.equal(message.parts.length, 3);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("reads the sandbox's own emails (HTML body and the CV attachment)", async function () {
		const cv = { fileName: 'cv.pdf', contentType: 'application/pdf', bytes: enc.encode('%PDF-1.4 sandbox') };
		const raw = createMimeEmail({
			fromName: 'Zoë Dubois',
			fromAddress: 'zoe@example.com',
			to: 'hr@acme.example',
			subject: 'Application: Café manager',
			date: new Date('2026-05-01T10:00:00Z'),
			id: 'seed-1-1',
			html: '<p>Dear Hiring Manager</p>',
			attachment: cv,
		});
		const message = await parseMime(enc.encode(raw));
		assert.match(message.headers.find((h) => h.name === 'From')?.value ?? '', /Zoë Dubois/);
		assert.equal(message.headers.find((h) => h.name === 'Subject')?.value, 'Application: Café manager');
		const html = message.parts.find((p) => p.contentType === 'text/html');
		assert.match(text(html!.bytes), /Dear Hiring Manager/);
		const attachment = message.parts.find((p) => p.fileName === 'cv.pdf');
		assert.equal(text(attachment!.bytes), '%PDF-1.4 sandbox');
	});

	it('loads a full email for the panel: text as text, HTML sanitised, attachments savable', async function () {
		const loaded = await loadDocument('email', { DocumentBytes: enc.encode(MESSAGE), FileName: 'mail.eml' });
		assert.equal(loaded.view.kind, 'email');
		if (loaded.view.kind !== 'email') return;
		const [plain, html, pdf] = loaded.view.parts;
		assert.equal(plain.body.kind, 'text');
		assert.equal(html.body.kind, 'html');
		if (html.body.kind === 'html') {
			assert.equal(
				html.body.html.html,
				'<p onclick="x()">Hello <a href="https://cv.example/me">CV</a><script>alert(1)</script></p>',
				'decoded, and left to the webview sanitiser',
			);
		}
		assert.equal(pdf.body.kind, 'attachment');
		const saved = savable(loaded, 2);
		assert.equal(saved?.fileName, 'Lebenslauf Jörg.pdf');
		assert.equal(text(saved!.bytes), '%PDF-1.4 fake');
		assert.equal(savable(loaded, undefined)?.fileName, 'mail.eml');
	});

	it('slices large text parts and serves the rest on "show more"', async function () {
		const big = 'x'.repeat(TEXT_SLICE_CHARS * 2 + 10);
		const loaded = await loadDocument('attachment', { DocumentBytes: enc.encode(big), FileName: 'notes.txt' });
		assert.equal(loaded.view.kind, 'text');
		if (loaded.view.kind !== 'text') return;
		assert.equal(loaded.view.slice.text.length, TEXT_SLICE_CHARS);
		assert.equal(loaded.view.slice.totalChars, big.length);
		const next = moreOf(loaded, undefined, TEXT_SLICE_CHARS);
		assert.equal(next?.kind, 'text');
		if (next?.kind === 'text') assert.equal(next.slice.offset, TEXT_SLICE_CHARS);
		const last = moreOf(loaded, undefined, TEXT_SLICE_CHARS * 2);
		if (last?.kind === 'text') assert.equal(last.slice.text.length, 10);
	});

	it('classifies attachments by their first bytes, not by their claimed name', async function () {
		const pdf = await loadDocument('attachment', { DocumentBytes: enc.encode('%PDF-1.7 ...'), FileName: 'cv.txt' });
		assert.equal(pdf.view.kind, 'pdf');
		const fake = await loadDocument('attachment', {
			DocumentBytes: enc.encode('<script>alert(1)</script>'),
			FileName: 'cv.pdf',
		});
		assert.equal(fake.view.kind, 'binary');
		const zip = await loadDocument('attachment', {
			DocumentBytes: Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]),
			FileName: 'cv.docx',
		});
		assert.equal(zip.view.kind, 'binary', 'without a converter a DOCX is offered for saving');
		const converted = await loadDocument(
			'attachment',
			{ DocumentBytes: Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]), FileName: 'cv.docx' },
			{ docxToHtml: async () => '<p>Converted</p><img src="https://x.example/i.png">' },
		);
		assert.equal(converted.view.kind, 'html');
		if (converted.view.kind === 'html') {
			assert.equal(converted.view.html.html, '<p>Converted</p><img src="https://x.example/i.png">');
		}
		const missing = await loadDocument('attachment', undefined);
		assert.equal(missing.view.kind, 'missing');
	});
});
