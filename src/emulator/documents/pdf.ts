/** Hand-written PDF 1.4 files: one or more pages of Helvetica text, with a correct xref table. */

/** Lines per page before a new page starts (A4, 11 pt type, 14 pt leading). */
const LINES_PER_PAGE = 52;

/**
 * A PDF literal string in WinAnsi encoding: Latin-1 letters are written as octal escapes (so the file
 * stays ASCII and offsets equal string lengths); anything else becomes '?'.
 */
function pdfString(line: string): string {
	let out = '';
	for (const char of line) {
		const code = char.codePointAt(0) ?? 63;
		if (char === '\\' || char === '(' || char === ')') out += `\\${char}`;
		else if (code >= 0x20 && code <= 0x7e) out += char;
		else if (code >= 0xa0 && code <= 0xff) out += `\\${code.toString(8)}`;
		else out += '?';
	}
	return `(${out})`;
}

/** A PDF showing the lines of text, split over as many A4 pages as needed. */
export function createPdf(lines: readonly string[], title = 'Document'): Uint8Array {
	const pages: string[][] = [];
	for (let start = 0; start < Math.max(lines.length, 1); start += LINES_PER_PAGE) {
		pages.push(lines.slice(start, start + LINES_PER_PAGE));
	}
	// Objects: 1 catalog, 2 pages, 3 font, 4 info, then per page: page, contents.
	const pageObjectIds = pages.map((_, index) => 5 + index * 2);
	const objects: string[] = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		`<< /Type /Pages /Kids [${pageObjectIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
		`<< /Title ${pdfString(title)} /Producer (Multiposting Sandbox) >>`,
	];
	for (const [index, pageLines] of pages.entries()) {
		const content = [
			'BT',
			'/F1 11 Tf',
			'14 TL',
			'56 786 Td',
			...pageLines.map((line) => `${pdfString(line)} Tj T*`),
			'ET',
		].join('\n');
		objects.push(
			`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${pageObjectIds[index] + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
		);
		objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
	}
	// Every character is ASCII, so string length equals byte offset.
	let pdf = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((body, index) => {
		offsets.push(pdf.length);
		pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xref = pdf.length;
	pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n\r\n`).join('')}`;
	pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return new TextEncoder().encode(pdf);
}
