/**
 * Which requests of a file change the account's data (the catalogue's `changesData` operations): a
 * comparison sends them to its second connection, possibly a live account, only when asked. A raw
 * request counts when its path, headers or body name such an operation anywhere: sent as written, it
 * is not decoded, so it is judged by what it could do.
 */
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../catalogue';
import type { RequestEntry } from './format';

/** The operations that change the account's data, in catalogue order. */
export const DATA_CHANGING_OPERATIONS: readonly OperationName[] = OPERATION_NAMES.filter(
	(name) => OPERATIONS[name].changesData,
);
// Longest first: AddAdvertCandidateNote before AddAdvert.
const NAMED = new RegExp(`(${[...DATA_CHANGING_OPERATIONS].sort((a, b) => b.length - a.length).join('|')})`, 'i');

/**
 * The data-changing operation a call sends, or undefined for a read: `operation` is the one it declares
 * (if any), `rawTexts` the path, header values and body of a raw request.
 */
export function dataChangingCall(
	operation: string | undefined,
	rawTexts: readonly string[],
): OperationName | undefined {
	const declared = DATA_CHANGING_OPERATIONS.find((name) => name === operation);
	if (declared) return declared;
	const named = NAMED.exec(rawTexts.join('\n'));
	return named ? DATA_CHANGING_OPERATIONS.find((name) => name.toLowerCase() === named[1].toLowerCase()) : undefined;
}

/** The data-changing operation a request of a file sends, or undefined for a read. */
export function dataChangingOperation(entry: RequestEntry): OperationName | undefined {
	const raw = entry.document?.raw ?? entry.http;
	return dataChangingCall(
		entry.document?.operation,
		raw ? [raw.target, ...raw.headers.map(([, value]) => value), raw.body] : [],
	);
}
