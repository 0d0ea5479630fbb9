/**
 * The fast record path (fastRecords.ts) against the streamed RecordReader it stands in for: same
 * values, same errors, on every operation's sample and on adversarial and mutated documents.
 */
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { getBinding } from '../../../src/protocol/bindings';
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../../../src/protocol/catalogue';
import { FastRecordReader } from '../../../src/protocol/codecs/fastRecords';
import { RecordReader } from '../../../src/protocol/codecs/records';
import {
	parseXml,
	type SubtreeRead,
	type SubtreeSource,
	type XmlElement,
	type XmlLimits,
} from '../../../src/protocol/codecs/xml';

import { sampleResult } from '../../builders/samples';

const CTX = { namespace: 'https://api.example.test/', endpointPath: '/SOAP/Posting.asmx' };
const NS = CTX.namespace;
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';

/** FastRecordReader that remembers whether its fast path read the subtree. */
class SpyReader extends FastRecordReader {
	fast = false;
	override readSubtree(root: XmlElement, source: SubtreeSource): SubtreeRead | undefined {
		const read = super.readSubtree(root, source);
		this.fast = read !== undefined;
		return read;
	}
}

type Outcome = { value: unknown; rootText: string; children: number } | { error: string };

interface Run {
	outcome: Outcome;
	/** True when the fast path read the result (only for the fast reader). */
	fast: boolean;
}

/**
 * Parses `doc` streaming the result of `operation` into a reader of class `Reader`: inside the SOAP
 * envelope as the SOAP bindings do, or (`bare`) as the document root as the HTTP bindings do.
 */
function run(
	Reader: typeof RecordReader | typeof SpyReader,
	operation: OperationName,
	doc: string | Uint8Array,
	limits?: Partial<XmlLimits>,
	bare = false,
): Run {
	const spec = OPERATIONS[operation].result;
	const element = bare ? OPERATIONS[operation].httpRoot : OPERATIONS[operation].soapResult;
	let reader: RecordReader | undefined;
	let resultEl: XmlElement | undefined;
	const stream = {
		depth: bare ? 1 : 4,
		start(el: XmlElement, parent: XmlElement | undefined) {
			if (el.local !== element || (!bare && parent?.local !== `${operation}Response`)) return undefined;
			resultEl = el;
			reader = new Reader(spec.record, spec.kind === 'list' ? spec.record : undefined, el.local);
			return reader;
		},
	};
	const fast = (): boolean => reader instanceof SpyReader && reader.fast;
	try {
		const root = parseXml(doc, limits, { stream });
		// Elements after the result must still be parsed as before (siblings, end tags).
		const children = bare ? root.children.length : (root.children[0]?.children[0]?.children.length ?? -1);
		const value = reader === undefined ? 'no result' : reader.result();
		return { outcome: { value, rootText: resultEl?.text ?? '', children }, fast: fast() };
	} catch (error) {
		const e = error as Error & { code?: string };
		return { outcome: { error: `${e.name} ${e.code ?? ''} ${e.message}` }, fast: fast() };
	}
}

/** Asserts that the fast reader and the RecordReader agree on `doc`; returns whether the fast path was taken. */
function agree(operation: OperationName, doc: string | Uint8Array, limits?: Partial<XmlLimits>, bare = false): boolean {
	const fast = run(SpyReader, operation, doc, limits, bare);
	const slow = run(RecordReader, operation, doc, limits, bare);
	assert.deepStrictEqual(fast.outcome, slow.outcome, typeof doc === 'string' ? doc.slice(0, 2000) : 'bytes');
	return fast.fast;
}

function sampleDoc(operation: OperationName, binding: 'soap11' | 'soap12' = 'soap11'): string {
	return Buffer.from(getBinding(binding).encodeResponse(operation, sampleResult(operation), CTX).body).toString(
		'utf8',
	);
}

/** A GetApplicationsPaged response whose ApplicationPaged content is `inner`; `envAttrs` go on the Envelope. */
function paged(inner: string, envAttrs = `xmlns:xsi="${XSI}"`, resultTag = 'ApplicationPaged'): string {
	const close = resultTag.split(/\s/)[0];
	return (
		`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENV}" ${envAttrs}><soap:Body>` +
		`<GetApplicationsPagedResponse xmlns="${NS}"><${resultTag}>${inner}</${close}></GetApplicationsPagedResponse></soap:Body></soap:Envelope>`
	);
}

const APP =
	'<APIApplication><AdvertCandidateID>5</AdvertCandidateID><LastName>O&apos;Brien &amp; Sons</LastName><Viewed>true</Viewed>' +
	'<ApplicationDate>2026-03-01T10:15:30</ApplicationDate><EmailBody xsi:nil="true" /></APIApplication>';

describe('fast record path (readSubtree)', () => {
	it("reads every operation's sample result exactly as the streamed RecordReader, string and bytes input", () => {
		for (const binding of ['soap11', 'soap12'] as const) {
			for (const operation of OPERATION_NAMES) {
				const doc = sampleDoc(operation, binding);
				assert.ok(agree(operation, doc), `${binding} ${operation}: fast path taken`);
				assert.ok(
					agree(operation, new Uint8Array(Buffer.from(doc, 'utf8'))),
					`${binding} ${operation} (bytes)`,
				);
			}
		}
	});

	it('reads a result that is the document root (HTTP bindings), with what follows the root checked as before', () => {
		const root = `<ApplicationPaged xmlns="${NS}" xmlns:xsi="${XSI}"><PageCount>1</PageCount><Applications>${APP}</Applications></ApplicationPaged>`;
		assert.ok(agree('GetApplicationsPaged', `<?xml version="1.0"?>${root}`, undefined, true));
		for (const tail of [
			'',
			'\n',
			'<!-- c -->',
			'<?pi x?>',
			' text',
			'<x/>',
			'<ApplicationPaged/>',
			'</ApplicationPaged>',
			'&amp;',
			'<![CDATA[x]]>',
		]) {
			agree('GetApplicationsPaged', root + tail, undefined, true);
		}
		for (const operation of OPERATION_NAMES) {
			const body = getBinding('httpPost').encodeResponse(operation, sampleResult(operation), CTX).body;
			const fastTaken = agree(operation, body, undefined, true);
			const decoded = getBinding('httpPost').decodeResponse(
				operation,
				{ status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' }, body },
				CTX,
			);
			assert.ok(decoded.ok);
			assert.deepEqual(decoded.result, sampleResult(operation), operation);
			assert.ok(fastTaken, `${operation}: fast path taken`);
		}
	});

	it('is what decodeResponse uses, with the sample values round-tripping', () => {
		for (const operation of OPERATION_NAMES) {
			const body = getBinding('soap11').encodeResponse(operation, sampleResult(operation), CTX).body;
			const decoded = getBinding('soap11').decodeResponse(
				operation,
				{ status: 200, headers: { 'content-type': 'text/xml' }, body },
				CTX,
			);
			assert.ok(decoded.ok);
			assert.deepEqual(decoded.result, sampleResult(operation), operation);
		}
	});

	it('reads a plain paged response on the fast path', () => {
		const doc = paged(`<PageCount>1</PageCount><Applications>${APP}${APP}</Applications>`);
		assert.ok(agree('GetApplicationsPaged', doc));
		const outcome = run(SpyReader, 'GetApplicationsPaged', doc).outcome;
		assert.ok('value' in outcome);
		assert.deepEqual((outcome.value as { Applications: unknown[] }).Applications[1], {
			AdvertCandidateID: 5,
			LastName: "O'Brien & Sons",
			Viewed: true,
			ApplicationDate: '2026-03-01T10:15:30',
		});
	});

	it('makes records that are plain objects with only the fields read, in document order, on both paths', () => {
		const doc = paged(`<PageCount>1</PageCount><Applications>${APP}${APP}</Applications>`);
		for (const Reader of [SpyReader, RecordReader]) {
			const outcome = run(Reader, 'GetApplicationsPaged', doc).outcome;
			assert.ok('value' in outcome);
			const page = outcome.value as { Applications: Record<string, unknown>[] };
			for (const record of [page as unknown as Record<string, unknown>, ...page.Applications]) {
				assert.equal(Object.getPrototypeOf(record), Object.prototype);
				assert.equal(record.constructor, Object);
				assert.equal(String(record), '[object Object]');
			}
			const app = page.Applications[1];
			assert.deepEqual(Object.keys(app), ['AdvertCandidateID', 'LastName', 'Viewed', 'ApplicationDate']);
			assert.equal('EmailBody' in app, false);
			assert.equal('MobilePhone' in app, false);
			assert.deepEqual(JSON.parse(JSON.stringify(page)), page);
			assert.deepEqual({ ...app }, app);
		}
	});

	it('resolves prefixes rather than comparing them: other prefixes for the same namespaces read the same', () => {
		const plain = paged(`<PageCount>1</PageCount><Applications>${APP}</Applications>`);
		const prefixed =
			`<?xml version="1.0"?><e:Envelope xmlns:e="${ENV}" xmlns:i="${XSI}" xmlns:p="${NS}"><e:Body><p:GetApplicationsPagedResponse>` +
			'<p:ApplicationPaged><p:PageCount>1</p:PageCount><p:Applications><p:APIApplication><p:AdvertCandidateID>5</p:AdvertCandidateID>' +
			'<p:LastName>O&apos;Brien &amp; Sons</p:LastName><p:Viewed>true</p:Viewed><p:ApplicationDate>2026-03-01T10:15:30</p:ApplicationDate>' +
			'<p:EmailBody i:nil="true" /></p:APIApplication></p:Applications></p:ApplicationPaged></p:GetApplicationsPagedResponse></e:Body></e:Envelope>';
		assert.ok(agree('GetApplicationsPaged', prefixed));
		assert.deepEqual(
			run(SpyReader, 'GetApplicationsPaged', prefixed).outcome,
			run(SpyReader, 'GetApplicationsPaged', plain).outcome,
		);
	});

	it('agrees on xsi:nil written with any prefix, value or namespace', () => {
		const cases = [
			'<Score xsi:nil="true" />',
			'<Score xsi:nil="1"/>',
			'<Score xsi:nil="false">3</Score>',
			'<Score xsi:nil="0">3</Score>',
			'<Score nil="true">3</Score>',
			'<Score q:nil="true" />',
			'<Score other:nil="true">4</Score>',
			'<Score xsi:nil="true" q:nil="true" />',
			'<Score xsi:nil="true" xsi:nil="true" />',
			"<Score xsi:nil = 'true' />",
			'<Score xsi:nil="true"/>',
			'<Score unbound:nil="true" />',
			'<Score xsi:nil="tr&#117;e" />',
			'<Score xsi:nil="true\t" />',
			'<Score xsi:nil="true"x="1" />',
			'<Score xsi:nil="true" / >',
			'<Score xmlns:z="urn:z" z:nil="true">2</Score>',
			'<Score xsi:nil="true" xml:lang="en" />',
			'<Score :nil="true" />',
			'<Score xsi:="true" />',
		];
		const envAttrs = `xmlns:xsi="${XSI}" xmlns:q="${XSI}" xmlns:other="urn:other"`;
		const fastTaken = cases.map((c) =>
			agree(
				'GetApplicationsPaged',
				paged(`<Applications><APIApplication>${c}</APIApplication></Applications>`, envAttrs),
			),
		);
		assert.deepEqual(fastTaken.slice(0, 6), [true, true, true, true, true, true]);
	});

	it('agrees on default namespace redeclarations, declarations and unbound prefixes inside the result', () => {
		const cases = [
			'<Applications xmlns="urn:other"><APIApplication><Score>1</Score></APIApplication></Applications>',
			'<Applications xmlns=""><APIApplication><Score>1</Score></APIApplication></Applications>',
			'<a:Applications xmlns:a="urn:a"><a:APIApplication><a:Score>1</a:Score></a:APIApplication></a:Applications>',
			'<u:PageCount>1</u:PageCount>',
			'<PageCount u:x="1">1</PageCount>',
			'<xmlns:PageCount>1</xmlns:PageCount>',
			'<xml:PageCount>1</xml:PageCount>',
			'<PageCount xmlns:xml="urn:wrong">1</PageCount>',
			'<a:b:PageCount>1</a:b:PageCount>',
			'<PageCount xmlns:p="">1</PageCount>',
		];
		for (const c of cases) agree('GetApplicationsPaged', paged(c));
		agree(
			'GetApplicationsPaged',
			paged('<PageCount>2</PageCount>', `xmlns:xsi="${XSI}"`, 'ApplicationPaged xmlns="urn:elsewhere"'),
		);
	});

	it('agrees on entities, character references, CDATA, comments and whitespace in text', () => {
		const texts = [
			'a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;',
			'&#65;&#x42;&#x1F600;&#128512;',
			'&#xD;&#13;&#10;&#9;',
			'x&#0;',
			'&#xD800;',
			'&#x110000;',
			'&#;',
			'&#x;',
			'&#65',
			'&amp',
			'&foo;',
			'& ',
			'&#99999999999999999999;',
			'a]]>b',
			'a]]b',
			'<![CDATA[<not markup> & ]]]]><![CDATA[>]]>',
			'<![CDATA[x\r\ny\rz]]>',
			'a\r\nb\rc\n\rd',
			' <!-- c --> x <!-- -- --> ',
			'x<!---->y',
			'x<!--->y',
			'x<?pi data?>y',
			'x<!DOCTYPE y>',
			'x<!DOCTYPE y><![CDATA[z]]>',
			'x<!-x-><![CDATA[z]]>',
			'x<![CDATA[y',
			'Zoë 😀 日本',
			'\u00a0\u2028',
			'\t\n ',
			'',
			'x<b>child</b>y',
			'x<b>child</b>&amp;<c/>z',
		];
		for (const t of texts) {
			agree(
				'GetApplicationsPaged',
				paged(`<Applications><APIApplication><LastName>${t}</LastName></APIApplication></Applications>`),
			);
			agree('GetApplicationsPaged', paged(`${t}<PageCount>1</PageCount>${t}`));
			agree(
				'GetApplicationsPaged',
				paged(`<Applications>${t}<APIApplication>${t}<Score>2</Score></APIApplication>${t}</Applications>`),
			);
		}
		const pretty = paged(
			'\r\n  <PageCount>\r\n1\r\n</PageCount>\r\n  <Applications>\r\n    <APIApplication>\r\n      <LastName>a\r\nb</LastName>\r\n    </APIApplication>\r\n  </Applications>\r\n',
		);
		assert.ok(agree('GetApplicationsPaged', pretty));
	});

	it('agrees on non-ASCII and astral characters in names and text, and invalid characters anywhere', () => {
		for (const inner of [
			'<Ünknown>x</Ünknown><PageCount>1</PageCount>',
			'<𐀀x>1</𐀀x>',
			'<LastName_😀>x</LastName_😀>',
			'<Applications><APIApplication><LastName>😀\ud83d</LastName></APIApplication></Applications>',
			'<PageCount>1</PageCount>\u0001',
			'<PageCount>1\uffff</PageCount>',
			'<PageCount>1</PageCount><X>\u0008</X>',
		]) {
			agree('GetApplicationsPaged', paged(inner));
		}
	});

	it('reads a non-ASCII document without decoding it, when the result holds every non-ASCII byte', () => {
		const bytes = (doc: string): Uint8Array => new Uint8Array(Buffer.from(doc, 'utf8'));
		const texts = [
			'é',
			'Zoë Ångström',
			'日本語',
			'😀 astral',
			'a&amp;é&#233;&#x1F600;',
			'é\r\nü\rx',
			'<![CDATA[ü<&]]>é',
		];
		for (const t of texts) {
			const inner = `<PageCount>1</PageCount><Applications><APIApplication><LastName>${t}</LastName><FirstName>x${t}</FirstName></APIApplication></Applications>`;
			assert.ok(agree('GetApplicationsPaged', bytes(paged(inner))), `fast path for ${t}`);
			const outcome = run(SpyReader, 'GetApplicationsPaged', bytes(paged(inner))).outcome;
			const expected = run(SpyReader, 'GetApplicationsPaged', paged(inner)).outcome;
			assert.deepEqual(outcome, expected, t);
			// A non-ASCII attribute value and root text.
			const withAttr = paged(
				`é<Applications><APIApplication><EmailBody FileName="cv-${t.replace(/[<&]/g, '')}.pdf" DocumentType="Émail"><Document>${t}</Document></EmailBody></APIApplication></Applications>`,
			);
			assert.ok(agree('GetApplicationsPaged', bytes(withAttr)), `attribute ${t}`);
		}
	});

	it('parses the decoded text instead when a non-ASCII byte is outside the result or in a name, with the same outcome', () => {
		const bytes = (doc: string): Uint8Array => new Uint8Array(Buffer.from(doc, 'utf8'));
		const app = '<Applications><APIApplication><LastName>é</LastName></APIApplication></Applications>';
		const docs = [
			// Before the result (a comment in the envelope), after it, and a UTF-8 BOM.
			paged(app).replace('<soap:Body>', '<soap:Body><!-- ü -->'),
			paged(app).replace('</soap:Body>', '<!-- ü --></soap:Body>'),
			`\ufeff${paged(app)}`,
			// A non-ASCII element or attribute name inside the result.
			paged(`${app}<Ünknown>1</Ünknown>`),
			// U+00F7 is no name character, but its bytes read as latin1 ('Ã·') would be.
			paged(`${app}<x÷>1</x÷>`),
			paged(`<Applications><APIApplication x÷="1"><LastName>é</LastName></APIApplication></Applications>`),
			paged(`<Applications><APIApplication é="1"><LastName>é</LastName></APIApplication></Applications>`),
			// Not characters of XML, invalid UTF-8 and a malformed result.
			paged(`<Applications><APIApplication><LastName>\ufffe</LastName></APIApplication></Applications>`),
			paged(`<Applications><APIApplication><LastName>é</LastName></APIApplication></Applications`),
		];
		for (const doc of docs) {
			agree('GetApplicationsPaged', bytes(doc));
			assert.deepEqual(
				run(SpyReader, 'GetApplicationsPaged', bytes(doc)).outcome,
				run(SpyReader, 'GetApplicationsPaged', doc).outcome,
				doc,
			);
		}
		const invalid = Buffer.concat([Buffer.from(paged(app).slice(0, 300)), Buffer.from([0xc3, 0x28])]);
		agree('GetApplicationsPaged', new Uint8Array(invalid));
	});

	it('gives an element after a result read without decoding its column in UTF-16 code units', () => {
		const doc =
			`<?xml version="1.0"?><soap:Envelope xmlns:soap="${ENV}"><soap:Body><GetApplicationsPagedResponse xmlns="${NS}">` +
			'<ApplicationPaged><Applications><APIApplication><LastName>é😀\nx日本</LastName></APIApplication></Applications></ApplicationPaged><After/>' +
			'</GetApplicationsPagedResponse></soap:Body></soap:Envelope>';
		const after = (input: string | Uint8Array): XmlElement => {
			let spy: SpyReader | undefined;
			const root = parseXml(input, undefined, {
				stream: {
					depth: 4,
					start(el: XmlElement) {
						if (el.local !== 'ApplicationPaged') return undefined;
						spy = new SpyReader('ApplicationPaged', undefined, el.local);
						return spy;
					},
				},
			});
			assert.ok(spy?.fast);
			return root.children[0].children[0].children[1];
		};
		const fromBytes = after(new Uint8Array(Buffer.from(doc, 'utf8')));
		const fromText = after(doc);
		assert.equal(fromBytes.name, 'After');
		assert.deepEqual([fromBytes.line, fromBytes.column], [fromText.line, fromText.column]);
		assert.deepEqual(
			[fromText.line, fromText.column],
			[2, 'x日本</LastName></APIApplication></Applications></ApplicationPaged>'.length + 1],
		);
	});

	it('agrees on values that do not fit their types, and keeps the first one', () => {
		for (const inner of [
			'<PageCount>x</PageCount>',
			'<PageCount />',
			'<PageCount> 7 </PageCount>',
			'<PageCount>+7</PageCount>',
			'<PageCount>99999999999</PageCount>',
			'<Applications><APIApplication><Viewed>yes</Viewed></APIApplication><APIApplication><Score>z</Score></APIApplication></Applications>',
			'<Applications><APIApplication><ApplicationDate>2026-02-30T00:00:00</ApplicationDate></APIApplication></Applications>',
			'<Applications><APIApplication><ApplicationDate>2026-02-28T24:00:00</ApplicationDate></APIApplication></Applications>',
			'<PageCount>1</PageCount><PageCount>2</PageCount>',
			'<Applications/><Applications><APIApplication/></Applications>',
		]) {
			agree('GetApplicationsPaged', paged(inner));
		}
	});

	it('reads integers and booleans from their text exactly as decodeScalar (int, short, boolean)', () => {
		const ints = [
			'0',
			'-0',
			'007',
			'1',
			'-1',
			'32767',
			'32768',
			'-32768',
			'-32769',
			'999999999',
			'1234567890',
			'2147483647',
			'2147483648',
			'-2147483648',
			'+5',
			' 5',
			'5 ',
			'',
			'٣',
			'1e3',
			'0x10',
			'00000000000000000001',
			'&#49;2',
			'<![CDATA[12]]>',
			'1<!--c-->2',
			'1&#13;',
		];
		for (const v of ints) {
			agree('GetApplicationsPaged', paged(`<PageCount>${v}</PageCount>`));
			agree(
				'GetApplicationsPaged',
				paged(`<Applications><APIApplication><Score>${v}</Score></APIApplication></Applications>`),
			);
		}
		for (const v of ['true', 'false', '1', '0', 'True', ' true', 'false ', 'tru', 'falsey', '']) {
			agree(
				'GetApplicationsPaged',
				paged(`<Applications><APIApplication><Viewed>${v}</Viewed></APIApplication></Applications>`),
			);
		}
		const outcome = run(
			SpyReader,
			'GetApplicationsPaged',
			paged(
				'<PageCount>007</PageCount><Applications><APIApplication><Score>-0</Score><Viewed>false</Viewed></APIApplication></Applications>',
			),
		).outcome;
		assert.ok('value' in outcome);
		assert.ok(
			Object.is((outcome.value as { Applications: { Score: number }[] }).Applications[0].Score, 0),
			'-0 reads as 0',
		);
		assert.deepEqual(outcome.value, { PageCount: 7, Applications: [{ Score: 0, Viewed: false }] });
	});

	it('agrees on malformed markup and on every truncation of a response', () => {
		for (const inner of [
			'<PageCount>1</PageCount >',
			'<PageCount>1</PageCount',
			'<PageCount>1</pagecount>',
			'<PageCount>1</PageCountX>',
			'<PageCount>1</PageCount\t\n>',
			'<PageCount x="1" x="2">1</PageCount>',
			'<PageCount x="1"y="2">1</PageCount>',
			'<PageCount x=1>1</PageCount>',
			'<PageCount x="<">1</PageCount>',
			'<PageCount/ >',
			'< PageCount>1</PageCount>',
			'<1PageCount>1</1PageCount>',
			'</ApplicationPaged>',
			'<PageCount>1',
			'<!DOCTYPE x>',
			'<!-x->',
		]) {
			agree('GetApplicationsPaged', paged(inner));
		}
		const doc = paged(`<PageCount>1</PageCount><Applications>${APP}</Applications>`);
		for (let cut = doc.indexOf('<ApplicationPaged'); cut <= doc.length; cut++) {
			agree('GetApplicationsPaged', doc.slice(0, cut));
		}
	});

	it('applies the name length limit to entity names too', () => {
		const outcome = (Reader: typeof RecordReader, doc: string, maxNameLength: number): string => {
			const stream = { depth: 1, start: () => new Reader('APIApplication', undefined, 'a') };
			try {
				parseXml(doc, { maxNameLength }, { stream });
				return 'ok';
			} catch (error) {
				return (error as Error).message;
			}
		};
		for (const text of ['&quot;', '&apos;', '&amp;', '&lt;', '&#34;']) {
			for (const max of [2, 3, 4]) {
				const doc = `<a><b>x${text}y</b></a>`;
				assert.equal(
					outcome(FastRecordReader, doc, max),
					outcome(RecordReader, doc, max),
					`${text} with names up to ${max}`,
				);
			}
		}
		assert.match(outcome(FastRecordReader, '<a><b>&quot;</b></a>', 3), /XML limit exceeded/);
	});

	it('agrees on the limits: depth, elements, name length and attributes', () => {
		const doc = paged(`<PageCount>1</PageCount><Applications>${APP}${APP}</Applications>`);
		for (const limits of [
			{ maxDepth: 6 },
			{ maxDepth: 7 },
			{ maxDepth: 8 },
			{ maxElements: 12 },
			{ maxElements: 20 },
			{ maxElements: 21 },
			{ maxNameLength: 12 },
			{ maxNameLength: 17 },
			{ maxAttributes: 0 },
			{ maxAttributes: 3 },
		]) {
			agree('GetApplicationsPaged', doc, limits);
		}
		agree('GetApplicationsPaged', paged(`<Applications>${'<a>'.repeat(120)}${'</a>'.repeat(120)}</Applications>`));
		// Limits that only the result's content reaches: the root is short and has two attributes.
		const bare = (inner: string): string =>
			`<ApplicationPaged xmlns="${NS}" xmlns:xsi="${XSI}">${inner}</ApplicationPaged>`;
		const cases: [string, Partial<XmlLimits>][] = [
			['<PageCount a="1" b="2">1</PageCount>', { maxAttributes: 2 }],
			['<PageCount a="1" b="2" c="3">1</PageCount>', { maxAttributes: 2 }],
			['<AVeryLongUnknownName>1</AVeryLongUnknownName>', { maxNameLength: 16 }],
			['<PageCount anAttributeLongerThan16="1">1</PageCount>', { maxNameLength: 16 }],
			['<PageCount short="1">1</PageCount>', { maxNameLength: 16 }],
		];
		for (const [inner, limits] of cases) agree('GetApplicationsPaged', bare(inner), limits, true);
		assert.ok(
			agree('GetApplicationsPaged', bare('<PageCount a="1" b="2">1</PageCount>'), { maxAttributes: 2 }, true),
			'two attributes are within the limit',
		);
		for (const count of [15, 16, 17, 40]) {
			const attrs = Array.from({ length: count }, (_, i) => ` a${i}="${i}"`).join('');
			assert.equal(
				agree('GetApplicationsPaged', paged(`<PageCount${attrs}>1</PageCount>`)),
				count <= 16,
				`${count} attributes`,
			);
			agree('GetApplicationsPaged', paged(`<PageCount${attrs} a3="x">1</PageCount>`));
		}
	});

	it('agrees with the RecordReader on randomly mutated responses, under random limits (property)', () => {
		const base = [
			paged(
				`<PageCount>1</PageCount><Applications>${APP}<APIApplication><EmailFirstAttachment FileName="cv.pdf" DocumentType="Attachment"><DocumentBytes>AAEC</DocumentBytes></EmailFirstAttachment></APIApplication></Applications>`,
				`xmlns:xsi="${XSI}" xmlns:q="${XSI}"`,
			),
			sampleDoc('GetApplicationsPaged'),
			sampleDoc('GetAdvertPaged'),
		];
		const pieces = [
			'<',
			'>',
			'/',
			'&',
			';',
			':',
			'"',
			"'",
			'=',
			' ',
			'\r',
			'\n',
			'\t',
			'!',
			'-',
			'[',
			']',
			'x',
			'q:',
			'xsi:nil="true"',
			' q:nil="1"',
			'&amp;',
			'&#65;',
			'&#xD;',
			'<!--c-->',
			'<![CDATA[a]]>',
			'<?p?>',
			'é',
			'😀',
			'\ud800',
			'<Score>',
			'</Score>',
			'<Score/>',
			'xmlns="urn:d"',
			'xmlns:q="urn:q"',
			'<x>',
			'</x>',
		];
		const operations: OperationName[] = ['GetApplicationsPaged', 'GetApplicationsPaged', 'GetAdvertPaged'];
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: base.length - 1 }),
				fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom(...pieces)), {
					minLength: 1,
					maxLength: 4,
				}),
				fc.boolean(),
				fc.option(
					fc.record(
						{
							maxNameLength: fc.integer({ min: 1, max: 24 }),
							maxDepth: fc.integer({ min: 4, max: 9 }),
							maxElements: fc.integer({ min: 5, max: 80 }),
							maxAttributes: fc.integer({ min: 0, max: 6 }),
						},
						{ requiredKeys: [] },
					),
				),
				(which, edits, asBytes, limits) => {
					let doc = base[which];
					const start = doc.indexOf('Response');
					for (const [at, removed, insert] of edits) {
						const p = start + (at % (doc.length - start));
						doc = doc.slice(0, p) + insert + doc.slice(p + removed);
					}
					agree(
						operations[which],
						asBytes ? new Uint8Array(Buffer.from(doc, 'utf8')) : doc,
						limits ?? undefined,
					);
				},
			),
			{ numRuns: 1500 },
		);
	});
});
