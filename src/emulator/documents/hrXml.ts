/** HR-XML 2.5 Candidate documents, the format of the parser's output (Parsed documents). */
import { escapeAttr } from '../../protocol/codecs/xml';

/** Escapes a value for the document; characters XML cannot carry are dropped (demo data, never refused). */
const e = (text: string): string => escapeAttr(text, 'drop');

/** The HR-XML namespace used by the sandbox's parser output. */
export const HR_XML_NAMESPACE = 'http://ns.hr-xml.org/2007-04-15';

/** What a CV says about a candidate; all fields are plain text. */
export interface ResumeFacts {
	firstName: string;
	lastName: string;
	email: string;
	phone: string;
	address: string;
	countryCode: string;
	jobTitle: string;
	employer: string;
	/** Year the current position started. */
	startYear: number;
	previousEmployer: string;
	previousTitle: string;
	school: string;
	degree: string;
	graduationYear: number;
	skills: readonly string[];
}

/** A Candidate with CandidateProfile/PersonalData and Resume/StructuredXMLResume (ContactInfo, EmploymentHistory, EducationHistory, Qualifications). */
export function createHrXml(facts: ResumeFacts): string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<Candidate xmlns="${HR_XML_NAMESPACE}">
  <CandidateProfile>
    <PersonalData>
      <PersonName><GivenName>${e(facts.firstName)}</GivenName><FamilyName>${e(facts.lastName)}</FamilyName></PersonName>
    </PersonalData>
  </CandidateProfile>
  <Resume>
    <StructuredXMLResume>
      <ContactInfo>
        <PersonName><FormattedName>${e(facts.firstName)} ${e(facts.lastName)}</FormattedName><GivenName>${e(facts.firstName)}</GivenName><FamilyName>${e(facts.lastName)}</FamilyName></PersonName>
        <ContactMethod>
          <Use>personal</Use>
          <Telephone><FormattedNumber>${e(facts.phone)}</FormattedNumber></Telephone>
          <InternetEmailAddress>${e(facts.email)}</InternetEmailAddress>
          <PostalAddress><CountryCode>${e(facts.countryCode)}</CountryCode><DeliveryAddress><AddressLine>${e(facts.address)}</AddressLine></DeliveryAddress></PostalAddress>
        </ContactMethod>
      </ContactInfo>
      <EmploymentHistory>
        <EmployerOrg>
          <EmployerOrgName>${e(facts.employer)}</EmployerOrgName>
          <PositionHistory positionType="directHire">
            <Title>${e(facts.jobTitle)}</Title>
            <OrgName><OrganizationName>${e(facts.employer)}</OrganizationName></OrgName>
            <StartDate><Year>${facts.startYear}</Year></StartDate>
            <EndDate><StringDate>current</StringDate></EndDate>
          </PositionHistory>
        </EmployerOrg>
        <EmployerOrg>
          <EmployerOrgName>${e(facts.previousEmployer)}</EmployerOrgName>
          <PositionHistory positionType="directHire">
            <Title>${e(facts.previousTitle)}</Title>
            <OrgName><OrganizationName>${e(facts.previousEmployer)}</OrganizationName></OrgName>
            <StartDate><Year>${facts.graduationYear}</Year></StartDate>
            <EndDate><Year>${facts.startYear}</Year></EndDate>
          </PositionHistory>
        </EmployerOrg>
      </EmploymentHistory>
      <EducationHistory>
        <SchoolOrInstitution schoolType="university">
          <School><SchoolName>${e(facts.school)}</SchoolName></School>
          <Degree degreeType="bachelors"><DegreeName>${e(facts.degree)}</DegreeName><DegreeDate><Year>${facts.graduationYear}</Year></DegreeDate></Degree>
        </SchoolOrInstitution>
      </EducationHistory>
      <Qualifications>
${facts.skills.map((skill) => `        <Competency name="${e(skill)}"><CompetencyEvidence name="CV" typeDescription="Mentioned in CV"/></Competency>`).join('\n')}
      </Qualifications>
    </StructuredXMLResume>
  </Resume>
</Candidate>
`;
}
