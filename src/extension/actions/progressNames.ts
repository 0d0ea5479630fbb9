/** Progress names: the setting multiposting.progressNames (id -> name) or the default set. */
import { DEFAULT_PROGRESS } from '../../protocol/catalogue';

export interface ProgressChoice {
	id: number;
	name: string;
}

/** The progress choices of the account: the setting when it names any, else DEFAULT_PROGRESS. */
export function progressChoices(setting: unknown): ProgressChoice[] {
	if (typeof setting === 'object' && setting !== null) {
		const choices = Object.entries(setting as Record<string, unknown>)
			.filter(([id, name]) => /^\d+$/.test(id) && typeof name === 'string' && name.trim() !== '')
			.map(([id, name]) => ({ id: Number(id), name: (name as string).trim() }))
			.sort((a, b) => a.id - b.id);
		if (choices.length > 0) {
			return choices;
		}
	}
	return DEFAULT_PROGRESS.map((p) => ({ id: p.id, name: p.name }));
}

/** The name of a ProgressID, falling back to the text the service sent. */
export function progressName(
	choices: readonly ProgressChoice[],
	id: number | undefined,
	serviceText?: string,
): string | undefined {
	if (id === undefined || id === 0) {
		return serviceText || undefined;
	}
	return choices.find((c) => c.id === id)?.name ?? (serviceText || `Progress ${id}`);
}
