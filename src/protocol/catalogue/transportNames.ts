/**
 * The element names that the spec's transport rules give an operation's result, derived from its
 * name and result record instead of being written once per operation:
 * - SOAP: `<Operation>Response` holds `<Operation>Result`, except that a paged wrapper sits there
 *   directly (rule 1);
 * - HTTP GET/POST: the root is the result record, or `ArrayOf<Record>` for a list (rule 2);
 * - a paged wrapper is a record with PageCount, PageIndex and TotalItemCount and one list, which the
 *   client's pager walks.
 */
import type { RecordName, RECORDS } from './records';
import type { FieldSpec, OperationSpec, RecordSpec, ResultSpec } from './types';

/** What an operation entry declares; the transport names are derived (see withTransportNames). */
export type OperationDeclaration = Omit<OperationSpec, 'soapResult' | 'httpRoot' | 'pagedList'>;

const PAGE_FIELDS = ['PageCount', 'PageIndex', 'TotalItemCount'] as const;

/** The list field of a paged wrapper record, or undefined when the record is not one. */
export function pagedListOf(record: RecordSpec): string | undefined {
	const names = new Set(record.fields.map((field) => field.name));
	if (!PAGE_FIELDS.every((name) => names.has(name))) return undefined;
	const lists = record.fields.filter((field) => typeof field.type === 'object' && 'list' in field.type);
	return lists.length === 1 ? lists[0].name : undefined;
}

/** The operation entry with its SOAP result element, HTTP root and paged list. */
export function withTransportNames(
	name: string,
	declaration: OperationDeclaration,
	records: Readonly<Record<string, RecordSpec>>,
): OperationSpec {
	const result: ResultSpec = declaration.result;
	const record = records[result.record];
	if (!record) throw new Error(`${name}: unknown result record ${result.record}`);
	const pagedList = result.kind === 'record' ? pagedListOf(record) : undefined;
	return {
		...declaration,
		soapResult: pagedList === undefined ? `${name}Result` : result.record,
		httpRoot: result.kind === 'list' ? `ArrayOf${result.record}` : result.record,
		...(pagedList === undefined ? {} : { pagedList }),
	};
}

// ---- the same rules for the type system ------------------------------------------------------

type FieldsOf<R extends RecordName> = (typeof RECORDS)[R]['fields'][number];
type HasPageFields<R extends RecordName> = (typeof PAGE_FIELDS)[number] extends FieldsOf<R>['name'] ? true : false;

/** Records that are paged wrappers. */
export type PagedRecordName = { [R in RecordName]: HasPageFields<R> extends true ? R : never }[RecordName];

/** The list field of a paged wrapper. */
export type PagedListOf<R extends RecordName> = Extract<
	FieldsOf<R>,
	{ readonly type: { readonly list: string } }
>['name'] &
	FieldSpec['name'];
