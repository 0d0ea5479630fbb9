/** Minimal but real Word documents (Office Open XML in a ZIP), readable by Word, LibreOffice and mammoth. */
import { escapeAttr } from '../../protocol/codecs/xml';
import { writeZip } from './zip';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`;

const PACKAGE_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

/** MIME type of .docx files. */
export const DOCX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A paragraph of the document; headings are rendered bold and larger. */
export interface DocxParagraph {
	text: string;
	heading?: boolean;
}

function paragraphXml(paragraph: DocxParagraph): string {
	const runProperties = paragraph.heading ? '<w:rPr><w:b/><w:sz w:val="28"/></w:rPr>' : '';
	return `<w:p><w:r>${runProperties}<w:t xml:space="preserve">${escapeAttr(paragraph.text, 'drop')}</w:t></w:r></w:p>`;
}

/** A .docx file with these paragraphs. */
export function createDocx(paragraphs: readonly DocxParagraph[]): Uint8Array {
	const encoder = new TextEncoder();
	const document =
		'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
		'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
		paragraphs.map(paragraphXml).join('') +
		'<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>' +
		'</w:body></w:document>';
	return writeZip([
		{ name: '[Content_Types].xml', data: encoder.encode(CONTENT_TYPES) },
		{ name: '_rels/.rels', data: encoder.encode(PACKAGE_RELS) },
		{ name: 'word/document.xml', data: encoder.encode(document) },
	]);
}
