/** Problems found in request files, with their position, for errors, diagnostics and quick fixes. */

/** A replacement that fixes a problem: the text of columns [column, endColumn) of its line. */
export interface IssueFix {
	title: string;
	replacement: string;
}

/** A problem in a hand-written file, with its 1-based line. */
export interface RequestFileIssue {
	line: number;
	message: string;
	/** 'error' stops the request from being sent; 'warning' is shown only. Default 'error'. */
	severity?: 'error' | 'warning';
	/** 0-based columns of the text at fault on the line (default: the whole line). */
	column?: number;
	endColumn?: number;
	/** Replacements for the text at fault, best first. */
	fixes?: IssueFix[];
}

/** Thrown when a file cannot be used; `issues` holds every problem found, first problem first. */
export class RequestFileError extends Error {
	override readonly name = 'RequestFileError';
	constructor(readonly issues: RequestFileIssue[]) {
		super(issues.map((issue) => `line ${issue.line}: ${issue.message}`).join('\n'));
	}
}

/** Candidates close to a misspelt word (case-insensitive edit distance), closest first. */
export function closestNames(word: string, candidates: readonly string[], max = 3): string[] {
	const lower = word.toLowerCase();
	// A difference of case only is the one obvious fix.
	const sameLetters = candidates.filter((candidate) => candidate.toLowerCase() === lower);
	if (sameLetters.length > 0) return sameLetters.slice(0, max);
	const scored = candidates
		.map((candidate) => ({ candidate, distance: editDistance(lower, candidate.toLowerCase()) }))
		.filter(({ candidate, distance }) => distance <= Math.max(2, Math.floor(candidate.length / 3)))
		.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
	return scored.slice(0, max).map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
	if (a === b) return 0;
	let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
	for (let i = 1; i <= a.length; i += 1) {
		const current = [i];
		for (let j = 1; j <= b.length; j += 1) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			current.push(Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost));
		}
		previous = current;
	}
	return previous[b.length];
}
