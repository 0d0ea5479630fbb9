import * as assert from 'node:assert/strict';
import { parseXml, utf8Strict, XmlError } from '../../../src/protocol/codecs/xml';

const reference = (bytes: Uint8Array): string => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

describe('protocol/codecs/xml utf8Strict (ASCII read as latin1)', () => {
	it('gives what a fatal UTF-8 decoder gives, for ASCII and for any other text', () => {
		const samples = [
			'',
			'<a>plain ASCII with \t tabs, \r\n line ends and \u007f</a>',
			'\ufeff<a>a BOM is dropped</a>',
			'<a>Zoë Müller, Polish złoty, 😀, \u0080 and \u00ff</a>',
			'x'.repeat(100_000) + 'é',
		];
		for (const sample of samples) {
			const bytes = new TextEncoder().encode(sample);
			assert.equal(utf8Strict(bytes), reference(bytes), JSON.stringify(sample.slice(0, 40)));
		}
		// A view into a larger buffer reads only its own bytes.
		const whole = new TextEncoder().encode('skip<a>kept</a>skip');
		assert.equal(utf8Strict(whole.subarray(4, 15)), '<a>kept</a>');
	});

	it('refuses invalid UTF-8 as the fatal decoder does', () => {
		for (const bytes of [[0x3c, 0x61, 0xff, 0x3e], [0xc3], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
			assert.throws(() => utf8Strict(new Uint8Array(bytes)), TypeError);
		}
	});

	it('keeps the parser exact for bytes: same tree, same errors, ASCII or not', () => {
		const ascii = new TextEncoder().encode('<r><a x="1">text &amp; more</a></r>');
		assert.equal(parseXml(ascii).children[0].text, 'text & more');
		const bad = new Uint8Array([...new TextEncoder().encode('<r>'), 0xff, ...new TextEncoder().encode('</r>')]);
		assert.throws(
			() => parseXml(bad),
			(error: unknown) =>
				error instanceof XmlError && /invalid UTF-8 \(byte 0xff at byte offset 3\)/.test(error.message),
		);
		assert.throws(() => parseXml(new TextEncoder().encode('<r>\u0001</r>')), XmlError);
	});
});
