/**
 * Comparison of one operation's outcome over several bindings: a normalised form of decoded
 * results, a deep structural diff listing the paths that differ, and a line diff of bodies. Pure.
 */

/** A JSON-safe value: what normaliseResult produces. */
export type Normalised = null | boolean | number | string | Normalised[] | { [key: string]: Normalised };

/**
 * A canonical, JSON-safe copy of a decoded result: object keys sorted, undefined fields dropped,
 * bytes as `base64:<data>`, Dates as ISO strings. Two results equal by meaning normalise equally.
 */
export function normaliseResult(value: unknown): Normalised | undefined {
	if (value === undefined) return undefined;
	if (value === null) return null;
	if (typeof value === 'string' || typeof value === 'boolean') return value;
	if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
	if (typeof value === 'bigint') return value.toString();
	if (value instanceof Uint8Array) return `base64:${bytesToBase64(value)}`;
	if (value instanceof Date) return value.toISOString();
	if (Array.isArray(value)) return value.map((item) => normaliseResult(item) ?? null);
	if (typeof value === 'object') {
		const result: { [key: string]: Normalised } = {};
		for (const key of Object.keys(value).sort()) {
			const item = normaliseResult((value as Record<string, unknown>)[key]);
			if (item !== undefined) result[key] = item;
		}
		return result;
	}
	return String(value);
}

/** One path at which two values differ. */
export interface Difference {
	/** e.g. `[3].Score` or `Adverts[0].AdvertID`; '' for the root. */
	path: string;
	/** The left value as short text, or 'absent'. */
	left: string;
	right: string;
}

/** Formats a difference as `[3].Score: 4 vs absent`. */
export function formatDifference(difference: Difference): string {
	return `${difference.path || '(root)'}: ${difference.left} vs ${difference.right}`;
}

/** The paths at which two normalised values differ, depth first, at most `limit` of them. */
export function diffValues(left: Normalised | undefined, right: Normalised | undefined, limit = 500): Difference[] {
	const differences: Difference[] = [];
	// An explicit stack keeps deep documents from overflowing the call stack.
	const stack: { path: string; left: Normalised | undefined; right: Normalised | undefined }[] = [
		{ path: '', left, right },
	];
	while (stack.length > 0 && differences.length < limit) {
		const item = stack.pop() as (typeof stack)[number];
		const a = item.left;
		const b = item.right;
		if (Array.isArray(a) && Array.isArray(b)) {
			const pending: typeof stack = [];
			for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
				pending.push({ path: `${item.path}[${i}]`, left: a[i], right: b[i] });
			}
			stack.push(...pending.reverse());
		} else if (isObject(a) && isObject(b)) {
			const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
			const pending = keys.map((key) => ({
				path: item.path ? `${item.path}.${key}` : key,
				left: a[key],
				right: b[key],
			}));
			stack.push(...pending.reverse());
		} else if (!sameScalar(a, b)) {
			differences.push({ path: item.path, left: describe(a), right: describe(b) });
		}
	}
	return differences;
}

function isObject(value: Normalised | undefined): value is { [key: string]: Normalised } {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameScalar(a: Normalised | undefined, b: Normalised | undefined): boolean {
	if (typeof a === 'object' && a !== null) return false;
	if (typeof b === 'object' && b !== null) return false;
	return a === b;
}

function describe(value: Normalised | undefined): string {
	if (value === undefined) return 'absent';
	if (Array.isArray(value)) return `list of ${value.length}`;
	if (isObject(value)) {
		return `record {${Object.keys(value).slice(0, 4).join(', ')}${Object.keys(value).length > 4 ? ', …' : ''}}`;
	}
	const text = JSON.stringify(value);
	return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** What one binding produced, for compareOutcomes. */
export type BindingOutcome =
	| { kind: 'result'; result: unknown }
	| { kind: 'fault'; code: string; subcode?: string; message: string }
	| { kind: 'error'; message: string };

/** The comparison of every outcome with the first one (the baseline). */
export interface OutcomeComparison<K extends string> {
	baseline: K;
	/** Per other key: the differences from the baseline (empty when equal). */
	differences: { key: K; equal: boolean; differences: Difference[] }[];
}

/**
 * Compares outcomes by normalised value: results by their data, faults by code, subcode and
 * message, errors by message. Keys keep their order; the first is the baseline.
 */
export function compareOutcomes<K extends string>(
	outcomes: readonly (readonly [K, BindingOutcome])[],
): OutcomeComparison<K> {
	if (outcomes.length === 0) throw new Error('compareOutcomes needs at least one outcome.');
	const [baselineKey, baselineOutcome] = outcomes[0];
	const base = outcomeValue(baselineOutcome);
	return {
		baseline: baselineKey,
		differences: outcomes.slice(1).map(([key, outcome]) => {
			const differences = diffValues(base, outcomeValue(outcome));
			return { key, equal: differences.length === 0, differences };
		}),
	};
}

function outcomeValue(outcome: BindingOutcome): Normalised | undefined {
	switch (outcome.kind) {
		case 'result':
			return normaliseResult(outcome.result);
		case 'fault':
			return normaliseResult({
				fault: { code: outcome.code, subcode: outcome.subcode, message: outcome.message },
			});
		case 'error':
			return { error: outcome.message };
	}
}

/** One line of a line diff. */
export interface DiffLine {
	kind: 'same' | 'removed' | 'added';
	text: string;
}

/** Largest table the LCS may use; beyond it the changed middle is shown as removed then added. */
const MAX_LCS_CELLS = 4_000_000;

/**
 * A line diff (longest common subsequence) of two texts; common prefix and suffix are matched first
 * so typical bodies stay cheap. Line endings are normalised to \n.
 */
export function diffLines(left: string, right: string): DiffLine[] {
	const a = left.replace(/\r\n/g, '\n').split('\n');
	const b = right.replace(/\r\n/g, '\n').split('\n');
	let start = 0;
	while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
	let endA = a.length;
	let endB = b.length;
	while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
		endA -= 1;
		endB -= 1;
	}
	const result: DiffLine[] = a.slice(0, start).map((text) => ({ kind: 'same', text }));
	const midA = a.slice(start, endA);
	const midB = b.slice(start, endB);
	if (midA.length * midB.length > MAX_LCS_CELLS) {
		result.push(
			...midA.map((text): DiffLine => ({ kind: 'removed', text })),
			...midB.map((text): DiffLine => ({ kind: 'added', text })),
		);
	} else {
		result.push(...lcsDiff(midA, midB));
	}
	result.push(...a.slice(endA).map((text): DiffLine => ({ kind: 'same', text })));
	return result;
}

function lcsDiff(a: string[], b: string[]): DiffLine[] {
	const n = a.length;
	const m = b.length;
	const width = m + 1;
	// lengths[i * width + j] = LCS length of a[i..] and b[j..]
	const lengths = new Uint32Array((n + 1) * width);
	for (let i = n - 1; i >= 0; i -= 1) {
		for (let j = m - 1; j >= 0; j -= 1) {
			lengths[i * width + j] =
				a[i] === b[j]
					? lengths[(i + 1) * width + j + 1] + 1
					: Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
		}
	}
	const out: DiffLine[] = [];
	let i = 0;
	let j = 0;
	while (i < n && j < m) {
		if (a[i] === b[j]) {
			out.push({ kind: 'same', text: a[i] });
			i += 1;
			j += 1;
		} else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
			out.push({ kind: 'removed', text: a[i] });
			i += 1;
		} else {
			out.push({ kind: 'added', text: b[j] });
			j += 1;
		}
	}
	for (; i < n; i += 1) out.push({ kind: 'removed', text: a[i] });
	for (; j < m; j += 1) out.push({ kind: 'added', text: b[j] });
	return out;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 without Buffer, so the module also runs in the webview. */
export function bytesToBase64(bytes: Uint8Array): string {
	let out = '';
	for (let i = 0; i < bytes.length; i += 3) {
		const a = bytes[i];
		const b = i + 1 < bytes.length ? bytes[i + 1] : 0;
		const c = i + 2 < bytes.length ? bytes[i + 2] : 0;
		const triple = (a << 16) | (b << 8) | c;
		out += BASE64[(triple >> 18) & 63] + BASE64[(triple >> 12) & 63];
		out += i + 1 < bytes.length ? BASE64[(triple >> 6) & 63] : '=';
		out += i + 2 < bytes.length ? BASE64[triple & 63] : '=';
	}
	return out;
}

/** Field names of what each service numbers its own way (AdvertID, UserID, FeedID, …) and of links to it. */
const IDENTIFIER_FIELD = /(ID|Id|Url|URL)$/;
/** Codes of value sets both services share (AdvertStatusID, CultureID, CurrencyID, …): compared. */
const CODE_FIELD = /(Status|Type|Role|Progress|Culture|Currency)ID$/;
/** Field names of dates, also those given as text in the culture's format (sLastPostDate "27/11/2026 12:41:52"). */
const DATE_FIELD = /Date$/;
/** A date and time as the codecs give them (ISO 8601). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** True when a field's value is an identifier or link two services must not be expected to share. */
export function isVaryingField(field: string): boolean {
	return IDENTIFIER_FIELD.test(field) && !CODE_FIELD.test(field);
}

/** True when a value is a date or time, by its field's name or its ISO 8601 form. */
function isDate(field: string, value: Normalised): boolean {
	return typeof value === 'string' && (DATE_FIELD.test(field) || DATE_TIME.test(value));
}

/**
 * A normalised value with what must differ between two services replaced by placeholders:
 * identifiers and links (by field name) become `<id>`, dates and times (by field name or
 * form) `<date>`. What is left is
 * what two services must agree on (shapes, counts, texts, flags, status and other codes, faults).
 * The namespace is not in a decoded value at all.
 */
export function withoutVaryingValues(value: Normalised | undefined, field = ''): Normalised | undefined {
	if (value === undefined || value === null) return value;
	if (Array.isArray(value)) return value.map((item) => withoutVaryingValues(item, field) ?? null);
	if (typeof value === 'object') {
		const result: { [key: string]: Normalised } = {};
		for (const [key, item] of Object.entries(value)) {
			const masked = withoutVaryingValues(item, key);
			if (masked !== undefined) result[key] = masked;
		}
		return result;
	}
	if (isVaryingField(field)) return '<id>';
	if (isDate(field, value)) return '<date>';
	return value;
}

/** A leaf line of a payload (payloadOf writes one element per line): indent, name, attributes, text. */
const LEAF_LINE = /^(\s*)<([A-Za-z_][\w.-]*)([^>]*)>([^<]*)<\/\2>$/;

/**
 * A payload's text (one element per line, as the playground writes it) with the same values masked
 * as withoutVaryingValues masks, written `[id]` and `[date]`, and the service's namespace as
 * `[namespace]`: what is left differs only where the two services disagree.
 */
export function payloadWithoutVaryingValues(payload: string, namespace: string): string {
	return payload
		.split('\n')
		.map((line) => {
			const leaf = LEAF_LINE.exec(line);
			if (leaf) {
				const [, indent, name, attributes, text] = leaf;
				const masked = isVaryingField(name) ? '[id]' : isDate(name, text.trim()) ? '[date]' : text;
				line = `${indent}<${name}${attributes}>${masked}</${name}>`;
			}
			return namespace.length > 0 ? line.split(namespace).join('[namespace]') : line;
		})
		.join('\n');
}
