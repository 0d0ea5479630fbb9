/**
 * The words the extension shows for scores, rankings and delivery states: one vocabulary for the
 * tree, the panels, the pickers and the filter (never the service's enum names such as MaybeSuitable).
 */
import { DELIVERY_STATUS, RANKING, SCORE_LETTERS, type RankingName, type ScoreLetter } from '../protocol/catalogue';

/** The word of each ranking. */
export const RANKING_WORDS: Readonly<Record<RankingName, string>> = {
	Unranked: 'Unranked',
	Unsuitable: 'Unsuitable',
	MaybeSuitable: 'Maybe',
	Suitable: 'Suitable',
};

/** What each score letter does, in the same words. */
export const SCORE_WORDS: Readonly<Record<ScoreLetter, string>> = {
	S: 'Suitable',
	M: 'Maybe',
	U: 'Unsuitable',
	F: 'Favourite',
	N: 'None',
};

/** The longer explanation of each score letter, for pickers. */
export const SCORE_DETAILS: Readonly<Record<ScoreLetter, string>> = {
	S: 'Green flag',
	M: 'Yellow flag',
	U: 'Red flag',
	F: 'Star; keeps the ranking',
	N: 'Clears the ranking and the star',
};

/** The ranking of a Score value or a Ranking text (flags 4, 2, 1; anything else unranked). */
export function rankingOf(score: number | undefined, ranking?: string): RankingName {
	const value =
		score ?? (ranking !== undefined && ranking in RANKING ? RANKING[ranking as RankingName] : Number(ranking ?? 0));
	if ((value & SCORE_LETTERS.S) !== 0) return 'Suitable';
	if ((value & SCORE_LETTERS.M) !== 0) return 'MaybeSuitable';
	if ((value & SCORE_LETTERS.U) !== 0) return 'Unsuitable';
	return 'Unranked';
}

/** The word of a ranking name or number as the filter stores it ("MaybeSuitable" or "2"). */
export function rankingWord(nameOrCode: string): string {
	if (nameOrCode in RANKING_WORDS) return RANKING_WORDS[nameOrCode as RankingName];
	const entry = Object.entries(RANKING).find(([, code]) => String(code) === nameOrCode);
	return entry ? RANKING_WORDS[entry[0] as RankingName] : nameOrCode;
}

/** The score letter that describes an application's current flags, for marking the picker. */
export function currentScoreLetter(score: number | undefined, favourite: boolean | undefined): ScoreLetter | undefined {
	if (score === undefined && favourite === undefined) return undefined;
	switch (rankingOf(score)) {
		case 'Suitable':
			return 'S';
		case 'MaybeSuitable':
			return 'M';
		case 'Unsuitable':
			return 'U';
		default:
			return favourite || ((score ?? 0) & SCORE_LETTERS.F) !== 0 ? 'F' : 'N';
	}
}

/** Words of LastDeliveryStatusID. */
export const DELIVERY_WORDS: Readonly<Record<number, string>> = {
	[DELIVERY_STATUS.NotDelivered]: 'Not delivered',
	[DELIVERY_STATUS.Pending]: 'Pending',
	[DELIVERY_STATUS.Delivered]: 'Delivered',
	[DELIVERY_STATUS.Failed]: 'Failed',
	[DELIVERY_STATUS.Expired]: 'Expired',
};

/**
 * What happened to a delivery, by the ErrorLevel of its log entry: the service writes "None" for a
 * delivery without error, "Pending" for one queued and not yet made.
 */
const DELIVERY_OUTCOMES: Readonly<Record<string, string>> = {
	None: 'Delivered',
	Pending: 'Queued, not delivered yet',
	Warning: 'Delivered with a warning',
	Error: 'Failed',
};

/** The words of a log entry's ErrorLevel; an unknown level is shown as the service wrote it. */
export function deliveryOutcome(errorLevel: string | undefined): string {
	if (errorLevel === undefined || errorLevel === '') return 'Unknown';
	return DELIVERY_OUTCOMES[errorLevel] ?? errorLevel;
}

/** Joins sentence parts and ends with one full stop, whatever the last part ends with. */
export function sentence(...parts: (string | undefined)[]): string {
	const text = parts
		.filter((p): p is string => !!p && p.trim() !== '')
		.join(' ')
		.trim();
	return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** Text without its final full stop, for use inside another sentence or parentheses. */
export function clause(text: string): string {
	return text.trim().replace(/\.+$/, '');
}
