/** Writes and reads an operation's result element, shared by the SOAP and HTTP bindings. */
import { OPERATIONS, type OperationName } from '../catalogue';
import { FastRecordReader } from '../codecs/fastRecords';
import { readList, readRecord, type RecordReader, writeList, writeRecord, type XmlOut } from '../codecs/records';
import type { XmlElement, XmlParseOptions } from '../codecs/xml';

/** Writes the result as `<element>`: a record, or (rule 2) the record element repeated. */
export function writeResult(
	out: XmlOut,
	operation: OperationName,
	element: string,
	result: unknown,
	rootAttrs: Record<string, string> = {},
): void {
	const spec = OPERATIONS[operation].result;
	if (spec.kind === 'list') {
		writeList(out, element, spec.record, spec.record, result, element, rootAttrs);
	} else {
		writeRecord(out, element, spec.record, result, element, rootAttrs);
	}
}

/** Result elements read while parsing, with their readers. */
const streamed = new WeakMap<XmlElement, RecordReader>();

/**
 * The parse option that reads the result element of `operation` while parsing (see XmlParseOptions
 * stream): at `depth`, an element named `element` whose parent is named `parent` (when given).
 */
export function streamResult(
	operation: OperationName,
	depth: number,
	element: string,
	parent?: string,
): NonNullable<XmlParseOptions['stream']> {
	const spec = OPERATIONS[operation].result;
	return {
		depth,
		start(el, parentEl) {
			if (el.local !== element || (parent !== undefined && parentEl?.local !== parent)) return undefined;
			const reader = new FastRecordReader(spec.record, spec.kind === 'list' ? spec.record : undefined, el.local);
			streamed.set(el, reader);
			return reader;
		},
	};
}

/** Reads the result from its element (already read when the parse streamed it). */
export function readResult(operation: OperationName, el: XmlElement): unknown {
	const reader = streamed.get(el);
	if (reader !== undefined) return reader.result();
	const spec = OPERATIONS[operation].result;
	return spec.kind === 'list'
		? readList(el, spec.record, spec.record, el.local)
		: readRecord(el, spec.record, el.local);
}

/** The value of a missing result element: ASMX omits it when the method returns null. */
export function emptyResult(operation: OperationName): unknown {
	return OPERATIONS[operation].result.kind === 'list' ? [] : undefined;
}
