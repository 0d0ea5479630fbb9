/** The Create Advert form's webview: renders the form the host describes and sends the answers. */
import type { AdvertFormToHostMessage, AdvertFormValues, HostToAdvertFormMessage } from '../../shared/advertForm';
import { clear, el, notice } from '../common/dom';
import { createMessenger } from '../common/messenger';
import { renderAdvertForm, renderCreated, type AdvertFormView } from './render';

interface State {
	values: AdvertFormValues;
}

(() => {
	const messenger = createMessenger<HostToAdvertFormMessage, AdvertFormToHostMessage, State>(
		acquireVsCodeApi<State>(),
		window,
	);
	const root = document.getElementById('root') as HTMLElement;
	const status = el(document, 'div', { className: 'mp-status', attrs: { role: 'status', 'aria-live': 'polite' } });
	const body = el(document, 'div');
	root.append(status, body);
	let form: AdvertFormView | undefined;
	let saved = messenger.state();
	let draftTimer: ReturnType<typeof setTimeout> | undefined;

	messenger.onMessage((message) => {
		switch (message.type) {
			case 'init': {
				clear(body);
				// Answers typed before the webview was re-created win over the host's copy.
				const values = Object.keys(saved?.values ?? {}).length > 0 ? saved!.values : message.values;
				saved = undefined;
				body.appendChild(el(document, 'h1', { text: 'Create Advert' }));
				form = renderAdvertForm(
					document,
					message.fields,
					message.feeds,
					values,
					{
						onChange: (changed) => {
							messenger.saveState({ values: changed });
							if (draftTimer) clearTimeout(draftTimer);
							draftTimer = setTimeout(() => messenger.post({ type: 'draft', values: changed }), 300);
						},
						onSubmit: (submitted) => {
							messenger.saveState({ values: submitted });
							messenger.post({ type: 'submit', values: submitted });
						},
					},
					{ feedsProblem: message.feedsProblem },
				);
				body.appendChild(form.element);
				break;
			}
			case 'busy':
				status.textContent = message.busy ? (message.label ?? 'Working…') : '';
				form?.setBusy(message.busy);
				break;
			case 'refused':
				if (form) form.showRefusal(message.message, message.field);
				else body.appendChild(notice(document, message.message, 'error'));
				break;
			case 'created':
				form = undefined;
				saved = undefined;
				messenger.saveState({ values: {} });
				clear(body);
				body.appendChild(renderCreated(document, message, (type) => messenger.post({ type })));
				break;
		}
	});
	messenger.post({ type: 'ready' });
})();
