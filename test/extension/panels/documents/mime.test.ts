import * as assert from 'node:assert/strict';
import { loadDocument, moreOf, savable, TEXT_SLICE_CHARS } from '../../../../src/extension/panels/documents/documents';
import {
	decodeEncodedWords,
	decodeQuotedPrintable,
	parseHeaderValue,
	parseMime,
} from '../../../../src/extension/panels/documents/mime';

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

describe('MIME reader', function () {
	it('reads headers with folding and encoded words, and every leaf part of nested multiparts', function () {
		const message = parseMime(enc.encode(MESSAGE));
		const header = (name: string) => message.headers.find((h) => h.name === name)?.value;
		assert.equal(header('From'), 'Jörg <jorg@example.com>');
		assert.equal(header('Subject'), 'Bewerbung für die Stelle');
		assert.deepEqual(
			message.parts.map((p) => p.contentType),
			['text/plain', 'text/html', 'application/pdf'],
		);
		assert.equal(text(message.parts[0].bytes), 'Grüße, a long line that is soft-wrapped.');
		assert.match(text(message.parts[1].bytes), /^<p onclick/);
		assert.equal(message.parts[2].fileName, 'Lebenslauf Jörg.pdf');
		assert.equal(message.parts[2].disposition, 'attachment');
		assert.equal(text(message.parts[2].bytes), '%PDF-1.4 fake');
	});

	it('decodes quoted-printable, encoded words and parameters', function () {
		assert.equal(text(decodeQuotedPrintable('a=3Db=\r\nc')), 'a=bc');
		assert.equal(decodeEncodedWords('=?utf-8?q?caf=C3=A9?= =?utf-8?b?IGF1IGxhaXQ=?='), 'café au lait');
		assert.deepEqual(parseHeaderValue('Text/HTML; Charset="UTF-8"; name="a;b.html"'), {
			value: 'text/html',
			params: { charset: 'UTF-8', name: 'a;b.html' },
		});
		assert.equal(parseHeaderValue("attachment; filename*=utf-8''na%C3%AFve.txt").params.filename, 'naïve.txt');
	});

	it('survives hostile structure: a boundary that never ends, deep nesting, no headers', function () {
		const unterminated = parseMime(
			enc.encode('Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nhello'),
		);
		assert.equal(unterminated.parts.length, 1);
		assert.equal(text(unterminated.parts[0].bytes), 'hello');
		let nested = 'Content-Type: text/plain\r\n\r\ndeep';
		for (let i = 0; i < 50; i++) {
			nested = `Content-Type: multipart/mixed; boundary=b${i}\r\n\r\n--b${i}\r\n${nested}\r\n--b${i}--`;
		}
		const deep = parseMime(enc.encode(nested));
		assert.equal(deep.parts.length, 1);
		const bare = parseMime(enc.encode('just a body'));
		assert.deepEqual(bare.headers, []);
		assert.equal(bare.parts[0].contentType, 'text/plain');
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
