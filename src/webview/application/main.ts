/**
 * Application panel webview. Documents are asked for when their tab is first opened; what was shown
 * is kept with setState so a hidden and re-shown panel does not fetch again (PDFs excepted: too big).
 */
import createDOMPurify from 'dompurify';
import type {
	ApplicationTab,
	ApplicationToHostMessage,
	ApplicationView,
	DocumentTab,
	DocumentView,
	HostToApplicationMessage,
} from '../../shared/panelMessages';
import { renderDocumentView, updaterKey, type DocumentContext } from '../common/documentView';
import { clear, el, notice } from '../common/dom';
import { renderPdf } from '../common/pdf';
import { createTabs } from '../common/tabs';
import { createMessenger } from '../common/messenger';
import { renderHeader, renderOverview, TAB_SPECS } from './render';

interface State {
	view?: ApplicationView;
	tab: ApplicationTab;
	docs: Partial<Record<DocumentTab, DocumentView>>;
}

(() => {
	const messenger = createMessenger<HostToApplicationMessage, ApplicationToHostMessage, State>(
		acquireVsCodeApi<State>(),
		window,
	);
	const root = document.getElementById('root') as HTMLElement;
	const status = el(document, 'div', { className: 'mp-status', attrs: { role: 'status', 'aria-live': 'polite' } });
	const errors = el(document, 'div', { className: 'mp-errors' });
	const header = el(document, 'div');
	const state: State = messenger.state() ?? { tab: 'overview', docs: {} };
	const requested = new Set<DocumentTab>();

	const ctx: DocumentContext = {
		doc: document,
		purify: createDOMPurify(window),
		post: (m) => messenger.post(m),
		renderPdf: (container, base64) => renderPdf(document, container, base64),
		updaters: new Map(),
	};

	const save = () => {
		const docs: State['docs'] = {};
		for (const [tab, view] of Object.entries(state.docs) as [DocumentTab, DocumentView][]) {
			if (view.kind !== 'pdf') docs[tab] = view;
		}
		messenger.saveState({ ...state, docs });
	};

	const tabs = createTabs(document, 'mp-app', TAB_SPECS, (tab) => {
		state.tab = tab;
		save();
		showTab();
	});

	function showTab(): void {
		clear(tabs.panel);
		if (!state.view) return;
		const tab = state.tab;
		if (tab === 'overview') {
			tabs.panel.appendChild(renderOverview(document, state.view));
			return;
		}
		const view = state.docs[tab];
		if (view) {
			tabs.panel.appendChild(renderDocumentView(ctx, tab, view));
		} else {
			tabs.panel.appendChild(notice(document, 'Loading…'));
			if (!requested.has(tab)) {
				requested.add(tab);
				messenger.post({ type: 'openDocument', tab });
			}
		}
	}

	function drawHeader(): void {
		clear(header);
		if (!state.view) return;
		header.appendChild(
			renderHeader(document, state.view, (m) => {
				if (m.type === 'refresh') {
					state.docs = {};
					requested.clear();
					clear(errors);
				}
				messenger.post(m);
			}),
		);
	}

	messenger.onMessage((message) => {
		switch (message.type) {
			case 'application':
				state.view = message.view;
				save();
				drawHeader();
				showTab();
				break;
			case 'document':
				requested.delete(message.tab);
				state.docs[message.tab] = message.view;
				save();
				if (state.tab === message.tab) showTab();
				break;
			case 'moreText':
				ctx.updaters.get(updaterKey(message.tab, message.part))?.text?.(message.slice);
				break;
			case 'moreHtml':
				ctx.updaters.get(updaterKey(message.tab, message.part))?.html?.(message.html);
				break;
			case 'busy':
				status.textContent = message.busy ? (message.label ?? 'Working…') : '';
				break;
			case 'error':
				clear(errors);
				errors.appendChild(notice(document, message.message, 'error'));
				break;
		}
	});

	root.append(status, errors, header, tabs.element, tabs.panel);
	tabs.select(state.tab);
	drawHeader();
	messenger.post({ type: 'ready' });
})();
