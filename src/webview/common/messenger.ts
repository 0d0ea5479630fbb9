/**
 * The page end of a webview's messaging. The VS Code API object (acquireVsCodeApi(), typed by
 * @types/vscode-webview) is passed in by the page's main.ts and never stored on window, so nothing
 * rendered in the page can reach it; tests pass a fake. Every message posted gets a fresh request
 * id, which the host's replies carry back.
 */
import type { WebviewApi } from 'vscode-webview';
import {
	hasType,
	INITIAL_MESSAGES_ID,
	requestIdOf,
	type RequestId,
	type WithRequestId,
} from '../../shared/webviewProtocol';

/** Typed messaging and state of one page. */
export interface Messenger<In, Out, State> {
	/** Posts a message and returns its request id. */
	post(message: Out): RequestId;
	state(): State | undefined;
	saveState(state: State): void;
	/** Calls `handler` with every message of the host that `isInbound` accepts. */
	onMessage(handler: (message: WithRequestId<In>) => void): void;
}

/** Where host messages arrive (the page's window). */
export interface MessageSource {
	addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

/** Creates the page's messenger; call once per page. `isInbound` drops anything that is not ours. */
export function createMessenger<In extends { type: string }, Out, State>(
	api: WebviewApi<State>,
	source: MessageSource,
	isInbound: (value: unknown) => value is In = (value): value is In => hasType(value),
): Messenger<In, Out, State> {
	let lastId = 0;
	return {
		post: (message) => {
			lastId += 1;
			api.postMessage({ ...message, requestId: lastId });
			return lastId;
		},
		state: () => api.getState() ?? undefined,
		saveState: (state) => api.setState(state),
		onMessage: (handler) => {
			// Document frames cannot post here (their empty sandbox runs no script); the shape is still checked.
			source.addEventListener('message', (event) => {
				const data = event.data;
				if (!isInbound(data)) return;
				const requestId = requestIdOf(data);
				handler(requestId === undefined ? data : { ...data, requestId });
			});
		},
	};
}

/**
 * The first messages the host wrote into the page's HTML (a JSON data block, see
 * src/extension/webviews/shell.ts), those `isInbound` accepts. A page handles them on its first load
 * only: re-created after being hidden, it has its saved state, which may be newer.
 */
export function embeddedMessages<In extends { type: string }>(
	doc: Document,
	isInbound: (value: unknown) => value is In = (value): value is In => hasType(value),
): In[] {
	const text = doc.getElementById(INITIAL_MESSAGES_ID)?.textContent;
	if (!text) return [];
	try {
		const value: unknown = JSON.parse(text);
		return Array.isArray(value) ? value.filter(isInbound) : [];
	} catch {
		return [];
	}
}
