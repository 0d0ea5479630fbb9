import * as assert from 'node:assert/strict';
import { rawBodyEncoder } from '../../../src/protocol/requestFiles/prepare';

describe('raw body encoder', () => {
	it('escapes a value for the body it lands in: form, XML by type or by its first character, else as is', () => {
		const value = 'a&b <c> "d"';
		const form = rawBodyEncoder([['Content-Type', 'application/x-www-form-urlencoded']], 'x={{v}}');
		assert.equal(form(value), 'a%26b+%3Cc%3E+%22d%22');
		const xml = rawBodyEncoder([['content-type', 'Text/XML; charset=utf-8']], 'x');
		assert.equal(xml(value), 'a&amp;b &lt;c&gt; &quot;d&quot;');
		assert.equal(rawBodyEncoder([], '  <a>{{v}}</a>')(value), xml(value));
		assert.equal(rawBodyEncoder([['Content-Type', 'text/plain']], 'x={{v}}')(value), value);
	});
});
