/**
 * TypeScript types derived from the catalogue at compile time, so that a record's fields or an
 * operation's parameters cannot drift from the data that drives the codecs.
 */
import type { ADMINISTRATION_OPERATIONS } from './administration';
import type { POSTING_OPERATIONS } from './posting';
import type { RecordName, RECORDS } from './records';
import type { PagedListOf, PagedRecordName } from './transportNames';
import type { ScalarType } from './types';

/** The TypeScript value of each XML Schema scalar. decimal stays a string: no float rounding. */
export interface ScalarValueMap {
	string: string;
	int: number;
	short: number;
	unsignedByte: number;
	decimal: string;
	boolean: boolean;
	/** xs:dateTime exactly as on the wire; see scalars.dateTimeToDate. */
	dateTime: string;
	base64Binary: Uint8Array;
}

type FieldValue<T> = T extends ScalarType
	? ScalarValueMap[T]
	: T extends { readonly record: infer R }
		? R extends RecordName
			? RecordOf<R>
			: never
		: T extends { readonly list: infer R }
			? R extends RecordName
				? RecordOf<R>[]
				: never
			: T extends { readonly scalarList: infer S }
				? S extends ScalarType
					? ScalarValueMap[S][]
					: never
				: never;

/**
 * A decoded record. Every field is optional: a decoder never invents a missing element, and nil
 * elements (xsi:nil) decode as absent.
 */
export type RecordOf<N extends RecordName> = {
	-readonly [F in (typeof RECORDS)[N]['fields'][number] as F['name']]?: FieldValue<F['type']>;
};

type AllOperations = typeof POSTING_OPERATIONS & typeof ADMINISTRATION_OPERATIONS;
export type OperationName = keyof AllOperations;

interface ParamValueMap {
	string: string;
	int: number;
	boolean: boolean;
	'string[]': string[];
}

type ParamsList<O extends OperationName> = AllOperations[O]['params'][number];
/** The parameter names of an operation, as the catalogue spells them. */
export type ParamNameOf<O extends OperationName> = ParamsList<O>['name'];
// Value-type parameters without a default are minOccurs=1 in SOAP, so the caller must give them.
type IsRequired<P> = P extends { readonly type: 'int' | 'boolean' }
	? P extends { readonly default: unknown }
		? false
		: true
	: false;

/** The parameters of an operation. Strings are optional; value types without a default are required. */
export type ParamsOf<O extends OperationName> = {
	-readonly [P in ParamsList<O> as IsRequired<P> extends true ? P['name'] : never]: ParamValueMap[P['type']];
} & {
	-readonly [P in ParamsList<O> as IsRequired<P> extends true ? never : P['name']]?: ParamValueMap[P['type']];
};

/** Operations whose result is a paged wrapper (walked by the client's pager). */
export type PagedOperationName = {
	[O in OperationName]: AllOperations[O]['result'] extends {
		readonly kind: 'record';
		readonly record: PagedRecordName;
	}
		? O
		: never;
}[OperationName];

/** The list field of a paged operation's wrapper. */
export type PagedListName<O extends PagedOperationName> = AllOperations[O]['result']['record'] extends infer R
	? R extends PagedRecordName
		? PagedListOf<R>
		: never
	: never;

/** The decoded result of an operation. */
export type ResultOf<O extends OperationName> = AllOperations[O]['result'] extends {
	kind: 'list';
	record: infer R extends RecordName;
}
	? RecordOf<R>[]
	: AllOperations[O]['result'] extends { kind: 'record'; record: infer R extends RecordName }
		? RecordOf<R>
		: never;

/** A parameter value of any operation as it travels between layers. */
export type ParamValue = string | number | boolean | string[];
/** Parameters of any operation, before type-checking by name. */
export type AnyParams = Record<string, ParamValue | undefined>;

export type Advert = RecordOf<'Advert'>;
export type APIAdvertValue = RecordOf<'APIAdvertValue'>;
export type APIAdvertWithValues = RecordOf<'APIAdvertWithValues'>;
export type APIPosting = RecordOf<'APIPosting'>;
export type APIAdvertWithPostings = RecordOf<'APIAdvertWithPostings'>;
export type AdvertPaged = RecordOf<'AdvertPaged'>;
export type AdvertWithValuesPaged = RecordOf<'AdvertWithValuesPaged'>;
export type ApplicationPaged = RecordOf<'ApplicationPaged'>;
export type APIDocument = RecordOf<'APIDocument'>;
export type APIApplication = RecordOf<'APIApplication'>;
export type CPostFeed = RecordOf<'CPostFeed'>;
export type CFeedQuotaWithFeedList = RecordOf<'CFeedQuotaWithFeedList'>;
export type CFeed = RecordOf<'CFeed'>;
export type CUser = RecordOf<'CUser'>;
export type AdvertTrackingLog = RecordOf<'AdvertTrackingLog'>;
export type CQueryJobTitle = RecordOf<'CQueryJobTitle'>;
export type GetValue = RecordOf<'GetValue'>;
export type AddAdvertResult = RecordOf<'AddAdvertResult'>;
export type GetLoginURLResult = RecordOf<'GetLoginURLResult'>;
export type CandidateTagResult = RecordOf<'CandidateTagResult'>;
