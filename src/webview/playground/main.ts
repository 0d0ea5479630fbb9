/**
 * The request playground page: wires the VS Code webview API to the PlaygroundApp. Service data is
 * always rendered as text, never as HTML; credentials never arrive here (credential fields hold
 * `{{connection.*}}` placeholders).
 */
import type { HostToWebview, WebviewToHost } from '../../shared/playgroundMessages';
import { createMessenger } from '../common/messenger';
import { PlaygroundApp, type SavedState } from './app';

const messenger = createMessenger<HostToWebview, WebviewToHost, SavedState>(acquireVsCodeApi<SavedState>(), window);
new PlaygroundApp({ doc: document, root: document.getElementById('root') as HTMLElement, messenger }).start();
