/**
 * Application panel webview. A new panel draws the view its HTML carries, then asks for fresh data
 * (the PDF viewer is a separate bundle, loaded only when a PDF is shown). Documents are asked for
 * when their tab is first opened; what was shown is kept with setState so a hidden and re-shown
 * panel does not fetch again (PDFs excepted: too big). A preview panel is given other applications in place: it keeps the tab and refetches
 * that tab's document for the new one.
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
import { lazyScript, loadPdfViewer } from '../common/pdfLoader';
import { createTabs } from '../common/tabs';
import { readTheme } from '../common/theme';
import { createMessenger, embeddedMessages } from '../common/messenger';
import { renderHeader, renderOverview, renderPreviewBar, TAB_SPECS } from './render';

interface State {
	view?: ApplicationView;
	tab: ApplicationTab;
	docs: Partial<Record<DocumentTab, DocumentView>>;
	preview?: boolean;
}

(() => {
	const pdfScript = lazyScript(document.currentScript, 'pdf');
	const messenger = createMessenger<HostToApplicationMessage, ApplicationToHostMessage, State>(
		acquireVsCodeApi<State>(),
		window,
	);
	const root = document.getElementById('root') as HTMLElement;
	const status = el(document, 'div', { className: 'mp-status', attrs: { role: 'status', 'aria-live': 'polite' } });
	const errors = el(document, 'div', { className: 'mp-errors' });
	const previewBar = el(document, 'div');
	const header = el(document, 'div');
	const saved = messenger.state();
	const state: State = saved ?? { tab: 'overview', docs: {} };
	const requested = new Set<DocumentTab>();

	const ctx: DocumentContext = {
		doc: document,
		purify: createDOMPurify(window),
		post: (m) => messenger.post(m),
		renderPdf: (container, base64) => {
			const loading = notice(document, 'Loading the PDF viewer…');
			container.appendChild(loading);
			loadPdfViewer(document, pdfScript).then(
				(viewer) => {
					loading.remove();
					viewer.renderPdf(document, container, base64);
				},
				(error: unknown) => {
					loading.textContent = `The PDF cannot be previewed here (${error instanceof Error ? error.message : String(error)}). Use “Save as…” to open it elsewhere.`;
				},
			);
		},
		updaters: new Map(),
		theme: () => readTheme(window),
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

	function drawPreviewBar(): void {
		clear(previewBar);
		if (state.preview) {
			previewBar.appendChild(renderPreviewBar(document, () => messenger.post({ type: 'keepOpen' })));
		}
	}

	const handle = (message: HostToApplicationMessage): void => {
		switch (message.type) {
			case 'application':
				if (state.view && state.view.advertCandidateId !== message.view.advertCandidateId) {
					// Another application in this panel: its documents are other documents.
					state.docs = {};
					requested.clear();
					ctx.updaters.clear();
					clear(errors);
				}
				state.view = message.view;
				save();
				drawHeader();
				showTab();
				// When this application first showed (read by the e2e timing and the bench).
				performance.mark(`multiposting:application:${message.view.advertCandidateId}`);
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
			case 'mode':
				state.preview = message.preview;
				save();
				drawPreviewBar();
				break;
			case 'busy':
				status.textContent = message.busy ? (message.label ?? 'Working…') : '';
				break;
			case 'error':
				clear(errors);
				errors.appendChild(notice(document, message.message, 'error'));
				break;
		}
	};
	messenger.onMessage(handle);

	root.append(previewBar, status, errors, header, tabs.element, tabs.panel);
	// A new panel draws the view its HTML carries at once; the host's answer to 'ready' refreshes it.
	if (!saved) for (const message of embeddedMessages<HostToApplicationMessage>(document)) handle(message);
	performance.mark('multiposting:ready');
	messenger.post({ type: 'ready' });
	tabs.select(state.tab);
	drawPreviewBar();
	drawHeader();
})();
