/**
 * Record codecs driven by the catalogue: a record value is written field by field in the catalogue's
 * order and read back by element name, so a new record needs no code. Decoding builds only the fields
 * a record defines and ignores unknown elements (forward compatible); it never invents missing ones.
 */
import { Buffer } from 'node:buffer';
import { getRecord } from '../catalogue';
import type { FieldSpec, FieldType, RecordSpec, ScalarType } from '../catalogue/types';
import { keepShape } from './keepShape';
import { decodeScalar, encodeScalar } from './scalars';
import { deferredTextBytes, escapeAttr, escapeText, type ElementStream, type XmlElement } from './xml';

export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/** Raised when a value in a record or parameter does not fit its declared type. */
export class RecordCodecError extends Error {
	override readonly name = 'RecordCodecError';
	constructor(
		message: string,
		/** Dotted path of the offending field, e.g. ApplicationPaged.Applications[3].Score. */
		readonly path: string,
	) {
		super(message);
	}
}

/** A record spec prepared for reading and writing (also read by fastRecords.ts). */
export interface CompiledRecord {
	spec: RecordSpec;
	elements: Map<string, FieldSpec>;
	attributes: FieldSpec[];
	children: FieldSpec[];
	/** '.Name' of each element field, for error paths (built once, not per value). */
	steps: Map<string, string>;
	/** A new empty value of the record (see plainObjectMaker). */
	newValue: () => Record<string, unknown>;
	/** Field lists of the values whose shapes are kept (see keepRecordShapes). */
	shapes: Set<string>;
}

/**
 * Makes empty plain objects (prototype Object.prototype, like `{}`) through a constructor of their
 * own: V8 learns from the first objects how many fields they get and gives the next ones room for
 * them inline, where an object literal grows its property store field by field (reallocated several
 * times for a record of twenty fields).
 */
function plainObjectMaker(): () => Record<string, unknown> {
	function PlainRecord(): void {}
	PlainRecord.prototype = Object.prototype;
	const Maker = PlainRecord as unknown as new () => Record<string, unknown>;
	return () => new Maker();
}

const compiled = new Map<string, CompiledRecord>();

export function compile(recordName: string): CompiledRecord {
	let entry = compiled.get(recordName);
	if (!entry) {
		const spec = getRecord(recordName);
		const attributes = spec.fields.filter((f) => f.attribute);
		const children = spec.fields.filter((f) => !f.attribute);
		entry = {
			spec,
			attributes,
			children,
			elements: new Map(children.map((f) => [f.name, f])),
			steps: new Map(children.map((f) => [f.name, `.${f.name}`])),
			newValue: plainObjectMaker(),
			shapes: new Set(),
		};
		compiled.set(recordName, entry);
	}
	return entry;
}

/** Most shapes kept per record type: a few cover a page (records differ by the fields left out). */
const MAX_SHAPES_PER_RECORD = 8;
const NO_BYTES = new Uint8Array(0);

/**
 * Keeps the shapes of a decoded value's records: of the value if it is a record, of the first item if
 * it is a list, and so on down its record fields. A record's shape is the fields it holds, in order,
 * and V8 holds it only weakly, like a class's (see keepShape): once the caller drops the result, a
 * full collection would discard the decoder's code that made and filled such records. What is kept
 * is an empty copy made the same way (numbers and booleans as they are, nothing of the text or bytes),
 * once per shape.
 */
export function keepRecordShapes(value: unknown, record: CompiledRecord): void {
	const first = Array.isArray(value) ? (value as unknown[])[0] : value;
	if (typeof first !== 'object' || first === null || Array.isArray(first) || first instanceof Uint8Array) return;
	const fields = first as Record<string, unknown>;
	const keys = Object.keys(fields);
	const signature = keys.join(',');
	if (!record.shapes.has(signature) && record.shapes.size < MAX_SHAPES_PER_RECORD) {
		record.shapes.add(signature);
		const copy = record.newValue();
		for (const key of keys) copy[key] = emptyLike(fields[key]);
		keepShape(copy);
	}
	// A known record can still hold records of a new shape.
	for (const field of record.children) {
		const type = field.type;
		if (isScalar(type) || 'scalarList' in type || fields[field.name] === undefined) continue;
		keepRecordShapes(fields[field.name], compile('record' in type ? type.record : type.list));
	}
}

/** A value of the same kind holding nothing: numbers and booleans as they are (they are not data of size). */
function emptyLike(value: unknown): unknown {
	if (typeof value === 'string') return '';
	if (value instanceof Uint8Array) return NO_BYTES;
	if (Array.isArray(value)) return [];
	if (typeof value === 'object' && value !== null) return {};
	return value;
}

/** The .NET default of each value type, written for a non-nullable member the record leaves empty. */
export const VALUE_TYPE_DEFAULTS: Readonly<Partial<Record<ScalarType, string>>> = {
	int: '0',
	short: '0',
	unsignedByte: '0',
	decimal: '0',
	boolean: 'false',
	dateTime: '0001-01-01T00:00:00',
};

/** True for scalars that are .NET value types: always present (minOccurs=1) in ASMX schemas. */
export function isValueType(type: ScalarType): boolean {
	return VALUE_TYPE_DEFAULTS[type] !== undefined;
}

export function isScalar(type: FieldType): type is ScalarType {
	return typeof type === 'string';
}

/** Appends XML text to an array of pieces; joined once at the end (no quadratic concatenation). */
export class XmlOut {
	readonly parts: string[] = [];

	raw(text: string): this {
		this.parts.push(text);
		return this;
	}

	leaf(name: string, text: string): this {
		this.parts.push(text === '' ? `<${name} />` : `<${name}>${escapeText(text)}</${name}>`);
		return this;
	}

	nil(name: string): this {
		this.parts.push(`<${name} xsi:nil="true" />`);
		return this;
	}

	toString(): string {
		return this.parts.join('');
	}
}

function attributeText(attrs: Record<string, string>): string {
	let text = '';
	for (const [name, value] of Object.entries(attrs)) {
		text += ` ${name}="${escapeAttr(value)}"`;
	}
	return text;
}

/**
 * Writes `<element>` holding a record of type recordName. `rootAttrs` are extra attributes of the
 * element itself, e.g. namespace declarations on a document root.
 */
export function writeRecord(
	out: XmlOut,
	element: string,
	recordName: string,
	value: unknown,
	path = recordName,
	rootAttrs: Record<string, string> = {},
): void {
	const record = compile(recordName);
	const object = asObject(value, path);
	let attrs = attributeText(rootAttrs);
	for (const field of record.attributes) {
		const v = object[field.name];
		if (v !== undefined && v !== null) {
			attrs += ` ${field.name}="${escapeAttr(encodeField(field.type as ScalarType, v, `${path}.${field.name}`))}"`;
		}
	}
	out.raw(`<${element}${attrs}>`);
	writeFields(out, record, object, path);
	out.raw(`</${element}>`);
}

/** Writes the child elements of a record (without its own element). */
function writeFields(out: XmlOut, record: CompiledRecord, object: Record<string, unknown>, path: string): void {
	for (const field of record.children) {
		const v = object[field.name];
		const type = field.type;
		if (v === undefined || v === null) {
			// ASMX: a nullable member is written as xsi:nil; a non-nullable value-type member is always
			// written, with its type's default when the record has none (known facts, record schema facts).
			if (field.nillable) out.nil(field.name);
			else if (isScalar(type) && VALUE_TYPE_DEFAULTS[type] !== undefined) {
				out.leaf(field.name, VALUE_TYPE_DEFAULTS[type]);
			}
			continue;
		}
		if (isScalar(type)) {
			// The path is made only for an error: most fields of a page are scalars.
			out.leaf(field.name, encodeField(type, v, path, field.name));
			continue;
		}
		const fieldPath = `${path}.${field.name}`;
		if ('record' in type) {
			writeRecord(out, field.name, type.record, v, fieldPath);
		} else if ('list' in type) {
			writeList(out, field.name, type.item, type.list, v, fieldPath);
		} else {
			const items = asArray(v, fieldPath);
			out.raw(`<${field.name}>`);
			items.forEach((item, i) => out.leaf(type.item, encodeField(type.scalarList, item, `${fieldPath}[${i}]`)));
			out.raw(`</${field.name}>`);
		}
	}
}

/** Writes `<element>` holding one `<itemElement>` per record (rule 2: lists repeat the record element). */
export function writeList(
	out: XmlOut,
	element: string,
	itemElement: string,
	recordName: string,
	value: unknown,
	path = element,
	rootAttrs: Record<string, string> = {},
): void {
	const items = asArray(value, path);
	out.raw(`<${element}${attributeText(rootAttrs)}>`);
	items.forEach((item, i) => writeRecord(out, itemElement, recordName, item, `${path}[${i}]`));
	out.raw(`</${element}>`);
}

function encodeField(type: ScalarType, value: unknown, path: string, name?: string): string {
	try {
		return encodeScalar(type, value as never);
	} catch (error) {
		const at = name === undefined ? path : `${path}.${name}`;
		throw new RecordCodecError(`${at}: ${(error as Error).message}`, at);
	}
}

function asObject(value: unknown, path: string): Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new RecordCodecError(`${path}: expected a record`, path);
	}
	return value as Record<string, unknown>;
}

function asArray(value: unknown, path: string): unknown[] {
	if (!Array.isArray(value)) {
		throw new RecordCodecError(`${path}: expected a list`, path);
	}
	return value;
}

/** True when the element carries xsi:nil="true" (or "1"). */
export function isNil(el: XmlElement): boolean {
	const attrs = el.attrs;
	for (let i = 0; i < attrs.length; i++) {
		const a = attrs[i];
		if (a.local === 'nil' && a.ns === XSI_NS) return a.value === 'true' || a.value === '1';
	}
	return false;
}

/**
 * Where a value sits, built only when an error needs it: the dotted path strings of a large response
 * would otherwise cost more than decoding its values.
 */
export interface PathRef {
	parent: PathRef | undefined;
	/** `.Name`, `.@Name` or `[3]`; the root's is its name. */
	step: string | number;
}

function pathText(ref: PathRef): string {
	const steps: string[] = [];
	for (let r: PathRef | undefined = ref; r; r = r.parent) {
		steps.push(typeof r.step === 'number' ? `[${r.step}]` : r.step);
	}
	return steps.reverse().join('');
}

/** Reads a record of type recordName from its element. */
export function readRecord(el: XmlElement, recordName: string, path = recordName): Record<string, unknown> {
	const reader = new RecordReader(recordName, undefined, path);
	replay(el, reader);
	return reader.result() as Record<string, unknown>;
}

/** Reads the `<itemElement>` children of a list element as records; other children are ignored. */
export function readList(
	el: XmlElement,
	itemElement: string,
	recordName: string,
	path = itemElement,
): Record<string, unknown>[] {
	const reader = new RecordReader(recordName, itemElement, path);
	replay(el, reader);
	return reader.result() as Record<string, unknown>[];
}

/** Feeds an already parsed subtree to a reader, as the parser would have while parsing. */
function replay(root: XmlElement, reader: ElementStream): void {
	const stack: [XmlElement, number][] = [[root, 0]];
	reader.open(root);
	while (stack.length > 0) {
		const top = stack[stack.length - 1];
		const [el, next] = top;
		if (next < el.children.length) {
			top[1] = next + 1;
			const child = el.children[next];
			reader.open(child);
			stack.push([child, 0]);
		} else {
			stack.pop();
			reader.close(el);
		}
	}
}

const enum Frame {
	Record,
	RecordList,
	Scalar,
	ScalarList,
	Skip,
}

/** What the reader knows of one open element; reused by depth, so reading allocates only values. */
interface FrameState {
	kind: Frame;
	/** Record and RecordList (item record). */
	record: CompiledRecord | undefined;
	/** RecordList and ScalarList: the item element's name. */
	item: string;
	/** Scalar; ScalarList (item type). */
	scalar: ScalarType;
	/** Record, RecordList and ScalarList: the value being filled. */
	value: Record<string, unknown> | unknown[] | undefined;
	/** Where this element's value sits (Record, RecordList, ScalarList). */
	at: PathRef | undefined;
	/** Scalar: the record or list that receives the value, the field name (undefined: append), the error path. */
	target: Record<string, unknown> | unknown[] | undefined;
	key: string | undefined;
	parentAt: PathRef | undefined;
	step: string | number;
}

/**
 * Reads one result element (a record, or a list of records) from the parser's open and close
 * events, following the catalogue: the parser can hand it the elements of a large response as they
 * close, so they never form a tree (see parseXml's `stream`). Unknown and nil elements are skipped;
 * the first value that does not fit its type is kept and thrown by {@link result}.
 */
export class RecordReader implements ElementStream {
	private readonly frames: FrameState[] = [];
	private depth = 0;
	private value: unknown;
	private error: RecordCodecError | undefined;

	constructor(
		protected readonly recordName: string,
		/** Set when the element is a list of `itemElement` records rather than one record. */
		protected readonly itemElement: string | undefined,
		protected readonly path: string,
	) {}

	private frame(depth: number): FrameState {
		let f = this.frames[depth];
		if (f === undefined) {
			f = {
				kind: Frame.Skip,
				record: undefined,
				item: '',
				scalar: 'string',
				value: undefined,
				at: undefined,
				target: undefined,
				key: undefined,
				parentAt: undefined,
				step: '',
			};
			this.frames[depth] = f;
		}
		return f;
	}

	open(el: XmlElement): void {
		const depth = this.depth++;
		const f = this.frame(depth);
		if (depth === 0) {
			const at: PathRef = { parent: undefined, step: this.path };
			if (this.itemElement === undefined) this.openRecord(f, el, compile(this.recordName), at);
			else this.openList(f, compile(this.recordName), this.itemElement, at);
			this.value = f.value;
			return;
		}
		const parent = this.frames[depth - 1];
		f.kind = Frame.Skip;
		if (this.error !== undefined) return;
		switch (parent.kind) {
			case Frame.Record: {
				const record = parent.record as CompiledRecord;
				const field = record.elements.get(el.local);
				if (field === undefined || (el.attrs.length > 0 && isNil(el))) return;
				const target = parent.value as Record<string, unknown>;
				const type = field.type;
				if (isScalar(type)) {
					this.openScalar(
						f,
						type,
						target,
						field.name,
						parent.at as PathRef,
						record.steps.get(field.name) as string,
					);
				} else if ('record' in type) {
					this.openRecord(f, el, compile(type.record), {
						parent: parent.at,
						step: record.steps.get(field.name) as string,
					});
					target[field.name] = f.value;
				} else if ('list' in type) {
					this.openList(f, compile(type.list), type.item, {
						parent: parent.at,
						step: record.steps.get(field.name) as string,
					});
					target[field.name] = f.value;
				} else {
					f.kind = Frame.ScalarList;
					f.item = type.item;
					f.scalar = type.scalarList;
					f.value = [];
					f.at = { parent: parent.at, step: record.steps.get(field.name) as string };
					target[field.name] = f.value;
				}
				return;
			}
			case Frame.RecordList: {
				if (el.local !== parent.item || (el.attrs.length > 0 && isNil(el))) return;
				const items = parent.value as unknown[];
				this.openRecord(f, el, parent.record as CompiledRecord, { parent: parent.at, step: items.length });
				items.push(f.value);
				return;
			}
			case Frame.ScalarList: {
				if (el.local !== parent.item || (el.attrs.length > 0 && isNil(el))) return;
				const items = parent.value as unknown[];
				this.openScalar(f, parent.scalar, items, undefined, parent.at as PathRef, items.length);
				return;
			}
			default:
				return; // inside a skipped element or a scalar's element
		}
	}

	close(el: XmlElement): void {
		const f = this.frames[--this.depth];
		if (f.kind !== Frame.Scalar || this.error !== undefined) return;
		try {
			const value =
				f.scalar === 'base64Binary'
					? decodeBase64Element(el, f.parentAt as PathRef, f.step)
					: decodeField(f.scalar, el.text, f.parentAt as PathRef, f.step);
			if (f.key === undefined) (f.target as unknown[]).push(value);
			else (f.target as Record<string, unknown>)[f.key] = value;
		} catch (error) {
			if (!(error instanceof RecordCodecError)) throw error;
			this.error = error;
		}
	}

	/** The value read; throws the first value error met. */
	result(): unknown {
		if (this.error !== undefined) throw this.error;
		keepRecordShapes(this.value, compile(this.recordName));
		return this.value;
	}

	private openRecord(f: FrameState, el: XmlElement, record: CompiledRecord, at: PathRef): void {
		const value = record.newValue();
		f.kind = Frame.Record;
		f.record = record;
		f.value = value;
		f.at = at;
		if (record.attributes.length === 0 || el.attrs.length === 0) return;
		for (const field of record.attributes) {
			const attr = el.attrs.find((a) => a.local === field.name && a.ns === '');
			if (attr === undefined) continue;
			try {
				value[field.name] = decodeField(field.type as ScalarType, attr.value, at, `.@${field.name}`);
			} catch (error) {
				if (!(error instanceof RecordCodecError)) throw error;
				this.error ??= error;
			}
		}
	}

	private openList(f: FrameState, record: CompiledRecord, item: string, at: PathRef): void {
		f.kind = Frame.RecordList;
		f.record = record;
		f.item = item;
		f.value = [];
		f.at = at;
	}

	private openScalar(
		f: FrameState,
		type: ScalarType,
		target: Record<string, unknown> | unknown[],
		key: string | undefined,
		parentAt: PathRef,
		step: string | number,
	): void {
		f.kind = Frame.Scalar;
		f.scalar = type;
		f.target = target;
		f.key = key;
		f.parentAt = parentAt;
		f.step = step;
	}
}

// See keepShape: one reader outlives every decode.
keepShape(new RecordReader('', undefined, ''));

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Canonical base64 without whitespace (what services send), decoded by Node in one native pass and
 * checked without a second one: Node's decoder skips what is not base64 and stops at '=', so the text
 * is valid exactly when it holds no base64url characters, the output has the length the input
 * promises, and the padding bits are zero. Anything else (undefined) takes the strict scalar codec.
 */
function decodeBase64Fast(text: string): Uint8Array | undefined {
	const n = text.length;
	if (n % 4 !== 0 || text.indexOf('-') !== -1 || text.indexOf('_') !== -1) return undefined;
	const padding = n === 0 || text.charCodeAt(n - 1) !== 0x3d ? 0 : text.charCodeAt(n - 2) === 0x3d ? 2 : 1;
	if (padding > 0) {
		const last = BASE64_ALPHABET.indexOf(text.charAt(n - padding - 1));
		if (last < 0 || (last & (padding === 2 ? 0x0f : 0x03)) !== 0) return undefined;
	}
	const buf = Buffer.from(text, 'base64');
	if (buf.length !== (n / 4) * 3 - padding) return undefined;
	// A plain Uint8Array owning its memory, as the scalar codec returns (small Buffers share a pool).
	if (buf.byteOffset === 0 && buf.buffer.byteLength === buf.byteLength) {
		return new Uint8Array(buf.buffer, 0, buf.byteLength);
	}
	return new Uint8Array(buf);
}

/** Bytes of base64 text turned into a string at a time (a multiple of 4: groups are never split). */
const BASE64_CHUNK = 64 * 1024;

/**
 * decodeBase64Fast on bytes (a deferred run), without making the whole run one string: each
 * BASE64_CHUNK bytes become a short latin1 string, decoded by Node into the output where the chunk
 * before stopped. The same check holds: a chunk holding anything Node skips or stops at (a character
 * outside the alphabet, a non-ASCII byte, '=' before the end) gives fewer bytes than its length
 * promises, which no later chunk can make up, so the total falls short.
 */
function decodeBase64Bytes(raw: Uint8Array): Uint8Array | undefined {
	const n = raw.length;
	const bytes = Buffer.from(raw.buffer, raw.byteOffset, n);
	if (n % 4 !== 0 || bytes.includes(0x2d) || bytes.includes(0x5f)) return undefined;
	const padding = n === 0 || bytes[n - 1] !== 0x3d ? 0 : bytes[n - 2] === 0x3d ? 2 : 1;
	if (padding > 0) {
		const last = BASE64_ALPHABET.indexOf(String.fromCharCode(bytes[n - padding - 1]));
		if (last < 0 || (last & (padding === 2 ? 0x0f : 0x03)) !== 0) return undefined;
	}
	const length = (n / 4) * 3 - padding;
	// Memory of its own, as the scalar codec returns; unfilled, and dropped unless every byte is written.
	const out = Buffer.allocUnsafeSlow(length);
	let written = 0;
	for (let at = 0; at < n && written < length; at += BASE64_CHUNK) {
		written += out.write(bytes.toString('latin1', at, Math.min(n, at + BASE64_CHUNK)), written, 'base64');
	}
	return written === length ? new Uint8Array(out.buffer, 0, length) : undefined;
}

/** A base64Binary element: from its deferred bytes when the parser left them undecoded (see parseXml). */
function decodeBase64Element(el: XmlElement, at: PathRef, step: string | number): unknown {
	const raw = deferredTextBytes(el);
	if (raw !== undefined) {
		const bytes = decodeBase64Bytes(raw);
		if (bytes !== undefined) return bytes;
	}
	return decodeField('base64Binary', el.text, at, step);
}

export function decodeField(type: ScalarType, text: string, at: PathRef, step: string | number): unknown {
	if (type === 'string') return text;
	if (type === 'base64Binary') {
		const bytes = decodeBase64Fast(text);
		if (bytes !== undefined) return bytes;
	}
	try {
		return decodeScalar(type, text);
	} catch (error) {
		const path = pathText({ parent: at, step });
		throw new RecordCodecError(`${path}: ${(error as Error).message}`, path);
	}
}
