/**
 * What the Create Advert form does on the host: read the job boards it offers, check the answers
 * once more and call AddAdvert, keeping the completion link. No VS Code import: unit-tested against
 * the real emulator.
 */
import { SoapFaultError } from '../../client';
import type { CPostFeed } from '../../protocol/catalogue';
import {
	fieldOfMessage,
	inFormWords,
	validateAdvertForm,
	type AdvertField,
	type AdvertFormValues,
	type FeedOption,
} from '../../shared/advertForm';
import { describeFailure } from '../logging/describe';
import type { WorkbenchServices } from '../services';
import { clause } from '../vocabulary';

/** The job boards as the form offers them. */
export function feedOptions(feeds: readonly CPostFeed[]): FeedOption[] {
	const number = (v: string | number | undefined) => (v === undefined || v === '' ? undefined : Number(v));
	return feeds
		.filter((f) => f.FeedID !== undefined && f.Restricted !== 1)
		.map((f) => ({
			feedId: f.FeedID!,
			name: f.FeedName || f.FeedIdentifier || `Job board ${f.FeedID}`,
			description: f.ShortDescription || undefined,
			forced: f.ForceSelected === 1,
			preselected: f.DefaultSelected === 1 || f.ForceSelected === 1,
			minLength: f.JobDescriptionMinimumLength ?? 0,
			maxLength: f.JobDescriptionMaximumLength || undefined,
			htmlSupport: f.HTMLSupport || undefined,
			quota: number(f.EffectiveQuota),
			used: number(f.PostingsUsed) ?? 0,
			cost: number(f.FeedCost),
			currency: f.CurrencyID || undefined,
			costType: f.FeedCostType || undefined,
		}));
}

/** The AddAdvert parameters of the answers: trimmed, empty ones left out (the service reads them as not given). */
export function addAdvertParams(values: AdvertFormValues): Record<string, string> {
	const params: Record<string, string> = {};
	for (const [name, value] of Object.entries(values)) {
		const text = name === 'sJobDescription' ? value.replace(/\s+$/, '') : value.trim();
		if (text !== '') params[name] = name === 'sSalaryCurrency' ? text.toUpperCase() : text;
	}
	return params;
}

/** Reads the user's boards; a failure leaves the form usable without them. */
export async function readFeedOptions(services: WorkbenchServices): Promise<{ feeds: FeedOption[]; problem?: string }> {
	try {
		const client = await services.activeClient();
		return { feeds: feedOptions(await client.userFeedsAndQuotaWithDestinations({})) };
	} catch (error) {
		const problem = describeFailure('Reading your job boards', error);
		services.log.warn(problem);
		return { feeds: [], problem };
	}
}

export interface CreatedAdvert {
	advertId?: number;
	title: string;
	redirectUrl?: string;
}

/**
 * Checks the answers and creates the advert. A refusal (ours or the service's) comes back with the
 * field it is about, so the form shows it there and keeps every answer.
 */
export async function submitAdvert(
	services: WorkbenchServices,
	values: AdvertFormValues,
	fields: readonly AdvertField[],
	feeds: readonly FeedOption[],
): Promise<{ created: CreatedAdvert } | { refused: string; field?: string }> {
	const problems = Object.entries(validateAdvertForm(values, fields, feeds));
	if (problems.length > 0) return { refused: problems[0][1], field: problems[0][0] };
	const params = addAdvertParams(values);
	try {
		const client = await services.activeClient();
		const result = await client.addAdvert(params);
		const created = {
			advertId: result.AdvertID,
			title: params.sJobTitle ?? 'Advert',
			redirectUrl: result.RedirectUrl,
		};
		if (result.AdvertID !== undefined && result.RedirectUrl) {
			services.adverts.rememberCompletionLink(result.AdvertID, result.RedirectUrl);
		}
		services.notifyDataChanged({ advertId: result.AdvertID });
		return { created };
	} catch (error) {
		const message =
			error instanceof SoapFaultError
				? `The service refused the advert: ${clause(error.fault.message)}.`
				: describeFailure('Creating the advert', error);
		// The log keeps the service's words (parameter names); the form shows its own, under its controls.
		services.log.warn(message);
		return { refused: inFormWords(message, fields), field: fieldOfMessage(message, fields) };
	}
}
