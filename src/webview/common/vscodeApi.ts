/**
 * The webview's only access to VS Code. acquireVsCodeApi() is called once, inside this closure; the
 * API object is never stored on window, so nothing rendered in the page can reach it.
 */

interface WebviewApi {
	postMessage(message: unknown): void;
	getState(): unknown;
	setState(state: unknown): void;
}

declare function acquireVsCodeApi(): WebviewApi;

/** Typed messaging and state of one panel. */
export interface Messenger<In, Out, State> {
	post(message: Out): void;
	state(): State | undefined;
	saveState(state: State): void;
	onMessage(handler: (message: In) => void): void;
}

/** Creates the panel's messenger; call once per page. `isInbound` drops anything that is not ours. */
export function createMessenger<In, Out, State>(isInbound: (value: unknown) => value is In): Messenger<In, Out, State> {
	const api = acquireVsCodeApi();
	return {
		post: (message) => api.postMessage(message),
		state: () => (api.getState() ?? undefined) as State | undefined,
		saveState: (state) => api.setState(state),
		onMessage: (handler) => {
			// Document frames cannot post here (their empty sandbox runs no script); the shape is still checked.
			window.addEventListener('message', (event: MessageEvent<unknown>) => {
				if (isInbound(event.data)) handler(event.data);
			});
		},
	};
}

/** True for an object with a string `type`: the shape of every host message. */
export function hasType(value: unknown): value is { type: string } {
	return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
