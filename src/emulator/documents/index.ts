/**
 * Realistic application documents: a CV as PDF or DOCX, the parser's HR-XML and the full email (MIME).
 * Each is built from a template with the candidate's own text, so seeding thousands stays fast.
 */
import { createDocx, DOCX_CONTENT_TYPE, type DocxParagraph } from './docx';
import { createHrXml, type ResumeFacts } from './hrXml';
import { createMimeEmail } from './mime';
import { createPdf } from './pdf';

export { crc32, writeZip, type ZipEntry } from './zip';
export { createDocx, DOCX_CONTENT_TYPE, type DocxParagraph } from './docx';
export { createPdf } from './pdf';
export { createHrXml, HR_XML_NAMESPACE, type ResumeFacts } from './hrXml';
export { createMimeEmail, type MimeAttachment, type MimeMessage } from './mime';

/** The CV formats the generator writes. */
export type CvFormat = 'pdf' | 'docx';

/** One generated attachment. */
export interface GeneratedAttachment {
	fileName: string;
	contentType: string;
	/** DocumentFormat as stored: 'pdf' or 'docx'. */
	format: CvFormat;
	bytes: Uint8Array;
}

/** Everything stored for one application besides the HTML body. */
export interface ApplicationDocuments {
	attachment: GeneratedAttachment;
	/** HR-XML (UTF-8). */
	parsed: Uint8Array;
	parsedFileName: string;
	/** The full email (UTF-8 MIME text). */
	email: Uint8Array;
}

/** The CV as headed sections of lines; the PDF and the DOCX show the same text. */
export function cvSections(facts: ResumeFacts): { heading: string; lines: string[] }[] {
	return [
		{ heading: `${facts.firstName} ${facts.lastName}`, lines: [`${facts.email} | ${facts.phone}`, facts.address] },
		{
			heading: 'Profile',
			lines: [`${facts.jobTitle} with experience since ${facts.startYear}, currently at ${facts.employer}.`],
		},
		{
			heading: 'Experience',
			lines: [
				`${facts.startYear} - present: ${facts.jobTitle}, ${facts.employer}`,
				`${facts.graduationYear} - ${facts.startYear}: ${facts.previousTitle}, ${facts.previousEmployer}`,
			],
		},
		{ heading: 'Education', lines: [`${facts.graduationYear}: ${facts.degree}, ${facts.school}`] },
		{ heading: 'Skills', lines: [facts.skills.join(', ')] },
	];
}

/** A file-name stem from the candidate's name: ASCII letters and dashes only. */
export function cvBaseName(facts: Pick<ResumeFacts, 'firstName' | 'lastName'>): string {
	return `CV-${facts.firstName}-${facts.lastName}`.normalize('NFD').replace(/[^A-Za-z-]/g, '');
}

/** The CV in the given format. */
export function createCv(facts: ResumeFacts, format: CvFormat): GeneratedAttachment {
	const sections = cvSections(facts);
	const baseName = cvBaseName(facts);
	if (format === 'pdf') {
		const lines = sections.flatMap((section) => [section.heading.toUpperCase(), ...section.lines, '']);
		return {
			fileName: `${baseName}.pdf`,
			contentType: 'application/pdf',
			format,
			bytes: createPdf(lines, `CV of ${facts.firstName} ${facts.lastName}`),
		};
	}
	const paragraphs: DocxParagraph[] = sections.flatMap((section) => [
		{ text: section.heading, heading: true },
		...section.lines.map((text) => ({ text })),
	]);
	return { fileName: `${baseName}.docx`, contentType: DOCX_CONTENT_TYPE, format, bytes: createDocx(paragraphs) };
}

/** What an application email needs besides the CV facts. */
export interface EmailFacts {
	to: string;
	subject: string;
	date: Date;
	html: string;
	/** Unique per application (e.g. `app-123`). */
	messageId: string;
}

/** The attachment, HR-XML and email of one application. */
export function createApplicationDocuments(
	facts: ResumeFacts,
	format: CvFormat,
	email: EmailFacts,
): ApplicationDocuments {
	const encoder = new TextEncoder();
	const attachment = createCv(facts, format);
	const message = createMimeEmail({
		fromName: `${facts.firstName} ${facts.lastName}`,
		fromAddress: facts.email,
		to: email.to,
		subject: email.subject,
		date: email.date,
		id: email.messageId,
		html: email.html,
		attachment,
	});
	return {
		attachment,
		parsed: encoder.encode(createHrXml(facts)),
		parsedFileName: `${cvBaseName(facts)}.xml`,
		email: encoder.encode(message),
	};
}
