import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { getBinding, ProtocolError, type BindingName } from '../../../src/protocol/bindings';
import { readResult } from '../../../src/protocol/bindings/results';
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../../../src/protocol/catalogue';
import { decodeScalar } from '../../../src/protocol/codecs/scalars';
import { deferredTextBytes, parseXml, XmlError, type XmlElement } from '../../../src/protocol/codecs/xml';

import { sampleResult } from '../../builders/samples';

const CTX = { namespace: 'https://api.example.test/', endpointPath: '/SOAP/Posting.asmx' };
const DEFER = { deferLargeText: true };
const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));

/** Base64 of `n` pseudo-random bytes (no line breaks), and the bytes. */
function base64Of(n: number, seed = 7): { text: string; bytes: Uint8Array } {
	const bytes = new Uint8Array(n);
	let x = seed;
	for (let i = 0; i < n; i++) {
		x = (x * 1103515245 + 12345) >>> 0;
		bytes[i] = x >>> 24;
	}
	return { text: Buffer.from(bytes).toString('base64'), bytes };
}

/** Names, attributes, texts and positions of a tree, for comparing two parses. */
function shape(el: XmlElement): unknown {
	return {
		name: el.name,
		ns: el.ns,
		attrs: el.attrs.map((a) => [a.name, a.value]),
		text: el.text,
		line: el.line,
		column: el.column,
		children: el.children.map(shape),
	};
}

function find(el: XmlElement, local: string): XmlElement | undefined {
	if (el.local === local) return el;
	for (const c of el.children) {
		const hit = find(c, local);
		if (hit) return hit;
	}
	return undefined;
}

function errorOf(fn: () => unknown): XmlError {
	try {
		fn();
	} catch (error) {
		if (error instanceof XmlError) return error;
		throw error;
	}
	assert.fail('expected an XmlError');
}

const BIG = base64Of(120_000).text; // 160 000 characters, above the 64 KiB minimum

describe('parseXml deferLargeText', () => {
	it('leaves a long plain run undecoded and gives the same tree as the ordinary parse', () => {
		const doc = utf8(
			`<?xml version="1.0"?>\n<r xmlns="urn:x"><a k="v">small</a><Doc>${BIG}</Doc><b>after</b><c/></r>`,
		);
		const deferred = parseXml(doc, undefined, DEFER);
		const doc1 = find(deferred, 'Doc') as XmlElement;
		const raw = deferredTextBytes(doc1);
		assert.ok(raw, 'the run was deferred');
		assert.equal(Buffer.from(raw).toString('latin1'), BIG);
		assert.deepEqual(shape(deferred), shape(parseXml(doc)));
	});

	it('keeps the columns of elements after a run on the same line', () => {
		const doc = utf8(`<r><Doc>${BIG}</Doc><after/></r>`);
		const after = find(parseXml(doc, undefined, DEFER), 'after') as XmlElement;
		assert.equal(after.line, 1);
		assert.equal(after.column, '<r><Doc>'.length + BIG.length + '</Doc>'.length + 1);
	});

	it('does not defer without the option, for small documents, or for runs with &, CR or LF', () => {
		const plain = utf8(`<r><Doc>${BIG}</Doc></r>`);
		assert.equal(deferredTextBytes(find(parseXml(plain), 'Doc') as XmlElement), undefined);
		assert.equal(
			deferredTextBytes(
				find(parseXml(utf8(`<r><Doc>${BIG.slice(0, 1000)}</Doc></r>`), undefined, DEFER), 'Doc') as XmlElement,
			),
			undefined,
		);
		for (const [insert, expected] of [
			['&amp;', '&'],
			['\r\n', '\n'],
			['\n', '\n'],
		] as const) {
			const doc = utf8(`<r><Doc>${BIG.slice(0, 80_000)}${insert}${BIG.slice(80_000)}</Doc></r>`);
			const el = find(parseXml(doc, undefined, DEFER), 'Doc') as XmlElement;
			assert.equal(deferredTextBytes(el), undefined, JSON.stringify(insert));
			assert.equal(el.text, `${BIG.slice(0, 80_000)}${expected}${BIG.slice(80_000)}`);
		}
	});

	it('parses runs that are not whole element texts the ordinary way', () => {
		const cases = [
			`<r a="${BIG}"/>`, // inside an attribute value
			`<r><!--${BIG}--></r>`, // inside a comment
			`<r><![CDATA[${BIG}]]></r>`, // inside CDATA
			`<r><?pi ${BIG}?></r>`, // inside a processing instruction
			`<r><Doc>${BIG}<i/>tail</Doc></r>`, // mixed content
			`<r><Doc>x<i/>${BIG}</Doc></r>`, // mixed content, run second
			`<r><Doc a="1>2">${BIG}</Doc></r>`, // '>' inside the attributes before the run
		];
		for (const text of cases) {
			const doc = utf8(text);
			const tree = parseXml(doc, undefined, DEFER);
			assert.deepEqual(shape(tree), shape(parseXml(doc)), text.slice(0, 30));
		}
	});

	it('reports errors elsewhere exactly as the ordinary parse does', () => {
		for (const text of [
			`<r><Doc>${BIG}</Doc><b></r>`,
			`<r><Doc>${BIG}</Doc>\u0001</r>`,
			`<!DOCTYPE r><r><Doc>${BIG}</Doc></r>`,
			`<r><Doc>${BIG}</Doc></r><extra/>`,
		]) {
			const doc = utf8(text);
			const ordinary = errorOf(() => parseXml(doc));
			const deferred = errorOf(() => parseXml(doc, undefined, DEFER));
			assert.equal(deferred.message, ordinary.message);
			assert.equal(deferred.code, ordinary.code);
		}
	});

	it('checks a deferred run when its text is read', () => {
		for (const [bad, code] of [
			['\u0001', 'XML_MALFORMED'],
			[']]>', 'XML_MALFORMED'],
		] as const) {
			const doc = utf8(`<r><Doc>${BIG.slice(0, 70_000)}${bad}${BIG.slice(70_000)}</Doc></r>`);
			const el = find(parseXml(doc, undefined, DEFER), 'Doc') as XmlElement;
			assert.ok(deferredTextBytes(el));
			const error = errorOf(() => el.text);
			assert.equal(error.code, code);
			assert.match(error.message, /<Doc>/);
		}
		const invalidUtf8 = Buffer.concat([
			Buffer.from(`<r><Doc>${BIG.slice(0, 70_000)}`),
			Buffer.from([0xc3, 0x28]),
			Buffer.from(`${BIG.slice(70_000)}</Doc></r>`),
		]);
		const el = find(parseXml(new Uint8Array(invalidUtf8), undefined, DEFER), 'Doc') as XmlElement;
		assert.equal(errorOf(() => el.text).code, 'XML_ENCODING');
	});

	it('decodes a deferred text with non-ASCII characters as UTF-8', () => {
		const text = 'é€😀'.repeat(30_000);
		const el = find(parseXml(utf8(`<r><Doc>${text}</Doc></r>`), undefined, DEFER), 'Doc') as XmlElement;
		assert.equal(el.text, text);
	});
});

describe('attachments in responses (deferred base64)', () => {
	const bindings: BindingName[] = ['soap11', 'soap12', 'httpGet', 'httpPost'];

	function responseWith(binding: BindingName, bytes: Uint8Array): Uint8Array {
		const application = {
			AdvertCandidateID: 1,
			EmailFirstAttachment: { FileName: 'cv.pdf', DocumentType: 'Attachment', DocumentBytes: bytes },
		};
		return getBinding(binding).encodeResponse(
			'GetApplicationsPaged',
			{ PageCount: 1, PageIndex: 1, TotalItemCount: 1, Applications: [application] },
			CTX,
		).body;
	}

	function attachmentOf(binding: BindingName, body: Uint8Array): unknown {
		const type = binding.startsWith('soap12') ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8';
		const decoded = getBinding(binding).decodeResponse(
			'GetApplicationsPaged',
			{ status: 200, headers: { 'content-type': type }, body },
			CTX,
		);
		assert.ok(decoded.ok);
		const result = decoded.result as { Applications: { EmailFirstAttachment: { DocumentBytes: unknown } }[] };
		return result.Applications[0].EmailFirstAttachment.DocumentBytes;
	}

	/**
	 * A base64 text decoded by the strict scalar codec and, in a SOAP 1.1 response, by the deferred fast
	 * path; undefined where either refuses it (the fast path refuses with a ProtocolError only).
	 */
	function strictAndFast(text: string): { strict: Uint8Array | undefined; fast: unknown } {
		let strict: Uint8Array | undefined;
		try {
			strict = decodeScalar('base64Binary', text) as Uint8Array;
		} catch {
			strict = undefined;
		}
		const xml = Buffer.from(responseWith('soap11', new Uint8Array(0)))
			.toString('utf8')
			.replace('<DocumentBytes />', `<DocumentBytes>${text}</DocumentBytes>`)
			.replace('<DocumentBytes></DocumentBytes>', `<DocumentBytes>${text}</DocumentBytes>`);
		assert.ok(xml.includes(text), 'the test document holds the text');
		let fast: unknown;
		try {
			fast = attachmentOf('soap11', utf8(xml));
		} catch (error) {
			assert.ok(error instanceof ProtocolError);
			fast = undefined;
		}
		return { strict, fast };
	}

	for (const binding of bindings) {
		it(`${binding}: a large attachment decodes to its exact bytes`, () => {
			const { bytes } = base64Of(300_001);
			const got = attachmentOf(binding, responseWith(binding, bytes));
			assert.ok(got instanceof Uint8Array);
			assert.equal(Buffer.compare(Buffer.from(got), Buffer.from(bytes)), 0);
		});
	}

	it('refuses a large attachment that is not base64, with a protocol error', () => {
		const body = Buffer.from(responseWith('soap11', base64Of(90_000).bytes)).toString('latin1');
		const start = body.indexOf('<DocumentBytes>') + '<DocumentBytes>'.length;
		for (const [bad, reason] of [
			['*', 'INVALID_VALUE'],
			['-', 'INVALID_VALUE'],
			['\u0001', 'XML_MALFORMED'],
		] as const) {
			const broken = new Uint8Array(
				Buffer.from(body.slice(0, start + 100) + bad + body.slice(start + 101), 'latin1'),
			);
			assert.throws(
				() => attachmentOf('soap11', broken),
				(error: unknown) => error instanceof ProtocolError && error.reason === reason,
				JSON.stringify(bad),
			);
		}
	});

	it('accepts exactly the base64 the strict codec accepts (property)', () => {
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
		const char = fc.oneof(
			{ weight: 8, arbitrary: fc.constantFrom(...alphabet) },
			{ weight: 1, arbitrary: fc.constantFrom('=', '-', '_', '*', '.', '\u00e9') },
		);
		const filler = 'QUJD'.repeat(20_000); // keeps the run above the deferral minimum
		fc.assert(
			fc.property(
				fc.array(char, { maxLength: 12 }).map((cs) => cs.join('')),
				(tail) => {
					const { strict, fast } = strictAndFast(filler + tail);
					if (strict === undefined) assert.equal(fast, undefined);
					else assert.equal(Buffer.compare(Buffer.from(fast as Uint8Array), Buffer.from(strict)), 0);
				},
			),
			{ numRuns: 300 },
		);
	});

	it('accepts exactly the base64 the strict codec accepts anywhere in a long run, across 64 KiB boundaries (property)', () => {
		// A run of 200,000 characters is decoded 64 KiB at a time: the random piece lands on or near a cut.
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
		const char = fc.oneof(
			{ weight: 6, arbitrary: fc.constantFrom(...alphabet) },
			{ weight: 1, arbitrary: fc.constantFrom('=', '-', '_', '*', ' ', '\t', '\u00e9', '\u20ac') },
		);
		const filler = 'QUJD'.repeat(50_000);
		fc.assert(
			fc.property(
				fc.constantFrom(0, 65_530, 65_536, 131_069, 196_604, 199_996),
				fc.array(char, { minLength: 1, maxLength: 10 }).map((cs) => cs.join('')),
				fc.constantFrom('', '=', '=='),
				(offset, piece, end) => {
					const text =
						(filler.slice(0, offset) + piece + filler.slice(offset + piece.length)).slice(
							0,
							filler.length - end.length,
						) + end;
					const { strict, fast } = strictAndFast(text);
					if (strict === undefined) assert.equal(fast, undefined, JSON.stringify([offset, piece, end]));
					else {
						assert.ok(fast instanceof Uint8Array, JSON.stringify([offset, piece, end]));
						assert.equal(fast.byteOffset, 0);
						assert.equal(fast.buffer.byteLength, fast.length, 'the bytes own their memory');
						assert.equal(Buffer.compare(Buffer.from(fast), Buffer.from(strict)), 0);
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe('results read while parsing (streamed)', () => {
	const bindings: BindingName[] = ['soap11', 'soap12', 'httpGet', 'httpPost'];

	/** The result as the tree reader reads it: parse without streaming, then readResult. */
	function treeRead(binding: BindingName, operation: OperationName, body: Uint8Array): unknown {
		const root = parseXml(body);
		if (binding === 'httpGet' || binding === 'httpPost') return readResult(operation, root);
		const response = root.children.find((c) => c.local === 'Body')?.children[0] as XmlElement;
		const result = response.children.find((c) => c.local === OPERATIONS[operation].soapResult);
		return result === undefined ? undefined : readResult(operation, result);
	}

	for (const binding of bindings) {
		it(`${binding}: every operation's sample result reads the same streamed as from the tree`, () => {
			const type = binding === 'soap12' ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8';
			for (const operation of OPERATION_NAMES) {
				const sample = sampleResult(operation);
				const body = getBinding(binding).encodeResponse(operation, sample, CTX).body;
				const decoded = getBinding(binding).decodeResponse(
					operation,
					{ status: 200, headers: { 'content-type': type }, body },
					CTX,
				);
				assert.ok(decoded.ok, operation);
				assert.deepEqual(decoded.result, treeRead(binding, operation, body), `${binding} ${operation}`);
				assert.deepEqual(decoded.result, sample, `${binding} ${operation} round trip`);
			}
		});
	}

	it('skips unknown and nil elements, reads nested lists, and keeps the first bad value as a protocol error', () => {
		const xml = (inner: string): Uint8Array =>
			utf8(
				`<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Body>` +
					`<GetApplicationsPagedResponse xmlns="${CTX.namespace}"><ApplicationPaged>${inner}</ApplicationPaged></GetApplicationsPagedResponse></soap:Body></soap:Envelope>`,
			);
		const decode = (body: Uint8Array): unknown => {
			const decoded = getBinding('soap11').decodeResponse(
				'GetApplicationsPaged',
				{ status: 200, headers: { 'content-type': 'text/xml' }, body },
				CTX,
			);
			assert.ok(decoded.ok);
			return decoded.result;
		};
		const good = xml(
			'<PageCount>1</PageCount><Future><PageIndex>9</PageIndex></Future><PageIndex xsi:nil="true"/>' +
				'<Applications><APIApplication><AdvertCandidateID>5</AdvertCandidateID><Unknown>x</Unknown></APIApplication><Other/><APIApplication xsi:nil="true"/>' +
				'<APIApplication><AdvertCandidateID>6<b>ignored child</b></AdvertCandidateID></APIApplication></Applications>',
		);
		assert.deepEqual(decode(good), {
			PageCount: 1,
			Applications: [{ AdvertCandidateID: 5 }, { AdvertCandidateID: 6 }],
		});
		const bad = xml(
			'<PageCount>1</PageCount><Applications><APIApplication><AdvertCandidateID>5</AdvertCandidateID></APIApplication>' +
				'<APIApplication><AdvertCandidateID>six</AdvertCandidateID></APIApplication><APIApplication><AdvertCandidateID>x7</AdvertCandidateID></APIApplication></Applications>',
		);
		assert.throws(
			() => decode(bad),
			(error: unknown) =>
				error instanceof ProtocolError &&
				error.reason === 'INVALID_VALUE' &&
				/Applications\[1\]\.AdvertCandidateID/.test(error.message),
		);
		const notWellFormed = xml(
			'<PageCount>1</PageCount><Applications><APIApplication><AdvertCandidateID>six</AdvertCandidateID></APIApplication></Applications><Broken>',
		);
		assert.throws(
			() => decode(notWellFormed),
			(error: unknown) => error instanceof ProtocolError && error.reason === 'XML_MALFORMED',
		);
	});

	it('streams only the result element inside its response element', () => {
		let started = 0;
		const stream = {
			depth: 2,
			start: (el: XmlElement) => {
				if (el.local !== 'Result') return undefined;
				started++;
				const events: string[] = [];
				return {
					open: (e: XmlElement) => events.push(`+${e.local}`),
					close: (e: XmlElement) => events.push(`-${e.local}:${e.text}`),
					events,
				};
			},
		};
		const root = parseXml(
			'<r><Other><Result>no</Result></Other><Result><a>1</a><b><c>2</c></b></Result><Result/></r>',
			undefined,
			{ stream },
		);
		assert.equal(started, 1, 'only the first Result at depth 2 is streamed');
		const streamedEl = root.children[1];
		assert.equal(streamedEl.local, 'Result');
		assert.equal(streamedEl.children.length, 0, 'streamed descendants are not linked');
		assert.equal(root.children[0].children[0].text, 'no');
		assert.equal(root.children[2].local, 'Result');
	});
});
