/**
 * The VS Code theme's colours and font for document frames: the theme's CSS variables (VS Code sets
 * them on <html>), else the panel body's computed values. The variables come first because the
 * panel's style sheet may not be applied yet when a frame is first painted (the body would then
 * still be black on white, in a serif font).
 */
import type { FrameTheme } from './sanitizePolicy';

export function readTheme(win: Window): Partial<FrameTheme> {
	const body = win.getComputedStyle(win.document.body);
	const v = (name: string) => body.getPropertyValue(name).trim();
	return {
		foreground: v('--vscode-editor-foreground') || v('--vscode-foreground') || body.color,
		background: v('--vscode-editor-background') || body.backgroundColor,
		link: v('--vscode-textLink-foreground') || body.color,
		border: v('--vscode-panel-border') || v('--vscode-widget-border') || body.color,
		fontFamily: v('--vscode-font-family') || body.fontFamily,
		fontSize: v('--vscode-font-size') || body.fontSize,
	};
}
