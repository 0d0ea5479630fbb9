/** Score, progress, note and tags of an application, asked for through quick inputs when not given. */
import { PARTNER_TAGS, VALUE_SETS, SCORE_LETTERS, type APIApplication } from '../../protocol/catalogue';
import { SETTINGS } from '../ids';
import type { ApplicationActions, ApplicationRef, WorkbenchServices } from '../services';
import type { SettingsPort, UiPort } from '../ui/port';
import { progressChoices } from './progressNames';
import { reportFailure, runWithProgress } from './run';

export class ApplicationActionsImpl implements ApplicationActions {
	constructor(
		private readonly services: WorkbenchServices,
		private readonly ui: UiPort,
		private readonly settings: SettingsPort,
	) {}

	async score(app: ApplicationRef, letter?: string): Promise<boolean> {
		letter ??= (
			await this.ui.pick(
				VALUE_SETS.score.values.map((v) => ({ label: v.value, description: v.label, value: v.value })),
				{ title: `Score application ${app.advertCandidateId}`, placeholder: 'Pick a score' },
			)
		)?.value;
		if (letter === undefined) {
			return false;
		}
		if (!(letter in SCORE_LETTERS)) {
			reportFailure(this.ui, this.services.log, `"${letter}" is not a score; use S, M, U, F or N.`);
			return false;
		}
		const score = letter;
		const result = await this.run('Scoring the application', (client, signal) =>
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
		return this.accepted(app, result?.Success, 'The service did not accept the score.');
	}

	async progress(app: ApplicationRef, progressId?: number): Promise<boolean> {
		const choices = progressChoices(this.settings.get<unknown>(SETTINGS.progressNames, undefined));
		progressId ??= (
			await this.ui.pick(
				choices.map((c) => ({ label: c.name, description: String(c.id), value: c.id })),
				{ title: `Progress application ${app.advertCandidateId}`, placeholder: 'Pick the new progress' },
			)
		)?.value;
		if (progressId === undefined) {
			return false;
		}
		const id = progressId;
		const result = await this.run('Progressing the application', (client, signal) =>
			client.applicationProgress(
				{
					sAdvertID: String(app.advertId),
					sAdvertCandidateID: String(app.advertCandidateId),
					sProgressID: String(id),
				},
				{ signal },
			),
		);
		return this.accepted(app, result?.Success, 'The service did not accept the progress.');
	}

	async addNote(app: ApplicationRef, subject?: string, body?: string): Promise<boolean> {
		subject ??= await this.ui.input({ title: 'Add a note', prompt: 'Subject of the note', step: 1, totalSteps: 2 });
		if (subject === undefined) {
			return false;
		}
		body ??= await this.ui.input({
			title: 'Add a note',
			prompt: 'Text of the note',
			step: 2,
			totalSteps: 2,
			validate: (text) => (text.trim() === '' ? 'The note needs some text' : undefined),
		});
		if (body === undefined) {
			return false;
		}
		const [s, b] = [subject, body];
		const result = await this.run('Adding the note', (client, signal) =>
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
		return this.accepted(
			app,
			result ? (result.AdvertCandidateNoteID ?? 0) > 0 : undefined,
			'The service did not store the note.',
		);
	}

	async tag(app: ApplicationRef, tag?: string): Promise<boolean> {
		tag ??= await this.ui.input({
			title: 'Tag the candidate',
			prompt: 'A short phrase shown in the recruiter interface, e.g. Reviewed',
			validate: (text) =>
				text.trim() === '' ? 'Enter a tag' : text.length > 100 ? 'Keep the tag short' : undefined,
		});
		if (tag === undefined) {
			return false;
		}
		const value = tag.trim();
		const result = await this.run('Tagging the candidate', async (client, signal) => {
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
		return this.accepted(app, result?.Success, 'The service did not accept the tag.');
	}

	async partnerTag(app: ApplicationRef, partnerTag?: string): Promise<boolean> {
		partnerTag ??= (
			await this.ui.pick(
				VALUE_SETS.partnerTag.values.map((v) => ({ label: v.label, description: v.value, value: v.value })),
				{ title: 'Partner tag', placeholder: 'Pick the partner tag' },
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
		const result = await this.run('Setting the partner tag', async (client, signal) => {
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
		return this.accepted(app, result?.Success, 'The service did not accept the partner tag.');
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
		const page = await client.getApplicationsPaged(
			{
				sAdvertID: String(app.advertId),
				AdvertCandidateIDAsCSV: String(app.advertCandidateId),
				CurrentPage: 1,
				RowsPerPage: 1,
			},
			{ signal },
		);
		const found: APIApplication | undefined = page.Applications?.[0];
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

	private accepted(app: ApplicationRef, success: boolean | undefined, refusal: string): boolean {
		if (success === undefined) {
			return false;
		}
		if (!success) {
			reportFailure(this.ui, this.services.log, refusal);
			return false;
		}
		this.services.notifyDataChanged({ advertId: app.advertId, advertCandidateId: app.advertCandidateId });
		return true;
	}
}
