/** Advert panel webview: renders what the host sends, asks the host for every action. */
import createDOMPurify from 'dompurify';
import type { AdvertToHostMessage, AdvertView, HostToAdvertMessage } from '../../shared/panelMessages';
import { clear, notice } from '../common/dom';
import { readTheme } from '../common/theme';
import { createMessenger, embeddedMessages } from '../common/messenger';
import { renderPreviewBar } from '../common/previewBar';
import { renderAdvert } from './render';

interface State {
	view?: AdvertView;
	preview?: boolean;
}

(() => {
	const messenger = createMessenger<HostToAdvertMessage, AdvertToHostMessage, State>(
		acquireVsCodeApi<State>(),
		window,
	);
	const root = document.getElementById('root') as HTMLElement;
	const status = document.createElement('div');
	status.className = 'mp-status';
	status.setAttribute('role', 'status');
	status.setAttribute('aria-live', 'polite');
	const purify = createDOMPurify(window);
	const saved = messenger.state();
	let state: State = saved ?? {};

	const draw = () => {
		clear(root);
		if (state.preview) root.appendChild(renderPreviewBar(document, () => messenger.post({ type: 'keepOpen' })));
		root.appendChild(status);
		if (state.view) {
			root.appendChild(
				renderAdvert(document, state.view, (m) => messenger.post(m), {
					purify,
					theme: () => readTheme(window),
				}),
			);
		}
	};

	const handle = (message: HostToAdvertMessage): void => {
		switch (message.type) {
			case 'advert':
				state = { ...state, view: message.view };
				messenger.saveState(state);
				draw();
				// When this advert first showed (its header, from the row), and when all of it did (read by
				// the e2e timing and the bench).
				performance.mark(`multiposting:advert:${message.view.advertId}`);
				if (!message.view.loading) performance.mark(`multiposting:advert-complete:${message.view.advertId}`);
				break;
			case 'mode':
				state = { ...state, preview: message.preview };
				messenger.saveState(state);
				draw();
				break;
			case 'busy':
				status.textContent = message.busy ? (message.label ?? 'Working…') : '';
				break;
			case 'error':
				root.insertBefore(notice(document, message.message, 'error'), status.nextSibling);
				break;
		}
	};
	messenger.onMessage(handle);
	// A new panel draws the row's fields its HTML carries at once; the host's answer to 'ready' completes them.
	if (!saved) for (const message of embeddedMessages<HostToAdvertMessage>(document)) handle(message);
	performance.mark('multiposting:ready');
	messenger.post({ type: 'ready' });
	draw();
})();
