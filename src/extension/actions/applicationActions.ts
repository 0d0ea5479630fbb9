/** Score, progress, note and tags of an application, asked for through quick inputs when not given. */
import { PARTNER_TAGS, SCORE_LETTERS, VALUE_SETS, type ScoreLetter } from '../../protocol/catalogue';
import { SETTINGS } from '../ids';
import type { ApplicationActions, ApplicationRef, WorkbenchServices } from '../services';
import type { SettingsPort, UiPort } from '../ui/port';
import { currentScoreLetter, SCORE_DETAILS, SCORE_WORDS } from '../vocabulary';
import { applicationById } from '../reads/queries';
import { progressChoices, progressName } from './progressNames';
import { reportFailure, runWithProgress } from './run';

const CURRENT = 'current';

/** The candidate's name for messages ("Jane Doe"), else their email, else "application 5003". */
export function candidateName(app: ApplicationRef): string {
	return (
		[app.firstName, app.lastName].filter(Boolean).join(' ') ||
		app.candidateEmail ||
		`application ${app.advertCandidateId}`
	);
}

/** The word of a score letter. */
export function scoreWord(letter: ScoreLetter): string {
	return SCORE_WORDS[letter];
}

function isScoreLetter(value: string): value is ScoreLetter {
	return Object.prototype.hasOwnProperty.call(SCORE_LETTERS, value);
}

export class ApplicationActionsImpl implements ApplicationActions {
	constructor(
		private readonly services: WorkbenchServices,
		private readonly ui: UiPort,
		private readonly settings: SettingsPort,
	) {}

	async score(app: ApplicationRef, letter?: string): Promise<boolean> {
		const current = currentScoreLetter(app.score, app.favourite);
		letter ??= (
			await this.ui.pick(
				VALUE_SETS.score.values.map((v) => ({
					label: SCORE_WORDS[v.value as ScoreLetter],
					description: [v.value, v.value === current ? CURRENT : undefined].filter(Boolean).join(' · '),
					detail: SCORE_DETAILS[v.value as ScoreLetter],
					value: v.value,
				})),
				{ title: `Score ${candidateName(app)}`, placeholder: 'Pick a score (keys S, M, U, F, N in the tree)' },
			)
		)?.value;
		if (letter === undefined) {
			return false;
		}
		if (!isScoreLetter(letter)) {
			reportFailure(this.ui, this.services.log, `"${letter}" is not a score; use S, M, U, F or N.`);
			return false;
		}
		const score = letter;
		const result = await this.run(`Scoring ${candidateName(app)}`, (client, signal) =>
			client.applicationScore(
				{
					sAdvertID: String(app.advertId),
					sAdvertCandidateID: String(app.advertCandidateId),
					sScore: score,
					sScoreAsJobOwner: false,
				},
				{ signal },
			),
		);
		return this.accepted(
			app,
			result?.Success,
			`The service did not accept the score of ${candidateName(app)}.`,
			'score',
			`Scored ${SCORE_WORDS[score]}`,
		);
	}

	async progress(app: ApplicationRef, progressId?: number): Promise<boolean> {
		const choices = progressChoices(this.settings.get<unknown>(SETTINGS.progressNames, undefined));
		progressId ??= (
			await this.ui.pick(
				choices.map((c) => ({
					label: c.name,
					description: [String(c.id), c.id === app.progressId ? CURRENT : undefined]
						.filter(Boolean)
						.join(' · '),
					value: c.id,
				})),
				{ title: `Progress ${candidateName(app)}`, placeholder: 'Pick the new progress' },
			)
		)?.value;
		if (progressId === undefined) {
			return false;
		}
		const id = progressId;
		const result = await this.run(`Progressing ${candidateName(app)}`, (client, signal) =>
			client.applicationProgress(
				{
					sAdvertID: String(app.advertId),
					sAdvertCandidateID: String(app.advertCandidateId),
					sProgressID: String(id),
				},
				{ signal },
			),
		);
		const name = progressName(choices, id) ?? String(id);
		const done = this.accepted(
			app,
			result?.Success,
			`The service did not accept the progress of ${candidateName(app)}.`,
			'progress',
			`Progress set to ${name}`,
		);
		if (done) this.ui.status(`${candidateName(app)}: ${name}`);
		return done;
	}

	async addNote(app: ApplicationRef, subject?: string, body?: string): Promise<boolean> {
		const title = `Add a note to ${candidateName(app)}`;
		subject ??= await this.ui.input({ title, prompt: 'Subject of the note', step: 1, totalSteps: 2 });
		if (subject === undefined) {
			return false;
		}
		body ??= await this.ui.input({
			title,
			prompt: 'Text of the note',
			step: 2,
			totalSteps: 2,
			validate: (text) => (text.trim() === '' ? 'The note needs some text' : undefined),
		});
		if (body === undefined) {
			return false;
		}
		const [s, b] = [subject, body];
		const result = await this.run(`Adding the note to ${candidateName(app)}`, (client, signal) =>
			client.addAdvertCandidateNote(
				{
					sAdvertID: String(app.advertId),
					sAdvertCandidateID: String(app.advertCandidateId),
					sSubject: s,
					sBody: b,
				},
				{ signal },
			),
		);
		const done = this.accepted(
			app,
			result ? (result.AdvertCandidateNoteID ?? 0) > 0 : undefined,
			`The service did not store the note on ${candidateName(app)}.`,
			'note',
			`Note${s.trim() ? ` “${s.trim()}”` : ''}: ${b.trim()}`,
		);
		if (done) void this.ui.info(`Note added to the application of ${candidateName(app)}.`);
		return done;
	}

	async tag(app: ApplicationRef, tag?: string): Promise<boolean> {
		tag ??= await this.ui.input({
			title: `Tag ${candidateName(app)}`,
			prompt: 'A short phrase shown in the recruiter interface, e.g. Reviewed',
			validate: (text) =>
				text.trim() === '' ? 'Enter a tag' : text.length > 100 ? 'Keep the tag short' : undefined,
		});
		if (tag === undefined) {
			return false;
		}
		const value = tag.trim();
		const result = await this.run(`Tagging ${candidateName(app)}`, async (client, signal) => {
			const candidate = await this.candidateOf(app, signal);
			return client.candidateTag(
				{
					sCandidateEmail: candidate.email,
					sCandidateFirstName: candidate.firstName,
					sCandidateLastName: candidate.lastName,
					Tag: value,
				},
				{ signal },
			);
		});
		const done = this.accepted(
			app,
			result?.Success,
			`The service did not accept the tag of ${candidateName(app)}.`,
			'tag',
			`Tagged “${value}”`,
		);
		if (done) void this.ui.info(`${candidateName(app)} is tagged “${value}”.`);
		return done;
	}

	async partnerTag(app: ApplicationRef, partnerTag?: string): Promise<boolean> {
		const current = this.services.activity.latest(app.advertCandidateId, 'partnerTag')?.text;
		partnerTag ??= (
			await this.ui.pick(
				VALUE_SETS.partnerTag.values.map((v) => ({
					label: v.label,
					description: [v.value, current === partnerTagText(v.label) ? 'set in this session' : undefined]
						.filter(Boolean)
						.join(' · '),
					value: v.value,
				})),
				{ title: `Partner tag of ${candidateName(app)}`, placeholder: 'Pick the partner tag' },
			)
		)?.value;
		if (partnerTag === undefined) {
			return false;
		}
		if (!(PARTNER_TAGS as readonly string[]).includes(partnerTag)) {
			reportFailure(
				this.ui,
				this.services.log,
				`"${partnerTag}" is not a partner tag; use one of ${PARTNER_TAGS.join(', ')}.`,
			);
			return false;
		}
		const value = partnerTag;
		const label = VALUE_SETS.partnerTag.values.find((v) => v.value === value)?.label ?? value;
		const result = await this.run(`Setting the partner tag of ${candidateName(app)}`, async (client, signal) => {
			const candidate = await this.candidateOf(app, signal);
			return client.candidateTagPartner(
				{
					sCandidateEmail: candidate.email,
					sCandidateFirstName: candidate.firstName,
					sCandidateLastName: candidate.lastName,
					PartnerTag: value,
				},
				{ signal },
			);
		});
		const done = this.accepted(
			app,
			result?.Success,
			`The service did not accept the partner tag of ${candidateName(app)}.`,
			'partnerTag',
			partnerTagText(label),
		);
		if (done) void this.ui.info(`The partner tag of ${candidateName(app)} is now ${label}.`);
		return done;
	}

	/** The candidate's email and names, from the reference or else looked up by AdvertCandidateID. */
	private async candidateOf(
		app: ApplicationRef,
		signal: AbortSignal,
	): Promise<{ email: string; firstName?: string; lastName?: string }> {
		if (app.candidateEmail) {
			return { email: app.candidateEmail, firstName: app.firstName, lastName: app.lastName };
		}
		const client = await this.services.activeClient();
		const found = await applicationById(client, app, undefined, { signal });
		if (!found?.EmailAddress) {
			throw new Error(`application ${app.advertCandidateId} was not found or has no email address`);
		}
		return { email: found.EmailAddress, firstName: found.FirstName, lastName: found.LastName };
	}

	private run<T>(
		title: string,
		task: (client: Awaited<ReturnType<WorkbenchServices['activeClient']>>, signal: AbortSignal) => Promise<T>,
	): Promise<T | undefined> {
		return runWithProgress(this.ui, this.services.log, title, false, async (signal) =>
			task(await this.services.activeClient(), signal),
		);
	}

	private accepted(
		app: ApplicationRef,
		success: boolean | undefined,
		refusal: string,
		kind: Parameters<WorkbenchServices['activity']['record']>[1],
		done: string,
	): boolean {
		if (success === undefined) {
			return false;
		}
		if (!success) {
			reportFailure(this.ui, this.services.log, refusal);
			return false;
		}
		this.services.activity.record(app.advertCandidateId, kind, done);
		this.services.notifyDataChanged({ advertId: app.advertId, advertCandidateId: app.advertCandidateId });
		return true;
	}
}

function partnerTagText(label: string): string {
	return `Partner tag ${label}`;
}
