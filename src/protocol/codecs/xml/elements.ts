/**
 * Elements: the parser's main loop, start tags with their attributes, end tags, the tree it builds,
 * and the hand-over of a subtree to a stream. Text, namespaces and the prolog have modules of their own.
 */
import {
	CH_AMP,
	CH_BANG,
	CH_CR,
	CH_DQUOTE,
	CH_EQ,
	CH_GT,
	CH_LF,
	CH_LT,
	CH_QUESTION,
	CH_SLASH,
	CH_SQUOTE,
	CH_TAB,
	CH_X,
} from '../chars';
import { keepShape } from '../keepShape';
import { firstInvalidChar, isWs, scanName } from './characters';
import { clip, describeAt, failAt, failBadChar, type ParseInput, type XmlErrorCode } from './errors';
import {
	deferText,
	DEFERRAL_ABANDONED,
	DEFERRED_MARK,
	LATIN1_ABANDONED,
	type DeferredRuns,
	type Latin1Source,
} from './input';
import {
	DEFAULT_XML_LIMITS,
	type ElementStream,
	type XmlAttribute,
	type XmlElement,
	type XmlLimits,
	type XmlParseOptions,
} from './model';
import { lookupBoundNs, NamespaceScope, type ParserSubtreeSource } from './namespaces';
import { checkOutsideText, hasXmlDecl, isDtdMarkup, skipMisc, xmlDecl } from './prolog';
import { CharacterData } from './text';

/** Sentinel for "no attribute yet" while scanning a start tag (never handed out). */
const EMPTY_ATTRS: XmlAttribute[] = Object.freeze([]) as unknown as XmlAttribute[];
/** Shared by every element without attributes or children: most elements are leaves, and two fresh arrays each is most of the garbage. */
const NO_ATTRS: XmlAttribute[] = Object.freeze([]) as unknown as XmlAttribute[];
const NO_CHILDREN: XmlElement[] = Object.freeze([]) as unknown as XmlElement[];

/** Parses one document (a parser lives for one parse). */
export class Parser implements ParseInput {
	readonly s: string;
	readonly lim: XmlLimits;
	readonly firstBad: number;
	private readonly n: number;

	// Line tracking for element positions (monotonic).
	private line = 1;
	private lineStart = 0;
	private nextNl: number;

	private readonly text: CharacterData;
	private readonly ns: NamespaceScope;

	// The open elements, innermost last, each with the namespace mark to undo when it closes.
	private readonly stack: XmlElement[] = [];
	private readonly nsMark: number[] = [];
	private root: XmlElement | undefined;

	private elementCount = 0;
	/** Names seen so far, by a hash of length and a few characters: repeated names are not sliced again. */
	private readonly names: (string | undefined)[] = new Array<string | undefined>(4096);
	/** Offsets of the current start tag's attributes, for error positions. */
	private readonly attrPos: number[] = [];
	// What attributes() read of the current start tag besides its end.
	private tagAttrs: XmlAttribute[] = EMPTY_ATTRS;
	private tagSelfClosing = false;
	private tagHasXmlns = false;

	// Deferred text (see parseXml's deferLargeText): where each cut-out run stood in `s`, its bytes,
	// and the elements that received one, in order.
	private readonly holes: DeferredRuns | undefined;
	private holeIndex = 0;
	private nextHole = Infinity;
	/** Code units cut out of the current line so far, so columns after a hole stay true. */
	private lineShift = 0;
	readonly deferred: [XmlElement, Uint8Array][] = [];

	// Streaming (see XmlParseOptions.stream): elements deeper than streamDepth go to `stream` only.
	private streamOption: XmlParseOptions['stream'];
	private stream: ElementStream | undefined;
	private streamDepth = Infinity;
	/** Streamed elements are done with once closed: one object per depth is reused. */
	private readonly pool: (XmlElement | undefined)[] = [];
	/** Set when `s` is the document's bytes read as latin1 (see parseAsLatin1). */
	private readonly latin1: Latin1Source | undefined;

	constructor(
		s: string,
		lim: XmlLimits,
		checkSurrogates: boolean,
		holes?: DeferredRuns,
		streamOption?: XmlParseOptions['stream'],
		latin1?: Latin1Source,
	) {
		this.s = s;
		this.latin1 = latin1;
		this.n = s.length;
		this.lim = lim;
		this.firstBad = firstInvalidChar(s, checkSurrogates);
		this.text = new CharacterData(this);
		this.ns = new NamespaceScope(this);
		this.nextNl = s.indexOf('\n');
		this.holes = holes;
		if (holes !== undefined && holes.at.length > 0) this.nextHole = holes.at[0];
		this.streamOption = streamOption;
	}

	parse(): XmlElement {
		const s = this.s;
		const n = this.n;
		const stack = this.stack;
		let pos = hasXmlDecl(s) ? xmlDecl(this) : 0;
		while (pos < n) {
			const lt = s.indexOf('<', pos);
			if (lt >= this.nextHole || (lt < 0 && this.nextHole !== Infinity)) {
				// A cut-out run must sit right where its element's content starts; else parse normally.
				if (lt !== this.nextHole || pos !== lt || stack.length === 0) throw DEFERRAL_ABANDONED;
				this.takeHole(stack[stack.length - 1], lt);
			}
			const end = lt < 0 ? n : lt;
			if (end > pos) {
				const depth = stack.length;
				if (depth === 0) checkOutsideText(this, pos, end, this.root !== undefined);
				else this.text.addText(pos, end, stack[depth - 1], depth);
			}
			if (lt < 0) break;
			const c = s.charCodeAt(lt + 1);
			if (c === CH_SLASH) pos = this.endTag(lt);
			else if (c === CH_BANG) pos = this.markup(lt);
			else if (c === CH_QUESTION) pos = skipMisc(this, lt);
			else pos = this.element(lt);
		}
		return this.end();
	}

	/** The checks at the end of the document; returns its root. */
	private end(): XmlElement {
		const stack = this.stack;
		if (stack.length > 0) {
			const open = stack[stack.length - 1];
			this.fail(
				'XML_MALFORMED',
				`unexpected end of input: <${open.name}> opened at line ${open.line}, column ${open.column} is not closed`,
				this.n,
			);
		}
		const root = this.root;
		if (root === undefined) return this.fail('XML_MALFORMED', 'no root element', this.n);
		if (this.firstBad >= 0) failBadChar(this);
		if (this.holes !== undefined && this.holeIndex !== this.holes.at.length) throw DEFERRAL_ABANDONED;
		if (this.latin1 !== undefined && !this.latin1.covered) throw LATIN1_ABANDONED;
		return root;
	}

	/** The end tag at `lt` ('</'): closes the innermost element; returns the offset after it. */
	private endTag(lt: number): number {
		const s = this.s;
		const stack = this.stack;
		const top = stack.length > 0 ? stack[stack.length - 1] : undefined;
		const nameStart = lt + 2;
		let nameEnd = -1;
		if (top !== undefined && s.startsWith(top.name, nameStart)) {
			const after = s.charCodeAt(nameStart + top.name.length);
			if (after === CH_GT || isWs(after)) nameEnd = nameStart + top.name.length;
		}
		if (top === undefined || nameEnd === -1) {
			const end = scanName(s, nameStart);
			const found = end > nameStart ? `</${clip(s.slice(nameStart, end))}>` : describeAt(s, nameStart);
			return this.fail(
				'XML_MALFORMED',
				top === undefined ? `unexpected end tag ${found}` : `expected </${top.name}> but found ${found}`,
				lt,
			);
		}
		let q = nameEnd;
		while (isWs(s.charCodeAt(q))) q++;
		if (s.charCodeAt(q) !== CH_GT) {
			this.fail('XML_MALFORMED', `expected '>' to end </${top.name}> but found ${describeAt(s, q)}`, q);
		}
		const depth = stack.length;
		this.text.closeText(top, depth);
		if (depth >= this.streamDepth) this.closeStreamed(top, depth);
		stack.pop();
		this.ns.undeclare(this.nsMark.pop() as number);
		return q + 1;
	}

	/** The markup at `lt` that starts '<!': a comment, a CDATA section, or refused DTD markup. */
	private markup(lt: number): number {
		const s = this.s;
		const stack = this.stack;
		if (s.startsWith('--', lt + 2)) return skipMisc(this, lt);
		if (s.startsWith('[CDATA[', lt + 2)) {
			if (stack.length === 0) this.fail('XML_MALFORMED', 'CDATA section outside the root element', lt);
			const e = s.indexOf(']]>', lt + 9);
			if (e < 0) this.fail('XML_MALFORMED', 'unterminated CDATA section', lt);
			if (e > lt + 9) this.text.addCdata(lt + 9, e, stack[stack.length - 1], stack.length);
			return e + 3;
		}
		if (isDtdMarkup(s, lt)) {
			this.fail('XML_DOCTYPE', 'document type declarations are not allowed in SOAP messages', lt);
		}
		return this.fail('XML_MALFORMED', `unexpected markup ${clip(s.slice(lt, lt + 12), 12)}`, lt);
	}

	/** The start tag at `lt`: opens (or, self-closing, adds) an element; returns the offset after it. */
	private element(lt: number): number {
		const s = this.s;
		const lim = this.lim;
		const stack = this.stack;
		const nameStart = lt + 1;
		const nameEnd = scanName(s, nameStart);
		if (nameEnd === nameStart) {
			this.fail(
				'XML_MALFORMED',
				`expected an element name after '<' but found ${describeAt(s, nameStart)}`,
				nameStart,
			);
		}
		if (nameEnd - nameStart > lim.maxNameLength) {
			this.fail('XML_LIMIT', `name longer than ${lim.maxNameLength} characters`, nameStart);
		}
		if (this.root !== undefined && stack.length === 0) {
			this.fail('XML_MALFORMED', 'only one root element is allowed', lt);
		}
		const depth = stack.length + 1;
		if (depth > lim.maxDepth) this.fail('XML_DEPTH', `elements nested deeper than ${lim.maxDepth} levels`, lt);
		if (++this.elementCount > lim.maxElements) {
			this.fail('XML_LIMIT', `more than ${lim.maxElements} elements`, lt);
		}
		const qname = this.name(nameStart, nameEnd);
		const p = this.attributes(nameEnd, qname);
		const attrs = this.tagAttrs;
		const selfClosing = this.tagSelfClosing;

		// Namespaces.
		const ns = this.ns;
		const mark = ns.mark();
		if (this.tagHasXmlns) ns.declare(attrs, this.attrPos);
		let local: string;
		let uri: string;
		if (qname.indexOf(':') === -1) {
			local = qname;
			uri = ns.lookup('', nameStart, '');
		} else {
			const [prefix, loc] = ns.split(qname, nameStart);
			if (prefix === 'xmlns') {
				this.fail('XML_NAMESPACE', `element names must not use the prefix 'xmlns'`, nameStart);
			}
			local = loc;
			uri = ns.lookup(prefix, nameStart, `element <${clip(qname)}>`);
		}
		if (attrs !== EMPTY_ATTRS) ns.resolveAttrs(attrs, this.attrPos);

		this.locate(lt);
		const el = this.newElement(qname, local, uri, attrs === EMPTY_ATTRS ? NO_ATTRS : attrs, depth, lt);
		if (depth <= this.streamDepth) {
			const end = this.link(el, depth, selfClosing, p);
			if (end !== undefined) {
				// A stream read the whole subtree, end tag included.
				ns.undeclare(mark);
				return end;
			}
		} else {
			(this.stream as ElementStream).open(el);
		}
		if (selfClosing) {
			if (depth >= this.streamDepth) this.closeStreamed(el, depth);
			ns.undeclare(mark);
		} else {
			stack.push(el);
			this.nsMark.push(mark);
		}
		return p;
	}

	/**
	 * Reads the attributes of the start tag of `qname` from `p` (right after its name) to its end; sets
	 * tagAttrs, tagSelfClosing and tagHasXmlns and returns the offset after the tag.
	 */
	private attributes(p: number, qname: string): number {
		const s = this.s;
		const n = this.n;
		const lim = this.lim;
		const attrPos = this.attrPos;
		let attrs = EMPTY_ATTRS;
		let attrNames: Set<string> | undefined;
		let selfClosing = false;
		let hasXmlns = false;
		for (;;) {
			let ch = s.charCodeAt(p);
			const wsStart = p;
			while (isWs(ch)) ch = s.charCodeAt(++p);
			if (ch === CH_GT) {
				p++;
				break;
			}
			if (ch === CH_SLASH) {
				if (s.charCodeAt(p + 1) !== CH_GT) {
					this.fail(
						'XML_MALFORMED',
						`expected '>' after '/' in <${clip(qname)}> but found ${describeAt(s, p + 1)}`,
						p + 1,
					);
				}
				p += 2;
				selfClosing = true;
				break;
			}
			if (p >= n) this.fail('XML_MALFORMED', `unexpected end of input inside <${clip(qname)}>`, p);
			if (p === wsStart) {
				this.fail(
					'XML_MALFORMED',
					`expected whitespace, '>' or '/>' in <${clip(qname)}> but found ${describeAt(s, p)}`,
					p,
				);
			}
			const an = p;
			const anEnd = scanName(s, p);
			if (anEnd === an) {
				this.fail(
					'XML_MALFORMED',
					`expected an attribute name in <${clip(qname)}> but found ${describeAt(s, p)}`,
					p,
				);
			}
			if (anEnd - an > lim.maxNameLength) {
				this.fail('XML_LIMIT', `name longer than ${lim.maxNameLength} characters`, an);
			}
			if (attrs.length >= lim.maxAttributes) {
				this.fail('XML_LIMIT', `more than ${lim.maxAttributes} attributes on <${clip(qname)}>`, an);
			}
			const aname = this.name(an, anEnd);
			p = anEnd;
			while (isWs(s.charCodeAt(p))) p++;
			if (s.charCodeAt(p) !== CH_EQ) {
				this.fail(
					'XML_MALFORMED',
					`expected '=' after attribute ${clip(aname)} but found ${describeAt(s, p)}`,
					p,
				);
			}
			p++;
			while (isWs(s.charCodeAt(p))) p++;
			const quote = s.charCodeAt(p);
			if (quote !== CH_DQUOTE && quote !== CH_SQUOTE) {
				this.fail(
					'XML_MALFORMED',
					`attribute ${clip(aname)} value must be quoted but found ${describeAt(s, p)}`,
					p,
				);
			}
			const vStart = ++p;
			let plain = true;
			for (;;) {
				if (p >= n) {
					this.fail('XML_MALFORMED', `unterminated value of attribute ${clip(aname)}`, vStart - 1);
				}
				const v = s.charCodeAt(p);
				if (v === quote) break;
				if (v === CH_LT) {
					this.fail('XML_MALFORMED', `'<' is not allowed in the value of attribute ${clip(aname)}`, p);
				}
				if (v === CH_AMP || v === CH_TAB || v === CH_LF || v === CH_CR) plain = false;
				p++;
			}
			const value = plain ? s.slice(vStart, p) : this.text.attrValue(vStart, p);
			p++;
			if (attrs === EMPTY_ATTRS) {
				attrs = [];
			} else if (attrs.length < 16) {
				for (let i = 0; i < attrs.length; i++) {
					if (attrs[i].name === aname) {
						this.fail('XML_MALFORMED', `duplicate attribute ${clip(aname)} on <${clip(qname)}>`, an);
					}
				}
			} else {
				// Many attributes: a set keeps the duplicate check linear.
				if (attrNames === undefined) attrNames = new Set(attrs.map((a) => a.name));
				if (attrNames.has(aname)) {
					this.fail('XML_MALFORMED', `duplicate attribute ${clip(aname)} on <${clip(qname)}>`, an);
				}
				attrNames.add(aname);
			}
			if (aname.charCodeAt(0) === CH_X && aname.startsWith('xmlns')) hasXmlns = true;
			attrPos[attrs.length] = an;
			attrs.push({ name: aname, local: aname, ns: '', value });
		}
		this.tagAttrs = attrs;
		this.tagSelfClosing = selfClosing;
		this.tagHasXmlns = hasXmlns;
		return p;
	}

	/** The element of a start tag at `lt` (already located); a streamed depth reuses its pooled object. */
	private newElement(
		name: string,
		local: string,
		ns: string,
		attrs: XmlAttribute[],
		depth: number,
		lt: number,
	): XmlElement {
		const column = lt - this.lineStart + 1 + this.lineShift;
		const streamed = depth > this.streamDepth;
		let el = streamed ? this.pool[depth] : undefined;
		if (el === undefined) {
			el = { name, local, ns, attrs, children: NO_CHILDREN, text: '', line: this.line, column };
			if (streamed) this.pool[depth] = el;
		} else {
			el.name = name;
			el.local = local;
			el.ns = ns;
			el.attrs = attrs;
			el.text = '';
			el.line = this.line;
			el.column = column;
		}
		return el;
	}

	/**
	 * Links `el` (not streamed) into the tree, and starts streaming at it when the options ask for it.
	 * Returns the offset after its end tag when a stream read its whole subtree, else undefined.
	 */
	private link(el: XmlElement, depth: number, selfClosing: boolean, contentStart: number): number | undefined {
		const parent = depth === 1 ? undefined : this.stack[depth - 2];
		if (parent === undefined) this.root = el;
		else if (parent.children === NO_CHILDREN) parent.children = [el];
		else (parent.children as XmlElement[]).push(el);
		const option = this.streamOption;
		if (option !== undefined && depth === option.depth && this.stream === undefined) {
			const stream = option.start(el, parent);
			if (stream !== undefined) {
				this.streamOption = undefined;
				const end = selfClosing ? undefined : this.readSubtree(stream, el, depth, contentStart);
				if (end !== undefined) return end;
				this.stream = stream;
				this.streamDepth = depth;
				stream.open(el);
			}
		}
		return undefined;
	}

	private readSubtree(stream: ElementStream, el: XmlElement, depth: number, from: number): number | undefined {
		const latin1 = this.latin1;
		// Read as latin1, the parser itself must never read a non-ASCII byte: the stream reads them all.
		if (stream.readSubtree === undefined || this.firstBad >= 0 || this.holes !== undefined) {
			if (latin1 !== undefined) throw LATIN1_ABANDONED;
			return undefined;
		}
		if (latin1 !== undefined && from > latin1.firstHigh) throw LATIN1_ABANDONED;
		const source: ParserSubtreeSource = {
			bytes: latin1?.bytes,
			text: this.s,
			from,
			depthLeft: this.lim.maxDepth - depth,
			elementsLeft: this.lim.maxElements - this.elementCount,
			maxNameLength: this.lim.maxNameLength,
			maxAttributes: this.lim.maxAttributes,
			bindings: this.ns.bindings,
			lookupNs: lookupBoundNs,
		};
		const read = stream.readSubtree(el, source);
		if (read === undefined || (latin1 !== undefined && read.end <= latin1.lastHigh)) {
			if (latin1 !== undefined) throw LATIN1_ABANDONED;
			return undefined;
		}
		if (latin1 !== undefined) {
			latin1.covered = true;
			// Columns count UTF-16 code units: take off the extra bytes of the line the subtree ends on.
			this.locate(read.end);
			const bytes = latin1.bytes;
			for (let i = Math.max(this.lineStart, latin1.firstHigh); i <= latin1.lastHigh; i++) {
				const b = bytes[i];
				if ((b & 0xc0) === 0x80) this.lineShift--;
				else if (b >= 0xf0) this.lineShift++;
			}
		}
		this.elementCount += read.elements;
		el.text = read.text;
		return read.end;
	}

	/** Closes `el` for the stream, if it is streamed; ends streaming with the subtree's top. */
	private closeStreamed(el: XmlElement, depth: number): void {
		if (el.text === DEFERRED_MARK) {
			for (let i = this.deferred.length - 1; i >= 0; i--) {
				if (this.deferred[i][0] === el) {
					deferText(el, this.deferred[i][1]);
					this.pool[depth] = undefined; // its text is now an accessor: never reuse it
					break;
				}
			}
		}
		(this.stream as ElementStream).close(el);
		if (depth === this.streamDepth) {
			this.stream = undefined;
			this.streamDepth = Infinity;
		}
	}

	/**
	 * Gives the run cut out at `this.nextHole` to `el` as its text. Only a run that is the whole
	 * character data of an element qualifies; anything else abandons the deferred parse.
	 */
	private takeHole(el: XmlElement, at: number): void {
		const holes = this.holes as DeferredRuns;
		if (el.text !== '') throw DEFERRAL_ABANDONED;
		const bytes = holes.bytes[this.holeIndex];
		this.locate(at);
		this.lineShift += bytes.length;
		el.text = DEFERRED_MARK;
		this.deferred.push([el, bytes]);
		this.holeIndex++;
		this.nextHole = this.holeIndex < holes.at.length ? holes.at[this.holeIndex] : Infinity;
	}

	private locate(p: number): void {
		while (this.nextNl !== -1 && this.nextNl < p) {
			this.line++;
			this.lineShift = 0;
			this.lineStart = this.nextNl + 1;
			this.nextNl = this.s.indexOf('\n', this.lineStart);
		}
	}

	/** The name [a, b), reusing the string of an earlier identical name. */
	private name(a: number, b: number): string {
		const s = this.s;
		const len = b - a;
		const h =
			(len * 31 + s.charCodeAt(a) * 7 + s.charCodeAt(b - 1) * 131 + s.charCodeAt(a + (len >> 1)) * 17) & 4095;
		const cached = this.names[h];
		if (cached !== undefined && cached.length === len && s.startsWith(cached, a)) return cached;
		const name = s.slice(a, b);
		this.names[h] = name;
		return name;
	}

	private fail(code: XmlErrorCode, detail: string, p: number): never {
		return failAt(this, code, detail, p);
	}
}

// See keepShape: one parser (with its text reader and namespace scope) outlives every parse.
keepShape(new Parser('', DEFAULT_XML_LIMITS, false));
