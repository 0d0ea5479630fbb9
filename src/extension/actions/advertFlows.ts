/** Guided flows over adverts and the account: create an advert, the delivery log, feeds and quota. */
import { checkValue } from '../../protocol/rules';
import {
	OPERATIONS,
	VALUE_SETS,
	type AdvertTrackingLog,
	type CPostFeed,
	type ValueSetName,
} from '../../protocol/catalogue';
import type { AdvertRef, WorkbenchServices } from '../services';
import type { UiPort } from '../ui/port';
import { feedPickItems } from './advertActions';
import { runWithProgress } from './run';
import { escapeMarkdown } from '../util/markdown';

/** The AddAdvert parameters the create flow asks for, in order (all exist in OPERATIONS.AddAdvert). */
const CREATE_STEPS = [
	{ param: 'sJobTitle', prompt: 'Job title', required: true },
	{ param: 'sJobType', prompt: 'Type of job' },
	{ param: 'sJobHours', prompt: 'Hours' },
	{ param: 'sPrimaryLocation', prompt: 'Location, e.g. London' },
	{ param: 'sSalaryFrom', prompt: 'Salary from (a number, empty for none)' },
	{ param: 'sSalaryTo', prompt: 'Salary to (a number, empty for none)' },
	{ param: 'sSalaryCurrency', prompt: 'Salary currency' },
	{ param: 'sSalaryPer', prompt: 'Salary per' },
	{ param: 'sContactName', prompt: 'Contact name' },
	{ param: 'sContactEmail', prompt: 'Contact email' },
	{ param: 'sJobDescription', prompt: 'Job description', required: true },
	{ param: 'DestinationsAsCSV', prompt: 'Job boards' },
	{ param: 'sFuturePostDateTimeInUtc', prompt: 'Post later at (UTC, yyyy-MM-dd HH:mm:ss; empty to post now)' },
] as const;

export type CreateAdvertAnswers = Partial<Record<(typeof CREATE_STEPS)[number]['param'], string>>;

/** Checks one answer with the catalogue's rules (src/protocol/rules, as the client and the sandbox do). */
export function checkAnswer(param: string, text: string, required = false): string | undefined {
	const value = text.trim();
	if (value === '') {
		return required ? 'This field is required' : undefined;
	}
	const spec = OPERATIONS.AddAdvert.params.find((p) => p.name === param);
	return spec ? checkValue(spec, value)?.message : undefined;
}

/** Asks for each field of a new advert, calls AddAdvert and offers to open the returned address. */
export async function createAdvertFlow(services: WorkbenchServices, ui: UiPort): Promise<number | undefined> {
	const answers: CreateAdvertAnswers = {};
	const totalSteps = CREATE_STEPS.length;
	for (const [index, step] of CREATE_STEPS.entries()) {
		const common = { title: 'Create advert', step: index + 1, totalSteps };
		const spec = OPERATIONS.AddAdvert.params.find((p) => p.name === step.param);
		let answer: string | undefined;
		if (step.param === 'DestinationsAsCSV') {
			const feeds = await runWithProgress(ui, services.log, 'Reading your feeds', true, async (signal) =>
				(await services.activeClient()).userFeedsAndQuotaWithDestinations({}, { signal }),
			);
			if (feeds === undefined) {
				return undefined;
			}
			const picked = await ui.pickMany(feedPickItems(feeds), {
				...common,
				placeholder: 'Pick the job boards (none: decide later in the web interface)',
			});
			if (picked === undefined) {
				return undefined;
			}
			answer = picked.map((p) => p.value).join(',');
		} else if (spec?.valueSet) {
			const set = VALUE_SETS[spec.valueSet as ValueSetName];
			const picked = await ui.pick(
				[
					...set.values.map((v) => ({ label: v.label, description: v.value, value: v.value })),
					{ label: 'Leave empty', value: '' },
				],
				{ ...common, placeholder: step.prompt },
			);
			answer = picked?.value;
		} else {
			const required = 'required' in step && step.required;
			answer = await ui.input({
				...common,
				prompt: step.prompt,
				validate: (text) => checkAnswer(step.param, text, required),
			});
		}
		if (answer === undefined) {
			return undefined;
		}
		answers[step.param] = answer.trim();
	}
	const params = Object.fromEntries(Object.entries(answers).filter(([, v]) => v !== '')) as Record<string, string>;
	const result = await runWithProgress(ui, services.log, 'Creating the advert', false, async (signal) =>
		(await services.activeClient()).addAdvert(params, { signal }),
	);
	if (!result) {
		return undefined;
	}
	const advertId = result.AdvertID;
	services.notifyDataChanged({ advertId });
	const message = `Advert ${advertId ?? ''} "${answers.sJobTitle}" was created.`;
	if (result.RedirectUrl) {
		void ui.info(`${message} Complete the posting in the web interface.`, 'Open').then(
			async (choice) => {
				if (choice === 'Open' && result.RedirectUrl) {
					await ui.openExternal(result.RedirectUrl);
				}
			},
			() => undefined,
		);
	} else {
		void ui.info(message);
	}
	return advertId;
}

/** The delivery log of an advert's postings, as a plain-text document. */
export function formatDeliveryLog(advert: AdvertRef, logs: readonly AdvertTrackingLog[]): string {
	if (logs.length === 0) {
		return `Advert ${advert.advertId}: no deliveries yet.\n`;
	}
	const lines = [`Delivery log of advert ${advert.advertId}`, ''];
	for (const log of logs) {
		lines.push(
			`${log.DeliveryDate ?? '(no date)'}  ${log.FeedName ?? `feed ${log.FeedID}`}  posting ${log.PostingID ?? '?'}  ${log.ErrorLevel ?? ''}`.trimEnd(),
		);
		if (log.Response) {
			lines.push(...log.Response.split(/\r?\n/).map((l) => `    ${l}`));
		}
	}
	return `${lines.join('\n')}\n`;
}

export async function showDeliveryLog(services: WorkbenchServices, ui: UiPort, advert: AdvertRef): Promise<void> {
	const logs = await runWithProgress(ui, services.log, 'Reading the delivery log', true, async (signal) =>
		(await services.activeClient()).advertTrackingResponseLog({ sAdvertID: String(advert.advertId) }, { signal }),
	);
	if (logs !== undefined) {
		await ui.showDocument(formatDeliveryLog(advert, logs), 'plaintext');
	}
}

/** Escapes text for a Markdown table cell. */
export function markdownCell(text: string | number | undefined): string {
	return escapeMarkdown(String(text ?? '')).replace(/\r?\n/g, ' ');
}

/** Feeds and quota as a Markdown table. */
export function formatFeeds(username: string | undefined, feeds: readonly CPostFeed[]): string {
	const lines = [`# Feeds and quota${username ? ` of ${markdownCell(username)}` : ''}`, ''];
	if (feeds.length === 0) {
		return `${lines.join('\n')}No feeds are configured.\n`;
	}
	lines.push('| Feed | Identifier | Quota | Used | Cost | Description length |', '|---|---|---|---|---|---|');
	for (const f of feeds) {
		const cost = f.FeedCost !== undefined ? `${f.FeedCost} ${f.CurrencyID ?? ''} per ${f.FeedCostType ?? '?'}` : '';
		const length = `${f.JobDescriptionMinimumLength ?? 0}–${f.JobDescriptionMaximumLength ?? '∞'}`;
		lines.push(
			`| ${[f.FeedName, f.FeedIdentifier, f.EffectiveQuota, f.PostingsUsed, cost, length].map(markdownCell).join(' | ')} |`,
		);
	}
	return `${lines.join('\n')}\n`;
}

export async function showFeeds(services: WorkbenchServices, ui: UiPort): Promise<void> {
	const feeds = await runWithProgress(ui, services.log, 'Reading feeds and quota', true, async (signal) =>
		(await services.activeClient()).userFeedsAndQuotaWithDestinations({}, { signal }),
	);
	if (feeds !== undefined) {
		await ui.showDocument(formatFeeds(services.activeConnection().username, feeds), 'markdown');
	}
}
