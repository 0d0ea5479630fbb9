/**
 * The VS Code theme's colours and font for document frames, read from the panel's own body (whose
 * style sheet takes them from the theme's CSS variables), so they are plain computed values.
 */
import type { FrameTheme } from './sanitizePolicy';

export function readTheme(win: Window): Partial<FrameTheme> {
	const body = win.getComputedStyle(win.document.body);
	const v = (name: string) => body.getPropertyValue(name).trim();
	return {
		foreground: body.color || v('--vscode-editor-foreground'),
		background: v('--vscode-editor-background') || body.backgroundColor,
		link: v('--vscode-textLink-foreground') || body.color,
		border: v('--vscode-panel-border') || v('--vscode-widget-border') || body.color,
		fontFamily: body.fontFamily,
		fontSize: body.fontSize,
	};
}
