/**
 * What every webview and its host agree on, whatever the panel: the `ready` handshake, request ids
 * (the webview numbers each message; the host's replies carry the number of the message they
 * answer) and the small guards the hosts use to validate inbound messages. Types and pure
 * functions only: both sides and plain-Node tests import this file.
 */

/** The id the webview gives a message; replies to it carry the same id. */
export type RequestId = number;

/** A message with the id of the request it was sent as, or answers. */
export type WithRequestId<T> = T & { requestId?: RequestId };

/**
 * The id of the JSON data block in which the host writes a page's first messages into its HTML
 * (src/extension/webviews/shell.ts); the page handles them on its first load only.
 */
export const INITIAL_MESSAGES_ID = 'mp-initial';

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
	return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/** True for an object with a string `type`: the shape of every message in both directions. */
export function hasType(value: unknown): value is { type: string } {
	return isRecord(value) && typeof value.type === 'string';
}

/** The request id of an inbound message: a safe non-negative integer, else undefined. */
export function requestIdOf(value: unknown): RequestId | undefined {
	if (!isRecord(value)) return undefined;
	const id = value.requestId;
	return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}

/** A short description of a rejected message for the log: its type only, never its content. */
export function describeMessage(value: unknown): string {
	if (!isRecord(value)) return typeof value;
	return typeof value.type === 'string' ? `type ${JSON.stringify(value.type.slice(0, 40))}` : 'object without type';
}
