import * as assert from 'node:assert/strict';
import { loadDocument } from '../../../../src/extension/panels/documents/documents';
import { rawXml, readCv } from '../../../../src/extension/panels/documents/hrxml';

const RESUME = `<?xml version="1.0" encoding="UTF-8"?>
<Resume xmlns="http://ns.hr-xml.org/2006-02-28"><StructuredXMLResume>
<ContactInfo><PersonName><GivenName>Ada</GivenName><FamilyName>Lovelace</FamilyName></PersonName>
<ContactMethod><InternetEmailAddress>ada@example.com</InternetEmailAddress><Telephone><FormattedNumber>+44 20 7946 0000</FormattedNumber></Telephone>
<PostalAddress><Municipality>London</Municipality><CountryCode>GB</CountryCode></PostalAddress></ContactMethod></ContactInfo>
<ExecutiveSummary>Analyst &amp; programmer.</ExecutiveSummary>
<EmploymentHistory><EmployerOrg><EmployerOrgName>Analytical Engines Ltd</EmployerOrgName>
<PositionHistory><Title>Programmer</Title><StartDate><YearMonth>1842-01</YearMonth></StartDate><EndDate><YearMonth>1843-09</YearMonth></EndDate><Description>Wrote &lt;script&gt; notes.</Description></PositionHistory>
</EmployerOrg></EmploymentHistory>
<EducationHistory><SchoolOrInstitution><School><SchoolName>Home tutoring</SchoolName></School><Degree><DegreeName>Mathematics</DegreeName><DegreeDate><Year>1835</Year></DegreeDate></Degree></SchoolOrInstitution></EducationHistory>
<Qualifications><Competency name="Mathematics"/><Competency name="Poetical science"/><Competency name="Mathematics"/></Qualifications>
<Languages><Language><LanguageCode>en</LanguageCode></Language></Languages>
</StructuredXMLResume></Resume>`;

describe('HR-XML to CV', function () {
	it('reads contact, experience, education and skills', function () {
		const result = readCv(RESUME);
		assert.ok('cv' in result);
		const { cv } = result;
		assert.equal(cv.name, 'Ada Lovelace');
		assert.deepEqual(cv.contact, [
			{ label: 'Email', value: 'ada@example.com' },
			{ label: 'Phone', value: '+44 20 7946 0000' },
			{ label: 'Address', value: 'London, GB' },
		]);
		assert.equal(cv.summary, 'Analyst & programmer.');
		assert.deepEqual(cv.experience, [
			{
				title: 'Programmer',
				organisation: 'Analytical Engines Ltd',
				period: '1842-01 – 1843-09',
				description: 'Wrote <script> notes.',
			},
		]);
		assert.deepEqual(cv.education, [
			{ title: 'Mathematics', organisation: 'Home tutoring', period: '1835', description: '' },
		]);
		assert.deepEqual(cv.skills, ['Mathematics', 'Poetical science']);
		assert.deepEqual(cv.languages, ['en']);
	});

	it('reads the Candidate/PersonalData variant the sandbox serves', function () {
		const result = readCv(`<Candidate xmlns="http://ns.hr-xml.org/2006-02-28"><CandidateProfile><PersonalData>
<PersonName><GivenName>Noah</GivenName><FamilyName>T</FamilyName></PersonName>
<ContactMethod><InternetEmailAddress>n@example.org</InternetEmailAddress><PostalAddress><DeliveryAddress><AddressLine>1 High St</AddressLine></DeliveryAddress><CountryCode>GB</CountryCode></PostalAddress></ContactMethod>
</PersonalData></CandidateProfile><Resume><StructuredXMLResume><EmploymentHistory><EmployerOrg><EmployerOrgName>Fabrikam</EmployerOrgName>
<PositionHistory><Title>Carer</Title><StartDate><Year>2023</Year></StartDate><EndDate><StringDate>current</StringDate></EndDate></PositionHistory></EmployerOrg></EmploymentHistory>
</StructuredXMLResume></Resume></Candidate>`);
		assert.ok('cv' in result);
		assert.equal(result.cv.name, 'Noah T');
		assert.deepEqual(result.cv.contact, [
			{ label: 'Email', value: 'n@example.org' },
			{ label: 'Address', value: '1 High St, GB' },
		]);
		assert.deepEqual(result.cv.experience, [
			{ title: 'Carer', organisation: 'Fabrikam', period: '2023 – current', description: '' },
		]);
	});

	it('refuses entity expansion and external entities with a clear message', function () {
		const billionLaughs =
			'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><Resume>&lol2;</Resume>';
		const external = '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Resume>&xxe;</Resume>';
		for (const xml of [billionLaughs, external]) {
			const result = readCv(xml);
			assert.ok('problem' in result);
			assert.match(result.problem, /refused: it contains a DOCTYPE/);
		}
		const undeclared = readCv('<Resume>&xxe;</Resume>');
		assert.ok('problem' in undeclared);
		assert.match(undeclared.problem, /entity/);
		const broken = readCv('<Resume><a></Resume>');
		assert.ok('problem' in broken);
		assert.match(broken.problem, /not well-formed.*line 1/);
	});

	it('pretty-prints well-formed raw XML and keeps malformed XML as it came', function () {
		assert.deepEqual(rawXml('<a><b>x</b></a>'), { text: '<a>\n  <b>x</b>\n</a>', pretty: true });
		assert.deepEqual(rawXml('<a><b></a>'), { text: '<a><b></a>', pretty: false });
	});

	it('gives the panel the CV and the raw text, or the problem and the raw text', async function () {
		const good = await loadDocument('parsed', {
			DocumentBytes: new TextEncoder().encode(RESUME),
			FileName: 'cv.xml',
		});
		assert.equal(good.view.kind, 'cv');
		if (good.view.kind === 'cv') {
			assert.equal(good.view.cv?.name, 'Ada Lovelace');
			assert.equal(good.view.rawIsPretty, true);
		}
		const hostile = await loadDocument('parsed', {
			DocumentBytes: new TextEncoder().encode('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>'),
		});
		assert.equal(hostile.view.kind, 'cv');
		if (hostile.view.kind === 'cv') {
			assert.equal(hostile.view.cv, undefined);
			assert.match(hostile.view.problem ?? '', /DOCTYPE/);
			assert.equal(hostile.view.rawIsPretty, false);
			assert.match(hostile.view.raw.text, /<!DOCTYPE/);
		}
	});
});
