/**
 * Live mode: new applications arrive for live adverts at a steady rate on the emulator's clock,
 * each with an HTML email body, a CV (PDF or DOCX), HR-XML and the full email, so the account
 * visibly changes. Every new application is reported to `onApplication` (callbacks hang off it).
 */
import { DOCUMENT_TYPE } from '../../protocol/catalogue';
import { createApplicationDocuments, type ResumeFacts } from '../documents';
import { emailBodyHtml, FIRST_NAMES, LAST_NAMES, SKILLS, STREETS, UK_CITIES } from '../domain/demoContent';
import { mulberry32 } from '../domain/seed';
import type { EmulatorClock } from '../delivery/clock';
import type { Store } from '../store/store';
import { toStoredDate } from '../store/time';

/** Default arrival rate in live mode: applications per minute of emulator time. */
export const DEFAULT_LIVE_RATE_PER_MINUTE = 6;
/** At most this many arrivals are made up in one tick after a long clock jump. */
const MAX_ARRIVALS_PER_TICK = 100;

/** A newly arrived application, as the callback notifier needs it. */
export interface ArrivedApplication {
	advertCandidateId: number;
	advertId: number;
	advertIdentifier: string | null;
	feedId: number;
	appliedAt: string;
	callbackUrl: string | null;
}

export interface LiveOptions {
	ratePerMinute?: number;
	seed?: number;
	onApplication?: (application: ArrivedApplication) => void;
}

export class LiveApplications {
	private readonly random: () => number;
	private readonly intervalMs: number;
	private nextAt: number | undefined;
	private removeTick: (() => void) | undefined;
	private counter = 0;

	constructor(
		private readonly store: Store,
		private readonly clock: EmulatorClock,
		private readonly options: LiveOptions = {},
	) {
		const rate = options.ratePerMinute ?? DEFAULT_LIVE_RATE_PER_MINUTE;
		if (!Number.isFinite(rate) || rate <= 0) {
			throw new RangeError('The live rate must be a positive number of applications per minute.');
		}
		this.intervalMs = 60_000 / rate;
		this.random = mulberry32((options.seed ?? 1) ^ 0x5eed);
	}

	/** Starts arrivals on every clock tick. */
	start(): void {
		this.nextAt = this.clock.now().getTime() + this.intervalMs;
		this.removeTick ??= this.clock.onTick(() => this.catchUp());
	}

	stop(): void {
		this.removeTick?.();
		this.removeTick = undefined;
	}

	private catchUp(): void {
		const now = this.clock.now().getTime();
		let made = 0;
		while (this.nextAt !== undefined && this.nextAt <= now && made < MAX_ARRIVALS_PER_TICK) {
			this.arrive(undefined, new Date(this.nextAt));
			this.nextAt += this.intervalMs;
			made++;
		}
		// After a long jump, skip what could not be made rather than flooding later ticks.
		if (this.nextAt !== undefined && this.nextAt <= now) this.nextAt = now + this.intervalMs;
	}

	private pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.random() * items.length)];
	}

	/**
	 * One new application now (or at `at`), for this advert or a random live one. Returns it, or
	 * undefined when no advert is live (posted and delivered).
	 */
	arrive(advertId?: number, at: Date = this.clock.now()): ArrivedApplication | undefined {
		const targets = this.store.postings
			.liveTargets(advertId === undefined ? 500 : 100_000)
			.filter((target) => advertId === undefined || target.advertId === advertId);
		if (targets.length === 0) return undefined;
		const target = this.pick(targets);
		this.counter++;
		const firstName = this.pick(FIRST_NAMES);
		const lastName = this.pick(LAST_NAMES);
		const ascii = (text: string): string =>
			text
				.normalize('NFD')
				.replace(/[^A-Za-z]/g, '')
				.toLowerCase();
		const appliedAt = toStoredDate(at);
		const person = {
			firstName,
			lastName,
			email: `${ascii(firstName)}.${ascii(lastName)}.live${at.getTime() % 1_000_000}${this.counter}@example.com`,
			phone: `+44 7700 9${String(Math.floor(this.random() * 100000)).padStart(5, '0')}`,
			address: `${1 + Math.floor(this.random() * 200)} ${this.pick(STREETS)}, ${this.pick(UK_CITIES)}`,
		};
		const skills = [this.pick(SKILLS), this.pick(SKILLS), this.pick(SKILLS)].filter(
			(skill, index, all) => all.indexOf(skill) === index,
		);
		const startYear = 2026 - 1 - Math.floor(this.random() * 12);
		const facts: ResumeFacts = {
			...person,
			countryCode: 'GB',
			jobTitle: target.title,
			employer: this.pick(['Northwind Ltd', 'Contoso plc', 'Fabrikam GmbH']),
			startYear,
			previousEmployer: 'Adventure Works',
			previousTitle: `Junior ${target.title}`,
			school: this.pick(['University of Leeds', 'University of Bristol', 'TU Berlin']),
			degree: 'BSc',
			graduationYear: startYear - 2,
			skills,
		};
		const html = emailBodyHtml(person, target.title, undefined);
		const format = this.random() < 0.5 ? 'pdf' : 'docx';
		const arrived = this.store.transaction(() => {
			const candidateId = this.store.candidates.upsert({
				organisationId: target.organisationId,
				email: person.email,
				firstName,
				lastName,
				mobilePhone: person.phone,
				address: person.address,
			});
			const id = this.store.applications.insert({
				advertId: target.advertId,
				organisationId: target.organisationId,
				candidateId,
				postingId: target.postingId,
				feedId: target.feedId,
				appliedAt,
				scoreExtra: Math.floor(this.random() * 101),
			});
			const documents = createApplicationDocuments(facts, format, {
				to: target.ownerEmail ?? 'applications@sandbox.example',
				subject: `Application: ${target.title}`,
				date: at,
				html,
				messageId: `live-${id}`,
			});
			this.store.applications.insertDocument({
				applicationId: id,
				kind: DOCUMENT_TYPE.EmailBody,
				fileName: 'body.html',
				encodingType: 'UTF-8',
				documentSource: 'Email',
				documentFormat: 'html',
				text: html,
				bytes: null,
			});
			this.store.applications.insertDocument({
				applicationId: id,
				kind: DOCUMENT_TYPE.Attachment,
				fileName: documents.attachment.fileName,
				encodingType: 'binary',
				documentSource: 'Email',
				documentFormat: documents.attachment.format,
				text: null,
				bytes: documents.attachment.bytes,
			});
			this.store.applications.insertDocument({
				applicationId: id,
				kind: DOCUMENT_TYPE.Parsed,
				fileName: documents.parsedFileName,
				encodingType: 'UTF-8',
				documentSource: 'Parser',
				documentFormat: 'HR-XML',
				text: null,
				bytes: documents.parsed,
			});
			this.store.applications.insertDocument({
				applicationId: id,
				kind: DOCUMENT_TYPE.Email,
				fileName: 'application.eml',
				encodingType: 'UTF-8',
				documentSource: 'Email',
				documentFormat: 'eml',
				text: null,
				bytes: documents.email,
			});
			const advert = this.store.adverts.byId(target.advertId);
			const created: ArrivedApplication = {
				advertCandidateId: id,
				advertId: target.advertId,
				advertIdentifier: advert?.identifier ?? null,
				feedId: target.feedId,
				appliedAt,
				callbackUrl: target.callbackUrl,
			};
			return created;
		});
		// Reported only once committed, so a callback receiver can already fetch it.
		this.options.onApplication?.(arrived);
		return arrived;
	}
}
