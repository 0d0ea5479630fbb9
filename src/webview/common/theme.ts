/** The VS Code theme's colours and font, read from the webview's CSS variables, for document frames. */
import type { FrameTheme } from './sanitizePolicy';

export function readTheme(win: Window): Partial<FrameTheme> {
	const style = win.getComputedStyle(win.document.body);
	const v = (name: string) => style.getPropertyValue(name).trim();
	return {
		foreground: v('--vscode-editor-foreground') || v('--vscode-foreground'),
		background: v('--vscode-editor-background'),
		link: v('--vscode-textLink-foreground'),
		border: v('--vscode-panel-border') || v('--vscode-widget-border'),
		fontFamily: v('--vscode-font-family'),
		fontSize: v('--vscode-font-size'),
	};
}
