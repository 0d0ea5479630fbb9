import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import {
	attr,
	child,
	childrenNamed,
	escapeAttr,
	escapeText,
	escapeXml,
	parseXml,
	prettyPrintXml,
	XML_NS,
	XMLNS_NS,
	XmlError,
	XSI_NS,
	type XmlElement,
	type XmlErrorCode,
} from '../../../src/protocol/codecs/xml';

const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SVC = 'https://api.example.test/';

function throwsXml(fn: () => unknown, code: XmlErrorCode, message?: RegExp | string): XmlError {
	let caught: unknown;
	try {
		fn();
	} catch (error) {
		caught = error;
	}
	assert.ok(caught instanceof XmlError, `expected XmlError ${code}, got ${String(caught)}`);
	assert.equal(caught.code, code, caught.message);
	if (typeof message === 'string') assert.equal(caught.message, message);
	else if (message) assert.match(caught.message, message);
	return caught;
}

function ms(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A plain projection of a tree for deepStrictEqual (drops positions). */
interface Plain {
	name: string;
	ns: string;
	attrs: [string, string, string][];
	text: string;
	children: Plain[];
}
function plain(el: XmlElement): Plain {
	return {
		name: el.name,
		ns: el.ns,
		attrs: el.attrs.map((a) => [a.name, a.ns, a.value]),
		text: el.text,
		children: el.children.map(plain),
	};
}

function isValidXmlString(s: string): boolean {
	for (const ch of s) {
		const cp = ch.codePointAt(0)!;
		const ok =
			cp >= 0x20
				? cp <= 0xd7ff || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)
				: cp === 9 || cp === 10 || cp === 13;
		if (!ok) return false;
	}
	return true;
}

describe('protocol/codecs/xml', () => {
	describe('parseXml: structure', () => {
		it('builds the light tree with names, attributes, text and positions', () => {
			const root = parseXml('<?xml version="1.0" encoding="utf-8"?>\n<a x="1" y=\'two\'>\n  <b>hi</b><c/>\n</a>');
			assert.equal(root.name, 'a');
			assert.equal(root.local, 'a');
			assert.equal(root.ns, '');
			assert.deepStrictEqual(root.attrs, [
				{ name: 'x', local: 'x', ns: '', value: '1' },
				{ name: 'y', local: 'y', ns: '', value: 'two' },
			]);
			assert.equal(root.text, '\n  \n');
			assert.deepStrictEqual(
				root.children.map((c) => [c.name, c.text, c.line, c.column]),
				[
					['b', 'hi', 3, 3],
					['c', '', 3, 12],
				],
			);
			assert.deepStrictEqual([root.line, root.column], [2, 1]);
		});

		it('concatenates text and CDATA, skipping comments and processing instructions', () => {
			const root = parseXml(
				'<!-- lead --><?pi data?><a>one<!-- c -->two<![CDATA[<three & four>]]><?x y?>five</a><!-- tail --><?t?>',
			);
			assert.equal(root.text, 'onetwo<three & four>five');
			assert.deepStrictEqual(root.children, []);
		});

		it('accepts an empty CDATA section, whitespace in tags and single-quoted attributes', () => {
			const root = parseXml('<a  b = "1"\n\tc=\'"2"\' ><![CDATA[]]></a >');
			assert.deepStrictEqual(
				root.attrs.map((a) => [a.name, a.value]),
				[
					['b', '1'],
					['c', '"2"'],
				],
			);
			assert.equal(root.text, '');
		});

		it('accepts non-ASCII names, including supplementary characters', () => {
			const root = parseXml('<données élément="é"><𐀀/></données>');
			assert.equal(root.name, 'données');
			assert.equal(attr(root, 'élément'), 'é');
			assert.equal(root.children[0].name, '𐀀');
		});

		it('parses Uint8Array input as UTF-8', () => {
			const root = parseXml(new TextEncoder().encode('<a>Café 😀</a>'));
			assert.equal(root.text, 'Café 😀');
		});

		it('normalises line ends in text and attributes but keeps character references', () => {
			const root = parseXml('<a v="x\r\ny\tz&#10;&#13;&#9;">1\r\n2\r3&#13;4</a>');
			assert.equal(root.text, '1\n2\n3\r4');
			assert.equal(attr(root, 'v'), 'x y z\n\r\t');
		});
	});

	describe('parseXml: namespaces', () => {
		const doc =
			`<soap:Envelope xmlns:soap="${SOAP11}" xmlns:xsi="${XSI_NS}">` +
			`<soap:Body><Op xmlns="${SVC}" id="7" xml:lang="en"><Item xsi:nil="true"/><Inner xmlns=""><Leaf/></Inner></Op></soap:Body></soap:Envelope>`;

		it('resolves prefixes, default namespaces and the xml prefix', () => {
			const env = parseXml(doc);
			assert.deepStrictEqual([env.name, env.local, env.ns], ['soap:Envelope', 'Envelope', SOAP11]);
			assert.deepStrictEqual(env.attrs, [
				{ name: 'xmlns:soap', local: 'soap', ns: XMLNS_NS, value: SOAP11 },
				{ name: 'xmlns:xsi', local: 'xsi', ns: XMLNS_NS, value: XSI_NS },
			]);
			const body = child(env, 'Body', SOAP11)!;
			const op = child(body, 'Op')!;
			assert.equal(op.ns, SVC);
			// The default namespace does not apply to attributes.
			assert.deepStrictEqual(
				op.attrs.map((a) => [a.name, a.local, a.ns]),
				[
					['xmlns', 'xmlns', XMLNS_NS],
					['id', 'id', ''],
					['xml:lang', 'lang', XML_NS],
				],
			);
			assert.equal(attr(op, 'lang', XML_NS), 'en');
			const item = child(op, 'Item', SVC)!;
			assert.equal(attr(item, 'nil', XSI_NS), 'true');
			assert.equal(attr(item, 'nil', ''), undefined);
			const inner = child(op, 'Inner')!;
			assert.equal(inner.ns, '');
			assert.equal(inner.children[0].ns, '');
			assert.equal(child(op, 'Op'), undefined);
			assert.equal(child(body, 'Op', 'urn:other'), undefined);
		});

		it('scopes declarations to their element', () => {
			const root = parseXml(
				'<r><a xmlns:p="urn:1"><p:x/></a><b xmlns:p="urn:2"><p:x/></b><p:y xmlns:p="urn:3"/></r>',
			);
			assert.deepStrictEqual(
				root.children.map((c) => c.children[0]?.ns ?? c.ns),
				['urn:1', 'urn:2', 'urn:3'],
			);
			throwsXml(() => parseXml('<r><a xmlns:p="urn:1"/><p:x/></r>'), 'XML_NAMESPACE');
		});

		it('lists children by name', () => {
			const root = parseXml('<r xmlns:o="urn:o"><i>1</i><o:i>2</o:i><j/><i>3</i></r>');
			assert.deepStrictEqual(
				childrenNamed(root, 'i').map((e) => e.text),
				['1', '2', '3'],
			);
			assert.deepStrictEqual(
				childrenNamed(root, 'i', '').map((e) => e.text),
				['1', '3'],
			);
			assert.deepStrictEqual(
				childrenNamed(root, 'i', 'urn:o').map((e) => e.text),
				['2'],
			);
		});

		it('rejects unbound prefixes and invalid declarations', () => {
			throwsXml(
				() => parseXml('<p:a/>'),
				'XML_NAMESPACE',
				"XML namespace error at line 1, column 2: prefix 'p' of element <p:a> is not bound to a namespace",
			);
			throwsXml(() => parseXml('<a q:b="1"/>'), 'XML_NAMESPACE', /prefix 'q' of attribute 'q:b'/);
			throwsXml(() => parseXml('<a xmlns:p=""/>'), 'XML_NAMESPACE');
			throwsXml(() => parseXml('<a xmlns:xmlns="urn:x"/>'), 'XML_NAMESPACE');
			throwsXml(() => parseXml('<a xmlns:xml="urn:x"/>'), 'XML_NAMESPACE');
			throwsXml(() => parseXml(`<a xmlns:p="${XML_NS}"/>`), 'XML_NAMESPACE');
			throwsXml(() => parseXml('<a:b:c xmlns:a="urn:a"/>'), 'XML_NAMESPACE');
			throwsXml(() => parseXml('<a :b="1"/>'), 'XML_NAMESPACE');
			parseXml(`<a xmlns:xml="${XML_NS}" xml:space="preserve"/>`);
		});

		it('rejects attributes with the same expanded name', () => {
			throwsXml(
				() => parseXml('<a xmlns:p="urn:x" xmlns:q="urn:x" p:b="1" q:b="2"/>'),
				'XML_MALFORMED',
				/duplicate attribute \{urn:x\}b/,
			);
		});
	});

	describe('parseXml: entities and character references', () => {
		it('decodes the predefined entities and numeric references', () => {
			assert.equal(parseXml('<a>Caf&#233;</a>').text, 'Café');
			assert.equal(parseXml('<a>&amp;lt;</a>').text, '&lt;');
			assert.equal(parseXml('<a>&#x1F600;</a>').text, '😀');
			assert.equal(parseXml('<a>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x00063;</a>').text, '<>&"\'ABc');
			assert.equal(attr(parseXml('<a v="&lt;&#x1F600;&amp;amp;"/>'), 'v'), '<😀&amp;');
		});

		it('rejects other entities with XML_ENTITY', () => {
			throwsXml(
				() => parseXml('<a>&nbsp;</a>'),
				'XML_ENTITY',
				'Invalid entity reference at line 1, column 4: undefined entity &nbsp; (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)',
			);
			throwsXml(() => parseXml('<a v="&xxe;"/>'), 'XML_ENTITY');
			throwsXml(() => parseXml('<a>&constructor;</a>'), 'XML_ENTITY');
			throwsXml(() => parseXml('<a>&__proto__;</a>'), 'XML_ENTITY');
		});

		it('range-checks character references', () => {
			for (const ref of [
				'&#9999999;',
				'&#0;',
				'&#xD800;',
				'&#xDFFF;',
				'&#xFFFE;',
				'&#x110000;',
				'&#1;',
				'&#99999999999999999999999999;',
				'&#x;',
				'&#;',
				'&#X41;',
				'&#12a;',
			]) {
				throwsXml(() => parseXml(`<a>${ref}</a>`), 'XML_ENTITY');
				throwsXml(() => parseXml(`<a v="${ref}"/>`), 'XML_ENTITY');
			}
			assert.equal(parseXml('<a>&#x10FFFF;&#9;&#xA;&#xd;&#xFFFD;</a>').text, '\u{10FFFF}\t\n\r\uFFFD');
		});

		it('rejects a bare ampersand', () => {
			throwsXml(() => parseXml('<a>fish & chips</a>'), 'XML_MALFORMED', /'&' must be escaped/);
			throwsXml(() => parseXml('<a>&amp</a>'), 'XML_MALFORMED');
			throwsXml(() => parseXml('<a v="a&b"/>'), 'XML_MALFORMED');
		});
	});

	describe('parseXml: encoding', () => {
		it('strips a BOM from strings and bytes', () => {
			assert.equal(parseXml('\uFEFF<?xml version="1.0"?><a>x</a>').text, 'x');
			const bytes = new Uint8Array([
				0xef,
				0xbb,
				0xbf,
				...new TextEncoder().encode('<?xml version="1.0" encoding="UTF-8"?><a>é</a>'),
			]);
			assert.equal(parseXml(bytes).text, 'é');
		});

		it('rejects invalid UTF-8 with its position', () => {
			const bytes = new Uint8Array([
				...new TextEncoder().encode('<a>\n ok'),
				0xc3,
				0x28,
				...new TextEncoder().encode('</a>'),
			]);
			const error = throwsXml(
				() => parseXml(bytes),
				'XML_ENCODING',
				/invalid UTF-8 \(byte 0xc3 at byte offset 7\)/,
			);
			assert.deepStrictEqual([error.line, error.column], [2, 4]);
			throwsXml(
				() => parseXml(new Uint8Array([0x3c, 0x61, 0x3e, 0xed, 0xa0, 0x80, 0x3c, 0x2f, 0x61, 0x3e])),
				'XML_ENCODING',
			); // encoded surrogate
			throwsXml(
				() => parseXml(new Uint8Array([0x3c, 0x61, 0x3e, 0xc0, 0xaf, 0x3c, 0x2f, 0x61, 0x3e])),
				'XML_ENCODING',
			); // overlong
			throwsXml(() => parseXml(new Uint8Array([0x3c, 0x61, 0x3e, 0xe2, 0x82])), 'XML_ENCODING'); // truncated
		});

		it('rejects UTF-16 and declared encodings other than UTF-8', () => {
			throwsXml(() => parseXml(new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x61, 0x00])), 'XML_ENCODING');
			throwsXml(() => parseXml(new Uint8Array([0xfe, 0xff, 0x00, 0x3c])), 'XML_ENCODING');
			throwsXml(() => parseXml(new Uint8Array([0x3c, 0x00, 0x61, 0x00, 0x2f, 0x00, 0x3e, 0x00])), 'XML_ENCODING');
			throwsXml(
				() => parseXml('<?xml version="1.0" encoding="ISO-8859-1"?><a/>'),
				'XML_ENCODING',
				/encoding 'ISO-8859-1' is declared/,
			);
			throwsXml(
				() => parseXml(new TextEncoder().encode('<?xml version="1.0" encoding="utf-16"?><a/>')),
				'XML_ENCODING',
			);
			parseXml('<?xml version="1.0" encoding="Utf-8" standalone="yes"?><a/>');
			parseXml("<?xml version='1.0'?><a/>");
		});
	});

	describe('parseXml: DTDs are refused', () => {
		it('rejects billion laughs with XML_DOCTYPE before expanding anything', () => {
			const lol = [
				'<?xml version="1.0"?>',
				'<!DOCTYPE lolz [',
				' <!ENTITY lol "lol">',
				...Array.from(
					{ length: 9 },
					(_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
				),
				']>',
				'<lolz>&lol9;</lolz>',
			].join('\n');
			const start = process.hrtime.bigint();
			const error = throwsXml(
				() => parseXml(lol),
				'XML_DOCTYPE',
				'DOCTYPE not allowed at line 2, column 1: document type declarations are not allowed in SOAP messages',
			);
			assert.equal(error.line, 2);
			console.log(`      billion laughs rejected in ${ms(start).toFixed(3)} ms`);
		});

		it('rejects XXE samples with XML_DOCTYPE', () => {
			const samples = [
				'<?xml version="1.0" encoding="ISO-8859-1"?><!DOCTYPE foo [<!ELEMENT foo ANY><!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>',
				'<!DOCTYPE foo SYSTEM "http://attacker.test/evil.dtd"><foo/>',
				'<!-- hi --><?pi?>\n <!DOCTYPE foo [<!ENTITY % xxe SYSTEM "http://attacker.test/x"> %xxe;]><foo/>',
				'<!doctype foo><foo/>',
				'<a><!DOCTYPE foo></a>',
				'<a/><!ENTITY x "y">',
				new TextEncoder().encode(
					'\uFEFF<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///c:/boot.ini">]><foo>&xxe;</foo>',
				),
			];
			for (const sample of samples) throwsXml(() => parseXml(sample), 'XML_DOCTYPE');
			// A huge malformed body after the DOCTYPE is never looked at.
			const big = '<!DOCTYPE x>' + '<a>&bad;'.repeat(1_000_000);
			const start = process.hrtime.bigint();
			throwsXml(() => parseXml(big), 'XML_DOCTYPE');
			console.log(
				`      DOCTYPE before ${(big.length / 1e6).toFixed(1)} MB rejected in ${ms(start).toFixed(3)} ms`,
			);
		});

		it('keeps <!DOCTYPE inside CDATA and comments as content', () => {
			assert.equal(parseXml('<a><![CDATA[<!DOCTYPE html>]]><!-- <!DOCTYPE x> --></a>').text, '<!DOCTYPE html>');
		});
	});

	describe('parseXml: well-formedness', () => {
		const cases: [string, string, RegExp | string][] = [
			[
				'mismatched end tag',
				'<Envelope>\n <Body>\n  <Foo/>     </Envelope>',
				'Malformed XML at line 3, column 14: expected </Body> but found </Envelope>',
			],
			['end tag prefix of name', '<ab></a>', /expected <\/ab> but found <\/a>/],
			['end tag longer than name', '<a></ab>', /expected <\/a> but found <\/ab>/],
			['unclosed element', '<a><b></b>', /<a> opened at line 1, column 1 is not closed/],
			['unexpected end tag', '</a>', /unexpected end tag <\/a>/],
			['second root', '<a/><b/>', /only one root element/],
			['text after root', '<a/>x', /text is not allowed after the root element/],
			['text before root', 'x<a/>', /text is not allowed before the root element/],
			['no root', '<!-- only -->', /no root element/],
			['empty input', '', /no root element/],
			[
				'duplicate attribute',
				'<a b="1" b="2"/>',
				'Malformed XML at line 1, column 10: duplicate attribute b on <a>',
			],
			['< in attribute', '<a b="x<y"/>', /'<' is not allowed in the value of attribute b/],
			['missing quotes', '<a b=1/>', /attribute b value must be quoted/],
			['missing =', '<a b "1"/>', /expected '=' after attribute b/],
			['unterminated attribute', '<a b="1/>', /unterminated value of attribute b/],
			['no space between attributes', '<a b="1"c="2"/>', /expected whitespace/],
			[']]> in text', '<a>x]]>y</a>', /']]>' is not allowed in text/],
			['-- in comment', '<a><!-- a -- b --></a>', /'--' is not allowed inside a comment/],
			['comment ending with -', '<a><!-- a ---></a>', /'--' is not allowed inside a comment/],
			['unterminated comment', '<a><!-- x</a>', /unterminated comment/],
			['unterminated CDATA', '<a><![CDATA[x</a>', /unterminated CDATA/],
			['CDATA outside root', '<![CDATA[x]]><a/>', /CDATA section outside the root element/],
			['late XML declaration', '<a/><?xml version="1.0"?>', /XML declaration is allowed only at the very start/],
			[
				'XML declaration after whitespace',
				' <?xml version="1.0"?><a/>',
				/XML declaration is allowed only at the very start/,
			],
			['bad XML declaration', '<?xml encoding="utf-8"?><a/>', /invalid XML declaration/],
			['bad name', '<1a/>', /expected an element name/],
			['truncated start tag', '<a', /unexpected end of input inside <a>/],
			['slash without >', '<a/ >', /expected '>' after '\/'/],
			['unknown markup', '<a><!FOO></a>', /unexpected markup/],
			['PI without target', '<a><? x?></a>', /processing instruction without a target/],
			[
				'control character',
				'<a>x\u0001</a>',
				'Malformed XML at line 1, column 5: character U+0001 is not allowed in XML',
			],
			['U+FFFF', '<a v="\uFFFF"/>', /character U\+FFFF is not allowed/],
			['lone surrogate', '<a>\uD800</a>', /character U\+D800 is not allowed/],
			['NUL in name', '<a\u0000/>', /character U\+0000 is not allowed/],
		];
		for (const [title, input, message] of cases) {
			it(`rejects ${title}`, () => {
				throwsXml(() => parseXml(input), 'XML_MALFORMED', message);
			});
		}

		it('reports the first problem when an invalid character follows it', () => {
			throwsXml(() => parseXml('<a></b>\u0001'), 'XML_MALFORMED', /expected <\/a> but found <\/b>/);
		});
	});

	describe('parseXml: limits', () => {
		it('rejects 100,000 nested elements with XML_DEPTH without recursion', () => {
			const depth = 100_000;
			const bomb = '<a>'.repeat(depth) + '</a>'.repeat(depth);
			const start = process.hrtime.bigint();
			throwsXml(
				() => parseXml(bomb),
				'XML_DEPTH',
				'XML nested too deeply at line 1, column 301: elements nested deeper than 100 levels',
			);
			console.log(`      depth bomb rejected in ${ms(start).toFixed(3)} ms`);
			// With the limit lifted the same document parses: the parser does not recurse.
			let el: XmlElement | undefined = parseXml(bomb, { maxDepth: Infinity });
			let levels = 0;
			while (el) {
				levels++;
				el = el.children[0];
			}
			assert.equal(levels, depth);
		});

		it('counts the root as depth 1', () => {
			parseXml('<a><b/></a>', { maxDepth: 2 });
			throwsXml(() => parseXml('<a><b><c/></b></a>', { maxDepth: 2 }), 'XML_DEPTH');
		});

		it('enforces attribute, name, element and size limits', () => {
			const attrs = Array.from({ length: 257 }, (_, i) => `a${i}="${i}"`).join(' ');
			throwsXml(() => parseXml(`<a ${attrs}/>`), 'XML_LIMIT', /more than 256 attributes on <a>/);
			parseXml(`<a ${attrs}/>`, { maxAttributes: 257 });
			throwsXml(() => parseXml(`<${'n'.repeat(1025)}/>`), 'XML_LIMIT', /name longer than 1024/);
			throwsXml(() => parseXml(`<a ${'n'.repeat(1025)}="1"/>`), 'XML_LIMIT');
			throwsXml(() => parseXml(`<a>&${'n'.repeat(2000)};</a>`), 'XML_LIMIT');
			parseXml(`<${'n'.repeat(1024)}/>`);
			throwsXml(() => parseXml('<a><b/><b/><b/></a>', { maxElements: 3 }), 'XML_LIMIT', /more than 3 elements/);
			parseXml('<a><b/><b/></a>', { maxElements: 3 });
			throwsXml(() => parseXml('<a>xxxxxxxx</a>', { maxBytes: 10 }), 'XML_TOO_LARGE');
			throwsXml(() => parseXml(new TextEncoder().encode('<a>xxxxxxxx</a>'), { maxBytes: 10 }), 'XML_TOO_LARGE');
			throwsXml(() => parseXml('<a>éééé</a>', { maxBytes: 12 }), 'XML_TOO_LARGE'); // 15 UTF-8 bytes, 11 chars
			parseXml('<a>éééé</a>', { maxBytes: 15 });
		});

		it('resolves prefixes in constant time with many bindings in scope', () => {
			const levels = 98;
			const open = Array.from(
				{ length: levels },
				(_, d) =>
					`<x${d} ${Array.from({ length: 256 }, (_, i) => `xmlns:p${d}_${i}="urn:${d}:${i}"`).join(' ')}>`,
			).join('');
			const close = Array.from({ length: levels }, (_, d) => `</x${levels - 1 - d}>`).join('');
			const doc = `<r xmlns:q="urn:q">${open}${'<q:a/>'.repeat(200_000)}${close}</r>`;
			const start = process.hrtime.bigint();
			let el = parseXml(doc);
			for (let d = 0; d < levels; d++) el = el.children[0];
			assert.equal(el.children.length, 200_000);
			assert.equal(el.children[199_999].ns, 'urn:q');
			console.log(`      25,088 bindings in scope, 200,000 prefixed elements: ${ms(start).toFixed(1)} ms`);
		});

		it('refuses many huge attributes in linear time', () => {
			const value = 'v'.repeat(10_000);
			const doc =
				'<a ' +
				Array.from({ length: 256 }, (_, i) => `a${i}="${value}"`).join(' ') +
				'>' +
				'x'.repeat(5_000_000) +
				'</a>';
			const start = process.hrtime.bigint();
			assert.equal(parseXml(doc).attrs.length, 256);
			console.log(`      256 attributes x 10 kB + 5 MB text parsed in ${ms(start).toFixed(1)} ms`);
		});
	});

	describe('escaping', () => {
		it('escapes text and attribute values', () => {
			assert.equal(escapeText('plain'), 'plain');
			assert.equal(escapeText('a<b>&c "d" \'e\'\tf\ng\rh]]>'), 'a&lt;b&gt;&amp;c "d" \'e\'\tf\ng&#xD;h]]&gt;');
			assert.equal(
				escapeAttr('a<b>&c "d" \'e\'\tf\ng\rh'),
				"a&lt;b&gt;&amp;c &quot;d&quot; 'e'&#x9;f&#xA;g&#xD;h",
			);
			assert.equal(escapeText('😀 é'), '😀 é');
		});

		it('refuses characters XML 1.0 cannot carry, naming the code point', () => {
			throwsXml(
				() => escapeText('a\u0000b'),
				'XML_CHAR',
				'Invalid XML character: U+0000 at index 1 cannot be written in XML 1.0',
			);
			throwsXml(() => escapeText('\u0008'), 'XML_CHAR', /U\+0008/);
			throwsXml(() => escapeText('x\uFFFE'), 'XML_CHAR', /U\+FFFE/);
			throwsXml(() => escapeAttr('\uFFFF'), 'XML_CHAR', /U\+FFFF/);
			throwsXml(() => escapeText('\uD83D'), 'XML_CHAR', /U\+D83D \(lone surrogate\)/);
			throwsXml(() => escapeText('\uDE00x'), 'XML_CHAR', /U\+DE00/);
			throwsXml(() => escapeAttr('a\uD83Db'), 'XML_CHAR');
		});

		it('escapes for any position with escapeXml: both quotes, tab, LF and CR as references', () => {
			assert.equal(escapeXml('plain é 😀'), 'plain é 😀');
			assert.equal(
				escapeXml('a<b>&c "d" \'e\'\tf\ng\rh'),
				'a&lt;b&gt;&amp;c &quot;d&quot; &apos;e&apos;&#x9;f&#xA;g&#xD;h',
			);
			const value = `x"y'z&\t\n`;
			const doc = parseXml(`<r a="${escapeXml(value)}" b='${escapeXml(value)}'>${escapeXml(value)}</r>`);
			assert.deepEqual([attr(doc, 'a'), attr(doc, 'b'), doc.text], [value, value, value]);
		});

		it('drops, replaces or keeps the characters XML cannot carry when asked, in every context', () => {
			const bad = 'a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf\uFFFFg\uD800h\uDC00i';
			const escapers = [escapeText, escapeAttr, escapeXml];
			for (const escape of escapers) {
				throwsXml(() => escape(bad), 'XML_CHAR', /U\+0000 at index 1/);
				assert.equal(escape(bad, 'drop'), 'abcdefghi');
				assert.equal(escape(bad, 'replace'), 'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\uFFFDh\uFFFDi');
				assert.equal(escape(bad, 'keep'), bad);
				assert.equal(escape('&\u0001\uD83D\uDE00', 'drop'), '&amp;\uD83D\uDE00', 'a surrogate pair is kept');
				assert.equal(
					escape('\uDBFF\uDBFF\uDFFF', 'replace'),
					'\uFFFD\uDBFF\uDFFF',
					'a lone high surrogate before a pair',
				);
			}
			assert.equal(escapeText('<\u0002\r\n', 'replace'), '&lt;\uFFFD&#xD;\n');
			assert.equal(escapeAttr('"\u0002\t', 'drop'), '&quot;&#x9;');
		});

		it('round-trips any valid string through the escapers and the parser (property)', () => {
			fc.assert(
				fc.property(fc.string({ unit: 'binary', maxLength: 200 }).filter(isValidXmlString), (s) => {
					const xml = `<r a="${escapeAttr(s)}"><t>${escapeText(s)}</t>${escapeText(s)}</r>`;
					const root = parseXml(xml);
					assert.equal(attr(root, 'a'), s);
					assert.equal(root.children[0].text, s);
					assert.equal(root.text, s);
				}),
				{ numRuns: 2000 },
			);
		});

		it('either refuses a string or round-trips it (property)', () => {
			const anyString = fc.string({
				unit: fc.oneof(
					fc.constantFrom(
						'\u0000',
						'\u0001',
						'\u001f',
						'\uFFFE',
						'\uFFFF',
						'\uD800',
						'\uDC00',
						'\r',
						'\n',
						'&',
						'<',
						']]>',
					),
					fc.string({ unit: 'binary', maxLength: 1 }),
				),
				maxLength: 30,
			});
			fc.assert(
				fc.property(anyString, (s) => {
					let escaped: string;
					try {
						escaped = escapeText(s);
					} catch (error) {
						assert.ok(error instanceof XmlError && error.code === 'XML_CHAR');
						assert.ok(
							!(s as unknown as { isWellFormed(): boolean }).isWellFormed() || !isValidXmlString(s),
						);
						return;
					}
					assert.equal(parseXml(`<r>${escaped}</r>`).text, s);
				}),
				{ numRuns: 2000 },
			);
		});
	});

	describe('prettyPrintXml', () => {
		it('re-indents element-only content and keeps everything else', () => {
			const input =
				'<?xml version="1.0"?><!-- c --><r xmlns="urn:x" a = \'1\'><a>  text  </a><b><c/><d>x &amp; y</d><!-- n --></b>' +
				'<m>mixed <i>in</i> line</m><e></e><w>   </w><cd><![CDATA[ <x> ]]></cd></r>';
			const expected = [
				'<?xml version="1.0"?>',
				'<!-- c -->',
				'<r xmlns="urn:x" a = \'1\'>',
				'  <a>  text  </a>',
				'  <b>',
				'    <c/>',
				'    <d>x &amp; y</d>',
				'    <!-- n -->',
				'  </b>',
				'  <m>mixed <i>in</i> line</m>',
				'  <e></e>',
				'  <w>   </w>',
				'  <cd><![CDATA[ <x> ]]></cd>',
				'</r>',
			].join('\n');
			assert.equal(prettyPrintXml(input), expected);
			assert.equal(prettyPrintXml(expected), expected);
			assert.equal(prettyPrintXml('<a><b/></a>', '\t'), '<a>\n\t<b/>\n</a>');
		});

		it('preserves text content and attribute values (property over generated trees)', () => {
			const leafText = fc.string({ unit: 'binary', maxLength: 20 }).filter(isValidXmlString);
			const tree = fc.letrec<{ node: string }>((tie) => ({
				node: fc.oneof(
					{ depthSize: 'small', withCrossShrink: true },
					leafText.map((t) => `<l v="${escapeAttr(t)}">${escapeText(t)}</l>`),
					fc
						.array(tie('node'), { maxLength: 4 })
						.chain((kids) =>
							fc
								.constantFrom(' ', '\n', '\n\t', '')
								.map((ws) => `<n>${kids.map((k) => ws + k).join('')}${ws}</n>`),
						),
				),
			})).node;
			const strip = (el: XmlElement): Plain => {
				const p = plain(el);
				const rec = (x: Plain): Plain => ({
					...x,
					text: x.children.length > 0 && x.text.trim() === '' ? '' : x.text,
					children: x.children.map(rec),
				});
				return rec(p);
			};
			fc.assert(
				fc.property(tree, (xml) => {
					const pretty = prettyPrintXml(xml);
					assert.deepStrictEqual(strip(parseXml(pretty)), strip(parseXml(xml)));
				}),
				{ numRuns: 500 },
			);
		});

		it('throws XmlError with a position on malformed input', () => {
			const error = throwsXml(
				() => prettyPrintXml('<a>\n  <b>\n</a>'),
				'XML_MALFORMED',
				/line 3, column 1: expected <\/b> but found <\/a>/,
			);
			assert.deepStrictEqual([error.line, error.column], [3, 1]);
		});
	});

	// Correctness on large inputs only: their speed is measured by npm run bench (bench/codec.ts).
	describe('large inputs', () => {
		it('parses a 5 MB base64 text node', () => {
			const bytes = new Uint8Array(3_750_000);
			for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
			const b64 = Buffer.from(bytes).toString('base64');
			const doc = `<DocumentBytes xmlns="${SVC}">${b64}</DocumentBytes>`;
			const root = parseXml(doc);
			assert.equal(root.text.length, b64.length);
			assert.equal(root.text, b64);

			const wrapped = b64.replace(/.{76}/g, '$&\r\n');
			const doc2 = `<DocumentBytes>${wrapped}</DocumentBytes>`;
			const bytes2 = new TextEncoder().encode(doc2);
			const root2 = parseXml(bytes2);
			assert.equal(root2.text, b64.replace(/.{76}/g, '$&\n'));
		});

		it('parses a 10 MB document of 50,000 records', () => {
			const parts = [
				'<?xml version="1.0" encoding="utf-8"?>\n',
				`<soap:Envelope xmlns:soap="${SOAP11}" xmlns:xsi="${XSI_NS}"><soap:Body>`,
				`<GetApplicationsPagedResponse xmlns="${SVC}"><ApplicationPaged>`,
				'<PageCount>1</PageCount><PageIndex>0</PageIndex><TotalItemCount>50000</TotalItemCount><Applications>',
			];
			for (let i = 0; i < 50_000; i++) {
				parts.push(
					'\n    <APIApplication>',
					`<AdvertCandidateID>${1_000_000 + i}</AdvertCandidateID>`,
					'<ApplicationDate>2014-05-01T10:11:12.1234567+01:00</ApplicationDate>',
					`<FirstName>${escapeText(`Zoë & ${i}`)}</FirstName>`,
					'<EmailBody xsi:nil="true" />',
					'</APIApplication>',
				);
			}
			parts.push('</Applications></ApplicationPaged></GetApplicationsPagedResponse></soap:Body></soap:Envelope>');
			const doc = parts.join('');
			const bytes = new TextEncoder().encode(doc);
			const root = parseXml(doc);
			const fromBytes = parseXml(bytes);
			const apps = root.children[0].children[0].children[0].children[3].children;
			assert.equal(apps.length, 50_000);
			assert.equal(child(apps[49_999], 'FirstName')!.text, 'Zoë & 49999');
			assert.equal(child(apps[3], 'AdvertCandidateID', SVC)!.text, '1000003');
			const appsFromBytes = fromBytes.children[0].children[0].children[0].children[3].children;
			assert.equal(appsFromBytes.length, 50_000);
			assert.equal(child(appsFromBytes[49_999], 'FirstName')!.text, 'Zoë & 49999');
		});
	});
});
