/** Advert panel webview: renders what the host sends, asks the host for every action. */
import type { AdvertToHostMessage, AdvertView, HostToAdvertMessage } from '../../shared/panelMessages';
import { clear, notice } from '../common/dom';
import { createMessenger } from '../common/messenger';
import { renderAdvert } from './render';

interface State {
	view?: AdvertView;
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
	let state: State = messenger.state() ?? {};

	const draw = () => {
		clear(root);
		root.appendChild(status);
		if (state.view) root.appendChild(renderAdvert(document, state.view, (m) => messenger.post(m)));
	};

	messenger.onMessage((message) => {
		switch (message.type) {
			case 'advert':
				state = { view: message.view };
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
	});
	draw();
	messenger.post({ type: 'ready' });
})();
