import * as assert from 'node:assert/strict';
import mammoth from 'mammoth';
import { parseXml, type XmlElement } from '../../../src/protocol/codecs/xml';
import {
	createApplicationDocuments,
	createCv,
	createPdf,
	crc32,
	HR_XML_NAMESPACE,
	writeZip,
	type ResumeFacts,
} from '../../../src/emulator/documents';

const FACTS: ResumeFacts = {
	firstName: 'Zoë',
	lastName: "O'Brien",
	email: 'zoe.obrien@example.com',
	phone: '+44 7700 900123',
	address: '12 Mill Lane, Leeds',
	countryCode: 'GB',
	jobTitle: 'Data Engineer (Python & SQL)',
	employer: 'Northwind <Ltd>',
	startYear: 2019,
	previousEmployer: 'Contoso plc',
	previousTitle: 'Analyst',
	school: 'University of Leeds',
	degree: 'BSc Computer Science',
	graduationYear: 2015,
	skills: ['Python', 'SQL', 'Airflow'],
};

async function pdfText(bytes: Uint8Array): Promise<string> {
	const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
	const document = await pdfjs.getDocument({
		data: new Uint8Array(bytes),
		useSystemFonts: false,
		standardFontDataUrl: `${require.resolve('pdfjs-dist/package.json').replace(/package\.json$/, '')}standard_fonts/`,
		isEvalSupported: false,
		stopAtErrors: true,
	}).promise;
	const texts: string[] = [];
	for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber++) {
		const page = await document.getPage(pageNumber);
		const content = await page.getTextContent();
		texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
	}
	await document.destroy();
	return texts.join('\n');
}

function child(element: XmlElement, local: string): XmlElement {
	const found = element.children.find((candidate) => candidate.local === local);
	assert.ok(found, `${element.local} has no ${local}`);
	return found;
}

/** A small MIME reader for the test: headers, multipart boundaries, base64 parts. */
function parseMime(text: string): {
	headers: Map<string, string>;
	parts: { headers: Map<string, string>; body: Buffer }[];
} {
	const split = (block: string) => {
		const end = block.indexOf('\r\n\r\n');
		assert.ok(end > 0, 'a header block ends with an empty line');
		const headers = new Map<string, string>();
		for (const line of block
			.slice(0, end)
			.replace(/\r\n[ \t]/g, ' ')
			.split('\r\n')) {
			const colon = line.indexOf(':');
			assert.ok(colon > 0, `header line ${line}`);
			headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
		}
		return { headers, body: block.slice(end + 4) };
	};
	const top = split(text);
	const boundary = /boundary="([^"]+)"/.exec(top.headers.get('content-type') ?? '')?.[1];
	assert.ok(boundary, 'multipart boundary');
	const sections = top.body.split(`--${boundary}`);
	assert.ok(sections[sections.length - 1].startsWith('--'), 'closing boundary');
	const parts = sections.slice(1, -1).map((section) => {
		const part = split(section.replace(/^\r\n/, ''));
		const content = part.body.replace(/\r\n$/, '');
		assert.equal(part.headers.get('content-transfer-encoding'), 'base64');
		assert.ok(
			content.split('\r\n').every((line) => line.length <= 76),
			'base64 lines are at most 76 characters',
		);
		return { headers: part.headers, body: Buffer.from(content.replace(/\r\n/g, ''), 'base64') };
	});
	return { headers: top.headers, parts };
}

describe('emulator documents', () => {
	it('computes the standard CRC-32', () => {
		assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
		assert.equal(crc32(new Uint8Array()), 0);
	});

	it('writes a ZIP whose central directory points at each local header', () => {
		const zip = Buffer.from(
			writeZip([
				{ name: 'a.txt', data: new TextEncoder().encode('hello') },
				{ name: 'b/c.txt', data: new Uint8Array([1, 2, 3]) },
			]),
		);
		const endOffset = zip.length - 22;
		assert.equal(zip.readUInt32LE(endOffset), 0x06054b50);
		assert.equal(zip.readUInt16LE(endOffset + 10), 2);
		let central = zip.readUInt32LE(endOffset + 16);
		const names: string[] = [];
		for (let index = 0; index < 2; index++) {
			assert.equal(zip.readUInt32LE(central), 0x02014b50);
			const nameLength = zip.readUInt16LE(central + 28);
			const local = zip.readUInt32LE(central + 42);
			assert.equal(zip.readUInt32LE(local), 0x04034b50);
			names.push(zip.subarray(central + 46, central + 46 + nameLength).toString('utf8'));
			central += 46 + nameLength;
		}
		assert.deepEqual(names, ['a.txt', 'b/c.txt']);
	});

	it('writes a DOCX that mammoth converts, with the candidate text escaped correctly', async () => {
		const cv = createCv(FACTS, 'docx');
		assert.equal(cv.fileName, 'CV-Zoe-OBrien.docx');
		const result = await mammoth.extractRawText({ buffer: Buffer.from(cv.bytes) });
		assert.match(result.value, /Zoë O'Brien/);
		assert.match(result.value, /Data Engineer \(Python & SQL\), Northwind <Ltd>/);
		assert.match(result.value, /BSc Computer Science, University of Leeds/);
		const html = await mammoth.convertToHtml({ buffer: Buffer.from(cv.bytes) });
		assert.match(html.value, /<strong>Experience<\/strong>/);
	});

	it('writes a PDF whose text pdf.js extracts, across pages when long', async () => {
		const cv = createCv(FACTS, 'pdf');
		const header = Buffer.from(cv.bytes.subarray(0, 8)).toString('latin1');
		assert.equal(header, '%PDF-1.4');
		const text = await pdfText(cv.bytes);
		assert.match(text, /Data Engineer \(Python & SQL\)/);
		assert.match(text, /Python, SQL, Airflow/);
		// Latin-1 letters survive (WinAnsi); other characters become '?' rather than breaking the file.
		assert.match(text, /ZOË O'BRIEN/);
		assert.match(await pdfText(createPdf(['Łódź 東京 (x)'])), /\?ód\? \?\? \(x\)/);
		// Every xref entry points at the start of its object.
		const raw = Buffer.from(cv.bytes).toString('latin1');
		const startXref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(raw)?.[1]);
		assert.ok(raw.startsWith('xref\n', startXref));
		const entries = raw
			.slice(startXref)
			.split('\n')
			.slice(2)
			.filter((line) => / 00000 n\r$/.test(line));
		assert.ok(entries.length >= 6);
		entries.forEach((entry, index) =>
			assert.ok(raw.startsWith(`${index + 1} 0 obj\n`, Number(entry.slice(0, 10))), `object ${index + 1}`),
		);

		const long = createPdf(Array.from({ length: 120 }, (_, index) => `Line ${index + 1}`));
		const longText = await pdfText(long);
		assert.match(longText, /Line 1\n/);
		assert.match(longText, /Line 120/);
	});

	it('writes HR-XML that the project parser reads, with the expected structure', () => {
		const documents = createApplicationDocuments(FACTS, 'pdf', {
			to: 'jobs@acme.example',
			subject: 'Application',
			date: new Date(Date.UTC(2026, 0, 2)),
			html: '<p>Hi</p>',
			messageId: 'app-1',
		});
		const root = parseXml(documents.parsed);
		assert.equal(root.local, 'Candidate');
		assert.equal(root.ns, HR_XML_NAMESPACE);
		const resume = child(child(root, 'Resume'), 'StructuredXMLResume');
		const contact = child(resume, 'ContactInfo');
		assert.equal(child(child(contact, 'PersonName'), 'FamilyName').text, "O'Brien");
		assert.equal(child(child(contact, 'ContactMethod'), 'InternetEmailAddress').text, FACTS.email);
		const employers = child(resume, 'EmploymentHistory').children.filter(
			(element) => element.local === 'EmployerOrg',
		);
		assert.equal(employers.length, 2);
		assert.equal(child(employers[0], 'EmployerOrgName').text, 'Northwind <Ltd>');
		assert.equal(
			child(child(child(resume, 'EducationHistory'), 'SchoolOrInstitution'), 'School').children[0].text,
			'University of Leeds',
		);
		const competencies = child(resume, 'Qualifications').children.map(
			(element) => element.attrs.find((attr) => attr.local === 'name')?.value,
		);
		assert.deepEqual(competencies, ['Python', 'SQL', 'Airflow']);
	});

	it('writes a MIME email with an HTML part and the CV as a base64 attachment', async () => {
		const html = '<p>Dear hiring manager, <b>Zoë</b> here.</p>';
		const documents = createApplicationDocuments(FACTS, 'docx', {
			to: 'jobs@acme.example',
			subject: 'Application: Data Engineer – Leeds',
			date: new Date(Date.UTC(2026, 0, 2, 9, 30)),
			html,
			messageId: 'app-42',
		});
		const mime = parseMime(new TextDecoder().decode(documents.email));
		assert.equal(mime.headers.get('mime-version'), '1.0');
		assert.match(mime.headers.get('content-type') ?? '', /^multipart\/mixed;/);
		assert.match(mime.headers.get('subject') ?? '', /^=\?UTF-8\?B\?/);
		assert.match(mime.headers.get('date') ?? '', /^Fri, 02 Jan 2026 09:30:00 \+0000$/);
		assert.equal(mime.parts.length, 2);
		assert.match(mime.parts[0].headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
		assert.equal(mime.parts[0].body.toString('utf8'), html);
		const attachment = mime.parts[1];
		assert.equal(attachment.headers.get('content-disposition'), 'attachment; filename="CV-Zoe-OBrien.docx"');
		assert.deepEqual(new Uint8Array(attachment.body), documents.attachment.bytes);
		const text = await mammoth.extractRawText({ buffer: attachment.body });
		assert.match(text.value, /Airflow/);
	});
});
