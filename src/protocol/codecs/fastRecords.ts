/**
 * The fast path for a streamed result: reads the whole result subtree straight from the document
 * text into records, with names compared against the names the catalogue expects next, no element or
 * attribute objects, and text sliced only for the fields that are read.
 *
 * It reads a strict subset of XML and gives up (returns undefined, having kept nothing) on anything
 * else: namespace declarations, processing instructions,
 * DTD markup, unbound prefixes, limits reached, a value that does not fit its type, truncated input.
 * The parser then streams the subtree through {@link RecordReader} as before, so results and errors
 * never differ; this path only has to be exact for what it accepts (see parseXml's readSubtree).
 */
import type { ScalarType } from '../catalogue/types';
import { keepShape } from './keepShape';
import {
	CH_AMP,
	CH_BANG,
	CH_CR,
	CH_DQUOTE,
	CH_EQ,
	CH_GT,
	CH_HASH,
	CH_LF,
	CH_LT,
	CH_SEMI,
	CH_SLASH,
	CH_SPACE,
	CH_SQUOTE,
	CH_TAB,
} from './chars';
import {
	compile,
	decodeField,
	isScalar,
	keepRecordShapes,
	RecordCodecError,
	RecordReader,
	type CompiledRecord,
	type PathRef,
} from './records';
import {
	isXmlChar,
	scanCharRef,
	scanName,
	TextLookahead,
	XSI_NS,
	type SubtreeRead,
	type SubtreeSource,
	type XmlAttribute,
	type XmlElement,
} from './xml';

/** The five predefined entities, with their ';' (no other entity exists: DTDs are refused). */
const PREDEFINED_REFS: readonly (readonly [string, string])[] = [
	['lt;', '<'],
	['gt;', '>'],
	['amp;', '&'],
	['quot;', '"'],
	['apos;', "'"],
];

function isWs(c: number): boolean {
	return c === CH_SPACE || c === CH_LF || c === CH_TAB || c === CH_CR;
}

/**
 * True when `name` is written in `s` at `p`: compared code unit by code unit, which V8 inlines,
 * where startsWith is a builtin call per tag.
 */
function isAt(s: string, name: string, p: number): boolean {
	const n = name.length;
	for (let i = 0; i < n; i++) {
		if (s.charCodeAt(p + i) !== name.charCodeAt(i)) return false;
	}
	return true;
}

/** True for the characters that can end an element name in a start tag. */
function endsName(c: number): boolean {
	return c === CH_GT || c === CH_SLASH || isWs(c);
}

const CR_RUN = /\r\n?/g;

/** Most attributes on one start tag this path reads (its duplicate check is quadratic). */
const MAX_ATTRIBUTES = 16;

/** Thrown inside the fast reader when the input is outside what it reads (never escapes). */
const NOT_FAST = new Error('fast record read abandoned');

/** Errors carry a path built from this; the fast path never reports them (it gives up instead). */
const NO_PATH: PathRef = { parent: undefined, step: '' };

const enum Kind {
	Record,
	RecordList,
	Scalar,
	ScalarList,
	Skip,
}

/** One open element; reused by depth. */
interface Frame {
	kind: Kind;
	/** Qualified name as written, for the end tag. */
	qname: string;
	/** Record, RecordList (item record). */
	record: CompiledRecord | undefined;
	/** Record: index of the field expected next (fields usually come in catalogue order). */
	next: number;
	/** RecordList and ScalarList: the item element's name. */
	item: string;
	/** Scalar; ScalarList (item type). */
	scalar: ScalarType;
	/** Record, RecordList, ScalarList: the value being filled. */
	value: Record<string, unknown> | unknown[] | undefined;
	/** Scalar: the record or list receiving the value, and the field name (undefined: append). */
	target: Record<string, unknown> | unknown[] | undefined;
	key: string | undefined;
	/** Scalar and the root: the element's own character data so far (see rawStart). */
	text: string;
	/** Scalar: when its text so far is one plain run (no reference, CR or CDATA), the run's offsets, not yet sliced; else -1. */
	rawStart: number;
	rawEnd: number;
}

function newFrame(): Frame {
	return {
		kind: Kind.Skip,
		qname: '',
		record: undefined,
		next: 0,
		item: '',
		scalar: 'string',
		value: undefined,
		target: undefined,
		key: undefined,
		text: '',
		rawStart: -1,
		rawEnd: -1,
	};
}

/** Reads one subtree; a new reader per read (its caches are positions in one document). */
class SubtreeReader {
	private readonly s: string;
	private readonly src: SubtreeSource;
	private readonly frames: Frame[] = [];

	private readonly ahead: TextLookahead;
	/** Output of ref(): where the reference ends (after ';'). */
	private refEnd = 0;

	// The attributes of the current start tag (parallel arrays, reused), and where the tag ends.
	private attrCount = 0;
	private tagEnd = 0;
	private selfClosing = false;
	private readonly attrNames: string[] = [];
	private readonly attrLocals: string[] = [];
	private readonly attrNs: string[] = [];
	private readonly attrValues: string[] = [];
	/** The last prefixed attribute name and its resolution (`xsi:nil` on most nil elements). */
	private lastQName = '';
	private lastLocal = '';
	private lastNs = '';

	/** The document's bytes when `s` is their latin1 reading (SubtreeSource.bytes). */
	private readonly bytes: Buffer | undefined;
	/** Next byte above 0x7f at or after highFrom (-1: none, -2: not searched yet). */
	private highAt = -2;
	private highFrom = 0;
	private readonly high = /[\x80-\xff]/g;

	constructor(src: SubtreeSource) {
		this.s = src.text;
		this.src = src;
		this.bytes = src.bytes;
		this.ahead = new TextLookahead(src.text);
	}

	/** Offset of the next non-ASCII byte at or after `from` (reads as latin1 only), -1 for none. */
	private nextHigh(from: number): number {
		if (from < this.highFrom || (this.highAt !== -1 && this.highAt < from)) {
			this.high.lastIndex = from;
			const match = this.high.exec(this.s);
			this.highAt = match === null ? -1 : match.index;
		}
		this.highFrom = from;
		return this.highAt;
	}

	/** The text [a, b) as a string: sliced, or decoded from the bytes when it holds a non-ASCII byte. */
	private str(a: number, b: number): string {
		const bytes = this.bytes;
		if (bytes !== undefined) {
			const high = this.nextHigh(a);
			if (high !== -1 && high < b) return bytes.toString('utf8', a, b);
		}
		return this.s.slice(a, b);
	}

	/** str(a, b) with CR LF and lone CR turned into LF (XML 1.0 §2.11), as TextLookahead.literal. */
	private literal(a: number, b: number): string {
		const piece = this.str(a, b);
		const cr = this.ahead.nextCr(a);
		return cr !== -1 && cr < b ? piece.replace(CR_RUN, '\n') : piece;
	}

	/** A name scanned in a latin1 reading must be ASCII (a non-ASCII name is left to the parser). */
	private asciiName(a: number, b: number): void {
		if (this.bytes === undefined) return;
		for (let i = a; i < b; i++) if (this.s.charCodeAt(i) > 0x7f) throw NOT_FAST;
	}

	private frame(depth: number): Frame {
		let f = this.frames[depth];
		if (f === undefined) {
			f = newFrame();
			this.frames[depth] = f;
		}
		return f;
	}

	/** Reads the subtree of `root`: a record, or a list of `itemElement` records. */
	read(
		root: XmlElement,
		record: CompiledRecord,
		itemElement: string | undefined,
	): { read: SubtreeRead; value: unknown } {
		const s = this.s;
		const src = this.src;
		const rootFrame = this.frame(0);
		rootFrame.qname = root.name;
		rootFrame.text = '';
		rootFrame.rawStart = -1;
		if (itemElement === undefined) {
			this.attrCount = 0;
			for (const a of root.attrs) this.addRootAttr(a);
			this.openRecord(rootFrame, record);
		} else {
			this.openList(rootFrame, record, itemElement);
		}
		const value = rootFrame.value;
		let depth = 0;
		let elements = 0;
		let p = src.from;
		for (;;) {
			const lt = s.indexOf('<', p);
			if (lt < 0) throw NOT_FAST;
			if (lt > p) {
				const f = this.frames[depth];
				if (f.kind === Kind.Scalar) this.scalarText(f, p, lt);
				else if (depth === 0) f.text += this.text(p, lt);
				else this.checkText(p, lt);
			}
			const c = s.charCodeAt(lt + 1);

			if (c === CH_SLASH) {
				const f = this.frames[depth];
				const qname = f.qname;
				if (!isAt(s, qname, lt + 2)) throw NOT_FAST;
				let e = lt + 2 + qname.length;
				let ch = s.charCodeAt(e);
				while (isWs(ch)) ch = s.charCodeAt(++e);
				if (ch !== CH_GT) throw NOT_FAST;
				p = e + 1;
				if (f.kind === Kind.Scalar) this.closeScalar(f);
				if (depth === 0) return { read: { end: p, elements, text: rootFrame.text }, value };
				depth--;
				continue;
			}

			if (c === CH_BANG) {
				p = this.commentOrCdata(lt, this.frames[depth], depth);
				continue;
			}

			// Start tag (a processing instruction fails the name scan: '?' is not a name character).
			const parent = this.frames[depth];
			const nameStart = lt + 1;
			let qname: string | undefined;
			let fieldIndex = -1;
			if (parent.kind === Kind.Record) {
				const fields = (parent.record as CompiledRecord).children;
				for (let i = parent.next; i < fields.length; i++) {
					const name = fields[i].name;
					if (isAt(s, name, nameStart) && endsName(s.charCodeAt(nameStart + name.length))) {
						qname = name;
						fieldIndex = i;
						break;
					}
				}
			} else if (parent.kind === Kind.RecordList || parent.kind === Kind.ScalarList) {
				const name = parent.item;
				if (isAt(s, name, nameStart) && endsName(s.charCodeAt(nameStart + name.length))) qname = name;
			}
			let local: string;
			if (qname !== undefined) {
				local = qname;
			} else {
				const nameEnd = scanName(s, nameStart);
				if (nameEnd === nameStart) throw NOT_FAST;
				this.asciiName(nameStart, nameEnd);
				qname = s.slice(nameStart, nameEnd);
				local = this.localOfElement(qname);
			}
			if (qname.length > src.maxNameLength) throw NOT_FAST;
			if (++elements > src.elementsLeft || depth + 1 > src.depthLeft) throw NOT_FAST;
			this.attributes(nameStart + qname.length);
			p = this.tagEnd;

			const f = this.frame(depth + 1);
			f.qname = qname;
			f.text = '';
			f.rawStart = -1;
			this.open(f, parent, local, fieldIndex);
			if (this.selfClosing) {
				if (f.kind === Kind.Scalar) this.closeScalar(f);
			} else {
				depth++;
			}
		}
	}

	/** Local part of an element's qualified name; its prefix must be bound (the reader ignores namespaces). */
	private localOfElement(qname: string): string {
		const i = qname.indexOf(':');
		if (i === -1) return qname;
		if (i === 0 || i === qname.length - 1 || qname.indexOf(':', i + 1) !== -1) throw NOT_FAST;
		const prefix = qname.slice(0, i);
		if (prefix === 'xmlns' || this.src.lookupNs(prefix) === undefined) throw NOT_FAST;
		return qname.slice(i + 1);
	}

	/**
	 * Scans the attributes of a start tag from `p` (right after the name) into the attribute arrays;
	 * sets tagEnd (the offset after the tag) and selfClosing.
	 */
	private attributes(p: number): void {
		const s = this.s;
		this.attrCount = 0;
		for (;;) {
			let ch = s.charCodeAt(p);
			const wsStart = p;
			while (isWs(ch)) ch = s.charCodeAt(++p);
			if (ch === CH_GT) {
				this.tagEnd = p + 1;
				this.selfClosing = false;
				return;
			}
			if (ch === CH_SLASH) {
				if (s.charCodeAt(p + 1) !== CH_GT) throw NOT_FAST;
				this.tagEnd = p + 2;
				this.selfClosing = true;
				return;
			}
			if (p === wsStart) throw NOT_FAST;
			const an = p;
			const anEnd = scanName(s, an);
			// Many attributes are left to the parser, whose duplicate check stays linear with a set.
			if (
				anEnd === an ||
				anEnd - an > this.src.maxNameLength ||
				this.attrCount >= this.src.maxAttributes ||
				this.attrCount >= MAX_ATTRIBUTES
			) {
				throw NOT_FAST;
			}
			p = anEnd;
			while (isWs(s.charCodeAt(p))) p++;
			if (s.charCodeAt(p) !== CH_EQ) throw NOT_FAST;
			p++;
			while (isWs(s.charCodeAt(p))) p++;
			const quote = s.charCodeAt(p);
			if (quote !== CH_DQUOTE && quote !== CH_SQUOTE) throw NOT_FAST;
			const vStart = ++p;
			let plain = true;
			for (;;) {
				if (p >= s.length) throw NOT_FAST;
				const v = s.charCodeAt(p);
				if (v === quote) break;
				if (v === CH_LT) throw NOT_FAST;
				if (v === CH_AMP || v === CH_TAB || v === CH_LF || v === CH_CR) plain = false;
				p++;
			}
			this.asciiName(an, anEnd);
			this.addAttr(an, anEnd, plain ? this.str(vStart, p) : this.attrValue(vStart, p));
			p++;
		}
	}

	/** Records the attribute [an, anEnd) = value, resolving its prefix; gives up on declarations and duplicates. */
	private addAttr(an: number, anEnd: number, value: string): void {
		const s = this.s;
		const last = this.lastQName;
		let name: string;
		let local: string;
		let ns: string;
		if (anEnd - an === last.length && s.startsWith(last, an)) {
			name = last;
			local = this.lastLocal;
			ns = this.lastNs;
		} else {
			name = s.slice(an, anEnd);
			if (name.startsWith('xmlns')) throw NOT_FAST;
			const i = name.indexOf(':');
			if (i === -1) {
				local = name;
				ns = '';
			} else {
				if (i === 0 || i === name.length - 1 || name.indexOf(':', i + 1) !== -1) throw NOT_FAST;
				local = name.slice(i + 1);
				const uri = this.src.lookupNs(name.slice(0, i));
				if (uri === undefined) throw NOT_FAST;
				ns = uri;
				this.lastQName = name;
				this.lastLocal = local;
				this.lastNs = ns;
			}
		}
		this.pushAttr(name, local, ns, value);
	}

	private addRootAttr(a: XmlAttribute): void {
		this.pushAttr(a.name, a.local, a.ns, a.value);
	}

	private pushAttr(name: string, local: string, ns: string, value: string): void {
		const n = this.attrCount;
		for (let i = 0; i < n; i++) {
			if (this.attrNames[i] === name || (ns !== '' && this.attrNs[i] === ns && this.attrLocals[i] === local)) {
				throw NOT_FAST;
			}
		}
		this.attrNames[n] = name;
		this.attrLocals[n] = local;
		this.attrNs[n] = ns;
		this.attrValues[n] = value;
		this.attrCount = n + 1;
	}

	/** True when the current start tag carries xsi:nil="true" (or "1"), as records.ts's isNil. */
	private isNil(): boolean {
		for (let i = 0; i < this.attrCount; i++) {
			if (this.attrLocals[i] === 'nil' && this.attrNs[i] === XSI_NS) {
				return this.attrValues[i] === 'true' || this.attrValues[i] === '1';
			}
		}
		return false;
	}

	/** What RecordReader.open does for a child element of `parent`, named `local`. */
	private open(f: Frame, parent: Frame, local: string, fieldIndex: number): void {
		f.kind = Kind.Skip;
		switch (parent.kind) {
			case Kind.Record: {
				const record = parent.record as CompiledRecord;
				const field = fieldIndex >= 0 ? record.children[fieldIndex] : record.elements.get(local);
				if (field === undefined) return;
				parent.next = fieldIndex >= 0 ? fieldIndex + 1 : record.children.indexOf(field) + 1;
				if (this.attrCount > 0 && this.isNil()) return;
				const target = parent.value as Record<string, unknown>;
				const type = field.type;
				if (isScalar(type)) {
					this.openScalar(f, type, target, field.name);
				} else if ('record' in type) {
					this.openRecord(f, compile(type.record));
					target[field.name] = f.value;
				} else if ('list' in type) {
					this.openList(f, compile(type.list), type.item);
					target[field.name] = f.value;
				} else {
					f.kind = Kind.ScalarList;
					f.item = type.item;
					f.scalar = type.scalarList;
					f.value = [];
					target[field.name] = f.value;
				}
				return;
			}
			case Kind.RecordList: {
				if (local !== parent.item || (this.attrCount > 0 && this.isNil())) return;
				this.openRecord(f, parent.record as CompiledRecord);
				(parent.value as unknown[]).push(f.value);
				return;
			}
			case Kind.ScalarList: {
				if (local !== parent.item || (this.attrCount > 0 && this.isNil())) return;
				this.openScalar(f, parent.scalar, parent.value as unknown[], undefined);
				return;
			}
			default:
				return; // inside a skipped element or a scalar's element
		}
	}

	/** A record element: its attribute fields are read from the current start tag's attributes. */
	private openRecord(f: Frame, record: CompiledRecord): void {
		const value = record.newValue();
		f.kind = Kind.Record;
		f.record = record;
		f.next = 0;
		f.value = value;
		if (record.attributes.length === 0 || this.attrCount === 0) return;
		for (const field of record.attributes) {
			for (let i = 0; i < this.attrCount; i++) {
				if (this.attrLocals[i] === field.name && this.attrNs[i] === '') {
					value[field.name] = decodeField(field.type as ScalarType, this.attrValues[i], NO_PATH, '');
					break;
				}
			}
		}
	}

	private openList(f: Frame, record: CompiledRecord, item: string): void {
		f.kind = Kind.RecordList;
		f.record = record;
		f.item = item;
		f.value = [];
	}

	private openScalar(
		f: Frame,
		type: ScalarType,
		target: Record<string, unknown> | unknown[],
		key: string | undefined,
	): void {
		f.kind = Kind.Scalar;
		f.scalar = type;
		f.target = target;
		f.key = key;
	}

	/** Adds the character data [a, b) to a scalar's text: a lone plain run is only noted. */
	private scalarText(f: Frame, a: number, b: number): void {
		if (f.rawStart < 0 && f.text === '' && this.isPlain(a, b)) {
			f.rawStart = a;
			f.rawEnd = b;
			return;
		}
		f.text = this.ownText(f) + this.text(a, b);
	}

	/** The scalar's text so far as a string (no longer a noted run). */
	private ownText(f: Frame): string {
		if (f.rawStart < 0) return f.text;
		const text = this.str(f.rawStart, f.rawEnd);
		f.rawStart = -1;
		return text;
	}

	/** True when [a, b) holds no reference, CR or ']]>': its text is the slice itself. */
	private isPlain(a: number, b: number): boolean {
		const amp = this.ahead.nextAmp(a);
		const cr = this.ahead.nextCr(a);
		const cd = this.ahead.nextCdEnd(a);
		return (amp === -1 || amp >= b) && (cr === -1 || cr >= b) && (cd === -1 || cd >= b);
	}

	private closeScalar(f: Frame): void {
		const value =
			f.rawStart >= 0
				? this.rawValue(f.scalar, f.rawStart, f.rawEnd)
				: decodeField(f.scalar, f.text, NO_PATH, '');
		if (f.key === undefined) (f.target as unknown[]).push(value);
		else (f.target as Record<string, unknown>)[f.key] = value;
	}

	/**
	 * The value of a scalar whose text is the plain run [a, b): short unsigned integers and the
	 * boolean words are read without slicing (what decodeScalar returns for them), the rest is decoded
	 * from the slice.
	 */
	private rawValue(type: ScalarType, a: number, b: number): unknown {
		const s = this.s;
		const length = b - a;
		if ((type === 'int' || type === 'short' || type === 'unsignedByte') && length <= 9) {
			let n = 0;
			let i = a;
			for (; i < b; i++) {
				const c = s.charCodeAt(i);
				if (c < 0x30 || c > 0x39) break;
				n = n * 10 + (c - 0x30);
			}
			if (i === b && length > 0 && (type === 'int' || n <= (type === 'short' ? 32767 : 255))) return n;
		} else if (type === 'boolean') {
			if (length === 4 && s.startsWith('true', a)) return true;
			if (length === 5 && s.startsWith('false', a)) return false;
		}
		return decodeField(type, this.str(a, b), NO_PATH, '');
	}

	/** Skips a comment or reads a CDATA section at `lt` ('<!'); returns the offset after it. */
	private commentOrCdata(lt: number, f: Frame, depth: number): number {
		const s = this.s;
		if (s.startsWith('--', lt + 2)) {
			const e = s.indexOf('--', lt + 4);
			if (e < 0 || s.charCodeAt(e + 2) !== CH_GT) throw NOT_FAST;
			return e + 3;
		}
		if (!s.startsWith('[CDATA[', lt + 2)) throw NOT_FAST;
		const e = s.indexOf(']]>', lt + 9);
		if (e < 0) throw NOT_FAST;
		if (e > lt + 9 && (f.kind === Kind.Scalar || depth === 0)) {
			f.text = this.ownText(f) + this.literal(lt + 9, e);
		}
		return e + 3;
	}

	/** The character data [a, b) decoded as the parser decodes it. */
	private text(a: number, b: number): string {
		const cd = this.ahead.nextCdEnd(a);
		if (cd !== -1 && cd < b) throw NOT_FAST;
		let amp = this.ahead.nextAmp(a);
		if (amp === -1 || amp >= b) return this.literal(a, b);
		let out = '';
		let p = a;
		while (amp !== -1 && amp < b) {
			if (amp > p) out += this.literal(p, amp);
			out += this.ref(amp, b);
			p = this.refEnd;
			amp = this.ahead.nextAmp(p);
		}
		if (p < b) out += this.literal(p, b);
		return out;
	}

	/** Checks the character data [a, b) that no field reads. */
	private checkText(a: number, b: number): void {
		const amp = this.ahead.nextAmp(a);
		if (amp !== -1 && amp < b) {
			this.text(a, b);
			return;
		}
		const cd = this.ahead.nextCdEnd(a);
		if (cd !== -1 && cd < b) throw NOT_FAST;
	}

	/** Normalised attribute value for [a, b), as the parser's attrValue (XML 1.0 §3.3.3, CDATA type). */
	private attrValue(a: number, b: number): string {
		const s = this.s;
		let out = '';
		let p = a;
		let q = a;
		while (q < b) {
			const c = s.charCodeAt(q);
			if (c === CH_AMP) {
				if (q > p) out += this.str(p, q);
				out += this.ref(q, b);
				q = p = this.refEnd;
			} else if (c === CH_TAB || c === CH_LF || c === CH_CR) {
				if (q > p) out += this.str(p, q);
				out += ' ';
				q++;
				if (c === CH_CR && q < b && s.charCodeAt(q) === CH_LF) q++;
				p = q;
			} else {
				q++;
			}
		}
		if (p < b) out += this.str(p, b);
		return out;
	}

	/** Decodes the reference at `p` ('&'), which must end before `end`; sets refEnd. */
	private ref(p: number, end: number): string {
		const s = this.s;
		if (s.charCodeAt(p + 1) === CH_HASH) {
			const { digitsStart, stop: q, codePoint: cp } = scanCharRef(s, p, end);
			if (q === digitsStart || q >= end || s.charCodeAt(q) !== CH_SEMI || !isXmlChar(cp)) throw NOT_FAST;
			this.refEnd = q + 1;
			return String.fromCodePoint(cp);
		}
		for (const [name, value] of PREDEFINED_REFS) {
			if (s.startsWith(name, p + 1)) {
				this.refEnd = p + 1 + name.length;
				// The parser applies the name length limit to entity names too (`name` ends with ';').
				if (this.refEnd > end || name.length - 1 > this.src.maxNameLength) throw NOT_FAST;
				return value;
			}
		}
		throw NOT_FAST;
	}
}

// See keepShape: one reader of each kind outlives every decode.
keepShape(
	new SubtreeReader({
		text: '',
		from: 0,
		depthLeft: 0,
		elementsLeft: 0,
		maxNameLength: 0,
		maxAttributes: 0,
		lookupNs: () => undefined,
	}),
);

/** The RecordReader with the fast path: a streamed result is read from the text when it can be. */
export class FastRecordReader extends RecordReader {
	private fastValue: { value: unknown } | undefined;

	readSubtree(root: XmlElement, source: SubtreeSource): SubtreeRead | undefined {
		try {
			const { read, value } = new SubtreeReader(source).read(root, compile(this.recordName), this.itemElement);
			this.fastValue = { value };
			return read;
		} catch (error) {
			if (error === NOT_FAST || error instanceof RecordCodecError) return undefined;
			throw error;
		}
	}

	override result(): unknown {
		if (this.fastValue === undefined) return super.result();
		keepRecordShapes(this.fastValue.value, compile(this.recordName));
		return this.fastValue.value;
	}
}

keepShape(new FastRecordReader('', undefined, ''));
