/**
 * Keeps the shapes of short-lived classes that the codecs' hot paths use.
 *
 * V8 holds the shape of a class's instances (the hidden class its constructor's fields lead to) only
 * weakly. When every instance is garbage, which is the case between two decodes since a parser or a
 * reader lives for one document, a full collection frees that shape and discards all optimised code
 * that checks it: the next page is read by the interpreter again, several times slower, until the
 * functions are optimised anew. One instance kept alive keeps the shape, and the code, for good.
 */

const kept: object[] = [];

/** Keeps `instance` (a small, empty one: it lives as long as the process) and returns it. */
export function keepShape<T extends object>(instance: T): T {
	kept.push(instance);
	return instance;
}

/** What is kept, for the tests that check nothing of a decoded document stays with it. */
export function keptShapes(): readonly object[] {
	return kept;
}
