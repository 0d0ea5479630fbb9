/** A playground page on jsdom with a fake messenger, for the webview tests. */
import { JSDOM } from 'jsdom';
import type { HostToWebview, ResponseView, WebviewToHost } from '../../../src/shared/playgroundMessages';
import type { WithRequestId } from '../../../src/shared/webviewProtocol';
import { PlaygroundApp, type PlaygroundMessenger, type SavedState } from '../../../src/webview/playground/app';

export interface Page {
	dom: JSDOM;
	doc: Document;
	app: PlaygroundApp;
	posted: WithRequestId<WebviewToHost>[];
	state(): SavedState | undefined;
	/** Delivers a host message as the messenger would. */
	receive(message: WithRequestId<HostToWebview>): void;
	/** Waits for debounced posts. */
	settle(): Promise<void>;
	$<T extends Element = HTMLElement>(selector: string): T;
	/** Sets an input's value and fires the event the page listens to. */
	type(selector: string, value: string): void;
	choose(selector: string): void;
}

export function openPage(saved?: SavedState): Page {
	const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>');
	const doc = dom.window.document;
	const posted: WithRequestId<WebviewToHost>[] = [];
	let state = saved;
	let handler: ((message: WithRequestId<HostToWebview>) => void) | undefined;
	let lastId = 0;
	const messenger: PlaygroundMessenger = {
		post: (message) => {
			lastId += 1;
			posted.push({ ...message, requestId: lastId });
			return lastId;
		},
		state: () => state,
		saveState: (next) => {
			state = JSON.parse(JSON.stringify(next)) as SavedState;
		},
		onMessage: (h) => {
			handler = h;
		},
	};
	const app = new PlaygroundApp({
		doc,
		root: doc.getElementById('root') as HTMLElement,
		messenger,
		debounceMs: { preview: 0, search: 0 },
	});
	app.start();
	const $ = <T extends Element = HTMLElement>(selector: string): T => {
		const found = doc.querySelector<T>(selector);
		if (!found) throw new Error(`no element ${selector}`);
		return found;
	};
	return {
		dom,
		doc,
		app,
		posted,
		state: () => state,
		receive: (message) => handler?.(message),
		settle: () => new Promise((resolve) => setTimeout(resolve, 5)),
		$,
		type: (selector, value) => {
			const input = $<HTMLInputElement>(selector);
			input.value = value;
			input.dispatchEvent(new dom.window.Event(input.localName === 'select' ? 'change' : 'input'));
		},
		choose: (selector) => {
			const input = $<HTMLInputElement>(selector);
			input.checked = true;
			input.dispatchEvent(new dom.window.Event('change'));
		},
	};
}

export const CONNECTION = {
	label: 'Sandbox',
	baseUrl: 'http://127.0.0.1:8099',
	postingPath: '/SOAP/Posting.asmx',
	administrationPath: '/SOAP/Administration.asmx',
	username: 'demo.admin',
	culture: 'en-GB',
};

export function response(overrides: Partial<ResponseView> = {}): ResponseView {
	return {
		request: {
			method: 'POST',
			url: 'http://127.0.0.1:8099/SOAP/Posting.asmx',
			headers: [['Content-Type', 'text/xml; charset=utf-8']],
			body: '<soap:Envelope><sAPIKey>***</sAPIKey></soap:Envelope>',
		},
		status: 200,
		headers: [['content-type', 'text/xml; charset=utf-8']],
		timings: { startedAt: Date.UTC(2026, 0, 2, 3, 4, 5), headersMs: 3, totalMs: 7.4 },
		size: 120,
		bodyText: '<r/>',
		pretty: '<r/>',
		result: [
			{ CurrencyID: 1, Code: 'GBP' },
			{ CurrencyID: 2, Code: 'EUR' },
		],
		...overrides,
	};
}
