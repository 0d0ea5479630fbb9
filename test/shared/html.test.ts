import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { escapeHtml } from '../../src/shared/html';

const { document } = new JSDOM('<!DOCTYPE html><body></body>').window;

/** Text in an element and in attributes of both quotes, read back by an HTML parser. */
function roundTrip(value: string): string[] {
	const e = escapeHtml(value);
	document.body.innerHTML = `<p title="${e}" data-x='${e}'>${e}</p>`;
	const p = document.body.firstElementChild!;
	return [
		p.textContent ?? '',
		p.getAttribute('title') ?? '',
		p.getAttribute('data-x') ?? '',
		String(p.children.length),
	];
}

describe('escapeHtml (the one HTML escaper)', () => {
	it('escapes each markup character', () => {
		assert.equal(escapeHtml('&'), '&amp;');
		assert.equal(escapeHtml('<'), '&lt;');
		assert.equal(escapeHtml('>'), '&gt;');
		assert.equal(escapeHtml('"'), '&quot;');
		assert.equal(escapeHtml("'"), '&#39;');
		assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
		assert.equal(escapeHtml('&amp;'), '&amp;amp;', 'an entity is text, escaped again');
	});

	it('leaves other characters as they are: letters, controls, astral and lone surrogates', () => {
		const other = 'plain é 😀 \t\n\u0001\u001f\u007f\uD800\uDFFF';
		assert.equal(escapeHtml(other), other);
	});

	it('keeps hostile text as text in content and in attributes of either quote', () => {
		const hostile = `"'><script>alert(1)</script><img src=x onerror='a()'>&lt;`;
		assert.deepEqual(roundTrip(hostile), [hostile, hostile, hostile, '0']);
	});

	it('round-trips any text through an HTML parser (property)', () => {
		// NUL and CR are changed by every HTML parser (to U+FFFD and LF), escaped or not.
		const unit = fc.constantFrom(
			'&',
			'<',
			'>',
			'"',
			"'",
			'=',
			'/',
			'!',
			'-',
			';',
			'#',
			'a',
			' ',
			'\n',
			'\t',
			'\u0001',
			'é',
			'😀',
		);
		fc.assert(
			fc.property(fc.string({ unit, maxLength: 40 }), (value) => {
				assert.deepEqual(roundTrip(value), [value, value, value, '0']);
			}),
			{ numRuns: 200 },
		);
	});
});
