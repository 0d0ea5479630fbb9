/** Storage failures with a message for the person running the sandbox (no imports: the worker host bundles it). */

/** Why the storage refused or failed, for callers that react differently (the message says it all to a person). */
export type StorageProblem = 'disk-full' | 'damaged' | 'newer-version' | 'in-use' | 'engine';

/** A storage failure with a message written for the person running the sandbox. */
export class StorageError extends Error {
	constructor(
		readonly problem: StorageProblem,
		message: string,
		options?: { cause?: unknown },
	) {
		super(message, options);
		this.name = 'StorageError';
	}
}
