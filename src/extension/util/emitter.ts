/**
 * A minimal event emitter shaped like vscode.EventEmitter, so the logic modules need no runtime
 * import of 'vscode' and load in plain Node for unit tests.
 */

/** Shaped like vscode.Disposable. */
export interface Disposable {
	dispose(): void;
}

/** Shaped like vscode.Event<T>. */
export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class Emitter<T> implements Disposable {
	private readonly listeners = new Set<(e: T) => unknown>();

	readonly event: Event<T> = (listener, thisArgs, disposables) => {
		const bound = thisArgs === undefined ? listener : listener.bind(thisArgs);
		this.listeners.add(bound);
		const disposable = { dispose: () => this.listeners.delete(bound) };
		disposables?.push(disposable);
		return disposable;
	};

	fire(value: T): void {
		for (const listener of [...this.listeners]) {
			try {
				listener(value);
			} catch {
				// One faulty listener must not starve the others.
			}
		}
	}

	dispose(): void {
		this.listeners.clear();
	}
}
