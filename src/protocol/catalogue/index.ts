/** Catalogue lookups: operations by name and endpoint, records by name, endpoint paths and namespace. */
import { ADMINISTRATION_OPERATIONS } from './administration';
import type { OperationName } from './model';
import { POSTING_OPERATIONS } from './posting';
import { RECORDS } from './records';
import { withTransportNames, type OperationDeclaration } from './transportNames';
import type { Endpoint, OperationSpec, RecordSpec } from './types';

export * from './types';
export * from './model';
export * from './valueSets';
export { RECORDS, type RecordName } from './records';
export { pagedListOf, type OperationDeclaration, type PagedListOf, type PagedRecordName } from './transportNames';

const DECLARED: Readonly<Record<OperationName, OperationDeclaration>> = {
	...POSTING_OPERATIONS,
	...ADMINISTRATION_OPERATIONS,
};

/** All 20 operations, keyed by name, with the element names the transport rules give them. */
export const OPERATIONS: Readonly<Record<OperationName, OperationSpec>> = Object.freeze(
	Object.fromEntries(
		Object.entries(DECLARED).map(([name, declaration]) => [name, withTransportNames(name, declaration, RECORDS)]),
	) as Record<OperationName, OperationSpec>,
);

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

const byLowerName = new Map(OPERATION_NAMES.map((name) => [name.toLowerCase(), name]));

export function isOperationName(name: string): name is OperationName {
	return Object.prototype.hasOwnProperty.call(OPERATIONS, name);
}

/** Resolves an operation name ignoring case (HTTP GET/POST paths are matched that way). */
export function resolveOperationName(name: string): OperationName | undefined {
	return isOperationName(name) ? name : byLowerName.get(name.toLowerCase());
}

export function operationsOf(endpoint: Endpoint): OperationName[] {
	return OPERATION_NAMES.filter((name) => OPERATIONS[name].endpoint === endpoint);
}

export function getRecord(name: string): RecordSpec {
	const record = (RECORDS as Record<string, RecordSpec>)[name];
	if (!record) {
		throw new Error(`Unknown record type ${name}`);
	}
	return record;
}

/**
 * Endpoint paths. The spec gives /SOAP/Administration.asmx but not the posting document's name, so
 * the posting path is this project's default and a setting of every connection.
 */
export const DEFAULT_ENDPOINT_PATHS: Readonly<Record<Endpoint, string>> = Object.freeze({
	posting: '/SOAP/Posting.asmx',
	administration: '/SOAP/Administration.asmx',
});

/** The spec's namespace rule: the service base address followed by a slash. */
export function defaultNamespace(baseUrl: string): string {
	return baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
}

/** SOAPAction of an operation: the namespace followed by the operation name (unquoted). */
export function soapAction(namespace: string, operation: string): string {
	return `${namespace}${operation}`;
}
