/** Writes and reads an operation's result element, shared by the SOAP and HTTP bindings. */
import { OPERATIONS, type OperationName } from '../catalogue';
import { readList, readRecord, writeList, writeRecord, type XmlOut } from '../codecs/records';
import type { XmlElement } from '../codecs/xml';

/** Writes the result as `<element>`: a record, or (rule 2) the record element repeated. */
export function writeResult(out: XmlOut, operation: OperationName, element: string, result: unknown, rootAttrs: Record<string, string> = {}): void {
	const spec = OPERATIONS[operation].result;
	if (spec.kind === 'list') {
		writeList(out, element, spec.record, spec.record, result, element, rootAttrs);
	} else {
		writeRecord(out, element, spec.record, result, element, rootAttrs);
	}
}

/** Reads the result from its element. */
export function readResult(operation: OperationName, el: XmlElement): unknown {
	const spec = OPERATIONS[operation].result;
	return spec.kind === 'list' ? readList(el, spec.record, spec.record, el.local) : readRecord(el, spec.record, el.local);
}

/** The value of a missing result element: ASMX omits it when the method returns null. */
export function emptyResult(operation: OperationName): unknown {
	return OPERATIONS[operation].result.kind === 'list' ? [] : undefined;
}
