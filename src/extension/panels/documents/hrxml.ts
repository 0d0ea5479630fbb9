/**
 * Reads parsed application data (generally HR-XML Resume) into a readable CV model, with the
 * project's own XML parser: it refuses DOCTYPE and entity declarations, so hostile HR-XML is
 * rejected with a clear message instead of being expanded. Tolerant of HR-XML variants: elements are
 * found by local name at any depth. No VS Code imports.
 */
import { parseXml, prettyPrintXml, XmlError, type XmlElement } from '../../../protocol/codecs/xml';
import type { CvEntry, CvModel, FieldRow } from '../../../shared/panelMessages';

/** Parsed data larger than this is shown raw only (the parser's own limit is far higher). */
const MAX_CV_BYTES = 16 * 1024 * 1024;
const MAX_ENTRIES = 200;

export type CvResult = { cv: CvModel } | { problem: string };

/** Builds the CV of an HR-XML document, or explains why it could not be read. */
export function readCv(xml: string): CvResult {
	let root: XmlElement;
	try {
		root = parseXml(xml, { maxBytes: MAX_CV_BYTES, maxDepth: 64 });
	} catch (error) {
		return { problem: describeXmlProblem(error) };
	}
	return { cv: cvFromTree(root) };
}

/** A sentence a recruiter understands, keeping the parser's position when there is one. */
export function describeXmlProblem(error: unknown): string {
	if (error instanceof XmlError) {
		switch (error.code) {
			case 'XML_DOCTYPE':
				return `The parsed data was refused: it contains a DOCTYPE, which can declare entities that expand or fetch files. (${error.message})`;
			case 'XML_ENTITY':
				return `The parsed data was refused: it uses an undeclared entity. (${error.message})`;
			case 'XML_TOO_LARGE':
				return `The parsed data is too large to read as a CV. (${error.message})`;
			default:
				return `The parsed data is not well-formed XML. (${error.message})`;
		}
	}
	return `The parsed data could not be read: ${error instanceof Error ? error.message : String(error)}`;
}

/** The raw text, pretty-printed when it is well-formed. */
export function rawXml(xml: string): { text: string; pretty: boolean } {
	try {
		return { text: prettyPrintXml(xml), pretty: true };
	} catch {
		return { text: xml, pretty: false };
	}
}

function descendants(root: XmlElement, local: string, limit = MAX_ENTRIES): XmlElement[] {
	const out: XmlElement[] = [];
	const stack = [root];
	while (stack.length > 0 && out.length < limit) {
		const el = stack.pop() as XmlElement;
		if (el.local === local) out.push(el);
		for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
	}
	return out;
}

function first(root: XmlElement | undefined, ...path: string[]): XmlElement | undefined {
	let current = root;
	for (const local of path) {
		if (!current) return undefined;
		current = descendants(current, local, 1)[0];
	}
	return current;
}

/** The element's whole text (its own and its descendants'), whitespace collapsed. */
function textOf(el: XmlElement | undefined): string {
	if (!el) return '';
	const parts: string[] = [];
	const stack = [el];
	while (stack.length > 0) {
		const current = stack.pop() as XmlElement;
		if (current.text) parts.push(current.text);
		for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]);
	}
	return parts.join(' ').replace(/\s+/g, ' ').trim();
}

function firstText(root: XmlElement, ...locals: string[]): string {
	for (const local of locals) {
		const text = textOf(first(root, local));
		if (text) return text;
	}
	return '';
}

function dateOf(el: XmlElement | undefined): string {
	if (!el) return '';
	return firstText(el, 'AnyDate', 'YearMonth', 'Year', 'StringDate') || textOf(el);
}

function period(el: XmlElement): string {
	const start = dateOf(first(el, 'StartDate'));
	const end = dateOf(first(el, 'EndDate'));
	if (!start && !end) return dateOf(first(el, 'DegreeDate'));
	return `${start || '?'} – ${end || 'present'}`;
}

function cvFromTree(root: XmlElement): CvModel {
	const contactInfo = first(root, 'ContactInfo') ?? root;
	const personName = first(contactInfo, 'PersonName');
	const name = personName
		? textOf(first(personName, 'FormattedName')) ||
			[textOf(first(personName, 'GivenName')), textOf(first(personName, 'FamilyName'))].filter(Boolean).join(' ')
		: '';
	const contact: FieldRow[] = [];
	const add = (label: string, value: string): void => {
		if (value && !contact.some((row) => row.label === label && row.value === value)) contact.push({ label, value });
	};
	for (const email of descendants(contactInfo, 'InternetEmailAddress', 5)) add('Email', textOf(email));
	for (const phone of descendants(contactInfo, 'Telephone', 5)) {
		add('Phone', textOf(first(phone, 'FormattedNumber')) || textOf(phone));
	}
	for (const mobile of descendants(contactInfo, 'Mobile', 5)) {
		add('Mobile', textOf(first(mobile, 'FormattedNumber')) || textOf(mobile));
	}
	for (const address of descendants(contactInfo, 'PostalAddress', 3)) {
		add(
			'Address',
			[
				firstText(address, 'AddressLine', 'StreetName'),
				firstText(address, 'Municipality', 'City'),
				firstText(address, 'PostalCode'),
				firstText(address, 'CountryCode'),
			]
				.filter(Boolean)
				.join(', '),
		);
	}
	for (const url of descendants(contactInfo, 'InternetWebAddress', 3)) add('Web', textOf(url));

	const experience: CvEntry[] = descendants(root, 'PositionHistory').map((position) => ({
		title: firstText(position, 'Title', 'PositionTitle'),
		organisation: firstText(position, 'OrgName', 'EmployerOrgName') || employerOf(root, position),
		period: period(position),
		description: textOf(first(position, 'Description')),
	}));

	const education: CvEntry[] = descendants(root, 'SchoolOrInstitution').map((school) => ({
		title:
			[firstText(school, 'DegreeName'), firstText(school, 'DegreeMajor')].filter(Boolean).join(', ') ||
			firstText(school, 'Degree'),
		organisation: firstText(school, 'SchoolName', 'School'),
		period: first(school, 'DatesOfAttendance')
			? period(first(school, 'DatesOfAttendance') as XmlElement)
			: period(school),
		description: textOf(first(school, 'Comments')) || textOf(first(school, 'Description')),
	}));

	const skills = unique([
		...descendants(root, 'Competency').map((c) => c.attrs.find((a) => a.local === 'name')?.value ?? textOf(c)),
		...descendants(root, 'Skill').map((s) => textOf(s)),
	]);
	const languages = unique(
		descendants(root, 'Language').map((l) => firstText(l, 'LanguageCode', 'Name') || textOf(l)),
	);

	return {
		name,
		contact,
		summary: firstText(root, 'ExecutiveSummary', 'Objective', 'Summary'),
		experience,
		education,
		skills,
		languages,
	};
}

/** The EmployerOrgName of the EmployerOrg that holds `position`, found by walking the tree once. */
function employerOf(root: XmlElement, position: XmlElement): string {
	for (const employer of descendants(root, 'EmployerOrg')) {
		if (employer.children.includes(position)) return textOf(first(employer, 'EmployerOrgName'));
	}
	return '';
}

function unique(values: string[]): string[] {
	return [...new Set(values.map((v) => v.trim()).filter(Boolean))].slice(0, MAX_ENTRIES);
}
