/**
 * Where the `{{name}}` variables of a file get their values: a request can only use a variable that
 * an earlier request captures (or that the caller gives, such as an environment's). A variable no
 * earlier request can capture is an error of the file (a typo would otherwise silently skip the
 * request). Pure; the editor's diagnostics and the runner share it.
 */
import type { ParsedEntry } from './format';
import { closestNames, type RequestFileIssue } from './issues';

/** A problem with a variable, and the index of the request where it is used. */
export interface VariableIssue {
	entry: number;
	issue: RequestFileIssue;
}

/**
 * Every use of a variable that no earlier request of the file captures and `given` does not hold:
 * never captured at all (a typo, with the closest names as fixes), captured by the same request
 * (captures are read after it is sent) or only by a later one.
 */
export function variableIssues(entries: readonly ParsedEntry[], given: Iterable<string> = []): VariableIssue[] {
	const known = new Set(given);
	const capturedAnywhere = new Set(entries.flatMap((entry) => entry.captures.map((capture) => capture.name)));
	const issues: VariableIssue[] = [];
	const capturedBefore = new Set<string>();
	entries.forEach((entry, index) => {
		for (const use of entry.location.variableUses) {
			if (known.has(use.name) || capturedBefore.has(use.name)) continue;
			const where = { line: use.line, column: use.column, endColumn: use.endColumn };
			if (!capturedAnywhere.has(use.name)) {
				const candidates = closestNames(use.name, [...capturedBefore, ...known]);
				const hint = candidates.length > 0 ? ` Did you mean {{${candidates[0]}}}?` : '';
				issues.push({
					entry: index,
					issue: {
						...where,
						message: `{{${use.name}}} is captured by no request of this file (add "capture: ${use.name} = …" to an earlier one).${hint}`,
						fixes: candidates.map((name) => ({
							title: `Change to {{${name}}}`,
							replacement: `{{${name}}}`,
						})),
					},
				});
				continue;
			}
			const laterCapture = entries.findIndex(
				(other, at) => at >= index && other.captures.some((capture) => capture.name === use.name),
			);
			const line =
				entries[laterCapture].location.captureLines[
					entries[laterCapture].captures.findIndex((capture) => capture.name === use.name)
				];
			issues.push({
				entry: index,
				issue: {
					...where,
					message:
						laterCapture === index
							? `{{${use.name}}} is captured by this same request (line ${line}), after it is sent: only later requests can use it.`
							: `{{${use.name}}} is captured only by a later request (line ${line}): move that request before this one.`,
				},
			});
		}
		for (const capture of entry.captures) capturedBefore.add(capture.name);
	});
	return issues;
}
