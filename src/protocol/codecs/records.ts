/**
 * Record codecs driven by the catalogue: a record value is written field by field in the catalogue's
 * order and read back by element name, so a new record needs no code. Decoding builds only the fields
 * a record defines and ignores unknown elements (forward compatible); it never invents missing ones.
 */
import { Buffer } from 'node:buffer';
import { getRecord } from '../catalogue';
import type { FieldSpec, FieldType, RecordSpec, ScalarType } from '../catalogue/types';
import { decodeScalar, encodeScalar } from './scalars';
import { escapeAttr, escapeText, type XmlElement } from './xml';

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

interface CompiledRecord {
	spec: RecordSpec;
	elements: Map<string, FieldSpec>;
	attributes: FieldSpec[];
	children: FieldSpec[];
}

const compiled = new Map<string, CompiledRecord>();

function compile(recordName: string): CompiledRecord {
	let entry = compiled.get(recordName);
	if (!entry) {
		const spec = getRecord(recordName);
		const attributes = spec.fields.filter((f) => f.attribute);
		const children = spec.fields.filter((f) => !f.attribute);
		entry = { spec, attributes, children, elements: new Map(children.map((f) => [f.name, f])) };
		compiled.set(recordName, entry);
	}
	return entry;
}

function isScalar(type: FieldType): type is ScalarType {
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
export function writeRecord(out: XmlOut, element: string, recordName: string, value: unknown, path = recordName, rootAttrs: Record<string, string> = {}): void {
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
		const fieldPath = `${path}.${field.name}`;
		if (v === undefined || v === null) {
			if (field.nillable) out.nil(field.name);
			continue;
		}
		const type = field.type;
		if (isScalar(type)) {
			out.leaf(field.name, encodeField(type, v, fieldPath));
		} else if ('record' in type) {
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
export function writeList(out: XmlOut, element: string, itemElement: string, recordName: string, value: unknown, path = element, rootAttrs: Record<string, string> = {}): void {
	const items = asArray(value, path);
	out.raw(`<${element}${attributeText(rootAttrs)}>`);
	items.forEach((item, i) => writeRecord(out, itemElement, recordName, item, `${path}[${i}]`));
	out.raw(`</${element}>`);
}

function encodeField(type: ScalarType, value: unknown, path: string): string {
	try {
		return encodeScalar(type, value as never);
	} catch (error) {
		throw new RecordCodecError(`${path}: ${(error as Error).message}`, path);
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
interface PathRef {
	parent: PathRef | undefined;
	/** `.Name`, `.@Name` or `[3]`; the root's is its name. */
	step: string | number;
}

function pathText(ref: PathRef): string {
	const steps: string[] = [];
	for (let r: PathRef | undefined = ref; r; r = r.parent) steps.push(typeof r.step === 'number' ? `[${r.step}]` : r.step);
	return steps.reverse().join('');
}

/** Reads a record of type recordName from its element. */
export function readRecord(el: XmlElement, recordName: string, path = recordName): Record<string, unknown> {
	return readRecordAt(el, compile(recordName), { parent: undefined, step: path });
}

function readRecordAt(el: XmlElement, record: CompiledRecord, at: PathRef): Record<string, unknown> {
	const result: Record<string, unknown> = {};
	if (record.attributes.length > 0 && el.attrs.length > 0) {
		for (const field of record.attributes) {
			const attr = el.attrs.find((a) => a.local === field.name && a.ns === '');
			if (attr) result[field.name] = decodeField(field.type as ScalarType, attr.value, at, `.@${field.name}`);
		}
	}
	const children = el.children;
	for (let c = 0; c < children.length; c++) {
		const child = children[c];
		const field = record.elements.get(child.local);
		if (!field || (child.attrs.length > 0 && isNil(child))) continue;
		const type = field.type;
		if (isScalar(type)) {
			result[field.name] = decodeField(type, child.text, at, `.${field.name}`);
		} else if ('record' in type) {
			result[field.name] = readRecordAt(child, compile(type.record), { parent: at, step: `.${field.name}` });
		} else if ('list' in type) {
			result[field.name] = readListAt(child, type.item, compile(type.list), { parent: at, step: `.${field.name}` });
		} else {
			const items: unknown[] = [];
			const listAt: PathRef = { parent: at, step: `.${field.name}` };
			for (const item of child.children) {
				if (item.local === type.item && !isNil(item)) items.push(decodeField(type.scalarList, item.text, listAt, items.length));
			}
			result[field.name] = items;
		}
	}
	return result;
}

/** Reads the `<itemElement>` children of a list element as records; other children are ignored. */
export function readList(el: XmlElement, itemElement: string, recordName: string, path = itemElement): Record<string, unknown>[] {
	return readListAt(el, itemElement, compile(recordName), { parent: undefined, step: path });
}

function readListAt(el: XmlElement, itemElement: string, record: CompiledRecord, at: PathRef): Record<string, unknown>[] {
	const items: Record<string, unknown>[] = [];
	const children = el.children;
	for (let c = 0; c < children.length; c++) {
		const child = children[c];
		if (child.local === itemElement && !(child.attrs.length > 0 && isNil(child))) {
			items.push(readRecordAt(child, record, { parent: at, step: items.length }));
		}
	}
	return items;
}

/**
 * Canonical base64 without whitespace (what services send) is decoded and checked in two native
 * passes: Node's decoder is lenient, so the text is valid exactly when re-encoding gives it back
 * (alphabet, padding and zero padding bits). Anything else takes the strict scalar codec.
 */
function decodeBase64Fast(text: string): Uint8Array | undefined {
	if (text.length % 4 !== 0) return undefined;
	const buf = Buffer.from(text, 'base64');
	if (buf.toString('base64') !== text) return undefined;
	// A plain Uint8Array owning its memory, as the scalar codec returns (small Buffers share a pool).
	if (buf.byteOffset === 0 && buf.buffer.byteLength === buf.byteLength) return new Uint8Array(buf.buffer, 0, buf.byteLength);
	return new Uint8Array(buf);
}

function decodeField(type: ScalarType, text: string, at: PathRef, step: string | number): unknown {
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
