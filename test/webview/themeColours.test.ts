import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The declarations of one CSS rule (the first whose selector list is exactly `selector`). */
function rule(css: string, selector: string): string {
	const at = css.search(new RegExp(`(^|\\n)${selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\{`));
	assert.ok(at >= 0, `${selector} is styled`);
	return css.slice(at, css.indexOf('}', at));
}

describe('webview colours', function () {
	const media = join(__dirname, '..', '..', '..', 'media');

	it("writes the playground's success text in the theme's text colour, the green only as a marker", function () {
		const css = readFileSync(join(media, 'playground.css'), 'utf8');
		const good = rule(css, '.pg-good');
		assert.match(good, /color: var\(--vscode-foreground\)/);
		assert.doesNotMatch(good, /iconPassed|charts-green/, 'no green text (about 2:1 on light themes)');
		assert.match(rule(css, '.pg-good::before'), /background: var\(--vscode-testing-iconPassed/);
	});
});
